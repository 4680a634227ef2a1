package spectest

import (
	"errors"
	"math/rand/v2"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
	"testing/synctest"
	"time"

	"github.com/anishathalye/porcupine"
	"pgregory.net/rapid"

	"github.com/poolkit/poolkit/resize"
)

// goSubmit submits from a goroutine of its own, since Submit may block.
func goSubmit(p Pool, task func()) chan error {
	res := make(chan error, 1)
	go func() { res <- submit(p, task) }()
	return res
}

// goSubmitGated submits n tasks tracked by tr (ids 0..n-1) that wait for
// gate, each from a goroutine of its own.
func goSubmitGated(p Pool, tr *tracker, gate <-chan struct{}, n int) {
	for i := range n {
		goSubmit(p, tr.task(i, gate))
	}
}

// makeIdle leaves n idle workers behind by running n gated tasks at once.
func (c *Case) makeIdle(p Pool, n int) {
	c.T.Helper()
	if !c.runAtOnce(p, n) {
		c.T.FailNow()
	}
}

var capacityClauses = []Clause{
	{ID: "CAP-1", Level: Must, Slug: "full-width",
		Title: "A saturated pool runs exactly its capacity of tasks at once: never more, and no fewer.",
		Run: func(c *Case) {
			c.Bubble(func(c *Case) {
				p := c.New(Config{Size: 3})
				tr := newTracker()
				gate := c.gate()
				defer open(gate)
				goSubmitGated(p, tr, gate, 6)
				synctest.Wait()
				if tr.now.Load() != 3 || tr.peak.Load() != 3 {
					c.T.Errorf("%d running (peak %d), want 3", tr.now.Load(), tr.peak.Load())
				}
			})
		}},
	{ID: "CAP-2", Level: Must, Slug: "shrink-with-idle-workers", Needs: []Capability{Resize},
		Title: "After Resize(n) returns, no task starts while n or more run, even with idle workers at hand.",
		Run: func(c *Case) {
			c.Bubble(func(c *Case) {
				p := c.New(Config{Size: 4})
				c.makeIdle(p, 4)
				if err := asResizer(p).Resize(2); err != nil {
					c.T.Fatal(err)
				}
				tr := newTracker()
				gate := c.gate()
				defer open(gate)
				goSubmitGated(p, tr, gate, 4)
				synctest.Wait()
				if tr.now.Load() != 2 || tr.peak.Load() != 2 {
					c.T.Errorf("after Resize(2): %d tasks running (peak %d), want 2", tr.now.Load(), tr.peak.Load())
				}
			})
		}},
	{ID: "CAP-3", Level: Must, Slug: "shrink-drains", Needs: []Capability{Resize},
		Title: "A shrink interrupts no running task; the excess drains, and waiting tasks start only once fewer than the new capacity run.",
		Run: func(c *Case) {
			c.Bubble(func(c *Case) {
				p := c.New(Config{Size: 4})
				tr := newTracker()
				gates := make([]chan struct{}, 6)
				for i := range gates {
					gates[i] = c.gate()
					goSubmit(p, tr.task(i, gates[i]))
					synctest.Wait() // keep the order: 0-3 run, 4 and 5 wait
				}
				done := make(chan error, 1)
				go func() { done <- asResizer(p).Resize(1) }()
				synctest.Wait()
				if tr.now.Load() != 4 {
					c.T.Fatalf("after Resize(1): %d running, want the 4 that were running", tr.now.Load())
				}
				for i := range 3 {
					open(gates[i])
					synctest.Wait()
					if tr.now.Load() != int64(3-i) || tr.ran(4)+tr.ran(5) != 0 {
						c.T.Fatalf("after %d of 4 finished: %d running, waiting tasks started %d; want %d, 0",
							i+1, tr.now.Load(), tr.ran(4)+tr.ran(5), 3-i)
					}
				}
				open(gates[3])
				synctest.Wait()
				if tr.now.Load() != 1 {
					c.T.Errorf("with the excess drained: %d running, want 1", tr.now.Load())
				}
				if err := <-done; err != nil {
					c.T.Errorf("Resize(1) = %v", err)
				}
			})
		}},
	{ID: "CAP-4", Level: Must, Slug: "grow-is-prompt", Needs: []Capability{Resize},
		Title: "A grow starts waiting tasks at once, without waiting for a running task to finish.",
		Run: func(c *Case) {
			c.Bubble(func(c *Case) {
				p := c.New(Config{Size: 1})
				tr := newTracker()
				gate := c.gate()
				defer open(gate)
				goSubmitGated(p, tr, gate, 3)
				synctest.Wait()
				if err := asResizer(p).Resize(4); err != nil {
					c.T.Fatal(err)
				}
				synctest.Wait()
				if tr.now.Load() != 3 {
					c.T.Errorf("after Resize(4) with 1 running and 2 waiting: %d running, want 3", tr.now.Load())
				}
			})
		}},
	{ID: "CAP-5", Level: Must, Slug: "bound-under-stress",
		Title: "Under many concurrent submitters, no more tasks than the capacity ever run at once.",
		Run: func(c *Case) {
			p := c.New(Config{Size: 3})
			tr := newTracker()
			var wg sync.WaitGroup
			for s := range 4 {
				wg.Go(func() {
					for i := range 500 {
						task := tr.task(s*1000+i, nil)
						if err := submit(p, func() { task(); runtime.Gosched() }); err != nil {
							c.T.Error(err)
							return
						}
					}
				})
			}
			wg.Wait()
			if tr.peak.Load() > 3 {
				c.T.Errorf("peak concurrency %d with capacity 3", tr.peak.Load())
			}
		}},
	{ID: "CAP-6", Level: Must, Slug: "random-resizes", Needs: []Capability{Resize},
		Title: "Over random sequences of submissions, finishes and resizes, no task starts at or above the capacity in force, and every accepted task runs exactly once.",
		Run: func(c *Case) {
			rapid.Check(c.T, func(t *rapid.T) {
				rapid.SyncTest(t, func(t *rapid.T) { randomResizes(c, t) })
			})
		}},
	{ID: "CAP-7", Level: Must, Slug: "shrink-between-tasks", Needs: []Capability{Resize},
		Title: "After Resize(n) returns, a later task does not start while n run, not even on a worker that has just finished a task and is looking for the next.",
		Run:   checkShrinkBetweenTasks},
	{ID: "CAP-8", Level: Must, Slug: "grow-while-arriving", Needs: []Capability{Resize},
		Title: "A grow racing submitters on their way to wait loses none of them: every task that fits the new capacity starts.",
		Run:   checkGrowWhileArriving},
	{ID: "CAP-9", Level: Must, Slug: "no-lost-wakeup",
		Title: "No task waits beside a free slot: two tasks submitted back to back to a pool with room for both both start, even while a worker is between tasks.",
		Run:   checkNoLostWakeup},
	{ID: "CAP-10", Level: Must, Slug: "waiting-means-full", Needs: []Capability{RunningWaiting},
		Title: "Once a burst of submissions has settled, Waiting() > 0 implies Running() == Cap(): work waits only while every slot is busy.",
		Run:   checkWaitingMeansFull},
}

