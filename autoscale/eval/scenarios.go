package eval

import (
	"math"
	"math/rand/v2"
	"time"
)

// The I/O scenarios call a downstream with 32 slots and a 20ms service
// time: 1600 calls per second at most. A pool needs λ·S workers busy, so
// the best size at a rate is ceil(λ·S/0.8), and never more than the slots.
const (
	ioSlots   = 32
	ioService = 20 * time.Millisecond
	ioCap     = float64(ioSlots) / 0.020 // calls per second
	cpuTask   = 500 * time.Microsecond
)

func ioWork(time.Duration, *rand.Rand) Work { return Work{Downstream: ioService} }

func ioOptimum(rate func(time.Duration) float64) func(time.Duration) int {
	return func(t time.Duration) int {
		return max(1, min(ioSlots, int(math.Ceil(rate(t)*ioService.Seconds()/0.8))))
	}
}

func steps(levels []float64, at []time.Duration) func(time.Duration) float64 {
	return func(t time.Duration) float64 {
		l := levels[0]
		for i, a := range at {
			if t >= a {
				l = levels[i+1]
			}
		}
		return l
	}
}

// IOScenarios are the scenarios whose work waits on the simulated
// downstream: they run the same in fake time, so tests run them under
// testing/synctest.
func IOScenarios() []Scenario {
	step := steps([]float64{0.2 * ioCap, 0.8 * ioCap, 0.2 * ioCap}, []time.Duration{5 * time.Second, 15 * time.Second})
	ramp := func(t time.Duration) float64 { return ioCap * (0.1 + 1.2*t.Seconds()/30) }
	sine := func(t time.Duration) float64 { return ioCap * (0.5 + 0.4*math.Sin(2*math.Pi*t.Seconds()/20)) }
	burst := func(t time.Duration) float64 {
		if t%(5*time.Second) >= 4700*time.Millisecond {
			return 3 * ioCap
		}
		return 0.3 * ioCap
	}
	cold := steps([]float64{0, 0.8 * ioCap}, []time.Duration{10 * time.Second})
	return []Scenario{
		{Name: "S1 step up and down", Duration: 30 * time.Second, Rate: step, Work: ioWork, Slots: ioSlots,
			Timeout: 100 * time.Millisecond, Optimum: ioOptimum(step), SLO: 20 * time.Millisecond,
			Changes: []time.Duration{5 * time.Second, 15 * time.Second}},
		{Name: "S2 ramp into overload", Duration: 30 * time.Second, Rate: ramp, Work: ioWork, Slots: ioSlots,
			Timeout: 100 * time.Millisecond, SLO: 20 * time.Millisecond},
		{Name: "S3 sine", Duration: 40 * time.Second, Rate: sine, Work: ioWork, Slots: ioSlots,
			Timeout: 100 * time.Millisecond, SLO: 20 * time.Millisecond},
		{Name: "S4 micro-bursts", Duration: 30 * time.Second, Rate: burst, Work: ioWork, Slots: ioSlots,
			Timeout: 100 * time.Millisecond, SLO: 50 * time.Millisecond},
		{Name: "S9 heavy-tailed service", Duration: 30 * time.Second, Rate: func(time.Duration) float64 { return 0.6 * ioCap },
			Work: func(_ time.Duration, rng *rand.Rand) Work {
				// Lognormal with median 20ms and σ = 1, capped at 1s.
				d := time.Duration(float64(ioService) * math.Exp(rng.NormFloat64()))
				return Work{Downstream: min(d, time.Second)}
			}, Slots: 2 * ioSlots, Timeout: time.Second, SLO: 50 * time.Millisecond},
		{Name: "S11 idle then cold start", Duration: 20 * time.Second, Rate: cold, Work: ioWork, Slots: ioSlots,
			Timeout: 100 * time.Millisecond, Optimum: ioOptimum(cold), SLO: 20 * time.Millisecond,
			Changes: []time.Duration{10 * time.Second}},
	}
}

// CPUScenarios are the scenarios whose work burns CPU: they need real time
// and a quiet machine, and take about a minute per controller. With set
// non-nil (an application passes runtime.GOMAXPROCS) they include S10,
// which halves GOMAXPROCS for the middle third of the run and restores it.
func CPUScenarios(procs int, set func(int)) []Scenario {
	cpuCap := float64(procs) / cpuTask.Seconds()
	cpuWork := func(time.Duration, *rand.Rand) Work { return Work{CPU: cpuTask} }
	cpuStep := steps([]float64{0.3 * cpuCap, 0.9 * cpuCap, 0.3 * cpuCap}, []time.Duration{4 * time.Second, 10 * time.Second})
	regime := func(t time.Duration, _ *rand.Rand) Work {
		if t >= 8*time.Second && t < 16*time.Second {
			return Work{CPU: cpuTask}
		}
		return Work{Downstream: ioService}
	}
	out := []Scenario{
		{Name: "S5 CPU-bound saturation", Duration: 8 * time.Second, Rate: func(time.Duration) float64 { return 1.5 * cpuCap },
			Work: cpuWork, SLO: 50 * time.Millisecond, CPUBound: true, Grid: []int{1, 2, 3, 4, 8}},
		{Name: "S6 CPU step", Duration: 16 * time.Second, Rate: cpuStep, Work: cpuWork, SLO: 20 * time.Millisecond,
			CPUBound: true, Grid: []int{1, 2, 3, 4, 8}},
		{Name: "S7 regime switch I/O-CPU-I/O", Duration: 24 * time.Second,
			Rate: func(t time.Duration) float64 {
				if t >= 8*time.Second && t < 16*time.Second {
					return 0.6 * cpuCap
				}
				return 0.6 * ioCap
			},
			Work: regime, Slots: ioSlots, Timeout: 100 * time.Millisecond, SLO: 20 * time.Millisecond, CPUBound: true,
			Grid: []int{2, 4, 8, 16, 24, 32, 48}},
		{Name: "S8 mixed CPU and I/O", Duration: 12 * time.Second, Rate: func(time.Duration) float64 { return 0.5 * cpuCap },
			Work: func(time.Duration, *rand.Rand) Work {
				return Work{CPU: 300 * time.Microsecond, Downstream: 5 * time.Millisecond}
			}, Slots: 64, Timeout: 100 * time.Millisecond, SLO: 20 * time.Millisecond, CPUBound: true,
			Grid: []int{4, 8, 16, 24, 32, 48}},
	}
	if set != nil && procs > 1 {
		out = append(out, Scenario{Name: "S10 GOMAXPROCS halved mid-run", Duration: 15 * time.Second,
			Rate: func(time.Duration) float64 { return 0.4 * cpuCap }, Work: cpuWork, SLO: 20 * time.Millisecond,
			CPUBound: true, Grid: []int{1, 2, 3, 4}, Procs: &ProcsChange{At: []time.Duration{5 * time.Second, 10 * time.Second},
				N: []int{procs / 2, procs}, Set: set}})
	}
	return out
}
