package pool

import (
	"context"
	"errors"
	"fmt"
	"math/bits"
	"sync"
	"sync/atomic"
	"time"

	"github.com/poolkit/poolkit/internal/engine"
)

// Scheduler runs tasks on a Pool by priority class, gives up on a task
// whose wait has outlived its usefulness, and, when the pool is full,
// sheds the least urgent work first. Use it in front of a pool that
// serves requests: a request whose caller has gone, or that has waited
// past its deadline, costs no worker, and under overload the requests
// that matter most are the last to be refused. Create one with
// NewScheduler; it shares its pool's workers, capacity, queue, panic
// handler and life with the pool's other tasks.
//
// Each waiting task of a Scheduler holds one place in its pool's queue,
// a ticket: the pool runs tickets in its own order, among its plain
// tasks, and a ticket that starts runs the scheduler's most urgent
// waiting task, chosen at that moment. Among the scheduler's tasks:
//
//   - A task of a higher class starts before a waiting task of a lower
//     one, except that a class with tasks waiting is owed a start after
//     seven starts of higher classes (a guaranteed share of one start in
//     eight), so that no class starves. Within a class, tasks start in
//     the order they were accepted.
//   - A task whose context ends before it starts never starts: it
//     expires, and its Future (Schedule) reports ctx.Err(). So does a
//     task that has waited longer than WithMaxWait: its Future reports
//     ErrExpired. A deadline on the context is a wait deadline for that
//     task alone (the task itself is not given the context).
//   - A Scheduler never makes a submitter wait. When the pool has no room
//     (its queue full, or the scheduler's own WithQueueSize reached), an
//     arriving task takes the place of the newest waiting task of the
//     lowest class below its own, which is shed: its Future reports
//     ErrShed. With no lower class waiting, the arriving task is refused
//     with ErrShed. Under WithMaxWait an arriving task is also refused
//     with ErrShed while the wait objective is breached for its class: a
//     task of its class or a higher one has expired for its wait within
//     the last max wait, and tasks of those classes still wait. The
//     lowest classes expire, and so are refused, first.
//
// The pool's contract holds for every task a Scheduler accepts: it runs
// exactly once, or expires, or is shed, and is then counted in
// Stats.Expired or Stats.Shed (and in Completed, as a task that ended
// without running); or ShutdownNow hands back its ticket. None is
// dropped without a count and, for Schedule, a report. Every method is
// safe for concurrent use, from any goroutine, a task of the pool
// included.
type Scheduler struct {
	p       *Pool
	maxWait time.Duration // WithMaxWait; 0: no limit
	limit   int           // most tasks waiting (WithQueueSize); 0: no limit of its own
	mu      struct {
		sync.Mutex
		classes  [numClasses]schedQueue
		nonEmpty uint8 // bit c set: classes[c] has tasks (P3)
		waiting  int   // tasks in classes
		tickets  int   // tickets accepted by the pool that have not yet taken a task (P1)
		passed   [numClasses]uint8
		timer    *time.Timer // expires the oldest waiting tasks under WithMaxWait
		armed    bool        // timer is set to go off
		// breached[c] is when a task of class c last expired for its
		// wait (WithMaxWait): the wait objective is breached for c
		// within maxWait of it.
		breached [numClasses]time.Time
	}
	// The pool's counters count tickets, which Stats makes counts of
	// tasks. reused counts tasks accepted on a ticket that another task
	// left (one that expired, or was shed): Stats adds them to Submitted
	// and Completed (a dropped task completes when the ticket it held
	// does). returned is the tasks ShutdownNow handed back less the
	// tickets the pool handed back with them (P4): Stats moves it from
	// Completed to Returned. Both only grow, so the counts Stats reports
	// only grow, but for that one correction at ShutdownNow.
	reused, expired, shed atomic.Uint64
	returned              atomic.Int64
}

