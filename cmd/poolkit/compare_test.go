package main

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"golang.org/x/perf/benchmath"
)

// rawRounds is rounds of test binary output, as compare collects them:
// the header lines of every run, then a line per benchmark, whose ns/op
// in round r is ns(r).
func rawRounds(rounds int, lines func(r int) string) []byte {
	var b strings.Builder
	for r := range rounds {
		fmt.Fprintf(&b, "goos: linux\ngoarch: amd64\npkg: hotpathprobe\ncpu: Test CPU\n%sPASS\n", lines(r))
	}
	return []byte(b.String())
}

// TestCompareSummary: six rounds a side; a benchmark 20% slower in every
// round is "slower", one that moves within its spread is noise, zero
// allocations on both sides are noise without a ratio, and the geomean
// is of the medians.
func TestCompareSummary(t *testing.T) {
	base := rawRounds(6, func(r int) string {
		return fmt.Sprintf("BenchmarkTinyTasks-2 \t 1000\t %d ns/op\t 0 B/op\t 0 allocs/op\n"+
			"BenchmarkRouter/producers=1/workers=2-2 \t 1000\t %d ns/op\t 32 B/op\t 0 allocs/op\n"+
			"BenchmarkGone-2 \t 1000\t 5 ns/op\n", 100+r, 200+10*(r%3))
	})
	tree := rawRounds(6, func(r int) string {
		return fmt.Sprintf("BenchmarkTinyTasks-2 \t 1000\t %d ns/op\t 0 B/op\t 0 allocs/op\n"+
			"BenchmarkRouter/producers=1/workers=2-2 \t 1000\t %d ns/op\t 32 B/op\t 1 allocs/op\n"+
			"BenchmarkNew-2 \t 1000\t 5 ns/op\n", 120+r, 205+10*((r+1)%3))
	})
	bs, err := readSamples(base, "base")
	if err != nil {
		t.Fatal(err)
	}
	ts, err := readSamples(tree, "tree")
	if err != nil {
		t.Fatal(err)
	}
	v := newCompareView(bs, ts)
	var units []string
	for _, tb := range v.Tables {
		units = append(units, tb.Unit)
	}
	if want := []string{"sec/op", "B/op", "allocs/op"}; !reflect.DeepEqual(units, want) {
		t.Fatalf("tables %v, want %v", units, want)
	}
	row := func(unit, bench string) compareRow {
		t.Helper()
		for _, tb := range v.Tables {
			for _, r := range tb.Rows {
				if tb.Unit == unit && r.Bench == bench {
					return r
				}
			}
		}
		t.Fatalf("no %s row for %s", unit, bench)
		return compareRow{}
	}
	tiny := row("sec/op", "TinyTasks")
	if tiny.Verdict("sec/op") != "slower" || math.Abs(tiny.Ratio()-122.5/102.5) > 1e-9 {
		t.Errorf("TinyTasks: %s, ratio %v; want slower, %v", tiny.Verdict("sec/op"), tiny.Ratio(), 122.5/102.5)
	}
	if tiny.Cmp.P > 0.01 {
		t.Errorf("TinyTasks: p = %v for six rounds apart", tiny.Cmp.P)
	}
	if r := row("sec/op", "Router/producers=1/workers=2"); r.Verdict("sec/op") != "~" {
		t.Errorf("Router within its spread: %s (p=%v)", r.Verdict("sec/op"), r.Cmp.P)
	}
	if r := row("allocs/op", "TinyTasks"); r.Verdict("allocs/op") != "~" || !math.IsNaN(r.Ratio()) {
		t.Errorf("0 allocs on both sides: %s, ratio %v", r.Verdict("allocs/op"), r.Ratio())
	}
	if r := row("allocs/op", "Router/producers=1/workers=2"); r.Verdict("allocs/op") != "higher" {
		t.Errorf("0 allocs to 1: %s", r.Verdict("allocs/op"))
	}
	g := v.Tables[0].Geomean
	if g == nil || math.Abs(g.Base-math.Sqrt(102.5e-9*210e-9)) > 1e-15 {
		t.Errorf("geomean %+v, want base %v", g, math.Sqrt(102.5e-9*210e-9))
	}
	if v.Tables[1].Geomean != nil {
		t.Error("a geomean of B/op")
	}
	if !reflect.DeepEqual(v.OnlyBase, []string{"Gone"}) || !reflect.DeepEqual(v.OnlyTree, []string{"New"}) {
		t.Errorf("only in base %v, only in tree %v", v.OnlyBase, v.OnlyTree)
	}

	v.Machine, v.Load, v.Base, v.Tree, v.Runs, v.Elapsed = "Test CPU", "0.10 at the start", "HEAD (abc1234 subject)", "the working tree", "6 rounds", "1m0s"
	v.BaseRaw, v.TreeRaw = "/r/compare-base.txt", "/r/compare-tree.txt"
	var text strings.Builder
	if err := renderText(&text, "compare", v); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"base: HEAD (abc1234 subject)", "tree/base", "102.5n ± 2%", "122.5n ± 2%", "1.195",
		"p=0.002 n=6", "slower", "geomean", "higher", "Only in base (not compared): Gone", "Only in tree (not compared): New",
		"benchstat base=/r/compare-base.txt tree=/r/compare-tree.txt"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("the text lacks %q:\n%s", want, text.String())
		}
	}
	if strings.Contains(text.String(), "busy") {
		t.Errorf("an idle machine said to be busy:\n%s", text.String())
	}
}

