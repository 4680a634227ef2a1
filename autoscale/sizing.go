package autoscale

import (
	"math"
	"time"
)

// drainWindows: growth where a knee may be near sizes for a backlog to
// drain within this many windows, besides the arrivals; elsewhere within
// one window, or the objective if that is longer.
const drainWindows = 4

// The latency objective: unless WithTargetWait sets one, the law keeps the
// p99 queue wait within waitMultiple mean service times (the least of the
// recent windows': past a knee, queueing inside the tasks lengthens them),
// and never aims below minObjective, under which a goroutine's wake-up on a
// busy machine (a few milliseconds at p99 on a loaded 2-CPU VM) decides the
// wait, not the number of workers.
const (
	waitMultiple = 4
	minObjective = 10 * time.Millisecond
	// lateShare is the share of tasks the objective allows to wait longer
	// than it: the objective is a p99.
	lateShare = 0.01
)

// objective is the p99 queue wait the law keeps in o; 0 while no service
// time is known.
func (l *law) objective(o Observation) time.Duration {
	if l.cfg.targetWait > 0 {
		return l.cfg.targetWait
	}
	s := l.usual(o)
	if s == 0 {
		return 0
	}
	return max(minObjective, waitMultiple*s)
}

// usual is the tasks' service time before a knee lengthened it: the least
// of o's and the recent windows' means; 0 while none is known.
func (l *law) usual(o Observation) time.Duration {
	s := l.least()
	if o.Service > 0 {
		s = min(s, o.Service)
	}
	if s <= 0 || s == time.Duration(math.MaxInt64) {
		return 0
	}
	return s
}

// late reports a window whose p99 queue wait broke the objective, with
// work still queued at its end, where more workers can shorten the wait.
//
// They cannot while the pool's busy workers are as many as the CPUs and
// the work is not known to be I/O-bound: a task then waits for a CPU to
// run the worker that would start it, and another worker would wait for
// one too. (This is its own tasks' busy time against GOMAXPROCS; the
// scheduler's latencies are read only to tell CPU-bound work, cpu.go.)
func (l *law) late(o Observation) bool {
	t := l.objective(o)
	if t <= 0 || o.WaitP99 <= t || o.Queue == 0 {
		return false
	}
	return l.class == IOBound || o.Busy < 0.9*float64(max(1, o.GOMAXPROCS))
}

// estimate is what Little's law on the current mean service time asks for
// in o: steady, the workers the arrivals keep busy at the target
// utilisation; need, that with a backlog's drain added. Unless the window
// is saturated (a real backlog), the arrivals are taken at their smoothed
// rate: a few tasks more in one window is Poisson noise.
func (l *law) estimate(o Observation) (steady, need int) {
	lambda := l.arrivals(o)
	steady = l.need(o, lambda)
	// A backlog is drained within a window, or drainWindows windows where
	// a knee may be near (workers added for the drain would only queue
	// past it), or the objective if that is longer: it adds its share to
	// the arrivals, for as long as it lasts.
	need = steady
	if backlogged(o) && o.Window > 0 {
		drain := o.Window
		if l.suspect(o) {
			drain *= drainWindows
		}
		drain = max(drain, l.objective(o))
		need = l.need(o, lambda+float64(o.Waiting())/drain.Seconds())
	}
	return steady, need
}

// arrivals is the arrival rate a window is sized for: the smoothed rate,
// unless the window is saturated, where its own is a load the smoothing
// trails; and its own only where its arrivals lie beyond the noise of
// what the smoothed rate before it brings in such a window (noise: twice
// their Poisson spread in an early window, Controller.Run's tick, a few
// dozen arrivals; three times in a regular one): a step (or other work,
// AUTO-16), not a blip of the same load, which at a high utilisation
// queues now and then.
func (l *law) arrivals(o Observation) float64 {
	if !o.Saturated() {
		return l.lambda
	}
	if o.Window > 0 {
		expect := l.prior * o.Window.Seconds()
		if l.noise(float64(o.Arrivals), expect, math.Sqrt(expect)) {
			return l.lambda
		}
	}
	return o.Lambda
}

// need is the workers Little's law asks for, with staff's headroom:
// arrivals per second λ each keeping a worker busy for o's service time.
func (l *law) need(o Observation, lambda float64) int {
	if o.Service <= 0 || lambda <= 0 {
		return 0
	}
	return l.staff(o, lambda*l.sizing(o).Seconds())
}

