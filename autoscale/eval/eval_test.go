package eval_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"go.uber.org/goleak"

	"github.com/poolkit/poolkit/autoscale"
	"github.com/poolkit/poolkit/autoscale/eval"
	"github.com/poolkit/poolkit/autoscale/eval/scaleplot"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

var (
	report      = flag.String("report", "", "write the I/O scenarios' results as Markdown tables to this file")
	resultsJSON = flag.String("results-json", "", "write the I/O scenarios' results (eval.Results) as JSON to this file")
	plots       = flag.String("plots", "", "write one SVG plot per scenario to this folder")
	seed        = flag.Uint64("seed", 42, "the seed of the scenarios' arrivals and work")
	seedsReport = flag.String("seeds-report", "", "replay the I/O scenarios with seeds 1 to -seeds (about 10 s a seed) and write how often poolkit wins, as Markdown, to this file")
	seeds       = flag.Int("seeds", 10, "how many seeds -seeds-report replays")
	only        = flag.String("scenarios", "", "run only the scenarios whose names match this regular expression")
	baselines   = flag.Bool("baselines", true, "run the baseline controllers beside poolkit's")
)

// controllers are the autoscalers compared, each starting at 4 workers
// with the given ceiling: 64 for the I/O scenarios (fake time, whatever
// the machine), realTimeCeiling for the real-time ones.
func controllers(ceiling int) []eval.Controller {
	pk := eval.Poolkit{Start0: 4, Options: []autoscale.Option{autoscale.WithMax(ceiling)}}
	if !*baselines {
		return []eval.Controller{pk}
	}
	return []eval.Controller{
		pk,
		eval.AIMD{Max: ceiling, Start0: 4},
		eval.HPA{Max: ceiling, Start0: 4},
		eval.Akka{Max: ceiling, Start0: 4},
	}
}

// ioCeiling is the controllers' ceiling in the I/O scenarios.
const ioCeiling = 64

// realTimeCeiling is the controllers' ceiling in the real-time scenarios:
// 64, or 8 a CPU where that is more (S8's load grows with the CPUs: about
// 100 workers busy on 16).
func realTimeCeiling() int { return realTimeCeilingFor(runtime.GOMAXPROCS(0)) }

func realTimeCeilingFor(procs int) int { return max(ioCeiling, 8*procs) }

// runIn runs one scenario through one controller inside a synctest bubble.
func runIn(t *testing.T, s eval.Scenario, c eval.Controller, seed uint64) eval.Result {
	var r eval.Result
	synctest.Test(t, func(t *testing.T) { r = eval.Run(s, c, seed) })
	return r
}

// maxFixed is the largest fixed size the reference of s is searched among.
func maxFixed(s eval.Scenario) int {
	if s.MaxFixed > 0 {
		return s.MaxFixed
	}
	return 64
}

// evaluate runs a scenario through the fixed sizes its reference search
// tries and through the controllers with the given seed, each with run,
// checks the harness's accounting of every run, and evaluates the runs.
func evaluate(t *testing.T, s eval.Scenario, cs []eval.Controller, seed uint64, run func(eval.Controller) eval.Result) eval.ScenarioResult {
	ref, tried := eval.SearchReference(maxFixed(s), func(n int) eval.Result { return run(eval.Fixed(n)) })
	var runs []eval.Result
	for _, c := range cs {
		runs = append(runs, run(c))
	}
	for _, r := range append(tried, runs...) {
		checkAccounting(t, s, r)
	}
	return eval.Evaluate(s, ref, runs)
}

// evaluateIO evaluates an I/O scenario in fake time.
func evaluateIO(t *testing.T, s eval.Scenario, cs []eval.Controller, seed uint64) eval.ScenarioResult {
	if s.RealTime || s.Hogs > 0 {
		t.Fatalf("%s needs real time: it cannot run in fake time", s.Name)
	}
	return evaluate(t, s, cs, seed, func(c eval.Controller) eval.Result { return runIn(t, s, c, seed) })
}

