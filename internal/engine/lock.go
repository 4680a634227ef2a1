package engine

import (
	"runtime"
	"sync"
)

// mutex is e.mu's lock: a sync.Mutex whose acquisitions are counted under
// the poolkit_hooks build tag (tally.go).
type mutex struct{ m sync.Mutex }

func (l *mutex) Lock() {
	if hooksOn {
		tally(tallyLock)
		if l.m.TryLock() {
			return
		}
		tally(tallyLockHeld)
	}
	l.m.Lock()
}

func (l *mutex) TryLock() bool {
	if l.m.TryLock() {
		tally(tallyLock)
		return true
	}
	return false
}

func (l *mutex) Unlock() { l.m.Unlock() }

// lock takes e.mu on the paths every task may cross (starting, parking
// and admitting): a few tries, yielding between them, before it waits. The
// critical sections are a few dozen instructions, so the holder is nearly
// always about to let go: yielding lets it run if it shares our CPU, where
// sync.Mutex, after a short spin, parks the caller on a semaphore and
// costs a wake-up per contended acquisition (measured on the drop-in's
// blocking Invoke at parallelism 1-100: 6-11% of a call, 2 cores).
func (e *Engine[E]) lock() {
	for i := range 4 {
		if e.mu.m.TryLock() {
			tally(tallyLock)
			if i > 0 {
				tally(tallyLockHeld)
			}
			return
		}
		tally(tallyYield)
		runtime.Gosched()
	}
	tally(tallyLock)
	tally(tallyLockHeld)
	e.mu.m.Lock()
}
