//go:build poolkit_hooks

package actorpool

import (
	"testing"
	"time"
)

// TestStallTickKeepsALatePushArmed: ACT-15. An Ask that registers while a
// tick is between taking the epoch and disarming the timer sees the timer
// armed and leaves it; the tick, disarming, must see that Ask in the new
// epoch and re-arm, or the Ask is never poked (an Ask to the caller's own
// actor would then wait until its context ends).
func TestStallTickKeepsALatePushArmed(t *testing.T) {
	defer ClearBreak()
	var st askStall
	st.init(func() {}) // ticks are called by hand below
	defer st.timer.Stop()
	st.armed.Store(true) // as a tick finds it: armed by an earlier Ask
	reached, resume := breakAtPoint(hkStallSwapped)
	done := make(chan struct{})
	go func() { st.tick(); close(done) }()
	select {
	case <-reached:
	case <-time.After(time.Minute):
		t.Fatal("the tick never reached its swap")
	}
	p := newStallPending()
	st.enter(p) // sees the timer armed: arms nothing
	close(resume)
	<-done
	if !st.armed.Load() {
		t.Fatal("a tick disarmed the timer with an Ask registered in the new epoch: it would never be poked")
	}
}
