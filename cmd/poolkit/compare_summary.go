package main

import (
	"bytes"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/perf/benchfmt"
	"golang.org/x/perf/benchmath"
	"golang.org/x/perf/benchunit"
)

// How compare tells a change from noise, as benchstat does: each side's
// figures for a benchmark (one per round) are summarised by their median,
// with its distribution-free 95% interval (benchmath.AssumeNothing), and
// the two sides are compared with the Mann-Whitney U test. A change is
// reported only when the test rejects "both sides come from one
// distribution" at the 5% level and the two medians' intervals do not
// overlap; anything less is noise ("~").

// compareConfidence is the confidence of each median's interval.
const compareConfidence = 0.95

// samples are the figures one side measured: for each benchmark and unit,
// one per run, with the keys in the order they first appeared.
type samples struct {
	keys   []sampleKey
	values map[sampleKey][]float64
}

// sampleKey is a benchmark (without "Benchmark" and without the GOMAXPROCS
// suffix), the GOMAXPROCS it ran at (from that suffix; 0 without one), and
// a unit as benchfmt tidies it (sec/op, B/op, allocs/op, goroutines/op).
type sampleKey struct {
	bench string
	procs int
	unit  string
}

// procs lists the GOMAXPROCS values s has figures at, smallest first.
func (s samples) procs() []int {
	var ps []int
	for _, k := range s.keys {
		if !slices.Contains(ps, k.procs) {
			ps = append(ps, k.procs)
		}
	}
	slices.Sort(ps)
	return ps
}

// benchmarks is how many benchmarks s has figures of.
func (s samples) benchmarks() int {
	var names []string
	for _, k := range s.keys {
		if !slices.Contains(names, k.bench) {
			names = append(names, k.bench)
		}
	}
	return len(names)
}

// readSamples reads the output of test binaries, in Go's benchmark format;
// file names it in errors.
func readSamples(data []byte, file string) (samples, error) {
	s := samples{values: map[sampleKey][]float64{}}
	rd := benchfmt.NewReader(bytes.NewReader(data), file)
	for rd.Scan() {
		res, ok := rd.Result().(*benchfmt.Result)
		if !ok {
			continue // the file's configuration lines, unit metadata
		}
		base, parts := res.Name.Parts()
		name := strings.TrimPrefix(string(base), "Benchmark")
		procs := 0
		for _, p := range parts {
			if n, ok := bytes.CutPrefix(p, []byte("-")); ok { // -N is GOMAXPROCS
				procs, _ = strconv.Atoi(string(n))
			} else {
				name += string(p)
			}
		}
		for _, v := range res.Values {
			k := sampleKey{name, procs, v.Unit}
			if _, ok := s.values[k]; !ok {
				s.keys = append(s.keys, k)
			}
			s.values[k] = append(s.values[k], v.Value)
		}
	}
	return s, rd.Err()
}

// compareView is what compare found, as the text template shows it.
type compareView struct {
	// Machine is where the benchmarks ran, Load the 1-minute load
	// average before and after, Busy whether the first was above busyLoad.
	Machine, Load string
	Busy          bool
	// Base and Tree name the two sides; Source says where the base's
	// benchmarks came from when not from the working tree.
	Base, Tree, Source string
	// Runs says how they ran: rounds, benchtime, benchmarks.
	Runs string
	// Tables holds one table per unit: sec/op, B/op, allocs/op, then any
	// other.
	Tables []compareTable
	// Scaling holds, when the benchmarks ran at several GOMAXPROCS values
	// (-cpu), each side's time per op at each against its time at the
	// fewest; nil otherwise.
	Scaling *scalingTable
	// OnlyBase and OnlyTree are the benchmarks that ran on one side only.
	OnlyBase, OnlyTree []string
	// BaseRaw and TreeRaw are the raw results, as the binaries printed
	// them (benchstat's input).
	BaseRaw, TreeRaw string
	Elapsed          string
}

// compareTable is one unit's comparisons, with their geometric mean for
// time.
type compareTable struct {
	Unit    string
	Rows    []compareRow
	Geomean *geomean // nil but for sec/op
}

// compareRow is one benchmark's figures in one unit on both sides.
type compareRow struct {
	Bench      string // with its GOMAXPROCS suffix when the run had several
	Name       string // without it
	Procs      int
	Base, Tree benchmath.Summary
	Cmp        benchmath.Comparison
	Change     change
}

