package actorpool

import (
	"fmt"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/poolkit/poolkit/resize"
)

// Router is a pool of identical worker actors behind one Ref, with the
// semantics of Ergo's act.Pool:
//
//   - A message told or asked to the router's Ref is forwarded to one
//     worker, unchanged: the worker sees the original sender, and answers
//     an Ask straight to the caller.
//   - Workers are tried in a fixed rotation (round robin, oldest first);
//     a worker whose mailbox is full is skipped for the next one.
//   - When every worker refuses, the sender gets ErrNoWorker and the
//     message is counted in Unhandled: it is never dropped silently.
//   - A worker found stopped (its handler's supervisor stopped it, or it
//     stopped itself) is replaced by a new one in its place, which gets
//     the message; the replacement is counted in Restarts. The messages
//     still queued to a worker when it stops go back to the router and
//     are forwarded again, as a removed worker's are (below): a worker's
//     death loses none of them. Only once the router itself has stopped
//     do they become dead letters.
//   - A message wrapped in Priority is handled by the router's own
//     behaviour (WithRouterBehavior), not forwarded.
//
// Routing runs on the sender's goroutine, so the router is not a mailbox
// that every message queues through; only Priority messages are.
//
// Router implements resize.Resizer: Resize(n) adds workers, or removes the
// oldest ones. A removed worker finishes the message it is handling, then
// hands every message still queued to it back to the router, which
// forwards them to the remaining workers (none is lost; one that no
// remaining worker accepts becomes a dead letter, counted in Unhandled).
// Resize restarts the rotation at the oldest worker. The router gives
// FIFO order per worker only: two messages from one sender may be handled
// by two workers in either order.
//
// A router can measure what it forwards (WithTimings): Stats then reports
// how long its messages waited in the workers' mailboxes and how long they
// took to handle, in the histograms a pool reports its tasks' in.
type Router struct {
	sys     *System
	self    *actor
	produce func() Behavior
	wopts   []SpawnOption

	workers atomic.Pointer[[]*actor] // in rotation order, oldest first; copied on change

	// next is the rotation: every message routed adds to it, from every
	// producer. It has a cache line of its own, so that its writes do not
	// evict the worker set, which every producer reads, from the others'
	// caches.
	_    [64]byte
	next atomic.Uint64
	_    [56]byte

	mu     sync.Mutex // serialises changes to the worker set
	closed bool

	// forwarded counts the messages routed, in stripes chosen by the
	// worker that took each, so that producers routing to different
	// workers do not write one word; Stats sums them.
	forwarded [forwardStripes]struct {
		atomic.Uint64
		_ [56]byte
	}
	unhandled, restarts atomic.Uint64

	timings atomic.Bool // stamp the messages routed (timings.go); set by WithTimings
	tmu     sync.Mutex  // guards tm; never taken on the message path but by a worker's first timed message
	tm      routerTimings
}

// Priority wraps a message told to a router's Ref so that the router's own
// behaviour handles it (Ergo's high-priority messages), instead of a
// worker.
type Priority struct{ Msg any }

// RouterOption configures a Router.
type RouterOption func(*routerConfig) error

type routerConfig struct {
	workerOpts []SpawnOption
	own        func() Behavior
	timings    bool
}

// WithWorkerOptions sets the spawn options of every worker (a bounded
// mailbox, a supervisor).
func WithWorkerOptions(opts ...SpawnOption) RouterOption {
	return func(c *routerConfig) error {
		c.workerOpts = append(c.workerOpts, opts...)
		return nil
	}
}

// WithRouterBehavior sets the behaviour that handles the Priority messages
// told to the router. Without it they are counted as unhandled.
func WithRouterBehavior(produce func() Behavior) RouterOption {
	return func(c *routerConfig) error {
		if produce == nil {
			return fmt.Errorf("%w: nil router behavior", ErrInvalidOption)
		}
		c.own = produce
		return nil
	}
}

