package bench

import (
	"errors"
	"flag"
	"fmt"
	"slices"
	"testing"
)

// Options configures Compare.
type Options struct {
	// Rounds is how many times every case runs; a round runs every case
	// once, so that a burst of noise on a shared machine hits all
	// contenders alike. At least 1.
	Rounds int
	// HeavyRounds caps the rounds of heavy workloads (0: no cap).
	HeavyRounds int
	// Full selects each workload's Full benchtime instead of Quick.
	Full bool
	// Workloads names the workloads to run; empty means all.
	Workloads []string
	// Progress, when set, is called before each step of the plan with the
	// number of steps done, and once more with len(plan) at the end.
	Progress func(done int, plan []Step)
}

// Step is one run Compare makes.
type Step struct {
	Workload Workload
	Impl     string
	// Round counts from 0.
	Round int
	// Warmup marks the unrecorded run before the first heavy workload.
	Warmup bool
}

// Run is one case's run in one round.
type Run struct {
	Workload, Impl string
	Round          int
	// Result is zero (N == 0) when the run could not be measured.
	Result testing.BenchmarkResult
	// Problem is the reason the workload recorded when it stopped the run
	// (a pool lost a task, never reached its new size, ...); "" when the
	// run was measured, or failed without recording why.
	Problem string
}

// Failed reports whether the run could not be measured.
func (r Run) Failed() bool { return r.Result.N == 0 }

// Finding reports whether the run was stopped by a check of the workload
// on a peer library: a finding about that library, with its reason, not
// a failure of the comparison.
func (r Run) Finding() bool { return r.Failed() && r.Problem != "" && !Ours(r.Impl) }

// Results holds every run of a comparison, in the order they ran.
type Results struct {
	Machine   Machine
	Workloads []Workload
	// Rounds and HeavyRounds are the rounds the light and the heavy
	// workloads ran.
	Rounds, HeavyRounds int
	Runs                []Run
}

// Findings returns the runs stopped by a check on a peer library (see
// Run.Finding).
func (r *Results) Findings() []Run {
	return slices.DeleteFunc(slices.Clone(r.Runs), func(run Run) bool { return !run.Finding() })
}

// Failures returns the runs that failed for a reason of poolkit's own: one
// of its contenders failed a check of the workload, or the run failed
// without recording why (an error of the harness or of the workload).
func (r *Results) Failures() []Run {
	return slices.DeleteFunc(slices.Clone(r.Runs), func(run Run) bool { return !run.Failed() || run.Finding() })
}

// Plan returns the steps Compare makes with opts, in order: every round
// of the light workloads, then an unrecorded warm-up and every round of
// the heavy ones. Each round starts at a different case, so that no
// contender always runs first (on a fresh heap) or last.
func Plan(opts Options) ([]Step, error) {
	ws, err := selected(opts)
	if err != nil {
		return nil, err
	}
	var plan []Step
	// The heavy workloads run after every round of the others: a million
	// goroutines leave the runtime with long goroutine tables that every
	// later GC cycle walks, which slows whatever runs next for the rest of
	// the process.
	for _, heavy := range []bool{false, true} {
		if heavy {
			// The first heavy run in a process pays for getting its memory
			// from the system, which the later ones reuse: a warm-up run,
			// not recorded, takes that cost off whichever case runs first.
			for _, w := range ws {
				if w.Heavy {
					plan = append(plan, Step{Workload: w, Impl: w.Cases[0].Impl, Warmup: true})
				}
			}
		}
		for round := range opts.Rounds {
			for _, w := range ws {
				if w.Heavy != heavy || round >= rounds(w, opts) {
					continue
				}
				cases := slices.Clone(w.Cases)
				k := round % len(cases)
				for _, c := range append(cases[k:], cases[:k]...) {
					plan = append(plan, Step{Workload: w, Impl: c.Impl, Round: round})
				}
			}
		}
	}
	return plan, nil
}

// selected returns the workloads opts names, in the order named (all of
// them, in the report's order, when it names none).
func selected(opts Options) ([]Workload, error) {
	if opts.Rounds < 1 {
		return nil, fmt.Errorf("bench: %d rounds, want at least 1", opts.Rounds)
	}
	if len(opts.Workloads) == 0 {
		return Workloads(), nil
	}
	var ws []Workload
	for _, name := range opts.Workloads {
		w, ok := Lookup(name)
		if !ok {
			return nil, fmt.Errorf("bench: no workload %q", name)
		}
		ws = append(ws, w)
	}
	return ws, nil
}

// rounds is how many rounds w runs.
func rounds(w Workload, opts Options) int {
	if w.Heavy && opts.HeavyRounds > 0 {
		return min(opts.Rounds, opts.HeavyRounds)
	}
	return opts.Rounds
}

// Compare runs the workloads interleaved in rounds through
// testing.Benchmark, in this process, following Plan(opts), and returns
// every recorded run. It sets the testing package's benchtime flag while it
// runs (registering the testing flags first if the program has not), so
// it must not run alongside other benchmarks.
func Compare(opts Options) (*Results, error) {
	ws, err := selected(opts)
	if err != nil {
		return nil, err
	}
	plan, err := Plan(opts)
	if err != nil {
		return nil, err
	}
	testing.Init()
	benchtime := flag.Lookup("test.benchtime")
	if benchtime == nil {
		return nil, errors.New("bench: the testing package registered no benchtime flag")
	}
	defer flag.Set("test.benchtime", benchtime.Value.String())

	res := &Results{Machine: ThisMachine(), Workloads: ws, Rounds: opts.Rounds, HeavyRounds: rounds(Workload{Heavy: true}, opts)}
	for i, st := range plan {
		if opts.Progress != nil {
			opts.Progress(i, plan)
		}
		if err := setBenchtime(st.Workload, opts); err != nil {
			return nil, err
		}
		i := slices.IndexFunc(st.Workload.Cases, func(c Case) bool { return c.Impl == st.Impl })
		var b *testing.B
		r := testing.Benchmark(func(tb *testing.B) {
			// testing.Benchmark hands the same B to every call.
			b = tb
			st.Workload.Cases[i].F(tb)
		})
		reason, stopped := takeProblem(b)
		if st.Warmup {
			continue
		}
		run := Run{Workload: st.Workload.Name, Impl: st.Impl, Round: st.Round, Result: r}
		if stopped {
			run.Problem = reason
			// A run stopped by its workload is not measured, whatever it
			// got through before the check.
			run.Result = testing.BenchmarkResult{}
		}
		res.Runs = append(res.Runs, run)
	}
	if opts.Progress != nil {
		opts.Progress(len(plan), plan)
	}
	return res, nil
}

func setBenchtime(w Workload, opts Options) error {
	bt := w.Quick
	if opts.Full {
		bt = w.Full
	}
	if err := flag.Set("test.benchtime", bt); err != nil {
		return fmt.Errorf("bench: %s: benchtime %q: %v", w.Name, bt, err)
	}
	return nil
}
