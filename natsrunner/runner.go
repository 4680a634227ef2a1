package natsrunner

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/poolkit/poolkit/pool"
)

// ErrInvalid is matched (errors.Is) by the errors New returns for a nil
// consumer, pool or handler or an invalid option, and by Run for a nil
// context.
var ErrInvalid = errors.New("natsrunner: invalid argument")

// ErrRunning is returned by Run when another Run of the same Runner has
// not returned yet.
var ErrRunning = errors.New("natsrunner: already running")

// PanicError is the error a handler's panic is turned into; the message is
// then treated as failed (Nak, or Term after the last attempt).
type PanicError struct{ Value any }

func (e *PanicError) Error() string { return fmt.Sprintf("natsrunner: handler panicked: %v", e.Value) }

// Handler processes one message. Its context is not cancelled when Run's
// context is done, only when the drain timeout expires. A nil return acks
// the message; an error (or a panic) naks or terminates it. The handler
// must not Ack, Nak or Term the message itself; it may call InProgress.
type Handler func(ctx context.Context, msg jetstream.Msg) error

// Stats is a snapshot of a Runner's counters. Fields are read one after
// another; once the runner is idle, Fetched == Acked + Naked + Termed.
type Stats struct {
	Fetched   uint64 // messages received from pulls
	Acked     uint64 // Ack or DoubleAck calls
	Naked     uint64 // Nak or NakWithDelay calls, after failures or at shutdown
	Termed    uint64 // Term calls: last attempt failed, or malformed
	Failed    uint64 // handler calls that returned an error or panicked
	Panics    uint64 // handler calls that panicked (counted in Failed too)
	Malformed uint64 // messages whose metadata could not be read (Termed)
	// SettleErrors counts Ack, Nak and Term calls that returned an error;
	// the server redelivers those messages after AckWait.
	SettleErrors uint64
	Progress     uint64 // InProgress signals sent by the runner
	FetchErrors  uint64 // pulls that failed and were retried
	InFlight     int    // messages fetched and not yet settled
	// Handled counts handler calls that returned (or panicked), and
	// HandlerTime is their summed duration: HandlerTime / Handled is the
	// mean handler latency. Calls still running are in neither.
	Handled     uint64
	HandlerTime time.Duration
}

// MeanHandlerTime is the mean duration of the handler calls that
// returned, or 0 if none did. The difference of two snapshots gives the
// mean over an interval: see Sub.
func (s Stats) MeanHandlerTime() time.Duration {
	if s.Handled == 0 {
		return 0
	}
	return s.HandlerTime / time.Duration(s.Handled)
}

// NakRate is the fraction of settled messages that were nak'd (Naked /
// (Acked + Naked + Termed)), or 0 if none was settled.
func (s Stats) NakRate() float64 {
	n := s.Acked + s.Naked + s.Termed
	if n == 0 {
		return 0
	}
	return float64(s.Naked) / float64(n)
}

// Sub returns the counters accumulated between the snapshot old and s
// (every counter of s minus old's); InFlight is s's.
func (s Stats) Sub(old Stats) Stats {
	return Stats{
		Fetched:      s.Fetched - old.Fetched,
		Acked:        s.Acked - old.Acked,
		Naked:        s.Naked - old.Naked,
		Termed:       s.Termed - old.Termed,
		Failed:       s.Failed - old.Failed,
		Panics:       s.Panics - old.Panics,
		Malformed:    s.Malformed - old.Malformed,
		SettleErrors: s.SettleErrors - old.SettleErrors,
		Progress:     s.Progress - old.Progress,
		FetchErrors:  s.FetchErrors - old.FetchErrors,
		InFlight:     s.InFlight,
		Handled:      s.Handled - old.Handled,
		HandlerTime:  s.HandlerTime - old.HandlerTime,
	}
}

