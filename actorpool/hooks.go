package actorpool

// hookPoint names a step of an actor's scheduling protocol (actor.go).
// Under the poolkit_hooks build tag each step may yield, from a seeded
// schedule, to widen the window after it (hooks_on.go); the engine below
// yields at its own steps in the same build. In a normal build hook is
// empty and the compiler removes the calls.
type hookPoint uint8

const (
	hkScheduled    hookPoint = iota // a sender won idle -> scheduled and is about to hand the actor over
	hkYield                         // a turn spent its budget and is about to hand the actor back
	hkIdle                          // a turn stored idle and is about to look at the mailbox again
	hkReclaim                       // a turn saw a message after going idle and is about to take the actor back
	hkStop                          // a stopping actor has closed its mailbox
	hkRoute                         // a sender read a router's worker set and is about to try it
	hkPut                           // a sender added its message and is about to wake the actor
	hkStallSwapped                  // a stall tick made the current epoch previous and is about to disarm
	numHookPoints
)
