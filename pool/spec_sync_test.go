package pool_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestSpecNamesTests keeps SPEC.md honest: every clause names at least one
// test, and every test it names exists in the repository.
func TestSpecNamesTests(t *testing.T) {
	spec, err := os.ReadFile(filepath.Join("..", "SPEC.md"))
	if err != nil {
		t.Fatal(err)
	}
	defined := map[string]bool{}
	funcRE := regexp.MustCompile(`(?m)^func (Test\w+)\(`)
	err = filepath.WalkDir("..", func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, "_test.go") {
			return err
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, m := range funcRE.FindAllStringSubmatch(string(src), -1) {
			defined[m[1]] = true
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	clauseRE := regexp.MustCompile(`^- \*\*([A-Z]+-\d+)\*\* (MUST|SHOULD)`)
	testRE := regexp.MustCompile("`(Test\\w+)`")
	clauses := 0
	// A clause is its bullet and the indented lines that continue it.
	for _, item := range strings.Split(string(spec), "\n- ") {
		item = "- " + item
		m := clauseRE.FindStringSubmatch(item)
		if m == nil {
			continue
		}
		clauses++
		names := testRE.FindAllStringSubmatch(item, -1)
		if len(names) == 0 {
			t.Errorf("%s names no test", m[1])
		}
		for _, n := range names {
			if !defined[n[1]] {
				t.Errorf("%s names %s, which does not exist", m[1], n[1])
			}
		}
	}
	if clauses < 40 {
		t.Errorf("SPEC.md has %d clauses, expected at least 40", clauses)
	}
}