// TestCompareScaling: benchmarks run at several GOMAXPROCS are compared
// at each, named with their suffix, and the scaling table sets each
// side's median at each count against its own at the fewest.
func TestCompareScaling(t *testing.T) {
	// The base costs 100 ns per op at 2 and 400 at 16; the tree 110 and 121.
	at := func(base bool) func(int) string {
		return func(r int) string {
			if base {
				return fmt.Sprintf("BenchmarkSubmitParallel-2 \t 1000\t %d ns/op\nBenchmarkSubmitParallel-16 \t 1000\t %d ns/op\n", 100+r%2, 400+r%2)
			}
			return fmt.Sprintf("BenchmarkSubmitParallel-2 \t 1000\t %d ns/op\nBenchmarkSubmitParallel-16 \t 1000\t %d ns/op\n", 110+r%2, 121+r%2)
		}
	}
	bs, err := readSamples(rawRounds(6, at(true)), "base")
	if err != nil {
		t.Fatal(err)
	}
	ts, err := readSamples(rawRounds(6, at(false)), "tree")
	if err != nil {
		t.Fatal(err)
	}
	v := newCompareView(bs, ts)
	var names []string
	for _, r := range v.Tables[0].Rows {
		names = append(names, r.Bench)
	}
	if want := []string{"SubmitParallel-2", "SubmitParallel-16"}; !reflect.DeepEqual(names, want) {
		t.Fatalf("rows %v, want %v", names, want)
	}
	if v.Scaling == nil || len(v.Scaling.Rows) != 2 {
		t.Fatalf("scaling %+v, want two rows", v.Scaling)
	}
	r16 := v.Scaling.Rows[1]
	if r16.Procs != 16 || math.Abs(r16.BaseGrowth-400.5/100.5) > 1e-9 || math.Abs(r16.TreeGrowth-121.5/110.5) > 1e-9 {
		t.Errorf("at 16: %+v, want growth %v and %v", r16, 400.5/100.5, 121.5/110.5)
	}
	if r2 := v.Scaling.Rows[0]; r2.Procs != 2 || r2.BaseGrowth != 1 || r2.TreeGrowth != 1 {
		t.Errorf("at 2: %+v, want growth 1 on both sides", r2)
	}
	var text strings.Builder
	if err := renderText(&text, "compare", v); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Scaling:", "GOMAXPROCS", "tree ÷ fewest", "3.985", "1.100"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("the text lacks %q:\n%s", want, text.String())
		}
	}
	// One GOMAXPROCS: no suffix, no scaling table.
	one, err := readSamples(rawRounds(6, func(r int) string { return "BenchmarkTinyTasks-2 \t 1000\t 100 ns/op\n" }), "one")
	if err != nil {
		t.Fatal(err)
	}
	if v := newCompareView(one, one); v.Scaling != nil || v.Tables[0].Rows[0].Bench != "TinyTasks" {
		t.Errorf("one GOMAXPROCS: scaling %+v, row %q", v.Scaling, v.Tables[0].Rows[0].Bench)
	}
}

