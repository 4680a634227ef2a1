package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Three rounds of raw output as the keyed stream benchmark prints it.
// On uniform keys the keyed runner's rounds are 1.2, 1.2 and 0.75 times
// the unordered runner's: the median of those ratios would say 1.2x,
// while the medians, 30k/s both, say 1.00x.
var rawKeyedRounds = [][]byte{
	[]byte(`goos: linux
pkg: github.com/poolkit/poolkit/natsrunner/servertest
BenchmarkKeyedConsume/keys=uniform/impl=unordered-2 	 1	 1000000000 ns/op	 30000 msgs/s	 1.000 p99-wait-ms
BenchmarkKeyedConsume/keys=uniform/impl=keyed-2 	 1	 1000000000 ns/op	 36000 msgs/s	 2.000 p99-wait-ms
BenchmarkKeyedConsume/keys=uniform/impl=hashed16-2 	 1	 1000000000 ns/op	 33000 msgs/s	 1.500 p99-wait-ms
BenchmarkKeyedConsume/keys=zipf1.1/impl=unordered-2 	 1	 1000000000 ns/op	 40000 msgs/s	 1.000 p99-wait-ms
BenchmarkKeyedConsume/keys=zipf1.1/impl=keyed-2 	 1	 1000000000 ns/op	 20000 msgs/s	 12.00 p99-wait-ms
BenchmarkKeyedConsume/keys=zipf1.1/impl=hashed16-2 	 1	 1000000000 ns/op	 10000 msgs/s	 0.5000 p99-wait-ms
PASS
`),
	[]byte(`BenchmarkKeyedConsume/keys=uniform/impl=unordered-2 	 1	 1000000000 ns/op	 20000 msgs/s	 1.200 p99-wait-ms
BenchmarkKeyedConsume/keys=uniform/impl=keyed-2 	 1	 1000000000 ns/op	 24000 msgs/s	 2.500 p99-wait-ms
BenchmarkKeyedConsume/keys=uniform/impl=hashed16-2 	 1	 1000000000 ns/op	 33000 msgs/s	 1.500 p99-wait-ms
BenchmarkKeyedConsume/keys=zipf1.1/impl=unordered-2 	 1	 1000000000 ns/op	 40000 msgs/s	 1.000 p99-wait-ms
BenchmarkKeyedConsume/keys=zipf1.1/impl=keyed-2 	 1	 1000000000 ns/op	 20000 msgs/s	 12.00 p99-wait-ms
BenchmarkKeyedConsume/keys=zipf1.1/impl=hashed16-2 	 1	 1000000000 ns/op	 10000 msgs/s	 0.5000 p99-wait-ms
`),
	[]byte(`BenchmarkKeyedConsume/keys=uniform/impl=unordered-2 	 1	 1000000000 ns/op	 40000 msgs/s	 0.8000 p99-wait-ms
BenchmarkKeyedConsume/keys=uniform/impl=keyed-2 	 1	 1000000000 ns/op	 30000 msgs/s	 1.500 p99-wait-ms
BenchmarkKeyedConsume/keys=uniform/impl=hashed16-2 	 1	 1000000000 ns/op	 33000 msgs/s	 1.500 p99-wait-ms
BenchmarkKeyedConsume/keys=zipf1.1/impl=unordered-2 	 1	 1000000000 ns/op	 40000 msgs/s	 1.000 p99-wait-ms
BenchmarkKeyedConsume/keys=zipf1.1/impl=keyed-2 	 1	 1000000000 ns/op	 20000 msgs/s	 12.00 p99-wait-ms
BenchmarkKeyedConsume/keys=zipf1.1/impl=hashed16-2 	 1	 1000000000 ns/op	 10000 msgs/s	 0.5000 p99-wait-ms
`),
}

// keyedFixture is rawKeyedRounds summarized, as a run of 30,000 messages
// over 10,000 keys.
func keyedFixture(t *testing.T) *keyedResults {
	t.Helper()
	res, err := summarizeKeyed(rawKeyedRounds)
	if err != nil {
		t.Fatal(err)
	}
	res.Machine, res.Messages, res.Keys = "test machine", 30000, 10000
	return res
}

func TestSummarizeKeyed(t *testing.T) {
	res := keyedFixture(t)
	if res.Rounds != 3 || len(res.Rows) != 6 {
		t.Fatalf("%d rounds, %d rows, want 3 and 6: %+v", res.Rounds, len(res.Rows), res.Rows)
	}
	for i, w := range []keyedRow{
		{Keys: "uniform", Impl: "unordered", Rate: 30000, Spread: 1.0 / 3, Ratio: 1, P99WaitMs: 1},
		// The ratio of the medians, not the median of the rounds' ratios.
		{Keys: "uniform", Impl: "keyed", Rate: 30000, Spread: 0.2, Ratio: 1, P99WaitMs: 2},
		{Keys: "uniform", Impl: "hashed16", Rate: 33000, Spread: 0, Ratio: 1.1, P99WaitMs: 1.5},
		{Keys: "zipf1.1", Impl: "unordered", Rate: 40000, Ratio: 1, P99WaitMs: 1},
		// Divided by zipf1.1's unordered rate, not uniform's.
		{Keys: "zipf1.1", Impl: "keyed", Rate: 20000, Ratio: 0.5, P99WaitMs: 12},
		{Keys: "zipf1.1", Impl: "hashed16", Rate: 10000, Ratio: 0.25, P99WaitMs: 0.5},
	} {
		g := res.Rows[i]
		if g.Keys != w.Keys || g.Impl != w.Impl || !near(g.Rate, w.Rate) || !near(g.Spread, w.Spread) ||
			!near(g.Ratio, w.Ratio) || !near(g.P99WaitMs, w.P99WaitMs) {
			t.Errorf("row %d = %+v, want %+v", i, g, w)
		}
		// Three rounds are too few for an interval.
		if g.RatioLo != 0 || g.RatioHi != 0 {
			t.Errorf("row %d: an interval from three rounds: %+v", i, g)
		}
	}
}

