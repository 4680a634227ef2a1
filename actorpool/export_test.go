package actorpool

// TimedWorkers returns how many of r's workers hold timings not yet folded
// into its totals: those that have timed a message and not stopped.
func TimedWorkers(r *Router) int {
	r.tmu.Lock()
	defer r.tmu.Unlock()
	return len(r.tm.live)
}

// SetTimings switches r's timings on or off at run time: the router can,
// and the tests use it to check that a message is timed by the flag it was
// accepted under; the API sets it only at construction (WithTimings).
func SetTimings(r *Router, on bool) { r.timings.Store(on) }

// ShuttingDown reports whether Shutdown has begun on s.
func ShuttingDown(s *System) bool { return s.shuttingDown() }
