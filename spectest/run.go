package spectest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"
)

// childEnv marks a child process that runs one clause for its parent.
const childEnv = "POOLKIT_SPECTEST_CHILD"

// childTimeout bounds a child process: a clause that hangs a pool is a
// failure, not a stuck suite.
const childTimeout = 20 * time.Second

// Intermittent starts a Known entry for a divergence that shows only in
// some runs (a data race the race detector catches when the timing allows).
// Such a clause is not reported as fixed when a run passes.
const Intermittent = "intermittent: "

// IsChild reports whether this process runs a single clause for a parent
// Run or Check. A TestMain that checks for leaked goroutines should not do so in a
// child: the clause checks what it means to check, and a leak of the pool
// under test is that pool's result, not the suite's.
func IsChild() bool { return os.Getenv(childEnv) != "" }

// Run checks impl against every clause, each as a subtest named
// "<ID>-<slug>", and returns the results in clause order. A clause that
// fails, or a known divergence that no longer shows, fails its subtest and
// so t. A child process reruns the test by name to run one clause, so Run
// must be called at most once per test or subtest, and not from a parallel
// test.
func Run(t *testing.T, impl Implementation) []Result {
	t.Helper()
	var caps capabilities
	if !IsChild() { // the parent already knows, and pond must not be probed outside the clause's bubble
		var err error
		if caps, err = probe(impl); err != nil {
			t.Fatal(err)
		}
	}
	var results []Result
	for _, c := range Clauses() {
		res := Result{Impl: impl.Name, Clause: c.ID, Note: impl.Notes[c.ID]}
		t.Run(c.name(), func(t *testing.T) {
			if IsChild() {
				c.Run(&Case{T: t, impl: impl, na: new(string)})
				return
			}
			if missing := c.missing(impl, caps); missing != "" {
				res.Status, res.Note = NA, "lacks "+missing
				t.Skipf("n.a.: %s lacks %s", impl.Name, missing)
			}
			if _, known := impl.Known[c.ID]; !known && !impl.Isolate {
				runHere(t, c, impl, &res)
				return
			}
			var passed bool
			var out string
			res, passed, out = runIsolated(t, t.Name(), c, impl)
			switch {
			case res.Status == NA:
				t.Skip(out)
			case res.Status == XFail && passed:
				t.Skipf("expected intermittent failure, not seen this run: %s", res.Note)
			case res.Status == XFail:
				t.Skipf("expected failure: %s\n%s", res.Note, out)
			case res.Status == XPass:
				t.Errorf("%s: known divergence no longer shows; remove it from Known: %s", c.ID, impl.Known[c.ID])
			case res.Status == Fail:
				t.Errorf("%s failed in a child process:\n%s", c.ID, out)
			}
		})
		results = append(results, res)
	}
	return results
}

// runHere runs clause c in this process, as the current subtest, and
// records its result in res. The clause may end the subtest (failing or
// skipping it, which exits the goroutine), so res is written on the way
// out.
func runHere(t *testing.T, c Clause, impl Implementation, res *Result) {
	na := new(string)
	defer func() {
		switch {
		case t.Failed():
			res.Status = Fail
		case t.Skipped():
			res.Status, res.Note = NA, *na
		default:
			res.Status = Pass
		}
	}()
	c.Run(&Case{T: t, impl: impl, na: na})
}

// runIsolated runs clause c alone in a child process, as the test named
// name, and judges the outcome against impl.Known. It returns the result,
// whether the clause passed in the child, and what the child printed of
// its failure (for NA, why the clause does not apply).
func runIsolated(t *testing.T, name string, c Clause, impl Implementation) (res Result, passed bool, out string) {
	t.Helper()
	res = Result{Impl: impl.Name, Clause: c.ID, Note: impl.Notes[c.ID]}
	passed, skipped, out := runChild(t, name)
	known, isKnown := impl.Known[c.ID]
	switch {
	case skipped != "":
		res.Status, res.Note, out = NA, skipped, skipped
	case isKnown && (!passed || strings.HasPrefix(known, Intermittent)):
		// An intermittent divergence stays listed: one run that misses it
		// does not fix it.
		res.Status, res.Note = XFail, known
	case isKnown:
		res.Status = XPass
	case passed:
		res.Status = Pass
	default:
		res.Status = Fail
	}
	return res, passed, out
}

