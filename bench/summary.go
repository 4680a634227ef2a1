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
// rounds that ran it.
type Summary struct {
	Workload, Impl string
	// Runs counts the rounds that measured the case; Failed, those whose
	// run failed (they are left out of every median).
	Runs, Failed int
	NsPerOp      float64
	// Ratio is the median, over the rounds, of this case's ns/op divided
	// by poolkit's in the same round: 2 means twice poolkit's time. It is
	// 0 when no round measured both.
	Ratio                   float64
	AllocsPerOp, BytesPerOp float64
	// Metrics holds the medians of the extra metrics (p99-ns, peak-MB...).
	Metrics map[string]float64
}

// Summaries returns one Summary per case, workload by workload in the
// order of r.Workloads, cases in their order.
func (r *Results) Summaries() []Summary {
	type key struct {
		w, impl string
		round   int
	}
	byKey := map[key]Run{}
	for _, run := range r.Runs {
		byKey[key{run.Workload, run.Impl, run.Round}] = run
	}
	var out []Summary
	for _, w := range r.Workloads {
		for _, c := range w.Cases {
			s := Summary{Workload: w.Name, Impl: c.Impl, Metrics: map[string]float64{}}
			var ns, ratios, allocs, bytes []float64
			metrics := map[string][]float64{}
			for _, run := range r.Runs {
				if run.Workload != w.Name || run.Impl != c.Impl {
					continue
				}
				s.Runs++
				res := run.Result
				if res.N == 0 {
					s.Failed++
					continue
				}
				x := nsPerOp(res)
				ns = append(ns, x)
				allocs = append(allocs, float64(res.MemAllocs)/float64(res.N))
				bytes = append(bytes, float64(res.MemBytes)/float64(res.N))
				for m, v := range res.Extra {
					metrics[m] = append(metrics[m], v)
				}
				if ref, ok := byKey[key{w.Name, "poolkit", run.Round}]; ok && ref.Result.N > 0 {
					ratios = append(ratios, x/nsPerOp(ref.Result))
				}
			}
			s.NsPerOp, s.Ratio = median(ns), median(ratios)
			s.AllocsPerOp, s.BytesPerOp = median(allocs), median(bytes)
			for m, vs := range metrics {
				s.Metrics[m] = median(vs)
			}
			out = append(out, s)
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
		if run.Result.N == 0 {
			fmt.Fprintf(w, "# Benchmark%s/impl=%s failed in round %d\n", run.Workload, run.Impl, run.Round+1)
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
// ratio to poolkit, allocations and the extra metrics.
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
				fmt.Fprintf(tw, "%s\t%s\t\n", s.Impl, strings.Join(Cells(s, cols), "\t"))
			}
		}
		tw.Flush()
		fmt.Fprintln(w)
	}
	return nil
}

// Cells formats a summary's time, ratio, allocations and the given extra
// metrics for a table row.
func Cells(s Summary, cols []string) []string {
	if s.Runs == s.Failed {
		c := []string{"failed", "", "", ""}
		for range cols {
			c = append(c, "")
		}
		return c
	}
	ratio := "-"
	if s.Ratio > 0 {
		ratio = fmt.Sprintf("%.2fx", s.Ratio)
	}
	c := []string{Duration(s.NsPerOp), ratio, fmt.Sprintf("%.0f", s.AllocsPerOp), bytesString(s.BytesPerOp)}
	for _, m := range cols {
		v, ok := s.Metrics[m]
		switch {
		case !ok:
			c = append(c, "")
		case strings.HasSuffix(m, "-ns"):
			c = append(c, Duration(v))
		default:
			c = append(c, fmt.Sprintf("%.0f", v))
		}
	}
	if s.Failed > 0 {
		c[0] += fmt.Sprintf(" (%d failed)", s.Failed)
	}
	return c
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

func bytesString(b float64) string {
	switch {
	case b < 1<<10:
		return fmt.Sprintf("%.0f", b)
	case b < 1<<20:
		return fmt.Sprintf("%.1fK", b/(1<<10))
	default:
		return fmt.Sprintf("%.1fM", b/(1<<20))
	}
}
