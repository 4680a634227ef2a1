package engine

import "context"

// Room. A caller that feeds the engine from a source it must not over-read
// (a message broker's pull, where a message fetched and not started waits
// with its redelivery timer running) asks how many units can start at
// once, and waits until at least one can: WaitRoom. Room appears when a
// worker gives its slot back with nothing to run (park, leave), when a
// grow adds slots, when a waiting submitter leaves, when a slot holder
// takes a waiting unit (the unit counted twice, as waiting and in its
// taker's slot, is counted once), and, as an end, when the engine closes.
// The first four happen under mu and signal there; a take happens without
// it, so the taker, after the take, loads roomN and, if a WaitRoom caller
// may be waiting, signals under mu (tookWaiting). A caller counts itself
// in roomN before it looks for room under mu: either the taker's load
// sees it, or its look sees the take (sequentially consistent atomics).
// So a caller that found no room under mu and then waits on the current
// room channel cannot miss room. The load costs a take what the load of
// waitersN beside it costs: the two share a cache line that changes only
// when callers wait.
//
// Room is counted from the slots held, not from Running: a searcher holds
// its slot while it looks for work, and between its take of a unit and
// its counting as running that unit is neither waiting nor running; read
// field by field, Running and Waiting can miss it, and overstate the room.
// The slots held count it throughout, so the reading errs only the other
// way: a searcher that finds nothing is room once it parks (and signals).

// WaitRoom waits until a unit submitted now would start at once, with no
// unit waiting before it, and returns how many could: Cap, less the slots
// held and the units waiting. It returns ErrClosed once the engine is closed, and
// ctx.Err() when ctx is done first. The room is a reading, not a
// reservation: another submitter may take it.
func (e *Engine[E]) WaitRoom(ctx context.Context) (int, error) {
	if e.run == nil {
		return 0, errNotInitialised
	}
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	if n, err := e.roomNow(); n > 0 || err != nil {
		return n, err
	}
	tally(tallyCounts)
	e.roomN.Add(1)
	defer func() { tally(tallyCounts); e.roomN.Add(-1) }()
	return e.waitUntil(ctx, &e.mu.room, func() (int, bool, error) {
		n, err := e.roomNow()
		return n, n > 0, err
	})
}

// waitUntil is the wait of WaitRoom and WaitBacklog, for a caller already
// counted where the goroutines that change what it waits for look (roomN,
// backlogN): under mu, look says what there is and whether it is what the
// caller waits for; if not, the caller waits on the channel at ch, which
// whoever may have changed it closes under mu (roomLocked, backlogLocked),
// and looks again.
func (e *Engine[E]) waitUntil(ctx context.Context, ch *chan struct{}, look func() (int, bool, error)) (int, error) {
	for {
		e.mu.Lock()
		n, ok, err := look()
		if ok || err != nil {
			e.unlock()
			return n, err
		}
		if *ch == nil {
			*ch = make(chan struct{})
		}
		c := *ch
		e.unlock()
		select {
		case <-c:
		case <-ctx.Done():
			return 0, ctx.Err()
		}
	}
}

func (e *Engine[E]) roomNow() (int, error) {
	if e.gate.closed() {
		return 0, ErrClosed
	}
	w := e.Waiting()
	return max(0, e.Cap()-e.gate.held()-w), nil
}

// tookWaiting is called by a slot holder that took a waiting unit (from
// the front, the queue or the waiters): if a WaitRoom caller may be
// waiting, the room it waits for may have come (see above).
func (e *Engine[E]) tookWaiting() {
	if e.roomN.Load() > 0 {
		e.lock()
		e.roomLocked()
		e.unlock()
	}
}

// roomLocked wakes the callers waiting in WaitRoom, who look again.
// Requires e.mu.
func (e *Engine[E]) roomLocked() {
	if e.mu.room != nil {
		close(e.mu.room)
		e.mu.room = nil
	}
}
