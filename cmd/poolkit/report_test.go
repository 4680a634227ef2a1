package main

import (
	"bufio"
	"encoding/xml"
	"errors"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/poolkit/poolkit/autoscale/eval"
	"github.com/poolkit/poolkit/bench"
	"github.com/poolkit/poolkit/spectest"
)

// page is what wellFormed found in a document.
type page struct {
	root        string
	imgs, links []string // every img src; every href and src
	ids         map[string]bool
}

// wellFormed parses data as XML (HTML written as XHTML is) and returns
// its root element, links and ids.
func wellFormed(data []byte) (page, error) {
	p := page{ids: map[string]bool{}}
	d := xml.NewDecoder(strings.NewReader(string(data)))
	d.Strict = true
	depth := 0
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			if depth != 0 {
				return p, errors.New("unclosed elements at the end")
			}
			return p, nil
		}
		if err != nil {
			return p, err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if depth == 0 {
				if p.root != "" {
					return p, errors.New("more than one root element")
				}
				p.root = t.Name.Local
			}
			depth++
			for _, a := range t.Attr {
				switch a.Name.Local {
				case "id":
					p.ids[a.Value] = true
				case "href", "src":
					p.links = append(p.links, a.Value)
					if t.Name.Local == "img" && a.Name.Local == "src" {
						p.imgs = append(p.imgs, a.Value)
					}
				}
			}
		case xml.EndElement:
			depth--
		}
	}
}

// checkReport checks that dir/index.html is well formed, shows the given
// sections, that every link in it resolves (to a file from dir, to an id
// of the page, or is an http(s) URL), and that every image is a
// well-formed SVG.
func checkReport(t *testing.T, dir string, sections ...string) page {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(data), "<!DOCTYPE html>") {
		t.Error("index.html lacks the HTML doctype")
	}
	p, err := wellFormed(data)
	if err != nil || p.root != "html" {
		t.Fatalf("index.html is not well formed (root %q): %v", p.root, err)
	}
	for _, id := range sections {
		if !p.ids[id] {
			t.Errorf("index.html has no %s section", id)
		}
	}
	for _, l := range p.links {
		switch {
		case strings.HasPrefix(l, "http://") || strings.HasPrefix(l, "https://"):
		case strings.HasPrefix(l, "#"):
			if !p.ids[l[1:]] {
				t.Errorf("link %s: no such id in the page", l)
			}
		case l == "" || filepath.IsAbs(l) || strings.Contains(l, ":"):
			t.Errorf("link %q: neither a relative path nor an http(s) URL", l)
		default:
			if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(l))); err != nil {
				t.Errorf("link %s does not resolve from %s: %v", l, dir, err)
			}
		}
	}
	for _, src := range p.imgs {
		svg, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(src)))
		if err != nil {
			continue // reported above
		}
		if s, err := wellFormed(svg); err != nil || s.root != "svg" {
			t.Errorf("%s is not a well-formed SVG (root %q): %v", src, s.root, err)
		}
	}
	return p
}

// fakeResults is a comparison of two workloads over three rounds: in W,
// a peer whose check failed in every round, and a slow one whose times
// (200 to 300 ns) never reach down to poolkit's (100 to 150 ns), so that
// the three rounds rank it (see noVerdict).
func fakeResults() *bench.Results {
	res := func(ns int64) testing.BenchmarkResult {
		return testing.BenchmarkResult{N: 1000, T: time.Duration(ns * 1000)}
	}
	w := bench.Workload{Name: "W", About: "an op", Cases: []bench.Case{{Impl: "poolkit"}, {Impl: "slow"}, {Impl: "lossy"}}}
	v := bench.Workload{Name: "V", About: "another op", Cases: []bench.Case{{Impl: "poolkit"}, {Impl: "slow"}}}
	r := &bench.Results{Machine: bench.ThisMachine(), Workloads: []bench.Workload{w, v}, Rounds: 3, HeavyRounds: 3}
	for round, ns := range [][2]int64{{100, 200}, {150, 200}, {100, 300}} {
		r.Runs = append(r.Runs,
			bench.Run{Workload: "W", Impl: "poolkit", Round: round, Result: res(ns[0])},
			bench.Run{Workload: "W", Impl: "slow", Round: round, Result: res(ns[1])},
			bench.Run{Workload: "W", Impl: "lossy", Round: round, Problem: "lost 3 of 1000 tasks"},
			bench.Run{Workload: "V", Impl: "poolkit", Round: round, Result: res(50)},
			bench.Run{Workload: "V", Impl: "slow", Round: round, Result: res(75)},
		)
	}
	return r
}

