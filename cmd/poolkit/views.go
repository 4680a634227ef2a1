package main

import (
	"cmp"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/poolkit/poolkit/autoscale/eval"
	"github.com/poolkit/poolkit/bench"
	"github.com/poolkit/poolkit/spectest"
)

// The stages' results as the tables show them. Every rendering (the
// terminal's text, the HTML report, the README section) is a template
// over these views. Paths in them are absolute; each rendering makes them
// relative to where it is read from.

// table is rows of cells under a header.
type table struct {
	Header []string
	Rows   [][]string
}

// without is t without its column i.
func (t table) without(i int) table {
	out := table{Header: slices.Delete(slices.Clone(t.Header), i, i+1)}
	for _, r := range t.Rows {
		out.Rows = append(out.Rows, slices.Delete(slices.Clone(r), i, i+1))
	}
	return out
}

// benchView is what the bench stage measured.
type benchView struct {
	Machine string
	// Rounds says how many rounds the medians are of, Note what the
	// figures are.
	Rounds, Note string
	Raw          string // benchstat-format file
	Overview     table
	Standing     standingView
	Workloads    []workloadView
	// Findings are peer libraries' runs stopped by a check of the
	// workload, Failures poolkit's runs stopped by one and runs that failed
	// without saying why.
	Findings, Failures []problemView
}

// workloadView is one workload's table and chart.
type workloadView struct {
	Name, About string
	Table       table
	Chart       string
	// Bars are what the chart draws, a contender each.
	Bars []bar
}

// bar is a contender in a workload's chart: its ratio to poolkit with the
// interval (Lo, Hi 0 when there is none), its median time, and its
// problem when it has no ratio, or why the rounds give it no verdict.
type bar struct {
	Impl            string
	Ratio, Lo, Hi   float64
	Time, NoRatioAs string
	// NoVerdict: too few rounds to rank it (NoRatioAs says why); its
	// time is measured all the same.
	NoVerdict bool
}

// problemView is the reason the workload gave for stopping one
// contender's runs, with the rounds it did.
type problemView struct {
	Workload, Impl, Reason string
	Rounds                 []int
}

// RoundList says which rounds, for people.
func (p problemView) RoundList() string {
	s := make([]string, len(p.Rounds))
	for i, r := range p.Rounds {
		s[i] = fmt.Sprint(r)
	}
	if len(s) == 1 {
		return "round " + s[0]
	}
	return "rounds " + strings.Join(s, ", ")
}

// newBenchView lays out the comparison's results.
func newBenchView(res *bench.Results, raw string, charts []string) benchView {
	v := benchView{Machine: res.Machine.String(), Raw: raw}
	heavy := ""
	for _, w := range res.Workloads {
		if w.Heavy && res.HeavyRounds != res.Rounds {
			heavy = fmt.Sprintf(" (%s: %s)", w.Name, plural(res.HeavyRounds, "round"))
		}
	}
	v.Rounds = fmt.Sprintf("Medians of %s%s", plural(res.Rounds, "round"), heavy)
	v.Note = fmt.Sprintf("%s. \"vs poolkit\" is the ratio of the median time per op to poolkit's, the times "+
		"shown; its 95%% interval (from golang.org/x/perf/benchmath: each median's distribution-free interval at 97.5%%) "+
		"needs at least %s. %s", v.Rounds, plural(intervalRounds(medianConfidence), "round"), verdictRule())
	sums := res.Summaries()
	ref := map[string]estimate{}
	refSamples := map[string][]float64{}
	for _, s := range sums {
		if s.Impl == "poolkit" {
			ref[s.Workload] = medianOf(s.Samples)
			refSamples[s.Workload] = s.Samples
		}
	}
	for i, w := range res.Workloads {
		cols := res.Columns(w.Name)
		wv := workloadView{Name: w.Name, About: w.About,
			Table: table{Header: []string{"impl", "time/op", "vs poolkit", "95% interval", "allocs/op", "bytes/op"}}}
		for _, m := range cols {
			wv.Table.Header = append(wv.Table.Header, metricOf(m).label)
		}
		if i < len(charts) {
			wv.Chart = charts[i]
		}
		for _, s := range sums {
			if s.Workload != w.Name {
				continue
			}
			row := make([]string, 6+len(cols))
			row[0] = s.Impl
			b := bar{Impl: s.Impl}
			switch {
			case s.Runs == s.Failed && s.Findings == s.Failed:
				row[1], b.NoRatioAs = "finding", "finding"
			case s.Runs == s.Failed:
				row[1], b.NoRatioAs = "failed", "failed"
			default:
				row[1], row[2], b.Time = formatDuration(s.NsPerOp), "-", formatDuration(s.NsPerOp)
				if s.Failed > 0 {
					row[1] += fmt.Sprintf(" (%d of %d rounds stopped)", s.Failed, s.Runs)
				}
				why := ""
				if s.Impl != "poolkit" {
					why = noVerdict(s.Samples, refSamples[w.Name])
				}
				switch {
				case s.Ratio > 0 && why != "":
					row[2], b.NoRatioAs, b.NoVerdict = why, why, true
				case s.Ratio > 0:
					row[2], b.Ratio = formatRatio(s.Ratio), s.Ratio
					if r := ratioOf(medianOf(s.Samples), ref[w.Name]); r.finite() && s.Impl != "poolkit" {
						row[3], b.Lo, b.Hi = formatRatioRange(r.Lo, r.Hi), r.Lo, r.Hi
					}
				default:
					b.NoRatioAs = "no ratio"
				}
				row[4], row[5] = formatCount(s.AllocsPerOp), formatBytes(s.BytesPerOp)
				for j, m := range cols {
					if x, ok := s.Metrics[m]; ok {
						row[6+j] = metricOf(m).format(x)
					}
				}
			}
			wv.Table.Rows = append(wv.Table.Rows, row)
			wv.Bars = append(wv.Bars, b)
		}
		if !slices.ContainsFunc(wv.Bars, func(b bar) bool { return b.Hi > 0 }) {
			wv.Table = wv.Table.without(3) // too few rounds for any interval
		}
		v.Workloads = append(v.Workloads, wv)
	}
	v.Findings = problems(res.Findings())
	v.Failures = problems(res.Failures())
	v.Overview = overview(res, sums)
	v.Standing = standing(res, sums)
	return v
}

