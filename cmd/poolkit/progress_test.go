package main

import (
	"io"
	"os"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/poolkit/poolkit/bench"
	"github.com/poolkit/poolkit/spectest"
)

// recorder is a progress that keeps what it was told.
type recorder struct{ done, total []time.Duration }

func (r *recorder) Update(done, total time.Duration, _ string) {
	r.done, r.total = append(r.done, done), append(r.total, total)
}
func (r *recorder) Building(string) {}
func (r *recorder) Built()          {}
func (r *recorder) Finish()         {}
func (r *recorder) End(bool)        {}
func (r *recorder) Took() stageTime { return stageTime{} }

// TestBenchProgressInTime: the benchmarks' progress counts expected time,
// not runs. Every light workload's runs come first and are most of the
// runs, but the million sleeping tasks take most of the time: when the
// light ones are done, the bar must not be near its end.
func TestBenchProgressInTime(t *testing.T) {
	opts := bench.Options{Rounds: 1, HeavyRounds: 1}
	plan, err := bench.Plan(opts)
	if err != nil {
		t.Fatal(err)
	}
	first := -1
	for i, st := range plan {
		if st.Workload.Heavy && first < 0 {
			first = i
		}
	}
	if first < 0 {
		t.Fatal("no heavy workload in the plan")
	}
	var r recorder
	report := benchProgress(&r, false)
	for i := range len(plan) + 1 {
		report(i, plan)
	}
	total := r.total[0]
	if c, _ := parseArgs([]string{"bench", "-rounds", "1"}); total != c.stageTime("bench") {
		t.Errorf("the progress's total %v is not the stage's estimate %v", total, c.stageTime("bench"))
	}
	byCount := float64(first) / float64(len(plan))
	byTime := float64(r.done[first]) / float64(total)
	if byCount < 0.5 || byTime > 0.5 {
		t.Errorf("with the light workloads done: %.0f%% of the runs, %.0f%% of the expected time; want over half the runs and under half the time",
			100*byCount, 100*byTime)
	}
	if r.done[len(plan)] != total {
		t.Errorf("at the end %v of %v", r.done[len(plan)], total)
	}
	for i := 1; i < len(r.done); i++ {
		if r.done[i] < r.done[i-1] {
			t.Fatalf("progress went back at step %d", i)
		}
	}
}

// TestPlainProgress: while a stage builds, a line says what it builds
// every period; then the lines give the whole run's share done and time
// left, and the stage's own share, labelled; each starts with the run's
// clock; and the end says how long the stage took, build included,
// which is what the stage reports.
func TestPlainProgress(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var out strings.Builder
		// An earlier stage took the 90 s expected of it; the actors stage
		// is expected to build for 30 s and work for 100 s.
		run := time.Now()
		est := newRunEstimate(run, []stagePlan{{"bench", 0, 90 * time.Second}, {"actors", 30 * time.Second, 100 * time.Second}})
		est.begin("bench", run)
		time.Sleep(90 * time.Second)
		est.finish("bench", time.Now())
		p := newStageProgress("actors", &plainScreen{out: &out, every: 10 * time.Second}, &out, est)
		p.Building("bench/actors")
		time.Sleep(25200 * time.Millisecond)
		p.Built()
		p.Update(0, 100*time.Second, "round 1/3: A") // within the period: no line of its own
		time.Sleep(15 * time.Second)
		// Half the expected work done in 15 s.
		p.Update(50*time.Second, 100*time.Second, "round 2/3: B")
		time.Sleep(10 * time.Second)
		p.End(false)
		p.End(false) // once only
		// 220 s expected in all: the run's share counts the build's
		// expected 30 s once it ended early, and the time left goes at the
		// clock's pace at most.
		want := "[1m30s] 40% of the run done, about 2m10s left | actors: building bench/actors, 0s so far\n" +
			"[1m40s] 45% of the run done, about 2m0s left | actors: building bench/actors, 10s so far\n" +
			"[1m50s] 50% of the run done, about 1m50s left | actors: building bench/actors, 20s so far\n" +
			"[1m55s] actors: built in 25.2s\n" +
			"[2m6s] 54% of the run done, about 1m43s left | actors: 0% of the stage; now: round 1/3: A\n" +
			"[2m16s] 77% of the run done, about 1m25s left | actors: 50% of the stage; now: round 2/3: B\n" +
			"[2m20s] actors: took 50.2s (building 25.2s)\n"
		if out.String() != want {
			t.Errorf("got\n%s\nwant\n%s", out.String(), want)
		}
		if got := p.Took(); got != (stageTime{Stage: "actors", Total: 50200 * time.Millisecond, Build: 25200 * time.Millisecond}) {
			t.Errorf("Took() = %+v", got)
		}
	})
}