// Runner pulls messages from a JetStream consumer and runs a handler on
// each one in a pool. Create it with New; its methods are safe for
// concurrent use.
type Runner struct {
	cons    jetstream.Consumer
	pool    *pool.Pool
	handler Handler
	cfg     config

	running  atomic.Bool
	finished chan struct{} // signalled (non-blocking) by each finishing task
	// inPool counts the runner's tasks submitted to the pool and not yet
	// returned from it: its own exact share of the pool's work (free).
	inPool atomic.Int64

	mu       sync.Mutex
	inflight map[*entry]struct{}
	// unsettled counts the entries put in inflight whose settling call
	// has not returned yet: drain waits for it, not for inflight, so Run
	// does not return while an Ack is being sent.
	unsettled atomic.Int64

	fetched, acked, naked, termed, failed, panics, malformed,
	settleErrors, progress, fetchErrors, handled atomic.Uint64
	handlerNanos atomic.Int64
}

// entry is one in-flight message. Membership in Runner.inflight is the
// right to settle it: whoever removes it settles it, exactly once.
type entry struct {
	msg     jetstream.Msg
	attempt int
	tracked bool // counted in Runner.unsettled

	mu       sync.Mutex // serialises InProgress with the settling call
	settled  bool
	lastSeen time.Time // delivery or last InProgress; guarded by mu
}

// New returns a Runner that feeds messages from cons to handler through
// p. It returns an error matching ErrInvalid if an argument is nil or an
// option is invalid. The consumer should be a pull consumer with explicit
// acks; its MaxAckPending should be at least the sum of the capacities of
// all pools that pull from it.
func New(cons jetstream.Consumer, p *pool.Pool, handler Handler, opts ...Option) (*Runner, error) {
	switch {
	case cons == nil:
		return nil, invalid("nil consumer")
	case p == nil:
		return nil, invalid("nil pool")
	case handler == nil:
		return nil, invalid("nil handler")
	}
	cfg := defaultConfig()
	for _, o := range opts {
		if o == nil {
			return nil, invalid("nil option")
		}
		if err := o(&cfg); err != nil {
			return nil, err
		}
	}
	return &Runner{
		cons:     cons,
		pool:     p,
		handler:  handler,
		cfg:      cfg,
		finished: make(chan struct{}, 1),
		inflight: make(map[*entry]struct{}),
	}, nil
}

// Stats returns a snapshot of the runner's counters.
func (r *Runner) Stats() Stats {
	r.mu.Lock()
	n := len(r.inflight)
	r.mu.Unlock()
	return Stats{
		Fetched:      r.fetched.Load(),
		Acked:        r.acked.Load(),
		Naked:        r.naked.Load(),
		Termed:       r.termed.Load(),
		Failed:       r.failed.Load(),
		Panics:       r.panics.Load(),
		Malformed:    r.malformed.Load(),
		SettleErrors: r.settleErrors.Load(),
		Progress:     r.progress.Load(),
		FetchErrors:  r.fetchErrors.Load(),
		InFlight:     n,
		Handled:      r.handled.Load(),
		HandlerTime:  time.Duration(r.handlerNanos.Load()),
	}
}

// Backlog is the number of messages the consumer has yet to deliver
// (NumPending from a fresh consumer info request). It does not count
// messages delivered and not yet acknowledged (NumAckPending), whether
// they are in this runner, another replica or awaiting redelivery.
func (r *Runner) Backlog(ctx context.Context) (uint64, error) {
	info, err := r.cons.Info(ctx)
	if err != nil {
		return 0, fmt.Errorf("natsrunner: consumer info: %w", err)
	}
	return info.NumPending, nil
}

// Run pulls and processes messages until ctx is done or pulling fails
// for good (the consumer was deleted, the connection closed, the pool
// closed). It then stops pulling, waits for in-flight handlers up to the
// drain timeout, Naks the messages whose handlers are still running, and
// returns: ctx.Err() after a cancellation, or the error that stopped it.
// When Run returns every message it fetched has been settled; handlers
// that outlived the drain may still be running in the pool, with a
// cancelled context, and their results are ignored.
func (r *Runner) Run(ctx context.Context) error {
	if ctx == nil {
		return invalid("nil context")
	}
	if !r.running.CompareAndSwap(false, true) {
		return ErrRunning
	}
	defer r.running.Store(false)

	hctx, hcancel := context.WithCancel(context.WithoutCancel(ctx))
	defer hcancel()
	stopTicker := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() { r.keepAlive(stopTicker) })

	err := r.loop(ctx, hctx)
	r.drain(hcancel)
	close(stopTicker)
	wg.Wait()
	return err
}

