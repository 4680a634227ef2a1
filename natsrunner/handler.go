package natsrunner

import (
	"context"
	"errors"
	"runtime/debug"
	"time"

	"github.com/nats-io/nats.go/jetstream"
	"github.com/poolkit/poolkit/pool"
)

// Handler processes one message. Its context is not cancelled when Run's
// context is done, only when the drain timeout expires. A nil return acks
// the message; an error (or a panic) naks or terminates it. The handler
// must not Ack, Nak or Term the message itself; it may call InProgress.
type Handler func(ctx context.Context, msg jetstream.Msg) error

// process is the pool task for one message.
func (r *Runner) process(hctx context.Context, e *entry) {
	defer r.signal()
	defer r.inPool.Add(-1) // before the signal: a woken loop sees the room
	if !r.owned(e) {
		return // nak'd by the drain before it started
	}
	r.attempt(hctx, e)
}

// attempt calls the handler on e's message and settles it.
func (r *Runner) attempt(hctx context.Context, e *entry) {
	returned := false
	defer func() {
		if !returned {
			// The handler called runtime.Goexit, which cannot be stopped:
			// its message failed, as after a panic, and is settled (or
			// retried) here, as the goroutine ends.
			r.failed1(hctx, e, errHandlerGoexit)
		}
	}()
	err := r.call(hctx, e.msg)
	returned = true
	if err != nil {
		r.failed1(hctx, e, err)
		return
	}
	r.finish(e, nil)
}

// failed1 settles e after a failed attempt; a keyed runner handles it again
// in place first, while attempts remain (WithKey): a Nak would let the
// key's later messages, which the server keeps delivering, go first. The
// recursion is as deep as the attempts.
func (r *Runner) failed1(hctx context.Context, e *entry, err error) {
	if r.keyed != nil && e.attempt < r.cfg.maxAttempts && r.retryInPlace(hctx, e) {
		r.attempt(hctx, e)
		return
	}
	r.finish(e, err)
}

// errHandlerGoexit is the failure of a message whose handler called
// runtime.Goexit.
var errHandlerGoexit = errors.New("natsrunner: handler called runtime.Goexit")

func (r *Runner) call(ctx context.Context, msg jetstream.Msg) (err error) {
	began := time.Now()
	returned := false
	defer func() {
		r.handlerNanos.Add(int64(time.Since(began)))
		r.handled.Add(1)
		if v := recover(); v != nil {
			r.panics.Add(1)
			// A panic fails the message as an error does (Nak, or Term
			// after the last attempt), reported in the type every poolkit
			// runtime reports a panic in.
			err = &pool.PanicError{Value: v, Stack: debug.Stack()}
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
