package main

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/poolkit/poolkit/bench"
)

// sample is what the progress line shows at one time of a run.
type sample struct {
	at    time.Duration // since the run started
	share float64
	left  time.Duration
}

// steady checks that a time left moves as a clock does, give or take
// its own uncertainty: it never grows, and never falls more than three
// times as fast as the time passes; and that the share done never goes
// back. A figure that swings ("1m24s left", then "14s", then "1m36s"
// within 20 s) fails it.
func steady(samples []sample) error {
	for i := 1; i < len(samples); i++ {
		a, b := samples[i-1], samples[i]
		dt := b.at - a.at
		switch {
		case b.left > a.left:
			return fmt.Errorf("at %v the time left grew from %v to %v", b.at, a.left, b.left)
		case a.left-b.left > 3*dt:
			return fmt.Errorf("at %v the time left fell from %v to %v in %v", b.at, a.left, b.left, dt)
		case b.share < a.share:
			return fmt.Errorf("at %v the share done went back from %.3f to %.3f", b.at, a.share, b.share)
		}
	}
	return nil
}

// fakeRun plays a quick report on a fake clock, with each part taking
// another time than expected, and returns the progress line's figures
// every second, the plan and when the run ended.
//
// The benchmarks follow the real plan: light workloads at half their
// expected time and the million sleeping tasks at 2.5 times theirs
// (their rounds vary most), so that the pace turns late in the stage;
// the actor benchmarks' build (cold, 2m20s expected) takes 2m30s and
// their rounds 1.3 times their time; the keyed stream benchmark's build
// (warm) 3 s and its rounds 1.2 times their time; the conformance suite
// 0.7, the autoscaler scenarios 1.5.
func fakeRun(t *testing.T) (got []sample, plan []stagePlan, end time.Duration) {
	t.Helper()
	c, err := parseArgs(nil)
	if err != nil {
		t.Fatal(err)
	}
	plan = c.plan(map[string]time.Duration{"actors": 140 * time.Second, "keyed": buildLink, "spec": buildLink, "autoscale": buildLink})
	steps, err := bench.Plan(c.benchOptions())
	if err != nil {
		t.Fatal(err)
	}
	t0 := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	e := newRunEstimate(t0, plan)
	// The stages' events, each at its time; a sample every second.
	type event struct {
		at time.Duration
		do func(time.Time)
	}
	var events []event
	var now time.Duration
	at := func(f func(time.Time)) { events = append(events, event{now, f}) }

	var benchTotal, done time.Duration
	for _, st := range steps {
		benchTotal += stepTime(st, false)
	}
	at(func(n time.Time) { e.begin("bench", n) })
	for _, st := range steps {
		d := done
		at(func(n time.Time) { e.update("bench", d, benchTotal, n) })
		f := 0.5
		if st.Workload.Heavy {
			f = 2.5
		}
		done += stepTime(st, false)
		now += time.Duration(float64(stepTime(st, false)) * f)
	}
	at(func(n time.Time) { e.update("bench", benchTotal, benchTotal, n) })
	at(func(n time.Time) { e.finish("bench", n) })

	// actors and keyed: a build, then three rounds that tell their share.
	for _, s := range []struct {
		name  string
		build time.Duration
		f     float64
	}{{"actors", 150 * time.Second, 1.3}, {"keyed", 3 * time.Second, 1.2}} {
		name, total := s.name, c.stageTime(s.name)
		at(func(n time.Time) { e.begin(name, n) })
		at(func(n time.Time) { e.building(name, n) })
		now += s.build
		at(func(n time.Time) { e.built(name, n) })
		for i := range 3 {
			d := total * time.Duration(i) / 3
			at(func(n time.Time) { e.update(name, d, total, n) })
			now += time.Duration(float64(total/3) * s.f)
		}
		at(func(n time.Time) { e.finish(name, n) })
	}

	// spec and autoscale: a build, then tests that cannot tell their
	// share.
	for _, s := range []struct {
		name string
		f    float64
	}{{"spec", 0.7}, {"autoscale", 1.5}} {
		name, work := s.name, c.stageTime(s.name)
		at(func(n time.Time) { e.begin(name, n) })
		at(func(n time.Time) { e.building(name, n) })
		now += 3 * time.Second
		at(func(n time.Time) { e.built(name, n) })
		at(func(n time.Time) { e.update(name, -1, work, n) })
		now += time.Duration(float64(work) * s.f)
		at(func(n time.Time) { e.finish(name, n) })
	}
	end = now

	next := 0
	for tick := time.Duration(0); tick <= end; tick += time.Second {
		for next < len(events) && events[next].at <= tick {
			events[next].do(t0.Add(events[next].at))
			next++
		}
		share, left, ok := e.status(t0.Add(tick))
		if !ok {
			t.Fatal("no estimate for a planned run")
		}
		got = append(got, sample{tick, share, left})
	}
	return got, plan, end
}

// TestSteadyCatchesSwings: the check of the estimate fails the figures a
// user saw in the past.
func TestSteadyCatchesSwings(t *testing.T) {
	seen := []sample{{0, 0.5, 84 * time.Second}, {10 * time.Second, 0.6, 14 * time.Second}, {20 * time.Second, 0.7, 96 * time.Second}}
	if steady(seen) == nil {
		t.Error("1m24s, 14s, 1m36s left within 20 s passes as steady")
	}
	if steady(seen[1:]) == nil {
		t.Error("14s, then 1m36s left 10 s later passes as steady")
	}
	clock := []sample{{0, 0.5, 84 * time.Second}, {10 * time.Second, 0.6, 74 * time.Second}, {20 * time.Second, 0.7, 60 * time.Second}}
	if err := steady(clock); err != nil {
		t.Errorf("a time left that moves with the clock: %v", err)
	}
}