var errStop = errors.New("stop")

func (r *Runner) loop(ctx, hctx context.Context) error {
	fetchFailures := 0
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		if r.pool.IsClosed() {
			return pool.ErrPoolClosed
		}
		free := r.free()
		if free <= 0 {
			r.waitRoom(ctx)
			continue
		}
		maxBatch, maxWait := r.pullLimits()
		fctx, cancel := context.WithTimeout(ctx, maxWait)
		batch, err := r.cons.Fetch(min(free, maxBatch), jetstream.FetchContext(fctx))
		if err == nil {
			var stop error
			for msg := range batch.Messages() {
				r.fetched.Add(1)
				if stop != nil {
					r.settleEarly(msg)
					continue
				}
				stop = r.dispatch(ctx, hctx, msg)
			}
			err = batch.Error()
			if stop != nil && !errors.Is(stop, errStop) {
				cancel()
				return stop
			}
		}
		cancel()
		if err == nil || ctx.Err() != nil || errors.Is(err, context.DeadlineExceeded) {
			fetchFailures = 0
			continue
		}
		if fatalFetchError(err) {
			return fmt.Errorf("natsrunner: fetch: %w", err)
		}
		r.fetchErrors.Add(1)
		fetchFailures++
		// A pull to a consumer deleted meanwhile is answered "no
		// responders", like one during a server restart, and one the
		// consumer's limits refuse fails the same way at every try: ask
		// the server what the consumer is now. Gone is fatal; its fresh
		// info carries the limits the next pull keeps to.
		if err := r.checkConsumer(ctx); err != nil {
			return fmt.Errorf("natsrunner: fetch: %w", err)
		}
		sleep(ctx, min(50*time.Millisecond<<min(fetchFailures, 6), 2*time.Second))
	}
}

// pullLimits returns the batch and the wait of the next pull: the runner's
// own (WithMaxBatch, WithFetchMaxWait), within the consumer's
// MaxRequestBatch and MaxRequestExpires, which the server enforces by
// refusing a pull that exceeds them.
func (r *Runner) pullLimits() (batch int, wait time.Duration) {
	batch, wait = r.cfg.maxBatch, r.cfg.fetchMaxWait
	if info := r.cons.CachedInfo(); info != nil {
		if n := info.Config.MaxRequestBatch; n > 0 {
			batch = min(batch, n)
		}
		if d := info.Config.MaxRequestExpires; d > 0 {
			// The pull's expiry is the fetch context's deadline, less
			// what the client keeps for the round trip: stay well inside.
			wait = min(wait, d*3/4)
		}
	}
	return batch, wait
}

// checkConsumer asks the server for the consumer's info after a failed
// pull: it returns the error when the consumer no longer exists, and nil
// otherwise (the info refreshes CachedInfo, and so pullLimits; a server
// that does not answer is a transient failure, retried).
func (r *Runner) checkConsumer(ctx context.Context) error {
	ictx, cancel := context.WithTimeout(ctx, r.cfg.fetchMaxWait)
	defer cancel()
	_, err := r.cons.Info(ictx)
	if errors.Is(err, jetstream.ErrConsumerNotFound) || errors.Is(err, jetstream.ErrConsumerDeleted) {
		return err
	}
	return nil
}

func fatalFetchError(err error) bool {
	return errors.Is(err, jetstream.ErrConsumerDeleted) ||
		errors.Is(err, jetstream.ErrConsumerNotFound) ||
		errors.Is(err, jetstream.ErrInvalidOption) ||
		errors.Is(err, nats.ErrConnectionClosed)
}

func sleep(ctx context.Context, d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
	case <-t.C:
	}
}

// free is how many tasks the pool could start now, plus the queue the
// runner may keep in it (WithQueued). Stats' fields are read one after
// another, so a task passing from the queue to a worker between two reads
// is counted in neither; the runner's own count of its tasks in the pool
// is exact, and the larger of the two is what fills the pool.
func (r *Runner) free() int {
	s := r.pool.Stats()
	busy := max(s.Running+s.Waiting, int(r.inPool.Load()))
	return s.Cap - busy + r.cfg.queued
}

