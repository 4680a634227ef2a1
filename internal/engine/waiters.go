package engine

// waiter is a submitter blocked because the pool was saturated. It carries
// its task, so that whoever frees room can admit the task on the waiter's
// behalf and then wake it with the outcome. With an unbounded queue the
// submitter does not wait: its task is accepted, and the waiter is an
// overflow entry that nobody waits on (accepted). The task keeps the
// stamp it was submitted with (engine.go, Timings).
type waiter[E any] struct {
	task       unit[E]
	err        error         // the outcome, written before done is signalled
	done       chan struct{} // buffered: signalling never blocks the signaller
	prev, next *waiter[E]
	queued     bool
	accepted   bool // an overflow entry: the task is accepted, nobody waits

	// arrival links the arrivals stack (arrivals.go) until the waiter is
	// moved into the list.
	arrival *waiter[E]

	// poke asks a submitter blocked for stallCheck whether it is a task of
	// the pool it waits on (engine.checkStalled, reentry.go); buffered,
	// and sent once per blocking (poked). Once it has found it is not,
	// outsider keeps it from being asked again. since is when it blocked,
	// a clock reading. All three are guarded by engine.mu.
	poke     chan struct{}
	poked    bool
	outsider bool
	since    int64
}

// waitList is a FIFO of blocked submitters. It is not safe for concurrent
// use: the engine guards it with engine.mu.
type waitList[E any] struct {
	head, tail *waiter[E]
	n          int
}

func (l *waitList[E]) pushBack(w *waiter[E]) {
	w.prev, w.next, w.queued = l.tail, nil, true
	if l.tail == nil {
		l.head = w
	} else {
		l.tail.next = w
	}
	l.tail = w
	l.n++
}

func (l *waitList[E]) remove(w *waiter[E]) {
	if w.prev == nil {
		l.head = w.next
	} else {
		w.prev.next = w.next
	}
	if w.next == nil {
		l.tail = w.prev
	} else {
		w.next.prev = w.prev
	}
	w.prev, w.next, w.queued = nil, nil, false
	l.n--
}

// finish removes w and records its outcome, err; the caller then has
// unlock wake the submitter once e.mu is free (wakeAfterLocked): a wake-up
// under the lock lengthens every other submitter's wait for it.
func (l *waitList[E]) finish(w *waiter[E], err error) {
	l.remove(w)
	w.task = unit[E]{}
	w.err = err
}

// signal wakes the submitter of a finished waiter, or does nothing for
// nil. The waiter is out of the list, and its submitter reuses it only
// after this token, so nothing else touches it meanwhile.
func (w *waiter[E]) signal() {
	if w != nil {
		tally(tallySignal)
		w.done <- struct{}{}
	}
}

// wakeAfterLocked has unlock wake the submitter of w, a finished waiter
// (nil: none), once e.mu is free. The waiter is out of the list; its
// next field links it to the others admitted under this hold. Requires
// e.mu.
func (e *Engine[E]) wakeAfterLocked(w *waiter[E]) {
	if w != nil {
		w.next = e.mu.admitted
		e.mu.admitted = w
	}
}

// signalAll wakes the submitters of a chain of finished waiters linked by
// next. Each link is read before its waiter is signalled: once woken, the
// submitter recycles it.
func (w *waiter[E]) signalAll() {
	for w != nil {
		next := w.next
		w.next = nil
		w.signal()
		w = next
	}
}
