package main

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/poolkit/poolkit/bench"
)

// The actor benchmarks live in bench/actors, a module of its own (it
// imports protoactor-go and GoAkt, which poolkit's module must not), so
// they run as a test binary built from the source tree, in rounds (see
// testbin.go): every round runs every group once, and a group runs each
// workload over every contender, one after the other, in one process.

// actorGroup is a set of actor workloads run with one fixed iteration
// count: a workload's op is a message or a request, and fixed counts keep
// the heavy workloads (100,000 actors) out of the benchmark's ramp-up.
type actorGroup struct {
	workloads   []string
	sub         string // a sub-benchmark pattern appended to the workloads'
	quick, full string // -test.benchtime; "" leaves the group out
}

var actorGroups = []actorGroup{
	{[]string{"PingPong", "FanIn", "Router"}, "", "200000x", "1000000x"},
	{[]string{"Ask", "Serializer"}, "", "100000x", "300000x"},
	{[]string{"Budget"}, "", "20000x", "50000x"},
	// GoAkt starts a goroutine per actor and takes about 10 s to spawn and
	// stop 100,000 of them: the quick run stops at 10,000.
	{[]string{"FanOut"}, "//^actors=10000$", "200000x", ""},
	{[]string{"FanOut"}, "", "", "1000000x"},
}

// actorWorkloads names every actor workload, for -actors.
func actorWorkloads() []string {
	var names []string
	for _, g := range actorGroups {
		for _, w := range g.workloads {
			if !slices.Contains(names, w) {
				names = append(names, w)
			}
		}
	}
	return names
}

// actorRuns are the groups this configuration runs, restricted to the
// workloads -actors selects.
func actorRuns(c config) []benchRun {
	round, all := actorRoundQuick, 0
	if c.full {
		round = actorRoundFull
	}
	for _, g := range actorGroups {
		if (c.full && g.full != "") || (!c.full && g.quick != "") {
			all += len(g.workloads)
		}
	}
	var runs []benchRun
	for _, g := range actorGroups {
		bt := g.quick
		if c.full {
			bt = g.full
		}
		var ws []string
		for _, w := range g.workloads {
			if c.actors == nil || c.actors.MatchString(w) {
				ws = append(ws, w)
			}
		}
		if bt == "" || len(ws) == 0 {
			continue
		}
		runs = append(runs, benchRun{pattern: "^Benchmark(" + strings.Join(ws, "|") + ")$" + g.sub, benchtime: bt,
			time: round * time.Duration(len(ws)) / time.Duration(all)})
	}
	return runs
}

// actorMetrics are the metrics the table shows, in order; the others
// (ns/op, B/op, allocs/op, stack bytes) stay in the raw file.
var actorMetrics = []string{"msg/s", "p50-ns", "p99-ns", "cold-p50-ns", "cold-p99-ns", "hot-msg/s", "heapB/actor", "goroutines/actor"}

// higherIsBetter says which way a metric points.
func higherIsBetter(unit string) bool { return strings.HasSuffix(unit, "msg/s") }

// actorResults is what the actors stage measured, as data: it is written
// as JSON beside the raw results, and the tables are rendered from it.
type actorResults struct {
	Machine string
	Rounds  int
	Impls   []string // contenders, poolkit first
	Rows    []actorRow
}

// actorRow is one metric of one benchmark configuration.
type actorRow struct {
	Bench  string // e.g. PingPong/inflight=1
	Metric string
	Higher bool // higher is better
	Cells  map[string]actorCell
}

// actorCell is one contender's figure: the median over the rounds and
// poolkit's advantage, the ratio of the two medians oriented so that above
// 1 means poolkit did better (the other's over poolkit's for a cost,
// poolkit's over the other's for a rate), with its 95% interval (see
// stats.go). The advantage is 0 for poolkit itself, where poolkit has no
// figure, and for goroutines per actor, where a ratio of near-zeros says
// nothing; the interval is absent when the rounds were too few for one.
type actorCell struct {
	Median      float64
	Advantage   float64 `json:",omitempty"`
	AdvantageLo float64 `json:",omitempty"`
	AdvantageHi float64 `json:",omitempty"`
}

// actorsOutcome is what the actors stage wrote.
type actorsOutcome struct {
	results *actorResults
	raw     string // benchstat-format file
	data    string // JSON
}

