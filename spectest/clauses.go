package spectest

import "strings"

// Clause is one numbered promise of SPEC.md's conformance part and the
// check of it.
type Clause struct {
	ID    string // as in SPEC.md, e.g. "CAP-2"
	Level string // "MUST" or "SHOULD"
	Slug  string // short name for the subtest
	Title string // the promise, in one line, as in SPEC.md
	// Needs lists the capabilities ("Resize", "Running/Waiting",
	// "Completed", "SubmitContext", "ReleaseNow", "Reboot") and features
	// ("feature:nonblocking", ...) without which the clause does not apply.
	Needs []string
	Run   func(c *Case)
}

// name is the clause's subtest name.
func (cl Clause) name() string { return cl.ID + "-" + cl.Slug }

// missing returns the first need impl does not meet, or "".
func (cl Clause) missing(impl Implementation, caps capabilities) string {
	for _, n := range cl.Needs {
		if f, ok := strings.CutPrefix(n, "feature:"); ok {
			if !impl.supports(Feature(f)) {
				return "the " + f + " option"
			}
			continue
		}
		if !caps[n] {
			return n
		}
	}
	return ""
}

// Clauses returns every clause, in SPEC.md's order.
func Clauses() []Clause {
	var all []Clause
	for _, group := range [][]Clause{constructionClauses, submitClauses, capacityClauses,
		resizeClauses, onceClauses, closeClauses, panicClauses, counterClauses, hygieneClauses} {
		all = append(all, group...)
	}
	return all
}
