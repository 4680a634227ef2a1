package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/poolkit/poolkit/autoscale/eval"
	"github.com/poolkit/poolkit/bench"
	"github.com/poolkit/poolkit/spectest"
)

// benchOutcome is what the bench stage measured and wrote.
type benchOutcome struct {
	results *bench.Results
	view    benchView
}

// runBench runs the comparison, prints its tables and writes the raw
// results and one chart per workload into c.out. The cancelling of ctx
// stops it at once: the comparison runs in this process and cannot be
// stopped midway, so it is left to run, unheeded, until the program
// exits.
func runBench(ctx context.Context, c config, prog progress, stdout io.Writer) (*benchOutcome, error) {
	opts := c.benchOptions()
	opts.Progress = benchProgress(prog, c.full)
	type compared struct {
		res *bench.Results
		err error
	}
	done := make(chan compared, 1)
	go func() {
		res, err := bench.Compare(opts)
		done <- compared{res, err}
	}()
	var res *bench.Results
	var err error
	select {
	case r := <-done:
		res, err = r.res, r.err
	case <-ctx.Done():
		err = ctx.Err()
	}
	prog.Finish()
	if err != nil {
		return nil, err
	}
	raw := absPath(filepath.Join(c.out, "bench.txt"))
	var buf bytes.Buffer
	if err := res.WriteRaw(&buf); err != nil {
		return nil, err
	}
	if err := os.WriteFile(raw, buf.Bytes(), 0o644); err != nil {
		return nil, err
	}
	var charts []string
	for _, w := range res.Workloads {
		charts = append(charts, absPath(filepath.Join(c.out, "bench-"+strings.ToLower(w.Name)+".svg")))
	}
	o := &benchOutcome{results: res, view: newBenchView(res, raw, charts)}
	for _, w := range o.view.Workloads {
		if err := os.WriteFile(w.Chart, ratioChart(w), 0o644); err != nil {
			return nil, err
		}
	}
	return o, renderText(stdout, "bench", o.view)
}

// benchProgress reports the comparison's steps to prog in expected time:
// each step stands for its share of its workload's round.
func benchProgress(prog progress, full bool) func(done int, plan []bench.Step) {
	var elapsed []time.Duration // elapsed[i]: the expected time of steps [0, i)
	return func(done int, plan []bench.Step) {
		if elapsed == nil {
			elapsed = make([]time.Duration, len(plan)+1)
			for i, st := range plan {
				elapsed[i+1] = elapsed[i] + stepTime(st, full)
			}
		}
		what := ""
		if done < len(plan) {
			st := plan[done]
			what = fmt.Sprintf("round %d %s/%s", st.Round+1, st.Workload.Name, st.Impl)
			if st.Warmup {
				what = "warm-up " + st.Workload.Name
			}
		}
		prog.Update(elapsed[done], elapsed[len(plan)], what)
	}
}

// specOutcome is what the conformance suite found.
type specOutcome struct {
	view specView
}

// runSpec runs the conformance suite over every implementation, which
// writes its report as JSON, and prints the matrix.
func runSpec(ctx context.Context, c config, root string, prog progress, stdout io.Writer) (*specOutcome, error) {
	js := absPath(filepath.Join(c.out, "matrix.json"))
	_ = os.Remove(js)
	passed, tail, err := goTest(ctx, filepath.Join(root, "compat"), "compat", ".",
		[]string{"-run", "^(TestConformance|TestMatrixUpToDate)$"},
		[]string{"-matrix-json", js}, prog, c.stageTime("spec"))
	if err != nil {
		return nil, err
	}
	var rep spectest.Report
	if err := readJSON(js, &rep); err != nil {
		return nil, fmt.Errorf("the conformance suite wrote no report (%v); it printed:\n%s", err, strings.Join(tail, "\n"))
	}
	o := &specOutcome{view: newSpecView(rep)}
	o.view.Passed, o.view.JSON = passed, js
	o.view.Spec, o.view.MatrixMD = existing(filepath.Join(root, "SPEC.md")), existing(filepath.Join(root, "MATRIX.md"))
	if err := renderText(stdout, "spec", o.view); err != nil {
		return nil, err
	}
	if !passed {
		fmt.Fprintf(stdout, "The suite found results that differ from the recorded ones (marked %s); it printed:\n%s\n",
			o.view.DifferMarks(), strings.Join(tail, "\n"))
	}
	return o, nil
}

