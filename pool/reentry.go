package pool

import (
	"reflect"
	"runtime"
	"strings"
)

// execFrame is how the frame of engine.exec appears in a stack: the
// package's path, then the method of the generic engine type.
var execFrame = func() string {
	name := runtime.FuncForPC(reflect.ValueOf(pkgMarker).Pointer()).Name()
	return strings.TrimSuffix(name, "pkgMarker") + "(*engine["
}()

func pkgMarker() {}

// calledFromTask reports whether the calling goroutine is running a unit:
// whether engine.exec is on its stack. It costs a stack walk, so only the
// slow paths that must not wait for the caller's own unit use it.
func calledFromTask() bool {
	pcs := make([]uintptr, 64)
	for skip := 2; ; skip += len(pcs) {
		n := runtime.Callers(skip, pcs)
		frames := runtime.CallersFrames(pcs[:n])
		for {
			f, more := frames.Next()
			if strings.HasPrefix(f.Function, execFrame) && strings.HasSuffix(f.Function, "]).exec") {
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
