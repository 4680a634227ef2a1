package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"golang.org/x/perf/benchfmt"
)

// The benchmarks of the nested modules that import what poolkit's modules
// must not (bench/actors: protoactor-go and GoAkt; natsrunner/servertest:
// nats.go and nats-server) run as test binaries built from the source
// tree, in rounds: every round runs each of the stage's benchRuns once,
// one after the other, each in a process of its own, and the tables give
// medians over the rounds.

// benchRun is one process of a round: the test binary's -test.bench and
// -test.benchtime, the benchmark's own flags, and how long it takes.
type benchRun struct {
	pattern, benchtime string
	args               []string
	time               time.Duration
}

// binRounds is how many rounds the test-binary stages (actors, keyed) run:
// the -rounds asked, at most 5 with -full, whose rounds take most of a
// minute each.
func binRounds(c config) int {
	if c.full {
		return min(c.rounds, 5)
	}
	return c.rounds
}

// runsTime is how long runs take in all, over rounds.
func runsTime(runs []benchRun, rounds int) time.Duration {
	var d time.Duration
	for _, r := range runs {
		d += r.time
	}
	return d * time.Duration(rounds)
}

// runBinRounds builds the tests of stage's package (stageBuilds) from the
// source tree at root into c.out, saying what it builds (building), and
// runs runs in rounds, in the package's folder. It returns each round's
// output, in Go's benchmark format. The cancelling of ctx stops the build
// or the benchmarks, and runBinRounds returns its error.
func runBinRounds(ctx context.Context, c config, root, stage, building string, runs []benchRun, prog progress) ([][]byte, error) {
	pkg := stageBuilds[stage]
	dir := filepath.Join(root, filepath.FromSlash(pkg))
	bin, err := filepath.Abs(filepath.Join(c.out, stage+".test"))
	if err != nil {
		return nil, err
	}
	rounds := binRounds(c)
	total := runsTime(runs, rounds)
	// The run's estimate has the build's time, as the build cache stood
	// at the start (see buildTimes).
	prog.Building(building)
	build := command(ctx, "go", "test", "-c", "-o", bin, ".")
	build.Dir = dir
	defer os.Remove(bin) // also what an interrupted build left
	if out, err := build.CombinedOutput(); err != nil {
		prog.Finish()
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, fmt.Errorf("building %s: %v\n%s", pkg, err, out)
	}
	prog.Built()
	outs := make([][]byte, 0, rounds)
	var done time.Duration
	for r := range rounds {
		var out bytes.Buffer
		for _, g := range runs {
			prog.Update(done, total, fmt.Sprintf("round %d/%d: %s", r+1, rounds, g.pattern))
			args := append([]string{"-test.run", "^$", "-test.bench", g.pattern, "-test.benchtime", g.benchtime, "-test.timeout", "30m"}, g.args...)
			cmd := command(ctx, bin, args...)
			cmd.Dir = dir
			var stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &stderr
			if err := cmd.Run(); err != nil {
				prog.Finish()
				if ctx.Err() != nil {
					return nil, ctx.Err()
				}
				return nil, fmt.Errorf("round %d, %s: %v\n%s%s", r+1, g.pattern, err, lastLines(out.String(), 20), stderr.String())
			}
			done += g.time
		}
		outs = append(outs, out.Bytes())
	}
	prog.Update(total, total, "")
	prog.Finish()
	return outs, nil
}

// writeBinResults writes what a test-binary stage measured into c.out:
// the rounds' raw output as STAGE.txt (benchstat's input) and res as
// STAGE.json. It returns the two paths.
func writeBinResults(c config, stage string, rounds [][]byte, res any) (raw, data string, err error) {
	raw, data = absPath(filepath.Join(c.out, stage+".txt")), absPath(filepath.Join(c.out, stage+".json"))
	if err := os.WriteFile(raw, bytes.Join(rounds, nil), 0o644); err != nil {
		return "", "", err
	}
	js, err := json.MarshalIndent(res, "", "  ")
	if err != nil {
		return "", "", err
	}
	return raw, data, os.WriteFile(data, append(js, '\n'), 0o644)
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n") + "\n"
}

// binFigures are the figures of rounds of benchmark output whose
// sub-benchmarks name their contender impl=NAME: per benchmark (its name
// without impl= and the GOMAXPROCS suffix) and metric, each contender's
// figures, one per round that reported one.
type binFigures struct {
	// keys are the benchmarks and metrics in the order they first
	// appeared, impls the contenders likewise.
	keys   []figureKey
	impls  []string
	values map[figureKey]map[string][]float64
}

// figureKey is a benchmark (PingPong/inflight=1) and a metric in the
// benchmark's own unit (p99-ns).
type figureKey struct{ bench, metric string }

// readBinRounds reads the raw output of each round (Go's benchmark
// format) and keeps the metrics named.
func readBinRounds(rounds [][]byte, metrics []string) (binFigures, error) {
	f := binFigures{values: map[figureKey]map[string][]float64{}}
	for r, data := range rounds {
		rd := benchfmt.NewReader(bytes.NewReader(data), fmt.Sprintf("round %d", r+1))
		for rd.Scan() {
			res, ok := rd.Result().(*benchfmt.Result)
			if !ok {
				continue
			}
			base, parts := res.Name.Parts()
			impl, name := "", string(base)
			for _, p := range parts {
				s := string(p)
				switch {
				case strings.HasPrefix(s, "/impl="):
					impl = strings.TrimPrefix(s, "/impl=")
				case strings.HasPrefix(s, "/"):
					name += s
				}
			}
			if impl == "" {
				return f, fmt.Errorf("%s: no impl= in the benchmark name", res.Name)
			}
			if !slices.Contains(f.impls, impl) {
				f.impls = append(f.impls, impl)
			}
			for _, v := range res.Values {
				// benchfmt tidies units (p99-ns to p99-sec); the tables keep
				// the benchmark's own.
				unit, value := v.Unit, v.Value
				if v.OrigUnit != "" {
					unit, value = v.OrigUnit, v.OrigValue
				}
				if !slices.Contains(metrics, unit) {
					continue
				}
				k := figureKey{name, unit}
				if f.values[k] == nil {
					f.values[k] = map[string][]float64{}
					f.keys = append(f.keys, k)
				}
				f.values[k][impl] = append(f.values[k][impl], value)
			}
		}
		if err := rd.Err(); err != nil {
			return f, err
		}
	}
	return f, nil
}

// benches lists f's benchmarks in the order they first appeared.
func (f binFigures) benches() []string {
	var names []string
	for _, k := range f.keys {
		if !slices.Contains(names, k.bench) {
			names = append(names, k.bench)
		}
	}
	return names
}
