//go:build poolkit_hooks

package actorpool

// SetInterleaveSeed installs the seeded yields of hooks_on.go.
func SetInterleaveSeed(seed uint64) { interleaveSeed.Store(seed) }

// BreakAtIdle holds the first turn that stores idle, right after the
// store, until resume is closed; reached is closed once a turn is held.
func BreakAtIdle() (reached, resume chan struct{}) { return breakAtPoint(hkIdle) }

// BreakAtRoute holds the first sender that has read a router's worker
// set, before it tries any worker of it.
func BreakAtRoute() (reached, resume chan struct{}) { return breakAtPoint(hkRoute) }

// BreakAtPut holds the first sender that has added its message, before
// it wakes the actor.
func BreakAtPut() (reached, resume chan struct{}) { return breakAtPoint(hkPut) }

func breakAtPoint(p hookPoint) (reached, resume chan struct{}) {
	b := &breakpoint{at: p, reached: make(chan struct{}), resume: make(chan struct{})}
	breakAt[p].Store(b)
	return b.reached, b.resume
}

// ClearBreak removes every breakpoint.
func ClearBreak() {
	for i := range breakAt {
		breakAt[i].Store(nil)
	}
}