// TestRatioColumn: the ratio beside the times is the ratio of those
// times, the medians, and the tables say so.
func TestRatioColumn(t *testing.T) {
	v := newBenchView(fakeResults(), "/tmp/bench.txt", nil)
	rows := v.Workloads[0].Table.Rows
	if rows[0][1] != "100ns" || rows[1][1] != "200ns" || rows[1][2] != "2.00x" || rows[0][2] != "1.00x" {
		t.Errorf("rows %q: want poolkit 100ns 1.00x, slow 200ns 2.00x", rows[:2])
	}
	if !strings.Contains(v.Note, "ratio of the median time per op to poolkit's") || !strings.Contains(v.Note, "Medians of 3 rounds") {
		t.Errorf("the note does not say what the ratio is: %s", v.Note)
	}
	if got := v.Overview.Rows[1]; got[0] != "slow" || got[1] != "2.00x" || got[2] != "1.50x" {
		t.Errorf("overview row %q, want slow 2.00x 1.50x", got)
	}
}

// TestFindingsAndFailures: a peer's run stopped by a check is a finding,
// shown with its reason, and leaves the exit status alone; a run of
// poolkit's stopped by a check, or a run that failed without a reason, is
// a failure.
func TestFindingsAndFailures(t *testing.T) {
	r := fakeResults()
	v := newBenchView(r, "/tmp/bench.txt", nil)
	if len(v.Failures) != 0 {
		t.Errorf("failures %+v, want none: only a peer's check failed", v.Failures)
	}
	if len(v.Findings) != 1 || v.Findings[0].Impl != "lossy" || v.Findings[0].Reason != "lost 3 of 1000 tasks" ||
		v.Findings[0].RoundList() != "rounds 1, 2, 3" {
		t.Errorf("findings %+v, want lossy's in rounds 1, 2, 3", v.Findings)
	}
	if got := v.Workloads[0].Table.Rows[2][1]; got != "finding" {
		t.Errorf("lossy's time cell %q, want finding", got)
	}
	var text strings.Builder
	if err := renderText(&text, "bench", v); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text.String(), "lossy: finding (rounds 1, 2, 3): lost 3 of 1000 tasks") {
		t.Errorf("the text does not show the finding with its reason:\n%s", text.String())
	}

	r.Runs = append(r.Runs,
		bench.Run{Workload: "V", Impl: "poolkit", Round: 3, Problem: "lost a task"},
		bench.Run{Workload: "V", Impl: "slow", Round: 3})
	v = newBenchView(r, "/tmp/bench.txt", nil)
	if len(v.Failures) != 2 || v.Failures[0].Impl != "poolkit" || v.Failures[1].Reason != "the run failed without recording why" {
		t.Errorf("failures %+v, want poolkit's lost task and slow's unexplained failure", v.Failures)
	}
	if code := exitStatus(outcomes{bench: &benchOutcome{view: v}}); code != 1 {
		t.Errorf("exit status %d with poolkit's run failed, want 1", code)
	}
	if code := exitStatus(outcomes{bench: &benchOutcome{view: newBenchView(fakeResults(), "", nil)}}); code != 0 {
		t.Errorf("exit status %d with only a peer's finding, want 0", code)
	}
}