// randomResizes is one run of CAP-6's state machine.
func randomResizes(c *Case, t *rapid.T) {
	size := rapid.IntRange(1, 3).Draw(t, "size")
	p, err := c.newRaw(Config{Size: size})
	if err != nil {
		t.Fatal(err)
	}
	var limit atomic.Int64 // the capacity a start must stay under
	limit.Store(int64(size))
	tr := newTracker()
	gates := map[int]chan struct{}{}
	pending := map[int]chan error{}
	accepted := map[int]bool{}
	next, checked := 0, 0
	settle := func() {
		synctest.Wait()
		for id, res := range pending {
			select {
			case err := <-res:
				delete(pending, id)
				if err == nil {
					accepted[id] = true
				}
			default:
			}
		}
		tr.mu.Lock()
		seen := tr.seen[checked:]
		checked = len(tr.seen)
		tr.mu.Unlock()
		for _, before := range seen {
			if before >= limit.Load() {
				t.Fatalf("a task started with %d running and capacity %d", before, limit.Load())
			}
		}
	}
	defer func() {
		for _, g := range gates {
			close(g)
		}
		synctest.Wait() // blocked submissions go through before the close
		ctx, cancel := contextWithTimeout(time.Hour)
		defer cancel()
		if err := p.Shutdown(ctx); err != nil {
			t.Errorf("Shutdown = %v", err)
		}
		for id, res := range pending {
			if err := <-res; err == nil {
				accepted[id] = true
			}
		}
		for id := range next {
			if want := map[bool]int{true: 1}[accepted[id]]; tr.ran(id) != want {
				t.Errorf("task %d (accepted %v) ran %d times", id, accepted[id], tr.ran(id))
			}
		}
	}()
	t.Repeat(map[string]func(*rapid.T){
		"Submit": func(t *rapid.T) {
			id := next
			next++
			gates[id] = make(chan struct{})
			pending[id] = goSubmit(p, tr.task(id, gates[id]))
			settle()
		},
		"Finish": func(t *rapid.T) {
			var running []int
			for id, g := range gates {
				if tr.ran(id) > 0 {
					running = append(running, id)
				}
				_ = g
			}
			if len(running) == 0 {
				t.Skip("nothing running")
			}
			slicesSort(running)
			id := running[rapid.IntRange(0, len(running)-1).Draw(t, "i")]
			close(gates[id])
			delete(gates, id)
			settle()
		},
		"Resize": func(t *rapid.T) {
			n := rapid.IntRange(1, 4).Draw(t, "n")
			// While the call is in progress a start may be ordered before it.
			limit.Store(max(limit.Load(), int64(n)))
			if err := asResizer(p).Resize(n); err != nil {
				t.Fatalf("Resize(%d) = %v", n, err)
			}
			limit.Store(int64(n))
			settle()
		},
	})
}