// NewRouter starts a router with size workers, each running a behaviour
// from produce. Errors: ErrInvalidSize for a size below 1, ErrNilSystem,
// ErrNilBehavior, ErrClosed, ErrInvalidOption.
func NewRouter(sys *System, size int, produce func() Behavior, opts ...RouterOption) (*Router, error) {
	if err := resize.Validate(size); err != nil {
		return nil, err
	}
	if sys == nil {
		return nil, ErrNilSystem
	}
	if produce == nil {
		return nil, ErrNilBehavior
	}
	var c routerConfig
	for i, o := range opts {
		if o == nil {
			return nil, fmt.Errorf("%w: router option %d is nil", ErrInvalidOption, i)
		}
		if err := o(&c); err != nil {
			return nil, err
		}
	}
	r := &Router{sys: sys, produce: produce, wopts: c.workerOpts}
	r.timings.Store(c.timings)
	own := c.own
	if own == nil {
		own = func() Behavior {
			return BehaviorFunc(func(*Context, any) { r.unhandled.Add(1) })
		}
	}
	self, err := sys.newActor(own, nil)
	if err != nil {
		return nil, err
	}
	self.router = r
	r.self = self
	ws := make([]*actor, 0, size)
	for i := 0; i < size; i++ {
		w, err := r.spawnWorker()
		if err != nil {
			for _, w := range ws {
				_ = Ref{w}.Stop()
			}
			return nil, err
		}
		ws = append(ws, w)
	}
	r.workers.Store(&ws)
	if err := sys.start(self); err != nil {
		for _, w := range ws {
			_ = Ref{w}.Stop()
		}
		return nil, err
	}
	return r, nil
}

func (r *Router) spawnWorker() (*actor, error) {
	w, err := r.sys.newActor(r.produce, r.wopts)
	if err != nil {
		return nil, err
	}
	w.owner = r
	if err := r.sys.start(w); err != nil {
		return nil, err
	}
	return w, nil
}

// Ref returns the router's reference: what is told or asked to it is
// routed; Stop on it (or PoisonPill) stops the router and its workers.
func (r *Router) Ref() Ref { return Ref{r.self} }

// route forwards e to one worker, on the caller's goroutine, and counts
// the outcome. With timings on it stamps e first: the router accepts it
// for a worker now (timings.go).
func (r *Router) route(e envelope) error {
	var at int64
	if r.timings.Load() {
		at = clock()
	}
	if j, ok := r.pass(e, at); ok {
		r.forwarded[j%forwardStripes].Add(1)
		return nil
	}
	if !r.takesBack() {
		r.sys.refused.Add(1)
		return ErrStopped
	}
	r.unhandled.Add(1)
	return ErrNoWorker
}

// forwardStripes is the number of stripes of Router.forwarded.
const forwardStripes = 8

// pass tries the workers in rotation until one accepts e, with its stamp
// at, and reports the rotation's place of the one that did. If every
// worker of the set it read refused and the set has changed meanwhile (a
// Resize retired them), it tries the new set: a message is refused only
// by the workers in place.
func (r *Router) pass(e envelope, at int64) (uint64, bool) {
	for {
		set := r.workers.Load()
		hook(hkRoute)
		ws := *set
		n := uint64(len(ws))
		var j uint64
		if n > 0 {
			j = (r.next.Add(1) - 1) % n
		}
		for i := uint64(0); i < n; i++ {
			w, place := ws[j], j
			if j++; j == n {
				j = 0
			}
			err := w.mb.put(e, at)
			if err == nil {
				w.wake()
				return place, true
			}
			if err == ErrStopped && !w.retiring.Load() {
				if nw := r.replace(w); nw != nil && nw.mb.put(e, at) == nil {
					nw.wake()
					return place, true
				}
			}
		}
		if r.workers.Load() == set {
			return 0, false
		}
	}
}

// takesBack reports whether the messages left to a stopping worker go
// back to the router: yes, unless the router or its system is stopping
// (then every worker is, and they are dead letters).
func (r *Router) takesBack() bool {
	r.mu.Lock()
	closed := r.closed
	r.mu.Unlock()
	return !closed && !r.sys.shuttingDown()
}

// reroute forwards a message left in a removed or stopped worker's
// mailbox; it was counted as forwarded when it first arrived, and keeps
// the stamp it was accepted with (at).
//
// A retiring worker hands its queue back even while the router or its
// system stops (its stop may come after theirs began): what no worker
// then accepts is a message a stop left, a dead letter with ErrStopped as
// at any stopping actor, not one the router failed to route.
func (r *Router) reroute(from *actor, e envelope, at int64) {
	if _, ok := r.pass(e, at); ok {
		return
	}
	if !r.takesBack() {
		r.sys.deadLetter(from, e, ErrStopped)
		return
	}
	r.unhandled.Add(1)
	r.sys.deadLetter(from, e, ErrNoWorker)
}

// Workers returns the worker actors, in rotation order (oldest first).
func (r *Router) Workers() []Ref {
	ws := *r.workers.Load()
	out := make([]Ref, len(ws))
	for i, w := range ws {
		out[i] = Ref{w}
	}
	return out
}

