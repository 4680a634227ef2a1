// Command mutate measures how much of the engine's behaviour the test suite
// pins down. It applies each mutation in mutations.txt (a single-point
// change to the engine (internal/engine): a dropped re-check, two steps swapped, a forgotten
// wake-up) to a copy of the repository, runs the suite on it, and reports
// which mutants the suite kills (some test fails, the race detector or an
// invariant fires, or the run times out) and which survive.
//
//	go run ./cmd/mutate            # every mutation, from the repository root
//	go run ./cmd/mutate -run W2    # those whose id contains W2
//
// A mutation file entry is
//
//	=== ID description
//	@@ path/in/repo.go
//	text to find (must occur exactly once)
//	@@@
//	text to put in its place
//
// with as many @@ edits as the mutation needs.
package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

var showOutput bool

type edit struct{ file, old, new string }

type mutation struct {
	id, about string
	edits     []edit
}

func main() {
	spec := flag.String("mutations", "cmd/mutate/mutations.txt", "mutation file")
	only := flag.String("run", "", "run only the mutations whose id contains this")
	timeout := flag.Duration("timeout", 90*time.Second, "a suite run that takes longer counts as killed (a hang); a healthy run takes about 10 s")
	show := flag.Bool("show", false, "print the suite's output for each mutant")
	testArgs := flag.String("test", "-count=1 -race -tags poolkit_hooks ./pool ./internal/engine", "arguments to go test")
	flag.Parse()
	showOutput = *show
	if err := run(*spec, *only, *timeout, strings.Fields(*testArgs)); err != nil {
		fmt.Fprintln(os.Stderr, "mutate:", err)
		os.Exit(1)
	}
}

func run(spec, only string, timeout time.Duration, testArgs []string) error {
	text, err := os.ReadFile(spec)
	if err != nil {
		return err
	}
	muts, err := parse(string(text))
	if err != nil {
		return err
	}
	work, err := copyRepo()
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)

	// Every mutation must still apply to the code as it is now: a text
	// that an edit of the engine changed is found here, before the suite
	// runs for a quarter of an hour, not in its middle.
	var stale []string
	for _, m := range muts {
		restore, err := apply(work, m)
		if err != nil {
			stale = append(stale, fmt.Sprintf("%s: %v", m.id, err))
			continue
		}
		restore()
	}
	if len(stale) > 0 {
		return fmt.Errorf("%d mutations no longer apply; update %s:\n%s", len(stale), spec, strings.Join(stale, "\n"))
	}

	fmt.Printf("suite: go test %s\n", strings.Join(testArgs, " "))
	if ok, out := suite(work, timeout, testArgs); !ok {
		return fmt.Errorf("the suite fails without any mutation:\n%s", out)
	}
	killed, total := 0, 0
	var survivors []string
	fmt.Println("| mutant | what it changes | result |")
	fmt.Println("|---|---|---|")
	for _, m := range muts {
		if only != "" && !strings.Contains(m.id, only) {
			continue
		}
		restore, err := apply(work, m)
		if err != nil {
			return fmt.Errorf("%s: %w", m.id, err)
		}
		start := time.Now()
		passed, out := suite(work, timeout, testArgs)
		restore()
		if showOutput {
			fmt.Println(out)
		}
		total++
		result := "killed: " + firstFailure(out)
		if passed {
			result = "SURVIVED"
			survivors = append(survivors, m.id)
		} else {
			killed++
		}
		fmt.Printf("| %s | %s | %s (%.0fs) |\n", m.id, m.about, result, time.Since(start).Seconds())
	}
	fmt.Printf("\nscore: %d of %d killed (%.0f%%)", killed, total, 100*float64(killed)/float64(max(total, 1)))
	if len(survivors) > 0 {
		fmt.Printf("; survivors: %s", strings.Join(survivors, ", "))
	}
	fmt.Println()
	return nil
}

func parse(text string) ([]mutation, error) {
	var muts []mutation
	var m *mutation
	var e *edit
	inNew := false
	flush := func() {
		if e != nil {
			e.old = strings.TrimRight(e.old, "\n")
			e.new = strings.TrimRight(e.new, "\n")
			m.edits = append(m.edits, *e)
			e = nil
		}
	}
	for _, line := range strings.SplitAfter(text, "\n") { // each line with its newline, as strings.Lines (Go 1.24) gives it
		switch {
		case strings.HasPrefix(line, "=== "):
			if m != nil {
				flush()
				muts = append(muts, *m)
			}
			id, about, _ := strings.Cut(strings.TrimSpace(line[4:]), " ")
			m = &mutation{id: id, about: about}
		case strings.HasPrefix(line, "@@@"):
			inNew = true
		case strings.HasPrefix(line, "@@ "):
			if m == nil {
				return nil, errors.New("an edit before the first ===")
			}
			flush()
			e = &edit{file: strings.TrimSpace(line[3:])}
			inNew = false
		case e != nil && inNew:
			e.new += line
		case e != nil:
			e.old += line
		}
	}
	if m != nil {
		flush()
		muts = append(muts, *m)
	}
	return muts, nil
}

