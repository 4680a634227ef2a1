package main

import (
	"bufio"
	"encoding/xml"
	"errors"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/poolkit/poolkit/bench"
)

// wellFormed parses data as XML (HTML written as XHTML is) and returns the
// name of the root element and the src of every img.
func wellFormed(data []byte) (root string, imgs []string, err error) {
	d := xml.NewDecoder(strings.NewReader(string(data)))
	d.Strict = true
	depth := 0
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			if depth != 0 {
				return root, imgs, errors.New("unclosed elements at the end")
			}
			return root, imgs, nil
		}
		if err != nil {
			return root, imgs, err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if depth == 0 {
				if root != "" {
					return root, imgs, errors.New("more than one root element")
				}
				root = t.Name.Local
			}
			depth++
			if t.Name.Local == "img" {
				for _, a := range t.Attr {
					if a.Name.Local == "src" {
						imgs = append(imgs, a.Value)
					}
				}
			}
		case xml.EndElement:
			depth--
		}
	}
}

// checkReport checks that dir/index.html is well formed, shows the given
// sections, and that every image it shows is a well-formed SVG file.
func checkReport(t *testing.T, dir string, sections ...string) {
	t.Helper()
	page, err := os.ReadFile(filepath.Join(dir, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(page), "<!DOCTYPE html>") {
		t.Error("index.html lacks the HTML doctype")
	}
	root, imgs, err := wellFormed(page)
	if err != nil || root != "html" {
		t.Fatalf("index.html is not well formed (root %q): %v", root, err)
	}
	for _, id := range sections {
		if !strings.Contains(string(page), `id="`+id+`"`) {
			t.Errorf("index.html has no %s section", id)
		}
	}
	if len(imgs) == 0 {
		t.Error("index.html shows no plot")
	}
	for _, src := range imgs {
		svg, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(src)))
		if err != nil {
			t.Errorf("img %s: %v", src, err)
			continue
		}
		if root, _, err := wellFormed(svg); err != nil || root != "svg" {
			t.Errorf("%s is not a well-formed SVG (root %q): %v", src, root, err)
		}
	}
}

func TestMarkdownHTML(t *testing.T) {
	md := "# Title\n\nSome `a<b>` and **bold** [link](x.md) text\nwrapped.\n\n" +
		"| clause | poolkit |\n|---|---|\n| NEW-1 `x` | ✓ |\n\n- one\n- two <b>\n\nend & done\n"
	got := markdownHTML(md, 1)
	root, _, err := wellFormed([]byte("<div>" + got + "</div>"))
	if err != nil || root != "div" {
		t.Fatalf("not well formed: %v\n%s", err, got)
	}
	for _, want := range []string{
		"<h2>Title</h2>", "<code>a&lt;b&gt;</code>", "<strong>bold</strong>", `<a href="x.md">link</a>`,
		"text wrapped.", "<th>clause</th>", "<td>NEW-1 <code>x</code></td>", "<li>two &lt;b&gt;</li>", "end &amp; done",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q in\n%s", want, got)
		}
	}
}

func TestRatioChart(t *testing.T) {
	w := bench.Workload{Name: "W<1>"}
	sums := []bench.Summary{
		{Workload: "W<1>", Impl: "poolkit", Runs: 1, NsPerOp: 100, Ratio: 1},
		{Workload: "W<1>", Impl: "slow", Runs: 1, NsPerOp: 900, Ratio: 9},
		{Workload: "W<1>", Impl: "fast", Runs: 1, NsPerOp: 50, Ratio: 0.5},
		{Workload: "W<1>", Impl: "broken", Runs: 1, Failed: 1},
		{Workload: "other", Impl: "x", Runs: 1, NsPerOp: 1, Ratio: 100},
	}
	svg := ratioChart(w, sums)
	if root, _, err := wellFormed(svg); err != nil || root != "svg" {
		t.Fatalf("not a well-formed SVG (%q): %v\n%s", root, err, svg)
	}
	for _, want := range []string{"9.00×", "0.50×", "failed", "W&lt;1&gt;", "16×", "0.5×"} {
		if !strings.Contains(string(svg), want) {
			t.Errorf("chart lacks %q", want)
		}
	}
	if strings.Contains(string(svg), ">x<") {
		t.Error("chart shows another workload's contender")
	}
}

// TestBenchCommand runs the bench command on one light workload, with
// automaxprocs applied as an application would, and checks its outputs.
func TestBenchCommand(t *testing.T) {
	t.Setenv("GOMAXPROCS", strconv.Itoa(runtime.GOMAXPROCS(0)))
	dir := t.TempDir()
	var stdout, stderr strings.Builder
	code := run([]string{"-plain", "-maxprocs=automaxprocs", "-out", dir, "-rounds", "2", "-workloads", "Invoke", "bench"}, &stdout, &stderr)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	out := stdout.String()
	for _, want := range []string{"maxprocs:", "Invoke:", "vs poolkit", "Time per op relative to poolkit", "bench.txt"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	f, err := os.Open(filepath.Join(dir, "bench.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	impls := map[string]int{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if name, _, ok := strings.Cut(sc.Text(), "\t"); ok && strings.HasPrefix(name, "BenchmarkInvoke/impl=") {
			impls[strings.TrimPrefix(name, "BenchmarkInvoke/impl=")]++
		}
	}
	if len(impls) != 5 {
		t.Errorf("raw results name %v, want the 5 Invoke contenders twice each", impls)
	}
	for impl, n := range impls {
		if n != 2 {
			t.Errorf("%s ran %d times, want 2", impl, n)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "bench-invoke.svg")); err != nil {
		t.Error(err)
	}
}

// TestReportSmoke runs a short report end to end: two benchmark workloads
// in one round, the actors' Ask, the whole conformance suite and the I/O
// autoscaler scenarios (both through the go command, as a user's run does), and
// checks the HTML page, its plots and the README section it rewrites.
func TestReportSmoke(t *testing.T) {
	dir := t.TempDir()
	readme := filepath.Join(dir, "README.md")
	if err := os.WriteFile(readme, []byte("# x\n\nbefore\n"+readmeBegin+"\nold\n"+readmeEnd+"\nafter\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "report")
	var stdout, stderr strings.Builder
	code := run([]string{"-plain", "-out", out, "-rounds", "1", "-workloads", "TinyTasks,ResizeGrow", "-actors", "^Ask$", "-readme", readme}, &stdout, &stderr)
	if code != 0 {
		t.Fatalf("exit %d:\n%s\n%s", code, stderr.String(), stdout.String())
	}
	if !strings.Contains(stdout.String(), "takes about") {
		t.Errorf("the quick report does not say up front how long it takes:\n%s", stdout.String())
	}
	checkReport(t, out, "bench", "actors", "spec", "autoscale", "TinyTasks", "ResizeGrow")
	got, err := os.ReadFile(readme)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"before\n" + readmeBegin, readmeEnd + "\nafter", "| poolkit | 1.00x | 1.00x |",
		"report/bench-tinytasks.svg", "| Ask | p99-ns (lower is better) |", "Failing clauses", "poolkit beats every baseline"} {
		if !strings.Contains(string(got), want) {
			t.Errorf("README lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(string(got), "old") {
		t.Error("README still has the old section")
	}
}
