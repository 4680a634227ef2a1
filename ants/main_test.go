package ants_test

import (
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/poolkit/poolkit/ants"
	"go.uber.org/goleak"
)

// TestMain fails the package if a test leaves a goroutine behind. Loading
// the package, with its default pool, starts none; the default pool's
// workers idle until they expire, so it is released first, as a program
// does at exit.
func TestMain(m *testing.M) {
	atLoad = goleak.Find()
	code := m.Run()
	if err := ants.ReleaseTimeout(5 * time.Second); err != nil {
		fmt.Fprintln(os.Stderr, "releasing the default pool:", err)
		code = 1
	}
	if code == 0 {
		if err := goleak.Find(); err != nil {
			fmt.Fprintln(os.Stderr, "goleak:", err)
			code = 1
		}
	}
	os.Exit(code)
}

// atLoad is what goleak found before any test ran: the goroutines that
// loading the package (and building its default pool) started.
var atLoad error

// TestLoadStartsNoGoroutine checks that importing the package starts no
// goroutine (ants starts two for its default pool).
func TestLoadStartsNoGoroutine(t *testing.T) {
	if atLoad != nil {
		t.Errorf("goroutines running before any test: %v", atLoad)
	}
}