// geomean is the geometric mean of a table's medians on each side.
type geomean struct{ Base, Tree float64 }

// change is the verdict on one row.
type change int

const (
	// noise: no change told apart from noise.
	noise change = iota
	lower
	higher
)

// Verdict says what the change means for the unit: faster or slower for
// time, lower or higher for the others, "~" for noise.
func (r compareRow) Verdict(unit string) string {
	switch {
	case r.Change == lower && unit == "sec/op":
		return "faster"
	case r.Change == higher && unit == "sec/op":
		return "slower"
	case r.Change == lower:
		return "lower"
	case r.Change == higher:
		return "higher"
	}
	return "~"
}

// Ratio is the tree's median over the base's: NaN when the base's is 0.
func (r compareRow) Ratio() float64 { return ratio(r.Tree.Center, r.Base.Center) }

func ratio(tree, base float64) float64 {
	if base == 0 {
		return math.NaN()
	}
	return tree / base
}

// changeOf is the verdict on two sides' summaries and their comparison.
func changeOf(base, tree benchmath.Summary, cmp benchmath.Comparison) change {
	overlap := tree.Lo <= base.Hi && base.Lo <= tree.Hi
	switch {
	case cmp.P > cmp.Alpha || overlap:
		return noise
	case tree.Center < base.Center:
		return lower
	case tree.Center > base.Center:
		return higher
	}
	return noise
}

// newCompareView compares what the two sides measured: every benchmark
// and unit that both have, in the order they ran.
func newCompareView(base, tree samples) compareView {
	var v compareView
	several := len(base.procs()) > 1
	byUnit := map[string]*compareTable{}
	var units []string
	for _, k := range base.keys {
		t, ok := tree.values[k]
		if !ok {
			continue
		}
		b := base.values[k]
		if byUnit[k.unit] == nil {
			byUnit[k.unit] = &compareTable{Unit: k.unit}
			units = append(units, k.unit)
		}
		row := compareRow{Bench: k.name(several), Name: k.bench, Procs: k.procs,
			Base: summaryOf(b, compareConfidence), Tree: summaryOf(t, compareConfidence)}
		row.Cmp = benchmath.AssumeNothing.Compare(sampleOf(b), sampleOf(t))
		row.Change = changeOf(row.Base, row.Tree, row.Cmp)
		byUnit[k.unit].Rows = append(byUnit[k.unit].Rows, row)
	}
	rank := func(u string) int {
		if i := slices.Index([]string{"sec/op", "B/op", "allocs/op"}, u); i >= 0 {
			return i
		}
		return 3
	}
	slices.SortStableFunc(units, func(a, b string) int { return rank(a) - rank(b) })
	for _, u := range units {
		t := byUnit[u]
		if u == "sec/op" {
			t.Geomean = geomeanOf(t.Rows)
			if several {
				v.Scaling = newScalingTable(t.Rows)
			}
		}
		v.Tables = append(v.Tables, *t)
	}
	v.OnlyBase = onlyIn(base, tree, several)
	v.OnlyTree = onlyIn(tree, base, several)
	return v
}

// name is the benchmark's name as the tables show it: with its GOMAXPROCS
// suffix when the run had several.
func (k sampleKey) name(several bool) string {
	if several && k.procs > 0 {
		return fmt.Sprintf("%s-%d", k.bench, k.procs)
	}
	return k.bench
}

// scalingTable is how each benchmark's time per op grows with GOMAXPROCS
// on each side: the median at each count against the median at the
// fewest that benchmark ran at. A benchmark whose work does not grow with
// the count (a fixed pool, one op a task) scales perfectly at 1.00; above
// it, each op costs more as cores are added.
type scalingTable struct{ Rows []scalingRow }

type scalingRow struct {
	Bench      string
	Procs      int
	Base, Tree float64 // medians, seconds per op
	// BaseGrowth and TreeGrowth are Base and Tree against the same side's
	// median at the fewest GOMAXPROCS.
	BaseGrowth, TreeGrowth float64
}