func near(a, b float64) bool { return a == b || (a-b)/b < 1e-9 && (b-a)/b < 1e-9 }

// TestKeyedText: the section says what it compares, on what machine and
// how, and its table shows each row's rate with its spread, its ratio to
// the unordered runner and its p99 wait.
func TestKeyedText(t *testing.T) {
	var text strings.Builder
	if err := renderText(&text, "keyed", keyedFixture(t)); err != nil {
		t.Fatal(err)
	}
	out := text.String()
	for _, want := range []string{
		"Keyed stream: the keyed runner (in order per key) against the unordered runner and against keys hashed onto 16 ordered consumers",
		"16 partitions, one pool of 16", "read the ratios, not the rates", "Machine: test machine.",
		"30,000 messages over 10,000 keys", "Medians of 3 rounds", "keys", "vs unordered", "p99 wait",
		"30.0k/s ±33%", "0.50x", "0.25x", "12.0ms", "500µs",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the section lacks %q:\n%s", want, out)
		}
	}
	// Aligned in columns: the rate of each row ends where its header does.
	lines := strings.Split(out, "\n")
	header := slices.IndexFunc(lines, func(l string) bool { return strings.HasPrefix(strings.TrimSpace(l), "keys ") })
	if header < 0 || header+6 >= len(lines) {
		t.Fatalf("no table:\n%s", out)
	}
	end := strings.Index(lines[header], "msgs/s") + len("msgs/s")
	for _, l := range lines[header+1 : header+7] {
		if !strings.Contains(l[:end], "/s") || !strings.HasSuffix(strings.TrimSpace(l), "s") {
			t.Errorf("row %q is not aligned under %q", l, lines[header])
		}
	}
}

// TestKeyedInterval: with enough rounds a ratio carries the interval of
// the ratio of the medians, around it, and the table shows it.
func TestKeyedInterval(t *testing.T) {
	var rounds [][]byte
	for i := range 10 {
		rounds = append(rounds, []byte(fmt.Sprintf(
			"BenchmarkKeyedConsume/keys=uniform/impl=unordered-2 \t 1\t 5 ns/op\t %d msgs/s\t 1 p99-wait-ms\n"+
				"BenchmarkKeyedConsume/keys=uniform/impl=keyed-2 \t 1\t 5 ns/op\t %d msgs/s\t 1 p99-wait-ms\n",
			30000+100*i, 27000+100*i)))
	}
	res, err := summarizeKeyed(rounds)
	if err != nil {
		t.Fatal(err)
	}
	k := res.Rows[1]
	if !(k.RatioLo > 0 && k.RatioLo <= k.Ratio && k.Ratio <= k.RatioHi) {
		t.Errorf("ratio %v outside its interval [%v, %v]", k.Ratio, k.RatioLo, k.RatioHi)
	}
	if res.Rows[0].RatioHi != 0 {
		t.Errorf("the unordered runner has an interval against itself: %+v", res.Rows[0])
	}
	if got := res.Table().Rows[1][3]; !strings.Contains(got, fmt.Sprintf("(%.2f–%.2f)", k.RatioLo, k.RatioHi)) {
		t.Errorf("cell %q does not show the interval", got)
	}
}

// TestKeyedRatioBase: the ratios are to the unordered runner whatever
// order the contenders ran in, and a distribution without it has none.
func TestKeyedRatioBase(t *testing.T) {
	res, err := summarizeKeyed([][]byte{[]byte(
		"BenchmarkKeyedConsume/keys=uniform/impl=keyed-2 \t 1\t 5 ns/op\t 20000 msgs/s\t 1 p99-wait-ms\n" +
			"BenchmarkKeyedConsume/keys=uniform/impl=unordered-2 \t 1\t 5 ns/op\t 40000 msgs/s\t 1 p99-wait-ms\n" +
			"BenchmarkKeyedConsume/keys=slow-key/impl=keyed-2 \t 1\t 5 ns/op\t 20000 msgs/s\t 1 p99-wait-ms\n")})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range res.Table().Rows {
		got = append(got, r[0]+" "+r[1]+" "+r[3])
	}
	if want := []string{"uniform keyed 0.50x", "uniform unordered 1.00x", "slow-key keyed -"}; !slices.Equal(got, want) {
		t.Errorf("ratios %q, want %q", got, want)
	}
}

