package main

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"
)

func TestParseArgs(t *testing.T) {
	for _, c := range []struct {
		args []string
		want config
	}{
		{nil, config{command: "report", rounds: 3, out: "poolkit-report"}},
		{[]string{"-full"}, config{command: "report", full: true, rounds: 10, out: "poolkit-report"}},
		{[]string{"bench", "-rounds", "2"}, config{command: "bench", rounds: 2, out: "poolkit-report"}},
		{[]string{"-rounds=1"}, config{command: "report", rounds: 1, out: "poolkit-report"}},
		{[]string{"-rounds=5", "spec", "-full"}, config{command: "spec", full: true, rounds: 5, out: "poolkit-report"}},
		{[]string{"-workloads", "TinyTasks,Invoke", "-out", "x", "bench"},
			config{command: "bench", rounds: 3, out: "x", workloads: []string{"TinyTasks", "Invoke"}}},
		{[]string{"-maxprocs=automaxprocs", "autoscale", "-plain"},
			config{command: "autoscale", rounds: 3, out: "poolkit-report", maxprocs: "automaxprocs", plain: true}},
		{[]string{"report", "-readme", "README.md"}, config{command: "report", rounds: 3, out: "poolkit-report", readme: "README.md"}},
	} {
		got, err := parseArgs(c.args)
		if err != nil {
			t.Errorf("%q: %v", c.args, err)
			continue
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%q:\n got %+v\nwant %+v", c.args, got, c.want)
		}
	}
}

func TestParseArgsRejects(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"benchmark"}, "unknown command"},
		{[]string{"bench", "spec"}, "unexpected arguments"},
		{[]string{"-rounds", "-1"}, "want at least 1"},
		// Only the absence of -rounds means the default.
		{[]string{"-rounds", "0"}, "want at least 1"},
		{[]string{"-rounds", "two"}, "whole number"},
		{[]string{"-rounds="}, "whole number"},
		{[]string{"-maxprocs", "4"}, "automaxprocs"},
		{[]string{"-out", ""}, "folder"},
		{[]string{"bench", "-readme", "README.md"}, "applies to report"},
		{[]string{"-nosuch"}, "not defined"},
		{[]string{"-workloads", "nonsense"}, `no workload "nonsense" (the workloads are TinyTasks, IOLike`},
		{[]string{"-workloads", "TinyTasks,"}, `no workload ""`},
		{[]string{"-workloads", "Invoke,Invoke", "bench"}, "named twice"},
		{[]string{"-actors", "("}, "-actors"},
		{[]string{"-actors", "^Nonsense$", "actors"}, "matches no actor workload"},
	} {
		_, err := parseArgs(c.args)
		if err == nil {
			t.Errorf("%q accepted", c.args)
			continue
		}
		if !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want an error saying %q", c.args, err, c.want)
		}
	}
}

// TestHelp: "poolkit help", -h and -help print the usage of every
// command on stdout and exit 0.
func TestHelp(t *testing.T) {
	for _, args := range [][]string{{"help"}, {"-h"}, {"-help"}} {
		var stdout, stderr strings.Builder
		if code := run(args, &stdout, &stderr); code != 0 {
			t.Errorf("%q exited %d: %s", args, code, stderr.String())
		}
		quick, _ := parseArgs(nil)
		for _, want := range []string{"report", "bench", "spec", "autoscale", "compare", "help", "-full", "-maxprocs", "-workloads",
			"-base", "-benchtime", "compare-base.txt", "Exit status", minutes(quick.estimate())} {
			if !strings.Contains(stdout.String(), want) {
				t.Errorf("%q: the usage does not mention %q:\n%s", args, want, stdout.String())
			}
		}
		if stderr.Len() > 0 {
			t.Errorf("%q wrote to stderr: %s", args, stderr.String())
		}
	}
}

// TestHelpCommand: help COMMAND and COMMAND -h work for every command and
// show that command's usage with the flags it accepts, and only those.
func TestHelpCommand(t *testing.T) {
	for _, cmd := range commands {
		for _, args := range [][]string{{"help", cmd}, {cmd, "-h"}} {
			var stdout, stderr strings.Builder
			if code := run(args, &stdout, &stderr); code != 0 || stderr.Len() > 0 {
				t.Errorf("%q exited %d: %s", args, code, stderr.String())
				continue
			}
			out := stdout.String()
			if cmd == "help" {
				if !strings.Contains(out, "help [command]") {
					t.Errorf("%q does not show the usage of every command:\n%s", args, out)
				}
				continue
			}
			if !strings.Contains(out, "[flags] "+cmd+"\n") {
				t.Errorf("%q does not show %s's usage:\n%s", args, cmd, out)
			}
			for _, f := range []string{"readme", "workloads", "actors", "keyed", "base", "benchtime", "full", "out"} {
				if got := regexp.MustCompile(`(?m)^  -` + f + `( |$)`).MatchString(out); got != appliesTo(f, cmd) {
					t.Errorf("%q lists -%s: %v, want %v:\n%s", args, f, got, appliesTo(f, cmd), out)
				}
			}
		}
	}
}

