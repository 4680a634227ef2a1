package actorpool

// Behavior is what an actor does with each message. Receive is called with
// one message at a time, never concurrently for one actor, in the order
// the messages were accepted from each sender; what it does between two
// calls is its own state, which needs no lock.
type Behavior interface {
	Receive(c *Context, msg any)
}

// BehaviorFunc makes a function a Behavior.
type BehaviorFunc func(c *Context, msg any)

// Receive calls f(c, msg).
func (f BehaviorFunc) Receive(c *Context, msg any) { f(c, msg) }

// Starter is implemented by a behaviour that prepares itself before its
// first message. PreStart runs once per behaviour value, in the actor's
// first turn (or the first turn after a restart), before any message. An
// error or a panic stops the actor; its messages become dead letters.
type Starter interface {
	PreStart(c *Context) error
}

// Stopper is implemented by a behaviour that cleans up. PostStop runs
// exactly once for every behaviour value whose PreStart was called (or
// that received a message): when the actor stops, and for the old value
// when a restart replaces it. No message is received after it.
type Stopper interface {
	PostStop(c *Context)
}

// PoisonPill stops the actor it is told to, as Ref.Stop does: it is a
// system message, handled before any user message still queued, so an
// actor with a backlog stops after at most the message it is handling;
// the backlog becomes dead letters. Told to a router, it stops the
// router.
var PoisonPill any = poisonPill{}

type poisonPill struct{}
