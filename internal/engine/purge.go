package engine

import "time"

// The purger retires workers that have been parked for the expiry
// duration. It is one timer per pool, armed only while workers are parked,
// so that parking costs a clock read instead of arming a timer per worker:
// a timer channel in a select puts its timer on the runtime's heap at
// every park, which was the largest cost of a worker that parks after
// every task (a million sleeping tasks spent a fifth of their CPU there).
// Parked workers are retired oldest first, from the bottom of the idle
// stack, where the one that parked longest ago always is. No goroutine
// waits for the timer: its function runs only when it fires, and close
// stops it under mu, so a closed pool with no workers has ended its life
// at once (C2), unless the function had already started, in which case
// the life ends when it has returned.

// startPurgerLocked arms the purger for the oldest parked worker unless it
// is armed. Requires e.mu and a non-empty idle stack.
func (e *Engine[E]) startPurgerLocked() {
	if e.mu.purging {
		return
	}
	e.mu.purging = true
	wait := e.cfg.Expiry - time.Duration(clock()-e.mu.idle.bottom().parkedAt)
	if e.mu.purger == nil {
		e.mu.purger = time.AfterFunc(wait, e.purge)
	} else {
		e.mu.purger.Reset(wait)
	}
}

// stopPurgerLocked disarms the purger (the engine closed). If its function
// is already running, purging stays set until that function has returned.
// Requires e.mu.
func (e *Engine[E]) stopPurgerLocked() {
	if e.mu.purging && e.mu.purger.Stop() {
		e.mu.purging = false
	}
}

func (e *Engine[E]) purge() {
	e.mu.Lock()
	defer e.unlock()
	for {
		if e.mu.closed || e.mu.idle.len() == 0 || e.mu.live <= e.cfg.MinWorkers {
			// Nothing to retire (WithMinWorkers keeps the rest): a worker
			// that parks later arms the purger again.
			e.mu.purging = false
			e.maybeDoneLocked()
			return
		}
		w := e.mu.idle.bottom()
		wait := e.cfg.Expiry - time.Duration(clock()-w.parkedAt)
		if wait > 0 {
			e.mu.purger.Reset(wait)
			return
		}
		e.mu.idle.remove(w)
		e.retireLocked(w)
	}
}