func newScalingTable(rows []compareRow) *scalingTable {
	first := map[string]compareRow{}
	var names []string
	for _, r := range rows {
		f, ok := first[r.Name]
		if !ok {
			names = append(names, r.Name)
		}
		if !ok || r.Procs < f.Procs {
			first[r.Name] = r
		}
	}
	var t scalingTable
	for _, name := range names {
		var own []compareRow
		for _, r := range rows {
			if r.Name == name {
				own = append(own, r)
			}
		}
		slices.SortFunc(own, func(a, b compareRow) int { return a.Procs - b.Procs })
		f := first[name]
		for _, r := range own {
			t.Rows = append(t.Rows, scalingRow{Bench: name, Procs: r.Procs, Base: r.Base.Center, Tree: r.Tree.Center,
				BaseGrowth: ratio(r.Base.Center, f.Base.Center), TreeGrowth: ratio(r.Tree.Center, f.Tree.Center)})
		}
	}
	return &t
}

// Table lays the scaling out for the terminal.
func (t scalingTable) Table() table {
	out := table{Header: []string{"sec/op", "GOMAXPROCS", "base", "tree", "tree/base", "base ÷ fewest", "tree ÷ fewest"}}
	cls := benchunit.ClassOf("sec/op")
	for _, r := range t.Rows {
		out.Rows = append(out.Rows, []string{r.Bench, strconv.Itoa(r.Procs),
			benchunit.Scale(r.Base, cls), benchunit.Scale(r.Tree, cls), benchstatRatio(ratio(r.Tree, r.Base)),
			benchstatRatio(r.BaseGrowth), benchstatRatio(r.TreeGrowth)})
	}
	return out
}

// geomeanOf is the geometric mean of the rows' medians on each side, over
// the rows whose medians are positive on both; nil when there is none.
func geomeanOf(rows []compareRow) *geomean {
	var lb, lt float64
	n := 0
	for _, r := range rows {
		if r.Base.Center > 0 && r.Tree.Center > 0 {
			lb += math.Log(r.Base.Center)
			lt += math.Log(r.Tree.Center)
			n++
		}
	}
	if n == 0 {
		return nil
	}
	return &geomean{math.Exp(lb / float64(n)), math.Exp(lt / float64(n))}
}

// onlyIn lists the benchmarks of a that b has no figure of.
func onlyIn(a, b samples, several bool) []string {
	var names []string
	for _, k := range a.keys {
		if _, ok := b.values[k]; !ok && !slices.Contains(names, k.name(several)) {
			names = append(names, k.name(several))
		}
	}
	return names
}

// Table lays the comparisons out for the terminal: benchstat's columns,
// each median with the wider side of its interval in percent.
func (t compareTable) Table() table {
	out := table{Header: []string{t.Unit, "base", "tree", "tree/base", "p", "verdict"}}
	cls := benchunit.ClassOf(t.Unit)
	for _, r := range t.Rows {
		out.Rows = append(out.Rows, []string{r.Bench,
			withSpread(r.Base, cls), withSpread(r.Tree, cls),
			benchstatRatio(r.Ratio()), r.Cmp.String(), r.Verdict(t.Unit)})
	}
	if g := t.Geomean; g != nil {
		out.Rows = append(out.Rows, []string{"geomean",
			benchunit.Scale(g.Base, cls), benchunit.Scale(g.Tree, cls), benchstatRatio(ratio(g.Tree, g.Base)), "", ""})
	}
	return out
}

// withSpread is a median with its spread: "162.1n ± 3%".
func withSpread(s benchmath.Summary, cls benchunit.Class) string {
	return benchunit.Scale(s.Center, cls) + " ± " + s.PctRangeString()
}

// benchstatRatio is a ratio as benchstat writes it, with three decimals;
// "–" when there is none.
func benchstatRatio(r float64) string {
	if math.IsNaN(r) || math.IsInf(r, 0) {
		return "–"
	}
	return fmt.Sprintf("%.3f", r)
}

// compareNote says how to read the tables.
func compareNote() string {
	return fmt.Sprintf("Each cell is the median over the rounds ± the wider side of its %.0f%% interval "+
		"(∞ with fewer than %d rounds). tree/base is the ratio of the medians: below 1, the working tree is faster "+
		"or allocates less. p is the Mann-Whitney U test's p-value that both sides come from one distribution, n the "+
		"rounds. The verdict is ~ (noise) unless p ≤ %.2f and the two intervals do not overlap.",
		100*compareConfidence, intervalRounds(compareConfidence), benchmath.DefaultThresholds.CompareAlpha)
}