// TestBadCommandLineMessage: a mistake is told in one line that names the
// bad value and the help to read, for the command given.
func TestBadCommandLineMessage(t *testing.T) {
	name := invokedAs(os.Args[0])
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-rounds", "0"}, "poolkit: -rounds 0: want at least 1 (usage: " + name + " help)\n"},
		{[]string{"bench", "-rounds", "zero"}, `poolkit: -rounds "zero": want a whole number of rounds, at least 1 (usage: ` + name + " help bench)\n"},
		{[]string{"-full=maybe", "spec"}, `poolkit: invalid boolean value "maybe" for -full: parse error (usage: ` + name + " help)\n"},
		{[]string{"spec", "-full=maybe"}, `poolkit: invalid boolean value "maybe" for -full: parse error (usage: ` + name + " help spec)\n"},
		{[]string{"benchmark"}, `poolkit: unknown command "benchmark" (want one of report, bench, actors, keyed, spec, autoscale, compare, help) (usage: ` + name + " help)\n"},
	} {
		var stdout, stderr strings.Builder
		if code := run(c.args, &stdout, &stderr); code != 2 {
			t.Errorf("%q exited %d, want 2 as the flag package does", c.args, code)
		}
		if stderr.String() != c.want {
			t.Errorf("%q said\n%q\nwant\n%q", c.args, stderr.String(), c.want)
		}
	}
}

// TestBadCommandLine: a bad command line exits 2, says what is wrong once,
// and creates nothing: no report folder, even for a mistake that only the
// file system shows.
func TestBadCommandLine(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "report")
	noSection := filepath.Join(dir, "README.md")
	if err := os.WriteFile(noSection, []byte("# no results section\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-nonsense"}, "flag provided but not defined: -nonsense"},
		{[]string{"nonsense"}, `unknown command "nonsense"`},
		{[]string{"bench", "-workloads", "nonsense"}, "the workloads are TinyTasks, IOLike"},
		{[]string{"-workloads", "nonsense"}, "the workloads are TinyTasks, IOLike"},
		{[]string{"-rounds", "0"}, "-rounds 0: want at least 1"},
		{[]string{"-actors", "(", "actors"}, "-actors"},
		{[]string{"-readme", noSection}, "no results section"},
		{[]string{"-readme", filepath.Join(dir, "missing.md")}, "-readme"},
		{[]string{"compare", "-benchtime", "soon"}, `-benchtime "soon"`},
		{[]string{"bench", "-base", "main"}, "-base applies to compare"},
	} {
		var stdout, stderr strings.Builder
		code := run(append([]string{"-plain", "-out", out}, c.args...), &stdout, &stderr)
		if code != 2 {
			t.Errorf("%q exited %d, want 2", c.args, code)
		}
		if n := strings.Count(stderr.String(), c.want); n != 1 {
			t.Errorf("%q: stderr says %q %d times, want once:\n%s", c.args, c.want, n, stderr.String())
		}
		if stdout.Len() > 0 {
			t.Errorf("%q: ran something:\n%s", c.args, stdout.String())
		}
		if _, err := os.Stat(out); !errors.Is(err, os.ErrNotExist) {
			t.Fatalf("%q created %s (%v)", c.args, out, err)
		}
	}
}

// TestEstimate: the quick report says it takes a few minutes, the full
// one under an hour on 2 CPUs (the real-time autoscaler scenarios alone
// take about 20 minutes), and fewer rounds or workloads take less; the
// real-time scenarios take longer on more CPUs, where the sizes their
// references are searched among grow.
func TestEstimate(t *testing.T) {
	quick, _ := parseArgs(nil)
	full, _ := parseArgs([]string{"-full"})
	small, _ := parseArgs([]string{"-rounds", "1", "-workloads", "TinyTasks"})
	if got := quick.estimate(); got < 2*time.Minute || got > 5*time.Minute {
		t.Errorf("quick report: %v", got)
	}
	if got := full.estimate(); got < 20*time.Minute || got > 60*time.Minute {
		t.Errorf("full report: %v", got)
	}
	if two, sixteen := autoscaleCPUTime(2), autoscaleCPUTime(16); two < 15*time.Minute || two > 25*time.Minute || sixteen <= two {
		t.Errorf("real-time autoscaler scenarios: %v on 2 CPUs, %v on 16", two, sixteen)
	}
	if small.estimate() >= quick.estimate() {
		t.Errorf("one round of one workload (%v) is not shorter than the quick report (%v)", small.estimate(), quick.estimate())
	}
}

func TestPlural(t *testing.T) {
	for n, want := range map[int]string{0: "0 rounds", 1: "1 round", 3: "3 rounds"} {
		if got := plural(n, "round"); got != want {
			t.Errorf("plural(%d) = %q, want %q", n, got, want)
		}
	}
}

// TestInvokedAs: the usage hint names what the user typed: go run for a
// binary in the go command's temporary folder or build cache, the
// program's name otherwise.
func TestInvokedAs(t *testing.T) {
	for argv0, want := range map[string]string{
		"/tmp/go-build1234/b001/exe/poolkit": "go run ./cmd/poolkit",
		// Go 1.24 and later run it from the build cache, wherever GOCACHE is.
		"/home/me/.cache/go-build/26/267948ee2693a4c4d92a49ae6676b4e5f22be8c9c8f65ac01f9199a9638dae53-d/poolkit": "go run ./cmd/poolkit",
		"/srv/cache/26/267948ee2693a4c4d92a49ae6676b4e5f22be8c9c8f65ac01f9199a9638dae53-d/poolkit":               "go run ./cmd/poolkit",
		"/home/me/go/bin/poolkit": "poolkit",
		"poolkit":                 "poolkit",
	} {
		if got := invokedAs(argv0); got != want {
			t.Errorf("invokedAs(%q) = %q, want %q", argv0, got, want)
		}
	}
}
