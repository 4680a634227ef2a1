package fifo

import (
	"slices"
	"testing"

	"pgregory.net/rapid"
)

// TestRingModel: a Ring behaves as a slice used as a FIFO, over random
// pushes, pops and trims, and its buffer stays a power of two.
func TestRingModel(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var r Ring[int]
		var model []int
		next := 0
		for i, n := 0, rapid.IntRange(0, 300).Draw(t, "steps"); i < n; i++ {
			switch op := rapid.IntRange(0, 9).Draw(t, "op"); {
			case op < 5:
				r.Push(next)
				model = append(model, next)
				next++
			case op < 9:
				if len(model) == 0 {
					continue
				}
				if got := r.Pop(); got != model[0] {
					t.Fatalf("Pop = %d, want %d", got, model[0])
				}
				model = model[1:]
			default:
				r.Trim(8)
				if r.Len() == 0 && r.Cap() > 8 {
					t.Fatalf("an empty ring kept a buffer of %d after Trim(8)", r.Cap())
				}
			}
			if r.Len() != len(model) {
				t.Fatalf("Len = %d, want %d", r.Len(), len(model))
			}
			if c := r.Cap(); c&(c-1) != 0 || c < r.Len() {
				t.Fatalf("Cap = %d with %d held: not a power of two that holds them", c, r.Len())
			}
		}
	})
}

type elem struct {
	id   int
	link Link[elem]
}

func (e *elem) Link() *Link[elem] { return &e.link }

// TestListModel: a List behaves as a slice kept oldest first, over random
// pushes and removals from anywhere, and walks the same both ways.
func TestListModel(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var l List[elem, *elem]
		var model []*elem
		for i, n := 0, rapid.IntRange(0, 200).Draw(t, "steps"); i < n; i++ {
			if len(model) == 0 || rapid.Bool().Draw(t, "push") {
				e := &elem{id: i}
				l.PushBack(e)
				model = append(model, e)
			} else {
				j := rapid.IntRange(0, len(model)-1).Draw(t, "which")
				e := model[j]
				l.Remove(e)
				if l.Contains(e) {
					t.Fatalf("element %d still in the list after Remove", e.id)
				}
				model = slices.Delete(model, j, j+1)
			}
			if l.Len() != len(model) {
				t.Fatalf("Len = %d, want %d", l.Len(), len(model))
			}
			var walked []*elem
			for e := l.Front(); e != nil; e = l.Next(e) {
				walked = append(walked, e)
			}
			if !slices.Equal(walked, model) {
				t.Fatalf("the list walks %d elements, not the %d of the model in order", len(walked), len(model))
			}
			if len(model) > 0 && (l.Front() != model[0] || l.Back() != model[len(model)-1]) {
				t.Fatal("Front or Back is not the oldest or newest element")
			}
		}
	})
}
