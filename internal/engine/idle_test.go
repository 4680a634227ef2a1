package engine

import (
	"slices"
	"testing"

	"pgregory.net/rapid"
)

// TestIdleStack checks the idle stack against a plain slice over random
// pushes, pops and removals (removals mostly near the bottom, as expiry
// does them): same order, and every parked worker knows its index.
func TestIdleStack(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var s idleStack[func()]
		var model []*worker[func()]
		for i, n := 0, rapid.IntRange(0, 400).Draw(t, "steps"); i < n; i++ {
			switch op := rapid.IntRange(0, 9).Draw(t, "op"); {
			case op < 5 || len(model) == 0:
				w := &worker[func()]{idleAt: -1}
				s.push(w)
				model = append(model, w)
			case op < 7:
				w := s.pop()
				if want := model[len(model)-1]; w != want || w.idleAt != -1 {
					t.Fatalf("pop gave %p (idleAt %d), want %p", w, w.idleAt, want)
				}
				model = model[:len(model)-1]
			default:
				i := rapid.IntRange(0, len(model)-1).Draw(t, "index")
				if rapid.Bool().Draw(t, "bottom") {
					i = min(i, 2)
				}
				w := model[i]
				s.remove(w)
				model = slices.Delete(model, i, i+1)
				if w.idleAt != -1 {
					t.Fatalf("removed worker still has idleAt %d", w.idleAt)
				}
			}
			if s.len() != len(model) {
				t.Fatalf("len %d, want %d", s.len(), len(model))
			}
			for i, w := range model {
				if s.ws[s.base+i] != w || w.idleAt != s.base+i {
					t.Fatalf("position %d: got %p (idleAt %d), want %p at %d", i, s.ws[s.base+i], w.idleAt, w, s.base+i)
				}
			}
			if s.base > 64 && s.base > len(s.ws)/2 {
				t.Fatalf("dead bottom of %d in a slice of %d was not reclaimed", s.base, len(s.ws))
			}
		}
	})
}
