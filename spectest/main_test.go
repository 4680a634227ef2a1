package spectest_test

import (
	"os"
	"testing"

	"go.uber.org/goleak"

	"github.com/poolkit/poolkit/spectest"
)

// TestMain checks for leaked goroutines, except in the child processes the
// suite starts: a leak there is the result of the pool under test.
func TestMain(m *testing.M) {
	if spectest.IsChild() {
		os.Exit(m.Run())
	}
	goleak.VerifyTestMain(m)
}