// staffFrom is the offered load, in busy workers, from which staff
// follows the square-root rule.
const staffFrom = 4

// staff is the number of workers that serve an offered load of r busy
// workers in o within the latency objective: the fewest that keep the p99
// queue wait within it, as Erlang's C formula has it for the load (see
// erlang), and never fewer than the utilisation's floor: r/u up to
// staffFrom, and beyond it the square-root rule of many-server queues
// (Halfin and Whitt), r + β√r, with β = √staffFrom·(1/u − 1) so that the
// two agree at staffFrom. At the default u = 1 the floor is r itself and
// the objective alone decides; the square-root rule is what Erlang's
// formula gives for a wait of about one service time. Without a service
// time (no objective yet), the floor.
func (l *law) staff(o Observation, r float64) int {
	if r <= 0 {
		return 0
	}
	u := l.cfg.utilization
	n := r / u
	if r > staffFrom {
		n = r + math.Sqrt(staffFrom)*(1/u-1)*math.Sqrt(r)
	}
	s, t := l.usual(o), l.objective(o)
	if t <= 0 || s == 0 {
		return int(math.Ceil(n))
	}
	// Erlang's formula is for exponential service times; for others the
	// waits scale by (1 + cs²)/2, cs being the service times' coefficient
	// of variation (the Allen-Cunneen approximation, Poisson arrivals):
	// alike tasks wait half as long, heavy-tailed ones longer.
	k := float64(t) / float64(s) * 2 / (1 + l.cs2)
	return max(int(math.Ceil(n)), erlang(r, k))
}

// variability folds o's squared coefficient of variation of the service
// times into l.cs2, smoothed over windows from the exponential's 1: one
// window's spread may hold an outlier (a task preempted for a scheduler
// slice), which counts at most 3.
func (l *law) variability(o Observation) {
	if l.ticks == 1 {
		l.cs2 = 1
	}
	if o.Service > 0 && o.Completions > 1 {
		cs := float64(o.ServiceSD) / float64(o.Service)
		l.cs2 = smoothing*min(3, cs*cs) + (1-smoothing)*l.cs2
	}
}

// erlang is the fewest workers that keep the share of tasks waiting longer
// than k service times within lateShare, for an offered load of r busy
// workers, in the M/M/N queue (Poisson arrivals, exponential service
// times): with C(N, r) the chance that a task waits at all (Erlang's C
// formula), a task waits longer than t with chance C·exp(−(N−r)·t/S).
// Square-root staffing's headroom is this rule's answer for a wait of
// about one service time; a longer objective needs less, a shorter one
// more (Halfin and Whitt's regime). Exponential service times are the
// pessimistic case of the common ones, and a pool's queue is FIFO, as the
// formula assumes.
func erlang(r, k float64) int {
	if !(r < maxErlang) { // and NaN: one window's figures may be absurd
		return maxErlang
	}
	// Erlang's B formula by its recursion, B(0) = 1, B(n) = r·B(n−1) /
	// (n + r·B(n−1)); then C = B / (1 − (r/n)(1 − B)) for n > r.
	b := 1.0
	for n := 1; ; n++ {
		b = r * b / (float64(n) + r*b)
		if float64(n) <= r {
			continue
		}
		c := b / (1 - r/float64(n)*(1-b))
		if c*math.Exp(-(float64(n)-r)*k) <= lateShare || n >= maxErlang {
			return n
		}
	}
}

// maxErlang bounds erlang's search: the law's sizes are bounded far below.
const maxErlang = 1 << 20

// backlogged reports a queue whose typical task waits longer than it runs:
// a backlog, not a few tasks caught between submission and start.
//
// Work in the backlog outside the pool (WithBacklog) has not reached the
// pool's queue, where its wait would be measured: more of it than a
// quarter of the size is a backlog.
func backlogged(o Observation) bool {
	return o.Queue > o.Size/4 && o.WaitP50 > o.Service || o.Backlog > o.Size/4
}

