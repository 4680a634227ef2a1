package eval

import "strings"

// FixedSizes is the grid the oracle is chosen from.
var FixedSizes = []int{1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64}

// Oracle picks the best fixed size of a sweep in hindsight: the fewest
// worker-seconds among the runs that kept the p99 queue wait within the
// SLO and rejected at most 0.1% of arrivals. If none did, the highest
// goodput, then the fewest worker-seconds: among the runs within 1% of the
// highest throughput, the one with the fewest worker-seconds (sizes past
// the one that serves all it can serve only add idle or waiting workers).
func Oracle(s Scenario, fixed []Result) Result {
	best := -1
	for i, r := range fixed {
		ok := r.WaitP99 <= s.SLO && float64(r.Rejected) <= 0.001*float64(r.Arrivals)
		if ok && (best < 0 || r.WorkerSeconds < fixed[best].WorkerSeconds) {
			best = i
		}
	}
	if best >= 0 {
		return fixed[best]
	}
	top := 0.0
	for _, r := range fixed {
		top = max(top, r.Throughput)
	}
	for i, r := range fixed {
		if r.Throughput >= 0.99*top && (best < 0 || r.WorkerSeconds < fixed[best].WorkerSeconds) {
			best = i
		}
	}
	return fixed[best]
}

// MeetsTarget reports whether run r meets the target of a stationary
// scenario against its oracle: at least 95% of the oracle's throughput at
// no more than 1.2 times its worker-seconds.
func MeetsTarget(r, oracle Result) bool {
	return r.Throughput >= 0.95*oracle.Throughput && r.WorkerSeconds <= 1.2*oracle.WorkerSeconds
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
	return strings.ToLower(strings.NewReplacer(" ", "-", "/", "-", "(", "", ")", "").Replace(name))
}
