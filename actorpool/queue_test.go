package actorpool

import (
	"math/rand"
	"testing"
)

// TestQueueFIFO checks the mailbox queue against a slice over random
// pushes and pops, through the ring's growth, the spill into chunks and
// back: every value comes out once, in the order pushed.
func TestQueueFIFO(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	var q queue[int]
	var model []int
	next := 0
	for step := 0; step < 200_000; step++ {
		// Phases of mostly pushes and mostly pops, so the backlog swings
		// between empty and a few thousand.
		pushBias := 0.3
		if (step/5000)%2 == 0 {
			pushBias = 0.7
		}
		if rng.Float64() < pushBias || len(model) == 0 {
			q.push(next)
			model = append(model, next)
			next++
		} else {
			got, want := q.pop(), model[0]
			model = model[1:]
			if got != want {
				t.Fatalf("step %d: pop = %d, want %d", step, got, want)
			}
		}
		if q.len() != len(model) {
			t.Fatalf("step %d: len = %d, want %d", step, q.len(), len(model))
		}
	}
	for len(model) > 0 {
		if got := q.pop(); got != model[0] {
			t.Fatalf("drain: pop = %d, want %d", got, model[0])
		}
		model = model[1:]
	}
	if q.head != nil || q.tail != nil || q.r.Cap() > ringKeep {
		t.Errorf("an empty queue holds chunks or a big ring: %+v", q.r)
	}
}
