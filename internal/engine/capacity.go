package engine

import "github.com/poolkit/poolkit/resize"

// The capacity: Resize (T5 for a grow); the gate that carries it is
// gate.go.

// Resize implements resize.Resizer: see package pool's Pool.Resize for the
// contract every front-end states.
func (e *Engine[E]) Resize(n int) error {
	if err := resize.Validate(n); err != nil {
		return err
	}
	if e.run == nil {
		return errNotInitialised
	}
	old, ok := e.gate.setCap(n)
	if !ok {
		return ErrClosed
	}
	if n == old {
		return nil
	}
	e.resizes.Add(1)
	e.readProcs()
	e.mu.Lock()
	if n > old {
		// Grow is prompt: start workers for the waiting work now rather
		// than when a running task finishes (T5). The work has waited
		// until now.
		now := e.now()
		for pending := e.q.len() + int(e.frontN.Load()); pending > 0 && e.gate.acquire(); pending-- {
			e.startLocked(start[E]{kind: startWork, since: now}).wakeUp()
		}
		e.roomLocked()
	} else {
		// Shrink never touches running tasks; idle workers beyond the new
		// capacity have nothing left to do, so let them go now.
		for e.mu.idle.len() > 0 && e.mu.live > n {
			e.retireLocked(e.mu.idle.pop())
		}
	}
	e.unlock()
	if n > old && e.waitersN.Load() > 0 {
		e.admitWaiters()
	}
	return nil
}
