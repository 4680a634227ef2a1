//go:build go1.25

package pool_test

import (
	"errors"
	"math/rand/v2"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/anishathalye/porcupine"

	"github.com/poolkit/poolkit/pool"
)

// capInput is one operation on the capacity register.
type capInput struct {
	op   string // "resize", "cap" or "release"
	size int
}

// capOutput is what the operation returned.
type capOutput struct {
	cap int   // for "cap"
	err error // for "resize"
}

type capState struct {
	cap    int
	closed bool
}

// capModel is the capacity as a linearizable register: Resize(n) writes n
// when n is valid and the pool is open, and otherwise fails with the
// matching error and no change; Cap reads; Close closes.
var capModel = porcupine.Model{
	Init: func() any { return capState{cap: 4} },
	Step: func(state, input, output any) (bool, any) {
		s, in, out := state.(capState), input.(capInput), output.(capOutput)
		switch in.op {
		case "cap":
			return out.cap == s.cap, s
		case "release":
			s.closed = true
			return true, s
		default:
			switch {
			case in.size < 1:
				return errors.Is(out.err, pool.ErrInvalidSize), s
			case s.closed:
				return errors.Is(out.err, pool.ErrClosed), s
			default:
				if out.err != nil {
					return false, s
				}
				s.cap = in.size
				return true, s
			}
		}
	},
	Equal: func(a, b any) bool { return a.(capState) == b.(capState) },
	DescribeOperation: func(input, output any) string {
		in, out := input.(capInput), output.(capOutput)
		if in.op == "cap" {
			return "Cap() = " + strconv.Itoa(out.cap)
		}
		if in.op == "release" {
			return "Close()"
		}
		return "Resize(" + strconv.Itoa(in.size) + ")"
	},
}

// TestResizeLinearizable records concurrent histories of Resize, Cap and a
// Close on a pool that is also running tasks, and checks with porcupine
// that each history has one order consistent with a register: Cap never
// returns a value nobody set, and every Resize takes effect at one instant
// between its call and its return.
func TestResizeLinearizable(t *testing.T) {
	for round := range 20 {
		p, err := pool.New(4)
		if err != nil {
			t.Fatal(err)
		}
		var clock atomic.Int64
		var mu sync.Mutex
		var history []porcupine.Operation
		record := func(client int, in capInput, do func() capOutput) {
			call := clock.Add(1)
			out := do()
			ret := clock.Add(1)
			mu.Lock()
			history = append(history, porcupine.Operation{ClientId: client, Input: in, Call: call, Output: out, Return: ret})
			mu.Unlock()
		}
		var wg sync.WaitGroup
		stop := make(chan struct{})
		wg.Go(func() { // load, so resizes race with running tasks
			for {
				select {
				case <-stop:
					return
				default:
				}
				_ = p.Submit(bg, func() {})
			}
		})
		var clients sync.WaitGroup
		for c := range 4 {
			clients.Go(func() {
				r := rand.New(rand.NewPCG(uint64(round), uint64(c)))
				for i := range 60 {
					switch {
					case c == 0 && i == 50 && round%2 == 0:
						record(c, capInput{op: "release"}, func() capOutput { p.Close(); return capOutput{} })
					case r.IntN(2) == 0:
						n := r.IntN(8) - 1
						record(c, capInput{op: "resize", size: n}, func() capOutput { return capOutput{err: p.Resize(n)} })
					default:
						record(c, capInput{op: "cap"}, func() capOutput { return capOutput{cap: p.Cap()} })
					}
				}
			})
		}
		clients.Wait()
		close(stop)
		wg.Wait()
		if err := shutdownWithin(p, time.Minute); err != nil {
			t.Fatal(err)
		}
		res := porcupine.CheckOperationsTimeout(capModel, history, 10*time.Second)
		if res == porcupine.Illegal {
			t.Fatalf("round %d: history of %d operations is not linearizable", round, len(history))
		}
	}
}

// TestCapModelRejectsBadHistory shows the check can fail: a Cap that
// returns a value no Resize wrote, or the old value after a Resize had
// returned, is reported as not linearizable.
func TestCapModelRejectsBadHistory(t *testing.T) {
	bad := [][]porcupine.Operation{
		{
			{ClientId: 0, Input: capInput{op: "cap"}, Call: 1, Output: capOutput{cap: 7}, Return: 2},
		},
		{
			{ClientId: 0, Input: capInput{op: "resize", size: 2}, Call: 1, Output: capOutput{}, Return: 2},
			{ClientId: 1, Input: capInput{op: "cap"}, Call: 3, Output: capOutput{cap: 4}, Return: 4},
		},
		{
			{ClientId: 0, Input: capInput{op: "release"}, Call: 1, Output: capOutput{}, Return: 2},
			{ClientId: 1, Input: capInput{op: "resize", size: 2}, Call: 3, Output: capOutput{}, Return: 4},
		},
	}
	for i, h := range bad {
		if porcupine.CheckOperations(capModel, h) {
			t.Errorf("bad history %d accepted as linearizable", i)
		}
	}
}