// waitRoom returns when one of the runner's tasks finished, ctx is done,
// or the poll interval passed (capacity may have grown by a Resize).
func (r *Runner) waitRoom(ctx context.Context) {
	t := time.NewTimer(r.cfg.pollInterval)
	defer t.Stop()
	select {
	case <-ctx.Done():
	case <-t.C:
	case <-r.finished:
		// The task signals just before it returns to the pool; give it
		// the moment it needs to leave the pool's running count.
		for range 4 {
			if r.free() > 0 {
				return
			}
			runtime.Gosched()
		}
	}
}

// dispatch hands one fetched message to the pool, or settles it at once.
// A non-nil result stops the loop after the rest of the batch is settled.
func (r *Runner) dispatch(ctx, hctx context.Context, msg jetstream.Msg) error {
	md, err := msg.Metadata()
	if err != nil {
		r.malformed.Add(1)
		r.settleNew(msg, 0, &malformedError{err})
		return nil
	}
	if ctx.Err() != nil {
		r.settleEarly(msg)
		return errStop
	}
	e := &entry{msg: msg, attempt: int(min(md.NumDelivered, 1<<31-1)), lastSeen: time.Now(), tracked: true}
	r.unsettled.Add(1)
	r.mu.Lock()
	r.inflight[e] = struct{}{}
	r.mu.Unlock()
	r.inPool.Add(1)
	if err := r.pool.SubmitContext(ctx, func() { r.process(hctx, e) }); err != nil {
		r.inPool.Add(-1)
		if r.take(e) {
			r.settle(e, Naked, nil)
		}
		if errors.Is(err, pool.ErrPoolClosed) {
			return err
		}
		return errStop
	}
	return nil
}

type malformedError struct{ err error }

func (e *malformedError) Error() string { return "natsrunner: malformed message: " + e.err.Error() }
func (e *malformedError) Unwrap() error { return e.err }

// settleEarly naks a message that was fetched but will not be handled.
func (r *Runner) settleEarly(msg jetstream.Msg) {
	r.settleNew(msg, 0, nil)
}

func (r *Runner) settleNew(msg jetstream.Msg, attempt int, merr *malformedError) {
	e := &entry{msg: msg, attempt: attempt}
	if merr != nil {
		r.settle(e, Termed, merr)
		return
	}
	r.settle(e, Naked, nil)
}

// take removes e from the in-flight set and reports whether it was there,
// that is whether the caller now owns settling it.
func (r *Runner) take(e *entry) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, ok := r.inflight[e]; !ok {
		return false
	}
	delete(r.inflight, e)
	return true
}

func (r *Runner) owned(e *entry) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	_, ok := r.inflight[e]
	return ok
}

func (r *Runner) signal() {
	select {
	case r.finished <- struct{}{}:
	default:
	}
}

// process is the pool task for one message.
func (r *Runner) process(hctx context.Context, e *entry) {
	defer r.signal()
	defer r.inPool.Add(-1) // before the signal: a woken loop sees the room
	if !r.owned(e) {
		return // nak'd by the drain before it started
	}
	returned := false
	defer func() {
		if !returned {
			// The handler called runtime.Goexit, which cannot be stopped:
			// its message failed, as after a panic, and is settled here,
			// as the goroutine ends.
			r.finish(e, errHandlerGoexit)
		}
	}()
	err := r.call(hctx, e.msg)
	returned = true
	r.finish(e, err)
}

// errHandlerGoexit is the failure of a message whose handler called
// runtime.Goexit.
var errHandlerGoexit = errors.New("natsrunner: handler called runtime.Goexit")

// finish settles e after its handler's outcome err, unless the drain has
// already taken it.
func (r *Runner) finish(e *entry, err error) {
	if !r.take(e) {
		return // nak'd by the drain while it ran
	}
	switch {
	case err == nil:
		r.settle(e, Acked, nil)
	case e.attempt >= r.cfg.maxAttempts:
		r.settle(e, Termed, err)
	default:
		r.settle(e, Naked, err)
	}
}

