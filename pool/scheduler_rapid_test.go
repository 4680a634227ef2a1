//go:build go1.25

package pool_test

import (
	"context"
	"errors"
	"runtime"
	"slices"
	"testing"

	"github.com/poolkit/poolkit/internal/testkit"

	"pgregory.net/rapid"

	"github.com/poolkit/poolkit/pool"
)

// schedModel is the scheduler's contract on a pool of one worker whose
// queue holds queueSize tasks: which task starts next, which is shed, which
// is refused. Tickets are the pool's queued units: the worker takes them in
// turn, and one whose task has left starts nothing.
type schedModel struct {
	queueSize int
	busy      bool     // the worker runs a task
	tickets   int      // tickets queued in the pool
	classes   [8][]int // waiting task ids, oldest first
	passed    [8]int
}

func (m *schedModel) waiting() int {
	n := 0
	for _, q := range m.classes {
		n += len(q)
	}
	return n
}

// submit returns the id shed for it (-1: none), and whether it was
// accepted.
func (m *schedModel) submit(id, c int) (shed int, ok bool) {
	switch {
	case !m.busy:
		m.busy = true // handed to the idle worker, which starts it at once
		return -1, true
	case m.tickets > m.waiting():
	case m.tickets < m.queueSize:
		m.tickets++
	default:
		low := slices.IndexFunc(m.classes[:], func(q []int) bool { return len(q) > 0 })
		if low < 0 || low >= c {
			return -1, false
		}
		q := m.classes[low]
		shed = q[len(q)-1]
		m.remove(low, len(q)-1)
		m.classes[c] = append(m.classes[c], id)
		return shed, true
	}
	m.classes[c] = append(m.classes[c], id)
	return -1, true
}

func (m *schedModel) remove(c, i int) {
	m.classes[c] = slices.Delete(m.classes[c], i, i+1)
	if len(m.classes[c]) == 0 {
		m.passed[c] = 0
	}
}

// release ends the running task; it returns the id that starts next (-1:
// the worker goes idle).
func (m *schedModel) release() int {
	for m.tickets > 0 {
		m.tickets--
		top := -1
		for c := 7; c >= 0; c-- {
			if len(m.classes[c]) > 0 {
				top = c
				break
			}
		}
		if top < 0 {
			continue
		}
		pick := top
		for l := top - 1; l >= 0; l-- {
			if len(m.classes[l]) > 0 && m.passed[l] >= 7 {
				pick = l
				break
			}
		}
		id := m.classes[pick][0]
		m.remove(pick, 0)
		m.passed[pick] = 0
		for c := range m.classes {
			if c != pick && len(m.classes[c]) > 0 && m.passed[c] < 8 {
				m.passed[c]++
			}
		}
		return id
	}
	m.busy = false
	return -1
}

func (m *schedModel) expire(id int) bool {
	for c, q := range m.classes {
		if i := slices.Index(q, id); i >= 0 {
			m.remove(c, i)
			return true
		}
	}
	return false
}

// TestSchedulerModel: PRI-1, PRI-2, PRI-3, PRI-5. Random sequences of
// submissions in random classes, cancellations and starts on a pool of
// one worker: the scheduler starts, sheds, refuses and expires exactly
// the tasks the model does.
func TestSchedulerModel(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		m := &schedModel{queueSize: rapid.SampledFrom([]int{1, 2, 4}).Draw(rt, "queue")}
		p, err := pool.New(1, pool.WithQueueSize(m.queueSize))
		if err != nil {
			rt.Fatal(err)
		}
		s, err := pool.NewScheduler(p)
		if err != nil {
			rt.Fatal(err)
		}
		started := make(chan int)
		next := make(chan struct{}) // closed at the end: every task still to run returns at once
		defer func() {
			close(next)
			if err := shutdownWithin(p, testkit.FailBound); err != nil {
				rt.Fatal(err)
			}
		}()
		var futures []*pool.Future[int]
		var cancels []context.CancelFunc
		expired := uint64(0)
		release := func() {
			next <- struct{}{}
			if want := m.release(); want >= 0 {
				if got := <-started; got != want {
					rt.Fatalf("task %d started, the model starts %d", got, want)
				}
			}
		}
		for step := range rapid.IntRange(1, 60).Draw(rt, "steps") {
			switch op := rapid.IntRange(0, 9).Draw(rt, "op"); {
			case op < 6:
				id, c := len(futures), rapid.IntRange(0, 2).Draw(rt, "class")
				ctx, cancel := context.WithCancel(bg)
				f, err := pool.Schedule(ctx, s, pool.Class(c), func() (int, error) {
					select {
					case started <- id:
						<-next
					case <-next: // the test has ended (a failure): nobody reads started
					}
					return id, nil
				})
				wasIdle := !m.busy
				shed, ok := m.submit(id, c)
				if ok != (err == nil) {
					rt.Fatalf("step %d: task %d of class %d: Schedule = %v, the model accepts: %v", step, id, c, err, ok)
				}
				if err != nil && !errors.Is(err, pool.ErrShed) {
					rt.Fatalf("step %d: refused with %v, want ErrShed", step, err)
				}
				futures, cancels = append(futures, f), append(cancels, cancel)
				if ok && wasIdle { // it went to the idle worker
					if got := <-started; got != id {
						rt.Fatalf("task %d started on the idle worker, want %d", got, id)
					}
				}
				if shed >= 0 {
					if _, err := futures[shed].Wait(bg); !errors.Is(err, pool.ErrShed) {
						rt.Fatalf("step %d: the model sheds %d, its Future says %v", step, shed, err)
					}
				}
			case op < 8:
				if len(futures) == 0 {
					continue
				}
				id := rapid.IntRange(0, len(futures)-1).Draw(rt, "cancel")
				cancels[id]()
				if m.expire(id) {
					expired++
					for p.Stats().Expired < expired {
						runtime.Gosched()
					}
					if _, err := futures[id].Wait(bg); !errors.Is(err, context.Canceled) {
						rt.Fatalf("step %d: the model expires %d, its Future says %v", step, id, err)
					}
				}
			default:
				if m.busy {
					release()
				}
			}
		}
		for m.busy {
			release()
		}
	})
}
