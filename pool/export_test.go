package pool

// WorkersStarted returns how many worker goroutines p has started: what
// TestNoGoroutinePerTaskBelowCapacity counts, without the goroutines the
// runtime starts for timers.
func WorkersStarted[T any](p *FuncPool[T]) uint64 {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.mu.started
}
