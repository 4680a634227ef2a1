//go:build poolkit_hooks

package engine

import (
	"fmt"
	"runtime"
	"strings"
	"sync/atomic"
)

// This file is the engine's interleaving explorer, compiled in only under
// the poolkit_hooks build tag. Every protocol step calls hook; while an
// interleaving is installed, hook decides from a seed and the step's
// global number whether the goroutine at that step goes on, yields once,
// or is held back until the other goroutines have taken a number of steps
// (a priority change point, as in PCT: the goroutine is demoted at a
// random step, which opens the window after that step for everyone else).
// The decision depends only on the seed and the step number, so a seed
// that found a bug is worth keeping: Go's scheduler is not under our
// control, but the same seed puts the same pressure on the same steps.
// Tests can also install a breakpoint: a function run by whichever
// goroutine reaches a given point, which lets a test park a worker exactly
// inside a window and act while it waits there.

const hooksOn = true

type interleaving struct {
	seed        uint64
	changeEvery uint64 // on average one change point in this many steps; 0: none
	delaySteps  int64  // a demoted goroutine waits until the others took this many steps
	maxYields   int    // or until it has yielded this often, whichever comes first
	yieldEvery  uint64 // besides, one step in this many yields once; 0: never

	steps  atomic.Int64
	trace  [256]atomic.Uint32
	breaks [numHookPoints]atomic.Pointer[func()]
}

var current atomic.Pointer[interleaving]

func hook(p hookPoint) {
	if s := current.Load(); s != nil {
		s.at(p)
	}
}

func (s *interleaving) at(p hookPoint) {
	quiet()
	n := s.steps.Add(1)
	s.trace[uint64(n)%uint64(len(s.trace))].Store(uint32(n)<<8 | uint32(p))
	f := s.breaks[p].Load()
	loud()
	if f != nil {
		(*f)() // a test's breakpoint synchronises with the test as written
	}
	quiet()
	defer loud()
	r := splitmix(s.seed ^ uint64(n)*0x9e3779b97f4a7c15)
	switch {
	case s.changeEvery > 0 && r%s.changeEvery == 0:
		target := n + s.delaySteps
		for i := 0; i < s.maxYields && s.steps.Load() < target; i++ {
			runtime.Gosched()
		}
	case s.yieldEvery > 0 && (r>>32)%s.yieldEvery == 0:
		runtime.Gosched()
	}
}

func splitmix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}

// recentSteps lists the last protocol steps taken, oldest first.
func (s *interleaving) recentSteps() string {
	type ev struct {
		n uint32
		p hookPoint
	}
	var evs []ev
	for i := range s.trace {
		v := s.trace[i].Load()
		if v != 0 {
			evs = append(evs, ev{v >> 8, hookPoint(v & 0xff)})
		}
	}
	// The ring is small: sort by step number with insertion sort.
	for i := 1; i < len(evs); i++ {
		for j := i; j > 0 && evs[j].n < evs[j-1].n; j-- {
			evs[j], evs[j-1] = evs[j-1], evs[j]
		}
	}
	var b strings.Builder
	for _, e := range evs {
		fmt.Fprintf(&b, "%d:%s ", e.n, e.p)
	}
	return b.String()
}

// invariant panics, naming the broken rule, when ok is false. Engine code
// calls it only under "if hooksOn", so a normal build does not even
// evaluate the condition.
func invariant(ok bool, format string, args ...any) {
	if ok {
		return
	}
	msg := fmt.Sprintf("pool: engine invariant broken: "+format, args...)
	if s := current.Load(); s != nil {
		msg += fmt.Sprintf(" (interleaving seed %d; last steps: %s)", s.seed, s.recentSteps())
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
