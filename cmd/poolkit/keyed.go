package main

import (
	"context"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/poolkit/poolkit/bench"
)

// The keyed stream benchmark is BenchmarkKeyedConsume in
// natsrunner/servertest, a module of its own (it imports nats.go and
// starts an embedded nats-server, which this command must not): it runs as
// a test binary built from the source tree, in rounds, as the actor
// benchmarks do (see testbin.go). Every round runs every sub-benchmark
// once (-test.benchtime 1x), all in one process: each consumes one burst
// of messages over 10,000 keys, published to a stream of 16 partitions,
// with three contenders: natsrunner's runner without order (unordered),
// its keyed runner, which keeps each key's messages in order (keyed; both
// run a runner per partition on one pool of 16), and the keys hashed onto
// the 16 partitions, each consumed in order by one goroutine (hashed16).
//
// The handlers do no work (-keyed-work 0), so that the runners' own costs
// show rather than the handlers'. The quick run consumes 30,000 messages
// a run: a round over the three key distributions took 8 s on two idle
// cores, three rounds 25 s besides the build, which leaves room under a
// minute for a busier machine; smaller bursts let the runs' fixed costs
// weigh on the rates (at 2,000 messages hashed16 took twice the others'
// time). -full consumes 100,000 messages a run, over the same 10,000 keys:
// about 36 s a round, in at most 5 rounds (binRounds).

const (
	keyedKeys      = 10000
	keyedQuickMsgs = 30000
	keyedFullMsgs  = 100000
	// keyedBase is the contender the others' rates are divided by.
	keyedBase = "unordered"
)

// keyedDists are the benchmark's key distributions, in its order: for
// -keyed.
var keyedDists = []string{"uniform", "zipf1.1", "slow-key"}

// keyedMetrics are the metrics the benchmark reports, as it names them.
var keyedMetrics = []string{"msgs/s", "p99-wait-ms"}

// keyedMsgs is how many messages a run of c consumes.
func keyedMsgs(c config) int {
	if c.full {
		return keyedFullMsgs
	}
	return keyedQuickMsgs
}

// keyedRuns is what a round of c runs: one process over the key
// distributions -keyed selects; nothing when it selects none.
func keyedRuns(c config) []benchRun {
	var ds []string
	for _, d := range keyedDists {
		if c.keyed == nil || c.keyed.MatchString(d) {
			ds = append(ds, regexp.QuoteMeta(d))
		}
	}
	if len(ds) == 0 {
		return nil
	}
	round := keyedRoundQuick
	if c.full {
		round = keyedRoundFull
	}
	return []benchRun{{
		pattern:   "^BenchmarkKeyedConsume$/^keys=(" + strings.Join(ds, "|") + ")$",
		benchtime: "1x",
		args:      []string{"-keyed-msgs", strconv.Itoa(keyedMsgs(c)), "-keyed-keys", strconv.Itoa(keyedKeys), "-keyed-work", "0"},
		time:      round * time.Duration(len(ds)) / time.Duration(len(keyedDists)),
	}}
}

// keyedNote says what the stage runs, for its help.
func keyedNote() string {
	return fmt.Sprintf("Every round runs BenchmarkKeyedConsume (natsrunner/servertest, an embedded nats-server) once over "+
		"each key distribution (%s) and contender (unordered, keyed, hashed16): %s messages over %s keys a run, %s with -full, "+
		"handlers that do no work. The table gives each rate's ratio to the unordered runner's on the same keys, and the "+
		"p99 wait of the ordinary keys.", strings.Join(keyedDists, ", "), thousands(keyedQuickMsgs), thousands(keyedKeys),
		thousands(keyedFullMsgs))
}

// keyedResults is what the keyed stage measured, as data: it is written as
// JSON beside the raw results, and the tables are rendered from it.
type keyedResults struct {
	Machine        string
	Rounds         int
	Messages, Keys int // of each run
	Rows           []keyedRow
}

// keyedRow is one contender on one key distribution.
type keyedRow struct {
	Keys string // the distribution: uniform, zipf1.1, slow-key
	Impl string // unordered, keyed, hashed16
	// Rate is the median of the rounds' messages a second, Spread the
	// widest distance of a round's from it, as a fraction of it.
	Rate, Spread float64
	// Ratio is Rate over the unordered runner's on the same keys, above 1
	// when faster, with its 95% interval (see stats.go) when the rounds
	// were enough for one; 0 when the unordered runner has no rate.
	Ratio            float64
	RatioLo, RatioHi float64 `json:",omitempty"`
	// P99WaitMs is the median of the rounds' 99th percentile wait, from a
	// message's arrival in the client to its handler's start, over every
	// key but the slow one.
	P99WaitMs float64
}

// keyedOutcome is what the keyed stage wrote.
type keyedOutcome struct {
	results   *keyedResults
	raw, data string // benchstat-format file, JSON
}

