package main

import (
	"strings"
	"testing"
	"time"

	"github.com/poolkit/poolkit/autoscale/eval"
	"github.com/poolkit/poolkit/bench"
)

func TestFormatDuration(t *testing.T) {
	for ns, want := range map[float64]string{
		0:                 "0s",
		0.5:               "0.500ns",
		12.34:             "12.3ns",
		100:               "100ns",
		999.7:             "1.00µs",
		10_740:            "10.7µs",
		24_000:            "24.0µs",
		108_610_000:       "109ms",
		3_239_297_000:     "3.24s",
		39_000_000_000:    "39.0s",
		59_970_000_000:    "1m00s",
		176_400_000_000:   "2m56s",
		3_723_000_000_000: "1h02m03s",
	} {
		if got := formatDuration(ns); got != want {
			t.Errorf("formatDuration(%v) = %q, want %q", ns, got, want)
		}
	}
	if got := formatTime(2*time.Minute + 56*time.Second); got != "2m56s" {
		t.Errorf("formatTime(2m56s) = %q", got)
	}
}

func TestFormatOthers(t *testing.T) {
	for _, c := range []struct{ got, want string }{
		{formatRatio(2), "2.00x"},
		{formatRatioRange(1.8, 2.25), "1.80–2.25"},
		{formatRate(999), "999/s"},
		{formatRate(999.7), "1.00k/s"},
		{formatRate(250_400), "250k/s"},
		{formatRate(3e6), "3.00M/s"},
		{formatRate(12.34), "12.3/s"},
		{formatBytes(509), "509B"},
		{formatBytes(1536), "1.50KiB"},
		{formatBytes(12 << 20), "12.0MiB"},
		{formatCount(3), "3"},
		{formatCount(1000012), "1000012"},
		{formatCount(0.5), "0.500"},
		{formatCount(12.345), "12.3"},
		{formatChange(0.123), "+12%"},
		{formatChange(-0.03), "-3%"},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
}

// TestMetricUnits: a metric's header names the quantity and its values
// carry the unit: no header says ns above values in µs.
func TestMetricUnits(t *testing.T) {
	for _, c := range []struct {
		unit  string
		value float64
		label string
		cell  string
	}{
		{"p99-ns", 24000, "p99", "24.0µs"},
		{"p99.9-ns", 1.5e6, "p99.9", "1.50ms"},
		{"cold-p50-ns", 900, "cold p50", "900ns"},
		{"msg/s", 3e6, "throughput", "3.00M/s"},
		{"hot-msg/s", 250e3, "hot throughput", "250k/s"},
		{"heapB/actor", 509, "heap/actor", "509B"},
		{"peak-MB", 1.5, "peak memory", "1.50MiB"},
		{"goroutines/actor", 1, "goroutines/actor", "1"},
	} {
		m := metricOf(c.unit)
		if m.label != c.label || m.format(c.value) != c.cell {
			t.Errorf("%s %v: header %q, cell %q; want %q, %q", c.unit, c.value, m.label, m.format(c.value), c.label, c.cell)
		}
	}
}

// TestOneDurationFormat: the scenario tables and the benchmark tables
// write durations alike, with three significant digits, and their headers
// carry no unit the values do not have.
func TestOneDurationFormat(t *testing.T) {
	offset := 0.04
	s := eval.ScenarioResult{Name: "S", StepsUp: 1,
		Reference: eval.Result{Controller: "fixed-4", Throughput: 1000, WorkerSeconds: 40, WaitP50: 108610 * time.Microsecond,
			WaitP99: 3239297 * time.Microsecond, EndWaitP99: 3239297 * time.Microsecond, SettleUp: 1234 * time.Millisecond},
		Runs: []eval.Result{{Controller: "poolkit", Throughput: 990, WorkerSeconds: 30, WaitP50: 2 * time.Millisecond,
			WaitP99: 45 * time.Millisecond, EndWaitP99: 50 * time.Millisecond, ResizesPerMinute: 6, SettleUp: eval.Never, Overshoot: 0.25, Offset: &offset, Final: 4}}}
	tb := scenarioTable(s)
	want := [][]string{
		{"reference (fixed-4)", "1.00k/s", "1.00x", "109ms", "3.24s", "3.24s", "40", "1.00x", "0", "0", "0", "0", "1.23s", "–", "+0%", "–"},
		{"poolkit", "990/s", "0.99x", "2.00ms", "45.0ms", "50.0ms", "30", "0.75x", "0", "6", "0", "4", "never", "–", "+25%", "+4%"},
	}
	for i, row := range want {
		if strings.Join(tb.Rows[i], "|") != strings.Join(row, "|") {
			t.Errorf("row %d:\n got %q\nwant %q", i, tb.Rows[i], row)
		}
	}

	r := &bench.Results{Workloads: []bench.Workload{{Name: "W", Cases: []bench.Case{{Impl: "poolkit"}}}}, Rounds: 1}
	res := testing.BenchmarkResult{N: 1000, T: 3239297 * time.Microsecond,
		Extra: map[string]float64{"p99-ns": 108_610_000, "peak-MB": 12}}
	r.Runs = append(r.Runs, bench.Run{Workload: "W", Impl: "poolkit", Result: res})
	v := newBenchView(r, "", nil)
	tab := v.Workloads[0].Table
	if got := strings.Join(tab.Header, "|"); strings.Contains(got, "-ns") || strings.Contains(got, "-MB") {
		t.Errorf("header %q names a unit the values do not have", got)
	}
	cells := map[string]string{}
	for i, h := range tab.Header {
		cells[h] = tab.Rows[0][i]
	}
	if cells["time/op"] != "3.24ms" || cells["p99"] != "109ms" || cells["peak memory"] != "12.0MiB" {
		t.Errorf("cells %v: want time/op 3.24ms, p99 109ms, peak memory 12.0MiB", cells)
	}
}
