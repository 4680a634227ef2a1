package upstream

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"
)

const (
	antsModule = "github.com/panjf2000/ants/v2"
	dropIn     = "github.com/poolkit/poolkit/ants"
)

// parallelRuns is how many of the suite's processes run at once.
const parallelRuns = 3

// racyRuns is how many runs a test listed in racy-upstream.txt gets, in
// all, to pass; it is run again only after a failure showing its text.
const racyRuns = 3

// upstreamFiles are ants' external test files: everything of its suite
// that uses only the exported API.
var upstreamFiles = []string{"ants_test.go", "ants_benchmark_test.go", "example_test.go"}

// known is a test that is expected to fail, why, and a text its failure
// output must contain: one of texts, for a failure that shows in more than
// one way (a race that may panic, or be caught by the race detector first).
type known struct {
	reason string
	texts  []string
}

// shows reports whether out contains one of k's texts.
func (k known) shows(out string) bool {
	for _, t := range k.texts {
		if strings.Contains(out, t) {
			return true
		}
	}
	return false
}

// TestUpstreamSuite runs ants' own tests, examples and benchmarks against
// the drop-in, each in a process of its own, and compares the outcome with
// known-failures.txt. A test listed in racy-upstream.txt, which fails now
// and then against ants itself, is run again when it fails that way.
func TestUpstreamSuite(t *testing.T) {
	if testing.Short() {
		t.Skip("runs ants' whole suite, which takes about a minute")
	}
	expected := readKnown(t, "known-failures.txt")
	racy := readKnown(t, "racy-upstream.txt")
	for name := range racy {
		if _, ok := expected[name]; ok {
			t.Fatalf("%s is in both known-failures.txt and racy-upstream.txt", name)
		}
	}
	bin := buildSuite(t)
	names := listSuite(t, bin)

	// A few processes at a time: most of ants' tests sleep, and one at a
	// time the suite takes over two minutes.
	type result struct {
		out string
		ok  bool
	}
	results := make([]result, len(names))
	sem := make(chan struct{}, parallelRuns)
	var wg sync.WaitGroup
	for i, name := range names {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			out, ok := runOne(bin, name)
			if r, isRacy := racy[name]; isRacy {
				for try := 1; !ok && try < racyRuns && r.shows(out); try++ {
					out, ok = runOne(bin, name)
				}
			}
			results[i] = result{out, ok}
		}()
	}
	wg.Wait()

	passed, failed := 0, 0
	var unexpected []string
	for i, name := range names {
		out, ok := results[i].out, results[i].ok
		k, listed := expected[name]
		switch {
		case ok && !listed:
			passed++
		case ok && listed:
			unexpected = append(unexpected, fmt.Sprintf("%s passes but is listed as a known failure (%s): take it off the list", name, k.reason))
		case !ok && !listed:
			unexpected = append(unexpected, fmt.Sprintf("%s fails:\n%s", name, indent(out)))
		case !k.shows(out):
			unexpected = append(unexpected, fmt.Sprintf("%s fails, as listed, but its output lacks %q, so it fails for another reason:\n%s", name, k.texts, indent(out)))
		default:
			failed++
		}
	}
	for file, list := range map[string]map[string]known{"known-failures.txt": expected, "racy-upstream.txt": racy} {
		for name := range list {
			if !contains(names, name) {
				unexpected = append(unexpected, name+" is listed in "+file+" but is not in the suite")
			}
		}
	}
	t.Logf("ants v2.12.1's suite against %s: %d of %d pass; %d fail as listed in known-failures.txt", dropIn, passed, len(names), failed)
	for _, u := range unexpected {
		t.Error(u)
	}
}

