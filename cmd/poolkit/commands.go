package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/poolkit/poolkit/bench"
)

// benchOutcome is what the bench command measured and wrote.
type benchOutcome struct {
	results *bench.Results
	raw     string   // benchstat-format file
	charts  []string // one SVG per workload, in workload order
	elapsed time.Duration
}

// runBench runs the comparison, prints its tables and writes the raw
// results and one chart per workload into c.out.
func runBench(c config, stdout io.Writer) (*benchOutcome, error) {
	start := time.Now()
	prog := newProgress("bench", c.plain, stdout)
	heavy := 1
	if c.full {
		heavy = 3
	}
	res, err := bench.Compare(bench.Options{
		Rounds:      c.rounds,
		HeavyRounds: heavy,
		Full:        c.full,
		Workloads:   c.workloads,
		Progress:    prog.Step,
	})
	prog.Finish()
	if err != nil {
		return nil, err
	}
	o := &benchOutcome{results: res, raw: filepath.Join(c.out, "bench.txt")}
	var raw bytes.Buffer
	if err := res.WriteRaw(&raw); err != nil {
		return nil, err
	}
	if err := os.WriteFile(o.raw, raw.Bytes(), 0o644); err != nil {
		return nil, err
	}
	sums := res.Summaries()
	for _, w := range res.Workloads {
		path := filepath.Join(c.out, "bench-"+strings.ToLower(w.Name)+".svg")
		if err := os.WriteFile(path, ratioChart(w, sums), 0o644); err != nil {
			return nil, err
		}
		o.charts = append(o.charts, path)
	}
	o.elapsed = time.Since(start)
	fmt.Fprintf(stdout, "\nMachine: %s. Medians of %d rounds (heavy workloads: %d); ratios are time/op over poolkit's in the same round.\n\n",
		res.Machine, c.rounds, min(c.rounds, heavy))
	if err := res.WriteTable(stdout); err != nil {
		return nil, err
	}
	writeOverviewText(stdout, res)
	fmt.Fprintf(stdout, "Raw results (benchstat -col /impl %s): %s\n", o.raw, o.raw)
	return o, nil
}

// specOutcome is what the conformance suite found.
type specOutcome struct {
	matrix  string // markdown file
	passed  bool   // the suite agreed with the recorded divergences
	tail    []string
	elapsed time.Duration
}

// runSpec runs the conformance suite over every implementation and writes
// the matrix it found.
func runSpec(c config, root string, stdout io.Writer) (*specOutcome, error) {
	start := time.Now()
	o := &specOutcome{matrix: filepath.Join(c.out, "matrix.md")}
	abs, err := filepath.Abs(o.matrix)
	if err != nil {
		return nil, err
	}
	_ = os.Remove(abs)
	prog := newProgress("spec", c.plain, stdout)
	o.passed, o.tail, err = goTest(filepath.Join(root, "compat"), ".",
		[]string{"-run", "^(TestConformance|TestMatrixUpToDate)$"},
		[]string{"-matrix-out", abs}, prog)
	if err != nil {
		return nil, err
	}
	o.elapsed = time.Since(start)
	data, err := os.ReadFile(abs)
	if err != nil {
		return o, fmt.Errorf("the conformance suite wrote no matrix; it printed:\n%s", strings.Join(o.tail, "\n"))
	}
	fmt.Fprintf(stdout, "\n%s\n", matrixTable(string(data)))
	if !o.passed {
		fmt.Fprintf(stdout, "The suite found results that differ from the recorded ones (marked \"unexpected\" or \"was ✗\"); it printed:\n%s\n",
			strings.Join(o.tail, "\n"))
	}
	fmt.Fprintf(stdout, "Matrix with reasons and reproducers: %s\n", o.matrix)
	return o, nil
}

// matrixTable is the part of the matrix markdown up to the failure counts.
func matrixTable(md string) string {
	var keep []string
	for _, line := range strings.Split(md, "\n") {
		if strings.HasPrefix(line, "|") || strings.HasPrefix(line, "Failing clauses") {
			keep = append(keep, line)
		}
	}
	return strings.Join(keep, "\n")
}

// autoscaleOutcome is what the autoscaler scenarios produced.
type autoscaleOutcome struct {
	tables  []string // markdown files: I/O scenarios, and with -full the CPU ones
	plots   []string // SVGs
	passed  bool
	tail    []string
	elapsed time.Duration
}

// runAutoscale runs the I/O scenarios in fake time (seconds) and, with
// -full, the CPU-bound ones in real time (about 12 minutes).
func runAutoscale(c config, root string, stdout io.Writer) (*autoscaleOutcome, error) {
	start := time.Now()
	dir, err := filepath.Abs(filepath.Join(c.out, "autoscale"))
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	o := &autoscaleOutcome{tables: []string{filepath.Join(c.out, "autoscale-io.md")}}
	run := "^TestIOScenarios$"
	args := []string{"-report", absOr(o.tables[0]), "-plots", dir}
	goFlags := []string{"-run", run}
	if c.full {
		cpu := filepath.Join(c.out, "autoscale-cpu.md")
		o.tables = append(o.tables, cpu)
		goFlags = []string{"-run", "^(TestIOScenarios|TestCPUScenarios)$", "-timeout", "60m"}
		args = append(args, "-cpu-report", absOr(cpu))
	}
	for _, t := range o.tables {
		_ = os.Remove(absOr(t))
	}
	prog := newProgress("autoscale", c.plain, stdout)
	o.passed, o.tail, err = goTest(filepath.Join(root, "autoscale", "eval"), ".", goFlags, args, prog)
	if err != nil {
		return nil, err
	}
	o.elapsed = time.Since(start)
	for _, t := range o.tables {
		data, err := os.ReadFile(absOr(t))
		if err != nil {
			return o, fmt.Errorf("the autoscaler scenarios wrote no %s; they printed:\n%s", t, strings.Join(o.tail, "\n"))
		}
		fmt.Fprintf(stdout, "\n%s\n", data)
	}
	svgs, _ := filepath.Glob(filepath.Join(c.out, "autoscale", "*.svg"))
	o.plots = sortScenarioFiles(svgs)
	if !o.passed {
		fmt.Fprintf(stdout, "The scenario tests failed; they printed:\n%s\n", strings.Join(o.tail, "\n"))
	}
	fmt.Fprintf(stdout, "Tables: %s; plots: %s\n", strings.Join(o.tables, ", "), filepath.Join(c.out, "autoscale"))
	return o, nil
}

func absOr(p string) string {
	if a, err := filepath.Abs(p); err == nil {
		return a
	}
	return p
}
