package compat_test

import (
	"bytes"
	"encoding/json"
	"os"
	"testing"
	"text/template"

	"github.com/poolkit/poolkit/spectest"
)

const matrixPath = "../MATRIX.md"

const regenerate = "go test ./compat -run 'TestConformance|TestMatrix' -args -update"

// TestMatrixUpToDate fails when MATRIX.md differs from what this run of
// TestConformance found (it needs the full run; with -update it rewrites
// the file instead; with -matrix-json it writes the results as JSON
// elsewhere and checks nothing).
func TestMatrixUpToDate(t *testing.T) {
	r := report()
	for _, ir := range r.Implementations {
		if len(ir.Results) != len(r.Clauses) {
			t.Skip("needs a full TestConformance run in the same process")
		}
	}
	if *matrixJSON != "" {
		b, err := json.MarshalIndent(r, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(*matrixJSON, append(b, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	got, err := renderMatrix(r)
	if err != nil {
		t.Fatal(err)
	}
	if *update {
		if err := os.WriteFile(matrixPath, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(matrixPath)
	if err != nil {
		t.Fatalf("%v; create it with: %s", err, regenerate)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("MATRIX.md is stale; regenerate it with: %s\n--- this run:\n%s", regenerate, got)
	}
}

// report gathers what TestConformance found, in column order.
func report() spectest.Report {
	var impls []spectest.ImplReport
	for _, impl := range implementations() {
		impls = append(impls, spectest.ImplReport{Name: impl.Name, Results: results[impl.Name]})
	}
	return spectest.NewReport(impls...)
}

// matrixTemplate renders MATRIX.md from a report.
var matrixTemplate = template.Must(template.New("matrix.md.tmpl").Funcs(template.FuncMap{
	// listed returns the results to list below the table: failures, with
	// their reason, and passes with a note.
	"listed": func(ir spectest.ImplReport) []spectest.Result {
		var out []spectest.Result
		for _, r := range ir.Results {
			if r.Status != spectest.NA && (r.Status != spectest.Pass || r.Note != "") {
				out = append(out, r)
			}
		}
		return out
	},
}).ParseFiles("testdata/matrix.md.tmpl"))

func renderMatrix(r spectest.Report) ([]byte, error) {
	var b bytes.Buffer
	err := matrixTemplate.Execute(&b, struct {
		spectest.Report
		Marks      []spectest.Legend
		Regenerate string
	}{r, spectest.Marks, regenerate})
	return b.Bytes(), err
}
