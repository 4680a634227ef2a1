package actorpool

import "errors"

// ErrNoSender is returned by Context.Respond when the message came from
// outside any actor by Tell: there is nobody to answer.
var ErrNoSender = errors.New("actorpool: no sender to respond to")

// Context is what a handler knows about the message it handles and the
// actor it runs in. It is valid only during the call it was passed to.
type Context struct {
	a   *actor
	env envelope
}

// Self returns the actor's own reference.
func (c *Context) Self() Ref { return Ref{c.a} }

// System returns the system the actor runs in.
func (c *Context) System() *System { return c.a.sys }

// Sender returns the actor that sent the message, or the zero Ref when it
// came from outside any actor. Through a router or a Forward, it is the
// original sender.
func (c *Context) Sender() Ref { return Ref{c.env.sender} }

// Respond answers the message: an Ask gets v as its answer (only the first
// answer counts; a second Respond to the same Ask is dropped); a message
// told by an actor is answered by telling v to that actor. With neither,
// it returns ErrNoSender.
func (c *Context) Respond(v any) error {
	if c.env.reply != nil {
		c.env.reply.answer(v, nil)
		return nil
	}
	if c.env.sender == nil {
		return ErrNoSender
	}
	return Ref{c.env.sender}.sendFrom(envelope{msg: v, sender: c.a}, c.a)
}

// Tell tells msg to another actor with this actor as its sender, as
// Ref.Tell does.
func (c *Context) Tell(to Ref, msg any) error {
	return to.sendFrom(envelope{msg: msg, sender: c.a}, c.a)
}

// Forward passes the message being handled on to another actor unchanged:
// its sender and, for an Ask, the caller waiting for the answer, are kept,
// so the other actor answers the original caller directly.
func (c *Context) Forward(to Ref) error { return to.sendFrom(c.env, c.a) }

// Spawn starts an actor, as System.Spawn does.
func (c *Context) Spawn(produce func() Behavior, opts ...SpawnOption) (Ref, error) {
	return c.a.sys.Spawn(produce, opts...)
}
