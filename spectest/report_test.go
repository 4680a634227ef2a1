package spectest_test

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/poolkit/poolkit/spectest"
)

// TestMarks: each outcome has its mark, a pass that depends on a guard in
// the adapter (a note) is told apart, and the legend explains every mark.
func TestMarks(t *testing.T) {
	legend := map[string]bool{}
	for _, l := range spectest.Marks {
		if l.Meaning == "" {
			t.Errorf("mark %q has no meaning", l.Mark)
		}
		legend[l.Mark] = true
	}
	for _, c := range []struct {
		r    spectest.Result
		want string
	}{
		{spectest.Result{Status: spectest.Pass}, "✓"},
		{spectest.Result{Status: spectest.Pass, Note: "the adapter refuses sizes below 1"}, "✓*"},
		{spectest.Result{Status: spectest.Fail}, "✗ (unexpected)"},
		{spectest.Result{Status: spectest.XFail, Note: "a known divergence"}, "✗"},
		{spectest.Result{Status: spectest.XPass}, "✓ (was ✗)"},
		{spectest.Result{Status: spectest.NA, Note: "lacks Resize"}, "n.a."},
	} {
		if got := c.r.Mark(); got != c.want {
			t.Errorf("%+v.Mark() = %q, want %q", c.r, got, c.want)
		}
		if !legend[c.want] {
			t.Errorf("Marks does not explain %q", c.want)
		}
	}
}

// TestReportJSON: a report lists every clause and serialises to the field
// names other tools read; Failing counts expected and unexpected failures.
func TestReportJSON(t *testing.T) {
	r := spectest.NewReport(
		spectest.ImplReport{Name: "a", Results: []spectest.Result{
			{Impl: "a", Clause: "NEW-1", Status: spectest.XFail, Note: "why"},
			{Impl: "a", Clause: "NEW-2", Status: spectest.Fail},
			{Impl: "a", Clause: "NEW-3", Status: spectest.XPass},
			{Impl: "a", Clause: "SUB-1", Status: spectest.NA},
		}},
		spectest.ImplReport{Name: "b", Results: []spectest.Result{{Impl: "b", Clause: "NEW-1", Status: spectest.Pass}}},
	)
	if len(r.Clauses) != len(spectest.Clauses()) || r.Clauses[0].ID != spectest.Clauses()[0].ID {
		t.Fatalf("the report lists %d clauses, want the %d of Clauses() in order", len(r.Clauses), len(spectest.Clauses()))
	}
	if got := r.Failing("a"); got != 2 {
		t.Errorf(`Failing("a") = %d, want 2 (one xfail, one fail)`, got)
	}
	if got := r.Failing("b"); got != 0 {
		t.Errorf(`Failing("b") = %d, want 0`, got)
	}
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	var shape struct {
		Clauses []map[string]string `json:"clauses"`
		Impls   []struct {
			Name    string              `json:"name"`
			Results []map[string]string `json:"results"`
		} `json:"implementations"`
	}
	if err := json.Unmarshal(b, &shape); err != nil {
		t.Fatal(err)
	}
	keys := func(m map[string]string) []string {
		var ks []string
		for k := range m {
			ks = append(ks, k)
		}
		slices.Sort(ks)
		return ks
	}
	if got := keys(shape.Clauses[0]); !slices.Equal(got, []string{"id", "level", "slug", "title"}) {
		t.Errorf("a clause serialises with keys %v", got)
	}
	for i, c := range shape.Clauses {
		if want := spectest.Clauses()[i].Level.String(); c["level"] != want || want != "MUST" && want != "SHOULD" {
			t.Errorf("%s serialises its level as %q, want %q, one of MUST and SHOULD", c["id"], c["level"], want)
		}
	}
	if len(shape.Impls) != 2 || shape.Impls[0].Name != "a" {
		t.Fatalf("implementations serialise as %s", b)
	}
	res := shape.Impls[0].Results[0]
	if got := keys(res); !slices.Equal(got, []string{"clause", "impl", "note", "status"}) {
		t.Errorf("a result serialises with keys %v", got)
	}
	if res["status"] != "xfail" || res["clause"] != "NEW-1" {
		t.Errorf("a result serialises as %v", res)
	}
	var back spectest.Report
	if err := json.Unmarshal(b, &back); err != nil || back.Failing("a") != 2 {
		t.Errorf("the report does not read back: %v, Failing(a) = %d", err, back.Failing("a"))
	}
	if !slices.Equal(back.Clauses, r.Clauses) {
		t.Errorf("the clauses read back as %v, want %v", back.Clauses, r.Clauses)
	}
	if err := json.Unmarshal([]byte(`{"clauses":[{"level":"MAY"}]}`), &back); err == nil {
		t.Error("a report with an unknown level reads back without error")
	}
}
