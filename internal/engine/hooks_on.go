//go:build poolkit_hooks

package engine

import (
	"fmt"
	"sync/atomic"

	"github.com/poolkit/poolkit/internal/interleave"
)

// Under the poolkit_hooks build tag every protocol step of the engine
// calls hook, which runs it through the installed interleaving explorer
// (internal/interleave, shared with actorpool): seeded yields and priority
// change points, and the breakpoints of tests.

const hooksOn = true

var current atomic.Pointer[interleave.Explorer]

func hook(p hookPoint) {
	if x := current.Load(); x != nil {
		x.At(uint8(p))
	}
}

// invariant panics, naming the broken rule, when ok is false. Engine code
// calls it only under "if hooksOn", so a normal build does not even
// evaluate the condition.
func invariant(ok bool, format string, args ...any) {
	if ok {
		return
	}
	msg := fmt.Sprintf("pool: engine invariant broken: "+format, args...)
	if x := current.Load(); x != nil {
		msg += fmt.Sprintf(" (interleaving seed %d; last steps: %s)", x.Seed(), x.Recent())
	}
	panic(msg)
}

// suspendInterleaving removes the installed interleaving until restore is
// called; tests of the engine's parts, whose retry loops would spin for
// long under pressure, use it to run at full speed.
func suspendInterleaving() (restore func()) {
	old := current.Swap(nil)
	return func() { current.CompareAndSwap(nil, old) }
}

// tallies holds the counts of tally, one cache line each, while a count
// is running.
var tallies struct {
	on atomic.Bool
	n  [numTallies]struct {
		atomic.Uint64
		_ [56]byte
	}
}

func tally(k tallyKind) {
	if tallies.on.Load() {
		tallies.n[k].Add(1)
	}
}

// CountShared runs f with the shared-word counts on, and returns what f's
// run added to each, by name (tally.go). Counts are global: run one count
// at a time, with nothing else using an engine.
func CountShared(f func()) map[string]uint64 {
	for i := range tallies.n {
		tallies.n[i].Store(0)
	}
	tallies.on.Store(true)
	f()
	tallies.on.Store(false)
	m := make(map[string]uint64, numTallies)
	for i := range tallies.n {
		m[tallyKind(i).String()] = tallies.n[i].Load()
	}
	return m
}