// The scheduler's protocol. Everything is guarded by s.mu; the pool's
// engine is called with s.mu held only by Offer, which never waits (lock
// order: the scheduler's, then the engine's), and a ticket takes s.mu on
// a worker that holds no lock.
//
//	P1. tickets >= waiting: every waiting task has a ticket of its own in
//	    the pool that has not yet taken a task (queued there, handed to a
//	    worker that has not yet taken s.mu, or handed back by
//	    ShutdownNow), so no task waits with nothing to start it. A ticket
//	    that starts takes the most urgent waiting task, or, finding none
//	    (the task it was made for left early), ends at once. A task that
//	    arrives while tickets > waiting takes such a ticket instead of
//	    making a new one.
//	P2. A task leaves classes once, under s.mu, by exactly one of: a
//	    ticket (it then runs), its context's end or its wait's limit
//	    (expired), a more urgent arrival (shed). Whichever comes first
//	    takes it out of its class's list; the others find it out and do
//	    nothing. So the task runs at most once and its report is made
//	    exactly once.
//	P3. Bit c of nonEmpty is set exactly when classes[c] is not empty,
//	    and passed[c] is zero while it is empty.
//	P4. The pool's ShutdownNow takes every waiting task from its class
//	    (handBack) after the pool has closed: a ticket that starts later
//	    finds none, and a submitter that comes later finds the pool
//	    closed (it checks under s.mu). The tickets the pool hands back
//	    are dropped from its list (each is the scheduler's own unit, a
//	    *ticket) and the tasks come back instead, so that a task whose
//	    ticket a worker had taken, but not yet used, is handed back too.
//
// numClasses is how many priority classes a Scheduler has, and shareTurns
// the starts of which a class with tasks waiting is owed one.
const (
	numClasses = 8
	shareTurns = 8
)

// Class is a task's priority class in a Scheduler: from 0, the lowest
// and the default, to 7, the highest. Tasks of a higher class start
// first, and are shed last.
type Class int

var (
	// ErrShed is returned by Scheduler.Submit and Schedule, and reported
	// by a Future, for a task the scheduler refused or gave up because
	// the pool was full and the task's class was the lowest waiting. It
	// matches ErrOverload and resize.ErrOverload.
	ErrShed error = &shedError{}
	// ErrExpired is reported by a Future for a task that waited longer
	// than its scheduler's WithMaxWait and never started. It matches
	// context.DeadlineExceeded.
	ErrExpired error = &expiredError{}
	// ErrInvalidClass is returned for a Class outside [0, 7].
	ErrInvalidClass = errors.New("pool: invalid class")
	// errNilScheduler is returned by the methods of a nil *Scheduler.
	errNilScheduler = errors.New("pool: nil *Scheduler")
)

type shedError struct{}

func (*shedError) Error() string { return "pool: task shed under overload" }
func (*shedError) Unwrap() error { return ErrOverload }

type expiredError struct{}

func (*expiredError) Error() string { return "pool: task waited longer than its max wait" }
func (*expiredError) Unwrap() error { return context.DeadlineExceeded }

// NewScheduler returns a Scheduler that runs its tasks on p. Its options
// are WithMaxWait, the longest a task may wait to start (no limit by
// default); WithQueueSize, the most of its tasks that may wait at once
// (1024 by default, at least 1), beyond the room the pool's own queue
// has; and WithUnboundedQueue, no limit but the pool's. A nil p, or a nil
// or invalid option, is an error matching ErrInvalidOption; a pool that
// Close, Shutdown or ShutdownNow has closed is an error matching ErrClosed
// (a Scheduler made as the pool closes refuses its tasks with ErrClosed,
// as the pool does). A Scheduler stays with its pool for as long as the
// pool lives: make one per pool, not one per request.
func NewScheduler(p *Pool, opts ...SchedulerOption) (*Scheduler, error) {
	if p == nil {
		return nil, invalid("NewScheduler: nil *Pool")
	}
	c, err := buildLayerConfig(opts, SchedulerOption.applyScheduler)
	if err != nil {
		return nil, err
	}
	if err := p.e.Usable(); err != nil {
		return nil, fmt.Errorf("pool: NewScheduler: %w", err)
	}
	s := &Scheduler{p: p, maxWait: c.maxWait, limit: c.queueSize}
	p.layers.add(s)
	return s, nil
}

// WithMaxWait sets how long a task of a Scheduler may wait to start:
// past d it expires (ErrExpired) instead of starting late. The default,
// and 0, is no limit. A negative d is an error.
func WithMaxWait(d time.Duration) SchedulerOption {
	return schedulerOption(func(c *layerConfig) error {
		if d < 0 {
			return invalid("max wait %v: want at least 0", d)
		}
		c.maxWait = d
		return nil
	})
}

// Submit hands task to the pool in class c. It returns nil once the task
// is accepted; from then on it starts, or expires when ctx ends (or its
// wait passes WithMaxWait) before it starts, or is shed for a more urgent
// task; an expired or shed task is only counted (Stats.Expired,
// Stats.Shed): use Schedule for a task whose fate the caller must learn.
// Submit never waits. It returns ErrShed when the pool is full and no
// waiting task of a lower class can be shed instead; ErrClosed once the
// pool is closed; ctx.Err() for a ctx already done; ErrNilTask,
// ErrNilContext and ErrInvalidClass for a nil task, a nil ctx and a class
// outside [0, 7]. A task for which Submit returned an error never runs.
//
// Submit synchronizes before the task starts.
func (s *Scheduler) Submit(ctx context.Context, c Class, task func()) error {
	if task == nil {
		return ErrNilTask
	}
	return s.submit(ctx, c, task, nil)
}

