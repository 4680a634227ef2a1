package main

import (
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/poolkit/poolkit/spectest"
)

// wideReport is a conformance report as wide as the real one: seventeen
// implementations, some with long names, and 48 clauses, some with long
// slugs, every outcome somewhere.
func wideReport() spectest.Report {
	impls := []string{"poolkit", "ants", "ants-func", "ants-func-any", "ants-multi", "ants-multi-func", "poolkit-ants",
		"poolkit-ants-func", "poolkit-ants-func-any", "poolkit-ants-multi", "poolkit-ants-multi-func", "pond", "tunny", "conc",
		"errgroup", "workerpool", "actor-router"}
	statuses := []spectest.Status{spectest.Pass, spectest.XFail, spectest.NA, spectest.Pass, spectest.Fail, spectest.XPass, spectest.Pass}
	var r spectest.Report
	for i := range 48 {
		r.Clauses = append(r.Clauses, spectest.ClauseInfo{ID: fmt.Sprintf("GOR-%d", i+1), Slug: "no-goroutines-after-close"[:10+i%16], Level: []spectest.Level{spectest.Must, spectest.Should}[i%2]})
	}
	for j, name := range impls {
		ir := spectest.ImplReport{Name: name}
		for i, c := range r.Clauses {
			res := spectest.Result{Impl: name, Clause: c.ID, Status: statuses[(i+j)%len(statuses)]}
			if i%11 == 0 && res.Status == spectest.Pass {
				res.Note = "a guard" // ✓*
			}
			ir.Results = append(ir.Results, res)
		}
		r.Implementations = append(r.Implementations, ir)
	}
	return r
}

// TestMatrixFitsTheTerminal: the conformance matrix of seventeen
// implementations fits a terminal, and every mark of every
// implementation can be read back from it through its legends.
func TestMatrixFitsTheTerminal(t *testing.T) {
	r := wideReport()
	var out strings.Builder
	if err := renderText(&out, "spec", newSpecView(r)); err != nil {
		t.Fatal(err)
	}
	text := out.String()
	for _, line := range strings.Split(text, "\n") {
		if n := len([]rune(line)); n > textWidth {
			t.Errorf("a line of %d characters, over %d:\n%s", n, textWidth, line)
		}
	}
	// The legends: a letter per implementation, a meaning per mark.
	impl := map[string]string{}
	for _, m := range regexp.MustCompile(`\b([A-Z]) ([a-z-]+)[,.]`).FindAllStringSubmatch(text, -1) {
		impl[m[1]] = m[2]
	}
	meaning := map[string]string{}
	for _, m := range regexp.MustCompile(`(?m)^(\S{1,2}): (.+)$`).FindAllStringSubmatch(text, -1) {
		meaning[m[1]] = m[2]
	}
	var header []string
	rows := 0
	for _, line := range strings.Split(text, "\n") {
		f := strings.Fields(line)
		switch {
		case len(f) > 2 && f[0] == "clause":
			header = f[2:]
		case len(f) > 3 && strings.HasPrefix(f[0], "GOR-"):
			rows++
			clause := f[0]
			for i, mark := range f[3:] {
				name := impl[header[i]]
				var want spectest.Result
				for _, ir := range r.Implementations {
					for _, res := range ir.Results {
						if ir.Name == name && res.Clause == clause {
							want = res
						}
					}
				}
				if want.Impl == "" {
					t.Fatalf("column %s (%q): no such implementation", header[i], name)
				}
				var wantMeaning string
				for _, l := range spectest.Marks {
					if l.Mark == want.Mark() {
						wantMeaning = l.Meaning
					}
				}
				if meaning[mark] != wantMeaning {
					t.Errorf("%s, %s: the mark %q reads %q, want %q (%s)", clause, name, mark, meaning[mark], wantMeaning, want.Mark())
				}
			}
		}
	}
	if len(header) != len(r.Implementations) || rows != len(r.Clauses) {
		t.Errorf("read %d columns and %d rows, want %d and %d:\n%s", len(header), rows, len(r.Implementations), len(r.Clauses), text)
	}
}

// TestMatrixInTheReport: the HTML matrix names every implementation in
// full above its column, written upwards so that the columns are as
// narrow as their marks, which are those of the terminal.
func TestMatrixInTheReport(t *testing.T) {
	r := wideReport()
	c, err := parseArgs([]string{"-out", t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	path, err := writeReport(c, t.TempDir(), outcomes{spec: &specOutcome{view: newSpecView(r)}})
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	html := string(data)
	if !strings.Contains(html, "writing-mode: vertical-rl") {
		t.Error("the matrix's headers are not written upwards")
	}
	for _, ir := range r.Implementations {
		if !strings.Contains(html, `<th class="impl"><span>`+ir.Name+`</span></th>`) {
			t.Errorf("no column headed %s", ir.Name)
		}
	}
	for _, want := range []string{"<td>✗!</td>", "<td>✓!</td>", "<td>-</td>", "<td>✓*</td>", "<td>✗</td>", "<td>✓</td>",
		"<td>✗!</td><td>fails and is not listed as a known divergence: the run fails</td>"} {
		if !strings.Contains(html, want) {
			t.Errorf("the matrix or its legend lacks the cell %s", want)
		}
	}
}
