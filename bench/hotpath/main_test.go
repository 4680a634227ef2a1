package hotpath

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain checks that no benchmark leaves a goroutine behind: every pool
// is released and every actor system shut down, and waited for. The ants
// drop-in starts a default pool when it is imported; it predates every
// benchmark and is ignored.
func TestMain(m *testing.M) { goleak.VerifyTestMain(m, goleak.IgnoreCurrent()) }