func (r *Runner) call(ctx context.Context, msg jetstream.Msg) (err error) {
	began := time.Now()
	returned := false
	defer func() {
		r.handlerNanos.Add(int64(time.Since(began)))
		r.handled.Add(1)
		if v := recover(); v != nil {
			r.panics.Add(1)
			err = &PanicError{Value: v}
		} else if !returned {
			r.panics.Add(1) // runtime.Goexit: process settles the message
			err = errHandlerGoexit
		}
		if err != nil {
			r.failed.Add(1)
		}
	}()
	err = r.handler(ctx, msg)
	returned = true
	return err
}

// settle sends the one settling call for e. cause is the handler's error
// for a failed message (it selects NakWithDelay over Nak).
func (r *Runner) settle(e *entry, o Outcome, cause error) {
	e.mu.Lock()
	e.settled = true
	var err error
	switch o {
	case Acked:
		r.acked.Add(1)
		if r.cfg.doubleAck {
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			err = e.msg.DoubleAck(ctx)
			cancel()
		} else {
			err = e.msg.Ack()
		}
	case Termed:
		r.termed.Add(1)
		err = e.msg.Term()
	case Naked:
		r.naked.Add(1)
		if d := time.Duration(0); cause != nil {
			if d = r.cfg.backoff(e.attempt); d > 0 {
				err = e.msg.NakWithDelay(d)
				break
			}
		}
		err = e.msg.Nak()
	}
	e.mu.Unlock()
	if err != nil {
		r.settleErrors.Add(1)
	}
	if f := r.cfg.onSettle; f != nil {
		f(e.msg, o, err)
	}
	if e.tracked {
		r.unsettled.Add(-1)
		r.signal()
	}
}

// drain waits for in-flight messages up to the drain timeout, then
// cancels the handlers' context and naks what is left.
func (r *Runner) drain(hcancel context.CancelFunc) {
	deadline := time.NewTimer(r.cfg.drainTimeout)
	defer deadline.Stop()
	poll := time.NewTicker(r.cfg.pollInterval)
	defer poll.Stop()
wait:
	for r.unsettled.Load() > 0 {
		select {
		case <-r.finished:
		case <-poll.C:
		case <-deadline.C:
			break wait
		}
	}
	// Take the messages before cancelling the handlers' context: a
	// handler that returns because of the cancellation must find its
	// message gone, not ack it.
	r.mu.Lock()
	left := make([]*entry, 0, len(r.inflight))
	for e := range r.inflight {
		left = append(left, e)
		delete(r.inflight, e)
	}
	r.mu.Unlock()
	hcancel()
	for _, e := range left {
		r.settle(e, Naked, nil)
	}
	// Settling calls already under way in tasks (an Ack, a DoubleAck
	// bounded by its own timeout) finish before Run returns.
	for r.unsettled.Load() > 0 {
		select {
		case <-r.finished:
		case <-poll.C:
		}
	}
}

// ackWait is the AckWait the keep-alive ticker works against.
func (r *Runner) ackWait() time.Duration {
	if r.cfg.ackWait > 0 {
		return r.cfg.ackWait
	}
	if info := r.cons.CachedInfo(); info != nil && info.Config.AckWait > 0 {
		return info.Config.AckWait
	}
	return DefaultAckWait
}

// keepAlive sends InProgress for every in-flight message not signalled for
// half of AckWait, from one ticker for the whole runner.
func (r *Runner) keepAlive(stop <-chan struct{}) {
	aw := r.ackWait()
	t := time.NewTicker(max(aw/4, time.Millisecond))
	defer t.Stop()
	var batch []*entry
	for {
		select {
		case <-stop:
			return
		case now := <-t.C:
			batch = batch[:0]
			r.mu.Lock()
			for e := range r.inflight {
				batch = append(batch, e)
			}
			r.mu.Unlock()
			for _, e := range batch {
				e.mu.Lock()
				if !e.settled && now.Sub(e.lastSeen) >= aw/2 {
					if e.msg.InProgress() == nil {
						r.progress.Add(1)
					}
					e.lastSeen = now
				}
				e.mu.Unlock()
			}
			clear(batch)
		}
	}
}