// TestReportLinks writes a report of made-up results into a folder that is
// neither the working directory nor the repository root, and checks that
// every link resolves from there: the repository's files by a relative
// path, each result file written, each plot.
func TestReportLinks(t *testing.T) {
	dir := t.TempDir()
	root := filepath.Join(dir, "repo")
	out := filepath.Join(dir, "elsewhere", "deep", "report")
	for _, f := range []string{"SPEC.md", "MATRIX.md", "autoscale/eval/results/README.md"} {
		writeFile(t, filepath.Join(root, filepath.FromSlash(f)), "x")
	}
	c, err := parseArgs([]string{"-out", out})
	if err != nil {
		t.Fatal(err)
	}
	var o outcomes
	bv := newBenchView(fakeResults(), filepath.Join(out, "bench.txt"), []string{filepath.Join(out, "bench-w.svg"), filepath.Join(out, "bench-v.svg")})
	writeFile(t, bv.Raw, "raw")
	for _, w := range bv.Workloads {
		writeFile(t, w.Chart, string(ratioChart(w)))
	}
	o.bench = &benchOutcome{view: bv}
	o.spec = &specOutcome{view: newSpecView(spectest.Report{
		Clauses: []spectest.ClauseInfo{{ID: "NEW-1", Slug: "size", Level: spectest.Must, Title: "t"}},
		Implementations: []spectest.ImplReport{{Name: "poolkit", Results: []spectest.Result{{Impl: "poolkit", Clause: "NEW-1", Status: spectest.Pass}}},
			{Name: "other", Results: []spectest.Result{{Impl: "other", Clause: "NEW-1", Status: spectest.XFail, Note: "panics"}}}},
	})}
	o.spec.view.JSON = filepath.Join(out, "matrix.json")
	o.spec.view.Spec, o.spec.view.MatrixMD = filepath.Join(root, "SPEC.md"), filepath.Join(root, "MATRIX.md")
	writeFile(t, o.spec.view.JSON, "{}")
	plots := filepath.Join(out, "autoscale")
	ev := eval.Results{Kind: "io", Scenarios: []eval.ScenarioResult{{Name: "S1 x", Plot: "s1-x.svg",
		Reference: eval.Result{Controller: "fixed-4", Throughput: 1, WorkerSeconds: 1}, Runs: []eval.Result{{Controller: "poolkit", Throughput: 1, WorkerSeconds: 1}}}}}
	writeFile(t, filepath.Join(plots, "s1-x.svg"), `<svg xmlns="http://www.w3.org/2000/svg"></svg>`)
	js := filepath.Join(out, "autoscale-io.json")
	writeFile(t, js, "{}")
	o.autoscale = &autoscaleOutcome{view: autoscaleView{Passed: true, About: filepath.Join(root, "autoscale/eval/results/README.md"),
		Groups: []scenarioGroup{newScenarioGroup(ev, js, plots, func(p string) bool { return existing(p) != "" })}}}
	actors, err := summarizeActors(rawActorRounds)
	if err != nil {
		t.Fatal(err)
	}
	// Paths as a run names them, relative to the working directory.
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	o.actors = &actorsOutcome{results: actors, raw: relFrom(wd, filepath.Join(out, "actors.txt")), data: relFrom(wd, filepath.Join(out, "actors.json"))}
	writeFile(t, filepath.Join(out, "actors.txt"), "raw")
	writeFile(t, filepath.Join(out, "actors.json"), "{}")
	o.keyed = &keyedOutcome{results: keyedFixture(t), raw: filepath.Join(out, "keyed.txt"), data: filepath.Join(out, "keyed.json")}
	writeFile(t, o.keyed.raw, "raw")
	writeFile(t, o.keyed.data, "{}")
	if _, err := writeReport(c, root, o); err != nil {
		t.Fatal(err)
	}
	p := checkReport(t, out, "bench", "actors", "keyed", "spec", "autoscale", "W", "V")
	for _, want := range []string{"actors.txt", "actors.json", "keyed.txt", "keyed.json", "../../../repo/SPEC.md", "../../../repo/MATRIX.md", "matrix.json", "autoscale-io.json", "bench.txt",
		"autoscale/s1-x.svg", "bench-w.svg", "../../../repo/autoscale/eval/results/README.md"} {
		found := false
		for _, l := range p.links {
			found = found || l == want
		}
		if !found {
			t.Errorf("the report does not link %s; its links: %q", want, p.links)
		}
	}
	html, _ := os.ReadFile(filepath.Join(out, "index.html"))
	for _, m := range o.spec.view.Legend {
		if !strings.Contains(string(html), "<td>"+m.Mark+"</td><td>"+m.Meaning) {
			t.Errorf("the report does not explain the mark %s", m.Mark)
		}
	}
	if !strings.Contains(string(html), "lost 3 of 1000 tasks") {
		t.Error("the report does not show the finding's reason")
	}
	for _, want := range []string{"<h2 id=\"keyed\">Keyed stream: the keyed runner (in order per key)", "Machine: <strong>test machine</strong>",
		"<td>zipf1.1</td><td>keyed</td><td>20.0k/s ±0%</td><td>0.50x</td><td>12.0ms</td>", `<a href="#keyed">`} {
		if !strings.Contains(string(html), want) {
			t.Errorf("the report's keyed section lacks %q", want)
		}
	}

	// The README section, in the repository, links the same files from
	// there.
	readme := filepath.Join(root, "README.md")
	writeFile(t, readme, "# x\n"+readmeBegin+"\nold\n"+readmeEnd+"\n")
	c.readme = readme
	if err := updateReadme(c, root, o); err != nil {
		t.Fatal(err)
	}
	md, err := os.ReadFile(readme)
	if err != nil {
		t.Fatal(err)
	}
	links := regexp.MustCompile(`\]\(([^)]+)\)`).FindAllStringSubmatch(string(md), -1)
	if len(links) < 4 {
		t.Errorf("the README section has %d links:\n%s", len(links), md)
	}
	for _, l := range links {
		if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(l[1]))); err != nil || filepath.IsAbs(l[1]) {
			t.Errorf("README link %s does not resolve from the README's folder: %v", l[1], err)
		}
	}
	for _, want := range []string{"![W](../elsewhere/deep/report/bench-w.svg)", "Medians of 3 rounds.", "| slow | 2.00x | 1.50x |",
		"lossy (rounds 1, 2, 3): lost 3 of 1000 tasks", "failing clauses: poolkit 0, other 1 (of 1)", "in 0 of 1 I/O scenarios",
		"Keyed stream: the keyed runner (in order per key)", "Machine: test machine.", "| keys | impl | msgs/s | vs unordered | p99 wait |",
		"| uniform | keyed | 30.0k/s ±20% | 1.00x | 2.00ms |", "(../elsewhere/deep/report/keyed.txt)"} {
		if !strings.Contains(string(md), want) {
			t.Errorf("the README section lacks %q:\n%s", want, md)
		}
	}
}

