package bench

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/poolkit/poolkit/spectest"
)

// refusing is a contender's pool that refuses every task.
type refusing struct{}

func (refusing) Submit(func()) error            { return errors.New("refused") }
func (refusing) Shutdown(context.Context) error { return nil }

// TestProblem: a contender that misbehaves in a workload fails the
// benchmark when it is poolkit's own, and is a finding (logged, the run
// skipped) when it is a peer's; either way the reason says what was seen
// and is there for the interleaved runner to take.
func TestProblem(t *testing.T) {
	for _, c := range []struct {
		impl  string
		fails bool
	}{{"poolkit", true}, {"poolkit-ants", true}, {"ants", false}, {"pond", false}} {
		fake := contender{name: c.impl, make: func(int) (spectest.Pool, error) { return refusing{}, nil }}
		var run *testing.B
		res := testing.Benchmark(func(b *testing.B) {
			run = b
			batch(fake, 2, 10, func(int) {})(b)
		})
		if res.N != 0 {
			t.Errorf("%s: the run measured %d ops of a pool that refuses every task", c.impl, res.N)
		}
		if run.Failed() != c.fails || run.Skipped() == c.fails {
			t.Errorf("%s: failed %v, skipped %v; want failed %v", c.impl, run.Failed(), run.Skipped(), c.fails)
		}
		reason, ok := takeProblem(run)
		if !ok || !strings.Contains(reason, "Submit of task 1 of 10 = refused") {
			t.Errorf("%s: problem %q, %v; want what was seen", c.impl, reason, ok)
		}
		if _, again := takeProblem(run); again {
			t.Errorf("%s: the problem was taken twice", c.impl)
		}
	}
}

// TestGrewShort: a grow that leaves tasks waiting says how many, and, for
// ants, why (its lost wake-up); for others it claims no cause.
func TestGrewShort(t *testing.T) {
	if got := grewShort("ants", 63, 4, 64); !strings.HasPrefix(got, "63 of 64 tasks running 5s after growing from 4 to 64: ") ||
		!strings.Contains(got, "wake-up") {
		t.Errorf("ants: %q", got)
	}
	if got, want := grewShort("pond", 10, 4, 64), "10 of 64 tasks running 5s after growing from 4 to 64"; got != want {
		t.Errorf("pond: %q, want %q", got, want)
	}
}