// runActors builds the actor benchmarks from the source tree at root and
// runs them in rounds. The cancelling of ctx stops the build or the
// benchmarks, and runActors returns its error.
func runActors(ctx context.Context, c config, root string, prog progress, stdout io.Writer) (*actorsOutcome, error) {
	outs, err := runBinRounds(ctx, c, root, "actors", "bench/actors (a first build fetches and compiles protoactor-go and GoAkt: minutes)",
		actorRuns(c), prog)
	if err != nil {
		return nil, err
	}
	res, err := summarizeActors(outs)
	if err != nil {
		return nil, err
	}
	res.Machine = bench.ThisMachine().String()
	o := &actorsOutcome{results: res}
	if o.raw, o.data, err = writeBinResults(c, "actors", outs, res); err != nil {
		return nil, err
	}
	fmt.Fprintf(stdout, "\nActors. Machine: %s. %s.\n\n", res.Machine, res.Note())
	if err := renderText(stdout, "actors", res); err != nil {
		return nil, err
	}
	fmt.Fprintf(stdout, "\nRaw results (benchstat -col /impl %s): %s; as data: %s\n", o.raw, o.raw, o.data)
	return o, nil
}

// summarizeActors reads the raw output of each round (Go's benchmark
// format, sub-benchmarks named impl=NAME) and computes the table.
func summarizeActors(rounds [][]byte) (*actorResults, error) {
	f, err := readBinRounds(rounds, actorMetrics)
	if err != nil {
		return nil, err
	}
	if len(f.keys) == 0 {
		return nil, fmt.Errorf("the actor benchmarks reported no results")
	}
	// poolkit first, the others in the order they ran.
	impls := f.impls
	if i := slices.Index(impls, "poolkit"); i > 0 {
		impls = append([]string{"poolkit"}, slices.Delete(impls, i, i+1)...)
	}
	// Rows grouped by benchmark in the order they ran, each benchmark's
	// metrics in actorMetrics order.
	var order []figureKey
	for _, b := range f.benches() {
		for _, m := range actorMetrics {
			if f.values[figureKey{b, m}] != nil {
				order = append(order, figureKey{b, m})
			}
		}
	}
	res := &actorResults{Rounds: len(rounds), Impls: impls}
	for _, k := range order {
		row := actorRow{Bench: k.bench, Metric: k.metric, Higher: higherIsBetter(k.metric), Cells: map[string]actorCell{}}
		base, hasBase := f.values[k]["poolkit"]
		p := medianOf(base)
		for impl, xs := range f.values[k] {
			m := medianOf(xs)
			cell := actorCell{Median: m.Center}
			if hasBase && impl != "poolkit" && row.Metric != "goroutines/actor" && p.Center > 0 && m.Center > 0 {
				adv := ratioOf(m, p)
				if row.Higher {
					adv = ratioOf(p, m)
				}
				cell.Advantage = adv.Center
				if adv.finite() {
					cell.AdvantageLo, cell.AdvantageHi = adv.Lo, adv.Hi
				}
			}
			row.Cells[impl] = cell
		}
		res.Rows = append(res.Rows, row)
	}
	return res, nil
}

// Note says what the figures are, for the line above a table.
func (a *actorResults) Note() string {
	return fmt.Sprintf("Medians of %s; in brackets poolkit's advantage, the ratio of the other's median to poolkit's "+
		"(of poolkit's to the other's for a rate), above 1 when poolkit did better, with its 95%% interval when there "+
		"were at least %d rounds", plural(a.Rounds, "round"), intervalRounds(medianConfidence))
}

// Cell formats one contender's figure in a row, with poolkit's advantage.
func (r actorRow) Cell(impl string) string {
	c, ok := r.Cells[impl]
	if !ok {
		return ""
	}
	s := metricOf(r.Metric).format(c.Median)
	switch {
	case c.AdvantageHi > 0:
		s += fmt.Sprintf(" (%s, %s)", formatRatio(c.Advantage), formatRatioRange(c.AdvantageLo, c.AdvantageHi))
	case c.Advantage > 0:
		s += fmt.Sprintf(" (%s)", formatRatio(c.Advantage))
	}
	return s
}

// Label names the row's metric, whose unit is in its values.
func (r actorRow) Label() string { return metricOf(r.Metric).label }

// Direction says which way the row's metric points.
func (r actorRow) Direction() string {
	if r.Higher {
		return "higher is better"
	}
	return "lower is better"
}

// Compared are the rows with a figure from more than one contender.
func (a *actorResults) Compared() []actorRow {
	return slices.DeleteFunc(slices.Clone(a.Rows), func(r actorRow) bool { return len(r.Cells) < 2 })
}

// Alone are the rows with poolkit's figure only.
func (a *actorResults) Alone() []actorRow {
	return slices.DeleteFunc(slices.Clone(a.Rows), func(r actorRow) bool { return len(r.Cells) >= 2 })
}
