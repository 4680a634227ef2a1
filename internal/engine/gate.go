package engine

import "sync/atomic"

// gate is the engine's admission control: one atomic word that holds the
// capacity, the number of run slots held, and a closed bit. Keeping all
// three in one word is what makes Resize linearizable against task starts:
// a slot is taken by a compare-and-swap that sees the capacity it is
// checked against, so once Resize has stored a smaller capacity no slot can
// be taken on the strength of the old one.
//
// Who holds slots, and the rules for taking and giving them back, are
// written once, in the protocol comment at the top of engine.go.
//
// Layout: bit 63 closed, bits 32..62 capacity, bits 0..31 slots held.
type gate struct {
	_ [64]byte // keep the hot word off the neighbours' cache lines
	w atomic.Uint64
	_ [56]byte
}

const (
	gateClosed   = uint64(1) << 63
	gateCapShift = 32
	gateCapMask  = uint64(1)<<31 - 1
	gateHeldMask = uint64(1)<<32 - 1
)

func gateCap(w uint64) int  { return int(w >> gateCapShift & gateCapMask) }
func gateHeld(w uint64) int { return int(w & gateHeldMask) }

func (g *gate) init(capacity int) { g.w.Store(uint64(capacity) << gateCapShift) }

func (g *gate) capacity() int { return gateCap(g.w.Load()) }

func (g *gate) held() int { return gateHeld(g.w.Load()) }

func (g *gate) closed() bool { return g.w.Load()&gateClosed != 0 }

// acquire takes a slot if fewer than capacity are held and the gate is open.
func (g *gate) acquire() bool {
	for {
		w := g.w.Load()
		if w&gateClosed != 0 || gateHeld(w) >= gateCap(w) {
			return false
		}
		hook(hkGateAcquire)
		tally(tallyGate)
		if g.w.CompareAndSwap(w, w+1) {
			return true
		}
	}
}

// acquireDraining takes a slot if fewer than capacity are held, open or
// closed: a closed pool still runs the work it accepted, within capacity.
func (g *gate) acquireDraining() bool {
	for {
		w := g.w.Load()
		if gateHeld(w) >= gateCap(w) {
			return false
		}
		hook(hkGateAcquire)
		tally(tallyGate)
		if g.w.CompareAndSwap(w, w+1) {
			return true
		}
	}
}

// release gives back a slot the caller holds.
func (g *gate) release() {
	hook(hkGateRelease)
	tally(tallyGate)
	w := g.w.Add(^uint64(0))
	if hooksOn {
		invariant(gateHeld(w) != int(gateHeldMask), "a slot was given back that nobody held")
	}
}

// releaseIfOver gives back the caller's slot when more slots are held than
// the capacity allows (after a shrink), and reports whether it did. Using a
// compare-and-swap rather than a check and a decrement keeps several
// finishing workers from all leaving at once and undershooting. When it
// reports false, the load that saw held <= capacity is the moment the
// caller may start a unit it has already taken (engine.go, rule S2).
func (g *gate) releaseIfOver() bool {
	for {
		hook(hkGateOver)
		w := g.w.Load()
		if gateHeld(w) <= gateCap(w) {
			return false
		}
		if hooksOn {
			invariant(gateHeld(w) > 0, "over capacity with no slot held")
		}
		tally(tallyGate)
		if g.w.CompareAndSwap(w, w-1) {
			return true
		}
	}
}

// setCap stores a new capacity and returns the old one; ok is false when
// the gate is closed, in which case nothing changes.
func (g *gate) setCap(n int) (old int, ok bool) {
	for {
		w := g.w.Load()
		if w&gateClosed != 0 {
			return gateCap(w), false
		}
		nw := w&^(gateCapMask<<gateCapShift) | uint64(n)<<gateCapShift
		hook(hkGateSetCap)
		tally(tallyGate)
		if g.w.CompareAndSwap(w, nw) {
			return gateCap(w), true
		}
	}
}

// close sets the closed bit; it reports whether this call set it.
func (g *gate) close() bool {
	hook(hkGateClose)
	tally(tallyGate)
	return setBits(&g.w, gateClosed)&gateClosed == 0
}

// reopen clears the closed bit.
func (g *gate) reopen() {
	tally(tallyGate)
	clearBits(&g.w, gateClosed)
}
