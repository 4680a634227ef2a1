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
	// Progress, when set, is called before each run with the number of
	// runs done, the total, and what runs next.
	Progress func(done, total int, what string)
}

// Run is one case's run in one round.
type Run struct {
	Workload, Impl string
	Round          int
	// Result is zero (N == 0) when the run failed.
	Result testing.BenchmarkResult
}

// Results holds every run of a comparison, in the order they ran.
type Results struct {
	Machine   Machine
	Workloads []Workload
	Runs      []Run
}

// Compare runs the workloads interleaved in rounds through
// testing.Benchmark, in this process, and returns every run. It sets the
// testing package's benchtime flag while it runs (registering the testing
// flags first if the program has not), so it must not run alongside other
// benchmarks.
func Compare(opts Options) (*Results, error) {
	if opts.Rounds < 1 {
		return nil, fmt.Errorf("bench: %d rounds, want at least 1", opts.Rounds)
	}
	var ws []Workload
	if len(opts.Workloads) == 0 {
		ws = Workloads()
	}
	for _, name := range opts.Workloads {
		w, ok := Lookup(name)
		if !ok {
			return nil, fmt.Errorf("bench: no workload %q", name)
		}
		ws = append(ws, w)
	}
	testing.Init()
	benchtime := flag.Lookup("test.benchtime")
	if benchtime == nil {
		return nil, errors.New("bench: the testing package registered no benchtime flag")
	}
	defer flag.Set("test.benchtime", benchtime.Value.String())

	rounds := func(w Workload) int {
		if w.Heavy && opts.HeavyRounds > 0 {
			return min(opts.Rounds, opts.HeavyRounds)
		}
		return opts.Rounds
	}
	total := 0
	for _, w := range ws {
		total += rounds(w) * len(w.Cases)
	}
	res := &Results{Machine: ThisMachine(), Workloads: ws}
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
					if opts.Progress != nil {
						opts.Progress(len(res.Runs), total, "warm-up "+w.Name)
					}
					if err := setBenchtime(w, opts); err != nil {
						return nil, err
					}
					testing.Benchmark(w.Cases[0].F)
				}
			}
		}
		for round := range opts.Rounds {
			for _, w := range ws {
				if w.Heavy != heavy || round >= rounds(w) {
					continue
				}
				if err := runRound(res, w, round, opts, total); err != nil {
					return nil, err
				}
			}
		}
	}
	if opts.Progress != nil {
		opts.Progress(total, total, "done")
	}
	return res, nil
}

// runRound runs every case of w once, starting at a different case each
// round so that no contender always runs first (on a fresh heap) or last.
func runRound(res *Results, w Workload, round int, opts Options, total int) error {
	if err := setBenchtime(w, opts); err != nil {
		return err
	}
	cases := slices.Clone(w.Cases)
	k := round % len(cases)
	cases = append(cases[k:], cases[:k]...)
	for _, c := range cases {
		if opts.Progress != nil {
			opts.Progress(len(res.Runs), total, fmt.Sprintf("round %d/%d %s/%s", round+1, opts.Rounds, w.Name, c.Impl))
		}
		r := testing.Benchmark(c.F)
		res.Runs = append(res.Runs, Run{Workload: w.Name, Impl: c.Impl, Round: round, Result: r})
	}
	return nil
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
