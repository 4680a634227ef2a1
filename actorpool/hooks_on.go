//go:build poolkit_hooks

package actorpool

import (
	"runtime"
	"sync/atomic"
)

// interleaveSeed, when not 0, makes every protocol step yield with
// probability 1/4, decided by the seed and the step's number; tests set
// it (and print it) so that a failing schedule can be pushed again.
var interleaveSeed atomic.Uint64

var steps atomic.Uint64

// breakAt, when set for a point, stops the first goroutine that reaches
// it until the test says go on: a window held open on purpose.
var breakAt [numHookPoints]atomic.Pointer[breakpoint]

type breakpoint struct {
	at      hookPoint
	fired   atomic.Bool
	reached chan struct{}
	resume  chan struct{}
}

func hook(p hookPoint) {
	quiet() // the step counter must not order the actors' steps (hooks_race.go)
	if seed := interleaveSeed.Load(); seed != 0 {
		x := seed ^ steps.Add(1)*0x9e3779b97f4a7c15
		x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
		x = (x ^ x>>27) * 0x94d049bb133111eb
		if (x^x>>31)&3 == 0 {
			runtime.Gosched()
		}
	}
	loud()
	if b := breakAt[p].Load(); b != nil && b.fired.CompareAndSwap(false, true) {
		close(b.reached)
		<-b.resume
	}
}