// autoscaleOutcome is what the autoscaler scenarios found.
type autoscaleOutcome struct {
	view autoscaleView
}

// runAutoscale runs the I/O scenarios in fake time (seconds) and, with
// -full, the real-time ones (CPU-bound work, and I/O beside busy CPUs) in
// real time (autoscaleCPUTime: about 20 minutes on 2 CPUs); the tests
// write their results as JSON and draw a plot per scenario.
func runAutoscale(ctx context.Context, c config, root string, prog progress, stdout io.Writer) (o *autoscaleOutcome, err error) {
	plots := absPath(filepath.Join(c.out, "autoscale"))
	if err := os.MkdirAll(plots, 0o755); err != nil {
		return nil, err
	}
	defer func() {
		if err != nil {
			_ = os.Remove(plots) // when the tests drew nothing
		}
	}()
	files := []string{absPath(filepath.Join(c.out, "autoscale-io.json"))}
	goFlags := []string{"-run", "^TestIOScenarios$"}
	args := []string{"-results-json", files[0], "-plots", plots}
	if c.full {
		files = append(files, absPath(filepath.Join(c.out, "autoscale-cpu.json")))
		goFlags = []string{"-run", "^(TestIOScenarios|TestCPUScenarios)$", "-timeout", "60m"}
		args = append(args, "-cpu-results-json", files[1])
	}
	for _, f := range files {
		_ = os.Remove(f)
	}
	passed, tail, err := goTest(ctx, filepath.Join(root, "autoscale", "eval"), "autoscale/eval", ".", goFlags, args, prog, c.stageTime("autoscale"))
	if err != nil {
		return nil, err
	}
	o = &autoscaleOutcome{}
	o.view.Passed = passed
	o.view.Note = "I/O scenarios in fake time (testing/synctest), each through the fixed sizes a bisection tries (the cheapest that serves the top goodput band within a p99 wait of 100ms is the reference) " +
		"and four controllers: poolkit's, a port of Netflix's AIMD limiter, the Kubernetes HPA rule and Akka's resizer"
	if c.full {
		o.view.Note += "; CPU-bound scenarios in real time"
	} else {
		o.view.Note += "; the CPU-bound scenarios run in real time with -full"
	}
	o.view.About = existing(filepath.Join(root, "autoscale", "eval", "results", "README.md"))
	for _, f := range files {
		var r eval.Results
		if err := readJSON(f, &r); err != nil {
			return nil, fmt.Errorf("the autoscaler scenarios wrote no results (%v); they printed:\n%s", err, strings.Join(tail, "\n"))
		}
		o.view.Groups = append(o.view.Groups, newScenarioGroup(r, f, plots, func(p string) bool { return existing(p) != "" }))
	}
	if err := renderText(stdout, "autoscale", o.view); err != nil {
		return nil, err
	}
	if !passed {
		fmt.Fprintf(stdout, "The scenario tests failed; they printed:\n%s\n", strings.Join(tail, "\n"))
	}
	return o, nil
}

// readJSON decodes the JSON file at path into v.
func readJSON(path string, v any) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	return json.Unmarshal(data, v)
}

// absPath is p made absolute, or p when it cannot be.
func absPath(p string) string {
	if a, err := filepath.Abs(p); err == nil {
		return a
	}
	return p
}

// existing is the absolute path of the file at p, or "" when there is
// none.
func existing(p string) string {
	if _, err := os.Stat(p); err != nil {
		return ""
	}
	return absPath(p)
}
