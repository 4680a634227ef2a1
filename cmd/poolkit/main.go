// Command poolkit measures poolkit against the Go worker pools people use
// instead, on the machine it runs on, and writes what it found as tables
// and an HTML report with SVG plots.
//
// With no arguments it runs a quick report (a few minutes on two
// cores): the comparative benchmarks, the actor benchmarks, the keyed
// stream benchmark, the conformance matrix and the autoscaler scenarios.
// `poolkit help` lists the commands and flags.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/signal"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"go.uber.org/automaxprocs/maxprocs"
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

// invokedAs is how the user started this program, for the messages that
// tell them what to type next. A binary built by go run lives in the go
// command's temporary build directory (go-build...), or since Go 1.24 in
// its build cache, wherever GOCACHE is, as XX/HASH-d/NAME; its user typed
// go run.
func invokedAs(argv0 string) string {
	if p := filepath.ToSlash(argv0); strings.Contains(p, "/go-build") || goRunCached.MatchString(p) {
		return "go run ./cmd/poolkit"
	}
	return "poolkit"
}

// goRunCached matches the path of an executable in the go command's build
// cache.
var goRunCached = regexp.MustCompile(`/[0-9a-f]{2}/[0-9a-f]{64}-d/[^/]+$`)

// run is the whole program. It returns the exit status: 2 for a bad
// command line, found before anything runs or is written; 1 when a stage
// could not run or one of poolkit's own benchmark runs failed (the error
// is also in the report); else 0. A peer library's run stopped by a check
// of its workload is a finding about that library, shown with its reason
// in the tables and the report, and leaves the status at 0. So do the
// conformance and scenario suites when they find results other than the
// recorded ones (a pool that changed behaviour): the tables show it, and
// failing on it is the suites' own job. An interrupt makes it 130,
// whatever else happened (see interrupted).
func run(args []string, stdout, stderr io.Writer) int {
	name := invokedAs(os.Args[0])
	c, err := parseArgs(args)
	if errors.Is(err, errHelp) {
		writeUsage(stdout, name, c.help)
		return 0
	}
	if err == nil {
		err = checkFiles(c)
	}
	if err != nil {
		// One line, as the flag package's own errors are, with the help
		// that covers the mistake.
		help := name + " help"
		if slices.Contains(commands, c.command) && c.command != "report" && c.command != "help" {
			help += " " + c.command
		}
		fmt.Fprintf(stderr, "poolkit: %v (usage: %s)\n", err, help)
		return 2
	}
	var root string
	if c.needsSource() {
		if root, err = moduleRoot(); err != nil {
			fmt.Fprintf(stderr, "poolkit: %v (poolkit bench runs without it)\n", err)
			return 1
		}
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
	// An interrupt (Ctrl-C, SIGTERM) stops the running stage and the run;
	// what the stages before it measured is kept. A second one ends the
	// program at once.
	ctx, stopSignals := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stopSignals()
	defer context.AfterFunc(ctx, stopSignals)()
	_, statErr := os.Stat(c.out)
	created := errors.Is(statErr, fs.ErrNotExist)
	if err := os.MkdirAll(c.out, 0o755); err != nil {
		fmt.Fprintln(stderr, "poolkit:", err)
		return 1
	}
	mode := "quick"
	if c.full {
		mode = "full"
	}
	var plan []stagePlan
	if c.command == "compare" {
		// Its time depends on the benchmarks it finds: it says once it has
		// built them.
		fmt.Fprintf(stdout, "poolkit compare: bench/hotpath at %s against the working tree; raw results go to %s/\n",
			c.compare.base, c.out)
	} else {
		plan = c.plan(c.buildTimes(root))
		fmt.Fprintf(stdout, "poolkit %s (%s): takes %s on this machine%s; results go to %s/\n",
			c.command, mode, minutes(planned(plan)), buildNote(plan), c.out)
	}
	if !c.full && c.command == "report" {
		fmt.Fprintln(stdout, "Runs the benchmarks (pools, actors and the keyed stream), the conformance matrix and the autoscaler scenarios; "+
			"-full runs longer for steadier figures and adds the CPU-bound autoscaler scenarios.")
	}

	start := time.Now()
	est := newRunEstimate(start, plan)
	var o outcomes
	fail := func(stage string, err error) {
		msg := fmt.Sprintf("%s: %v", stage, err)
		fmt.Fprintln(stderr, "poolkit:", msg)
		o.errs = append(o.errs, msg)
	}
	for _, stage := range c.stages() {
		if ctx.Err() != nil {
			fmt.Fprintf(stdout, "[%s] %s: not run (interrupted)\n", clock(time.Since(start)), stage)
			o.times = append(o.times, stageTime{Stage: stage, Ended: notRun})
			continue
		}
		// The stage's progress is its clock: the time it prints at the end
		// is the time the report shows.
		prog := newProgress(stage, c.plain, stdout, est)
		err := runStage(ctx, stage, c, root, prog, stdout, &o)
		// A stage that fails once interrupted was stopped: its error is
		// the interrupt's doing.
		halted := err != nil && ctx.Err() != nil
		switch {
		case halted:
		case err != nil:
			fail(stage, err)
		case stage == "bench":
			for _, p := range o.bench.view.Failures {
				fail("bench", fmt.Errorf("%s/%s (%s): %s", p.Workload, p.Impl, p.RoundList(), p.Reason))
			}
		}
		prog.End(halted)
		t := prog.Took()
		if halted {
			t.Ended = stopped
		}
		o.times = append(o.times, t)
	}
	o.elapsed = time.Since(start)
	if ctx.Err() != nil {
		o.interrupted = true
		fmt.Fprintln(stderr, interrupted(c, root, o, created, fail))
		return exitInterrupted
	}
	if c.command == "report" {
		path, err := writeReport(c, root, o)
		if err != nil {
			fail("report", err)
		} else {
			fmt.Fprintf(stdout, "\nReport: %s (%s: %s)\n", path, formatTime(o.elapsed), stageTimes(o.times))
		}
		if c.readme != "" {
			if err := updateReadme(c, root, o); err != nil {
				fail("readme", err)
			}
		}
	}
	return exitStatus(o)
}

// exitInterrupted is the exit status of an interrupted run: 128 + SIGINT,
// as a shell reports a program that a Ctrl-C ended.
const exitInterrupted = 130

// runStage runs one stage of c, with its outcome in o; a variable, which
// tests replace.
var runStage = func(ctx context.Context, stage string, c config, root string, prog progress, stdout io.Writer, o *outcomes) (err error) {
	switch stage {
	case "bench":
		o.bench, err = runBench(ctx, c, prog, stdout)
	case "actors":
		o.actors, err = runActors(ctx, c, root, prog, stdout)
	case "keyed":
		o.keyed, err = runKeyed(ctx, c, root, prog, stdout)
	case "spec":
		o.spec, err = runSpec(ctx, c, root, prog, stdout)
	case "autoscale":
		o.autoscale, err = runAutoscale(ctx, c, root, prog, stdout)
	case "compare":
		o.compare, err = runCompare(ctx, c, root, prog, stdout)
	default:
		err = fmt.Errorf("no stage %q", stage)
	}
	return err
}

// interrupted ends an interrupted run: a report writes what the stages
// that ended measured, and marks the others (the README is left as it
// is); with nothing measured, the output folder goes when this run
// created it. It returns the one line that says so: what was kept and
// where, what was stopped and what did not run.
func interrupted(c config, root string, o outcomes, created bool, fail func(string, error)) string {
	var kept, halted, unrun []string
	for _, t := range o.times {
		switch t.Ended {
		case completed:
			kept = append(kept, t.Stage)
		case stopped:
			halted = append(halted, t.Stage+" stopped after "+formatTime(t.Total))
		case notRun:
			unrun = append(unrun, t.Stage)
		}
	}
	line := "poolkit: interrupted after " + formatTime(o.elapsed)
	lost := strings.Join(halted, ", ")
	if len(unrun) > 0 {
		if lost != "" {
			lost += "; "
		}
		lost += andList(unrun) + " not run"
	}
	out := filepath.ToSlash(filepath.Clean(c.out)) + "/"
	switch {
	case len(kept) == 0 && created:
		if err := os.RemoveAll(c.out); err != nil {
			fail("interrupted", err)
		}
		return fmt.Sprintf("%s: %s; nothing measured to keep (%s removed: this run had created it)", line, lost, out)
	case len(kept) == 0:
		return fmt.Sprintf("%s: %s; nothing measured to keep (%s was there before: left in place)", line, lost, out)
	}
	where := out
	if c.command == "report" {
		path, err := writeReport(c, root, o)
		if err != nil {
			fail("report", err)
		} else {
			where = fromWorkingDir(path)
		}
	}
	line = fmt.Sprintf("%s: kept %s in %s", line, andList(kept), where)
	if lost != "" {
		line += "; " + lost
	}
	if c.readme != "" {
		line += "; " + c.readme + " not updated"
	}
	return line
}

// andList lists names for people: "a", "a and b", "a, b and c".
func andList(names []string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// exitStatus is 1 when a stage could not run or one of poolkit's own
// benchmark runs failed, else 0.
func exitStatus(o outcomes) int {
	if len(o.errs) > 0 || (o.bench != nil && len(o.bench.view.Failures) > 0) {
		return 1
	}
	return 0
}

// outcomes is everything a report shows; a nil outcome's error is in errs.
type outcomes struct {
	bench     *benchOutcome
	actors    *actorsOutcome
	keyed     *keyedOutcome
	spec      *specOutcome
	autoscale *autoscaleOutcome
	compare   *compareOutcome
	errs      []string
	// times are the stages' times, in the order they ran (or would have:
	// an interrupt marks the stopped and the unrun); elapsed the whole
	// run's.
	times   []stageTime
	elapsed time.Duration
	// interrupted: an interrupt stopped the run.
	interrupted bool
}

// buildNote says what the banner's time holds of the builds in plan:
// ", builds included", with the builds that the build cache lacks.
func buildNote(plan []stagePlan) string {
	var cold []string
	builds := false
	for _, p := range plan {
		if _, ok := stageBuilds[p.stage]; !ok {
			continue
		}
		builds = true
		if p.build >= coldBuild {
			cold = append(cold, fmt.Sprintf("%s to build %s", formatTime(p.build.Round(10*time.Second)), buildWhat[p.stage]))
		}
	}
	switch {
	case !builds:
		return ""
	case len(cold) == 0:
		return ", builds included (all in the build cache)"
	}
	return fmt.Sprintf(", builds included (%s, not in the build cache yet)", strings.Join(cold, ", "))
}

// buildWhat names what each stage builds, for people.
var buildWhat = map[string]string{
	"actors":    "the actor benchmarks",
	"keyed":     "the keyed stream benchmark",
	"spec":      "the conformance suite",
	"autoscale": "the autoscaler scenarios",
}

// minutes says roughly how long d is, for people: "about 4 minutes",
// "under a minute".
func minutes(d time.Duration) string {
	switch m := int(d.Round(time.Minute) / time.Minute); {
	case m > 1:
		return fmt.Sprintf("about %d minutes", m)
	case d < 45*time.Second:
		return "under a minute"
	}
	return "about a minute"
}
