package eval_test

import (
	"flag"
	"runtime"
	"testing"
	"time"

	"github.com/poolkit/poolkit/autoscale/eval"
)

var (
	cpuReport      = flag.String("cpu-report", "", "run the real-time scenarios in full (about 20 minutes on 2 CPUs, longer on more), and write their results as Markdown tables to this file")
	cpuResultsJSON = flag.String("cpu-results-json", "", "run the real-time scenarios in full (about 20 minutes on 2 CPUs, longer on more), and write their results (eval.Results) as JSON to this file")
	cpuSeedsReport = flag.String("cpu-seeds-report", "", "replay the real-time scenarios with seeds 1 to -cpu-seeds, poolkit's controller only, and write how often it met the reference, as Markdown, to this file")
	cpuSeeds       = flag.Int("cpu-seeds", 3, "how many seeds -cpu-seeds-report replays")
)

// TestCPUScenarios runs the real-time scenarios (RealTimeScenarios). By
// default it runs three seconds of the saturation scenario through
// poolkit's controller and checks the harness's accounting and that the
// controller found the work CPU-bound and ended within ceil(1.5 ×
// GOMAXPROCS), then one second of the busy-process scenario (S12), for
// the accounting only: no test asserts how fast the machine is. With
// -cpu-report or -cpu-results-json it runs every real-time scenario
// through its fixed grid and every controller, and writes the results as
// -cpu-report, -cpu-results-json and -plots ask.
func TestCPUScenarios(t *testing.T) {
	procs := runtime.GOMAXPROCS(0)
	full := *cpuReport != "" || *cpuResultsJSON != ""
	var set func(int)
	if full {
		// This test is the application here: it may move GOMAXPROCS for
		// S10, and puts it back when done.
		set = func(n int) { runtime.GOMAXPROCS(n) }
		defer runtime.GOMAXPROCS(procs)
	}
	scenarios := eval.RealTimeScenarios(procs, set)
	for _, s := range scenarios {
		if !s.RealTime {
			t.Errorf("%s: a real-time scenario not marked RealTime", s.Name)
		}
	}
	if !full {
		s := scenarios[0]
		s.Duration = 3 * time.Second
		r := eval.Run(s, controllers(realTimeCeiling())[0], 7)
		checkAccounting(t, s, r)
		// Where the controller ends is not asserted: in real time it
		// depends on what else the machine runs (the race detector and
		// the other packages' tests, in CI). The knee-finding it relies
		// on is tested in package autoscale on given observations, and
		// the full run records where it ends on a quiet machine.
		t.Logf("sizes: %v", sizes(r))
		for _, s := range scenarios {
			if s.Hogs > 0 {
				s.Duration = time.Second
				r := eval.Run(s, controllers(realTimeCeiling())[0], 7)
				checkAccounting(t, s, r)
				t.Logf("%s, 1 s: %.0f/s, sizes %v", s.Name, r.Throughput, sizes(r))
			}
		}
		return
	}
	res := eval.NewResults("cpu")
	for _, s := range scenarios {
		if !chosen(s) {
			continue
		}
		sr := evaluate(t, s, controllers(realTimeCeiling()), 42, func(c eval.Controller) eval.Result { return eval.Run(s, c, 42) })
		logVsReference(t, sr)
		if *plots != "" {
			writePlot(t, *plots, s, append([]eval.Result{sr.Reference}, sr.Runs...))
		}
		res.Scenarios = append(res.Scenarios, sr)
	}
	writeResults(t, res, *cpuReport, *cpuResultsJSON)
}

// TestCPUSeeds runs the real-time scenarios (those -scenarios selects)
// with seeds 1 to -cpu-seeds when -cpu-seeds-report asks: each seed's
// reference search and poolkit's controller, no baselines, in real time
// (about 12 minutes a seed for all of them, on a quiet machine).
func TestCPUSeeds(t *testing.T) {
	if *cpuSeedsReport == "" {
		t.Skip("-cpu-seeds-report not set")
	}
	procs := runtime.GOMAXPROCS(0)
	set := func(n int) { runtime.GOMAXPROCS(n) }
	defer runtime.GOMAXPROCS(procs)
	var scenarios []eval.Scenario
	for _, s := range eval.RealTimeScenarios(procs, set) {
		if chosen(s) {
			scenarios = append(scenarios, s)
		}
	}
	writeSeeds(t, *cpuSeedsReport, "Real-time scenarios", scenarios, *cpuSeeds, func(s eval.Scenario, seed uint64) eval.ScenarioResult {
		return evaluate(t, s, controllers(realTimeCeiling())[:1], seed, func(c eval.Controller) eval.Result { return eval.Run(s, c, seed) })
	})
}

func sizes(r eval.Result) []int {
	var s []int
	for _, p := range r.Series {
		s = append(s, p.Size)
	}
	return s
}
