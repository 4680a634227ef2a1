//go:build go1.23

// The module's go line (1.21) keeps the timers of Go before 1.23
// (asynctimerchan=1) for code built in it, and testing/synctest refuses to
// run with those. The tests ask for the current timers; the library itself
// is tested with both (the tests without synctest also run on Go 1.21).
//go:debug asynctimerchan=0

package pool
