package natsrunner

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/nats-io/nats.go/jetstream"
	"github.com/poolkit/poolkit/internal/callback"
)

// A KeyFunc names the key of a message. Messages of one key are handled
// one at a time, in the order of their stream sequence; messages of
// different keys run in parallel (WithKey). An error, a panic or a
// runtime.Goexit in it terminates the message as malformed: a message whose
// key is not known cannot be put in order.
type KeyFunc func(msg jetstream.Msg) (string, error)

// ErrNoKey is what SubjectToken and Header return, wrapped, for a message
// that has no such token or header.
var ErrNoKey = errors.New("natsrunner: the message has no key")

// SubjectToken returns a KeyFunc that keys a message by the i-th token of
// its subject, counted from 0 ("orders.eu.42" has tokens "orders", "eu"
// and "42"); a negative i counts from the end (-1 is the last token).
func SubjectToken(i int) KeyFunc {
	return func(msg jetstream.Msg) (string, error) {
		tokens := strings.Split(msg.Subject(), ".")
		j := i
		if j < 0 {
			j += len(tokens)
		}
		if j < 0 || j >= len(tokens) {
			return "", fmt.Errorf("%w: subject %q has no token %d", ErrNoKey, msg.Subject(), i)
		}
		return tokens[j], nil
	}
}

// Header returns a KeyFunc that keys a message by the first value of its
// header name. A message without it has no key.
func Header(name string) KeyFunc {
	return func(msg jetstream.Msg) (string, error) {
		if v := msg.Headers().Values(name); len(v) > 0 {
			return v[0], nil
		}
		return "", fmt.Errorf("%w: no header %q", ErrNoKey, name)
	}
}

// WithKey makes the runner keep order per key: f names each message's key,
// and the runner hands the message to a pool.Keyed turn on its pool, so
// that the messages of one key are handled one at a time, in the order
// they were delivered (the stream's order), while different keys run in
// parallel up to the pool's capacity, fairly.
//
// A failure holds its key: the message is handled again in place, after
// the runner's backoff, with its AckWait kept alive by InProgress, until
// it succeeds or its last attempt fails and it is termed; only then does
// the key's next message run. It is never nak'd for a failure, since the
// server would hand the key's later messages out first. Messages of other
// keys are not held. The runner counts every message it holds against
// the room it pulls for, those waiting behind their key included, so a
// hot key does not make it pull without bound. See the package
// documentation's "Order per key" for what holds across restarts and
// replicas.
func WithKey(f KeyFunc) Option {
	return func(c *config) error {
		if f == nil {
			return invalid("nil key function")
		}
		c.key = f
		return nil
	}
}

// keyOf calls the key function, isolated: a panic or runtime.Goexit in it
// is an error, and the loop that called it goes on. (It costs a goroutine
// a message, small beside the message's own round trips.)
func (r *Runner) keyOf(msg jetstream.Msg) (key string, err error) {
	v, exited := callback.Isolated(func() { key, err = r.cfg.key(msg) })
	switch {
	case v != nil:
		return "", fmt.Errorf("natsrunner: key function panicked: %v", v)
	case exited:
		return "", errors.New("natsrunner: key function called runtime.Goexit")
	}
	return key, err
}

// retryInPlace waits out the backoff after e's failed attempt while the
// keep-alive ticker holds its AckWait, and reports whether e is still the
// runner's to handle again: false once the drain took it (it was nak'd,
// the handlers' context is cancelled).
func (r *Runner) retryInPlace(hctx context.Context, e *entry) bool {
	if d := r.cfg.backoff(e.attempt); d > 0 {
		t := time.NewTimer(d)
		select {
		case <-t.C:
		case <-hctx.Done():
			t.Stop()
		}
	}
	if !r.owned(e) {
		return false
	}
	e.attempt++
	r.retries.Add(1)
	return true
}