// TestIOScenarios replays every I/O scenario, in fake time, through the
// reference's search and the controllers. It checks the harness's own
// accounting (every arrival completed or was rejected, once), that
// poolkit's controller serves at least 95% of the reference's throughput
// everywhere and flaps at most 6 times a minute on the sine, and writes
// the results as -report, -results-json and -plots ask.
func TestIOScenarios(t *testing.T) {
	res := eval.NewResults("io")
	for _, s := range eval.IOScenarios() {
		if !chosen(s) {
			continue
		}
		sr := evaluateIO(t, s, controllers(ioCeiling), *seed)
		runs := sr.Runs
		logVsReference(t, sr)
		// What the control law reaches in every I/O scenario (the rest of
		// the criteria are reported in the tables, met or not).
		if pk := runs[0]; pk.Throughput < 0.95*sr.Reference.Throughput {
			t.Errorf("%s: poolkit served %.0f/s, under 95%% of the reference's %.0f/s", s.Name, pk.Throughput, sr.Reference.Throughput)
		}
		if pk := runs[0]; s.Name == "S3 sine" && pk.Flaps > 6 {
			t.Errorf("%s: poolkit changed direction %.1f times a minute, want at most 6", s.Name, pk.Flaps)
		}
		if *plots != "" {
			writePlot(t, *plots, s, append([]eval.Result{sr.Reference}, runs...))
		}
		res.Scenarios = append(res.Scenarios, sr)
	}
	writeResults(t, res, *report, *resultsJSON)
}

// chosen reports whether -scenarios selects s.
func chosen(s eval.Scenario) bool {
	if *only == "" {
		return true
	}
	return regexp.MustCompile(*only).MatchString(s.Name)
}

// checkAccounting checks the harness's own accounting of a run: every
// arrival completed or was rejected, once.
func checkAccounting(t *testing.T, s eval.Scenario, r eval.Result) {
	t.Helper()
	if r.Completed+r.Rejected != r.Arrivals || r.Arrivals == 0 {
		t.Errorf("%s/%s: %d completed + %d rejected of %d arrivals", s.Name, r.Controller, r.Completed, r.Rejected, r.Arrivals)
	}
}

// logVsReference logs poolkit's run of a scenario against the reference.
func logVsReference(t *testing.T, sr eval.ScenarioResult) {
	t.Helper()
	pk, o := sr.Runs[0], sr.Reference
	t.Logf("%s: reference %s (p99 %v, end-to-end %v); poolkit %.0f resizes/min, final %d. %s",
		sr.Name, o.Controller, o.WaitP99, o.EndWaitP99, pk.ResizesPerMinute, pk.Final, sr.Judgement())
}

