package eval

import (
	"runtime"
	"sync"
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

// TestBurnIsWorkNotTime: sixteen goroutines each burning 40ms on one
// CPU must take about 640ms, however the scheduler interleaves them. A
// spin until a wall-clock deadline took half that (330ms): a goroutine preempted
// past its deadline ended on resuming, its work undone, which made
// oversubscribed pools seem to serve more CPU-bound tasks than the CPUs
// can. Real time; only a lower bound on the time is asserted, which load
// cannot break.
func TestBurnIsWorkNotTime(t *testing.T) {
	burnRate() // calibrate before the CPU is shared
	prev := runtime.GOMAXPROCS(1)
	defer runtime.GOMAXPROCS(prev)
	const n, d = 16, 40 * time.Millisecond
	var wg sync.WaitGroup
	start := time.Now()
	for range n {
		wg.Go(func() { burn(d) })
	}
	wg.Wait()
	if took, want := time.Since(start), n*d; took < want*7/10 {
		t.Errorf("%d burns of %v on one CPU took %v, under 70%% of %v: work was skipped", n, d, took, want)
	}
}