var resizeClauses = []Clause{
	{ID: "RSZ-1", Level: Must, Slug: "linearizable", Needs: []Capability{Resize},
		Title: "Resize and Cap are linearizable: concurrent calls have one order, and Cap never returns a value nobody set.",
		Run:   func(c *Case) { checkLinearizable(c) }},
	{ID: "RSZ-2", Level: Must, Slug: "returns-at-once", Needs: []Capability{Resize},
		Title: "Resize returns without waiting for running tasks.",
		Run: func(c *Case) {
			c.Bubble(func(c *Case) {
				p := c.New(Config{Size: 3})
				tr := newTracker()
				gate := c.gate()
				defer open(gate)
				goSubmitGated(p, tr, gate, 3)
				synctest.Wait()
				start := time.Now()
				done := make(chan error, 1)
				go func() { done <- asResizer(p).Resize(1) }()
				synctest.Wait()
				select {
				case err := <-done:
					if err != nil {
						c.T.Fatal(err)
					}
					if d := time.Since(start); d != 0 {
						c.T.Errorf("Resize(1) returned after %v with tasks running, want at once", d)
					}
				default:
					c.T.Error("Resize(1) is blocked while tasks run")
				}
			})
		}},
	{ID: "RSZ-3", Level: Must, Slug: "idempotent", Needs: []Capability{Resize},
		Title: "Resize to the current capacity changes nothing: no task starts or stops, and Cap is unchanged.",
		Run: func(c *Case) {
			c.Bubble(func(c *Case) {
				p := c.New(Config{Size: 2})
				tr := newTracker()
				gate := c.gate()
				defer open(gate)
				goSubmitGated(p, tr, gate, 4)
				synctest.Wait()
				for range 3 {
					if err := asResizer(p).Resize(2); err != nil {
						c.T.Fatal(err)
					}
				}
				synctest.Wait()
				if tr.now.Load() != 2 || asResizer(p).Cap() != 2 {
					c.T.Errorf("after Resize(2) x3 on a pool of 2: %d running, Cap %d; want 2, 2", tr.now.Load(), asResizer(p).Cap())
				}
			})
		}},
	{ID: "RSZ-4", Level: Must, Slug: "invalid-size", Needs: []Capability{Resize},
		Title: "Resize with a size below 1 returns an error matching resize.ErrInvalidSize and changes nothing.",
		Run: func(c *Case) {
			p := c.New(Config{Size: 3})
			r := asResizer(p)
			for _, n := range []int{0, -1} {
				if err := r.Resize(n); !errors.Is(err, resize.ErrInvalidSize) {
					c.T.Errorf("Resize(%d) = %v, want resize.ErrInvalidSize", n, err)
				}
				if r.Cap() != 3 {
					c.T.Errorf("after Resize(%d): Cap() = %d, want 3", n, r.Cap())
				}
			}
		}},
	{ID: "RSZ-5", Level: Must, Slug: "after-close", Needs: []Capability{Resize},
		Title: "Resize on a closed pool returns an error matching resize.ErrClosed and changes nothing.",
		Run: func(c *Case) {
			p := c.New(Config{Size: 3})
			ctx, cancel := contextWithTimeout(releaseWait)
			defer cancel()
			if err := p.Shutdown(ctx); err != nil {
				c.T.Fatal(err)
			}
			r := asResizer(p)
			if err := r.Resize(5); !errors.Is(err, resize.ErrClosed) {
				c.T.Errorf("Resize(5) after close = %v, want resize.ErrClosed", err)
			}
			if r.Cap() != 3 {
				c.T.Errorf("Cap() = %d after Resize on a closed pool, want 3", r.Cap())
			}
		}},
}

