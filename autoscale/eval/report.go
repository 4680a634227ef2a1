package eval

import (
	"math/bits"
	"strings"
	"time"
)

// FixedSizes is the grid of fixed sizes a baseline sweep may use; the
// reference's search spans 1 to its largest unless a scenario sets Grid.
var FixedSizes = []int{1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64}

// RefWait is the p99 queue wait the reference size keeps where some fixed
// size can, and the wait every run may reach whatever the reference's:
// a controller's p99 wait passes at up to max(2 × the reference's,
// RefWait).
const RefWait = 100 * time.Millisecond

// refBand is the goodput band the reference serves: at least this share of
// the highest throughput of any fixed size tried.
const refBand = 0.98

// Reference picks the size a user would choose in hindsight among fixed
// sizes that were run: the one with the fewest worker-seconds among those
// that serve the top goodput band (within 2% of the highest throughput)
// with a p99 queue wait within RefWait; if none does, the one with the
// fewest worker-seconds in the band. Sizes past the one that serves all
// it can serve only add idle or waiting workers.
func Reference(fixed []Result) Result {
	top := 0.0
	for _, r := range fixed {
		top = max(top, r.Throughput)
	}
	pick := func(ok func(Result) bool) int {
		best := -1
		for i, r := range fixed {
			if r.Throughput >= refBand*top && ok(r) && (best < 0 || r.WorkerSeconds < fixed[best].WorkerSeconds) {
				best = i
			}
		}
		return best
	}
	best := pick(func(r Result) bool { return r.WaitP99 <= RefWait })
	if best < 0 {
		best = pick(func(Result) bool { return true })
	}
	return fixed[best]
}

// ReferenceRuns is how many sizes SearchReference(hi, ...) tries: hi, then
// one a halving of the range below it.
func ReferenceRuns(hi int) int { return 1 + bits.Len(uint(max(1, hi)-1)) }

// SearchReference finds the reference among the sizes 1 to hi by
// bisection, calling run for each size it tries (ReferenceRuns(hi) runs),
// and returns it with every run made. It relies on a larger fixed size
// serving at least as much with waits no longer, which holds for an
// open-loop load up to noise; Reference then chooses among the runs made,
// so noise moves the pick to a neighbour at worst.
func SearchReference(hi int, run func(n int) Result) (ref Result, tried []Result) {
	hi = max(1, hi)
	byN := map[int]Result{}
	get := func(n int) Result {
		r, ok := byN[n]
		if !ok {
			r = run(n)
			byN[n] = r
			tried = append(tried, r)
		}
		return r
	}
	top := get(hi)
	inBand := func(r Result) bool { return r.Throughput >= refBand*top.Throughput }
	ok := func(r Result) bool { return inBand(r) && r.WaitP99 <= RefWait }
	if !ok(top) {
		ok = inBand
	}
	// Invariant: ok(get(hi)); every size at or below lo failed (lo 0:
	// none tried).
	lo := 0
	for hi-lo > 1 {
		mid := (lo + hi) / 2
		if ok(get(mid)) {
			hi = mid
		} else {
			lo = mid
		}
	}
	return Reference(tried), tried
}

// Verdict is how a controller's run of a scenario compares with the
// reference: each field says that criterion was met.
type Verdict struct {
	// Throughput: at least 95% of the reference's.
	Throughput bool `json:"throughput"`
	// WorkerSeconds: at most 1.2 times the reference's.
	WorkerSeconds bool `json:"worker_seconds"`
	// Wait: a p99 queue wait of at most max(2 × the reference's, RefWait).
	Wait bool `json:"wait"`
	// EndWait: the same bound on the p99 end-to-end wait (the queue and
	// the downstream's admission together).
	EndWait bool `json:"end_wait"`
}

// Met reports whether every criterion was met.
func (v Verdict) Met() bool { return v.Throughput && v.WorkerSeconds && v.Wait && v.EndWait }

// WaitLimit is the p99 wait a run may reach against a reference p99 of
// ref: max(2 × ref, RefWait).
func WaitLimit(ref time.Duration) time.Duration { return max(2*ref, RefWait) }

// Judge compares run r with the reference ref.
func Judge(r, ref Result) Verdict {
	return Verdict{
		Throughput:    r.Throughput >= 0.95*ref.Throughput,
		WorkerSeconds: r.WorkerSeconds <= 1.2*ref.WorkerSeconds,
		Wait:          r.WaitP99 <= WaitLimit(ref.WaitP99),
		EndWait:       r.EndWaitP99 <= WaitLimit(ref.EndWaitP99),
	}
}

// Beats reports whether run a did better than run b of the same scenario
// on worker-seconds at an equal p99 queue wait. In order: serving the load
// comes first (a run with less than 95% of the other's throughput loses);
// then meeting the SLO where the other does not; then, at worker-seconds
// within 5% of each other, the lower p99 wait; else fewer worker-seconds
// at a p99 wait no more than 10% worse (or within the SLO).
func Beats(s Scenario, a, b Result) bool {
	switch {
	case b.Throughput < 0.95*a.Throughput:
		return true
	case a.Throughput < 0.95*b.Throughput:
		return false
	case a.WaitP99 <= s.SLO && b.WaitP99 > s.SLO:
		return true
	case a.WorkerSeconds <= 1.05*b.WorkerSeconds && a.WaitP99 < b.WaitP99:
		return true
	}
	return a.WorkerSeconds < b.WorkerSeconds && a.WaitP99 <= max(b.WaitP99+b.WaitP99/10, s.SLO)
}

// Slug is a file-name form of a scenario name.
func Slug(name string) string {
	return strings.ToLower(strings.NewReplacer(" ", "-", "/", "-", "(", "", ")", "", ",", "").Replace(name))
}
