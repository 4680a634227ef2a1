package engine

import "sync/atomic"

// setBits sets b in w and returns w's value before. It is atomic.Uint64's
// Or, which needs Go 1.23; the module's floor is 1.21, and the words it
// serves (the gate's closed bit, the queue's seal) change once per close,
// not per unit, so a compare-and-swap loop costs nothing measurable.
func setBits(w *atomic.Uint64, b uint64) (old uint64) {
	for {
		old = w.Load()
		if old&b == b || w.CompareAndSwap(old, old|b) {
			return old
		}
	}
}

// clearBits clears b in w; the counterpart of setBits (atomic.Uint64.And).
func clearBits(w *atomic.Uint64, b uint64) {
	for {
		old := w.Load()
		if old&b == 0 || w.CompareAndSwap(old, old&^b) {
			return
		}
	}
}
