package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strings"
	"time"
)

const usage = `poolkit measures poolkit against the Go pools people use instead, on this machine.

Usage:
  poolkit [flags]              quick report (about 2 minutes on 2 cores): bench, spec and autoscale, as HTML
  poolkit [flags] report       the same
  poolkit [flags] bench        comparative benchmarks: medians and ratios to poolkit, raw results for benchstat
  poolkit [flags] actors       actor benchmarks: poolkit's actorpool against protoactor-go and GoAkt
  poolkit [flags] spec         the conformance matrix: every SPEC.md clause against every pool
  poolkit [flags] autoscale    the autoscaler scenarios against a fixed-size oracle and three baselines

actors, spec and autoscale run the test suites with the go command: run poolkit from a clone of its repository.
Flags go before or after the command.

Flags:
`

// config is what the command line asks for.
type config struct {
	command string
	// full runs the long versions: 10 benchmark rounds at longer
	// benchtimes, and the CPU-bound autoscaler scenarios in real time.
	full   bool
	rounds int
	// workloads restricts bench to these workloads (all when empty).
	workloads []string
	// actors restricts the actor benchmarks to the workloads it matches
	// (all when nil).
	actors   *regexp.Regexp
	out      string
	readme   string
	maxprocs string
	// plain forces plain progress lines even on a terminal.
	plain bool
}

var commands = []string{"report", "bench", "actors", "spec", "autoscale"}

// parseArgs reads the command line (without the program name). Usage and
// errors are written to errOut.
func parseArgs(args []string, errOut io.Writer) (config, error) {
	c := config{command: "report"}
	fs := flag.NewFlagSet("poolkit", flag.ContinueOnError)
	fs.SetOutput(errOut)
	fs.Usage = func() {
		fmt.Fprint(errOut, usage)
		fs.PrintDefaults()
	}
	fs.BoolVar(&c.full, "full", false, "run the long comparison (about 20 minutes on 2 cores): more rounds, longer benchtimes, the CPU-bound autoscaler scenarios")
	fs.IntVar(&c.rounds, "rounds", 0, "benchmark rounds (default 3, or 10 with -full)")
	workloads := fs.String("workloads", "", "comma-separated benchmark workloads to run (default all)")
	actors := fs.String("actors", "", "a regexp: the actor workloads to run (default all: "+strings.Join(actorWorkloads(), ", ")+"); one that matches none leaves the actor table out")
	fs.StringVar(&c.out, "out", "poolkit-report", "folder the results, plots and HTML report are written to")
	fs.StringVar(&c.readme, "readme", "", "report: also rewrite the results section of this README")
	fs.StringVar(&c.maxprocs, "maxprocs", "", `how GOMAXPROCS is set: "" leaves Go's default; "automaxprocs" applies go.uber.org/automaxprocs (container CPU quota) to this program and the suites it runs`)
	fs.BoolVar(&c.plain, "plain", false, "print plain progress lines instead of a progress bar")

	if err := fs.Parse(args); err != nil {
		return c, err
	}
	if fs.NArg() > 0 {
		c.command = fs.Arg(0)
		if err := fs.Parse(fs.Args()[1:]); err != nil {
			return c, err
		}
		if fs.NArg() > 0 {
			return c, fmt.Errorf("unexpected arguments after %s: %s", c.command, strings.Join(fs.Args(), " "))
		}
	}
	if !slices.Contains(commands, c.command) {
		return c, fmt.Errorf("unknown command %q (want one of %s)", c.command, strings.Join(commands, ", "))
	}
	switch {
	case c.rounds < 0:
		return c, fmt.Errorf("-rounds %d: want at least 1", c.rounds)
	case c.rounds == 0 && c.full:
		c.rounds = 10
	case c.rounds == 0:
		c.rounds = 3
	}
	if *workloads != "" {
		c.workloads = strings.Split(*workloads, ",")
	}
	if *actors != "" {
		re, err := regexp.Compile(*actors)
		if err != nil {
			return c, fmt.Errorf("-actors: %v", err)
		}
		c.actors = re
	}
	if c.maxprocs != "" && c.maxprocs != "automaxprocs" {
		return c, fmt.Errorf(`-maxprocs %q: want "" or "automaxprocs"`, c.maxprocs)
	}
	if c.out == "" {
		return c, errors.New("-out must name a folder")
	}
	if c.readme != "" && c.command != "report" {
		return c, fmt.Errorf("-readme applies to report, not %s", c.command)
	}
	return c, nil
}

// estimate says how long the command should take on a 2-core machine
// once the binaries are built (figures from such a machine).
func (c config) estimate() time.Duration {
	light, heavy, heavyRounds := 10*time.Second, 20*time.Second, 1
	spec, autoscale := 35*time.Second, 10*time.Second
	actorRound := 8 * time.Second
	if c.full {
		light, heavyRounds = 45*time.Second, 3
		autoscale = 13 * time.Minute
		actorRound = 50 * time.Second
	}
	actors := time.Duration(actorRounds(c)) * actorRound * time.Duration(len(actorRuns(c))) / time.Duration(len(actorRuns(config{full: c.full})))
	lightShare, withHeavy := 1.0, true
	if len(c.workloads) > 0 {
		n := 0
		withHeavy = false
		for _, w := range c.workloads {
			if w == "Sleeping1M" {
				withHeavy = true
			} else {
				n++
			}
		}
		lightShare = float64(n) / 8
	}
	b := time.Duration(float64(light) * lightShare * float64(c.rounds))
	if withHeavy {
		b += heavy * time.Duration(min(c.rounds, heavyRounds)+1) // +1: the warm-up
	}
	switch c.command {
	case "bench":
		return b
	case "actors":
		return actors
	case "spec":
		return spec
	case "autoscale":
		return autoscale
	}
	return b + actors + spec + autoscale
}
