package spectest_test

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/poolkit/poolkit/resize"
	"github.com/poolkit/poolkit/spectest"
)

// tinyPool stands for a pool of your own: a goroutine per task, at most
// size at once, no queue. It needs nothing of poolkit's but package resize,
// whose error kinds its errors wrap.
type tinyPool struct {
	slots       chan struct{} // a token per running task
	nonblocking bool
	onPanic     func(any)

	mu      sync.Mutex
	closed  bool
	running int
	shut    chan struct{} // closed by the first Release
	done    chan struct{} // closed once shut with no task running
}

var (
	errClosed   = fmt.Errorf("tinypool: %w", resize.ErrClosed)
	errOverload = fmt.Errorf("tinypool: %w", resize.ErrOverload)
	errNilTask  = errors.New("tinypool: nil task")
)

func newTinyPool(c spectest.Config) (*tinyPool, error) {
	if err := resize.Validate(c.Size); err != nil {
		return nil, err
	}
	return &tinyPool{slots: make(chan struct{}, c.Size), nonblocking: c.Nonblocking, onPanic: c.PanicHandler,
		shut: make(chan struct{}), done: make(chan struct{})}, nil
}

// Submit starts task once fewer than size run, waiting for that unless
// the pool is non-blocking.
func (p *tinyPool) Submit(task func()) error {
	if task == nil {
		return errNilTask
	}
	select {
	case <-p.shut:
		return errClosed
	default:
	}
	if p.nonblocking {
		select {
		case p.slots <- struct{}{}:
		default:
			return errOverload
		}
	} else {
		select {
		case p.slots <- struct{}{}:
		case <-p.shut:
			return errClosed
		}
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed { // closed while this call took its slot
		<-p.slots
		return errClosed
	}
	p.running++
	go p.run(task)
	return nil
}

func (p *tinyPool) run(task func()) {
	defer func() {
		if v := recover(); v != nil && p.onPanic != nil {
			p.onPanic(v)
		}
		<-p.slots
		p.mu.Lock()
		defer p.mu.Unlock()
		if p.running--; p.closed && p.running == 0 {
			close(p.done)
		}
	}()
	task()
}

// Release closes the pool and waits, bounded by ctx, for the running tasks.
func (p *tinyPool) Shutdown(ctx context.Context) error {
	p.mu.Lock()
	if !p.closed {
		p.closed = true
		close(p.shut)
		if p.running == 0 {
			close(p.done)
		}
	}
	p.mu.Unlock()
	select {
	case <-p.done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// tinyImpl describes tinyPool to the suite.
var tinyImpl = spectest.Implementation{
	Name: "tinypool",
	New:  func(c spectest.Config) (spectest.Pool, error) { return newTinyPool(c) },
	Supports: func(c spectest.Capability) bool {
		return c == spectest.Nonblocking || c == spectest.PanicHandler
	},
}

// Example shows a pool of your own, tinyPool, returning errors of the
// kinds package resize defines, which is all the suite asks of its errors.
// The test that checks it against every clause (it is TestCheck's first
// case in this package) is:
//
//	func TestTinyPool(t *testing.T) {
//		if err := spectest.Check(t, tinyImpl); err != nil {
//			t.Error(err) // one line per failing clause: its ID, its promise, what it saw
//		}
//	}
//
// Clauses that need a capability the pool lacks (Resize, SubmitContext,
// Running/Waiting, ...) or a Config field it does not support do not
// apply.
func Example() {
	p, _ := newTinyPool(spectest.Config{Size: 1, Nonblocking: true})
	gate := make(chan struct{})
	_ = p.Submit(func() { <-gate })
	err := p.Submit(func() {})
	fmt.Println(err, errors.Is(err, resize.ErrOverload))

	close(gate)
	_ = p.Shutdown(context.Background())
	err = p.Submit(func() {})
	fmt.Println(err, errors.Is(err, resize.ErrClosed))

	_, err = newTinyPool(spectest.Config{Size: 0})
	fmt.Println(errors.Is(err, resize.ErrInvalidSize))
	// Output:
	// tinypool: resize: target overloaded true
	// tinypool: resize: target closed true
	// true
}
