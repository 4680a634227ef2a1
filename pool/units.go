package pool

import "sync"

// A unit is what a pool's engine queues and runs: a plain task, a
// Future of SubmitResult, or the unit of a layer built on the pool (a
// key's turn of a Keyed, a ticket of a Scheduler), which knows the layer
// that handed it in. The pool asks each layer to hand back and count its
// own units (ShutdownNow, Stats), so that it never has to tell one unit
// from another by anything but its type.
type unit interface{ run() }

// task is a plain task, handed in by Submit. A func value is one pointer,
// which an interface holds without an allocation.
type task func()

func (t task) run() { t() }

func callUnit(u unit) { u.run() }

// owned is the unit of a layer.
type owned interface {
	unit
	layer() layer
}

// A layer is a front-end built on a pool that hands units to it on behalf
// of its own callers: a Keyed or a Scheduler. A layer stays with its pool
// for as long as the pool lives.
type layer interface {
	// handBack is ShutdownNow's walk of the layer, after the engine has
	// closed and taken every unit from its queue. back holds the
	// layer's units among those, in queue order; handBack returns
	// functions that run every task the layer accepted that has not
	// started, its units in back and those a worker holds included.
	handBack(back []unit) []func()
	// addStats adds the layer's gauges to s, and turns the counts of its
	// units in s into counts of its tasks.
	addStats(s *Stats)
}

// layers are the layers built on a pool, in the order they were made.
type layers struct {
	mu sync.Mutex
	ls []layer
}

func (l *layers) add(x layer) {
	l.mu.Lock()
	l.ls = append(l.ls, x)
	l.mu.Unlock()
}

func (l *layers) all() []layer {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.ls
}

// handBack sorts the units ShutdownNow took from the engine: the plain
// tasks and the Futures' come first, oldest first; then, layer by layer in the order the
// layers were made, what each Keyed hands back for its own units, and
// last what each Scheduler does (KEY-7, PRI-7).
func (l *layers) handBack(units []unit) []func() {
	var out []func() // nil when nothing comes back, as before any layer
	var back map[layer][]unit
	for _, u := range units {
		o, ok := u.(owned)
		if !ok {
			if t, ok := u.(task); ok {
				out = append(out, t)
			} else {
				out = append(out, u.run) // a Future's task, in its place among the plain tasks
			}
			continue
		}
		if back == nil {
			back = make(map[layer][]unit)
		}
		back[o.layer()] = append(back[o.layer()], u)
	}
	all := l.all()
	for _, last := range [...]bool{false, true} {
		for _, x := range all {
			if _, sched := x.(*Scheduler); sched == last {
				out = append(out, x.handBack(back[x])...)
			}
		}
	}
	return out
}
