//go:build poolkit_hooks && race

package engine

import "runtime"

// quiet and loud bracket the interleaving explorer's own bookkeeping (its
// step counter, its trace, its delay loop): under -race these atomics
// would order every goroutine's steps after every earlier step, and so
// hide from the race detector the very races the explorer is there to
// expose. Between quiet and loud the goroutine's synchronisation is not
// seen by the detector; its memory accesses still are.
func quiet() { runtime.RaceDisable() }
func loud()  { runtime.RaceEnable() }
