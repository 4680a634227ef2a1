package spectest

import "testing"

// TestNAInsideBubble: a clause found not to apply inside a synctest bubble
// is skipped as a whole, with its reason; synctest.Test alone would end
// only the bubble's test, and the clause would pass.
func TestNAInsideBubble(t *testing.T) {
	na := new(string)
	t.Run("clause", func(t *testing.T) {
		defer func() {
			if !t.Skipped() {
				t.Error("the clause was not skipped")
			}
		}()
		c := &Case{T: t, na: na}
		c.Bubble(func(c *Case) { c.NA("the pool cannot be saturated") })
		t.Error("the clause went on after NA")
	})
	if *na != "n.a.: the pool cannot be saturated" {
		t.Errorf("the reason recorded is %q", *na)
	}
}
