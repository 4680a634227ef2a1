package main

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain checks for leaked goroutines. ants starts a package-level pool
// when it is imported; it predates every test and is ignored.
func TestMain(m *testing.M) { goleak.VerifyTestMain(m, goleak.IgnoreCurrent()) }
