package callback_test

import (
	"runtime"
	"testing"

	"github.com/poolkit/poolkit/internal/callback"
	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func TestIsolated(t *testing.T) {
	ran := false
	if r, exited := callback.Isolated(func() { ran = true }); r != nil || exited || !ran {
		t.Errorf("a returning f: panicked %v, exited %v, ran %v; want nil, false, true", r, exited, ran)
	}
	if r, exited := callback.Isolated(func() { panic("boom") }); r != "boom" || exited {
		t.Errorf("a panicking f: panicked %v, exited %v; want boom, false", r, exited)
	}
	if r, exited := callback.Isolated(runtime.Goexit); r != nil || !exited {
		t.Errorf("an exiting f: panicked %v, exited %v; want nil, true", r, exited)
	}
}
