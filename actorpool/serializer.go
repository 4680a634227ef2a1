package actorpool

import (
	"fmt"
	"sync/atomic"

	"github.com/poolkit/poolkit/internal/fifo"
)

// NewSerializer returns a serializer in front of service: an actor that
// makes a request/response service (service and whatever actors it uses)
// behave as one actor handling one request at a time (after Hewitt and
// Atkinson's serializers, as Schumacher composes them from actors).
//
// A request is a message asked (or told by an actor) to the serializer.
// While none is in flight, the serializer sends it on to service with a
// one-time return proxy in place of the customer; while one is in flight,
// it buffers the request, in arrival order. The service answers with
// Context.Respond (directly or after forwarding it). The proxy delivers
// the first answer to the serializer, tagged with its identity; an answer
// through a proxy that was used already, or that is not the current one,
// is ignored (counted in SerializerStats.Stale). The serializer gives the
// answer to the customer (the Ask returns it, or the sending actor is
// told it), then starts the next buffered request. Every request gets
// exactly one answer: the service's, a *PanicError if its handler panicked,
// ErrStopped if it stopped first, or ErrBusy if the buffer was full.
//
// The service must answer every request it receives; one that never
// answers holds the serializer busy for ever (use Ask with a deadline on
// the customer's side to bound the wait).
func NewSerializer(sys *System, service Ref, opts ...SerializerOption) (*Serializer, error) {
	if sys == nil {
		return nil, ErrNilSystem
	}
	if service.IsZero() {
		return nil, ErrNilRef
	}
	s := &Serializer{service: service}
	for i, o := range opts {
		if o == nil {
			return nil, fmt.Errorf("%w: serializer option %d is nil", ErrInvalidOption, i)
		}
		if err := o(s); err != nil {
			return nil, err
		}
	}
	ref, err := sys.Spawn(func() Behavior { return s }, WithSupervisor(Supervisor{Directive: Resume}))
	if err != nil {
		return nil, err
	}
	s.self = ref
	return s, nil
}

// Serializer is the behaviour of a serializer actor; see NewSerializer.
type Serializer struct {
	service Ref
	self    Ref
	limit   int // buffered requests; 0: unbounded

	// Touched only in the serializer's turns.
	cur  *pending // the return proxy of the request in flight; nil when idle
	cust envelope // the customer of the request in flight
	buf  fifo.Ring[envelope]

	stale, busy, served atomic.Uint64
}

// SerializerOption configures a serializer.
type SerializerOption func(*Serializer) error

// WithBuffer bounds the requests waiting while one is in flight; past n a
// request is answered with ErrBusy at once. The default is unbounded.
func WithBuffer(n int) SerializerOption {
	return func(s *Serializer) error {
		if n < 1 {
			return fmt.Errorf("%w: buffer %d", ErrInvalidOption, n)
		}
		s.limit = n
		return nil
	}
}

// Ref returns the serializer's reference, to which requests are sent.
func (s *Serializer) Ref() Ref { return s.self }

// reply is what a return proxy tells the serializer.
type reply struct {
	proxy *pending
	v     any
	err   error
}

// Receive implements Behavior.
func (s *Serializer) Receive(c *Context, msg any) {
	if r, ok := msg.(reply); ok {
		if r.proxy != s.cur || s.cur == nil {
			s.stale.Add(1)
			return
		}
		s.cur = nil
		s.answer(c, s.cust, r.v, r.err)
		s.cust = envelope{}
		for s.cur == nil && s.buf.Len() > 0 {
			s.start(c, s.popBuffered())
		}
		return
	}
	if s.cur != nil {
		if s.limit > 0 && s.buf.Len() >= s.limit {
			s.busy.Add(1)
			s.answer(c, c.env, nil, ErrBusy)
			return
		}
		s.buf.Push(c.env)
		return
	}
	s.start(c, c.env)
}

// PostStop implements Stopper: a serializer that stops (its Ref's Stop, or
// its system's Shutdown) answers the request in flight and every buffered
// one with ErrStopped, so that no customer waits for an answer that can no
// longer come; the service's late reply to the request in flight finds no
// serializer and is dropped.
func (s *Serializer) PostStop(c *Context) {
	if s.cur != nil {
		s.cur = nil
		s.answer(c, s.cust, nil, ErrStopped)
		s.cust = envelope{}
	}
	for s.buf.Len() > 0 {
		s.answer(c, s.popBuffered(), nil, ErrStopped)
	}
}

// start sends a customer's request to the service with a fresh proxy.
func (s *Serializer) start(c *Context, cust envelope) {
	p := &pending{}
	self := s.self
	p.fn = func(v any, err error) {
		// The serializer outlives its requests unless stopped; a reply to
		// a stopped serializer has no customer left to reach.
		_ = self.send(envelope{msg: reply{proxy: p, v: v, err: err}})
	}
	s.cur, s.cust = p, cust
	if err := s.service.sendFrom(envelope{msg: cust.msg, sender: c.a, reply: p}, c.a); err != nil {
		p.answer(nil, err) // comes back as a reply, in order
	}
}

func (s *Serializer) answer(c *Context, cust envelope, v any, err error) {
	s.served.Add(1)
	switch {
	case cust.reply != nil:
		cust.reply.answer(v, err)
	case cust.sender != nil:
		if err != nil {
			v = err
		}
		_ = Ref{cust.sender}.sendFrom(envelope{msg: v, sender: c.a}, c.a)
	}
}

// SerializerStats is a snapshot of a serializer's counters.
type SerializerStats struct {
	Answered uint64 // requests answered (including ErrBusy answers)
	Busy     uint64 // requests refused with ErrBusy
	Stale    uint64 // replies ignored: a used or superseded proxy
}

// Stats returns the serializer's counters.
func (s *Serializer) Stats() SerializerStats {
	return SerializerStats{Answered: s.served.Load(), Busy: s.busy.Load(), Stale: s.stale.Load()}
}

// popBuffered takes the oldest buffered request; an emptied buffer longer
// than ringKeep is given back.
func (s *Serializer) popBuffered() envelope {
	e := s.buf.Pop()
	s.buf.Trim(ringKeep)
	return e
}