// floorImpl is the contender that is no pool at all: the submitter runs
// each task itself. It bounds from below what a pool can reach, and is
// left out of where poolkit stands among pools.
const floorImpl = "inline"

// standingView says, per workload, where poolkit stands among the pools
// the run ranked: the sentence under the overview, written from the same
// summaries as the table, so that prose and table cannot disagree.
type standingView struct {
	Fastest   []string   // workloads where no ranked pool was faster
	Lost      []lostView // workloads where some were, with them
	Undecided []string   // workloads where no pool could be ranked
}

// lostView is a workload poolkit lost, and the pools that were faster.
type lostView struct {
	Workload string
	Faster   []string // "impl 0.85x", fastest first
}

// Sentence is the standing in words, "" when no workload ran.
func (v standingView) Sentence() string {
	var parts []string
	if len(v.Fastest) > 0 {
		parts = append(parts, "the fastest in "+strings.Join(v.Fastest, ", "))
	}
	if len(v.Lost) > 0 {
		var ls []string
		for _, l := range v.Lost {
			ls = append(ls, l.Workload+" ("+strings.Join(l.Faster, ", ")+")")
		}
		parts = append(parts, "slower than some in "+strings.Join(ls, "; "))
	}
	if len(v.Undecided) > 0 {
		parts = append(parts, "no verdict in "+strings.Join(v.Undecided, ", "))
	}
	if len(parts) == 0 {
		return ""
	}
	return "Where poolkit stands in this run among the pools the rounds rank (`" + floorImpl +
		"`, the floor of no pool at all, left out): " + strings.Join(parts, "; and ") + "."
}

// standing reads the summaries as the overview does: a contender counts
// only where the rounds give it a verdict (noVerdict).
func standing(res *bench.Results, sums []bench.Summary) standingView {
	ref := map[string][]float64{}
	for _, s := range sums {
		if s.Impl == "poolkit" {
			ref[s.Workload] = s.Samples
		}
	}
	var v standingView
	for _, w := range res.Workloads {
		var faster []bench.Summary
		ranked := 0
		for _, s := range sums {
			if s.Workload != w.Name || s.Impl == "poolkit" || s.Impl == floorImpl || s.Ratio <= 0 ||
				noVerdict(s.Samples, ref[w.Name]) != "" {
				continue
			}
			ranked++
			if s.Ratio < 1 {
				faster = append(faster, s)
			}
		}
		switch {
		case ranked == 0:
			v.Undecided = append(v.Undecided, w.Name)
		case len(faster) == 0:
			v.Fastest = append(v.Fastest, w.Name)
		default:
			slices.SortFunc(faster, func(a, b bench.Summary) int { return cmp.Compare(a.Ratio, b.Ratio) })
			l := lostView{Workload: w.Name}
			for _, s := range faster {
				l.Faster = append(l.Faster, s.Impl+" "+formatRatio(s.Ratio))
			}
			v.Lost = append(v.Lost, l)
		}
	}
	return v
}

