package engine

// The front and the queue, as slot holders take from them: oldest first
// (the front, which holds units put back by S2 and a close's overflow
// entries, then the queue), and the put-back of S2.

// take takes the next unit: from the front, which holds the oldest, then
// from the queue.
func (e *Engine[E]) take() (unit[E], uint64, bool) {
	if e.frontN.Load() > 0 {
		if t, pos, ok := e.takeFront(); ok {
			return t, pos, true
		}
	}
	return e.q.take()
}

// takeFront takes the oldest unit at the front, if any.
func (e *Engine[E]) takeFront() (unit[E], uint64, bool) {
	e.lock()
	defer e.unlock()
	if len(e.mu.front) == 0 {
		return unit[E]{}, 0, false
	}
	q := e.mu.front[0]
	if q.pos >= e.q.next() && e.q.len() > 0 {
		// An overflow entry moved here by a close (C1) is newer than
		// everything still queued: it waits its turn.
		return unit[E]{}, 0, false
	}
	e.mu.front[0] = queued[E]{}
	e.mu.front = e.mu.front[1:]
	if len(e.mu.front) == 0 {
		e.mu.front = nil
	}
	tally(tallyCounts)
	e.frontN.Add(-1)
	return q.u, q.pos, true
}

// deferStart puts back a unit that its taker may not start (S2): its slot
// is already given back. The unit goes to the front, in queue order. W1
// for it is the taker's own: it goes on to park, whose look after its
// release (W3) sees the unit and takes a slot again if one is free; if
// none is, the slot holders take it. The caller, still a live worker,
// keeps the life from ending meanwhile (C2). The unit's stamp is marked
// late: it waits now for room, so its start cannot be inferred.
func (e *Engine[E]) deferStart(t unit[E], pos uint64) {
	t = t.late()
	e.mu.Lock()
	i := len(e.mu.front)
	for i > 0 && e.mu.front[i-1].pos > pos {
		i--
	}
	e.mu.front = append(e.mu.front, queued[E]{})
	copy(e.mu.front[i+1:], e.mu.front[i:])
	e.mu.front[i] = queued[E]{pos: pos, u: t}
	tally(tallyCounts)
	e.frontN.Add(1)
	hook(hkDeferred)
	e.unlock()
}