type capIn struct {
	resize bool
	size   int
}

// capModel is the capacity as a register: a Resize with a valid size
// writes it, Cap reads it.
var capModel = porcupine.Model{
	Init: func() any { return 4 },
	Step: func(state, input, output any) (bool, any) {
		s, in := state.(int), input.(capIn)
		if in.resize {
			return output == nil, in.size
		}
		return output.(int) == s, s
	},
	DescribeOperation: func(input, output any) string {
		if in := input.(capIn); in.resize {
			return "Resize(" + strconv.Itoa(in.size) + ")"
		}
		return "Cap() = " + strconv.Itoa(output.(int))
	},
}

// checkLinearizable records concurrent Resize and Cap calls on a pool
// under load and checks the history with porcupine.
func checkLinearizable(c *Case) {
	for round := range 10 {
		p := c.New(Config{Size: 4})
		r := asResizer(p)
		var clock atomic.Int64
		var mu sync.Mutex
		var history []porcupine.Operation
		stop := make(chan struct{})
		var load sync.WaitGroup
		load.Go(func() {
			for {
				select {
				case <-stop:
					return
				default:
				}
				_ = submit(p, func() {})
			}
		})
		var clients sync.WaitGroup
		for id := range 3 {
			clients.Go(func() {
				rnd := rand.New(rand.NewPCG(uint64(round), uint64(id)))
				for range 40 {
					in := capIn{resize: rnd.IntN(2) == 0, size: 1 + rnd.IntN(6)}
					call := clock.Add(1)
					var out any
					if in.resize {
						if err := r.Resize(in.size); err != nil {
							out = err
						}
					} else {
						out = r.Cap()
					}
					ret := clock.Add(1)
					mu.Lock()
					history = append(history, porcupine.Operation{ClientId: id, Input: in, Call: call, Output: out, Return: ret})
					mu.Unlock()
				}
			})
		}
		clients.Wait()
		close(stop)
		load.Wait()
		if porcupine.CheckOperationsTimeout(capModel, history, 10*time.Second) == porcupine.Illegal {
			c.T.Fatalf("round %d: %d Resize/Cap operations have no linearization", round, len(history))
		}
	}
}