// problems groups stopped runs by workload, contender and reason.
func problems(runs []bench.Run) []problemView {
	var out []problemView
	for _, r := range runs {
		reason := r.Problem
		if reason == "" {
			reason = "the run failed without recording why"
		}
		i := slices.IndexFunc(out, func(p problemView) bool {
			return p.Workload == r.Workload && p.Impl == r.Impl && p.Reason == reason
		})
		if i < 0 {
			out = append(out, problemView{Workload: r.Workload, Impl: r.Impl, Reason: reason})
			i = len(out) - 1
		}
		out[i].Rounds = append(out[i].Rounds, r.Round+1)
	}
	return out
}

// overview is the one-glance table: a row per contender, a column per
// workload, each cell its ratio to poolkit, or "no verdict" where the
// rounds cannot rank it (see noVerdict).
func overview(res *bench.Results, sums []bench.Summary) table {
	t := table{Header: []string{"impl"}}
	var impls []string
	cell := map[[2]string]string{}
	for _, w := range res.Workloads {
		t.Header = append(t.Header, w.Name)
	}
	refSamples := map[string][]float64{}
	for _, s := range sums {
		if s.Impl == "poolkit" {
			refSamples[s.Workload] = s.Samples
		}
	}
	for _, s := range sums {
		if !slices.Contains(impls, s.Impl) {
			impls = append(impls, s.Impl)
		}
		v := "-"
		switch {
		case s.Ratio > 0 && s.Impl != "poolkit" && noVerdict(s.Samples, refSamples[s.Workload]) != "":
			v = "no verdict"
		case s.Ratio > 0:
			v = formatRatio(s.Ratio)
		case s.Runs == s.Failed && s.Findings == s.Failed:
			v = "finding"
		case s.Runs == s.Failed:
			v = "failed"
		}
		cell[[2]string{s.Impl, s.Workload}] = v
	}
	order := bench.Contenders()
	rank := func(impl string) int {
		if i := slices.Index(order, impl); i >= 0 {
			return i
		}
		return len(order)
	}
	slices.SortStableFunc(impls, func(a, b string) int { return rank(a) - rank(b) })
	for _, impl := range impls {
		row := []string{impl}
		for _, w := range res.Workloads {
			v, ok := cell[[2]string{impl, w.Name}]
			if !ok {
				v = "n.a."
			}
			row = append(row, v)
		}
		t.Rows = append(t.Rows, row)
	}
	return t
}

// overviewNote says what the overview's cells are.
func overviewNote() string {
	return "Time per op relative to poolkit: the ratio of the medians (lower is faster); " +
		fmt.Sprintf("no verdict: too few rounds to rank the pool against poolkit (one round, or fewer than %d whose times overlap poolkit's); ",
			intervalRounds(medianConfidence)) +
		"n.a.: the pool has no such entry point; " +
		"finding: a check of the workload stopped every run of that pool (the reason is below its workload's table); " +
		"failed: every run failed"
}

// noVerdict says why the rounds cannot rank a contender, whose times per
// op are xs, against poolkit, whose times are ref: "" when they can.
// From a single round, never: one run's time moves by more between runs
// than many a difference between pools (the million sleeping tasks turn
// from faster to slower and back). With enough rounds for a 95%
// interval of the ratio, the interval tells how sure the ratio is. In
// between, only when every round agrees on which is faster: the two
// ranges of times do not overlap.
func noVerdict(xs, ref []float64) string {
	n := min(len(xs), len(ref))
	switch {
	case n == 0 || n >= intervalRounds(medianConfidence):
		return ""
	case n == 1:
		return "no verdict (1 round)"
	case slices.Min(xs) <= slices.Max(ref) && slices.Min(ref) <= slices.Max(xs):
		return fmt.Sprintf("no verdict (%d rounds, times overlap)", n)
	}
	return ""
}

// verdictRule says when a contender gets no verdict, for the notes and
// the help.
func verdictRule() string {
	n := intervalRounds(medianConfidence)
	return fmt.Sprintf("A pool is ranked against poolkit only when the rounds can tell: from %s or more by the ratio and its interval; "+
		"from 2 to %d only when its times and poolkit's do not overlap, every round agreeing on which is faster "+
		"(two pools alike would part so by chance one time in three with 2 rounds, one in ten with 3); "+
		"from a single round never. Otherwise the table says \"no verdict\" in place of the ratio",
		plural(n, "round"), n-1)
}

