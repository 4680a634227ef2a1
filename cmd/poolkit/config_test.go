package main

import (
	"errors"
	"flag"
	"io"
	"reflect"
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
		{[]string{"-rounds=5", "spec", "-full"}, config{command: "spec", full: true, rounds: 5, out: "poolkit-report"}},
		{[]string{"-workloads", "TinyTasks,Invoke", "-out", "x", "bench"},
			config{command: "bench", rounds: 3, out: "x", workloads: []string{"TinyTasks", "Invoke"}}},
		{[]string{"-maxprocs=automaxprocs", "autoscale", "-plain"},
			config{command: "autoscale", rounds: 3, out: "poolkit-report", maxprocs: "automaxprocs", plain: true}},
		{[]string{"report", "-readme", "README.md"}, config{command: "report", rounds: 3, out: "poolkit-report", readme: "README.md"}},
	} {
		got, err := parseArgs(c.args, io.Discard)
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
		{[]string{"-maxprocs", "4"}, "automaxprocs"},
		{[]string{"-out", ""}, "folder"},
		{[]string{"bench", "-readme", "README.md"}, "applies to report"},
		{[]string{"-nosuch"}, "not defined"},
		{[]string{"-rounds", "two"}, "invalid value"},
	} {
		var stderr strings.Builder
		_, err := parseArgs(c.args, &stderr)
		if err == nil {
			t.Errorf("%q accepted", c.args)
			continue
		}
		if !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want an error saying %q", c.args, err, c.want)
		}
	}
}

func TestHelp(t *testing.T) {
	var stderr strings.Builder
	_, err := parseArgs([]string{"-h"}, &stderr)
	if !errors.Is(err, flag.ErrHelp) {
		t.Fatalf("-h: %v", err)
	}
	for _, want := range []string{"report", "bench", "spec", "autoscale", "-full", "-maxprocs", "about 2 minutes"} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("usage does not mention %q", want)
		}
	}
	var stdout strings.Builder
	stderr.Reset()
	if code := run([]string{"-h"}, &stdout, &stderr); code != 0 {
		t.Errorf("run -h exited %d", code)
	}
	if code := run([]string{"nosuch"}, &stdout, &stderr); code != 2 {
		t.Errorf("run with a bad command exited %d, want 2", code)
	}
}

// TestEstimate: the quick report says it takes about 2 minutes, the full
// one about 20, and fewer rounds or workloads take less.
func TestEstimate(t *testing.T) {
	quick, _ := parseArgs(nil, io.Discard)
	full, _ := parseArgs([]string{"-full"}, io.Discard)
	small, _ := parseArgs([]string{"-rounds", "1", "-workloads", "TinyTasks"}, io.Discard)
	if got := minutes(quick.estimate()); got != "2 minutes" {
		t.Errorf("quick report: %s", got)
	}
	if got := full.estimate(); got < 20*time.Minute || got > 30*time.Minute {
		t.Errorf("full report: %v", got)
	}
	if small.estimate() >= quick.estimate() {
		t.Errorf("one round of one workload (%v) is not shorter than the quick report (%v)", small.estimate(), quick.estimate())
	}
}
