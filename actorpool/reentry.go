package actorpool

import (
	"reflect"
	"runtime"
	"strings"
)

// turnFrame is how actor.turn appears in a stack.
var turnFrame = strings.TrimSuffix(runtime.FuncForPC(reflect.ValueOf(pkgMarker).Pointer()).Name(), "pkgMarker") + "(*actor).turn"

func pkgMarker() {}

// inHandler reports whether the calling goroutine is running an actor's
// turn. It walks the stack, so only calls that must not wait for their
// caller's own turn (Shutdown) use it.
func inHandler() bool {
	pcs := make([]uintptr, 64)
	for skip := 2; ; skip += len(pcs) {
		n := runtime.Callers(skip, pcs)
		frames := runtime.CallersFrames(pcs[:n])
		for {
			f, more := frames.Next()
			if f.Function == turnFrame {
				return true
			}
			if !more {
				break
			}
		}
		if n < len(pcs) {
			return false
		}
	}
}
