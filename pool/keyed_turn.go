package pool

import (
	"github.com/poolkit/poolkit/internal/engine"
)

// turn is a key's task of the pool: it runs the key's waiting tasks, in
// order, up to the budget, then drops the key (its queue empty) or hands
// its continuation to the pool's queue.
func (k *key[K]) turn() {
	kd, sh := k.kd, k.sh
	e := &kd.p.e
	inTask := false
	defer func() {
		if inTask {
			k.abandoned()
		}
	}()
	engine.At(engine.KeyTurn)
	sh.mu.Lock()
	if k.state != keyHandedBack || k.ended == nil { // else ShutdownNow took the key before this turn began (K4)
		k.state = keyRunning
	}
	for n := 0; ; n++ {
		if k.state == keyHandedBack && k.ended != nil { // K4: ShutdownNow took the rest
			close(k.ended)
			k.ended = nil
			sh.mu.Unlock()
			return
		}
		if k.q.Len() == 0 {
			if k.unconfirmed {
				k.state = keyDrained // its admitter drops it (K3)
				sh.mu.Unlock()
				return
			}
			dropped := sh.rest(k) // K3
			sh.mu.Unlock()
			engine.At(engine.KeyIdle)
			kd.recycle(dropped)
			return
		}
		if n == kd.budget {
			engine.At(engine.KeyYield)
			k.state = keyQueued
			if e.Continue(k) == nil {
				sh.mu.Unlock()
				return
			}
			// The pool was shut down with ShutdownNow (K4), or this turn
			// was handed back by it and runs in its caller: it goes on
			// in place. If the pool handed it back, the walk marks it.
			k.state = keyRunning
			n = 0
		}
		t := k.q.Pop()
		sh.waiting.Add(-1)
		sh.mu.Unlock()
		inTask = true
		t()
		inTask = false
		sh.mu.Lock()
	}
}

// abandoned carries a key on after its task panicked or called
// runtime.Goexit, which end the turn's goroutine's call: the key's next
// task runs in a new turn, from the back of the pool's queue.
func (k *key[K]) abandoned() {
	sh := k.sh
	sh.mu.Lock()
	defer sh.mu.Unlock()
	switch {
	case k.state == keyHandedBack && k.ended != nil:
		close(k.ended)
		k.ended = nil
	case k.q.Len() == 0 && k.unconfirmed:
		k.state = keyDrained
	case k.q.Len() == 0:
		k.kd.recycle(sh.rest(k)) // another key, if any: this one stays in the map
	default:
		k.state = keyQueued
		if k.kd.p.e.Continue(k) != nil {
			// After ShutdownNow (K4); or a turn ShutdownNow handed
			// back, run by its caller, whose task panicked: calling
			// the function again runs the rest.
			k.state = keyStalled
		}
	}
}

// run is the key's turn, its unit in the pool.
func (k *key[K]) run() { k.turn() }

func (k *key[K]) layer() layer { return k.kd }

// handBack is the pool's ShutdownNow's walk of the keys (K4), given the
// turns the engine handed back: for each key with tasks waiting, a
// function that runs them in order, once its running task, if any, has
// ended.
func (kd *Keyed[K]) handBack(units []unit) []func() {
	back := make(map[*key[K]]bool, len(units))
	for _, u := range units {
		back[u.(*key[K])] = true
	}
	var out []func()
	for i := range kd.shards {
		sh := &kd.shards[i]
		sh.mu.Lock()
		for _, k := range sh.m {
			switch k.state {
			case keyAdmitting, keyQueued:
				if k.q.Len() == 0 {
					continue
				}
				if back[k] {
					// Its turn never reached a worker: calling it runs
					// the key, here as on a worker.
					out = append(out, k.turn)
					continue
				}
				fallthrough
			case keyRunning:
				if k.q.Len() == 0 {
					continue
				}
				k.state = keyHandedBack
				ended := make(chan struct{})
				k.ended = ended
				turn := k.turn
				out = append(out, func() { <-ended; turn() })
			case keyStalled:
				out = append(out, k.turn)
			}
		}
		sh.mu.Unlock()
	}
	return out
}

// addStats adds the keys with a turn and the tasks waiting in their
// queues to the pool's Stats.
func (kd *Keyed[K]) addStats(s *Stats) {
	for i := range kd.shards {
		sh := &kd.shards[i]
		s.Keys += int(sh.active.Load())
		s.KeyedWaiting += int(sh.waiting.Load())
	}
}
