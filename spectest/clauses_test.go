package spectest

import "testing"

// TestMissingNames: the reason a clause does not apply names the capability
// as reports and MATRIX.md always have, so their text does not change with
// the types behind it.
func TestMissingNames(t *testing.T) {
	none := Implementation{Name: "none"}
	all := Implementation{Name: "all", Supports: func(Capability) bool { return true }}
	full := capabilities{}
	for c := SubmitContext; c <= Reboot; c++ {
		full[c] = true
	}
	for _, c := range []struct {
		need Capability
		want string
	}{
		{SubmitContext, "SubmitContext"},
		{Resize, "Resize"},
		{RunningWaiting, "Running/Waiting"},
		{Completed, "Completed"},
		{ShutdownNow, "ShutdownNow"},
		{Reboot, "Reboot"},
		{Nonblocking, "the nonblocking option"},
		{MaxBlocking, "the maxblocking option"},
		{Expiry, "the expiry option"},
		{PanicHandler, "the panichandler option"},
	} {
		cl := Clause{ID: "X-1", Needs: []Capability{c.need}}
		if got := cl.missing(none, capabilities{}); got != c.want {
			t.Errorf("needing %v, an implementation with nothing lacks %q, want %q", c.need, got, c.want)
		}
		if got := cl.missing(all, full); got != "" {
			t.Errorf("needing %v, an implementation with everything lacks %q", c.need, got)
		}
	}
	for _, cl := range Clauses() {
		for _, c := range cl.Needs {
			if c < SubmitContext || c > PanicHandler {
				t.Errorf("%s needs %v, which is no capability", cl.ID, c)
			}
		}
		if cl.Level != Must && cl.Level != Should {
			t.Errorf("%s has level %v", cl.ID, cl.Level)
		}
	}
}
