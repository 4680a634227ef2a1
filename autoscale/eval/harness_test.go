package eval_test

import (
	"bytes"
	"math"
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
func (h hold) Start(r resize.Resizer) (*autoscale.Meter, func(), func()) {
	*h.saw = r.Cap()
	return nil, func() {}, nil
}

// probe wraps a controller and records the pool's size at Start.
type probe struct {
	eval.Controller
	saw *int
}

func (p probe) Start(r resize.Resizer) (*autoscale.Meter, func(), func()) {
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
	for _, c := range controllers(ioCeiling) {
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

// TestReference: the fewest worker-seconds among the runs in the top
// goodput band (within 2% of the highest throughput) with a p99 wait
// within RefWait; failing that, the fewest worker-seconds in the band.
func TestReference(t *testing.T) {
	run := func(name string, tput, ws float64, p99 time.Duration) eval.Result {
		return eval.Result{Controller: name, Throughput: tput, WorkerSeconds: ws, WaitP99: p99, Arrivals: 10000}
	}
	ok, slow := eval.RefWait, eval.RefWait+time.Millisecond
	for _, c := range []struct {
		name  string
		fixed []eval.Result
		want  string
	}{
		{"fewest worker-seconds in the band within RefWait", []eval.Result{
			run("a", 100, 50, ok), run("b", 98, 40, ok), run("c", 100, 30, slow), run("d", 97.9, 20, ok)}, "b"},
		{"none within RefWait: the fewest worker-seconds in the band", []eval.Result{
			run("a", 100, 50, time.Second), run("b", 99.5, 30, time.Second),
			run("c", 97, 10, time.Second), run("d", 100, 60, time.Second)}, "b"},
		{"exactly 2% below the top is in the band", []eval.Result{
			run("a", 100, 50, time.Second), run("b", 98, 30, time.Second)}, "b"},
		{"the top alone", []eval.Result{
			run("a", 80, 10, ok), run("b", 100, 90, time.Second), run("c", 90, 20, ok)}, "b"},
	} {
		if got := eval.Reference(c.fixed).Controller; got != c.want {
			t.Errorf("%s: reference %s, want %s", c.name, got, c.want)
		}
	}
}

// TestSearchReference: the bisection finds the same size as running every
// size would, in about log2 of the range runs, on a load whose throughput
// grows up to 20 workers and whose wait is within RefWait from 21.
func TestSearchReference(t *testing.T) {
	model := func(n int) eval.Result {
		wait := time.Duration(0)
		if n < 23 {
			wait = time.Duration(23-n) * 50 * time.Millisecond
		}
		return eval.Result{Controller: eval.Fixed(n).Name(), Throughput: float64(min(n, 20)) * 50, WorkerSeconds: float64(n), WaitP99: wait}
	}
	var all []eval.Result
	for n := 1; n <= 64; n++ {
		all = append(all, model(n))
	}
	calls := 0
	ref, tried := eval.SearchReference(64, func(n int) eval.Result { calls++; return model(n) })
	if want := eval.Reference(all).Controller; ref.Controller != want || want != "fixed-21" {
		t.Errorf("search found %s, every size gives %s; want fixed-21", ref.Controller, want)
	}
	if calls > 8 || len(tried) != calls {
		t.Errorf("%d runs (%d kept) for 64 sizes, want at most 8, all kept", calls, len(tried))
	}
	for _, hi := range []int{0, 1, 2, 3, 4, 8, 48, 64, 384} {
		calls := 0
		eval.SearchReference(hi, func(n int) eval.Result { calls++; return model(n) })
		if want := eval.ReferenceRuns(hi); calls != want {
			t.Errorf("SearchReference(%d) ran %d sizes, ReferenceRuns says %d", hi, calls, want)
		}
	}
	// No size within RefWait: the cheapest in the band, 20.
	slowAll := func(n int) eval.Result { r := model(n); r.WaitP99 += time.Second; return r }
	if ref, _ := eval.SearchReference(64, slowAll); ref.Controller != "fixed-20" {
		t.Errorf("with no size within RefWait the search found %s, want fixed-20", ref.Controller)
	}
}

// TestVerdict: each criterion against the reference, and the Markdown
// counts the scenarios that met them all.
func TestVerdict(t *testing.T) {
	ref := eval.Result{Controller: "fixed-4", Throughput: 100, WorkerSeconds: 40, WaitP99: 30 * time.Millisecond, EndWaitP99: 80 * time.Millisecond}
	s := eval.Scenario{Name: "flat", SLO: time.Second}
	res := eval.Results{Kind: "io"}
	for _, c := range []struct {
		tput, ws float64
		p99, end time.Duration
		want     eval.Verdict
	}{
		{95, 48, 100 * time.Millisecond, 160 * time.Millisecond, eval.Verdict{Throughput: true, WorkerSeconds: true, Wait: true, EndWait: true}},
		{94, 40, 0, 0, eval.Verdict{WorkerSeconds: true, Wait: true, EndWait: true}},
		{100, 48.5, 0, 0, eval.Verdict{Throughput: true, Wait: true, EndWait: true}},
		{100, 40, 101 * time.Millisecond, 161 * time.Millisecond, eval.Verdict{Throughput: true, WorkerSeconds: true}},
	} {
		pk := eval.Result{Controller: "poolkit", Throughput: c.tput, WorkerSeconds: c.ws, WaitP99: c.p99, EndWaitP99: c.end}
		sr := eval.Evaluate(s, ref, []eval.Result{pk})
		if sr.Verdict != c.want {
			t.Errorf("%.0f/s, %.1f worker-s, p99 %v, end-to-end %v: verdict %+v, want %+v", c.tput, c.ws, c.p99, c.end, sr.Verdict, c.want)
		}
		res.Scenarios = append(res.Scenarios, sr)
	}
	var out bytes.Buffer
	if err := res.WriteMarkdown(&out); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"in 1 of 4 I/O scenarios", "p99 wait 101ms (at most 100ms: missed)"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the Markdown does not say %q:\n%s", want, out.String())
		}
	}
}

// TestRealTimeScenariosGrowWithCPUs: on any number of CPUs, the reference
// of CPU-bound work is searched among sizes up to twice GOMAXPROCS at
// least (its best size lies near GOMAXPROCS), S8's downstream has room
// for its load, which grows with the CPUs, and the controllers' ceiling
// reaches S8's need; on 2 CPUs, the scenarios the results were recorded
// with are unchanged.
func TestRealTimeScenariosGrowWithCPUs(t *testing.T) {
	for _, procs := range []int{1, 2, 4, 16, 64} {
		for _, s := range eval.RealTimeScenarios(procs, func(int) {}) {
			switch s.Name[:strings.Index(s.Name, " ")] {
			case "S5", "S6", "S10", "S18":
				if s.MaxFixed < 2*procs {
					t.Errorf("%d CPUs: %s searches its reference up to %d workers, under twice GOMAXPROCS", procs, s.Name, s.MaxFixed)
				}
			case "S8":
				// Each task is 0.3 ms of CPU and a 5 ms call.
				load := s.Rate(0) * (5 * time.Millisecond).Seconds()
				if float64(s.Slots) < 2*load || float64(s.MaxFixed) < 2*load {
					t.Errorf("%d CPUs: %s keeps %.0f calls busy with %d downstream slots and fixed sizes up to %d", procs, s.Name, load, s.Slots, s.MaxFixed)
				}
				if float64(realTimeCeilingFor(procs)) < 1.2*load {
					t.Errorf("%d CPUs: %s keeps %.0f calls busy under a ceiling of %d", procs, s.Name, load, realTimeCeilingFor(procs))
				}
			}
		}
	}
	recorded := map[string][2]int{"S5": {8, 0}, "S6": {8, 0}, "S8": {48, 64}, "S10": {4, 0}, "S18": {8, 0}, "S7": {48, 32}, "S12": {64, 64}}
	for _, s := range eval.RealTimeScenarios(2, func(int) {}) {
		want := recorded[s.Name[:strings.Index(s.Name, " ")]]
		if s.MaxFixed != want[0] || s.Slots != want[1] {
			t.Errorf("2 CPUs: %s has fixed sizes up to %d and %d slots; recorded with %d and %d", s.Name, s.MaxFixed, s.Slots, want[0], want[1])
		}
	}
	if got := realTimeCeilingFor(2); got != ioCeiling {
		t.Errorf("2 CPUs: a real-time ceiling of %d; recorded with %d", got, ioCeiling)
	}
}

// jumps resizes the pool on its own clock, between the harness's ticks
// and undone before the next: each step waits its delay, then sets its
// size.
type jumps []struct {
	after time.Duration
	size  int
}

func (j jumps) Name() string { return "jumps" }
func (j jumps) Initial() int { return 4 }
func (j jumps) Start(r resize.Resizer) (*autoscale.Meter, func(), func()) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		for _, s := range j {
			time.Sleep(s.after)
			_ = r.Resize(s.size)
		}
	}()
	return nil, nil, func() { <-done }
}

