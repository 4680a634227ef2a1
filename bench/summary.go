package bench

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"sort"
	"strings"
	"testing"
	"text/tabwriter"
	"time"
)

// Summary is one contender's figures in one workload: medians over the
// rounds that measured it.
type Summary struct {
	Workload, Impl string
	// Runs counts the rounds that ran the case; Failed, those whose run
	// could not be measured (they are left out of every median), and
	// Findings, the failed runs a check on a peer library stopped (see
	// Run.Finding). Failed - Findings runs failed for a reason of
	// poolkit's own.
	Runs, Failed, Findings int
	// Problems are the distinct reasons the failed runs recorded, in the
	// order they came.
	Problems []string
	// Samples are the measured rounds' times per op in ns, in round order.
	Samples []float64
	// NsPerOp is the median of Samples.
	NsPerOp float64
	// Ratio is NsPerOp over poolkit's NsPerOp in the same workload: the
	// ratio of the two medians, so that it agrees with the times shown
	// beside it (2 means twice poolkit's time). 0 when either contender
	// has no measured round.
	Ratio                   float64
	AllocsPerOp, BytesPerOp float64
	// Metrics holds the medians of the extra metrics (p99-ns, peak-MB...).
	Metrics map[string]float64
}

// Summaries returns one Summary per case, workload by workload in the
// order of r.Workloads, cases in their order.
func (r *Results) Summaries() []Summary {
	var out []Summary
	for _, w := range r.Workloads {
		first := len(out)
		for _, c := range w.Cases {
			s := Summary{Workload: w.Name, Impl: c.Impl, Metrics: map[string]float64{}}
			var allocs, bytes []float64
			metrics := map[string][]float64{}
			for _, run := range r.Runs {
				if run.Workload != w.Name || run.Impl != c.Impl {
					continue
				}
				s.Runs++
				if run.Failed() {
					s.Failed++
					if run.Finding() {
						s.Findings++
					}
					if run.Problem != "" && !slices.Contains(s.Problems, run.Problem) {
						s.Problems = append(s.Problems, run.Problem)
					}
					continue
				}
				res := run.Result
				s.Samples = append(s.Samples, nsPerOp(res))
				allocs = append(allocs, float64(res.MemAllocs)/float64(res.N))
				bytes = append(bytes, float64(res.MemBytes)/float64(res.N))
				for m, v := range res.Extra {
					metrics[m] = append(metrics[m], v)
				}
			}
			s.NsPerOp = median(s.Samples)
			s.AllocsPerOp, s.BytesPerOp = median(allocs), median(bytes)
			for m, vs := range metrics {
				s.Metrics[m] = median(vs)
			}
			out = append(out, s)
		}
		var ref float64
		for _, s := range out[first:] {
			if s.Impl == "poolkit" {
				ref = s.NsPerOp
			}
		}
		for i := first; i < len(out); i++ {
			if ref > 0 && out[i].NsPerOp > 0 {
				out[i].Ratio = out[i].NsPerOp / ref
			}
		}
	}
	return out
}

// nsPerOp is testing's ns/op as a float, or the ns/op the benchmark
// reported itself.
func nsPerOp(r testing.BenchmarkResult) float64 {
	if v, ok := r.Extra["ns/op"]; ok {
		return v
	}
	return float64(r.T.Nanoseconds()) / float64(r.N)
}

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// WriteRaw writes every successful run in Go's benchmark format, with the
// header benchstat reads (benchstat -col /impl FILE compares contenders).
func (r *Results) WriteRaw(w io.Writer) error {
	m := r.Machine
	fmt.Fprintf(w, "goos: %s\ngoarch: %s\npkg: github.com/poolkit/poolkit/bench\ncpu: %s\n", m.GOOS, m.GOARCH, m.CPU)
	suffix := ""
	if m.GOMAXPROCS > 1 {
		suffix = fmt.Sprintf("-%d", m.GOMAXPROCS)
	}
	for _, run := range r.Runs {
		if run.Failed() {
			what := "failed"
			if run.Finding() {
				what = "finding"
			}
			reason := run.Problem
			if reason == "" {
				reason = "no reason recorded"
			}
			fmt.Fprintf(w, "# Benchmark%s/impl=%s round %d: %s: %s\n", run.Workload, run.Impl, run.Round+1, what, reason)
			continue
		}
		fmt.Fprintf(w, "Benchmark%s/impl=%s%s\t%s\t%s\n", run.Workload, run.Impl, suffix, run.Result.String(), run.Result.MemString())
	}
	_, err := fmt.Fprintln(w)
	return err
}

