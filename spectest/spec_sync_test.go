package spectest_test

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/poolkit/poolkit/spectest"
)

// TestSpecInSync fails when SPEC.md's Part 1 and the suite's clause
// registry differ: every registered clause must appear with its level and
// its exact one-line text, and every Part 1 clause must be registered.
func TestSpecInSync(t *testing.T) {
	b, err := os.ReadFile("../SPEC.md")
	if err != nil {
		t.Fatal(err)
	}
	spec := string(b)
	start := strings.Index(spec, "## Part 1")
	end := strings.Index(spec, "## Part 2")
	if start < 0 || end < start {
		t.Fatal("SPEC.md has no Part 1 / Part 2 sections")
	}
	part1 := spec[start:end]
	registered := map[string]bool{}
	for _, c := range spectest.Clauses() {
		registered[c.ID] = true
		line := "- **" + c.ID + "** " + c.Level.String() + ": " + c.Title
		if !strings.Contains(part1, line+" Test: `TestConformance`") {
			t.Errorf("SPEC.md Part 1 lacks, or words differently: %q", line)
		}
	}
	for _, m := range regexp.MustCompile(`(?m)^- \*\*([A-Z]+-\d+)\*\*`).FindAllStringSubmatch(part1, -1) {
		if !registered[m[1]] {
			t.Errorf("SPEC.md Part 1 has %s, which the suite does not check", m[1])
		}
	}
}