// buildSuite compiles ants' test files, rewritten, into one test binary.
func buildSuite(t *testing.T) string {
	t.Helper()
	dir := goCmd(t, "list", "-m", "-f", "{{.Dir}}", antsModule)
	if dir == "" {
		t.Fatalf("%s is not in the module cache; run go mod download", antsModule)
	}
	suite, err := filepath.Abs("suite")
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	overlay := map[string]string{}
	for _, name := range upstreamFiles {
		src, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		rewritten, err := rewriteImport(src)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		path := filepath.Join(tmp, name)
		if err := os.WriteFile(path, rewritten, 0o644); err != nil {
			t.Fatal(err)
		}
		overlay[filepath.Join(suite, name)] = path
	}
	js, err := json.Marshal(map[string]any{"Replace": overlay})
	if err != nil {
		t.Fatal(err)
	}
	overlayFile := filepath.Join(tmp, "overlay.json")
	if err := os.WriteFile(overlayFile, js, 0o644); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(tmp, "ants.test")
	args := []string{"test", "-c", "-o", bin, "-overlay", overlayFile}
	if raceEnabled {
		args = append(args, "-race")
	}
	goCmd(t, append(args, "./suite")...)
	return bin
}

var importLine = regexp.MustCompile(`(?m)^(\s*)"` + regexp.QuoteMeta(antsModule) + `"$`)

// rewriteImport changes the import of ants to the drop-in's; the file must
// import ants exactly once, by its plain path, and nothing else changes.
func rewriteImport(src []byte) ([]byte, error) {
	if n := len(importLine.FindAll(src, -1)); n != 1 {
		return nil, fmt.Errorf("want one import of %s, found %d", antsModule, n)
	}
	return importLine.ReplaceAll(src, []byte(`${1}"`+dropIn+`"`)), nil
}

// listSuite returns the tests, examples and benchmarks of the binary.
func listSuite(t *testing.T, bin string) []string {
	t.Helper()
	out, err := exec.Command(bin, "-test.list", ".").Output()
	if err != nil {
		t.Fatalf("listing the suite: %v", err)
	}
	var names []string
	for _, line := range strings.Fields(string(out)) {
		if strings.HasPrefix(line, "Test") || strings.HasPrefix(line, "Example") || strings.HasPrefix(line, "Benchmark") {
			names = append(names, line)
		}
	}
	sort.Strings(names)
	if len(names) < 50 {
		t.Fatalf("found %d tests in ants' suite, expected over 50: %q", len(names), names)
	}
	return names
}

// runOne runs one test, example or benchmark (once) in its own process and
// reports its output and whether it passed.
func runOne(bin, name string) (string, bool) {
	pattern := "^" + name + "$"
	args := []string{"-test.run", pattern, "-test.v", "-test.timeout", "3m"}
	if strings.HasPrefix(name, "Benchmark") {
		args = []string{"-test.run", "^$", "-test.bench", pattern, "-test.benchtime", "1x", "-test.benchmem", "-test.timeout", "3m"}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	out, err := cmd.CombinedOutput()
	ok := err == nil
	if ok && !strings.HasPrefix(name, "Benchmark") && !bytes.Contains(out, []byte("--- PASS: "+name)) {
		ok = false // it did not run
	}
	return string(out), ok
}

// readKnown parses known-failures.txt: "name | reason | text" lines, with
// # comments and blank lines.
func readKnown(t *testing.T, path string) map[string]known {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	m := map[string]known{}
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		s := strings.TrimSpace(sc.Text())
		if s == "" || strings.HasPrefix(s, "#") {
			continue
		}
		parts := strings.Split(s, " | ")
		if len(parts) != 3 || parts[0] == "" || parts[1] == "" || parts[2] == "" {
			t.Fatalf("%s:%d: want \"name | reason | text the failure shows\", got %q", path, line, s)
		}
		m[parts[0]] = known{reason: parts[1], texts: strings.Split(parts[2], " || ")}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return m
}

func goCmd(t *testing.T, args ...string) string {
	t.Helper()
	cmd := exec.Command("go", args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	return strings.TrimSpace(string(out))
}

func indent(s string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > 40 {
		lines = append(lines[:40], fmt.Sprintf("... %d more lines", len(lines)-40))
	}
	return "\t" + strings.Join(lines, "\n\t")
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