// writeResults writes res as Markdown to md and as JSON to js, where
// they are set, and logs the Markdown.
func writeResults(t *testing.T, res eval.Results, md, js string) {
	t.Helper()
	var out bytes.Buffer
	if err := res.WriteMarkdown(&out); err != nil {
		t.Fatal(err)
	}
	t.Log(out.String())
	if md != "" {
		if err := os.WriteFile(md, out.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if js != "" {
		data, err := json.MarshalIndent(res, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(js, append(data, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func writePlot(t *testing.T, dir string, s eval.Scenario, runs []eval.Result) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(filepath.Join(dir, eval.Slug(s.Name)+".svg"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := scaleplot.WriteSVG(f, s, runs); err != nil {
		t.Fatal(err)
	}
}

// TestHeavyTailedSeeds replays S9 (lognormal service times) with seeds
// whose first windows hold few, short completions: the controller once read
// that chance as a knee and held the pool at a quarter of what the load
// needed. It must serve the load whatever the seed.
func TestHeavyTailedSeeds(t *testing.T) {
	var s9 eval.Scenario
	for _, s := range eval.IOScenarios() {
		if s.Name == "S9 heavy-tailed service" {
			s9 = s
		}
	}
	for _, sd := range []uint64{1, 2, 6} {
		r := runIn(t, s9, controllers(ioCeiling)[0], sd)
		checkAccounting(t, s9, r)
		if offered := float64(r.Arrivals) / s9.Duration.Seconds(); r.Throughput < 0.95*offered {
			t.Errorf("seed %d: served %.0f/s of %.0f/s offered", sd, r.Throughput, offered)
		}
	}
}

// TestIOSeeds replays the I/O scenarios with -seeds seeds when
// -seeds-report asks, poolkit's controller and the baselines, and writes
// per scenario how often poolkit met the reference and beat every baseline
// (see writeSeeds): one seed's run is one draw of the arrivals, and a
// result that holds for one seed may not for the next.
func TestIOSeeds(t *testing.T) {
	if *seedsReport == "" {
		t.Skip("-seeds-report not set")
	}
	var scenarios []eval.Scenario
	for _, s := range eval.IOScenarios() {
		if chosen(s) {
			scenarios = append(scenarios, s)
		}
	}
	writeSeeds(t, *seedsReport, "I/O scenarios, fake time", scenarios, *seeds, func(s eval.Scenario, seed uint64) eval.ScenarioResult {
		return evaluateIO(t, s, controllers(ioCeiling), seed)
	})
}

// writeSeeds evaluates every scenario with seeds 1 to n and writes, as
// Markdown to file, per scenario: in how many seeds poolkit met every
// criterion of the reference, each criterion's count, the medians of its
// ratios and waits, and how often it beat every baseline (when the runs
// had baselines); then every run that missed, with the reference's own
// figures beside poolkit's, so that a miss can be told from a reference
// that sits at the edge of the objective.
func writeSeeds(t *testing.T, file, kind string, scenarios []eval.Scenario, n int, eval1 func(eval.Scenario, uint64) eval.ScenarioResult) {
	type tally struct {
		met, tput, ws, wait, end, wins int
		wsr, p99, lim, rpm             []float64
		baselines                      bool
	}
	tallies := make([]tally, len(scenarios))
	var misses []string
	ms := func(x float64) string { return eval.FormatWait(time.Duration(x).Round(time.Millisecond)) }
	for sd := 1; sd <= n; sd++ {
		for i, s := range scenarios {
			sr := eval1(s, uint64(sd))
			tl, v, pk := &tallies[i], sr.Verdict, sr.Runs[0]
			for _, c := range []struct {
				ok bool
				n  *int
			}{{v.Met(), &tl.met}, {v.Throughput, &tl.tput}, {v.WorkerSeconds, &tl.ws}, {v.Wait, &tl.wait}, {v.EndWait, &tl.end}, {sr.BeatsAll, &tl.wins}} {
				if c.ok {
					*c.n++
				}
			}
			tl.baselines = len(sr.Runs) > 1
			tl.wsr = append(tl.wsr, pk.WorkerSeconds/sr.Reference.WorkerSeconds)
			tl.p99 = append(tl.p99, float64(pk.WaitP99))
			tl.lim = append(tl.lim, float64(eval.WaitLimit(sr.Reference.WaitP99)))
			tl.rpm = append(tl.rpm, pk.ResizesPerMinute)
			if !v.Met() {
				var failed []string
				for _, c := range []struct {
					ok   bool
					name string
				}{{v.Throughput, "throughput"}, {v.WorkerSeconds, "worker-s"}, {v.Wait, "p99 wait"}, {v.EndWait, "end-to-end"}} {
					if !c.ok {
						failed = append(failed, c.name)
					}
				}
				ref := sr.Reference
				misses = append(misses, fmt.Sprintf("| %s | %d | %s | %s at %.0f/s, p99 %s, end-to-end %s | %.2f | %.2f | %s | %s | %.1f |",
					s.Name, sd, strings.Join(failed, ", "), ref.Controller, ref.Throughput, ms(float64(ref.WaitP99)), ms(float64(ref.EndWaitP99)),
					pk.Throughput/ref.Throughput, pk.WorkerSeconds/ref.WorkerSeconds, ms(float64(pk.WaitP99)), ms(float64(pk.EndWaitP99)), pk.ResizesPerMinute))
			}
		}
	}
	median := func(x []float64) float64 { x = slices.Clone(x); slices.Sort(x); return x[len(x)/2] }
	var out bytes.Buffer
	fmt.Fprintf(&out, "%s, replayed with seeds 1 to %d; GOMAXPROCS=%d, %s.\n\n", kind, n, runtime.GOMAXPROCS(0), time.Now().UTC().Format(time.DateOnly))
	fmt.Fprintln(&out, "| scenario | meets the reference | throughput | worker-s | p99 wait | end-to-end | worker-s vs ref (median) | p99 wait (median) | limit (median) | resizes/min (median) | beats every baseline |")
	fmt.Fprintln(&out, "|---|---|---|---|---|---|---|---|---|---|---|")
	met := 0
	for i, s := range scenarios {
		tl := tallies[i]
		met += tl.met
		wins := "–"
		if tl.baselines {
			wins = fmt.Sprintf("%d of %d", tl.wins, n)
		}
		fmt.Fprintf(&out, "| %s | %d of %d | %d | %d | %d | %d | %.2f | %s | %s | %.1f | %s |\n", s.Name, tl.met, n, tl.tput, tl.ws, tl.wait, tl.end,
			median(tl.wsr), ms(median(tl.p99)), ms(median(tl.lim)), median(tl.rpm), wins)
	}
	fmt.Fprintf(&out, "\nIn all: poolkit meets the reference on every criterion in %d of %d scenario runs.\n", met, len(scenarios)*n)
	if len(misses) > 0 {
		fmt.Fprintln(&out, "\nThe runs that missed, with the reference (the cheapest fixed size within 2% of the best throughput and a p99 wait within the objective) beside them:")
		fmt.Fprintln(&out, "\n| scenario | seed | missed | reference | throughput vs ref | worker-s vs ref | p99 wait | end-to-end | resizes/min |")
		fmt.Fprintln(&out, "|---|---|---|---|---|---|---|---|---|")
		for _, m := range misses {
			fmt.Fprintln(&out, m)
		}
	}
	t.Log(out.String())
	if err := os.WriteFile(file, out.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}
