package spectest

// Status is a clause's outcome for one implementation.
type Status string

// The outcomes.
const (
	Pass  Status = "pass"
	Fail  Status = "fail"  // unexpected failure: the suite fails
	XFail Status = "xfail" // known divergence, still present
	XPass Status = "xpass" // known divergence that no longer shows: the suite fails
	NA    Status = "n.a."  // the implementation lacks a capability the clause needs
)

// Result is one cell of the matrix: a clause's outcome for one
// implementation. Note holds the known divergence of an XFail, the missing
// capability of an NA, and otherwise the implementation's remark on the
// clause (Implementation.Notes), if any.
type Result struct {
	Impl   string `json:"impl"`
	Clause string `json:"clause"`
	Status Status `json:"status"`
	Note   string `json:"note"`
}

// Legend explains one mark of a matrix.
type Legend struct {
	Mark    string `json:"mark"`
	Meaning string `json:"meaning"`
}

// Marks explains every mark Result.Mark returns, for any table that shows
// them.
var Marks = []Legend{
	{"✓", "passes"},
	{"✓*", "passes thanks to a guard in the adapter, which the note on the clause describes"},
	{"✗", "fails: a known divergence, listed with its evidence"},
	{"✗ (unexpected)", "fails and is not listed as a known divergence: the run fails"},
	{"✓ (was ✗)", "listed as a known divergence, but passed: the run fails until the listing goes"},
	{"n.a.", "does not apply: the pool lacks a capability the clause needs"},
}

// Mark is the symbol a matrix shows for r (see Marks).
func (r Result) Mark() string {
	switch r.Status {
	case Pass:
		if r.Note != "" {
			return "✓*"
		}
		return "✓"
	case Fail:
		return "✗ (unexpected)"
	case XFail:
		return "✗"
	case XPass:
		return "✓ (was ✗)"
	default:
		return string(r.Status)
	}
}

// ClauseInfo is what a report says of a clause.
type ClauseInfo struct {
	ID    string `json:"id"`
	Slug  string `json:"slug"`
	Level Level  `json:"level"` // "MUST" or "SHOULD" in JSON
	Title string `json:"title"`
}

// ImplReport is one implementation's results, in clause order (those Run
// returns).
type ImplReport struct {
	Name    string   `json:"name"`
	Results []Result `json:"results"`
}

// Report is a run of the suite over several implementations: the clauses,
// and each implementation's results. It is what MATRIX.md is rendered from,
// and it serialises to JSON for other tools.
type Report struct {
	Clauses         []ClauseInfo `json:"clauses"`
	Implementations []ImplReport `json:"implementations"`
}

// NewReport returns a report of every clause over impls, in the order
// given.
func NewReport(impls ...ImplReport) Report {
	r := Report{Implementations: impls}
	for _, c := range Clauses() {
		r.Clauses = append(r.Clauses, ClauseInfo{ID: c.ID, Slug: c.Slug, Level: c.Level, Title: c.Title})
	}
	return r
}

// Failing returns how many clauses the named implementation fails,
// expectedly or not.
func (r Report) Failing(impl string) int {
	n := 0
	for _, ir := range r.Implementations {
		if ir.Name != impl {
			continue
		}
		for _, res := range ir.Results {
			if res.Status == Fail || res.Status == XFail {
				n++
			}
		}
	}
	return n
}
