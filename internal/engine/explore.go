//go:build poolkit_hooks

package engine

import (
	"fmt"
	"sync/atomic"
)

// InterleavingConfig sets how hard the interleaving hooks push: see the
// fields of interleaving in hooks_on.go.
type InterleavingConfig struct {
	Seed        uint64
	ChangeEvery uint64
	DelaySteps  int64
	MaxYields   int
	YieldEvery  uint64
}

// DefaultInterleaving is the pressure the hooked test run uses: about one
// change point in 64 steps, held for up to 48 steps of the others, and a
// plain yield at one step in 8.
func DefaultInterleaving(seed uint64) InterleavingConfig {
	return InterleavingConfig{Seed: seed, ChangeEvery: 64, DelaySteps: 48, MaxYields: 200, YieldEvery: 8}
}

// Interleave installs an interleaving for every pool in the process and
// returns a function that removes it.
func Interleave(c InterleavingConfig) (stop func()) {
	s := &interleaving{seed: c.Seed, changeEvery: c.ChangeEvery, delaySteps: c.DelaySteps,
		maxYields: c.MaxYields, yieldEvery: c.YieldEvery}
	old := current.Swap(s)
	return func() { current.CompareAndSwap(s, old) }
}

// InterleavingSteps returns how many protocol steps the installed
// interleaving has seen.
func InterleavingSteps() int64 {
	if s := current.Load(); s != nil {
		return s.steps.Load()
	}
	return 0
}

// RecentSteps lists the last protocol steps of the installed interleaving.
func RecentSteps() string {
	if s := current.Load(); s != nil {
		return s.recentSteps()
	}
	return ""
}

// BreakOnce makes the first goroutine to reach the named protocol point
// run f there, and every later one pass; f runs before the point's own
// yield. It needs an installed interleaving (with no pressure it changes
// nothing else). It returns a function that removes the breakpoint.
func BreakOnce(point string, f func()) (clear func()) {
	p := pointNamed(point)
	s := current.Load()
	if s == nil {
		panic("BreakOnce needs an installed interleaving")
	}
	var fired atomic.Bool
	fn := func() {
		if fired.CompareAndSwap(false, true) {
			f()
		}
	}
	s.breaks[p].Store(&fn)
	return func() { s.breaks[p].Store(nil) }
}

func pointNamed(name string) hookPoint {
	for p := range numHookPoints {
		if p.String() == name {
			return p
		}
	}
	panic(fmt.Sprintf("no protocol point %q", name))
}