// TestClockOnlyGrows: the time on the lines is the run's, from one stage
// to the next, including across a stage's build.
func TestClockOnlyGrows(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var out strings.Builder
		est := newRunEstimate(time.Now(), nil)
		for _, stage := range []string{"bench", "actors", "spec"} {
			p := newStageProgress(stage, &plainScreen{out: &out, every: 10 * time.Second}, &out, est)
			p.Building(stage + "'s tests")
			time.Sleep(12 * time.Second)
			p.Built()
			for i := range 3 {
				p.Update(time.Duration(i)*time.Second, 3*time.Second, "")
				time.Sleep(7 * time.Second)
			}
			p.Finish()
		}
		last := time.Duration(-1)
		for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n") {
			c, _, ok := strings.Cut(strings.TrimPrefix(line, "["), "]")
			d, err := time.ParseDuration(c)
			if !ok || err != nil {
				t.Fatalf("line without the run's clock: %q", line)
			}
			if d < last {
				t.Errorf("the clock went back to %v after %v: %q\n%s", d, last, line, out.String())
			}
			last = d
		}
	})
}

// TestStatusWithoutShare: a stage that cannot tell its share done (a test
// suite) shows its time against the expected, also once past it; the
// run's time left is then what remains of it at the run's pace, and once
// past it, it holds still rather than grow.
func TestStatusWithoutShare(t *testing.T) {
	t0 := time.Now()
	run := t0.Add(-time.Minute)
	est := newRunEstimate(run, []stagePlan{{"bench", 0, time.Minute}, {"spec", 0, 35 * time.Second}})
	est.begin("bench", run)
	est.finish("bench", t0)
	est.begin("spec", t0)
	est.update("spec", -1, 35*time.Second, t0)
	p := &stageProgress{stage: "spec", est: est, run: run, work: t0, updated: true, done: -1, total: 35 * time.Second, what: "TestX"}
	for _, c := range []struct {
		elapsed time.Duration
		want    string
	}{
		{20 * time.Second, "[1m20s] 84% of the run done, about 15s left | spec: 20s of about 35s; now: TestX"},
		{70 * time.Second, "[2m10s] 99% of the run done, a few seconds left | spec: 1m10s of about 35s; now: TestX"},
	} {
		if got, _, _ := p.status(t0.Add(c.elapsed)); got != c.want {
			t.Errorf("status after %v = %q, want %q", c.elapsed, got, c.want)
		}
	}
}

// TestStageTimesAgree: the terminal and the report show one measurement
// of each stage, written alike.
func TestStageTimesAgree(t *testing.T) {
	var terminal strings.Builder
	var o outcomes
	synctest.Test(t, func(t *testing.T) {
		run := time.Now()
		est := newRunEstimate(run, nil)
		for _, st := range []struct {
			stage        string
			build, total time.Duration
		}{{"bench", 0, 92 * time.Second}, {"actors", 137 * time.Second, 176 * time.Second}, {"spec", 0, 39 * time.Second}} {
			p := newStageProgress(st.stage, &plainScreen{out: io.Discard, every: time.Hour}, &terminal, est)
			if st.build > 0 {
				p.Building("it")
				time.Sleep(st.build)
				p.Built()
			}
			p.Update(0, time.Minute, "")
			time.Sleep(st.total - st.build)
			p.End(false)
			o.times = append(o.times, p.Took())
		}
		o.elapsed = time.Since(run)
	})
	for _, want := range []string{"bench: took 1m32s\n", "actors: took 2m56s (building 2m17s)\n", "spec: took 39.0s\n"} {
		if !strings.Contains(terminal.String(), want) {
			t.Errorf("the terminal lacks %q:\n%s", want, terminal.String())
		}
	}
	c, err := parseArgs([]string{"-out", t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	o.spec = &specOutcome{view: newSpecView(spectest.Report{})}
	path, err := writeReport(c, t.TempDir(), o)
	if err != nil {
		t.Fatal(err)
	}
	html, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"(quick run, 5m07s: bench 1m32s, actors 2m56s (building 2m17s), spec 39.0s)", "run against every pool (39.0s)"} {
		if !strings.Contains(string(html), want) {
			t.Errorf("the report lacks %q", want)
		}
	}
}
