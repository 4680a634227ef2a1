package pool

import "time"

// The purger retires workers that have been parked for the expiry
// duration. It is one goroutine per pool, running only while workers are
// parked, so that parking costs a clock read instead of arming a timer per
// worker: a timer channel in a select puts its timer on the runtime's heap
// at every park, which was the largest cost of a worker that parks after
// every task (a million sleeping tasks spent a fifth of their CPU there).
// Parked workers are retired oldest first, from the bottom of the idle
// stack, where the one that parked longest ago always is.

// startPurgerLocked starts the purger unless it runs. Requires e.mu.
func (e *engine[E]) startPurgerLocked() {
	if !e.mu.purging {
		e.mu.purging = true
		go e.purge()
	}
}

// kickPurgerLocked makes a sleeping purger look again (the engine closed).
// Requires e.mu.
func (e *engine[E]) kickPurgerLocked() {
	if e.mu.purging {
		select {
		case e.purgeKick <- struct{}{}:
		default:
		}
	}
}

func (e *engine[E]) purge() {
	var timer *time.Timer
	defer func() {
		if timer != nil {
			timer.Stop()
		}
	}()
	e.mu.Lock()
	for {
		if e.mu.closed || e.mu.idle.len() == 0 || e.mu.live <= e.cfg.minWorkers {
			// Nothing to retire (WithMinWorkers keeps the rest): a worker
			// that parks later starts a purger again.
			e.mu.purging = false
			e.maybeDoneLocked()
			e.mu.Unlock()
			return
		}
		w := e.mu.idle.bottom()
		wait := e.cfg.expiry - time.Since(w.parkedAt)
		if wait <= 0 {
			e.mu.idle.remove(w)
			e.exitLocked(w)
			w.retired = true
			w.wake <- struct{}{}
			continue
		}
		e.mu.Unlock()
		if timer == nil {
			timer = time.NewTimer(wait)
		} else {
			timer.Reset(wait)
		}
		select {
		case <-timer.C:
		case <-e.purgeKick:
		}
		e.mu.Lock()
	}
}
