//go:build unix

package servertest_test

import (
	"context"
	"syscall"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"
	"github.com/poolkit/poolkit/natsrunner"
)

func cpuTime(t *testing.T) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		t.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// TestKeyedRunnerWaitsIdle: a hot key's messages take all the runner's
// room while the pool has free slots. The runner then waits for one of its
// messages to finish; it must not spin on the pool's free slots, which
// would keep a CPU busy for as long as the key's handler runs.
func TestKeyedRunnerWaitsIdle(t *testing.T) {
	e := newEnv(t, 5*time.Second)
	e.publishKeyed([]string{"hot", "hot", "hot", "hot", "hot", "hot"})
	release := make(chan struct{})
	h := func(context.Context, jetstream.Msg) error { <-release; return nil }
	r, err := natsrunner.New(e.consumer(e.js), newPool(t, 4), h, natsrunner.WithKey(natsrunner.SubjectToken(1)),
		natsrunner.WithFetchMaxWait(200*time.Millisecond), natsrunner.WithPollInterval(20*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	stop := start(t, r)
	waitFor(t, 10*time.Second, "the pool's room fetched", func() bool { return r.Stats().InFlight == 4 })
	const wall = 400 * time.Millisecond
	before := cpuTime(t)
	time.Sleep(wall)
	used := cpuTime(t) - before
	close(release)
	waitFor(t, 10*time.Second, "every message acked", func() bool { return r.Stats().Acked == 6 })
	_ = stop()
	// Waiting costs a poll every 20ms; a spinning loop would take a CPU.
	if used > wall/2 {
		t.Errorf("the process used %v of CPU in %v while the runner had no room: it spins", used, wall)
	}
}
