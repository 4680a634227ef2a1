package actorpool

// TimedWorkers returns how many of r's workers hold timings not yet folded
// into its totals: those that have timed a message and not stopped.
func TimedWorkers(r *Router) int {
	r.tmu.Lock()
	defer r.tmu.Unlock()
	return len(r.tm.live)
}

// ShuttingDown reports whether Shutdown has begun on s.
func ShuttingDown(s *System) bool { return s.shuttingDown() }