// Check checks impl against every clause and returns the verdict as an
// error: nil when every clause passes, does not apply, or fails as impl
// lists in Known; else the errors.Join of one *ClauseError per clause that
// failed, or that is listed in Known and passed. (If impl cannot even build
// the pool of size 2 that tells which capabilities it has, Check returns
// that error alone.)
//
// Check never marks t failed: what to do with the verdict is the caller's.
// A clause needs a *testing.T of its own (testing/synctest.Test takes one,
// and a clause's assertions fail it), and a subtest's failure would fail t,
// so Check runs each clause in a child process: the test binary, rerunning
// the calling test with only that clause selected. That costs a process per
// clause (a few seconds for the suite), and in return a clause that
// panics, crashes the process or hangs (killed after a timeout) is one
// failed clause, not a lost run. In the child, Check runs the clause as a
// subtest of t, which the child reports. Because the child selects the
// test by name, call Check at most once per test or subtest, and not from
// a parallel test; a TestMain that checks for leaks should skip that check
// in a child (see IsChild).
func Check(t *testing.T, impl Implementation) error {
	t.Helper()
	if IsChild() {
		for _, c := range Clauses() {
			t.Run(c.name(), func(t *testing.T) { c.Run(&Case{T: t, impl: impl, na: new(string)}) })
		}
		return nil
	}
	caps, err := probe(impl)
	if err != nil {
		return err
	}
	var errs []error
	for _, c := range Clauses() {
		if c.missing(impl, caps) != "" {
			continue
		}
		res, _, out := runIsolated(t, t.Name()+"/"+c.name(), c, impl)
		switch res.Status {
		case Fail:
			errs = append(errs, &ClauseError{ID: c.ID, Title: c.Title, Saw: out})
		case XPass:
			errs = append(errs, &ClauseError{ID: c.ID, Title: c.Title,
				Saw: "it passed, but Known lists it as a divergence: " + impl.Known[c.ID]})
		}
	}
	return errors.Join(errs...)
}

// ClauseError is a clause that failed a Check.
type ClauseError struct {
	ID    string // the clause's ID, as in SPEC.md
	Title string // the clause's promise
	// Saw is what the check saw: the clause's failure messages, how its
	// child process ended (a panic, a hang), or that a listed divergence
	// did not show.
	Saw string
}

func (e *ClauseError) Error() string {
	return e.ID + ": " + e.Title + "\n\t" + strings.ReplaceAll(strings.TrimSpace(e.Saw), "\n", "\n\t")
}

// runChild runs the test or subtest called name alone in a child process
// and reports whether it passed, why it skipped (if it did), and the end of
// its output.
func runChild(t *testing.T, name string) (passed bool, skipped, out string) {
	t.Helper()
	parts := strings.Split(name, "/")
	for i, p := range parts {
		parts[i] = "^" + regexp.QuoteMeta(p) + "$"
	}
	ctx, cancel := context.WithTimeout(context.Background(), childTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run="+strings.Join(parts, "/"),
		"-test.v", "-test.count=1", "-rapid.nofailfile", "-rapid.shrinktime=2s")
	// A race-enabled binary sleeps a second at exit by default, which would
	// add minutes over a few hundred children.
	cmd.Env = append(os.Environ(), childEnv+"=1", "GORACE=atexit_sleep_ms=0 "+os.Getenv("GORACE"))
	b, err := cmd.CombinedOutput()
	passed = err == nil && bytes.Contains(b, []byte("--- PASS: "+name))
	if err == nil && bytes.Contains(b, []byte("--- SKIP: "+name)) {
		if m := skipRE.FindSubmatch(b); m != nil {
			skipped = string(m[1])
		} else {
			skipped = "n.a."
		}
	}
	if ctx.Err() != nil {
		b = append(b, fmt.Sprintf("\n(child killed after %v: the clause hung)", childTimeout)...)
	}
	return passed, skipped, summary(string(b))
}

// summary picks the lines of a child's output that say what went wrong:
// the clause's own messages, panics and fatal errors; else its last lines.
func summary(out string) string {
	var keep []string
	for _, l := range strings.Split(out, "\n") {
		t := strings.TrimSpace(l)
		if logLineRE.MatchString(t) || strings.HasPrefix(t, "panic:") || strings.HasPrefix(t, "fatal error:") ||
			strings.HasPrefix(t, "(child killed") {
			keep = append(keep, t)
		}
		if len(keep) == 12 {
			break
		}
	}
	if len(keep) == 0 {
		return tail(out, 20)
	}
	return strings.Join(keep, "\n")
}

var logLineRE = regexp.MustCompile(`^\w+\.go:\d+: `)

// skipRE finds the reason a clause gave for not applying (see Case.NA).
var skipRE = regexp.MustCompile(`(n\.a\.: [^\n]*)`)

func tail(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// capabilities are the interfaces a probe pool has.
type capabilities map[Capability]bool

// probe builds one small pool outside any clause to see which optional
// interfaces the implementation has.
func probe(impl Implementation) (capabilities, error) {
	p, err := impl.New(Config{Size: 2})
	if err != nil {
		return nil, fmt.Errorf("%s: New(Config{Size: 2}) = %v", impl.Name, err)
	}
	caps := capabilities{}
	for c := SubmitContext; c <= Reboot; c++ {
		caps[c] = c.of(p)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := p.Shutdown(ctx); err != nil {
		return nil, fmt.Errorf("%s: releasing the probe pool: %v", impl.Name, err)
	}
	return caps, nil
}
