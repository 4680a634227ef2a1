package eval_test

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/poolkit/poolkit/autoscale"
	"github.com/poolkit/poolkit/autoscale/eval"
	"github.com/poolkit/poolkit/resize"
)

// hold is a controller that never resizes and returns no meter, as a
// controller reading the pool's own measurements does; saw records the
// pool's size at Start.
type hold struct {
	start int
	saw   *int
}

func (h hold) Name() string { return "hold" }
func (h hold) Initial() int { return h.start }
func (h hold) Start(r resize.Resizer) (*autoscale.Meter, func()) {
	*h.saw = r.Cap()
	return nil, func() {}
}

// probe wraps a controller and records the pool's size at Start.
type probe struct {
	eval.Controller
	saw *int
}

func (p probe) Start(r resize.Resizer) (*autoscale.Meter, func()) {
	*p.saw = r.Cap()
	return p.Controller.Start(r)
}

// oneSlot is a downstream with one slot, 10ms a call (100 calls/s), fed
// 80 tasks/s by a pool of 4 for 1.5 s, then nothing for 0.5 s: calls
// often find the slot taken, and every task can be served before the end.
func oneSlot(timeout time.Duration) eval.Scenario {
	return eval.Scenario{Name: "one slot", Duration: 2 * time.Second,
		Rate: func(t time.Duration) float64 {
			if t < 1500*time.Millisecond {
				return 80
			}
			return 0
		},
		Work:  func(time.Duration, *rand.Rand) eval.Work { return eval.Work{Downstream: 10 * time.Millisecond} },
		Slots: 1, Timeout: timeout, SLO: time.Second}
}

// TestTimeoutZeroQueues: with Timeout 0 a call waits for the downstream's
// slot as long as it takes, and none is rejected; with a 1ms timeout the
// same load has calls rejected, so they did contend for the slot.
func TestTimeoutZeroQueues(t *testing.T) {
	queued := runIn(t, oneSlot(0), eval.Fixed(4), 42)
	if queued.Rejected != 0 || queued.Completed != queued.Arrivals || queued.Arrivals == 0 {
		t.Errorf("Timeout 0: %d completed, %d rejected of %d arrivals; want all completed", queued.Completed, queued.Rejected, queued.Arrivals)
	}
	timed := runIn(t, oneSlot(time.Millisecond), eval.Fixed(4), 42)
	if timed.Rejected == 0 || timed.Completed+timed.Rejected != timed.Arrivals {
		t.Errorf("1ms timeout: %d completed, %d rejected of %d arrivals; want some rejected", timed.Completed, timed.Rejected, timed.Arrivals)
	}
}

// TestNilMeter: a controller that returns no meter runs, and the harness
// still counts the rejections it makes (downstream timeouts here).
func TestNilMeter(t *testing.T) {
	var saw int
	r := runIn(t, oneSlot(time.Millisecond), hold{start: 4, saw: &saw}, 42)
	if r.Rejected == 0 || r.Completed+r.Rejected != r.Arrivals {
		t.Errorf("%d completed, %d rejected of %d arrivals; want some rejected, all counted", r.Completed, r.Rejected, r.Arrivals)
	}
}

// TestInitialOverrides: a scenario's Initial is the size every controller
// starts at, whatever its own Initial; fixed sizes keep theirs.
func TestInitialOverrides(t *testing.T) {
	s := oneSlot(0)
	s.Slots, s.Initial = 8, 8
	var saw int
	r := runIn(t, s, hold{start: 2, saw: &saw}, 42)
	if saw != 8 {
		t.Errorf("the controller started at %d, want the scenario's 8", saw)
	}
	for _, p := range r.Series {
		if p.Size != 8 {
			t.Fatalf("size %d at %v, want 8 throughout", p.Size, p.T)
		}
	}
	if got := runIn(t, s, eval.Fixed(3), 42).Final; got != 3 {
		t.Errorf("fixed-3 ended at %d with the scenario's Initial 8; want 3", got)
	}
	for _, c := range controllers() {
		saw = 0
		r := runIn(t, s, probe{c, &saw}, 42)
		if saw != 8 {
			t.Errorf("%s started at %d, want 8", c.Name(), saw)
		}
		if r.Completed+r.Rejected != r.Arrivals || r.Arrivals == 0 {
			t.Errorf("%s: %d completed + %d rejected of %d arrivals", c.Name(), r.Completed, r.Rejected, r.Arrivals)
		}
	}
}