// specView is what the conformance suite found.
type specView struct {
	// Passed: the suite agreed with the recorded divergences.
	Passed bool
	// Matrix has a row per clause: its name, its level and a mark per
	// implementation, whose names head the columns; Legend says what the
	// marks mean. The marks are the suite's, the long ones shortened
	// (narrowMarks): with them a matrix of seventeen pools is twice as
	// wide as a page.
	Matrix table
	Legend []spectest.Legend
	// Columns gives each implementation a letter, for the terminal, where
	// even the names of the pools would not fit above their columns.
	Columns []column
	Clauses int
	Failing []failing
	Notes   []implNotes
	// JSON is the suite's report as it wrote it; Spec and MatrixMD are the
	// repository's SPEC.md and MATRIX.md ("" when not found).
	JSON, Spec, MatrixMD string
}

// column names the implementation under a column's letter.
type column struct{ Code, Impl string }

// Lettered is the matrix with the implementations' letters for names.
func (v specView) Lettered() table {
	t := table{Header: slices.Clone(v.Matrix.Header), Rows: v.Matrix.Rows}
	for i, c := range v.Columns {
		t.Header[2+i] = c.Code
	}
	return t
}

// ColumnLegend says which implementation each letter stands for:
// "A poolkit", "B ants"...
func (v specView) ColumnLegend() []string {
	s := make([]string, len(v.Columns))
	for i, c := range v.Columns {
		s[i] = c.Code + " " + c.Impl
	}
	return s
}

// narrowMarks shorten the suite's long marks, to two characters at most.
var narrowMarks = map[string]string{
	"n.a.":           "-",
	"✗ (unexpected)": "✗!",
	"✓ (was ✗)":      "✓!",
}

// DifferMarks names the marks of the results that differ from the
// recorded ones: "“✗!” or “✓!”".
func (specView) DifferMarks() string {
	return fmt.Sprintf("“%s” or “%s”", narrowMark(spectest.Result{Status: spectest.Fail}.Mark()),
		narrowMark(spectest.Result{Status: spectest.XPass}.Mark()))
}

// narrowMark is mark as the matrix shows it.
func narrowMark(mark string) string {
	if m, ok := narrowMarks[mark]; ok {
		return m
	}
	return mark
}

// columnCode is the letter of the i-th column: A to Z, then AA, AB...
func columnCode(i int) string {
	if i < 26 {
		return string(rune('A' + i))
	}
	return columnCode(i/26-1) + columnCode(i%26)
}

// failing is how many clauses one implementation fails.
type failing struct {
	Impl string
	N    int
}

// implNotes are one implementation's failures and remarks.
type implNotes struct {
	Impl  string
	Notes []clauseNote
}

// clauseNote is the note on one clause's cell, and how to reproduce a
// failure.
type clauseNote struct {
	ID, Mark, Note, Repro string
}

// FailingLine lists the failure counts: "poolkit 0, ants 13 (of 48)".
func (v specView) FailingLine() string {
	return fmt.Sprintf("%s (of %d)", strings.Join(v.FailingCounts(), ", "), v.Clauses)
}

// FailingCounts are the failure counts one by one: "poolkit 0".
func (v specView) FailingCounts() []string {
	var s []string
	for _, f := range v.Failing {
		s = append(s, fmt.Sprintf("%s %d", f.Impl, f.N))
	}
	return s
}

// newSpecView lays out the conformance suite's report.
func newSpecView(r spectest.Report) specView {
	v := specView{Clauses: len(r.Clauses), Matrix: table{Header: []string{"clause", "level"}}}
	for _, l := range spectest.Marks {
		v.Legend = append(v.Legend, spectest.Legend{Mark: narrowMark(l.Mark), Meaning: l.Meaning})
	}
	byClause := map[string]map[string]spectest.Result{}
	for _, ir := range r.Implementations {
		v.Matrix.Header = append(v.Matrix.Header, ir.Name)
		v.Failing = append(v.Failing, failing{ir.Name, r.Failing(ir.Name)})
		notes := implNotes{Impl: ir.Name}
		for _, res := range ir.Results {
			if byClause[res.Clause] == nil {
				byClause[res.Clause] = map[string]spectest.Result{}
			}
			byClause[res.Clause][ir.Name] = res
		}
		for _, c := range r.Clauses {
			res, ok := byClause[c.ID][ir.Name]
			if !ok || res.Note == "" || res.Status == spectest.NA {
				continue
			}
			n := clauseNote{ID: c.ID, Mark: narrowMark(res.Mark()), Note: res.Note}
			if res.Status == spectest.Fail || res.Status == spectest.XFail {
				n.Repro = fmt.Sprintf("go test ./compat -run '^TestConformance$/^%s$/^%s-' -v", ir.Name, c.ID)
			}
			notes.Notes = append(notes.Notes, n)
		}
		if len(notes.Notes) > 0 {
			v.Notes = append(v.Notes, notes)
		}
	}
	for _, c := range r.Clauses {
		row := []string{c.ID + " " + c.Slug, c.Level.String()}
		for _, ir := range r.Implementations {
			mark := ""
			if res, ok := byClause[c.ID][ir.Name]; ok {
				mark = narrowMark(res.Mark())
			}
			row = append(row, mark)
		}
		v.Matrix.Rows = append(v.Matrix.Rows, row)
	}
	for i, ir := range r.Implementations {
		v.Columns = append(v.Columns, column{columnCode(i), ir.Name})
	}
	return v
}