// Schedule submits fn to s in class c, as Scheduler.Submit does, and
// returns a Future for its result. The Future reports ctx.Err() for a
// task whose ctx ended before it started, ErrExpired for one that waited
// longer than WithMaxWait, and ErrShed for one shed for a more urgent
// task; fn then never runs. When the submission fails, the error is
// returned, fn never runs and the Future is nil. A panic in fn is the
// Future's to report, counted but not logged, as for SubmitResult.
func Schedule[T any](ctx context.Context, s *Scheduler, c Class, fn func() (T, error)) (*Future[T], error) {
	if fn == nil {
		return nil, ErrNilTask
	}
	if s == nil {
		return nil, errNilScheduler
	}
	f := newFuture(s.p, fn)
	if err := s.submit(ctx, c, f.call, f.finish); err != nil {
		return nil, err
	}
	return f, nil
}

func (s *Scheduler) submit(ctx context.Context, c Class, run func(), report func(error)) error {
	if s == nil {
		return errNilScheduler
	}
	if ctx == nil {
		return ErrNilContext
	}
	if c < 0 || c >= numClasses {
		return fmt.Errorf("%w: %d", ErrInvalidClass, c)
	}
	e := &s.p.e
	if err := ctx.Err(); err != nil {
		return e.Reject(err)
	}
	t := &schedTask{run: run, report: report, class: c}
	var now time.Time
	if s.maxWait > 0 {
		now = time.Now()
		t.deadline = now.Add(s.maxWait)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.admitLocked(t, now); err != nil {
		return err
	}
	if ctx.Done() != nil {
		// Registered under s.mu, so a ticket that takes t sees stop set.
		t.stop = context.AfterFunc(ctx, func() { s.expire(t, ctx) })
	}
	return nil
}

// admitLocked queues t on a ticket of its own: a ticket another task
// left, or a new one the pool accepts at once; or, the pool full, in the
// place of a less urgent task, which is shed. It refuses t while the
// wait objective is breached for t's class (breachedLocked). now is the
// time of the submission under WithMaxWait. Requires s.mu.
func (s *Scheduler) admitLocked(t *schedTask, now time.Time) error {
	e := &s.p.e
	if e.Closed() {
		return e.Reject(ErrClosed)
	}
	if s.maxWait > 0 && s.breachedLocked(t.class, now) {
		e.Reject(ErrOverload)
		return ErrShed
	}
	if s.limit == 0 || s.mu.waiting < s.limit {
		if s.mu.tickets > s.mu.waiting {
			s.acceptLocked(t)
			return nil
		}
		engine.At(engine.SchedOffer)
		switch err := e.Offer((*ticket)(s)); err {
		case nil:
			s.mu.tickets++
			s.pushLocked(t)
			return nil
		case engine.ErrNoRoom:
		default:
			return err
		}
	}
	low := Class(bits.TrailingZeros8(s.mu.nonEmpty))
	if s.mu.nonEmpty == 0 || low >= t.class {
		e.Reject(ErrOverload)
		return ErrShed
	}
	victim := s.mu.classes[low].Back()
	s.removeLocked(victim)
	s.shed.Add(1)
	s.endLocked(victim, ErrShed)
	s.acceptLocked(t)
	return nil
}

// acceptLocked queues t on a ticket another task left. Requires s.mu.
func (s *Scheduler) acceptLocked(t *schedTask) {
	s.reused.Add(1)
	s.pushLocked(t)
}

// addStats puts the scheduler's tasks in a pool's counts in place of its
// tickets (see reused and returned), and leaves out of Waiting the
// tickets whose task has left.
func (s *Scheduler) addStats(st *Stats) {
	s.mu.Lock()
	orphans := s.mu.tickets - s.mu.waiting
	s.mu.Unlock()
	st.Waiting = max(0, st.Waiting-orphans)
	reused, returned := s.reused.Load(), s.returned.Load()
	st.Submitted += reused
	st.Completed = uint64(int64(st.Completed+reused) - returned)
	st.Returned = uint64(int64(st.Returned) + returned)
	st.Expired += s.expired.Load()
	st.Shed += s.shed.Load()
}
