package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/poolkit/poolkit/bench"
)

const usage = `poolkit measures poolkit against the Go pools people use instead, on this machine.

Usage:
  poolkit [flags]              quick report (about %s on 2 cores): bench, actors, spec and autoscale, as HTML
  poolkit [flags] report       the same
  poolkit [flags] bench        comparative benchmarks: medians and ratios to poolkit, raw results for benchstat
  poolkit [flags] actors       actor benchmarks: poolkit's actorpool against protoactor-go and GoAkt
  poolkit [flags] spec         the conformance matrix: every SPEC.md clause against every pool
  poolkit [flags] autoscale    the autoscaler scenarios against a fixed-size oracle and three baselines
  poolkit help                 this text

report, actors, spec and autoscale run the test suites with the go command: run poolkit from a clone of its repository.
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

var commands = []string{"report", "bench", "actors", "spec", "autoscale", "help"}

// errHelp asks for the usage text, on stdout, and exit status 0.
var errHelp = errors.New("help requested")

// flags declares the command line's flags on a new flag set that prints
// nothing itself: run prints an error once, or the usage when asked.
func flags(c *config) (fs *flag.FlagSet, rounds, workloads, actors *string) {
	fs = flag.NewFlagSet("poolkit", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	fs.BoolVar(&c.full, "full", false, "run the long comparison: more rounds, longer benchtimes, the CPU-bound autoscaler scenarios")
	rounds = fs.String("rounds", "", "benchmark rounds, at least 1 (default 3, or 10 with -full)")
	workloads = fs.String("workloads", "", "comma-separated benchmark workloads to run (default all: "+strings.Join(workloadNames(), ", ")+")")
	actors = fs.String("actors", "", "a regexp: the actor workloads to run (default all: "+strings.Join(actorWorkloads(), ", ")+"); in a report, one that matches none leaves the actor table out")
	fs.StringVar(&c.out, "out", "poolkit-report", "folder the results, plots and HTML report are written to")
	fs.StringVar(&c.readme, "readme", "", "report: also rewrite the results section of this README")
	fs.StringVar(&c.maxprocs, "maxprocs", "", `how GOMAXPROCS is set: "" leaves Go's default; "automaxprocs" applies go.uber.org/automaxprocs (container CPU quota) to this program and the suites it runs`)
	fs.BoolVar(&c.plain, "plain", false, "print plain progress lines instead of a progress bar")
	return fs, rounds, workloads, actors
}

// writeUsage writes the usage text and the flags.
func writeUsage(w io.Writer) {
	var c config
	fs, _, _, _ := flags(&c)
	fs.SetOutput(w)
	quick := config{command: "report", rounds: 3}
	fmt.Fprintf(w, usage, minutes(quick.estimate()))
	fs.PrintDefaults()
	full := config{command: "report", rounds: 10, full: true}
	fmt.Fprintf(w, "\nThe full report takes about %s.\n", minutes(full.estimate()))
}

// parseArgs reads the command line (without the program name) and checks
// every flag's value, without touching the file system. It returns errHelp
// when usage was asked for.
func parseArgs(args []string) (config, error) {
	c := config{command: "report"}
	fs, rounds, workloads, actors := flags(&c)
	if err := parse(fs, args); err != nil {
		return c, err
	}
	if fs.NArg() > 0 {
		c.command = fs.Arg(0)
		if err := parse(fs, fs.Args()[1:]); err != nil {
			return c, err
		}
		if fs.NArg() > 0 {
			return c, fmt.Errorf("unexpected arguments after %s: %s", c.command, strings.Join(fs.Args(), " "))
		}
	}
	if !slices.Contains(commands, c.command) {
		return c, fmt.Errorf("unknown command %q (want one of %s)", c.command, strings.Join(commands, ", "))
	}
	if c.command == "help" {
		return c, errHelp
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	switch {
	case set["rounds"]:
		n, err := parseRounds(*rounds)
		if err != nil {
			return c, err
		}
		c.rounds = n
	case c.full:
		c.rounds = 10
	default:
		c.rounds = 3
	}
	if set["workloads"] {
		names, err := parseWorkloads(*workloads)
		if err != nil {
			return c, err
		}
		c.workloads = names
	}
	if set["actors"] {
		re, err := regexp.Compile(*actors)
		if err != nil {
			return c, fmt.Errorf("-actors: %v", err)
		}
		c.actors = re
		if c.command == "actors" && len(actorRuns(c)) == 0 {
			return c, fmt.Errorf("-actors %q matches no actor workload (they are %s)", *actors, strings.Join(actorWorkloads(), ", "))
		}
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

// parse parses args with fs, turning -h into errHelp.
func parse(fs *flag.FlagSet, args []string) error {
	err := fs.Parse(args)
	if errors.Is(err, flag.ErrHelp) {
		return errHelp
	}
	return err
}

// parseRounds reads -rounds: a whole number, at least 1.
func parseRounds(s string) (int, error) {
	n, err := strconv.Atoi(s)
	if err != nil {
		return 0, fmt.Errorf("-rounds %q: want a whole number of rounds, at least 1", s)
	}
	if n < 1 {
		return 0, fmt.Errorf("-rounds %d: want at least 1", n)
	}
	return n, nil
}

// parseWorkloads reads -workloads: benchmark workload names, each once.
func parseWorkloads(s string) ([]string, error) {
	valid := workloadNames()
	var names []string
	for _, name := range strings.Split(s, ",") {
		name = strings.TrimSpace(name)
		switch {
		case !slices.Contains(valid, name):
			return nil, fmt.Errorf("-workloads: no workload %q (the workloads are %s)", name, strings.Join(valid, ", "))
		case slices.Contains(names, name):
			return nil, fmt.Errorf("-workloads: %s named twice", name)
		}
		names = append(names, name)
	}
	return names, nil
}

// workloadNames lists the benchmark workloads, in the report's order.
func workloadNames() []string {
	var names []string
	for _, w := range bench.Workloads() {
		names = append(names, w.Name)
	}
	return names
}

// checkFiles checks, before anything runs or is created, what the
// command will need of the file system: a folder (or nothing yet) at
// -out, and a README with a results section at -readme.
func checkFiles(c config) error {
	if fi, err := os.Stat(c.out); err == nil && !fi.IsDir() {
		return fmt.Errorf("-out %s: not a folder", c.out)
	}
	if c.readme == "" {
		return nil
	}
	data, err := os.ReadFile(c.readme)
	if err != nil {
		return fmt.Errorf("-readme: %v", err)
	}
	i, j := bytes.Index(data, []byte(readmeBegin)), bytes.Index(data, []byte(readmeEnd))
	if i < 0 || j < i {
		return fmt.Errorf("-readme %s: no results section; add the lines %q and %q where it goes", c.readme, readmeBegin, readmeEnd)
	}
	return nil
}

// needsSource reports whether the command runs test suites from the
// source tree.
func (c config) needsSource() bool { return c.command != "bench" }

// stages lists what the command runs, in order.
func (c config) stages() []string {
	switch c.command {
	case "report":
		s := []string{"bench"}
		if len(actorRuns(c)) > 0 {
			s = append(s, "actors")
		}
		return append(s, "spec", "autoscale")
	default:
		return []string{c.command}
	}
}
