package spectest

import (
	"fmt"
	"strconv"
)

// Level is how binding a clause is, as SPEC.md words it.
type Level uint8

// The levels.
const (
	Must   Level = iota + 1 // a violation is a bug
	Should                  // a default a pool may depart from, saying so
)

// String returns "MUST" or "SHOULD", the words of SPEC.md and MATRIX.md;
// for the zero Level, ""; for any other value, "Level(n)".
func (l Level) String() string {
	switch l {
	case 0:
		return ""
	case Must:
		return "MUST"
	case Should:
		return "SHOULD"
	}
	return "Level(" + strconv.Itoa(int(l)) + ")"
}

// MarshalText encodes l as String does, so that a Report's JSON holds
// "MUST" and "SHOULD" as it always has. A value other than Must, Should
// and the zero Level (which encodes as "") is an error.
func (l Level) MarshalText() ([]byte, error) {
	if l > Should {
		return nil, fmt.Errorf("spectest: no level %d", uint8(l))
	}
	return []byte(l.String()), nil
}

// UnmarshalText decodes what MarshalText encodes, so that a Report read
// back from JSON has the levels it was written with.
func (l *Level) UnmarshalText(b []byte) error {
	for _, v := range [...]Level{0, Must, Should} {
		if string(b) == v.String() {
			*l = v
			return nil
		}
	}
	return fmt.Errorf("spectest: unknown level %q", b)
}

// Clause is one numbered promise of SPEC.md's conformance part and the
// check of it.
type Clause struct {
	ID    string // as in SPEC.md, e.g. "CAP-2"
	Level Level
	Slug  string // short name for the subtest
	Title string // the promise, in one line, as in SPEC.md
	// Needs lists the capabilities without which the clause does not
	// apply.
	Needs []Capability
	Run   func(c *Case)
}

// name is the clause's subtest name.
func (cl Clause) name() string { return cl.ID + "-" + cl.Slug }

// missing returns what the first need impl does not meet is called in a
// report, or "" when impl meets them all. has holds the interfaces impl's
// pools have (see probe).
func (cl Clause) missing(impl Implementation, has capabilities) string {
	for _, c := range cl.Needs {
		switch {
		case c.option() && !impl.supports(c):
			return "the " + c.String() + " option"
		case !c.option() && !has[c]:
			return c.String()
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