// replace puts a new worker in the place of a stopped one and returns it;
// nil if the place was taken meanwhile, or no worker can be spawned (the
// router then shrinks by one).
func (r *Router) replace(dead *actor) *actor {
	r.mu.Lock()
	defer r.mu.Unlock()
	ws := *r.workers.Load()
	i := slices.Index(ws, dead)
	if i < 0 || r.closed {
		return nil
	}
	ws = slices.Clone(ws)
	nw, err := r.spawnWorker()
	if err != nil {
		ws = slices.Delete(ws, i, i+1)
		r.workers.Store(&ws)
		return nil
	}
	ws[i] = nw
	r.workers.Store(&ws)
	r.restarts.Add(1)
	return nw
}

// Resize sets the number of workers to n: new workers join at the end of
// the rotation; a shrink removes the oldest, each of which finishes its
// current message and hands its queue back (see Router). It returns an
// error matching ErrInvalidSize for n below 1, and one matching
// resize.ErrClosed once the router or its system has stopped; the worker
// set is then unchanged.
func (r *Router) Resize(n int) error {
	if err := resize.Validate(n); err != nil {
		return err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return ErrClosed
	}
	ws := slices.Clone(*r.workers.Load())
	switch {
	case n > len(ws):
		for len(ws) < n {
			w, err := r.spawnWorker()
			if err != nil {
				for _, w := range ws[len(*r.workers.Load()):] {
					_ = Ref{w}.Stop()
				}
				return err
			}
			ws = append(ws, w)
		}
	case n < len(ws):
		gone := ws[:len(ws)-n]
		ws = slices.Clone(ws[len(ws)-n:])
		for _, w := range gone {
			w.retiring.Store(true)
		}
		r.workers.Store(&ws)
		for _, w := range gone {
			if w.mb.putSys(sysRetire) == nil {
				w.wake()
			}
		}
	}
	r.workers.Store(&ws)
	r.next.Store(0)
	return nil
}

// Cap returns the number of workers.
func (r *Router) Cap() int { return len(*r.workers.Load()) }

// stop stops the router's own actor and every worker.
// markClosed records that the router's own actor has stopped: Resize and
// Stop from now on report it, and change nothing.
func (r *Router) markClosed() {
	r.mu.Lock()
	r.closed = true
	r.mu.Unlock()
}

func (r *Router) stop() error {
	r.mu.Lock()
	if r.closed {
		r.mu.Unlock()
		return ErrStopped
	}
	r.closed = true
	ws := *r.workers.Load()
	empty := []*actor{}
	r.workers.Store(&empty)
	r.mu.Unlock()
	for _, w := range ws {
		if w.mb.putSys(sysStop) == nil {
			w.wake()
		}
	}
	if r.self.mb.putSys(sysStop) == nil {
		r.self.wake()
	}
	return nil
}

// RouterStats is a snapshot of a router's gauges, counters and timings,
// taken by one call to Stats. The fields are read one after another (the
// timings worker by worker) while messages are routed, so they need not
// add up exactly while messages are moving; once the router is quiescent
// they do: Wait.Count == Service.Count == the timed messages handled.
type RouterStats struct {
	Size      int    // live workers (not a configured size)
	Forwarded uint64 // messages accepted by a worker
	Unhandled uint64 // messages no worker accepted: refused with ErrNoWorker, or, rerouted from a removed worker, dead letters
	Restarts  uint64 // stopped workers replaced
	// Timed reports whether the router records Wait and Service
	// (WithTimings).
	Timed bool

	// Wait and Service are the router's timings, recorded only under
	// WithTimings (else they are empty). Wait is the time from the moment
	// the router accepted a message for a worker to the moment the
	// worker's handler started it: a message handed to an idle worker
	// counts as not having waited (the worker's scheduling counts in
	// Service). Service is the time the handler ran, from its start to its
	// return or panic. Wait + Service is exact: the start is not read but
	// inferred, the later of the acceptance and the end of the worker's
	// previous message. Only messages routed through the router's Ref
	// count: not Priority messages, nor messages told to a worker's own
	// Ref. They cover every worker the router has had: the live ones, and
	// those removed by Resize or replaced after they stopped, whose
	// records are folded in when they stop. Histogram.Sub of two snapshots
	// gives what happened between them.
	Wait, Service Histogram
}

// Stats returns a snapshot of the router's counters and timings.
func (r *Router) Stats() RouterStats {
	st := RouterStats{
		Size:      r.Cap(),
		Forwarded: r.forwardedSum(),
		Unhandled: r.unhandled.Load(),
		Restarts:  r.restarts.Load(),
		Timed:     r.timings.Load(),
	}
	r.timingsTo(&st)
	return st
}

// forwardedSum is the number of messages routed: the sum of the stripes,
// exact once the routing calls it should count have returned.
func (r *Router) forwardedSum() uint64 {
	var n uint64
	for i := range r.forwarded {
		n += r.forwarded[i].Load()
	}
	return n
}
