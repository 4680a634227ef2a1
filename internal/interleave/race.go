//go:build race

package interleave

import "runtime"

// Quiet and Loud bracket an explorer's own bookkeeping (its step counter,
// its trace, its delay loop, and a package's own counters beside them):
// under -race these atomics would order every goroutine's steps after
// every earlier step, and so hide from the race detector the very races
// the explorer is there to expose. Between Quiet and Loud the goroutine's
// synchronisation is not seen by the detector; its memory accesses still
// are.
func Quiet() { runtime.RaceDisable() }

// Loud ends what Quiet began.
func Loud() { runtime.RaceEnable() }
