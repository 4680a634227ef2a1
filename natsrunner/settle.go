package natsrunner

import (
	"cmp"
	"context"
	"slices"
	"sync"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// entry is one in-flight message. Membership in Runner.inflight is the
// right to settle it: whoever removes it settles it, exactly once.
type entry struct {
	msg     jetstream.Msg
	seq     uint64 // the stream sequence, from the metadata; 0 if unknown
	attempt int
	tracked bool // counted in Runner.unsettled

	mu       sync.Mutex // serialises InProgress with the settling call
	settled  bool
	lastSeen time.Time // delivery or last InProgress; guarded by mu
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

// owned reports whether e is still in the in-flight set: a task that finds
// it gone leaves it alone, since the drain has settled it.
func (r *Runner) owned(e *entry) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	_, ok := r.inflight[e]
	return ok
}

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

// stopEarly settles a message that was fetched but will not be handled:
// a Nak at once, or, for a keyed runner, after the drain (held), so that
// its redelivery cannot overtake an earlier message of its key still in
// the pool.
func (r *Runner) stopEarly(msg jetstream.Msg) {
	if r.keyed == nil {
		r.settleNew(msg, 0, nil)
		return
	}
	var seq uint64
	if md, err := msg.Metadata(); err == nil {
		seq = md.Sequence.Stream
	}
	r.held = append(r.held, &entry{msg: msg, seq: seq})
}

func (r *Runner) settleNew(msg jetstream.Msg, attempt int, merr *malformedError) {
	e := &entry{msg: msg, attempt: attempt}
	if merr != nil {
		r.settle(e, Termed, merr)
		return
	}
	r.settle(e, Naked, nil)
}

type malformedError struct{ err error }

func (e *malformedError) Error() string { return "natsrunner: malformed message: " + e.err.Error() }
func (e *malformedError) Unwrap() error { return e.err }

// drain waits for in-flight messages up to the drain timeout, or until
// cut is closed (a lease running out), then cancels the handlers' context
// and naks what is left.
func (r *Runner) drain(hcancel context.CancelFunc, cut <-chan struct{}) {
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
		case <-cut:
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
	// In stream order, the held messages (later deliveries) last: the
	// server redelivers nak'd messages in the order of the Naks, so a
	// key's messages come back in its order.
	slices.SortFunc(left, func(a, b *entry) int { return cmp.Compare(a.seq, b.seq) })
	slices.SortFunc(r.held, func(a, b *entry) int { return cmp.Compare(a.seq, b.seq) })
	for _, e := range append(left, r.held...) {
		r.settle(e, Naked, nil)
	}
	clear(r.held)
	r.held = r.held[:0]
	// Settling calls already under way in tasks (an Ack, a DoubleAck
	// bounded by its own timeout) finish before Run returns.
	for r.unsettled.Load() > 0 {
		select {
		case <-r.finished:
		case <-poll.C:
		}
	}
}
