// Package autoscale sizes a pool from measurement: a feedback loop that
// drives any resize.Resizer (poolkit's pool, or ants, pond and tunny
// through package compat).
//
// # What it reads
//
// Given a poolkit pool (pool.Pool, pool.FuncPool: a SelfMeasuring target),
// the controller switches the pool's timings on and reads, every tick, the
// pool's own counters (submitted, refused, completed, running, waiting)
// and its queue-wait and service-time histograms: nothing to wrap, nothing
// to report. For another library's pool, a Meter stands in: wrap every
// task with Meter().Wrap and report every refused submission with
// Meter().Reject.
//
// Every tick (WithTick, 250ms by default) one window of those readings
// becomes an Observation: arrival rate λ, throughput, busy workers, queue
// length, queue wait, mean service time S, refusals; plus GOMAXPROCS and the
// live heap against the soft memory limit, which the controller reads and
// never sets.
//
// # The control law
//
// AIMD at heart, with the congestion signal TCP Vegas uses: not loss but
// delay, here the tasks' own service time.
//
//   - Pressure (a queue with the workers busy, refusals, or with
//     WithTargetWait a p99 wait above the target): grow to what Little's
//     law asks for. The arrivals keep R = λ·S workers busy; the pool gets
//     R/u (u, the target utilisation, 0.8) up to R = 4, and beyond it
//     R + β√R with β = 2(1/u − 1), the square-root staffing rule of
//     many-server queues: the headroom against random arrivals grows as
//     √R, so a large pool runs hotter than u at the same waits (21 busy
//     get 24 workers, not 27). A backlog adds the rate that drains it
//     within four windows. A queue
//     that Little's law says the size can absorb, and that most tasks
//     waited in for less than a service time or that the size drains
//     within a window, is a momentary one: hold.
//   - Every growth of a saturated pool is an experiment: the next windows
//     say what the added workers bought. When they bought less than three
//     quarters of a worker each and the tasks' service time rose with their
//     number (by more than chance: the service-time histogram's spread says
//     how far one window's mean may stray), the pool has
//     passed a knee: the CPUs, or a downstream that serves only so many at
//     once and queues the rest inside itself. Little's law alone cannot see
//     it, since past a knee the service time, and with it the estimate,
//     grows with every worker added. The law goes back to the knee (Little's
//     law places it: the throughput the bottleneck gave times the service
//     time before queueing for it began) and caps growth there: the
//     multiplicative decrease.
//   - A knee is tested from below once (a step down that keeps 95% of the
//     throughput over two windows moves it down; the throughput is taken
//     both as counted, which is noisy, and as the busy workers over the
//     service time, which shows whether the tasks got faster with fewer
//     workers), from above every five seconds with a small
//     step (the bottleneck may have moved), and dropped at once when the
//     mean service time moves 2.5-fold from the one it was found at (the
//     work changed: a CPU phase gave way to I/O, a downstream slowed down).
//   - Under-use (no backlog): shrink towards the smoothed busy workers over
//     u, taking the largest need of the stabilisation window
//     (WithStabilization, 5s): below the low mark (0.65) at most a fifth of
//     N per tick, between it and u one worker a tick once the window has
//     passed since the last growth. A size the controller grew to stands
//     for that window, except the workers added to drain a backlog.
//
// The work's class (Stats.Class) is concluded from the pool's own tasks
// only: a knee at or below ceil(1.5 × GOMAXPROCS) makes it CPU-bound, one
// above it Limited, a growth beyond GOMAXPROCS that paid I/O-bound. CPU
// load elsewhere in the process slows every task a little but does not make
// an added worker buy nothing, so it never makes I/O work look CPU-bound;
// the law reads no scheduler latency. Bounds are read on every tick: the
// ceiling is WithMax, by default 32 × GOMAXPROCS (runtime.GOMAXPROCS(0),
// read, never set). Growth stops while the live heap is near the soft
// memory limit (debug.SetMemoryLimit(-1), which only reads).
//
// Two signals come from outside the pool when the caller has them. Work
// waiting before the pool (WithBacklog: a broker's backlog for a consumer
// that pulls only what the pool can start) counts as waiting work: with
// busy workers it is pressure, and growth is sized to drain it. Task
// failures (WithFailures) that rise with the number of workers are a
// congestion signal, as for a knee: the law goes back to the size that
// failed less and caps growth there for a while; failures at the same rate
// at every size are left alone.
//
// Every decision that changes the size, or holds it for a reason, goes to
// the decision log (Controller.Log) and, with WithLogger, to a
// *slog.Logger as a structured record. Each has a Cause, one of a small
// set (grow, shrink, knee, bound, work_changed, hold_burst, hold_limit,
// steady, failing) that Stats counts ticks by: what the metrics exporters
// (promcollector, otelpoolkit) publish, where the Reason is a sentence
// with its figures.
//
// The package never changes process-wide state: it reads GOMAXPROCS and
// the memory limit and sets neither. On Go 1.25 and later the runtime
// keeps GOMAXPROCS in line with the container's CPU quota by itself, and
// follows the quota when it changes; go.uber.org/automaxprocs helps only
// on older Go releases in a CPU-limited container, and once it has set
// GOMAXPROCS the runtime stops following the quota. The library never
// imports it; an application may, in its main.
package autoscale
