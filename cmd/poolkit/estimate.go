package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/poolkit/poolkit/autoscale/eval"
	"github.com/poolkit/poolkit/bench"
)

// How long things take on a 2-core machine once the binaries are built,
// as measured there. The figures say up front how long a run will take,
// and weigh each stage's progress, so that the bar tells time: a million
// sleeping tasks take half the benchmarks' time in a few of their runs.

// quickRound is one round of a workload at its quick benchtime, every
// contender once.
var quickRound = map[string]time.Duration{
	"TinyTasks":      1800 * time.Millisecond,
	"IOLike":         600 * time.Millisecond,
	"Mixed":          1200 * time.Millisecond,
	"ManySubmitters": 1100 * time.Millisecond,
	"SubmitLatency":  1400 * time.Millisecond,
	"Invoke":         400 * time.Millisecond,
	"BlockingInvoke": 400 * time.Millisecond,
	"Sleeping1M":     36 * time.Second,
	"ResizeGrow":     300 * time.Millisecond,
	"ResizeShrink":   3800 * time.Millisecond,
}

// otherRound stands for a workload without a figure yet.
const otherRound = time.Second

const (
	specTime        = 100 * time.Second
	autoscaleIOTime = 10 * time.Second
	// One round of every actor workload.
	actorRoundQuick = 8 * time.Second
	actorRoundFull  = 50 * time.Second
	// One round of the keyed stream benchmark, every key distribution:
	// 30,000 messages a run, or 100,000 with -full (see keyed.go).
	keyedRoundQuick = 8 * time.Second
	keyedRoundFull  = 36 * time.Second
)

// roundTime is how long one round of w takes: with full, the quick
// figure scaled by the ratio of the two benchtimes.
func roundTime(w bench.Workload, full bool) time.Duration {
	d, ok := quickRound[w.Name]
	if !ok {
		d = otherRound
	}
	if full {
		q, qok := benchtime(w.Quick)
		f, fok := benchtime(w.Full)
		if qok && fok && q.x == f.x && q.n > 0 {
			d = time.Duration(float64(d) * f.n / q.n)
		}
	}
	return d
}

// stepTime is how long one step of the benchmark plan takes: its share
// of its workload's round.
func stepTime(st bench.Step, full bool) time.Duration {
	return roundTime(st.Workload, full) / time.Duration(max(1, len(st.Workload.Cases)))
}

// benchtime reads testing's -benchtime syntax: n iterations ("2x", x set)
// or a duration in ns.
func benchtime(s string) (bt struct {
	n float64
	x bool
}, ok bool) {
	if n, found := strings.CutSuffix(s, "x"); found {
		v, err := strconv.Atoi(n)
		bt.n, bt.x = float64(v), true
		return bt, err == nil
	}
	d, err := time.ParseDuration(s)
	bt.n = float64(d)
	return bt, err == nil
}

// stageTime is how long one stage of c should take.
func (c config) stageTime(stage string) time.Duration {
	switch stage {
	case "bench":
		plan, err := bench.Plan(c.benchOptions())
		if err != nil {
			return 0
		}
		var d time.Duration
		for _, st := range plan {
			d += stepTime(st, c.full)
		}
		return d
	case "actors":
		return runsTime(actorRuns(c), binRounds(c))
	case "keyed":
		return runsTime(keyedRuns(c), binRounds(c))
	case "spec":
		return specTime
	case "autoscale":
		if c.full {
			return autoscaleIOTime + autoscaleCPUTime(runtime.GOMAXPROCS(0))
		}
		return autoscaleIOTime
	}
	return 0
}

// comparedControllers is how many controllers the real-time scenarios
// run besides the fixed sizes: poolkit's and three baselines.
const comparedControllers = 4

// autoscaleCPUTime is how long the real-time scenarios take with procs
// CPUs, in real time whatever the machine's speed: each runs for its
// length once for every fixed size its reference search tries (the
// largest, then a bisection below it) and once for each controller. Their
// loads and the sizes searched grow with the CPUs.
func autoscaleCPUTime(procs int) time.Duration {
	var d time.Duration
	for _, s := range eval.RealTimeScenarios(procs, func(int) {}) {
		runs := eval.ReferenceRuns(s.MaxFixed) + comparedControllers
		d += time.Duration(runs) * s.Duration
	}
	return d
}

// estimate is how long the whole command should take.
func (c config) estimate() time.Duration {
	var d time.Duration
	for _, s := range c.stages() {
		d += c.stageTime(s)
	}
	return d
}

// benchOptions are the benchmark comparison's options, without progress.
func (c config) benchOptions() bench.Options {
	heavy := 1
	if c.full {
		heavy = 3
	}
	return bench.Options{Rounds: c.rounds, HeavyRounds: heavy, Full: c.full, Workloads: c.workloads}
}