// TestRunEstimateSteady: over a whole run whose parts take other times
// than expected, the run's time left starts at the banner's figure,
// moves as a clock does give or take its uncertainty, and stays within a
// fifth of the run's time of the truth; the share done only grows, to
// 100%.
func TestRunEstimateSteady(t *testing.T) {
	got, plan, end := fakeRun(t)
	if got[0].left != planned(plan) {
		t.Errorf("at the start %v left, want the banner's %v", got[0].left, planned(plan))
	}
	if err := steady(got); err != nil {
		t.Error(err)
	}
	if last := got[len(got)-1]; last.share < 0.999 {
		t.Errorf("at the end %.3f done", last.share)
	}
	for _, s := range got {
		if off := (s.at + s.left - end).Abs(); off > end/5 {
			t.Errorf("at %v: %v left, the run ends in %v: off by %v, more than a fifth of the run", s.at, s.left, end-s.at, off)
			break
		}
	}
}

// TestRunEstimateWholeRun: the time left covers every stage to come and
// its build, and the share is the run's, weighted by expected time.
func TestRunEstimateWholeRun(t *testing.T) {
	t0 := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	plan := []stagePlan{{"bench", 0, 60 * time.Second}, {"actors", 120 * time.Second, 20 * time.Second}, {"spec", 0, 100 * time.Second}}
	e := newRunEstimate(t0, plan)
	e.begin("bench", t0)
	e.update("bench", 0, 60*time.Second, t0)
	// Exactly on plan: half the benchmarks in 30 s.
	e.update("bench", 30*time.Second, 60*time.Second, t0.Add(30*time.Second))
	share, left, ok := e.status(t0.Add(30 * time.Second))
	if !ok || left != 270*time.Second || share != 30.0/300 {
		t.Errorf("on plan after 30 s: %.3f done, %v left (%v); want 0.100 and 4m30s, the later stages and the build included", share, left, ok)
	}
	// A stage the plan lacks (compare) is followed from its first figure.
	e = newRunEstimate(t0, nil)
	e.begin("compare", t0)
	if _, _, ok := e.status(t0.Add(time.Second)); ok {
		t.Error("an estimate with nothing expected")
	}
	e.update("compare", 0, 40*time.Second, t0.Add(10*time.Second))
	if share, left, ok := e.status(t0.Add(10 * time.Second)); !ok || share != 0 || left <= 0 {
		t.Errorf("compare with its total: %.3f done, %v left (%v)", share, left, ok)
	}
}

// TestBuildCost: what go list says the build cache lacks turns into
// time: a link when it lacks nothing, the compile of every file it
// lacks beside, a download allowance for modules not fetched yet; and
// the banner tells a cold build apart.
func TestBuildCost(t *testing.T) {
	out := "stale 1 0 example.com/m.test\n\nstale 30 2 example.com/dep\nstale 10 0 example.com/m\nmissing\n"
	built := map[string]bool{}
	if w := parseStale(out, built); w != (buildWork{packages: 2, files: 42, missing: 1}) {
		t.Errorf("parseStale = %+v", w)
	}
	// A later build finds example.com/dep compiled.
	if w := parseStale("stale 30 2 example.com/dep\nstale 5 0 example.com/other\n", built); w != (buildWork{packages: 1, files: 5}) {
		t.Errorf("parseStale after the first = %+v", w)
	}
	if got := buildCost(buildWork{}, 2); got != buildLink {
		t.Errorf("a cached build: %v, want a link's %v", got, buildLink)
	}
	cold := buildCost(buildWork{packages: 300, files: 2090}, 2)
	if cold < 2*time.Minute || cold > 3*time.Minute {
		t.Errorf("the actor benchmarks' first build: %v, want the 2 to 3 minutes it takes on 2 cores", cold)
	}
	if buildCost(buildWork{packages: 300, files: 2090}, 8) >= cold || buildCost(buildWork{packages: 300, files: 2090, missing: 3}, 2) <= cold {
		t.Error("more cores do not build faster, or a download takes no time")
	}
	plan := []stagePlan{{"bench", 0, time.Minute}, {"actors", cold, time.Minute}, {"spec", buildLink, time.Minute}}
	if got := buildNote(plan); !strings.Contains(got, "builds included") || !strings.Contains(got, "2m20s to build the actor benchmarks") {
		t.Errorf("cold: %q", got)
	}
	plan[1].build = buildLink
	if got := buildNote(plan); got != ", builds included (all in the build cache)" {
		t.Errorf("warm: %q", got)
	}
	if got := buildNote(plan[:1]); got != "" {
		t.Errorf("no build: %q", got)
	}
}

// TestBuildTimes asks the go command about this source tree: every stage
// that builds gets a time, a link at least.
func TestBuildTimes(t *testing.T) {
	root, err := moduleRoot()
	if err != nil {
		t.Skip(err)
	}
	c, _ := parseArgs(nil)
	bt := c.buildTimes(root)
	for _, s := range []string{"actors", "keyed", "spec", "autoscale"} {
		if bt[s] < buildLink {
			t.Errorf("%s: %v", s, bt[s])
		}
	}
	if _, ok := bt["bench"]; ok {
		t.Error("bench builds nothing")
	}
}
