package engine

// hookPoint names a step of the engine's protocol. Under the poolkit_hooks
// build tag every step calls hook with its name, so that tests can widen
// the window after it (hooks_on.go); in a normal build hook is empty and
// the compiler removes the calls.
type hookPoint uint8

const (
	hkGateAcquire    hookPoint = iota // a slot is about to be taken (before the CAS)
	hkGateRelease                     // a slot is about to be given back
	hkGateOver                        // a holder is about to check for a shrink
	hkGateSetCap                      // Resize is about to store a capacity
	hkGateClose                       // close is about to set the closed bit
	hkQueuePushClaim                  // a push claimed a ring slot, not yet filled
	hkQueuePushed                     // a push is complete
	hkQueuePopClaim                   // a pop claimed a value, not yet freed the ring slot
	hkQueueSeal                       // close is about to seal the queue
	hkSubmitDirect                    // a submitter took a slot for its own unit
	hkSubmitQueue                     // a submitter found no slot to take and is about to queue
	hkNotify                          // a pusher is about to decide whether to start a worker
	hkTaken                           // a slot holder has taken a unit, not yet confirmed it
	hkConfirmed                       // a taken unit passed the capacity check
	hkDeferred                        // a taken unit was put back at the front
	hkSpinStart                       // a worker counts itself as spinning
	hkSpinFound                       // a searcher took a unit (or left for a shrink) and stopped counting as spinning
	hkSpinGiveUp                      // a spinner stopped spinning with nothing found
	hkRecheck                         // a worker gave its slot back and looks at the queues again
	hkPark                            // a worker is about to wait on its wake channel
	hkWoken                           // a parked worker received its wake-up
	hkAdmitWaiter                     // a blocked submitter's unit is being admitted
	hkBlock                           // a submitter is about to block
	hkCloseDrain                      // an abandoning close is taking the queued units
	hkRebootWait                      // Reopen is about to wait for the previous life
	hkCloseWait                       // a closer is about to wait for the life it closed
	hkDone                            // the engine's previous life has ended
	hkSpinLast                        // a spinner found nothing in its last round; it still counts as spinning
	hkWaiterTake                      // a slot holder with nothing to run is about to hand its slot to a blocked submitter (W5)
	hkGiveBack                        // a worker is about to take mu to park: to give its slot back (it found nothing to run), or having given it to a shrink
	hkContinue                        // a running unit is about to hand over its continuation
	hkAdmitAll                        // e.mu's holder is about to admit blocked submitters into the room there is
	hkUnlock                          // e.mu's holder has answered the asks made so far and is about to let go
	hkOutsider                        // a blocked submitter asked whether it runs in a unit of the engine, found it does not, and waits on
	hkAskLeft                         // a worker that made room found e.mu held and left the admission to its holder
	hkAskWait                         // a worker that made room found e.mu held and the queue low, and is about to wait for the lock to admit
	hkArrive                          // a blocking submitter has announced itself in waitersN and is about to push its waiter on the arrivals
	hkArrivalsTaken                   // e.mu's holder has moved the arrivals into the list

	// The steps of the front-ends' protocols on the engine, run through
	// the same explorer (At).
	KeyAdmit    // a keyed submitter claimed an idle key and is about to submit its turn
	KeyTurn     // a key's turn has started on a worker and is about to take its key's lock
	KeyIdle     // a key's turn found its queue empty and dropped the key
	KeyYield    // a key's turn spent its budget with tasks left
	SchedTake   // a scheduler's ticket has started on a worker and is about to take the scheduler's lock
	SchedExpire // a scheduled task's context has ended, or its wait has passed the limit, and its expiry is about to take the scheduler's lock
	SchedOffer  // a scheduled submitter holds the scheduler's lock and is about to offer a ticket to the pool
	numHookPoints
)

var hookNames = [numHookPoints]string{
	"gate-acquire", "gate-release", "gate-over", "gate-setcap", "gate-close",
	"queue-push-claim", "queue-pushed", "queue-pop-claim", "queue-seal",
	"submit-direct", "submit-queue", "notify", "taken", "confirmed", "deferred",
	"spin-start", "spin-found", "spin-giveup", "recheck", "park", "woken",
	"admit-waiter", "block", "close-drain", "reboot-wait", "close-wait", "done", "spin-last",
	"waiter-take", "give-back", "continue", "admit-all", "unlock", "outsider", "ask-left", "ask-wait",
	"arrive", "arrivals-taken",
	"key-admit", "key-turn", "key-idle", "key-yield",
	"sched-take", "sched-expire", "sched-offer",
}

// At is step p of a front-end's protocol: under the poolkit_hooks build
// tag it runs through the installed interleaving explorer, as the engine's
// own steps do; in a normal build it is empty.
func At(p hookPoint) { hook(p) }

// HooksOn says whether the interleaving hooks and the invariant checks are
// compiled in; a front-end checks its own invariants under "if
// engine.HooksOn", so that a normal build does not evaluate them.
const HooksOn = hooksOn

// Invariant panics, naming the broken rule, when ok is false, as the
// engine's own checks do (hooks_on.go); call it only under HooksOn.
func Invariant(ok bool, format string, args ...any) { invariant(ok, format, args...) }

func (p hookPoint) String() string {
	if p < numHookPoints {
		return hookNames[p]
	}
	return "hook?"
}