// TestWorkerSecondsIntegrateEveryResize: a run's worker-seconds are the
// integral of its size and its resizes every change, wherever they fall
// between the ticks' samples. Sampled at the ticks, as they once were,
// the first shrink counted for the whole tick before it, and the growth
// undone within a tick not at all. Fake time, so the integral is exact.
func TestWorkerSecondsIntegrateEveryResize(t *testing.T) {
	s := oneSlot(0)
	c := jumps{{100 * time.Millisecond, 1}, {50 * time.Millisecond, 6}, {20 * time.Millisecond, 1}, {0, 1}}
	r := runIn(t, s, c, 42)
	// 4 for 100 ms, 1 for 50 ms, 6 for 20 ms, then 1 to the end (2 s).
	want := 4*0.1 + 1*0.05 + 6*0.02 + 1*(2-0.17)
	if math.Abs(r.WorkerSeconds-want) > 1e-9 {
		t.Errorf("worker-seconds %v, want %v", r.WorkerSeconds, want)
	}
	if r.Resizes != 3 || r.Flaps != 2/s.Duration.Minutes() {
		t.Errorf("%d resizes, %v flaps a minute; want 3 and %v", r.Resizes, r.Flaps, 2/s.Duration.Minutes())
	}
	if f := runIn(t, s, eval.Fixed(3), 42); f.WorkerSeconds != 3*s.Duration.Seconds() || f.Resizes != 0 {
		t.Errorf("fixed-3: %v worker-seconds, %d resizes; want %v, 0", f.WorkerSeconds, f.Resizes, 3*s.Duration.Seconds())
	}
}
