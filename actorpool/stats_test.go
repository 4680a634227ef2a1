package actorpool_test

import (
	"testing"

	"github.com/poolkit/poolkit/actorpool"
)

// TestStatsQueued: Stats counts the user messages waiting in the live
// actors' mailboxes, not the one being handled, and none once all are
// handled.
func TestStatsQueued(t *testing.T) {
	s := newSystem(t, actorpool.WithWorkers(1))
	started, release, handled := make(chan struct{}), make(chan struct{}), make(chan struct{}, 10)
	first := true
	r := spawn(t, s, func(_ *actorpool.Context, _ any) {
		if first {
			first = false
			close(started)
			<-release
		}
		handled <- struct{}{}
	})
	for i := 0; i < 5; i++ {
		if err := r.Tell(i); err != nil {
			t.Fatal(err)
		}
	}
	<-started
	if q := s.Stats().Queued; q != 4 {
		t.Errorf("Queued = %d with one message in hand and four behind it, want 4", q)
	}
	close(release)
	for i := 0; i < 5; i++ {
		<-handled
	}
	if q := s.Stats().Queued; q != 0 {
		t.Errorf("Queued = %d after every message was handled, want 0", q)
	}
}
