package engine

import "context"

// Room. A caller that feeds the engine from a source it must not over-read
// (a message broker's pull, where a message fetched and not started waits
// with its redelivery timer running) asks how many units can start at
// once, and waits until at least one can: WaitRoom. Room appears when a
// worker gives its slot back with nothing to run (park), when a grow adds
// slots, and, as an end, when the engine closes; each of these happens
// under mu, so a waiter that found no room under mu and then waits on
// the current room channel cannot miss it.
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
		return 0, ErrClosed
	}
	for {
		if n, err := e.roomNow(); n > 0 || err != nil {
			return n, err
		}
		e.mu.Lock()
		n, err := e.roomNow()
		if n > 0 || err != nil {
			e.mu.Unlock()
			return n, err
		}
		if e.mu.room == nil {
			e.mu.room = make(chan struct{})
		}
		ch := e.mu.room
		e.mu.Unlock()
		select {
		case <-ch:
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

// roomLocked wakes the callers waiting in WaitRoom, who look again.
// Requires e.mu.
func (e *Engine[E]) roomLocked() {
	if e.mu.room != nil {
		close(e.mu.room)
		e.mu.room = nil
	}
}