// drains reports whether the queue empties within one window at the
// current size if arrivals run at their smoothed rate, which itself needs
// no more workers than there are.
//
// A tick a backlog brought forward (Controller.Run) comes a few dozen
// milliseconds into its window: the queue is given until the next regular
// tick, and the arrivals are taken at the window's rate where that is a
// step up (arrivals). A queue that drains before the tick is the noise of
// Poisson arrivals at a high utilisation, not a size that is wrong.
func (l *law) drains(o Observation) bool {
	lambda, win := l.lambda, o.Window
	if l.early {
		lambda, win = l.arrivals(o), max(win, l.cfg.tick)
	}
	if o.Service <= 0 || win <= 0 || lambda <= 0 {
		return false
	}
	s := l.sizing(o)
	return l.staff(o, lambda*s.Seconds()) <= o.Size && emptiedBy(o.Size, s, lambda, o.Waiting(), win)
}

// emptiedBy reports whether n workers, all busy on tasks of mean service
// time s with arrivals at lambda a second, empty a queue of q within win:
// with the completions they make beyond the arrivals.
func emptiedBy(n int, s time.Duration, lambda float64, q int, win time.Duration) bool {
	spare := float64(n)/s.Seconds() - lambda
	return spare > 0 && float64(q) <= spare*win.Seconds()
}

// queueKept reports a queue whose last task starts within the objective at
// the current size (queue × S / N): one that the objective's sizing leaves
// now and then at a steady load, not a backlog to drain (AUTO-17). Sized
// for a p99 wait within the objective, a pool at a high utilisation
// queues; heavy-tailed calls queue deeper.
func (l *law) queueKept(o Observation) bool { return l.startsWithin(o, o.Size) }

// startsWithin reports whether the last task of o's queue starts within
// the objective at n workers (queue × S / n). Work waiting outside the pool
// (WithBacklog) never does: its arrivals are what the pool pulls, not the
// load, and its wait is not the pool's to measure.
func (l *law) startsWithin(o Observation, n int) bool {
	s := l.sizing(o)
	if o.Backlog > 0 || s <= 0 || n <= 0 {
		return false
	}
	return time.Duration(float64(o.Queue)/float64(n)*float64(s)) <= l.objective(o)
}

// drainedBy reports whether n workers, the arrivals at the rate o is
// sized for (arrivals), drain o's queue without more: its last task starts
// within the objective (startsWithin), and the workers the arrivals leave
// spare empty it within a regular tick (a window a backlog brought forward
// is given until the next one, as in drains).
func (l *law) drainedBy(o Observation, n int) bool {
	lambda := l.arrivals(o)
	if lambda <= 0 || !l.startsWithin(o, n) {
		return false
	}
	return emptiedBy(n, l.sizing(o), lambda, o.Queue, max(o.Window, l.cfg.tick))
}

// How many standard errors a window's arrivals (Poisson: the square root
// of their count) or mean service time may lie from what the windows
// before it bring in and still be the same load's noise (AUTO-17). A
// regular window is tested every tick: at two standard errors one window
// in forty-four reads high by chance, five or six a minute at four ticks
// a second, each a growth that a shrink undoes a stabilisation window
// later; at three, one in seven hundred and forty. An early window is
// tested only when a backlog formed, and holds a few dozen arrivals: a
// step of a third is about two standard errors there, and at three it
// would read as noise.
const (
	regularSpread = 3
	earlySpread   = 2
)

// noise reports whether a reading x of the window being decided lies
// within its spread of ref, se being the reading's standard error.
func (l *law) noise(x, ref, se float64) bool {
	spread := float64(regularSpread)
	if l.early {
		spread = earlySpread
	}
	return math.Abs(x-ref) <= spread*se
}

// sizing is the mean service time o is sized with: o's own where it lies
// beyond noise's standard errors (its SD over the square root of its
// completions) from the mean of the recent full windows (a regular
// window's own among them), and that mean within it. A heavy-tailed
// service time's mean moves by a tenth or more from one window to the
// next at a steady load (a quarter of a second of lognormal calls of
// σ = 1 at 1000 a second: 17% at two standard errors); sized from it, the
// pool grew when a cluster of long calls queued and shrank a stabilisation
// window later, at a load that never changed. Beyond the spread the work
// changed, and the window's own mean is the news.
func (l *law) sizing(o Observation) time.Duration {
	if len(l.recent) < 2 || o.Service <= 0 || o.Completions < 2 {
		return o.Service
	}
	var sum time.Duration
	for _, r := range l.recent {
		sum += r.service
	}
	mean := sum / time.Duration(len(l.recent))
	if l.noise(float64(o.Service), float64(mean), float64(o.ServiceSD)/math.Sqrt(float64(o.Completions))) {
		return mean
	}
	return o.Service
}
