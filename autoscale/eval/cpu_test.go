package eval_test

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"runtime"
	"testing"
	"time"

	"github.com/poolkit/poolkit/autoscale/eval"
)

var cpuReport = flag.String("cpu-report", "", "run the CPU-bound scenarios in full, in real time (about 10 minutes), and write their tables to this file")

// TestCPUScenarios runs the CPU-bound scenarios in real time. By default
// it runs three seconds of the saturation scenario through poolkit's
// controller and checks the harness's accounting and that the controller
// found the work CPU-bound and ended within ceil(1.5 × GOMAXPROCS);
// with -cpu-report it runs every CPU scenario through the fixed grid and
// every controller and writes the tables.
func TestCPUScenarios(t *testing.T) {
	procs := runtime.GOMAXPROCS(0)
	var set func(int)
	if *cpuReport != "" {
		// This test is the application here: it may move GOMAXPROCS for
		// S10, and puts it back when done.
		set = func(n int) { runtime.GOMAXPROCS(n) }
		defer runtime.GOMAXPROCS(procs)
	}
	scenarios := eval.CPUScenarios(procs, set)
	if *cpuReport == "" {
		s := scenarios[0]
		s.Duration = 3 * time.Second
		r := eval.Run(s, controllers()[0], 7)
		if r.Completed+r.Rejected != r.Arrivals {
			t.Errorf("%d completed + %d rejected of %d arrivals", r.Completed, r.Rejected, r.Arrivals)
		}
		last := r.Series[len(r.Series)-1].Size
		t.Logf("sizes: %v", sizes(r))
		if ceiling := (3*procs + 1) / 2; last > ceiling {
			t.Errorf("CPU-bound saturation ended at %d workers (ceiling for CPU-bound work %d)", last, ceiling)
		}
		return
	}
	var out bytes.Buffer
	fmt.Fprintf(&out, "Real time, GOMAXPROCS=%d, %s.\n", procs, time.Now().UTC().Format(time.DateOnly))
	wins := 0
	for _, s := range scenarios {
		var fixed []eval.Result
		for _, n := range s.Grid {
			fixed = append(fixed, eval.Run(s, eval.Fixed(n), 42))
		}
		oracle := eval.Oracle(s, fixed)
		var runs []eval.Result
		for _, c := range controllers() {
			runs = append(runs, eval.Run(s, c, 42))
		}
		eval.Table(&out, s, oracle, runs)
		if *plots != "" {
			writePlot(t, *plots, s, append([]eval.Result{oracle}, runs...))
		}
		fmt.Fprintf(&out, "\npoolkit's final size: %d.\n", runs[0].Series[len(runs[0].Series)-1].Size)
		beatsAll := true
		for _, b := range runs[1:] {
			beatsAll = beatsAll && eval.Beats(s, runs[0], b)
		}
		if beatsAll {
			wins++
		}
	}
	fmt.Fprintf(&out, "\npoolkit beats every baseline in %d of %d CPU scenarios.\n", wins, len(scenarios))
	if err := os.WriteFile(*cpuReport, out.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

func sizes(r eval.Result) []int {
	var s []int
	for _, p := range r.Series {
		s = append(s, p.Size)
	}
	return s
}
