// Package callback runs user code whose panic or runtime.Goexit must not
// cut short the caller: the loggers of pool, actorpool and autoscale,
// which are called while the caller is restoring its own state (a
// recovered panic being reported, a turn being put back), where an unwind
// would leave that state half done. It also names what a caller waiting on
// such code gets when the code fails (PanicError, ErrGoexit), once for
// every runtime of the module.
package callback

// Isolated runs f on a goroutine of its own and waits for it to end. A
// panic in f is recovered and returned; a runtime.Goexit in f ends only
// that goroutine, and Isolated reports it. It costs a goroutine per call,
// so it is for rare reports, not for a per-task path.
func Isolated(f func()) (panicked any, exited bool) {
	type outcome struct {
		r        any
		returned bool
	}
	done := make(chan outcome, 1)
	go func() {
		var o outcome
		defer func() {
			if !o.returned {
				o.r = recover() // nil under runtime.Goexit
			}
			done <- o
		}()
		f()
		o.returned = true
	}()
	o := <-done
	return o.r, !o.returned && o.r == nil
}
