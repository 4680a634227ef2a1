package actorpool

import (
	"sync"
	"sync/atomic"
)

// envelope is a message with where it came from and where an answer goes.
// Forwarding passes the envelope on unchanged, so the original sender and
// the Ask waiting on it are kept.
type envelope struct {
	msg    any
	sender *actor   // nil when sent from outside any actor
	reply  *pending // non-nil for an Ask: the one answer it waits for
}

// sysKind is a system message: handled before any user message, at every
// dequeue.
type sysKind uint8

const (
	sysStart   sysKind = iota + 1 // run PreStart (the first message of every actor)
	sysStop                       // stop after the current message
	sysRestart                    // a backoff has passed: make a fresh behaviour and resume
	sysRetire                     // a router removed this worker: hand the queue back and stop
)

// mailbox holds an actor's pending messages: system messages, then user
// messages in arrival order. Its lock is held only to add or take one
// message; n mirrors the number of messages (both kinds) so that the idle
// transition can look without the lock (see actor.turn for why no message
// is left behind).
type mailbox struct {
	mu     sync.Mutex
	user   ring[envelope]
	sys    []sysKind
	limit  int  // user messages; 0: unbounded
	closed bool // the actor stopped: nothing more is accepted
	n      atomic.Int64
	sysN   atomic.Int64 // system messages, for a suspended actor's idle transition
}

func (m *mailbox) sysLen() int64 { return m.sysN.Load() }

// put adds a user message. It fails when the mailbox is closed or full.
func (m *mailbox) put(e envelope) error {
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		return ErrStopped
	}
	if m.limit > 0 && m.user.len() >= m.limit {
		m.mu.Unlock()
		return ErrMailboxFull
	}
	m.user.push(e)
	m.n.Add(1)
	m.mu.Unlock()
	return nil
}

// putSys adds a system message; it fails only when the mailbox is closed.
func (m *mailbox) putSys(k sysKind) error {
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		return ErrStopped
	}
	m.sys = append(m.sys, k)
	m.sysN.Add(1)
	m.n.Add(1)
	m.mu.Unlock()
	return nil
}

// take removes the next message: a system message if there is one, else,
// unless userToo is false, the oldest user message.
func (m *mailbox) take(userToo bool) (k sysKind, e envelope, ok bool) {
	m.mu.Lock()
	if len(m.sys) > 0 {
		k = m.sys[0]
		m.sys = m.sys[1:]
		if len(m.sys) == 0 {
			m.sys = nil
		}
		m.sysN.Add(-1)
		m.n.Add(-1)
		m.mu.Unlock()
		return k, envelope{}, true
	}
	if userToo && m.user.len() > 0 {
		e = m.user.pop()
		m.n.Add(-1)
		m.mu.Unlock()
		return 0, e, true
	}
	m.mu.Unlock()
	return 0, envelope{}, false
}

// close stops intake and returns the user messages left, oldest first.
// System messages left are dropped: the actor is gone.
func (m *mailbox) close() []envelope {
	m.mu.Lock()
	m.closed = true
	out := make([]envelope, 0, m.user.len())
	for m.user.len() > 0 {
		out = append(out, m.user.pop())
	}
	m.user = ring[envelope]{}
	m.n.Add(-int64(len(out) + len(m.sys)))
	m.sysN.Add(-int64(len(m.sys)))
	m.sys = nil
	m.mu.Unlock()
	return out
}

// ring is a growable FIFO; its zero value is empty and allocates nothing,
// so an idle actor that never got a message costs no buffer.
type ring[T any] struct {
	buf        []T
	head, size int
}

func (r *ring[T]) len() int { return r.size }

func (r *ring[T]) push(v T) {
	if r.size == len(r.buf) {
		n := max(4, 2*len(r.buf))
		buf := make([]T, n)
		for i := range r.size {
			buf[i] = r.buf[(r.head+i)%len(r.buf)]
		}
		r.buf, r.head = buf, 0
	}
	r.buf[(r.head+r.size)%len(r.buf)] = v
	r.size++
}

func (r *ring[T]) pop() T {
	var zero T
	v := r.buf[r.head]
	r.buf[r.head] = zero
	r.head = (r.head + 1) % len(r.buf)
	r.size--
	if r.size == 0 {
		r.head = 0
		if len(r.buf) > 64 {
			r.buf = nil // a burst is over: give the big buffer back
		}
	}
	return v
}
