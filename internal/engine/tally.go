package engine

// tallyKind names a shared word, or a shared step, that the hot paths
// touch. Under the poolkit_hooks build tag every read-modify-write of such
// a word, every acquisition of e.mu and every wake-up is counted while a
// count is running (CountShared); in a normal build tally is empty and the
// compiler removes the calls. A design that scales with cores drives
// these counts per unit toward zero in steady state: every one of them is
// a cache line, a lock or a goroutine switch that all submitters and
// workers share.
type tallyKind uint8

const (
	tallyGate     tallyKind = iota // a read-modify-write of the gate word (a CAS tried, an add)
	tallyTail                      // a CAS tried on the queue's tail
	tallyHead                      // a CAS tried on the queue's head
	tallySpinning                  // an add to the searchers' count
	tallyCounts                    // an add to waitersN, frontN or roomN (one cache line)
	tallyLock                      // an acquisition of e.mu
	tallyLockHeld                  // an acquisition of e.mu that found it held
	tallyIdle                      // a push or pop of the idle stack (under e.mu)
	tallyWake                      // a worker woken or started
	tallySignal                    // a blocked submitter woken
	tallyYield                     // a runtime.Gosched
	tallyAsk                       // a room-maker asked e.mu's holder to admit waiters for it
	tallyArrive                    // a CAS tried on the arrivals stack (a blocking submitter joining)
	numTallies
)

var tallyNames = [numTallies]string{
	"gate-rmw", "tail-cas", "head-cas", "spinning-rmw", "counts-rmw",
	"mu-lock", "mu-held", "idle-op", "wake", "signal", "yield", "admit-ask",
	"arrive-cas",
}

func (k tallyKind) String() string { return tallyNames[k] }
