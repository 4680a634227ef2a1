package actorpool

import (
	"context"
	"sync/atomic"
)

// pending is the one answer an Ask waits for. The first answer wins; later
// ones (a second Respond, a dead letter after an answer) are dropped.
type pending struct {
	done      atomic.Bool
	ch        chan answer          // buffered: answering never blocks
	fn        func(v any, e error) // instead of ch: a serializer's return proxy
	nextStall *pending             // the next in its stall epoch's list (stall.go)
}

type answer struct {
	v   any
	err error
}

func newPending() *pending { return &pending{ch: make(chan answer, 1)} }

// newStallPending is newPending for an Ask that registers for a poke
// (stall.go): its channel has room for the poke beside the answer.
func newStallPending() *pending { return &pending{ch: make(chan answer, 2)} }

// answer delivers the answer; it reports false if one was given before.
func (p *pending) answer(v any, err error) bool {
	if !p.done.CompareAndSwap(false, true) {
		return false
	}
	if p.fn != nil {
		p.fn(v, err)
		return true
	}
	p.ch <- answer{v, err}
	return true
}

func (p *pending) wait(ctx context.Context) (any, error) {
	select {
	case a := <-p.ch:
		return a.v, a.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}
