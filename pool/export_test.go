package pool

import "unsafe"

// WorkersStarted returns how many worker goroutines p has started: what
// TestNoGoroutinePerTaskBelowCapacity counts, without the goroutines the
// runtime starts for timers.
func WorkersStarted[T any](p *FuncPool[T]) uint64 { return p.e.WorkersStarted() }

// SetFuncTimings switches p's timings on or off at run time, as the
// engine can; a FuncPool's are otherwise chosen at NewFunc (WithTimings).
func SetFuncTimings[T any](p *FuncPool[T], on bool) { p.e.SetTimings(on) }

// KeyShardSize is the size of a Keyed's shard, in bytes.
func KeyShardSize() uintptr { return unsafe.Sizeof(keyShard[string]{}) }
