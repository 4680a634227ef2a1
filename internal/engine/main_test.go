package engine

import (
	"flag"
	"os"
	"testing"

	"go.uber.org/goleak"
)

// TestMain fails the package if any test leaves a goroutine behind. Under
// the poolkit_hooks build tag it installs a seeded interleaving for the
// whole run (hooks_main_test.go), so that every test runs with the engine
// yielding and stalling at its protocol steps; the breakpoint tests
// replace it with their own while they run.
func TestMain(m *testing.M) {
	flag.Parse()
	stop := startInterleaving(os.Stderr)
	defer stop()
	goleak.VerifyTestMain(m)
}
