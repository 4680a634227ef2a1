//go:build poolkit_hooks

package actorpool

import (
	"sync"

	"github.com/poolkit/poolkit/internal/interleave"
)

// SetInterleaveSeed installs an explorer that yields at one protocol step
// in four, decided by the seed and the step's number (hooks_on.go).
func SetInterleaveSeed(seed uint64) {
	current.Store(interleave.New(interleave.Config{Seed: seed, YieldEvery: 4}, hookNames[:]))
}

// BreakAtIdle holds the first turn that stores idle, right after the
// store, until resume is closed; reached is closed once a turn is held.
func BreakAtIdle() (reached, resume chan struct{}) { return breakAtPoint(hkIdle) }

// BreakAtRoute holds the first sender that has read a router's worker
// set, before it tries any worker of it.
func BreakAtRoute() (reached, resume chan struct{}) { return breakAtPoint(hkRoute) }

// BreakAtPut holds the first sender that has added its message, before
// it wakes the actor.
func BreakAtPut() (reached, resume chan struct{}) { return breakAtPoint(hkPut) }

// breakAtPoint holds the first goroutine to reach p until resume is
// closed; reached is closed once one is held. Without an installed
// explorer it installs one that pushes nothing.
func breakAtPoint(p hookPoint) (reached, resume chan struct{}) {
	x := current.Load()
	if x == nil {
		current.CompareAndSwap(nil, interleave.New(interleave.Config{}, hookNames[:]))
		x = current.Load()
	}
	reached, resume = make(chan struct{}), make(chan struct{})
	clear := x.BreakOnce(hookNames[p], func() {
		close(reached)
		<-resume
	})
	clears.Lock()
	clears.fs = append(clears.fs, clear)
	clears.Unlock()
	return reached, resume
}

var clears struct {
	sync.Mutex
	fs []func()
}

// ClearBreak removes every breakpoint.
func ClearBreak() {
	clears.Lock()
	defer clears.Unlock()
	for _, f := range clears.fs {
		f()
	}
	clears.fs = nil
}
