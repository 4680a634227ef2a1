package eval

import (
	_ "embed"
	"fmt"
	"io"
	"runtime"
	"text/template"
	"time"
)

// Results is what one run of a set of scenarios found: for every
// scenario, its oracle and each controller's run. The scenario tests write
// it as JSON (-results-json, -cpu-results-json), which the poolkit command
// reads, and as the Markdown tables of results/ (-report, -cpu-report).
type Results struct {
	// Kind is "io" for the scenarios run in fake time, whose figures do
	// not depend on the machine, or "cpu" for those run in real time
	// (RealTimeScenarios).
	Kind string `json:"kind"`
	// GOMAXPROCS is the process's at the start of the run.
	GOMAXPROCS int `json:"gomaxprocs"`
	// Date is the day of the run, UTC, as YYYY-MM-DD.
	Date      string           `json:"date"`
	Scenarios []ScenarioResult `json:"scenarios"`
}

// ScenarioResult is one scenario's oracle and controller runs.
type ScenarioResult struct {
	Name string `json:"name"`
	// Plot is the file name of the scenario's SVG plot, in the folder the
	// tests' -plots flag names.
	Plot string        `json:"plot"`
	SLO  time.Duration `json:"slo"`
	// StepsUp and StepsDown count the load changes that raise and lower
	// the scenario's known optimum: settling, overshoot and offset are
	// measured after them. Both are 0 when the scenario does not know its
	// optimum.
	StepsUp   int `json:"steps_up"`
	StepsDown int `json:"steps_down"`
	// Oracle is the best fixed size in hindsight (see Oracle).
	Oracle Result `json:"oracle"`
	// Runs are the controllers' runs, poolkit's first.
	Runs []Result `json:"runs"`
	// BeatsAll says that poolkit's run beats every other controller's
	// (see Beats).
	BeatsAll bool `json:"beats_all"`
	// Stationary says that the scenario's load and work do not change
	// during the run (see Scenario.Stationary).
	Stationary bool `json:"stationary"`
	// MeetsTarget says, for a stationary scenario, that poolkit's run
	// served at least 95% of the oracle's throughput at no more than 1.2
	// times its worker-seconds (see MeetsTarget); false when the scenario
	// is not stationary.
	MeetsTarget bool `json:"meets_target"`
}

// NewResults starts the results of a run of scenarios of the given kind
// ("io" or "cpu"), dated today.
func NewResults(kind string) Results {
	return Results{Kind: kind, GOMAXPROCS: runtime.GOMAXPROCS(0), Date: time.Now().UTC().Format(time.DateOnly)}
}

// Evaluate makes a scenario's results from the runs of its fixed sizes
// (the oracle is chosen among them) and of the controllers, poolkit's
// first.
func Evaluate(s Scenario, fixed, runs []Result) ScenarioResult {
	r := ScenarioResult{Name: s.Name, Plot: Slug(s.Name) + ".svg", SLO: s.SLO, Oracle: Oracle(s, fixed), Runs: runs,
		Stationary: s.Stationary}
	r.MeetsTarget = s.Stationary && len(runs) > 0 && MeetsTarget(runs[0], r.Oracle)
	for _, ph := range s.phases() {
		if ph.up {
			r.StepsUp++
		} else {
			r.StepsDown++
		}
	}
	r.BeatsAll = len(runs) > 1
	for _, b := range runs[min(1, len(runs)):] {
		r.BeatsAll = r.BeatsAll && Beats(s, runs[0], b)
	}
	return r
}

// Wins counts the scenarios where poolkit's controller beats every other.
func (r Results) Wins() int { return r.count(func(s ScenarioResult) bool { return s.BeatsAll }) }

// StationaryScenarios counts the stationary scenarios.
func (r Results) StationaryScenarios() int {
	return r.count(func(s ScenarioResult) bool { return s.Stationary })
}

// TargetsMet counts the stationary scenarios where poolkit's run meets the
// target (see MeetsTarget).
func (r Results) TargetsMet() int {
	return r.count(func(s ScenarioResult) bool { return s.Stationary && s.MeetsTarget })
}

func (r Results) count(match func(ScenarioResult) bool) int {
	n := 0
	for _, s := range r.Scenarios {
		if match(s) {
			n++
		}
	}
	return n
}

// Label names the kind of scenarios for people: "I/O" or "real-time".
// The real-time ones are of kind "cpu": most of them burn CPU.
func (r Results) Label() string {
	if r.Kind == "io" {
		return "I/O"
	}
	return "real-time"
}

// FormatSettle shows a settling time of a scenario with steps of that
// direction: "–" when it has none, "never", or the time.
func FormatSettle(d time.Duration, steps int) string {
	switch {
	case steps == 0:
		return "–"
	case d == Never:
		return "never"
	}
	return d.Round(10 * time.Millisecond).String()
}

// FormatWait shows a queue wait to the microsecond.
func FormatWait(d time.Duration) string { return d.Round(time.Microsecond).String() }

// Table is a scenario's results as rows of text, the oracle first: what
// every rendering of the results shows.
type Table struct {
	Header []string
	Rows   [][]string
}

// Table lays the scenario's results out, with the ratios to the oracle.
func (s ScenarioResult) Table() Table {
	t := Table{Header: []string{"controller", "throughput", "vs oracle", "p50 wait", "p99 wait", "worker-s", "vs oracle",
		"rejected", "flaps/min", "resizes", "final", "settle up", "settle down", "overshoot", "offset"}}
	o := s.Oracle
	ratio := func(a, b float64) string { return fmt.Sprintf("%.2f", a/b) }
	for i, r := range append([]Result{o}, s.Runs...) {
		name := r.Controller
		if i == 0 {
			name = "oracle (" + name + ")"
		}
		overshoot, offset := "–", "–"
		if s.StepsUp > 0 {
			overshoot = fmt.Sprintf("%+.0f%%", 100*r.Overshoot)
		}
		if r.Offset != nil {
			offset = fmt.Sprintf("%+.0f%%", 100**r.Offset)
		}
		t.Rows = append(t.Rows, []string{name, fmt.Sprintf("%.0f/s", r.Throughput), ratio(r.Throughput, o.Throughput),
			FormatWait(r.WaitP50), FormatWait(r.WaitP99), fmt.Sprintf("%.1f", r.WorkerSeconds), ratio(r.WorkerSeconds, o.WorkerSeconds),
			fmt.Sprint(r.Rejected), fmt.Sprintf("%.1f", r.Flaps), fmt.Sprint(r.Resizes), fmt.Sprint(r.Final),
			FormatSettle(r.SettleUp, s.StepsUp), FormatSettle(r.SettleDown, s.StepsDown), overshoot, offset})
	}
	return t
}

//go:embed results.md.tmpl
var markdownText string

var markdown = template.Must(template.New("results").Parse(markdownText))

// WriteMarkdown writes the results as the Markdown tables of results/: a
// table per scenario, the oracle first, how often poolkit beat every
// baseline, and how often it met the target of the stationary scenarios.
func (r Results) WriteMarkdown(w io.Writer) error { return markdown.Execute(w, r) }
