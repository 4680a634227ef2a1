package bench

import (
	"bufio"
	"bytes"
	"go/parser"
	"go/token"
	"strings"
	"testing"
)

func TestCompare(t *testing.T) {
	res, err := Compare(Options{Rounds: 2, Workloads: []string{"Invoke"}})
	if err != nil {
		t.Fatal(err)
	}
	w, _ := Lookup("Invoke")
	if got, want := len(res.Runs), 2*len(w.Cases); got != want {
		t.Fatalf("%d runs, want %d", got, want)
	}
	for _, s := range res.Summaries() {
		if s.Runs != 2 || s.Failed != 0 || s.NsPerOp <= 0 {
			t.Errorf("%s: %d runs, %d failed, %v ns/op", s.Impl, s.Runs, s.Failed, s.NsPerOp)
		}
		if s.Impl == "poolkit" && s.Ratio != 1 {
			t.Errorf("poolkit's ratio to itself is %v", s.Ratio)
		}
	}
	// Each round starts at a different case.
	if res.Runs[0].Impl == res.Runs[len(w.Cases)].Impl {
		t.Errorf("both rounds started with %s", res.Runs[0].Impl)
	}
	var raw bytes.Buffer
	if err := res.WriteRaw(&raw); err != nil {
		t.Fatal(err)
	}
	lines := 0
	sc := bufio.NewScanner(&raw)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) == 0 || !strings.HasPrefix(f[0], "Benchmark") {
			continue
		}
		lines++
		// name, N, value ns/op, value B/op, value allocs/op
		if !strings.HasPrefix(f[0], "BenchmarkInvoke/impl=") || len(f) != 8 || f[3] != "ns/op" || f[7] != "allocs/op" {
			t.Errorf("not in Go's benchmark format: %q", sc.Text())
		}
	}
	if lines != len(res.Runs) {
		t.Errorf("%d benchmark lines for %d runs", lines, len(res.Runs))
	}
	var table bytes.Buffer
	if err := res.WriteTable(&table); err != nil {
		t.Fatal(err)
	}
	for _, c := range w.Cases {
		if !strings.Contains(table.String(), c.Impl) {
			t.Errorf("table lacks %s:\n%s", c.Impl, table.String())
		}
	}
}

func TestCompareRejects(t *testing.T) {
	if _, err := Compare(Options{Rounds: 0}); err == nil {
		t.Error("0 rounds accepted")
	}
	if _, err := Compare(Options{Rounds: 1, Workloads: []string{"NoSuch"}}); err == nil {
		t.Error("an unknown workload accepted")
	}
}

// TestEveryWorkloadHasABenchmark: `go test -bench` reaches every workload
// the poolkit command runs, and every workload has the poolkit case the
// ratios need.
func TestEveryWorkloadHasABenchmark(t *testing.T) {
	f, err := parser.ParseFile(token.NewFileSet(), "bench_test.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	funcs := map[string]bool{}
	for name := range f.Scope.Objects {
		funcs[name] = true
	}
	for _, w := range Workloads() {
		if !funcs["Benchmark"+w.Name] {
			t.Errorf("no Benchmark%s in bench_test.go", w.Name)
		}
		if len(w.Cases) == 0 || w.Cases[0].Impl != "poolkit" {
			t.Errorf("%s: the first case must be poolkit", w.Name)
		}
		if w.About == "" || w.Quick == "" || w.Full == "" {
			t.Errorf("%s: About, Quick and Full must be set", w.Name)
		}
	}
}

func TestMedian(t *testing.T) {
	for _, c := range []struct {
		in   []float64
		want float64
	}{{nil, 0}, {[]float64{3}, 3}, {[]float64{5, 1, 3}, 3}, {[]float64{4, 1, 3, 2}, 2.5}} {
		if got := median(c.in); got != c.want {
			t.Errorf("median(%v) = %v, want %v", c.in, got, c.want)
		}
	}
}
