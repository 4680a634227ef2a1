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
// scenario, its reference and each controller's run. The scenario tests write
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

// ScenarioResult is one scenario's reference and controller runs.
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
	// Reference is the fixed size a user would pick in hindsight (see
	// Reference).
	Reference Result `json:"reference"`
	// Runs are the controllers' runs, poolkit's first.
	Runs []Result `json:"runs"`
	// BeatsAll says that poolkit's run beats every other controller's
	// (see Beats).
	BeatsAll bool `json:"beats_all"`
	// Verdict is poolkit's run judged against the reference (see Judge).
	Verdict Verdict `json:"verdict"`
}

// NewResults starts the results of a run of scenarios of the given kind
// ("io" or "cpu"), dated today.
func NewResults(kind string) Results {
	return Results{Kind: kind, GOMAXPROCS: runtime.GOMAXPROCS(0), Date: time.Now().UTC().Format(time.DateOnly)}
}

// Evaluate makes a scenario's results from its reference run and the
// controllers' runs, poolkit's first.
func Evaluate(s Scenario, ref Result, runs []Result) ScenarioResult {
	r := ScenarioResult{Name: s.Name, Plot: Slug(s.Name) + ".svg", SLO: s.SLO, Reference: ref, Runs: runs}
	if len(runs) > 0 {
		r.Verdict = Judge(runs[0], ref)
	}
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

// Met counts the scenarios where poolkit's run meets every criterion of
// its verdict.
func (r Results) Met() int { return r.count(func(s ScenarioResult) bool { return s.Verdict.Met() }) }

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

// Table is a scenario's results as rows of text, the reference first: what
// every rendering of the results shows.
type Table struct {
	Header []string
	Rows   [][]string
}

// Table lays the scenario's results out, with the ratios to the
// reference.
func (s ScenarioResult) Table() Table {
	t := Table{Header: []string{"controller", "throughput", "vs ref", "p50 wait", "p99 wait", "end-to-end p99", "worker-s", "vs ref",
		"rejected", "resizes/min", "flaps/min", "final", "settle up", "settle down", "overshoot", "offset"}}
	o := s.Reference
	ratio := func(a, b float64) string { return fmt.Sprintf("%.2f", a/b) }
	for i, r := range append([]Result{o}, s.Runs...) {
		name := r.Controller
		if i == 0 {
			name = "reference (" + name + ")"
		}
		overshoot, offset := "–", "–"
		if s.StepsUp > 0 {
			overshoot = fmt.Sprintf("%+.0f%%", 100*r.Overshoot)
		}
		if r.Offset != nil {
			offset = fmt.Sprintf("%+.0f%%", 100**r.Offset)
		}
		t.Rows = append(t.Rows, []string{name, fmt.Sprintf("%.0f/s", r.Throughput), ratio(r.Throughput, o.Throughput),
			FormatWait(r.WaitP50), FormatWait(r.WaitP99), FormatWait(r.EndWaitP99), fmt.Sprintf("%.1f", r.WorkerSeconds), ratio(r.WorkerSeconds, o.WorkerSeconds),
			fmt.Sprint(r.Rejected), fmt.Sprintf("%.1f", r.ResizesPerMinute), fmt.Sprintf("%.1f", r.Flaps), fmt.Sprint(r.Final),
			FormatSettle(r.SettleUp, s.StepsUp), FormatSettle(r.SettleDown, s.StepsDown), overshoot, offset})
	}
	return t
}

//go:embed results.md.tmpl
var markdownText string

var markdown = template.Must(template.New("results").Parse(markdownText))

// WriteMarkdown writes the results as the Markdown tables of results/: a
// table per scenario, the reference first, with poolkit's verdict; how
// often poolkit beat every baseline, and how often it met every criterion.
func (r Results) WriteMarkdown(w io.Writer) error { return markdown.Execute(w, r) }

// Judgement says, in a sentence, how poolkit's run compares with the
// reference on each criterion of its verdict.
func (s ScenarioResult) Judgement() string {
	if len(s.Runs) == 0 {
		return ""
	}
	pk, ref, v := s.Runs[0], s.Reference, s.Verdict
	mark := func(ok bool) string {
		if ok {
			return "met"
		}
		return "missed"
	}
	all := "meets"
	if !v.Met() {
		all = "misses"
	}
	return fmt.Sprintf("poolkit %s the reference (%s): throughput %.2f of it (at least 0.95: %s), worker-seconds %.2f (at most 1.2: %s), "+
		"p99 wait %s (at most %s: %s), end-to-end p99 wait %s (at most %s: %s).",
		all, ref.Controller, pk.Throughput/ref.Throughput, mark(v.Throughput), pk.WorkerSeconds/ref.WorkerSeconds, mark(v.WorkerSeconds),
		FormatWait(pk.WaitP99), FormatWait(WaitLimit(ref.WaitP99)), mark(v.Wait),
		FormatWait(pk.EndWaitP99), FormatWait(WaitLimit(ref.EndWaitP99)), mark(v.EndWait))
}
