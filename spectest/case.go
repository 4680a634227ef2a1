package spectest

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/poolkit/poolkit/resize"
)

// Case is what a clause works with: the test and the implementation.
type Case struct {
	T      *testing.T
	impl   Implementation
	bubble bool            // inside a synctest bubble
	gates  []chan struct{} // opened, if still shut, before pools are released
	na     *string         // why the clause does not apply, once NA is called
}

// gate returns a channel for tasks to wait on. Close it with open; any
// gate still shut when the clause ends is opened before the clause's pools
// are released, so a failed assertion never leaves tasks stuck.
func (c *Case) gate() chan struct{} {
	g := make(chan struct{})
	c.gates = append(c.gates, g)
	return g
}

// open closes a gate made by Case.gate, once.
func open(g chan struct{}) {
	select {
	case <-g:
	default:
		close(g)
	}
}

// releaseWait bounds the release a Case does when a clause ends.
const releaseWait = 30 * time.Second

// New builds a pool for the clause, failing the clause if it cannot, and
// releases it when the clause ends unless the clause released it itself.
func (c *Case) New(cfg Config) Pool {
	c.T.Helper()
	p, err := c.newRaw(cfg)
	if err != nil {
		c.T.Fatalf("New(%+v) = %v", cfg, err)
	}
	tp := &trackedPool{Pool: p}
	c.T.Cleanup(func() {
		for _, g := range c.gates {
			open(g)
		}
		if c.bubble {
			synctest.Wait() // let submissions in flight settle before closing
		}
		if tp.released.Load() {
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), releaseWait)
		defer cancel()
		if err := tp.Pool.Shutdown(ctx); err != nil {
			c.T.Errorf("releasing the pool at the end of the clause: %v", err)
		}
	})
	return tp
}

// newRaw builds a pool, turning a panic in the constructor into an error.
func (c *Case) newRaw(cfg Config) (p Pool, err error) {
	defer func() {
		if r := recover(); r != nil {
			p, err = nil, fmt.Errorf("constructor panicked: %v", r)
		}
	}()
	return c.impl.New(cfg)
}

// Bubble runs f inside a testing/synctest bubble, with a Case for it.
func (c *Case) Bubble(f func(c *Case)) {
	synctest.Test(c.T, func(t *testing.T) { f(&Case{T: t, impl: c.impl, bubble: true, na: c.na}) })
	// A skip inside the bubble ends the bubble's test only; the clause's
	// test must say so too, or the clause would pass.
	if *c.na != "" && !c.T.Failed() {
		c.T.Skip(*c.na)
	}
}

// NA ends the clause as not applicable, for a reason found only by running
// it.
func (c *Case) NA(format string, args ...any) {
	*c.na = "n.a.: " + fmt.Sprintf(format, args...)
	c.T.Skip(*c.na)
}

// trackedPool remembers whether the clause released the pool, so that the
// cleanup does not release it twice (a second release is a clause of its
// own, and crashes some pools).
type trackedPool struct {
	Pool
	released atomic.Bool
}

func (p *trackedPool) Shutdown(ctx context.Context) error {
	p.released.Store(true)
	return p.Pool.Shutdown(ctx)
}

// unwrap returns the implementation's pool, for capability assertions.
func unwrap(p Pool) Pool {
	if tp, ok := p.(*trackedPool); ok {
		return tp.Pool
	}
	return p
}

func asResizer(p Pool) Resizer      { r, _ := unwrap(p).(Resizer); return r }
func asGauges(p Pool) Gauges        { g, _ := unwrap(p).(Gauges); return g }
func asCtx(p Pool) ContextSubmitter { s, _ := unwrap(p).(ContextSubmitter); return s }
func asCompleter(p Pool) Completer  { s, _ := unwrap(p).(Completer); return s }
func asAbandoner(p Pool) Abandoner  { s, _ := unwrap(p).(Abandoner); return s }
func asRebooter(p Pool) Rebooter    { s, _ := unwrap(p).(Rebooter); return s }
func isClosed(err error) bool       { return errors.Is(err, resize.ErrClosed) }
func isOverload(err error) bool     { return errors.Is(err, resize.ErrOverload) }

// submit calls Submit, turning a panic into an error.
func submit(p Pool, task func()) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("the pool's Submit panicked: %v", r)
		}
	}()
	return p.Submit(task)
}

// tracker records task starts: how many run now, the most that ever did,
// how many times each task id ran, and how many ran when each started.
type tracker struct {
	now, peak atomic.Int64
	mu        sync.Mutex
	runs      map[int]int
	seen      []int64 // for each start, how many were running just before it
}

func newTracker() *tracker { return &tracker{runs: map[int]int{}} }

// task returns a task with this id that waits for gate (nil: no wait).
func (tr *tracker) task(id int, gate <-chan struct{}) func() {
	return func() {
		before := tr.now.Add(1) - 1
		for p := tr.peak.Load(); before+1 > p && !tr.peak.CompareAndSwap(p, before+1); p = tr.peak.Load() {
		}
		tr.mu.Lock()
		tr.runs[id]++
		tr.seen = append(tr.seen, before)
		tr.mu.Unlock()
		if gate != nil {
			<-gate
		}
		tr.now.Add(-1)
	}
}

func (tr *tracker) ran(id int) int {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	return tr.runs[id]
}

func (tr *tracker) total() int {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	n := 0
	for _, c := range tr.runs {
		n += c
	}
	return n
}

// saturation is the state saturate leaves a pool in.
type saturation struct {
	accepted int          // tasks accepted before a Submit blocked
	blocked  []chan error // the blocked submissions' outcomes, oldest first
}

// saturationLimit is how many gated tasks a pool may accept before the
// suite calls its queue unbounded.
const saturationLimit = 10000

// saturate submits gated tasks (ids from 0) one at a time, each from a
// goroutine, until `blocked` submissions are blocked. When the pool takes
// saturationLimit tasks without blocking it cannot be saturated: the
// clause ends as not applicable, unless strict is set, in which case it
// fails (for the clause whose subject that is). Call inside a bubble.
func (c *Case) saturate(p Pool, tr *tracker, gate <-chan struct{}, blocked int, strict bool) saturation {
	c.T.Helper()
	var s saturation
	for id := 0; len(s.blocked) < blocked; id++ {
		if id == saturationLimit {
			if strict {
				c.T.Fatalf("the pool accepted %d gated tasks without blocking: its queue is unbounded", id)
			}
			c.NA("the pool accepted %d gated tasks without blocking: it cannot be saturated", id)
		}
		res := make(chan error, 1)
		go func() { res <- submit(p, tr.task(id, gate)) }()
		synctest.Wait()
		select {
		case err := <-res:
			if err != nil {
				c.T.Fatalf("Submit #%d = %v, want nil or blocking", id, err)
			}
			s.accepted++
		default:
			s.blocked = append(s.blocked, res)
		}
	}
	return s
}