// copyRepo copies the files git knows of (tracked, or new and not
// ignored) into a temporary directory.
func copyRepo() (string, error) {
	out, err := exec.Command("git", "ls-files", "-co", "--exclude-standard").Output()
	if err != nil {
		return "", fmt.Errorf("git ls-files (run from the repository root): %w", err)
	}
	dir, err := os.MkdirTemp("", "poolkit-mutate-")
	if err != nil {
		return "", err
	}
	for _, f := range strings.Fields(string(out)) {
		data, err := os.ReadFile(f)
		if errors.Is(err, os.ErrNotExist) {
			continue // deleted in the work tree
		}
		if err != nil {
			return "", err
		}
		dst := filepath.Join(dir, f)
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return "", err
		}
		if err := os.WriteFile(dst, data, 0o644); err != nil {
			return "", err
		}
	}
	return dir, nil
}

func apply(work string, m mutation) (restore func(), err error) {
	saved := map[string][]byte{}
	restore = func() {
		for f, data := range saved {
			os.WriteFile(f, data, 0o644)
		}
	}
	for _, e := range m.edits {
		f := filepath.Join(work, e.file)
		data, err := os.ReadFile(f)
		if err != nil {
			restore()
			return nil, err
		}
		if _, ok := saved[f]; !ok {
			saved[f] = data
		}
		if n := bytes.Count(data, []byte(e.old)); n != 1 {
			restore()
			return nil, fmt.Errorf("%s: the text to replace occurs %d times, want 1:\n%s", e.file, n, e.old)
		}
		data = bytes.Replace(data, []byte(e.old), []byte(e.new), 1)
		if err := os.WriteFile(f, data, 0o644); err != nil {
			restore()
			return nil, err
		}
	}
	return restore, nil
}

func suite(dir string, timeout time.Duration, args []string) (bool, string) {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	// The test binary's own -timeout ends a hang: killing the go command
	// at the deadline would leave the binary it started running.
	testTimeout := fmt.Sprintf("-timeout=%s", max(timeout-15*time.Second, timeout/2))
	cmd := exec.CommandContext(ctx, "go", append([]string{"test", testTimeout}, args...)...)
	cmd.Dir = dir
	cmd.WaitDelay = 10 * time.Second
	kept := rapidCases(dir)
	out, err := cmd.CombinedOutput()
	// rapid keeps a failing case in testdata/rapid and replays it first
	// in the next run: left there, the case a mutant failed would fail the
	// next mutant's run too, and hide which test catches that one.
	for _, f := range rapidCases(dir) {
		if !slices.Contains(kept, f) {
			_ = os.Remove(f)
		}
	}
	if ctx.Err() != nil {
		return false, "timed out (a hang)\n" + string(out)
	}
	return err == nil, string(out)
}

// rapidCases lists the failing cases rapid keeps under dir.
func rapidCases(dir string) []string {
	var cases []string
	_ = filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".fail") && strings.Contains(filepath.ToSlash(path), "/testdata/rapid/") {
			cases = append(cases, path)
		}
		return nil
	})
	return cases
}

// firstFailure names what killed a mutant: the first failing test, or the
// kind of crash.
func firstFailure(out string) string {
	for _, line := range strings.SplitAfter(out, "\n") {
		line = strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(line, "timed out (a hang)"), strings.HasPrefix(line, "panic: test timed out"):
			return "hang"
		case strings.HasPrefix(line, "--- FAIL: "):
			name, _, _ := strings.Cut(strings.TrimPrefix(line, "--- FAIL: "), " ")
			return name
		case strings.HasPrefix(line, "panic: pool: engine invariant broken"):
			what, _, _ := strings.Cut(strings.TrimPrefix(line, "panic: pool: engine invariant broken: "), " (")
			return "invariant: " + what
		case strings.HasPrefix(line, "WARNING: DATA RACE"):
			return "data race"
		case strings.Contains(line, "build failed") || strings.HasPrefix(line, "# "):
			return "does not build"
		}
	}
	return "suite failed"
}
