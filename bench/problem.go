package bench

import (
	"strings"
	"sync"
	"testing"
)

// problems holds, per *testing.B, why its run could not be measured: a
// check of the workload failed (a pool lost a task, never reached its new
// size, ...). The interleaved runner reads it with takeProblem.
var problems sync.Map // *testing.B -> string

// problem records why b's run of impl cannot be measured, and ends it.
// A problem of one of poolkit's own contenders is a failure: the benchmark
// fails. A peer's problem is a finding about that library, not a red run:
// it is logged with its reason and the run is skipped.
func problem(b *testing.B, impl string, reason string) {
	b.Helper()
	problems.Store(b, reason)
	if Ours(impl) {
		b.Fatal(reason)
	}
	b.Skip("finding: " + reason)
}

// takeProblem returns and forgets the reason recorded for b, if any.
func takeProblem(b *testing.B) (string, bool) {
	v, ok := problems.LoadAndDelete(b)
	if !ok {
		return "", false
	}
	return v.(string), true
}

// Ours reports whether impl names one of poolkit's own contenders (its
// pool, its function pool, its drop-in for ants): their problems are
// poolkit's failures; every other contender's are findings.
func Ours(impl string) bool { return impl == "poolkit" || strings.HasPrefix(impl, "poolkit-") }
