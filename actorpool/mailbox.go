package actorpool

import (
	"sync"

	"github.com/poolkit/poolkit/internal/fifo"
)

// envelope is a message with where it came from and where an answer goes.
// Forwarding passes the envelope on unchanged, so the original sender and
// the Ask waiting on it are kept.
//
// An envelope is kept to four words. The compiler keeps a struct of at
// most four words in registers; a larger one is copied through memory,
// and an envelope is copied several times per message: a fifth word (a
// router's timing stamp, when it was tried here) made a ping-pong message
// cost 1.7 to 2 times as much, timings off. The stamp travels beside the
// envelope instead, in the mailbox (mailbox.stamps).
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
// messages in arrival order. Its lock is held only to add, take or look:
// the idle transition looks under it too, which is what makes a message
// added meanwhile visible to one side or the other (see actor.go, A3).
type mailbox struct {
	mu     sync.Mutex
	user   queue[envelope]
	sys    []sysKind
	limit  int  // user messages; 0: unbounded
	closed bool // the actor stopped: nothing more is accepted

	// stamps are the router's stamps (timings.go) of the last
	// stamps.len() user messages, the others having none: while a stamped
	// message is queued, every message added after it gets an entry (0
	// when unstamped), so the oldest user message has a stamp exactly
	// when stamps.len() == user.len(). Empty whenever no stamped message
	// is queued, which keeps it out of every other actor's way; nil until
	// a router stamps a message to this actor.
	stamps *queue[int64]
}

// depth is the number of user messages waiting.
func (m *mailbox) depth() int {
	m.mu.Lock()
	n := m.user.len()
	m.mu.Unlock()
	return n
}

// pending reports whether a message is waiting: a system message, or,
// unless userToo is false, a user message.
func (m *mailbox) pending(userToo bool) bool {
	m.mu.Lock()
	p := len(m.sys) > 0 || (userToo && m.user.len() > 0)
	m.mu.Unlock()
	return p
}

// put adds a user message, with the stamp at (0: none). It fails when the
// mailbox is closed or full.
func (m *mailbox) put(e envelope, at int64) error {
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
	if at != 0 || (m.stamps != nil && m.stamps.len() > 0) {
		if m.stamps == nil {
			m.stamps = new(queue[int64])
		}
		m.stamps.push(at)
	}
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
	m.mu.Unlock()
	return nil
}

// take removes the next message: a system message if there is one, else,
// unless userToo is false, the oldest user message, with its stamp (0:
// none).
func (m *mailbox) take(userToo bool) (k sysKind, e envelope, at int64, ok bool) {
	m.mu.Lock()
	if len(m.sys) > 0 {
		k = m.sys[0]
		m.sys = m.sys[1:]
		if len(m.sys) == 0 {
			m.sys = nil
		}
		m.mu.Unlock()
		return k, envelope{}, 0, true
	}
	if userToo && m.user.len() > 0 {
		if m.stamps != nil && m.stamps.len() == m.user.len() {
			at = m.stamps.pop()
		}
		e = m.user.pop()
		m.mu.Unlock()
		return 0, e, at, true
	}
	m.mu.Unlock()
	return 0, envelope{}, 0, false
}

// close stops intake and returns the user messages left, oldest first,
// and, if any of them has a stamp, their stamps (ats[i] is out[i]'s, 0:
// none; ats is nil otherwise). System messages left are dropped: the
// actor is gone.
func (m *mailbox) close() (out []envelope, ats []int64) {
	m.mu.Lock()
	m.closed = true
	out = make([]envelope, 0, m.user.len())
	if m.stamps != nil && m.stamps.len() > 0 {
		ats = make([]int64, m.user.len()-m.stamps.len(), m.user.len())
		for m.stamps.len() > 0 {
			ats = append(ats, m.stamps.pop())
		}
	}
	for m.user.len() > 0 {
		out = append(out, m.user.pop())
	}
	m.user = queue[envelope]{}
	m.stamps = nil
	m.sys = nil
	m.mu.Unlock()
	return out, ats
}

// ringKeep is the largest buffer an empty ring keeps (4 KB of envelopes),
// and the most a mailbox's ring grows to before a backlog goes into
// chunks: an actor that drains its mailbox now and then does not regrow
// it from nothing every time, and an idle actor after a burst holds
// little. (The serializer's ring has no chunks behind it and may grow
// past it; it gives the big buffer back when it empties.)
const ringKeep = 128

// queue is a mailbox's FIFO: a ring of up to ringKeep entries, and past
// that a list of fixed chunks, so that a backlog of any size is never
// copied (a ring that doubles to a million entries copies them under the
// mailbox's lock, and the senders wait). Its zero value is empty and
// allocates nothing.
//
// Order: while the chunk list is not empty every entry in it is younger
// than every entry in the ring (the ring fills first, and a push goes to
// the chunks while there are any), so pop takes the ring first; the list
// empties only after the ring has.
type queue[T any] struct {
	r          fifo.Ring[T]
	head, tail *chunk[T]
	n          int // entries in the chunks
}

const chunkLen = 256

type chunk[T any] struct {
	buf        [chunkLen]T
	next       *chunk[T]
	start, end int // the live entries are buf[start:end]
}

func (q *queue[T]) len() int { return q.r.Len() + q.n }

func (q *queue[T]) push(v T) {
	if q.n == 0 && (q.r.Len() < q.r.Cap() || q.r.Cap() < ringKeep) {
		q.r.Push(v)
		return
	}
	if q.tail == nil || q.tail.end == chunkLen {
		c := new(chunk[T])
		if q.tail == nil {
			q.head = c
		} else {
			q.tail.next = c
		}
		q.tail = c
	}
	q.tail.buf[q.tail.end] = v
	q.tail.end++
	q.n++
}

func (q *queue[T]) pop() T {
	if q.r.Len() > 0 {
		v := q.r.Pop()
		q.r.Trim(ringKeep) // a burst is over: give the big buffer back
		return v
	}
	c := q.head
	v := c.buf[c.start]
	var zero T
	c.buf[c.start] = zero
	c.start++
	q.n--
	if c.start == c.end {
		if c == q.tail {
			q.head, q.tail = nil, nil
		} else {
			q.head = c.next
		}
	}
	return v
}
