// Package interleave is poolkit's interleaving explorer: the one that the
// engine (internal/engine) and the actor dispatcher (actorpool) run their
// protocol steps through under the poolkit_hooks build tag. Each package
// names its own steps (small integers) and calls At at each; an Explorer
// decides, from a seed and the step's global number, whether the
// goroutine at that step goes on, yields once, or is held back until the
// others have taken a number of steps (a priority change point, as in PCT:
// the goroutine is demoted at a random step, which opens the window after
// that step for everyone else). The decision depends only on the seed and
// the step number, so a seed that found a bug is worth keeping: Go's
// scheduler is not under our control, but the same seed puts the same
// pressure on the same steps. A test can also install a breakpoint: a
// function run by the goroutine that reaches a given step, which lets it
// hold a goroutine exactly inside a window and act while it waits there.
//
// In a normal build nothing calls this package: the packages' hook
// functions are empty and the compiler removes their calls.
package interleave

import (
	"fmt"
	"runtime"
	"strings"
	"sync/atomic"
)

// MaxPoints bounds the steps a package may name.
const MaxPoints = 64

// Config says how hard an Explorer pushes. The zero Config pushes not at
// all: only breakpoints change the schedule.
type Config struct {
	Seed        uint64
	ChangeEvery uint64 // on average one change point in this many steps; 0: none
	DelaySteps  int64  // a demoted goroutine waits until the others took this many steps
	MaxYields   int    // or until it has yielded this often, whichever comes first
	YieldEvery  uint64 // besides, one step in this many yields once; 0: never
}

// Explorer is an installed interleaving: its configuration, the steps it
// has seen and its breakpoints. Its methods are safe for concurrent use.
type Explorer struct {
	cfg    Config
	names  []string
	steps  atomic.Int64
	trace  [256]atomic.Uint32
	breaks [MaxPoints]atomic.Pointer[func()]
}

// New returns an Explorer for the steps named by names (names[p] is step
// p's name, for traces and breakpoints by name).
func New(c Config, names []string) *Explorer {
	if len(names) > MaxPoints {
		panic("interleave: too many steps")
	}
	return &Explorer{cfg: c, names: names}
}

// At is step p: the breakpoint set for p runs, then the seeded decision.
func (x *Explorer) At(p uint8) {
	Quiet()
	n := x.steps.Add(1)
	x.trace[uint64(n)%uint64(len(x.trace))].Store(uint32(n)<<8 | uint32(p))
	f := x.breaks[p].Load()
	Loud()
	if f != nil {
		// Loaded again where the race detector sees it: the load above,
		// quiet so that the explorer's own atomics add no edge between
		// the goroutines under test, does not order this goroutine after
		// the test that installed the breakpoint, and the call reads what
		// the test wrote. Only a goroutine at a breakpoint's step gets
		// the edge.
		if f = x.breaks[p].Load(); f != nil {
			(*f)() // a test's breakpoint synchronises with the test as written
		}
	}
	Quiet()
	defer Loud()
	c := &x.cfg
	r := splitmix(c.Seed ^ uint64(n)*0x9e3779b97f4a7c15)
	switch {
	case c.ChangeEvery > 0 && r%c.ChangeEvery == 0:
		target := n + c.DelaySteps
		for i := 0; i < c.MaxYields && x.steps.Load() < target; i++ {
			runtime.Gosched()
		}
	case c.YieldEvery > 0 && (r>>32)%c.YieldEvery == 0:
		runtime.Gosched()
	}
}

// BreakOnce makes the first goroutine to reach the step named point run f
// there, and every later one pass; f runs before the step's own yield. It
// returns a function that removes the breakpoint.
func (x *Explorer) BreakOnce(point string, f func()) (clear func()) {
	p := x.point(point)
	var fired atomic.Bool
	fn := func() {
		if fired.CompareAndSwap(false, true) {
			f()
		}
	}
	x.breaks[p].Store(&fn)
	return func() { x.breaks[p].Store(nil) }
}

func (x *Explorer) point(name string) uint8 {
	for p, n := range x.names {
		if n == name {
			return uint8(p)
		}
	}
	panic(fmt.Sprintf("interleave: no step %q", name))
}

// Seed returns the seed the Explorer was made with.
func (x *Explorer) Seed() uint64 { return x.cfg.Seed }

// Steps returns how many steps the Explorer has seen.
func (x *Explorer) Steps() int64 { return x.steps.Load() }

// Recent lists the last steps taken, oldest first, as "n:name".
func (x *Explorer) Recent() string {
	type ev struct {
		n uint32
		p uint8
	}
	var evs []ev
	for i := range x.trace {
		if v := x.trace[i].Load(); v != 0 {
			evs = append(evs, ev{v >> 8, uint8(v & 0xff)})
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
		name := "step?"
		if int(e.p) < len(x.names) {
			name = x.names[e.p]
		}
		fmt.Fprintf(&b, "%d:%s ", e.n, name)
	}
	return b.String()
}

func splitmix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}
