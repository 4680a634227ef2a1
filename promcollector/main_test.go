package promcollector_test

import (
	"testing"

	"go.uber.org/goleak"
)

// Every test releases its pools and shuts its systems down: a worker or
// an actor left behind is a leak.
func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }
