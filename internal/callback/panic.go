package callback

import (
	"errors"
	"fmt"
)

// PanicError is what a caller waiting on user code gets when that code
// panicked: package pool and package actorpool both export it under its
// own name (an alias), so that one errors.As matches a panic whichever
// runtime ran the code.
type PanicError struct {
	Value any    // the value passed to panic
	Stack []byte // the panicking goroutine's stack
}

func (e *PanicError) Error() string { return fmt.Sprintf("poolkit: panicked: %v", e.Value) }

// ErrGoexit is what a caller waiting on user code gets when that code
// called runtime.Goexit instead of returning: there is no value to report
// and no panic to recover, but the caller must not wait for ever.
var ErrGoexit = errors.New("poolkit: called runtime.Goexit")