// runKeyed builds the keyed stream benchmark from the source tree at root
// and runs it in rounds. The cancelling of ctx stops the build or the
// benchmark, and runKeyed returns its error.
func runKeyed(ctx context.Context, c config, root string, prog progress, stdout io.Writer) (*keyedOutcome, error) {
	outs, err := runBinRounds(ctx, c, root, "keyed", "natsrunner/servertest (a first build compiles nats-server)",
		keyedRuns(c), prog)
	if err != nil {
		return nil, err
	}
	res, err := summarizeKeyed(outs)
	if err != nil {
		return nil, err
	}
	res.Machine, res.Messages, res.Keys = bench.ThisMachine().String(), keyedMsgs(c), keyedKeys
	o := &keyedOutcome{results: res}
	if o.raw, o.data, err = writeBinResults(c, "keyed", outs, res); err != nil {
		return nil, err
	}
	fmt.Fprintln(stdout)
	if err := renderText(stdout, "keyed", res); err != nil {
		return nil, err
	}
	fmt.Fprintf(stdout, "Raw results (benchstat -col /impl %s): %s; as data: %s\n", o.raw, o.raw, o.data)
	return o, nil
}

// summarizeKeyed reads the raw output of each round (sub-benchmarks named
// keys=DIST/impl=NAME) and computes the rows: each distribution's
// contenders in the order they ran.
func summarizeKeyed(rounds [][]byte) (*keyedResults, error) {
	f, err := readBinRounds(rounds, keyedMetrics)
	if err != nil {
		return nil, err
	}
	res := &keyedResults{Rounds: len(rounds)}
	for _, b := range f.benches() {
		_, dist, ok := strings.Cut(b, "/keys=")
		if !ok {
			return nil, fmt.Errorf("%s: no keys= in the benchmark name", b)
		}
		rates := f.values[figureKey{b, "msgs/s"}]
		base := medianOf(rates[keyedBase])
		for _, impl := range f.impls {
			xs, ok := rates[impl]
			if !ok {
				continue
			}
			m := medianOf(xs)
			row := keyedRow{Keys: dist, Impl: impl, Rate: m.Center, Spread: spreadOf(xs, m.Center),
				P99WaitMs: medianOf(f.values[figureKey{b, "p99-wait-ms"}][impl]).Center}
			if base.Center > 0 && m.Center > 0 {
				r := ratioOf(m, base)
				row.Ratio = r.Center
				if r.finite() && impl != keyedBase {
					row.RatioLo, row.RatioHi = r.Lo, r.Hi
				}
			}
			res.Rows = append(res.Rows, row)
		}
	}
	if len(res.Rows) == 0 {
		return nil, fmt.Errorf("the keyed stream benchmark reported no rates")
	}
	return res, nil
}

// Title says what the section compares, for its heading.
func (k *keyedResults) Title() string {
	return "Keyed stream: the keyed runner (in order per key) against the unordered runner and against keys hashed onto " +
		"16 ordered consumers; 16 partitions, one pool of 16; read the ratios, not the rates"
}

// About says how the benchmark ran.
func (k *keyedResults) About() string {
	return fmt.Sprintf("BenchmarkKeyedConsume (natsrunner/servertest) on an embedded nats-server, each run a burst of %s messages "+
		"over %s keys; unordered and keyed run a runner per partition, hashed16 a goroutine per partition that handles its "+
		"messages one at a time; handlers do no work, so that the runners' own costs show; slow-key adds a key, a message "+
		"in a thousand, whose handler takes 20ms", thousands(k.Messages), thousands(k.Keys))
}

// Note says what the figures are, for the line above the table.
func (k *keyedResults) Note() string {
	spread := ""
	if k.Rounds > 1 {
		spread = ", msgs/s ± the widest distance of a round from the median"
	}
	return fmt.Sprintf("Medians of %s%s; vs unordered: the ratio of the median rate to the unordered runner's on the "+
		"same keys, above 1 when faster, with its 95%% interval when there were at least %d rounds; p99 wait: from a "+
		"message's arrival in the client to its handler's start, over every key but the slow one",
		plural(k.Rounds, "round"), spread, intervalRounds(medianConfidence))
}

// Table lays the rows out for every rendering.
func (k *keyedResults) Table() table {
	t := table{Header: []string{"keys", "impl", "msgs/s", "vs unordered", "p99 wait"}}
	for _, r := range k.Rows {
		rate := formatRate(r.Rate)
		if k.Rounds > 1 {
			rate += fmt.Sprintf(" ±%.0f%%", 100*r.Spread)
		}
		ratio := "-"
		switch {
		case r.RatioHi > 0:
			ratio = fmt.Sprintf("%s (%s)", formatRatio(r.Ratio), formatRatioRange(r.RatioLo, r.RatioHi))
		case r.Ratio > 0:
			ratio = formatRatio(r.Ratio)
		}
		t.Rows = append(t.Rows, []string{r.Keys, r.Impl, rate, ratio, formatDuration(r.P99WaitMs * 1e6)})
	}
	return t
}

// thousands writes a whole number with commas: 100,000.
func thousands(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
