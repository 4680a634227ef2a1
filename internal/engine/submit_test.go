package engine

import (
	"context"
	"errors"
	"testing"
)

// TestOffer: an offer is accepted while there is room, refused with
// ErrNoRoom, uncounted, when there is none, overflows an unbounded queue,
// and is refused with ErrClosed, counted, once the engine is closed.
func TestOffer(t *testing.T) {
	for _, unbounded := range []bool{false, true} {
		var e Engine[func()]
		e.Init(1, func(f func()) { f() }, Config{QueueSize: 1, Unbounded: unbounded})
		hold, started := make(chan struct{}), make(chan struct{})
		if err := e.Offer(func() { close(started); <-hold }); err != nil {
			t.Fatal(err)
		}
		<-started
		if err := e.Offer(func() {}); err != nil {
			t.Fatalf("unbounded=%v: an offer with room in the queue: %v", unbounded, err)
		}
		err := e.Offer(func() {})
		switch {
		case unbounded && err != nil:
			t.Errorf("an offer to a full unbounded queue: %v, want it to overflow", err)
		case !unbounded && !errors.Is(err, ErrNoRoom):
			t.Errorf("an offer to a saturated engine: %v, want ErrNoRoom", err)
		}
		waiting := 1 // the queue's one place
		if unbounded {
			waiting = 2 // and the overflow
		}
		if st := e.Stats(); st.Rejected != 0 || st.Waiting != waiting {
			t.Errorf("unbounded=%v: after the offers: %+v", unbounded, st)
		}
		close(hold)
		<-e.Close()
		if err := e.Offer(func() {}); !errors.Is(err, ErrClosed) {
			t.Errorf("an offer to a closed engine: %v, want ErrClosed", err)
		}
		if st := e.Stats(); st.RejectedClosed != 1 {
			t.Errorf("a refused offer to a closed engine is not counted: %+v", st)
		}
		if err := e.Submit(context.Background(), func() {}); !errors.Is(err, ErrClosed) {
			t.Errorf("Submit after close: %v", err)
		}
	}
}