// TestHogsRun: a scenario's hogs run in the same process during the run,
// and are gone when Run returns. Real time, a fraction of a second.
func TestHogsRun(t *testing.T) {
	ignore := goleak.IgnoreCurrent()
	s := oneSlot(0)
	s.Duration, s.Hogs, s.RealTime = 300*time.Millisecond, 2, true
	s.Rate = func(time.Duration) float64 { return 50 }
	r := eval.Run(s, eval.Fixed(4), 1)
	if r.Completed+r.Rejected != r.Arrivals || r.Arrivals == 0 {
		t.Errorf("%d completed + %d rejected of %d arrivals", r.Completed, r.Rejected, r.Arrivals)
	}
	goleak.VerifyNone(t, ignore)
}

// TestOracle: the fewest worker-seconds among the runs within the SLO
// that rejected at most 0.1%; failing that, among the runs within 1% of
// the highest throughput, the fewest worker-seconds.
func TestOracle(t *testing.T) {
	s := eval.Scenario{SLO: 10 * time.Millisecond}
	run := func(name string, tput, ws float64, p99 time.Duration, rejected int) eval.Result {
		return eval.Result{Controller: name, Throughput: tput, WorkerSeconds: ws, WaitP99: p99, Arrivals: 10000, Rejected: rejected}
	}
	for _, c := range []struct {
		name  string
		fixed []eval.Result
		want  string
	}{
		{"fewest worker-seconds within the SLO", []eval.Result{
			run("a", 100, 50, 5*time.Millisecond, 0), run("b", 100, 40, 9*time.Millisecond, 10),
			run("c", 100, 30, 11*time.Millisecond, 0), run("d", 100, 20, 5*time.Millisecond, 11)}, "b"},
		{"none within: the fewest worker-seconds within 1% of the top", []eval.Result{
			run("a", 100, 50, time.Second, 0), run("b", 99.5, 30, time.Second, 0),
			run("c", 98, 10, time.Second, 0), run("d", 100, 60, time.Second, 0)}, "b"},
		{"none within: exactly 1% below the top counts", []eval.Result{
			run("a", 100, 50, time.Second, 0), run("b", 99, 30, time.Second, 0)}, "b"},
		{"none within: the top alone", []eval.Result{
			run("a", 80, 10, time.Second, 0), run("b", 100, 90, time.Second, 0), run("c", 90, 20, time.Second, 0)}, "b"},
	} {
		if got := eval.Oracle(s, c.fixed).Controller; got != c.want {
			t.Errorf("%s: oracle %s, want %s", c.name, got, c.want)
		}
	}
}

// TestStationaryTarget: a stationary scenario's result says whether
// poolkit met the target, and the Markdown counts them.
func TestStationaryTarget(t *testing.T) {
	oracle := eval.Result{Controller: "fixed-4", Throughput: 100, WorkerSeconds: 40}
	s := eval.Scenario{Name: "flat", SLO: time.Second, Stationary: true}
	var res eval.Results
	for _, c := range []struct {
		tput, ws          float64
		stationary, meets bool
	}{
		{95, 48, true, true},
		{94, 40, true, false},
		{100, 48.5, true, false},
		{100, 40, false, false},
	} {
		s.Stationary = c.stationary
		pk := eval.Result{Controller: "poolkit", Throughput: c.tput, WorkerSeconds: c.ws}
		sr := eval.Evaluate(s, []eval.Result{oracle}, []eval.Result{pk})
		if sr.Stationary != c.stationary || sr.MeetsTarget != c.meets {
			t.Errorf("%.0f/s, %.1f worker-s, stationary %v: meets the target %v, want %v", c.tput, c.ws, c.stationary, sr.MeetsTarget, c.meets)
		}
		res.Scenarios = append(res.Scenarios, sr)
	}
	var out bytes.Buffer
	if err := res.WriteMarkdown(&out); err != nil {
		t.Fatal(err)
	}
	if want := "in 1 of 3 stationary scenarios."; !strings.Contains(out.String(), want) {
		t.Errorf("the Markdown does not say %q:\n%s", want, out.String())
	}
}
