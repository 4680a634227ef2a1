// Command poolkit measures poolkit against the Go worker pools people use
// instead, on the machine it runs on, and writes what it found as tables
// and an HTML report with SVG plots.
//
// With no arguments it runs a quick report (about two minutes on two
// cores): the comparative benchmarks, the conformance matrix and the
// autoscaler scenarios. `poolkit -h` lists the commands and flags.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"strconv"
	"time"

	"go.uber.org/automaxprocs/maxprocs"
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

// run is the whole program. It returns the exit code: 0 when every stage
// ran, 1 when one could not (its error is also in the report), 2 for a bad
// command line. A suite that ran but found results other than the
// recorded ones (a pool that changed behaviour) is shown in the tables and
// the report, not turned into an exit code: that is the suites' own job.
func run(args []string, stdout, stderr io.Writer) int {
	c, err := parseArgs(args, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	if err != nil {
		fmt.Fprintln(stderr, "poolkit:", err)
		return 2
	}
	if c.maxprocs == "automaxprocs" {
		// The application may set process-wide state; the libraries never
		// do. The suites run as child processes and inherit the value.
		undo, err := maxprocs.Set(maxprocs.Logger(func(f string, a ...any) { fmt.Fprintf(stdout, f+"\n", a...) }))
		if err != nil {
			fmt.Fprintln(stderr, "poolkit: automaxprocs:", err)
			return 1
		}
		defer undo()
		os.Setenv("GOMAXPROCS", strconv.Itoa(runtime.GOMAXPROCS(0)))
	}
	if err := os.MkdirAll(c.out, 0o755); err != nil {
		fmt.Fprintln(stderr, "poolkit:", err)
		return 1
	}
	what := map[string]string{
		"report":    "benchmarks (pools and actors), conformance matrix and autoscaler scenarios",
		"bench":     "comparative benchmarks",
		"actors":    "actor benchmarks",
		"spec":      "conformance matrix",
		"autoscale": "autoscaler scenarios",
	}[c.command]
	mode := "quick"
	if c.full {
		mode = "full"
	}
	fmt.Fprintf(stdout, "poolkit %s (%s): takes about %s on a 2-core machine once built; results go to %s/\n",
		c.command, mode, minutes(c.estimate()), c.out)
	if !c.full && c.command == "report" {
		fmt.Fprintln(stdout, "Runs "+what+"; -full runs longer for steadier figures and adds the CPU-bound autoscaler scenarios.")
	}

	start := time.Now()
	var o outcomes
	var root string
	if c.command != "bench" {
		if root, err = moduleRoot(); err != nil {
			if c.command != "report" {
				fmt.Fprintln(stderr, "poolkit:", err)
				return 1
			}
			o.errs = append(o.errs, err.Error())
		}
	}
	fail := func(stage string, err error) {
		msg := fmt.Sprintf("%s: %v", stage, err)
		fmt.Fprintln(stderr, "poolkit:", msg)
		o.errs = append(o.errs, msg)
	}
	if c.command == "bench" || c.command == "report" {
		if o.bench, err = runBench(c, stdout); err != nil {
			fail("bench", err)
		}
	}
	if root != "" && (c.command == "actors" || c.command == "report") && len(actorRuns(c)) > 0 {
		if o.actors, err = runActors(c, root, stdout); err != nil {
			fail("actors", err)
		}
	}
	if root != "" && (c.command == "spec" || c.command == "report") {
		if o.spec, err = runSpec(c, root, stdout); err != nil {
			fail("spec", err)
		}
	}
	if root != "" && (c.command == "autoscale" || c.command == "report") {
		if o.autoscale, err = runAutoscale(c, root, stdout); err != nil {
			fail("autoscale", err)
		}
	}
	o.elapsed = time.Since(start)
	if c.command == "report" {
		path, err := writeReport(c, o)
		if err != nil {
			fail("report", err)
		} else {
			fmt.Fprintf(stdout, "\nReport: %s (%s)\n", path, o.elapsed.Round(time.Second))
		}
		if c.readme != "" {
			if err := updateReadme(c, o); err != nil {
				fail("readme", err)
			}
		}
	}
	if len(o.errs) > 0 {
		return 1
	}
	return 0
}

// minutes says roughly how long d is, for people.
func minutes(d time.Duration) string {
	if m := int(d.Round(time.Minute) / time.Minute); m > 1 {
		return fmt.Sprintf("%d minutes", m)
	}
	return "a minute"
}
