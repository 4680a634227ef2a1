package natsrunner

import (
	"context"
	"errors"
	"fmt"
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

// Runner pulls messages from a JetStream consumer and runs a handler on
// each one in a pool. Create it with New; its methods are safe for
// concurrent use.
type Runner struct {
	cons    jetstream.Consumer
	pool    *pool.Pool
	handler Handler
	cfg     config

	// keyed runs the messages by key (WithKey); nil otherwise.
	keyed *pool.Keyed[string]
	// held are the messages a keyed runner fetched but will not handle
	// (Run is stopping, the pool refused them): they are nak'd after the
	// drain, behind every earlier message of their keys. Only Run's
	// goroutine touches it.
	held []*entry

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
	settleErrors, progress, fetchErrors, handled, retries atomic.Uint64
	handlerNanos atomic.Int64

	// info is the consumer's info as the runner last read it (New's
	// CachedInfo, then each Info answer), and infoMu serializes the Info
	// requests: before nats.go v1.55.0 a pull consumer's Info writes the
	// info that CachedInfo reads without synchronization.
	infoMu sync.Mutex
	info   atomic.Pointer[jetstream.ConsumerInfo]
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
	r := &Runner{
		cons:     cons,
		pool:     p,
		handler:  handler,
		cfg:      cfg,
		finished: make(chan struct{}, 1),
		inflight: make(map[*entry]struct{}),
	}
	if info := cons.CachedInfo(); cfg.key != nil && cfg.group != "" && info != nil &&
		info.Config.PriorityPolicy == jetstream.PriorityPolicyPinned && info.Config.PinnedTTL <= info.Config.AckWait {
		// The next replica would be pinned before the dead one's messages
		// are due for redelivery, and handle later messages of their keys
		// first.
		return nil, invalid("keyed runner on a pinned consumer whose PinnedTTL %v is not above its AckWait %v",
			info.Config.PinnedTTL, info.Config.AckWait)
	}
	if cfg.lease != nil && cfg.group != "" {
		return nil, invalid("a lease and a priority group both choose the consumer's owner: give one")
	}
	if cfg.key != nil {
		// The runner's room bounds the keys' queues (WithKey).
		kd, err := pool.NewKeyed[string](p, pool.WithUnboundedQueue())
		if err != nil {
			return nil, fmt.Errorf("natsrunner: %w", err)
		}
		r.keyed = kd
	}
	r.info.Store(cons.CachedInfo())
	return r, nil
}

// consumerInfo asks the server for the consumer's info and keeps the
// answer for cachedInfo.
func (r *Runner) consumerInfo(ctx context.Context) (*jetstream.ConsumerInfo, error) {
	r.infoMu.Lock()
	defer r.infoMu.Unlock()
	info, err := r.cons.Info(ctx)
	if err == nil && info != nil {
		r.info.Store(info)
	}
	return info, err
}

// cachedInfo is the consumer's info as the runner last read it, or nil.
func (r *Runner) cachedInfo() *jetstream.ConsumerInfo { return r.info.Load() }

// Backlog is the number of messages the consumer has yet to deliver
// (NumPending from a fresh consumer info request). It does not count
// messages delivered and not yet acknowledged (NumAckPending), whether
// they are in this runner, another replica or awaiting redelivery.
func (r *Runner) Backlog(ctx context.Context) (uint64, error) {
	info, err := r.consumerInfo(ctx)
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
//
// With a lease (WithLease), Run pulls only while it holds the lease; when
// it loses the lease it drains as above, within the lease, and waits to
// take it again, and when it returns it lets the lease go.
func (r *Runner) Run(ctx context.Context) error {
	if ctx == nil {
		return invalid("nil context")
	}
	if !r.running.CompareAndSwap(false, true) {
		return ErrRunning
	}
	defer r.running.Store(false)

	if r.cfg.lease != nil {
		return r.runLeased(ctx)
	}
	return r.serve(ctx, nil)
}

// serve is one stretch of pulling, until ctx is done or pulling fails for
// good, and its drain, which cut, when it is closed, cuts short.
func (r *Runner) serve(ctx context.Context, cut <-chan struct{}) error {
	hctx, hcancel := context.WithCancel(context.WithoutCancel(ctx))
	defer hcancel()
	stopTicker := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		r.keepAlive(stopTicker)
	}()

	err := r.loop(ctx, hctx)
	r.drain(hcancel, cut)
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
		if r.pool.Stats().Closed {
			return pool.ErrClosed
		}
		free := r.free()
		if free <= 0 {
			r.waitRoom(ctx)
			continue
		}
		maxBatch, maxWait := r.pullLimits()
		if l := r.cfg.lease; l != nil {
			// A pull must be answered while the lease lets the runner
			// pull; too close to that point, wait for the renewal.
			left := time.Until(l.pullUntil())
			if left < 20*time.Millisecond {
				sleep(ctx, 10*time.Millisecond)
				continue
			}
			maxWait = min(maxWait, left)
		}
		fctx, cancel := context.WithTimeout(ctx, maxWait)
		fopts := []jetstream.FetchOpt{jetstream.FetchContext(fctx)}
		if r.cfg.group != "" {
			fopts = append(fopts, jetstream.FetchPriorityGroup(r.cfg.group))
		}
		batch, err := r.cons.Fetch(min(free, maxBatch), fopts...)
		if err == nil {
			var stop error
			for msg := range batch.Messages() {
				r.fetched.Add(1)
				if stop != nil {
					r.stopEarly(msg)
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
	if info := r.cachedInfo(); info != nil {
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
// otherwise (the info refreshes cachedInfo, and so pullLimits; a server
// that does not answer is a transient failure, retried).
func (r *Runner) checkConsumer(ctx context.Context) error {
	ictx, cancel := context.WithTimeout(ctx, r.cfg.fetchMaxWait)
	defer cancel()
	_, err := r.consumerInfo(ictx)
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
		r.stopEarly(msg)
		return errStop
	}
	var key string
	if r.keyed != nil {
		var kerr error
		if key, kerr = r.keyOf(msg); kerr != nil {
			r.malformed.Add(1)
			r.settleNew(msg, 0, &malformedError{kerr})
			return nil
		}
	}
	e := &entry{msg: msg, seq: md.Sequence.Stream, attempt: int(min(md.NumDelivered, 1<<31-1)), lastSeen: time.Now(), tracked: true}
	r.unsettled.Add(1)
	r.mu.Lock()
	r.inflight[e] = struct{}{}
	r.mu.Unlock()
	r.inPool.Add(1)
	if r.keyed != nil {
		err = r.keyed.Submit(ctx, key, func() { r.process(hctx, e) })
	} else {
		err = r.pool.Submit(ctx, func() { r.process(hctx, e) })
	}
	if err != nil {
		r.inPool.Add(-1)
		if r.take(e) {
			if r.keyed != nil {
				// Earlier messages of its key may still be in the pool
				// (a closing pool refuses even a key that has a turn):
				// it is nak'd after them, and the drain does not wait
				// for it.
				e.tracked = false
				r.unsettled.Add(-1)
				r.held = append(r.held, e)
			} else {
				r.settle(e, Naked, nil)
			}
		}
		if errors.Is(err, pool.ErrClosed) {
			return err
		}
		return errStop
	}
	return nil
}
