package engine

import "context"

// Backlog. A controller that sizes the engine (package autoscale) ticks
// every few hundred milliseconds, but a unit that waits with no free slot
// is a fact the engine knows at once: WaitBacklog lets such a caller sleep
// until it happens, so that a pool created too small grows within
// milliseconds instead of a tick.
//
// The edge is the moment a unit starts to wait with every slot held (and
// as many as the caller asked for wait): a
// push whose W1 found no searcher and no free slot (notify), a submitter
// that joins the waiters (submitSlow, arrive), and a refusal for
// overload. At each of these the submitter loads backlogN and, if a
// WaitBacklog caller may be waiting, wakes it under mu (backlogLocked).
// A caller counts itself in backlogN before it looks under mu: either the
// submitter's load sees it, or its look sees the unit waiting (the
// argument of room.go, with the roles of taker and waiter swapped). The
// load costs a saturated submitter one read of a line that changes only
// when callers wait; an engine with free slots never reaches it.

// WaitBacklog waits until at least n units (at least one) wait with no
// free slot to start them (in the queue, or as blocked submitters, while
// every slot is held), and returns how many wait. It returns at once when
// that is already so. It
// returns ErrClosed once the engine is closed, and ctx.Err() when ctx is
// done first. Like WaitRoom it reports a reading: a worker may take the
// unit a moment later.
func (e *Engine[E]) WaitBacklog(ctx context.Context, n int) (int, error) {
	if e.run == nil {
		return 0, errNotInitialised
	}
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	n = max(1, n)
	e.mu.Lock()
	if e.backlogN.Load() == 0 || int64(n) < e.backlogAt.Load() {
		e.backlogAt.Store(int64(n))
	}
	tally(tallyCounts)
	e.backlogN.Add(1)
	e.unlock()
	defer func() {
		e.mu.Lock()
		tally(tallyCounts)
		e.backlogN.Add(-1) // the threshold stays until the last caller leaves
		e.unlock()
	}()
	return e.waitUntil(ctx, &e.mu.backlog, func() (int, bool, error) {
		w, err := e.backlogNow()
		return w, w >= n, err
	})
}

// backlogNow returns the units waiting while every slot is held, else 0.
func (e *Engine[E]) backlogNow() (int, error) {
	if e.gate.closed() {
		return 0, ErrClosed
	}
	if e.gate.held() < e.Cap() {
		return 0, nil
	}
	return e.Waiting(), nil
}

// backlogged is called by a submitter whose unit waits with no free slot:
// if a WaitBacklog caller may be waiting for as many units as wait now,
// it wakes it. backlogAt is the least number a caller waits for (one
// caller left with a larger one finds too few and waits again).
func (e *Engine[E]) backlogged() {
	if e.backlogN.Load() > 0 && int64(e.Waiting()) >= e.backlogAt.Load() {
		e.lock()
		e.backlogLocked()
		e.unlock()
	}
}

// backlogLocked wakes the callers waiting in WaitBacklog, who look
// again. Requires e.mu.
func (e *Engine[E]) backlogLocked() {
	if e.mu.backlog != nil {
		close(e.mu.backlog)
		e.mu.backlog = nil
	}
}
