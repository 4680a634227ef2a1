//go:build go1.25

package pool_test

import (
	"errors"
	"slices"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"pgregory.net/rapid"

	"github.com/poolkit/poolkit/pool"
)

// machine is a model of a non-blocking pool driven by random sequences of
// Submit, Finish, Panic, Goexit, Resize, invalid Resize, Close and
// ShutdownNow. Tasks hold until the test finishes them, and after each step
// the test waits for the pool to go quiet (synctest.Wait), so the model
// can say exactly which tasks run and which wait.
type machine struct {
	p     *pool.Pool
	queue int // queue size

	// the model
	capacity  int
	closed    bool
	running   []int // ids of started, unfinished tasks
	queued    []int // ids accepted but not started, oldest first
	finished  int
	submitted int
	rejected  int
	panicked  int
	returned  int

	// what the tasks report
	mu      sync.Mutex
	started []int
	gates   map[int]chan string // per task: how to finish ("", "panic", "goexit")
	nextID  int
}

func (m *machine) task(id int) func() {
	gate := make(chan string, 1)
	m.gates[id] = gate
	return func() {
		m.mu.Lock()
		m.started = append(m.started, id)
		m.mu.Unlock()
		switch <-gate {
		case "panic":
			panic("machine")
		case "goexit":
			runtimeGoexit()
		}
	}
}

// fill starts queued tasks while there is capacity, as the pool must.
func (m *machine) fill() {
	for len(m.running) < m.capacity && len(m.queued) > 0 {
		m.running = append(m.running, m.queued[0])
		m.queued = m.queued[1:]
	}
}

func (m *machine) submit(t *rapid.T) {
	id := m.nextID
	m.nextID++
	err := m.p.Submit(bg, m.task(id))
	synctest.Wait()
	var want error
	switch {
	case m.closed:
		want = pool.ErrClosed
	case len(m.running) < m.capacity:
		m.running = append(m.running, id)
	case len(m.queued) < m.queue:
		m.queued = append(m.queued, id)
	default:
		want = pool.ErrOverload
	}
	if want != nil {
		m.rejected++
	} else {
		m.submitted++
	}
	if !errors.Is(err, want) || (want == nil) != (err == nil) {
		t.Fatalf("Submit = %v, model wants %v", err, want)
	}
}

func (m *machine) finish(t *rapid.T, how string) {
	if len(m.running) == 0 {
		t.Skip("nothing running")
	}
	i := rapid.IntRange(0, len(m.running)-1).Draw(t, "i")
	id := m.running[i]
	m.running = slices.Delete(m.running, i, i+1)
	m.gates[id] <- how
	m.finished++
	if how == "panic" {
		m.panicked++
	}
	m.fill()
	synctest.Wait()
}

func (m *machine) resize(t *rapid.T) {
	n := rapid.IntRange(-1, 5).Draw(t, "n")
	err := m.p.Resize(n)
	synctest.Wait()
	switch {
	case n < 1:
		if !errors.Is(err, pool.ErrInvalidSize) {
			t.Fatalf("Resize(%d) = %v, want ErrInvalidSize", n, err)
		}
	case m.closed:
		if !errors.Is(err, pool.ErrClosed) {
			t.Fatalf("Resize(%d) on closed pool = %v, want ErrClosed", n, err)
		}
	default:
		if err != nil {
			t.Fatalf("Resize(%d) = %v", n, err)
		}
		m.capacity = n
		m.fill()
	}
}

func (m *machine) release(t *rapid.T, now bool) {
	// Closing ends the interesting part of a run, so it is drawn rarely.
	if rapid.IntRange(0, 15).Draw(t, "rare") != 0 {
		t.Skip("release is rare")
	}
	if now {
		back := m.p.ShutdownNow()
		synctest.Wait()
		if len(back) != len(m.queued) {
			t.Fatalf("ShutdownNow returned %d tasks, model has %d queued", len(back), len(m.queued))
		}
		m.returned += len(back)
		m.queued = nil
	} else {
		m.p.Close()
		synctest.Wait()
	}
	m.closed = true
}

