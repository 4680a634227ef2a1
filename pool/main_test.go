package pool_test

import (
	"flag"
	"os"
	"testing"

	"go.uber.org/goleak"
)

// TestMain fails the package if any test leaves a goroutine behind. It
// also raises rapid's default number of checks: the state machine needs a
// few hundred runs to reach the rarer interleavings of shrink and queue.
// Under the poolkit_hooks build tag it installs a seeded interleaving for
// the whole run (hooks_main_test.go), so that every test, the state
// machine, the linearizability check and the stress tests included, runs
// with the engine yielding and stalling at its protocol steps.
func TestMain(m *testing.M) {
	flag.Parse()
	if f := flag.Lookup("rapid.checks"); f != nil && !flagGiven("rapid.checks") {
		if err := f.Value.Set("1000"); err != nil {
			panic(err)
		}
	}
	stop := startInterleaving(os.Stderr)
	defer stop()
	goleak.VerifyTestMain(m)
}

func flagGiven(name string) bool {
	given := false
	flag.Visit(func(f *flag.Flag) { given = given || f.Name == name })
	return given
}