// The builds inside a run: actors, keyed, spec and autoscale build test
// binaries with the go command before they run. With the build cache warm
// a build takes a second or two; with it cold, the actor benchmarks
// compile protoactor-go, GoAkt and their dependencies (gRPC,
// OpenTelemetry...), the keyed stream benchmark nats-server: minutes. The go command says what it would compile (go list's Stale,
// which consults the build cache), and these figures, measured on two
// cores, turn that into time.
const (
	// buildLink is the link of a test binary, which every run makes anew
	// (2 to 8 s), all its packages in the build cache or not.
	buildLink = 5 * time.Second
	// buildPerFile is the compile time per Go file of the packages to
	// compile: the actor benchmarks' 2,090 files beyond what poolkit's
	// own build compiles took about 2m17s on two cores.
	buildPerFile = 65 * time.Millisecond
	// buildDownload stands for fetching the modules that are not in the
	// module cache (go list, offline, finds them missing).
	buildDownload = 30 * time.Second
	// coldBuild is where a build is worth telling apart in the banner.
	coldBuild = 30 * time.Second
	// firstActorsBuild is the actor benchmarks' first build, for the help
	// (which asks the go command nothing).
	firstActorsBuild = 2*time.Minute + 20*time.Second
)

// stageBuilds is the package each stage builds the tests of, relative to
// the source tree.
var stageBuilds = map[string]string{
	"actors":    "bench/actors",
	"keyed":     "natsrunner/servertest",
	"spec":      "compat",
	"autoscale": "autoscale/eval",
}

// buildWork is what the build cache lacks of one package's tests.
type buildWork struct {
	// packages and files: those to compile, and their Go files.
	packages, files int
	// missing counts the packages whose module is not in the module cache.
	missing int
}

// buildCost is how long a build of w takes with cpus cores: the figures
// above scaled from the two cores they were measured on.
func buildCost(w buildWork, cpus int) time.Duration {
	compile := time.Duration(w.files) * buildPerFile
	compile = time.Duration(float64(compile) * 2 / float64(min(max(cpus, 1), 8)))
	d := buildLink + compile
	if w.missing > 0 {
		d += buildDownload
	}
	return d
}

// staleList is go list's template for what buildWork counts: per package,
// whether the build cache lacks it, its Go files and whether it could not
// be loaded (its module not downloaded: go list runs offline). The test
// binary's generated main package (PKG.test) is always stale: its link
// is in buildLink.
const staleList = `{{if .Error}}missing{{else if .Stale}}stale {{len .GoFiles}} {{len .CgoFiles}} {{.ImportPath}}{{end}}`

// toBuild asks the go command, offline, what building the tests of the
// package in dir would compile, but for the packages in built (which an
// earlier build compiles), and adds those to built. It takes a fraction
// of a second.
func toBuild(dir string, built map[string]bool) (buildWork, error) {
	cmd := exec.Command("go", "list", "-e", "-deps", "-test", "-f", staleList, ".")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOPROXY=off")
	out, err := cmd.Output()
	if err != nil {
		return buildWork{}, err
	}
	return parseStale(string(out), built), nil
}

// parseStale counts go list's lines as staleList writes them, but for
// the packages in built, and adds those it counts to built.
func parseStale(out string, built map[string]bool) buildWork {
	var w buildWork
	for _, line := range strings.Split(out, "\n") {
		f := strings.Fields(line)
		switch {
		case len(f) == 1 && f[0] == "missing":
			w.missing++
		case len(f) == 4 && f[0] == "stale" && !strings.HasSuffix(f[3], ".test") && !built[f[3]]:
			built[f[3]] = true
			w.packages++
			for _, n := range f[1:3] {
				k, _ := strconv.Atoi(n)
				w.files += k
			}
		}
	}
	return w
}

// buildTimes is how long each stage of c that builds should take to
// build, as the build cache stands; a stage whose build cannot be
// told is taken as cached (a link).
func (c config) buildTimes(root string) map[string]time.Duration {
	bt := map[string]time.Duration{}
	built := map[string]bool{}
	for _, s := range c.stages() {
		dir, ok := stageBuilds[s]
		if !ok || root == "" {
			continue
		}
		bt[s] = buildLink
		if w, err := toBuild(filepath.Join(root, filepath.FromSlash(dir)), built); err == nil {
			bt[s] = buildCost(w, runtime.NumCPU())
		}
	}
	return bt
}

// stagePlan is what one stage is expected to take: building its tests,
// then its work.
type stagePlan struct {
	stage       string
	build, work time.Duration
}

// plan is what each stage of c is expected to take, with the builds of
// builds.
func (c config) plan(builds map[string]time.Duration) []stagePlan {
	var p []stagePlan
	for _, s := range c.stages() {
		p = append(p, stagePlan{s, builds[s], c.stageTime(s)})
	}
	return p
}

// planned is the whole plan's time.
func planned(p []stagePlan) time.Duration {
	var d time.Duration
	for _, s := range p {
		d += s.build + s.work
	}
	return d
}
