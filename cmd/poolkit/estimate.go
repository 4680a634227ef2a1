package main

import (
	"strconv"
	"strings"
	"time"

	"github.com/poolkit/poolkit/bench"
)

// How long things take on a 2-core machine once the binaries are built,
// as measured there. The figures say up front how long a run will take,
// and weigh each stage's progress, so that the bar tells time: a million
// sleeping tasks take half the benchmarks' time in a few of their runs.

// quickRound is one round of a workload at its quick benchtime, every
// contender once.
var quickRound = map[string]time.Duration{
	"TinyTasks":      1800 * time.Millisecond,
	"IOLike":         600 * time.Millisecond,
	"Mixed":          1200 * time.Millisecond,
	"ManySubmitters": 1100 * time.Millisecond,
	"SubmitLatency":  1400 * time.Millisecond,
	"Invoke":         400 * time.Millisecond,
	"BlockingInvoke": 400 * time.Millisecond,
	"Sleeping1M":     36 * time.Second,
	"ResizeGrow":     300 * time.Millisecond,
	"ResizeShrink":   3800 * time.Millisecond,
}

// otherRound stands for a workload without a figure yet.
const otherRound = time.Second

const (
	specTime         = 100 * time.Second
	autoscaleIOTime  = 10 * time.Second
	autoscaleCPUTime = 13 * time.Minute
	// One round of every actor workload.
	actorRoundQuick = 8 * time.Second
	actorRoundFull  = 50 * time.Second
)

// roundTime is how long one round of w takes: with full, the quick
// figure scaled by the ratio of the two benchtimes.
func roundTime(w bench.Workload, full bool) time.Duration {
	d, ok := quickRound[w.Name]
	if !ok {
		d = otherRound
	}
	if full {
		q, qok := benchtime(w.Quick)
		f, fok := benchtime(w.Full)
		if qok && fok && q.x == f.x && q.n > 0 {
			d = time.Duration(float64(d) * f.n / q.n)
		}
	}
	return d
}

// stepTime is how long one step of the benchmark plan takes: its share
// of its workload's round.
func stepTime(st bench.Step, full bool) time.Duration {
	return roundTime(st.Workload, full) / time.Duration(max(1, len(st.Workload.Cases)))
}

// benchtime reads testing's -benchtime syntax: n iterations ("2x", x set)
// or a duration in ns.
func benchtime(s string) (bt struct {
	n float64
	x bool
}, ok bool) {
	if n, found := strings.CutSuffix(s, "x"); found {
		v, err := strconv.Atoi(n)
		bt.n, bt.x = float64(v), true
		return bt, err == nil
	}
	d, err := time.ParseDuration(s)
	bt.n = float64(d)
	return bt, err == nil
}

// stageTime is how long one stage of c should take.
func (c config) stageTime(stage string) time.Duration {
	switch stage {
	case "bench":
		plan, err := bench.Plan(c.benchOptions())
		if err != nil {
			return 0
		}
		var d time.Duration
		for _, st := range plan {
			d += stepTime(st, c.full)
		}
		return d
	case "actors":
		var d time.Duration
		for _, r := range actorRuns(c) {
			d += r.time
		}
		return d * time.Duration(actorRounds(c))
	case "spec":
		return specTime
	case "autoscale":
		if c.full {
			return autoscaleIOTime + autoscaleCPUTime
		}
		return autoscaleIOTime
	}
	return 0
}

// estimate is how long the whole command should take.
func (c config) estimate() time.Duration {
	var d time.Duration
	for _, s := range c.stages() {
		d += c.stageTime(s)
	}
	return d
}

// benchOptions are the benchmark comparison's options, without progress.
func (c config) benchOptions() bench.Options {
	heavy := 1
	if c.full {
		heavy = 3
	}
	return bench.Options{Rounds: c.rounds, HeavyRounds: heavy, Full: c.full, Workloads: c.workloads}
}
