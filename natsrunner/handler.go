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
