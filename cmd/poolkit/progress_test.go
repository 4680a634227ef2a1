package main

import (
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/poolkit/poolkit/bench"
)

// recorder is a progress that keeps what it was told.
type recorder struct{ done, total []time.Duration }

func (r *recorder) Update(done, total time.Duration, _ string) {
	r.done, r.total = append(r.done, done), append(r.total, total)
}
func (r *recorder) Restart() {}
func (r *recorder) Finish()  {}

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

// TestPlainProgress: the plain lines give the share of the expected time
// done, the time elapsed and the time left at the pace so far; one line
// at most every period, and one at the end.
func TestPlainProgress(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var out strings.Builder
		p := &plainProgress{stage: "bench", out: &out, every: 10 * time.Second, start: time.Now()}
		p.Update(0, 100*time.Second, "round 1 W/poolkit")
		time.Sleep(5 * time.Second)
		p.Update(10*time.Second, 100*time.Second, "too soon") // within the period: no line
		time.Sleep(15 * time.Second)
		// 20 s in, half the expected work done: 20 s left at this pace.
		p.Update(50*time.Second, 100*time.Second, "round 1 Sleeping1M/poolkit")
		time.Sleep(20 * time.Second)
		p.Finish()
		want := "bench:   0%, 0s elapsed, about 1m40s left; now: round 1 W/poolkit\n" +
			"bench:  50%, 20s elapsed, about 20s left; now: round 1 Sleeping1M/poolkit\n" +
			"bench: finished in 40s (expected about 1m40s)\n"
		if out.String() != want {
			t.Errorf("got\n%s\nwant\n%s", out.String(), want)
		}
	})
}

// TestStatusWithoutShare: a stage that cannot tell its share done (a test
// suite) shows its time against the expected, also once past it.
func TestStatusWithoutShare(t *testing.T) {
	for _, c := range []struct {
		elapsed time.Duration
		want    string
	}{
		{20 * time.Second, "20s elapsed, expected about 35s"},
		{70 * time.Second, "1m10s elapsed, expected about 35s"},
	} {
		if got := status(-1, 35*time.Second, c.elapsed); got != c.want {
			t.Errorf("status after %v = %q, want %q", c.elapsed, got, c.want)
		}
	}
}
