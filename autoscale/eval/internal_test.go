package eval

import (
	"testing"
	"time"

	"go.uber.org/goleak"
)

// TestHogsStartAndStop: the hogs spin until stopped, and stop waits for
// them. Real time, a few milliseconds.
func TestHogsStartAndStop(t *testing.T) {
	ignore := goleak.IgnoreCurrent()
	if n := startHogs(0)(); n != 0 {
		t.Errorf("no hogs did %d rounds", n)
	}
	stop := startHogs(2)
	time.Sleep(20 * time.Millisecond)
	if n := stop(); n == 0 {
		t.Error("two hogs did no work in 20ms")
	}
	goleak.VerifyNone(t, ignore)
}

// TestStartPhaseDirection: a change at 0 is a step up from the
// controllers' start, unless the scenario starts them above the optimum.
func TestStartPhaseDirection(t *testing.T) {
	s := Scenario{Duration: 10 * time.Second, Optimum: func(time.Duration) int { return 3 }, Changes: []time.Duration{0}}
	if ph := s.phases(); len(ph) != 1 || !ph[0].up {
		t.Errorf("phases %+v, want one step up", ph)
	}
	s.Initial = 8
	if ph := s.phases(); len(ph) != 1 || ph[0].up {
		t.Errorf("phases %+v with Initial 8, want one step down", ph)
	}
	r := Result{Series: series(append(repeat(8, 4), repeat(3, 36)...)...)}
	r.summarise(s)
	if r.SettleDown != 4*Tick || r.Overshoot != 0 || r.Offset == nil || *r.Offset != 0 {
		t.Errorf("settle down %v, overshoot %v, offset %v; want %v, 0, 0", r.SettleDown, r.Overshoot, r.Offset, 4*Tick)
	}
}
