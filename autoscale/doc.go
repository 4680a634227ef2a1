// Package autoscale sizes a pool from measurement: a feedback loop that
// drives any resize.Resizer (poolkit's pool, or ants, pond and tunny
// through package compat) from signals it measures itself.
//
// A Meter wraps each task to record when it was submitted, started and
// finished, and counts the submissions the pool rejected or that timed
// out. Every tick the Controller turns one window of those records into an
// Observation (arrival rate, throughput, busy workers, queue length, queue
// wait, service time, rejections) plus what the runtime reports (the
// scheduler's run-queue latency, GOMAXPROCS, the live heap against the
// soft memory limit) and applies its control law, additive increase and
// multiplicative decrease at heart:
//
//   - Rejections or timeouts in a window: shrink to β·N (β = 0.9) and hold
//     growth for two windows.
//   - Pressure (a queue with busy workers, or a queue wait above the
//     target): grow towards λ·S₀/u, the busy workers Little's law asks for
//     at the target utilisation u, using the baseline service time S₀ so
//     that CPU contention cannot inflate its own estimate; at least +1, at
//     most doubling per tick.
//   - Idleness (utilisation below the low mark, no queue): shrink towards the
//     busiest recent need, taking the largest recommendation of a
//     stabilisation window, a fraction of N per tick.
//   - Otherwise hold: the band between the marks is the hysteresis.
//
// It tells CPU-bound from I/O-bound work by what an added worker buys:
// after a growth step it compares the throughput gained per added worker
// with the average. A step that buys less than a quarter of a worker while
// the scheduler's run-queue latency goes up tenfold marks the work
// CPU-bound and sets a knee, which caps growth for a
// while. Bounds are read on every tick: the CPU-bound ceiling is
// ceil(1.5 × GOMAXPROCS) (runtime.GOMAXPROCS(0), read, never set), the
// I/O-bound ceiling is WithMax. Growth stops while the live heap is near
// the soft memory limit (debug.SetMemoryLimit(-1), which only reads).
//
// The package never changes process-wide state: it reads GOMAXPROCS and
// the memory limit and sets neither. On Go 1.25 and later the runtime
// keeps GOMAXPROCS in line with the container's CPU quota by itself, and
// follows the quota when it changes; go.uber.org/automaxprocs helps only
// on older Go releases in a CPU-limited container, and once it has set
// GOMAXPROCS the runtime stops following the quota. The library never
// imports it; an application may, in its main.
package autoscale
