//go:build unix

package main

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// interruptAt stands in for the stages of a run: each before stage
// measures at once (bench with made-up results), and the stage named
// stage sends this process a SIGINT, as a Ctrl-C does, and stops when
// the run's context says so. No stage may run after it.
func interruptAt(t *testing.T, stage string) {
	t.Helper()
	real := runStage
	t.Cleanup(func() { runStage = real })
	interrupted := false
	runStage = func(ctx context.Context, s string, c config, _ string, prog progress, _ io.Writer, o *outcomes) error {
		switch {
		case interrupted:
			t.Errorf("%s ran after the interrupt", s)
			return nil
		case s == stage:
			interrupted = true
			prog.Update(0, time.Minute, "round 1")
			if err := syscall.Kill(os.Getpid(), syscall.SIGINT); err != nil {
				t.Fatal(err)
			}
			select {
			case <-ctx.Done():
			case <-time.After(time.Minute):
				t.Error("the interrupt did not reach the stage")
			}
			prog.Finish()
			return ctx.Err()
		case s == "bench":
			raw := absPath(filepath.Join(c.out, "bench.txt"))
			writeFile(t, raw, "raw")
			o.bench = &benchOutcome{view: newBenchView(fakeResults(), raw, nil)}
			prog.Update(time.Second, time.Second, "")
			return nil
		}
		t.Fatalf("no stand-in for %s", s)
		return nil
	}
}

// TestInterruptKeepsMeasured: a Ctrl-C during the actor benchmarks stops
// them, keeps the benchmarks measured before in a report that marks the
// stages stopped and not run, leaves the README alone, says in one line
// what was kept and where, and exits 130.
func TestInterruptKeepsMeasured(t *testing.T) {
	interruptAt(t, "actors")
	dir := t.TempDir()
	out := filepath.Join(dir, "report")
	readme := filepath.Join(dir, "README.md")
	const before = "# x\n" + readmeBegin + "\nold\n" + readmeEnd + "\n"
	writeFile(t, readme, before)
	var stdout, stderr strings.Builder
	code := run([]string{"-plain", "-out", out, "-readme", readme}, &stdout, &stderr)
	if code != exitInterrupted {
		t.Errorf("exit %d, want %d", code, exitInterrupted)
	}
	lines := strings.Split(strings.TrimSpace(stderr.String()), "\n")
	if len(lines) != 1 {
		t.Errorf("stderr has %d lines, want one:\n%s", len(lines), stderr.String())
	}
	for _, want := range []string{"poolkit: interrupted after ", "kept bench in ", filepath.Join(out, "index.html"),
		"actors stopped after ", "keyed, spec and autoscale not run", "README.md not updated"} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr.String())
		}
	}
	for _, want := range []string{"bench: took ", "actors: stopped after ", "(interrupted)", "keyed: not run (interrupted)", "spec: not run (interrupted)",
		"autoscale: not run (interrupted)"} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("the terminal lacks %q:\n%s", want, stdout.String())
		}
	}
	checkReport(t, out, "bench", "W", "V")
	html, err := os.ReadFile(filepath.Join(out, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Interrupted.", "Actor benchmarks: stopped after ", "Keyed stream benchmark: not run (interrupted)", "Conformance matrix: not run (interrupted)",
		"Autoscaler scenarios: not run (interrupted)", "actors stopped after"} {
		if !strings.Contains(string(html), want) {
			t.Errorf("the report lacks %q", want)
		}
	}
	if got, _ := os.ReadFile(readme); string(got) != before {
		t.Errorf("the README changed:\n%s", got)
	}
}

// TestInterruptBeforeAnything: a Ctrl-C during the first stage keeps
// nothing: the output folder goes when this run created it, and stays,
// as it was, when it was there before.
func TestInterruptBeforeAnything(t *testing.T) {
	interruptAt(t, "bench")
	out := filepath.Join(t.TempDir(), "report")
	var stdout, stderr strings.Builder
	if code := run([]string{"-plain", "-out", out}, &stdout, &stderr); code != exitInterrupted {
		t.Errorf("exit %d, want %d", code, exitInterrupted)
	}
	if _, err := os.Stat(out); err == nil {
		t.Errorf("%s is left behind", out)
	}
	if !strings.Contains(stderr.String(), "nothing measured to keep") || !strings.Contains(stderr.String(), "removed") {
		t.Errorf("stderr: %s", stderr.String())
	}

	interruptAt(t, "bench")
	writeFile(t, filepath.Join(out, "old.txt"), "an earlier run's")
	stderr.Reset()
	if code := run([]string{"-plain", "-out", out, "bench"}, &stdout, &stderr); code != exitInterrupted {
		t.Errorf("exit %d, want %d", code, exitInterrupted)
	}
	if _, err := os.Stat(filepath.Join(out, "old.txt")); err != nil {
		t.Errorf("a folder that was there before: %v", err)
	}
	if _, err := os.Stat(filepath.Join(out, "index.html")); err == nil {
		t.Error("a report of nothing")
	}
	if !strings.Contains(stderr.String(), "left in place") {
		t.Errorf("stderr: %s", stderr.String())
	}
}
