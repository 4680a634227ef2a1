package engine

import (
	"errors"
	"testing"
)

// TestZeroValueEngine: an engine never initialised (a front-end's zero
// value) is closed: it refuses units with ErrClosed, reports nothing but
// Closed, and its Reopen and SetTimings change nothing.
func TestZeroValueEngine(t *testing.T) {
	var e Engine[func()]
	e.Reopen()
	e.SetTimings(true)
	if err := e.Submit(bg, func() {}); !errors.Is(err, ErrClosed) {
		t.Errorf("Submit = %v, want ErrClosed", err)
	}
	if err := e.Resize(2); !errors.Is(err, ErrClosed) {
		t.Errorf("Resize = %v, want ErrClosed", err)
	}
	if s := e.Stats(); e.Cap() != 0 || s != (Stats{Closed: true}) {
		t.Errorf("Cap %d, Stats %+v; want 0 and nothing but Closed", e.Cap(), s)
	}
	if _, back := e.CloseNow(); back != nil {
		t.Errorf("CloseNow handed back %v", back)
	}
}