func writeFile(t *testing.T, path, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestRatioChart: the chart is well formed, shows every contender's
// ratio and time, or its problem, and no label lies across the line at 1×.
func TestRatioChart(t *testing.T) {
	w := workloadView{Name: "W<1>", Bars: []bar{
		{Impl: "poolkit", Ratio: 1, Time: "100ns"},
		{Impl: "slow", Ratio: 9, Lo: 7, Hi: 11, Time: "900ns"},
		{Impl: "fast", Ratio: 0.5, Time: "50ns"},
		{Impl: "nearly", Ratio: 0.97, Time: "97ns"},
		{Impl: "broken", NoRatioAs: "finding"},
	}}
	svg := ratioChart(w)
	if p, err := wellFormed(svg); err != nil || p.root != "svg" {
		t.Fatalf("not a well-formed SVG (%q): %v\n%s", p.root, err, svg)
	}
	for _, want := range []string{"9.00x (900ns)", "0.50x (50ns)", "finding", "W&lt;1&gt;", "16×", "0.5×"} {
		if !strings.Contains(string(svg), want) {
			t.Errorf("chart lacks %q", want)
		}
	}
	line := regexp.MustCompile(`<line x1="([0-9.]+)" y1="([0-9.]+)" x2="[0-9.]+" y2="([0-9.]+)" stroke="#c53030"`).FindStringSubmatch(string(svg))
	if line == nil {
		t.Fatal("no line at 1×")
	}
	x1, y1, y2 := num(t, line[1]), num(t, line[2]), num(t, line[3])
	// A label of n characters at 12px spans at most 8px each.
	for _, m := range regexp.MustCompile(`<text x="([0-9.]+)" y="([0-9.]+)"( text-anchor="(\w+)")?[^>]*>([^<]*)</text>`).FindAllStringSubmatch(string(svg), -1) {
		x, y, anchor, text := num(t, m[1]), num(t, m[2]), m[4], m[5]
		if y < y1 || y-12 > y2 {
			continue // above or below the line
		}
		from, to := x, x+8*float64(len([]rune(text)))
		switch anchor {
		case "end":
			from, to = x-8*float64(len([]rune(text))), x
		case "middle":
			from, to = x-4*float64(len([]rune(text))), x+4*float64(len([]rune(text)))
		}
		if from <= x1 && x1 <= to {
			t.Errorf("label %q (x %.0f to %.0f) lies across the line at 1× (x %.0f)", text, from, to, x1)
		}
	}
}

func num(t *testing.T, s string) float64 {
	t.Helper()
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// TestBenchCommand runs the bench command on one light workload, with
// automaxprocs applied as an application would, and checks its outputs.
func TestBenchCommand(t *testing.T) {
	t.Setenv("GOMAXPROCS", strconv.Itoa(runtime.GOMAXPROCS(0)))
	dir := t.TempDir()
	var stdout, stderr strings.Builder
	code := run([]string{"-plain", "-maxprocs=automaxprocs", "-out", dir, "-rounds", "1", "-workloads", "Invoke", "bench"}, &stdout, &stderr)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	out := stdout.String()
	for _, want := range []string{"maxprocs:", "Invoke:", "vs poolkit", "Medians of 1 round.", "ratio of the medians", "bench.txt", "bench:"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	f, err := os.Open(filepath.Join(dir, "bench.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	w, _ := bench.Lookup("Invoke")
	impls := map[string]int{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if name, _, ok := strings.Cut(sc.Text(), "\t"); ok && strings.HasPrefix(name, "BenchmarkInvoke/impl=") {
			impls[strings.TrimPrefix(name, "BenchmarkInvoke/impl=")]++
		}
	}
	if len(impls) != len(w.Cases) {
		t.Errorf("raw results name %v, want the %d Invoke contenders", impls, len(w.Cases))
	}
	if _, err := os.Stat(filepath.Join(dir, "bench-invoke.svg")); err != nil {
		t.Error(err)
	}
}

// TestReportSmoke runs a short report end to end: two benchmark workloads
// in one round, the actors' Ask, the whole conformance suite and the I/O
// autoscaler scenarios (both through the go command, as a user's run does), and
// checks the HTML page, its links and plots, and the README section it
// rewrites.
func TestReportSmoke(t *testing.T) {
	// The old section's text is a word no report writes: a plain word such as
	// "old" can turn up in what a report writes ("cold", "threshold").
	const stale = "stale-section-4f1c"
	dir := t.TempDir()
	readme := filepath.Join(dir, "README.md")
	writeFile(t, readme, "# x\n\nbefore\n"+readmeBegin+"\n"+stale+"\n"+readmeEnd+"\nafter\n")
	out := filepath.Join(dir, "report")
	var stdout, stderr strings.Builder
	code := run([]string{"-plain", "-out", out, "-rounds", "1", "-workloads", "TinyTasks,ResizeGrow", "-actors", "^Ask$", "-keyed", "^uniform$",
		"-readme", readme}, &stdout, &stderr)
	if code != 0 {
		t.Fatalf("exit %d:\n%s\n%s", code, stderr.String(), stdout.String())
	}
	if !strings.Contains(stdout.String(), "takes about") || !strings.Contains(stdout.String(), "builds included") {
		t.Errorf("the quick report does not say up front how long it takes, builds included:\n%s", stdout.String())
	}
	checkReport(t, out, "bench", "actors", "keyed", "spec", "autoscale", "TinyTasks", "ResizeGrow")
	got, err := os.ReadFile(readme)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"before\n" + readmeBegin, readmeEnd + "\nafter", "| poolkit | 1.00x | 1.00x |",
		"report/bench-tinytasks.svg", "| Ask | p99 (lower is better) |", "| uniform | keyed |", "| uniform | hashed16 |", "report/keyed.txt", "failing clauses: poolkit 0", "poolkit meets the reference", "beats every baseline",
		"report/matrix.json", "report/autoscale-io.json"} {
		if !strings.Contains(string(got), want) {
			t.Errorf("README lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(string(got), stale) {
		t.Error("README still has the old section")
	}
}

// TestNoVerdict: a pool the rounds cannot rank against poolkit gets "no
// verdict" in place of its ratio, in its workload's table, in the
// overview and in the chart: from a single round always, from fewer
// rounds than an interval needs when its times overlap poolkit's; with
// enough rounds, or times apart, it gets its ratio.
func TestNoVerdict(t *testing.T) {
	results := func(times map[string][]float64) *bench.Results {
		w := bench.Workload{Name: "Sleeping1M", About: "a million sleeping tasks", Heavy: true,
			Cases: []bench.Case{{Impl: "poolkit"}, {Impl: "near"}, {Impl: "far"}}}
		r := &bench.Results{Machine: bench.ThisMachine(), Workloads: []bench.Workload{w}, Rounds: 3, HeavyRounds: len(times["poolkit"])}
		for _, impl := range []string{"poolkit", "near", "far"} {
			for round, ns := range times[impl] {
				r.Runs = append(r.Runs, bench.Run{Workload: w.Name, Impl: impl, Round: round,
					Result: testing.BenchmarkResult{N: 1, T: time.Duration(ns)}})
			}
		}
		return r
	}
	for _, c := range []struct {
		name      string
		times     map[string][]float64
		near, far string // their cells in the table
	}{
		{"one round", map[string][]float64{"poolkit": {100}, "near": {90}, "far": {300}}, "no verdict (1 round)", "no verdict (1 round)"},
		{"three rounds", map[string][]float64{"poolkit": {100, 120, 110}, "near": {90, 115, 130}, "far": {300, 310, 290}},
			"no verdict (3 rounds, times overlap)", "2.73x"},
		{"seven rounds", map[string][]float64{"poolkit": {100, 120, 110, 100, 120, 110, 105}, "near": {90, 115, 130, 90, 115, 130, 110},
			"far": {300, 310, 290, 300, 310, 290, 300}}, "1.05x", "2.73x"},
	} {
		v := newBenchView(results(c.times), "/tmp/bench.txt", nil)
		rows := v.Workloads[0].Table.Rows
		if rows[0][2] != "1.00x" || rows[1][2] != c.near || rows[2][2] != c.far {
			t.Errorf("%s: the table ranks %q, want poolkit 1.00x, near %s, far %s", c.name, rows, c.near, c.far)
		}
		for i, want := range []string{c.near, c.far} {
			if strings.HasPrefix(want, "no verdict") != (v.Overview.Rows[i+1][1] == "no verdict") {
				t.Errorf("%s: the overview has %q for %s", c.name, v.Overview.Rows[i+1][1], v.Overview.Rows[i+1][0])
			}
		}
		svg := string(ratioChart(v.Workloads[0]))
		if strings.Contains(c.near, "no verdict") && !strings.Contains(svg, c.near+" (") {
			t.Errorf("%s: the chart does not say %q:\n%s", c.name, c.near, svg)
		}
	}
	if !strings.Contains(overviewNote(), "no verdict: too few rounds") {
		t.Error("the overview's note does not say what no verdict means")
	}
}

// TestStanding: the sentence under the overview says where poolkit
// stands from the same summaries as the table: the workloads where no
// ranked pool was faster, those where some were (with their ratios,
// fastest first), and those no pool could be ranked in; the floor of no
// pool at all is left out.
func TestStanding(t *testing.T) {
	res := func(ns int64) testing.BenchmarkResult {
		return testing.BenchmarkResult{N: 1000, T: time.Duration(ns * 1000)}
	}
	r := &bench.Results{Machine: bench.ThisMachine(), Rounds: 3, HeavyRounds: 3}
	for _, w := range []string{"Win", "Lose", "Open"} {
		r.Workloads = append(r.Workloads, bench.Workload{Name: w, Cases: []bench.Case{{Impl: "poolkit"}, {Impl: "inline"}, {Impl: "a"}, {Impl: "b"}}})
	}
	for round, ns := range []int64{100, 110, 120} {
		r.Runs = append(r.Runs,
			bench.Run{Workload: "Win", Impl: "poolkit", Round: round, Result: res(ns)},
			bench.Run{Workload: "Win", Impl: "inline", Round: round, Result: res(ns / 2)}, // the floor: left out
			bench.Run{Workload: "Win", Impl: "a", Round: round, Result: res(ns * 2)},
			bench.Run{Workload: "Win", Impl: "b", Round: round, Result: res(ns + 5)}, // overlaps: no verdict
			bench.Run{Workload: "Lose", Impl: "poolkit", Round: round, Result: res(ns)},
			bench.Run{Workload: "Lose", Impl: "a", Round: round, Result: res(ns / 2)},
			bench.Run{Workload: "Lose", Impl: "b", Round: round, Result: res(ns * 3 / 4)},
			bench.Run{Workload: "Open", Impl: "poolkit", Round: round, Result: res(ns)},
			bench.Run{Workload: "Open", Impl: "a", Round: round, Result: res(ns + 1)},
		)
	}
	got := newBenchView(r, "", nil).Standing.Sentence()
	for _, want := range []string{"the fastest in Win;", "slower than some in Lose (a 0.50x, b 0.75x)", "no verdict in Open."} {
		if !strings.Contains(got, want) {
			t.Errorf("standing %q lacks %q", got, want)
		}
	}
	if strings.Contains(got, "inline 0.") {
		t.Errorf("standing %q ranks the floor", got)
	}
}