// check compares every gauge and counter with the model.
func (m *machine) check(t *rapid.T) {
	s := m.p.Stats()
	if s.Cap != m.capacity || s.Running != len(m.running) || s.Waiting != len(m.queued) {
		t.Fatalf("Cap/Running/Waiting = %d/%d/%d, model %d/%d/%d",
			s.Cap, s.Running, s.Waiting, m.capacity, len(m.running), len(m.queued))
	}
	if s.Submitted != uint64(m.submitted) || s.Completed != uint64(m.finished) ||
		s.Rejected != uint64(m.rejected) || s.Panicked != uint64(m.panicked) || s.Returned != uint64(m.returned) {
		t.Fatalf("Stats %+v, model submitted %d finished %d rejected %d panicked %d returned %d",
			s, m.submitted, m.finished, m.rejected, m.panicked, m.returned)
	}
	if s.Workers < s.Running || s.Idle > s.Workers || free(m.p) != max(0, m.capacity-len(m.running)) {
		t.Fatalf("inconsistent gauges %+v, Free %d", s, free(m.p))
	}
	m.mu.Lock()
	started := slices.Clone(m.started)
	m.mu.Unlock()
	slices.Sort(started)
	if len(slices.Compact(slices.Clone(started))) != len(started) {
		t.Fatalf("a task started twice: %v", started)
	}
	if len(started) != m.finished+len(m.running) {
		t.Fatalf("%d tasks started, model says %d", len(started), m.finished+len(m.running))
	}
	for _, id := range m.running {
		if _, ok := slices.BinarySearch(started, id); !ok {
			t.Fatalf("task %d should be running but never started", id)
		}
	}
	for _, id := range m.queued {
		if _, ok := slices.BinarySearch(started, id); ok {
			t.Fatalf("task %d should be queued but started", id)
		}
	}
}

// TestStateMachine checks the pool against the model over random operation
// sequences, with and without a queue. Every sequence runs in one bubble
// (rapid's own bubble per sequence, SyncTest, needs a rapid that needs Go
// 1.23, above the module's floor); each sequence shuts its pool down, so
// none leaves a goroutine to the next. rapid is handed the test behind
// inBubble, which hides the test's deadline: testing refuses Deadline in a
// bubble.
func TestStateMachine(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		rapid.Check(inBubble{t}, func(t *rapid.T) {
			m := &machine{
				capacity: rapid.IntRange(1, 4).Draw(t, "cap"),
				queue:    rapid.IntRange(0, 3).Draw(t, "queue"),
				gates:    map[int]chan string{},
			}
			p, err := pool.New(m.capacity, pool.WithQueueSize(m.queue), pool.WithMaxWaiting(0),
				pool.WithPanicHandler(func(any) {}))
			if err != nil {
				t.Fatal(err)
			}
			m.p = p
			defer func() {
				for _, g := range m.gates {
					select {
					case g <- "":
					default:
					}
				}
				if err := shutdownWithin(p, time.Hour); err != nil {
					t.Errorf("Shutdown = %v", err)
				}
			}()
			t.Repeat(map[string]func(*rapid.T){
				"Submit":      m.submit,
				"Submit too":  m.submit, // submissions drive everything: draw them twice as often
				"Finish":      func(t *rapid.T) { m.finish(t, "") },
				"Panic":       func(t *rapid.T) { m.finish(t, "panic") },
				"Goexit":      func(t *rapid.T) { m.finish(t, "goexit") },
				"Resize":      m.resize,
				"Close":       func(t *rapid.T) { m.release(t, false) },
				"ShutdownNow": func(t *rapid.T) { m.release(t, true) },
				"":            m.check,
			})
		})
	})
}

// inBubble is a test running in a synctest bubble, as rapid sees it.
type inBubble struct{ *testing.T }
