package compat_test

import (
	"bytes"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/poolkit/poolkit/spec_test"
)

const matrixPath = "../MATRIX.md"

const regenerate = "go test ./compat -run 'TestConformance|TestMatrix' -args -update"

// TestMatrixUpToDate fails when MATRIX.md differs from what this run of
// TestConformance found (it needs the full run; with -update it rewrites
// the file instead; with -matrix-out it writes the matrix elsewhere and
// checks nothing).
func TestMatrixUpToDate(t *testing.T) {
	impls := implementations()
	for _, impl := range impls {
		if len(results[impl.Name]) != len(spectest.Clauses()) {
			t.Skip("needs a full TestConformance run in the same process")
		}
	}
	got := renderMatrix(impls)
	if *matrixOut != "" {
		if err := os.WriteFile(*matrixOut, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
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

var symbols = map[spectest.Status]string{
	spectest.Pass:  "✓",
	spectest.Fail:  "✗ (unexpected)",
	spectest.XFail: "✗",
	spectest.XPass: "✓ (was ✗)",
	spectest.NA:    "n.a.",
}

func renderMatrix(impls []spectest.Implementation) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "# Conformance matrix\n\n")
	fmt.Fprintf(&b, "Every clause of the conformance part of [SPEC.md](SPEC.md), run by the suite of `spec_test` (from `compat`'s tests) against poolkit and,\n")
	fmt.Fprintf(&b, "through the adapters in `compat`, against ants v2.12.1, poolkit's drop-in replacement for it\n")
	fmt.Fprintf(&b, "(`github.com/poolkit/poolkit/ants`), pond v2.7.1, tunny v0.1.4 and poolkit's actor router.\n")
	fmt.Fprintf(&b, "Generated; regenerate with `%s`.\n", regenerate)
	fmt.Fprintf(&b, "A test fails when this file differs from what the suite finds, and when a listed divergence stops showing.\n\n")
	fmt.Fprintf(&b, "The `ants*` columns and their drop-in counterparts, `poolkit-ants*`, cover one pool type each: without\n")
	fmt.Fprintf(&b, "a suffix `Pool`; `-func` the generic `PoolWithFunc` (`PoolWithFuncGeneric[func()]`); `-func-any` `PoolWithFunc`,\n")
	fmt.Fprintf(&b, "whose arguments are of type `any`; `-multi` `MultiPool`; `-multi-func` `MultiPoolWithFunc`. A pool with a\n")
	fmt.Fprintf(&b, "function is invoked with the task as argument (a nil task as a nil argument); a multi-pool balances round-robin.\n")
	fmt.Fprintf(&b, "A multi-pool of even size n is built from 2 sub-pools of n/2; of odd size n, from n sub-pools of 1 (ants,\n")
	fmt.Fprintf(&b, "whose sub-pools all have one size) or 1 sub-pool of n (the drop-in, whose `Resize(n)` sets the total\n")
	fmt.Fprintf(&b, "and refuses n below the number of sub-pools).\n\n")
	fmt.Fprintf(&b, "✓ passes; ✗ fails (the reason and a reproducer are below); n.a.: the pool lacks what the clause needs;\n")
	fmt.Fprintf(&b, "✓* passes thanks to a guard in the adapter (see the note below).\n\n")
	fmt.Fprintf(&b, "| clause | level |")
	for _, impl := range impls {
		fmt.Fprintf(&b, " %s |", impl.Name)
	}
	fmt.Fprintf(&b, "\n|---|---|%s\n", strings.Repeat("---|", len(impls)))
	fails := map[string]int{}
	for i, c := range spectest.Clauses() {
		fmt.Fprintf(&b, "| %s %s | %s |", c.ID, c.Slug, c.Level)
		for _, impl := range impls {
			r := results[impl.Name][i]
			cell := symbols[r.Status]
			if r.Status == spectest.Pass && r.Note != "" {
				cell = "✓*"
			}
			if r.Status == spectest.XFail {
				fails[impl.Name]++
			}
			fmt.Fprintf(&b, " %s |", cell)
		}
		fmt.Fprintln(&b)
	}
	fmt.Fprintf(&b, "\nFailing clauses: ")
	var counts []string
	for _, impl := range impls {
		counts = append(counts, fmt.Sprintf("%s %d", impl.Name, fails[impl.Name]))
	}
	fmt.Fprintf(&b, "%s (of %d).\n", strings.Join(counts, ", "), len(spectest.Clauses()))
	for _, impl := range impls {
		var lines []string
		for i, c := range spectest.Clauses() {
			r := results[impl.Name][i]
			switch {
			case r.Status == spectest.XFail || r.Status == spectest.Fail:
				lines = append(lines, fmt.Sprintf("- **%s** ✗ %s. Reproduce: `go test ./compat -run '^TestConformance$/^%s$/^%s-' -v`",
					c.ID, r.Note, impl.Name, c.ID))
			case r.Note != "" && r.Status != spectest.NA:
				lines = append(lines, fmt.Sprintf("- **%s** note: %s.", c.ID, r.Note))
			}
		}
		if len(lines) > 0 {
			fmt.Fprintf(&b, "\n## %s\n\n%s\n", impl.Name, strings.Join(lines, "\n"))
		}
	}
	return b.Bytes()
}
