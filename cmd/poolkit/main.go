// Command poolkit measures poolkit against the Go worker pools people use
// instead, on the machine it runs on, and writes what it found as tables
// and an HTML report with SVG plots.
//
// With no arguments it runs a quick report (a few minutes on two
// cores): the comparative benchmarks, the actor benchmarks, the
// conformance matrix and the autoscaler scenarios. `poolkit help` lists
// the commands and flags.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
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
// failing on it is the suites' own job.
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
		fmt.Fprintln(stdout, "Runs the benchmarks (pools and actors), the conformance matrix and the autoscaler scenarios; "+
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
		// The stage's progress is its clock: the time it prints at the end
		// is the time the report shows.
		prog := newProgress(stage, c.plain, stdout, est)
		switch stage {
		case "bench":
			if o.bench, err = runBench(c, prog, stdout); err != nil {
				fail("bench", err)
			}
			if o.bench != nil {
				for _, p := range o.bench.view.Failures {
					fail("bench", fmt.Errorf("%s/%s (%s): %s", p.Workload, p.Impl, p.RoundList(), p.Reason))
				}
			}
		case "actors":
			if o.actors, err = runActors(c, root, prog, stdout); err != nil {
				fail("actors", err)
			}
		case "spec":
			if o.spec, err = runSpec(c, root, prog, stdout); err != nil {
				fail("spec", err)
			}
		case "autoscale":
			if o.autoscale, err = runAutoscale(c, root, prog, stdout); err != nil {
				fail("autoscale", err)
			}
		case "compare":
			if o.compare, err = runCompare(c, root, prog, stdout); err != nil {
				fail("compare", err)
			}
		}
		prog.Finish()
		o.times = append(o.times, prog.Took())
	}
	o.elapsed = time.Since(start)
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
	spec      *specOutcome
	autoscale *autoscaleOutcome
	compare   *compareOutcome
	errs      []string
	// times are the stages' times, in the order they ran; elapsed the
	// whole run's.
	times   []stageTime
	elapsed time.Duration
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