// Columns lists the extra metrics the workload's runs reported, sorted.
func (r *Results) Columns(workload string) []string {
	set := map[string]bool{}
	for _, run := range r.Runs {
		if run.Workload == workload {
			for m := range run.Result.Extra {
				if m != "ns/op" {
					set[m] = true
				}
			}
		}
	}
	cols := slices.Collect(maps.Keys(set))
	sort.Strings(cols)
	return cols
}

// WriteTable writes a plain-text table per workload: median time per op,
// the ratio of that median to poolkit's, allocations and the extra
// metrics; a contender none of whose runs was measured shows why.
func (r *Results) WriteTable(w io.Writer) error {
	sums := r.Summaries()
	for _, wl := range r.Workloads {
		fmt.Fprintf(w, "%s: %s\n", wl.Name, wl.About)
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
		cols := r.Columns(wl.Name)
		// Every cell ends in a tab: tabwriter aligns only terminated cells.
		header := append([]string{"impl", "time/op", "vs poolkit", "allocs/op", "B/op"}, cols...)
		fmt.Fprintf(tw, "%s\t\n", strings.Join(header, "\t"))
		for _, s := range sums {
			if s.Workload == wl.Name {
				fmt.Fprintf(tw, "%s\t%s\t\n", s.Impl, strings.Join(cells(s, cols), "\t"))
			}
		}
		tw.Flush()
		fmt.Fprintln(w)
	}
	_, err := fmt.Fprintln(w, "vs poolkit: the ratio of the median time per op to poolkit's.")
	return err
}

// cells formats a summary's time, ratio, allocations and the given extra
// metrics for a table row.
func cells(s Summary, cols []string) []string {
	c := make([]string, 4+len(cols))
	if s.Runs == s.Failed {
		c[0] = "failed: " + strings.Join(s.Problems, "; ")
		if s.Findings == s.Failed {
			c[0] = "finding: " + strings.Join(s.Problems, "; ")
		}
		return c
	}
	c[0], c[1] = Duration(s.NsPerOp), "-"
	if s.Ratio > 0 {
		c[1] = fmt.Sprintf("%.2fx", s.Ratio)
	}
	c[2], c[3] = fmt.Sprintf("%.0f", s.AllocsPerOp), Bytes(s.BytesPerOp)
	for i, m := range cols {
		if v, ok := s.Metrics[m]; ok {
			c[4+i] = Metric(m, v)
		}
	}
	if s.Failed > 0 {
		c[0] += fmt.Sprintf(" (%d failed)", s.Failed)
	}
	return c
}

// Metric formats an extra metric's value: a duration for a metric in ns
// (p99-ns), else a whole number.
func Metric(unit string, v float64) string {
	if strings.HasSuffix(unit, "-ns") {
		return Duration(v)
	}
	return fmt.Sprintf("%.0f", v)
}

// Duration formats nanoseconds with three significant digits.
func Duration(ns float64) string {
	d := time.Duration(ns)
	switch {
	case d < time.Microsecond:
		return fmt.Sprintf("%.0fns", ns)
	case d < time.Millisecond:
		return fmt.Sprintf("%.3gµs", ns/1e3)
	case d < time.Second:
		return fmt.Sprintf("%.3gms", ns/1e6)
	default:
		return fmt.Sprintf("%.3gs", ns/1e9)
	}
}

// Bytes formats a byte count: 512, 1.5K, 2.0M.
func Bytes(b float64) string {
	switch {
	case b < 1<<10:
		return fmt.Sprintf("%.0f", b)
	case b < 1<<20:
		return fmt.Sprintf("%.1fK", b/(1<<10))
	default:
		return fmt.Sprintf("%.1fM", b/(1<<20))
	}
}
