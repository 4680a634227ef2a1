// Package resize states the contract shared by everything in poolkit whose
// capacity changes at run time: the task pool, the actor router, and the
// adapters that put other pool libraries behind the same interface. The
// autoscaler drives any Resizer and nothing else.
//
// The contract, in one paragraph: Resize(n) sets the capacity to n, the
// number of units of work that may run at once. The new capacity takes
// effect when Resize returns (that is its linearization point): from then
// on Cap reports n, and no new unit of work starts while n or more are
// running. Resize never waits for running work and never interrupts it; a
// shrink drains as running work finishes, and a grow starts waiting work at
// once. Calls from many goroutines are serialised into one order, and Cap
// never reports a value that no Resize (or the constructor) set. Resize with
// the current capacity changes nothing. A size below 1 returns an error
// that matches ErrInvalidSize and changes nothing; a closed target returns
// an error that matches ErrClosed and changes nothing.
//
// ErrInvalidSize, ErrClosed and ErrOverload are also the error kinds of the
// work a bounded target takes: a pool, poolkit's or anyone's, returns errors
// matching them, so that code driving several pools (the conformance suite,
// an autoscaler, an adapter) matches one set of kinds without importing any
// pool's package. poolkit's own errors match them (pool.ErrClosed,
// pool.ErrOverload, pool.ErrInvalidSize).
package resize

import (
	"errors"
	"strconv"
)

// Resizer is a target whose capacity can change at run time under the
// package contract. Implementations are safe for concurrent use.
type Resizer interface {
	// Resize sets the capacity to n, as the package contract describes.
	// It returns nil, or an error matching ErrInvalidSize or ErrClosed.
	Resize(n int) error
	// Cap returns the capacity set by the latest Resize, or by the
	// constructor when there was none.
	Cap() int
}

// ErrInvalidSize is matched (with errors.Is) by the error a Resizer
// returns for a size below 1 or above MaxSize.
var ErrInvalidSize = errors.New("resize: invalid size")

// ErrClosed is matched (with errors.Is) by the error a Resizer returns when
// it has been closed and can no longer change, and by the error a closed
// target returns for work it no longer takes.
var ErrClosed = errors.New("resize: target closed")

// ErrOverload is matched (with errors.Is) by the error a bounded target
// returns when it rejects work because it is saturated and will not wait
// (it is non-blocking, or enough callers wait already). The work was not
// accepted.
var ErrOverload = errors.New("resize: target overloaded")

// Validate returns an error matching ErrInvalidSize when n is not a valid
// capacity (1 to MaxSize), and nil otherwise. The error's text names n and
// the valid range. Implementations call it first in Resize so
// that every Resizer rejects the same sizes with the same error.
func Validate(n int) error {
	if n < 1 || n > MaxSize {
		return &sizeError{n: n}
	}
	return nil
}

// MaxSize is the largest capacity any poolkit Resizer accepts.
const MaxSize = 1<<31 - 1

// sizeError is Validate's error: it names the size and the valid range,
// "resize: invalid size 0: want 1 to 2147483647".
type sizeError struct{ n int }

func (e *sizeError) Error() string {
	return "resize: invalid size " + strconv.Itoa(e.n) + ": want 1 to " + strconv.Itoa(MaxSize)
}

func (e *sizeError) Unwrap() error { return ErrInvalidSize }
