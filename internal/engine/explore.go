//go:build poolkit_hooks

package engine

import "github.com/poolkit/poolkit/internal/interleave"

// The engine's interleaving, for the hooked tests of the packages on it
// (pool's export_hooks_test.go re-exports these).

// InterleavingConfig sets how hard the interleaving pushes: see
// interleave.Config.
type InterleavingConfig = interleave.Config

// DefaultInterleaving is the pressure the hooked test run uses: about one
// change point in 64 steps, held for up to 48 steps of the others, and a
// plain yield at one step in 8.
func DefaultInterleaving(seed uint64) InterleavingConfig {
	return InterleavingConfig{Seed: seed, ChangeEvery: 64, DelaySteps: 48, MaxYields: 200, YieldEvery: 8}
}

// Interleave installs an interleaving for every engine in the process and
// returns a function that removes it.
func Interleave(c InterleavingConfig) (stop func()) {
	x := interleave.New(c, hookNames[:])
	old := current.Swap(x)
	return func() { current.CompareAndSwap(x, old) }
}

// InterleavingSteps returns how many protocol steps the installed
// interleaving has seen.
func InterleavingSteps() int64 {
	if x := current.Load(); x != nil {
		return x.Steps()
	}
	return 0
}

// RecentSteps lists the last protocol steps of the installed interleaving.
func RecentSteps() string {
	if x := current.Load(); x != nil {
		return x.Recent()
	}
	return ""
}

// BreakOnce makes the first goroutine to reach the named protocol point
// run f there, and every later one pass; f runs before the point's own
// yield. It needs an installed interleaving (with no pressure it changes
// nothing else). It returns a function that removes the breakpoint.
func BreakOnce(point string, f func()) (clear func()) {
	x := current.Load()
	if x == nil {
		panic("BreakOnce needs an installed interleaving")
	}
	return x.BreakOnce(point, f)
}