// TestCompareVerdict: a change needs both a small p and intervals apart.
func TestCompareVerdict(t *testing.T) {
	sum := func(c, lo, hi float64) benchmath.Summary { return benchmath.Summary{Center: c, Lo: lo, Hi: hi} }
	cmp := func(p float64) benchmath.Comparison { return benchmath.Comparison{P: p, Alpha: 0.05} }
	inf := math.Inf(1)
	for _, c := range []struct {
		name       string
		base, tree benchmath.Summary
		cmp        benchmath.Comparison
		want       change
	}{
		{"apart, significant, faster", sum(100, 98, 102), sum(90, 89, 91), cmp(0.002), lower},
		{"apart, significant, slower", sum(100, 98, 102), sum(110, 109, 111), cmp(0.002), higher},
		{"apart, not significant", sum(100, 98, 102), sum(110, 109, 111), cmp(0.2), noise},
		{"significant, overlapping", sum(100, 95, 105), sum(104, 103, 108), cmp(0.03), noise},
		{"too few rounds for intervals", sum(100, -inf, inf), sum(200, -inf, inf), cmp(0.03), noise},
		{"same", sum(100, 100, 100), sum(100, 100, 100), cmp(1), noise},
	} {
		if got := changeOf(c.base, c.tree, c.cmp); got != c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
	for _, c := range []struct {
		change     change
		unit, want string
	}{
		{lower, "sec/op", "faster"}, {higher, "sec/op", "slower"}, {lower, "B/op", "lower"},
		{higher, "allocs/op", "higher"}, {noise, "sec/op", "~"},
	} {
		if got := (compareRow{Change: c.change}).Verdict(c.unit); got != c.want {
			t.Errorf("%v in %s: %q, want %q", c.change, c.unit, got, c.want)
		}
	}
	// Its default rounds are the fewest that give each median an interval.
	if got := intervalRounds(compareConfidence); got != compareRounds {
		t.Errorf("a 95%% interval needs %d rounds, compare runs %d by default", got, compareRounds)
	}
}

// TestCompareScratchGoMod: the scratch module requires poolkit from the
// source tree and the other modules the files import at the versions of
// the module they come from; the standard library and poolkit's own
// packages need no line.
func TestCompareScratchGoMod(t *testing.T) {
	req := requirements([]byte("module x\n\ngo 1.25\n\nrequire go.uber.org/goleak v1.3.0 // indirect\n\n" +
		"require (\n\tgithub.com/a/b v1.0.0\n\tgithub.com/a/b/c v2.0.0 // indirect\n)\n"))
	if want := map[string]string{"go.uber.org/goleak": "v1.3.0", "github.com/a/b": "v1.0.0", "github.com/a/b/c": "v2.0.0"}; !reflect.DeepEqual(req, want) {
		t.Errorf("requirements %v, want %v", req, want)
	}
	got := string(scratchGoMod("/src/poolkit", []string{"testing", "go.uber.org/goleak", "github.com/poolkit/poolkit/pool",
		"github.com/a/b/c/d", "go.uber.org/goleak"}, req))
	want := "module hotpathprobe\n\ngo 1.25\n\nrequire github.com/poolkit/poolkit v0.0.0\n" +
		"require go.uber.org/goleak v1.3.0\nrequire github.com/a/b/c v2.0.0\n\n" +
		"replace github.com/poolkit/poolkit => /src/poolkit\n"
	if got != want {
		t.Errorf("go.mod:\n%s\nwant:\n%s", got, want)
	}
}

func TestParseArgsCompare(t *testing.T) {
	for _, c := range []struct {
		args []string
		want config
	}{
		{[]string{"compare"}, config{command: "compare", rounds: compareRounds, out: "poolkit-report",
			compare: compareConfig{base: "HEAD", bench: ".", benchtime: "200ms"}}},
		{[]string{"-base", "main", "compare", "-rounds", "2", "-bench", "TinyTasks|PingPong", "-benchtime", "1x", "-plain"},
			config{command: "compare", rounds: 2, out: "poolkit-report", plain: true,
				compare: compareConfig{base: "main", bench: "TinyTasks|PingPong", benchtime: "1x"}}},
		{[]string{"compare", "-cpu", "2,4,8,16"}, config{command: "compare", rounds: compareRounds, out: "poolkit-report",
			compare: compareConfig{base: "HEAD", bench: ".", benchtime: "200ms", cpu: "2,4,8,16"}}},
		// The other commands carry no compare settings.
		{[]string{"bench"}, config{command: "bench", rounds: 3, out: "poolkit-report"}},
	} {
		got, err := parseArgs(c.args)
		if err != nil {
			t.Errorf("%q: %v", c.args, err)
			continue
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%q:\n got %+v\nwant %+v", c.args, got, c.want)
		}
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"compare", "-base", ""}, "want a branch, tag or commit"},
		{[]string{"compare", "-base", "--output=x"}, "want a branch, tag or commit"},
		{[]string{"compare", "-bench", "("}, "-bench"},
		{[]string{"compare", "-benchtime", "soon"}, `-benchtime "soon"`},
		{[]string{"compare", "-benchtime", "0x"}, "-benchtime"},
		{[]string{"compare", "-rounds", "0"}, "want at least 1"},
		{[]string{"compare", "-cpu", "2,0"}, `-cpu "2,0"`},
		{[]string{"compare", "-cpu", "two"}, `-cpu "two"`},
		{[]string{"compare", "-cpu", "2,4,2"}, "2 is given twice"},
		{[]string{"bench", "-cpu", "2"}, "-cpu applies to compare, not bench"},
		{[]string{"compare", "-full"}, "-full does not apply to compare"},
		{[]string{"compare", "-workloads", "TinyTasks"}, "-workloads applies to report and bench, not compare"},
		{[]string{"compare", "-readme", "README.md"}, "-readme applies to report, not compare"},
		{[]string{"bench", "-base", "main"}, "-base applies to compare, not bench"},
		{[]string{"-benchtime", "1s"}, "-benchtime applies to compare, not report"},
		{[]string{"help", "nonsense"}, "help nonsense: no such command"},
		{[]string{"help", "bench", "spec"}, "unexpected arguments after help"},
	} {
		_, err := parseArgs(c.args)
		if err == nil {
			t.Errorf("%q accepted", c.args)
			continue
		}
		if !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want an error saying %q", c.args, err, c.want)
		}
	}
	if c, err := parseArgs([]string{"help", "compare"}); err != errHelp || c.help != "compare" {
		t.Errorf("help compare: %v for %q, want compare's usage", err, c.help)
	}
}