// autoscaleView is what the autoscaler scenarios found.
type autoscaleView struct {
	Note   string
	Passed bool
	Groups []scenarioGroup
	// About is the repository's description of the scenarios and the
	// columns ("" when not found).
	About string
}

// scenarioGroup is one kind of scenarios (I/O, CPU) as one run found them.
type scenarioGroup struct {
	Label, Time string
	Scenarios   []scenarioView
	Wins, Met   int
	// JSON is the results as the tests wrote them.
	JSON string
}

// scenarioView is one scenario's judgement, table and plot.
type scenarioView struct {
	Name      string
	Judgement string
	Table     table
	Plot      string // "" when none was drawn
}

// Verdict says how often poolkit met the reference and beat every
// baseline.
func (g scenarioGroup) Verdict() string {
	return fmt.Sprintf("poolkit meets the reference (throughput, worker-seconds, p99 wait, end-to-end p99 wait) in %d of %d %s scenarios, "+
		"and beats every baseline on worker-seconds at equal p99 wait in %d.", g.Met, len(g.Scenarios), g.Label, g.Wins)
}

// newScenarioGroup lays out one results file; plots is the folder of the
// plots.
func newScenarioGroup(r eval.Results, json, plots string, exists func(string) bool) scenarioGroup {
	g := scenarioGroup{Label: r.Label(), Wins: r.Wins(), Met: r.Met(), JSON: json}
	g.Time = "fake time (testing/synctest)"
	if r.Kind != "io" {
		g.Time = fmt.Sprintf("real time, GOMAXPROCS=%d, %s", r.GOMAXPROCS, r.Date)
	}
	for _, s := range r.Scenarios {
		sv := scenarioView{Name: s.Name, Judgement: s.Judgement(), Table: scenarioTable(s)}
		if p := filepath.Join(plots, s.Plot); exists(p) {
			sv.Plot = p
		}
		g.Scenarios = append(g.Scenarios, sv)
	}
	return g
}

// scenarioTable lays a scenario's results out, the reference first, with
// the columns of the results' own tables (whose README explains them) and
// the report's number formats.
func scenarioTable(s eval.ScenarioResult) table {
	t := table{Header: []string{"controller", "throughput", "vs ref", "p50 wait", "p99 wait", "end-to-end p99", "worker-s", "vs ref",
		"rejected", "resizes/min", "flaps/min", "final", "settle up", "settle down", "overshoot", "offset"}}
	o := s.Reference
	settle := func(d time.Duration, steps int) string {
		switch {
		case steps == 0:
			return "–"
		case d == eval.Never:
			return "never"
		}
		return formatTime(d)
	}
	for i, r := range append([]eval.Result{o}, s.Runs...) {
		name := r.Controller
		if i == 0 {
			name = "reference (" + name + ")"
		}
		overshoot, offset := "–", "–"
		if s.StepsUp > 0 {
			overshoot = formatChange(r.Overshoot)
		}
		if r.Offset != nil {
			offset = formatChange(*r.Offset)
		}
		t.Rows = append(t.Rows, []string{name, formatRate(r.Throughput), formatRatio(r.Throughput / o.Throughput),
			formatTime(r.WaitP50), formatTime(r.WaitP99), formatTime(r.EndWaitP99), formatCount(r.WorkerSeconds), formatRatio(r.WorkerSeconds / o.WorkerSeconds),
			formatCount(float64(r.Rejected)), formatCount(r.ResizesPerMinute), formatCount(r.Flaps), formatCount(float64(r.Final)),
			settle(r.SettleUp, s.StepsUp), settle(r.SettleDown, s.StepsDown), overshoot, offset})
	}
	return t
}

// plural says n things: "1 round", "3 rounds".
func plural(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return fmt.Sprintf("%d %ss", n, thing)
}
