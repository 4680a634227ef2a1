package timing

import "time"

// epoch is the origin of Now: a whole second of the wall clock at least a
// second before the package was initialised, so that no reading outside a
// synctest bubble is near 0 (a stamp of 0 means "not stamped" to every
// user of Now). Inside a bubble time has no monotonic reading, so a
// reading is the fake wall clock minus epoch's, negative, but consistent
// among the bubble's goroutines, which are all that time a pool or a
// router created in it; epoch's whole second keeps the fake clock's
// nanoseconds, so that a stamp's low bit, which the engine borrows as a
// mark, costs a test that sleeps whole microseconds no precision.
var epoch = func() time.Time {
	t := time.Now()
	return t.Add(-time.Second - time.Duration(t.Nanosecond()))
}()

// Now reads the monotonic clock, in nanoseconds since epoch: one read of
// the runtime's nanotime. It is never 0 outside a synctest bubble.
func Now() int64 { return int64(time.Since(epoch)) }
