//go:build go1.25

package main

import (
	"context"
	"testing"
	"testing/synctest"
	"time"

	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// TestRun runs the example in a synctest bubble, where its three seconds
// pass at once: the controller grows the pool from 1 to what the load asks
// (about 4 busy workers), and every accepted task completes.
func TestRun(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		start, end, completed, err := run(context.Background(), 3*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		if start != 1 || end < 4 || end > 16 {
			t.Errorf("size %d at the start, %d at the end; want 1, then 4 to 16", start, end)
		}
		if completed < 1000 {
			t.Errorf("%d tasks completed in 3 s at 400 a second", completed)
		}
	})
}