func TestSummarizeKeyedRejects(t *testing.T) {
	for _, raw := range []string{
		"PASS\n",
		"BenchmarkKeyedConsume/impl=keyed-2 \t 1\t 5 ns/op\t 7 msgs/s\n",
		"BenchmarkKeyedConsume/keys=uniform-2 \t 1\t 5 ns/op\t 7 msgs/s\n",
	} {
		if res, err := summarizeKeyed([][]byte{[]byte(raw)}); err == nil {
			t.Errorf("%q: no error, rows %+v", raw, res.Rows)
		}
	}
}

// TestKeyedCommand: keyed is a command whose run is one process a round
// over the distributions -keyed selects, with handlers of no work, 30,000
// messages (100,000 with -full) over 10,000 keys; the quick run fits in a
// minute on two cores; a report leaves the stage out when -keyed selects
// nothing.
func TestKeyedCommand(t *testing.T) {
	parse := func(args ...string) config {
		t.Helper()
		c, err := parseArgs(args)
		if err != nil {
			t.Fatalf("%q: %v", args, err)
		}
		return c
	}
	flag := func(r benchRun, name string) string {
		i := slices.Index(r.args, name)
		if i < 0 || i+1 >= len(r.args) {
			return ""
		}
		return r.args[i+1]
	}
	c := parse("keyed")
	if c.command != "keyed" || !slices.Equal(c.stages(), []string{"keyed"}) || !c.needsSource() {
		t.Errorf("keyed: %+v, stages %q", c, c.stages())
	}
	runs := keyedRuns(c)
	if len(runs) != 1 || runs[0].pattern != `^BenchmarkKeyedConsume$/^keys=(uniform|zipf1\.1|slow-key)$` || runs[0].benchtime != "1x" ||
		flag(runs[0], "-keyed-msgs") != "30000" || flag(runs[0], "-keyed-keys") != "10000" || flag(runs[0], "-keyed-work") != "0" {
		t.Errorf("keyed runs %+v", runs)
	}
	if d := c.stageTime("keyed"); d < 10*time.Second || d > time.Minute {
		t.Errorf("the quick keyed stage is expected to take %v", d)
	}
	full := parse("-full", "keyed")
	if r := keyedRuns(full); flag(r[0], "-keyed-msgs") != "100000" || binRounds(full) != 5 {
		t.Errorf("-full keyed: %+v, %d rounds", r, binRounds(full))
	}
	one := parse("keyed", "-keyed", "^uniform$", "-rounds", "2")
	if r := keyedRuns(one); r[0].pattern != "^BenchmarkKeyedConsume$/^keys=(uniform)$" || r[0].time != keyedRoundQuick/3 ||
		one.stageTime("keyed") != 2*r[0].time {
		t.Errorf("-keyed ^uniform$: %+v", r)
	}
	if got := commandLine(one); got != "go run ./cmd/poolkit -keyed='^uniform$' -rounds=2 keyed" {
		t.Errorf("command line %q", got)
	}
	if s := parse().stages(); !slices.Equal(s, []string{"bench", "actors", "keyed", "spec", "autoscale"}) {
		t.Errorf("report stages %q", s)
	}
	if s := parse("-keyed", "^$").stages(); slices.Contains(s, "keyed") {
		t.Errorf("-keyed matching nothing: stages %q", s)
	}
	for args, want := range map[string]string{
		"keyed -keyed ^nonsense$": "matches no key distribution (they are uniform, zipf1.1, slow-key)",
		"keyed -keyed (":          "-keyed",
		"bench -keyed uniform":    "-keyed applies to report and keyed",
		"keyed -actors Ask":       "-actors applies to report and actors",
		"keyed -workloads Invoke": "-workloads applies to report and bench",
	} {
		if _, err := parseArgs(strings.Fields(args)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want an error saying %q", args, err, want)
		}
	}
	var stdout, stderr strings.Builder
	if code := run([]string{"help"}, &stdout, &stderr); code != 0 || !strings.Contains(stdout.String(), "[flags] keyed") ||
		!strings.Contains(stdout.String(), "-keyed") {
		t.Errorf("the usage does not list keyed and -keyed:\n%s", stdout.String())
	}
}

// TestKeyedMatchesBenchmark: what the stage asks of the benchmark and
// reads from it is in its source: the flags, the distributions, the
// contenders and the metrics.
func TestKeyedMatchesBenchmark(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("..", "..", "natsrunner", "servertest", "keyed_bench_test.go"))
	if err != nil {
		t.Skip(err)
	}
	words := []string{"BenchmarkKeyedConsume", "keyed-msgs", "keyed-keys", "keyed-work", "keys=%s/impl=%s", keyedBase, "keyed", "hashed16"}
	words = append(append(words, keyedDists...), keyedMetrics...)
	for _, w := range words {
		if q := strconv.Quote(w); !strings.Contains(string(src), q) && !strings.Contains(string(src), "func "+w+"(") {
			t.Errorf("the benchmark's source has no %s", q)
		}
	}
}
