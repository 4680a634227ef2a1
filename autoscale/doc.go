// Package autoscale sizes a pool from measurement: a feedback loop that
// drives any resize.Resizer (poolkit's pool, or ants, pond and tunny
// through package compat).
//
// # What it reads
//
// Given a poolkit pool built with pool.WithTimings (pool.Pool,
// pool.FuncPool: a SelfMeasuring target; New refuses an untimed one with
// ErrUntimed), the controller reads, every tick, the pool's own counters (submitted, refused, completed, running, waiting)
// and its queue-wait and service-time histograms: nothing to wrap, nothing
// to report. For another library's pool, a Meter stands in: wrap every
// task with Meter().Wrap and report every refused submission with
// Meter().Reject.
//
// Every tick (WithTick, 250ms by default) one window of those readings
// becomes an Observation: arrival rate λ, throughput, busy workers, queue
// length, queue wait, mean service time S, refusals; plus GOMAXPROCS, the
// process's CPU time (getrusage, on Unix systems), how many goroutines
// waited for a CPU (the runtime's scheduling latencies), and the live heap
// against the soft memory limit, which the controller reads and never
// sets.
//
// # The control law
//
// AIMD at heart, with the congestion signal TCP Vegas uses: not loss but
// delay, here the tasks' own service time; and a latency objective it
// spends workers on only as far as the objective needs.
//
//   - The objective: the p99 queue wait within WithTargetWait, or by
//     default within four mean service times (the least of the recent
//     windows', at least 10ms), read from a window's wait histogram by
//     placing the 99th percentile within its bucket (a bucket's upper
//     bound would read 9ms as 16.8ms). The pool is sized for it: the fewest workers
//     that keep 99% of the tasks within it for the load, by Erlang's C
//     formula for a load of R = λ·S busy workers, the waits scaled by
//     (1 + cs²)/2 for service times of coefficient of variation cs
//     (Allen-Cunneen; tasks alike wait half as long as exponential ones).
//     That is square-root staffing for a wait target (the Halfin-Whitt
//     regime): the headroom grows as √R, so a large pool runs hotter at
//     the same waits. WithUtilization below 1 adds headroom beyond it.
//   - Pressure (a queue with the workers busy, refusals, or a p99 wait
//     above the objective): grow to what Little's law asks for, with a
//     backlog drained within a window (or the objective, if longer), at
//     once, unless a knee may be near (one was found, or the service time
//     rose by a quarter): then at most double, and let the next windows
//     judge. A rise no knee explains (more than N times the recent least
//     at a size of N: sharing a bottleneck lengthens a task N times at
//     most), or a fall as far, is other work: the law forgets the old
//     work's service times, knee, rates and smoothing, as at a start, and
//     grows at once or, after a fall, comes down in a step or two. A
//     queue that Little's law says the size can absorb, that most
//     tasks waited in for less than a service time or that the size drains
//     within a window, is a momentary one: hold, unless its p99 wait broke
//     the objective; then one worker more (CauseLatency: the log says when
//     the pool grew for latency), which the pool keeps while the load stays
//     as high (below); but not within the stabilisation window of a growth
//     while there are more workers than the arrivals need: those waits are
//     the backlog's the growth drained. So is a need at most a tenth above
//     the size (in whole workers: none below ten), with the waits within
//     the objective and nothing refused: the size give or take a window's
//     noise, as for a shrink (below); heavy-tailed service times at a
//     steady load raise it by that much now and then, and following them
//     walked the pool up a few workers and down again a stabilisation
//     window later.
//   - A window's figures are news only beyond their sampling spread. Its
//     arrivals (Poisson: the square root of their count) and its mean
//     service time (its spread over the square root of the completions)
//     count as its own only where they lie more than three standard
//     errors from what the windows before it bring in (the smoothed rate;
//     the recent windows' mean); within, the pool is sized from those. At
//     two, one window in forty-four reads high by chance: at four ticks a
//     second, five or six growths a minute, each undone by a shrink a
//     stabilisation window later. A queue whose last task starts within
//     the objective at the current size, with the arrivals needing no
//     more than the size give or take a tenth, is the queue the
//     objective's sizing leaves now and then at a high utilisation, not a
//     backlog: no workers are added to drain it; where the arrivals need
//     more, the pool grows to their need without a drain. So it does for a
//     backlog that the arrivals' need drains by itself (its last task
//     starting within the objective at that size, the workers the arrivals
//     leave spare emptying it before the next regular tick): a drain's
//     workers would be given back a window later, two changes of size
//     where one does.
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
//     multiplicative decrease. Work found CPU-bound is held within
//     ceil(1.5 × GOMAXPROCS).
//   - CPU-bound work is told by measurement, not by trying sizes. When the
//     process keeps its CPUs busy (85% of GOMAXPROCS or more) and the pool
//     has more workers than GOMAXPROCS, each busy worker is running, ready
//     to run and waiting for a CPU, or blocked (in I/O, on a downstream):
//     the CPU time bounds the first, the scheduler's latencies the second,
//     and when at most a quarter of the busy workers are left for the
//     third, an added worker would only wait for a CPU too. The law places
//     a knee at GOMAXPROCS, known from below, and goes there in that tick:
//     a pool started at 4 workers on 2 CPUs with CPU work at 1.5 times what
//     they serve is at 2 after its first tick. The scheduler's latencies
//     are sampled, and a window may read few goroutines waiting where many
//     do; the service time is the second witness: a growth past the CPUs
//     after which the tasks took about as much longer as P CPUs shared by
//     more workers make them (max(1, n/P) over max(1, n'/P), three
//     quarters of it at least) is CPU-bound work too. Workers blocked in
//     I/O do not count against the CPUs: with the CPUs as busy, a pool whose busy
//     workers mostly wait on I/O is sized by Little's law as before. The
//     readings are the whole process's, so the experiments have the last
//     word: once a growth beyond GOMAXPROCS paid, the readings place no
//     knee. Where the CPUs have room, the same readings keep the
//     scheduler's time out of the load: busy workers of CPU-bound work
//     beyond the CPUs the process used were waking up or set aside, which
//     fewer workers would not be, so the law counts the CPUs used as the
//     load. Their spread it cannot correct: at n workers a few tasks in a
//     few hundred take milliseconds, and Erlang's formula fed that spread
//     asks for an n-th worker the load does not need. Where only the
//     objective asks for it, the law tries n-1 workers and keeps them
//     while their p99 wait keeps the objective (a trial that fails waits
//     20 s before the next, then longer).
//   - A knee is tested from below once (a step down that keeps 95% of the
//     throughput over two windows moves it down; the throughput is taken
//     both as counted, which is noisy, and as the busy workers over the
//     service time, which shows whether the tasks got faster with fewer
//     workers), unless the arrivals need its workers anyway (the test would
//     only queue them; under an overload it goes ahead). It is tested from
//     above with a small step after five seconds, and each test that finds
//     it where it was doubles the time to the next, up to 80 seconds, so
//     that a saturated pool settles. It is dropped at once when the mean
//     service time moves 2.5-fold from the one it was found at (the work
//     changed: a CPU phase gave way to I/O, a downstream slowed down),
//     both read in windows whose tasks ran at the knee's size: a shrink is
//     lazy, and in the window after it the workers above the new size end
//     tasks that shared the bottleneck with all of them.
//   - Under-use (no backlog): shrink towards what the smoothed busy workers
//     need, taking the largest need of the stabilisation window
//     (WithStabilization, 5s), in one step, and only when that need is a
//     tenth of the size or more below it: a need closer than that is
//     noise, and following it walks the pool down a worker a tick and back
//     up at the next queue. Between the low mark (0.65) and the target it
//     waits until the window has passed since the last growth. A size the controller grew
//     to stands for that window, except the workers added to drain a
//     backlog, or held through one: once it is drained the arrivals' own
//     load, λ·S, is the need, not the busy workers the drain kept. And the
//     law remembers: for six stabilisation windows it keeps the workers
//     the highest sustained arrival rate needs at the current service
//     time, so that load arriving in bursts with lulls shorter than that
//     meets each burst with the workers the last one needed, not a quarter
//     of a second of queueing while the next growth catches up. Sustained
//     means smoothed over two full windows: the rate of a window a backlog
//     brought forward is a few dozen arrivals, a sixth of it noise, and
//     kept for the memory's span it held a pool started too small at that
//     noise's peak (behind a downstream that admits only so many calls,
//     the workers above its limit then lengthened the calls, and with
//     them the need). Likewise it keeps a worker it added for latency at a
//     steady load while the load stays at nine tenths of what it was: the
//     waits, not Erlang's formula, said that load needs it.
//
// The work's class (Stats.Class) is concluded from the pool's own tasks
// and the measurement above: a knee at or below ceil(1.5 × GOMAXPROCS)
// makes it CPU-bound, one above it Limited, a growth beyond GOMAXPROCS
// that paid I/O-bound. CPU load elsewhere in the process slows every task
// a little but does not make an added worker buy nothing, and leaves the
// pool's I/O-blocked workers blocked, so it does not make I/O work look
// CPU-bound. Bounds are read on every tick: the
// ceiling is WithMax, by default 32 × GOMAXPROCS (runtime.GOMAXPROCS(0),
// read, never set). Growth stops while the live heap is near the soft
// memory limit (debug.SetMemoryLimit(-1), which only reads).
//
// Run does not wait for a tick to hear of a backlog: a poolkit pool tells
// it the moment twice as many tasks as it has workers wait behind them
// (pool.Pool.WaitBacklog), and Run ticks then, an eighth of an interval
// after the last tick at the soonest. Such a tick only grows the pool,
// and is armed again only by a tick that found no queue: a pool created
// too small, or met by a step in its load, grows within milliseconds, and
// a backlog that lasts is left to the interval. Its window is short, and
// the tasks that ended in it are the short ones: it counts every worker
// busy at its end as busy throughout (the wake-up fired with all of them
// busy), and its mean service time is not remembered as one the work
// takes. One in which no task ended, where tasks ended before, holds: the
// tasks now take longer than it, and the next window says how long.
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
// set (grow, latency, shrink, knee, bound, work_changed, hold_burst,
// hold_limit, steady, failing) that Stats counts ticks by: what the metrics exporters
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