// TestCompareNeedsGit: without git, or outside a repository, compare says
// which.
func TestCompareNeedsGit(t *testing.T) {
	dir := t.TempDir()
	if _, err := openRepo(context.Background(), dir); err == nil || !strings.Contains(err.Error(), "is not in one") {
		t.Errorf("outside a repository: %v", err)
	}
	t.Setenv("PATH", dir)
	if _, err := openRepo(context.Background(), dir); err == nil || !strings.Contains(err.Error(), "git, which was not found") {
		t.Errorf("without git: %v", err)
	}
}

// TestCompareEndToEnd runs compare on two benchmarks, one round of one
// iteration each, against HEAD: it builds both sides, runs them, writes
// the raw results and prints the tables, and leaves no worktree behind.
func TestCompareEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("builds bench/hotpath twice: skipped with -short")
	}
	out := t.TempDir()
	var stdout, stderr strings.Builder
	code := run([]string{"compare", "-base", "HEAD", "-rounds", "1", "-benchtime", "1x", "-bench", "TinyTasks|PingPong",
		"-plain", "-out", out}, &stdout, &stderr)
	if code != 0 {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout.String(), stderr.String())
	}
	for _, want := range []string{"building bench/hotpath against the working tree", "base: HEAD (", "tree: the working tree",
		"sec/op", "allocs/op", "TinyTasks", "PingPong", "tree/base", "geomean", "benchstat base="} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("the output lacks %q:\n%s", want, stdout.String())
		}
	}
	for _, name := range []string{"compare-base.txt", "compare-tree.txt"} {
		data, err := os.ReadFile(filepath.Join(out, name))
		if err != nil {
			t.Fatal(err)
		}
		for _, want := range []string{"goos: ", "goarch: ", "pkg: hotpathprobe", "cpu: ", "BenchmarkTinyTasks-", "BenchmarkPingPong-"} {
			if !strings.Contains(string(data), want) {
				t.Errorf("%s lacks %q:\n%s", name, want, data)
			}
		}
	}
	root, err := moduleRoot()
	if err != nil {
		t.Fatal(err)
	}
	list, err := git(context.Background(), root, "worktree", "list", "--porcelain")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(list, "poolkit-compare-") {
		t.Errorf("a worktree was left behind:\n%s", list)
	}
}

// TestCompareBuildMessages: a failed build is shown by its first lines,
// and summed up by its first error, not by the package header.
func TestCompareBuildMessages(t *testing.T) {
	out := []byte("# hotpathprobe [hotpathprobe.test]\n./pool_test.go:67:74: undefined: pool.WithTimings\n./b.go:1:1: more\n")
	if got := firstError(out); got != "./pool_test.go:67:74: undefined: pool.WithTimings" {
		t.Errorf("firstError = %q", got)
	}
	if got := firstLines(out, 2); got != "# hotpathprobe [hotpathprobe.test]\n./pool_test.go:67:74: undefined: pool.WithTimings\n" {
		t.Errorf("firstLines = %q", got)
	}
	if got := firstLines([]byte("one"), 5); got != "one\n" {
		t.Errorf("firstLines of one line = %q", got)
	}
}
