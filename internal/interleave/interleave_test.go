package interleave

import (
	"strings"
	"sync"
	"testing"

	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// TestBreakOnce: the first goroutine at a step runs the breakpoint, later
// ones pass, and a cleared breakpoint runs no more.
func TestBreakOnce(t *testing.T) {
	x := New(Config{}, []string{"a", "b"})
	var ran int
	clear := x.BreakOnce("b", func() { ran++ })
	x.At(0)
	x.At(1)
	x.At(1)
	clear()
	x.At(1)
	if ran != 1 {
		t.Errorf("the breakpoint ran %d times, want 1", ran)
	}
	if got := x.Steps(); got != 4 {
		t.Errorf("Steps() = %d, want 4", got)
	}
	if r := x.Recent(); !strings.HasPrefix(r, "1:a 2:b 3:b 4:b") {
		t.Errorf("Recent() = %q, want the four steps in order", r)
	}
}

// TestPressureTakesEveryStep: goroutines held back at change points and
// yielding still take every step and finish.
func TestPressureTakesEveryStep(t *testing.T) {
	x := New(Config{Seed: 7, ChangeEvery: 8, DelaySteps: 16, MaxYields: 50, YieldEvery: 4}, []string{"s"})
	var wg sync.WaitGroup
	for i := 0; i < 4; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 500; i++ {
				x.At(0)
			}
		}()
	}
	wg.Wait()
	if x.Steps() != 2000 {
		t.Errorf("Steps() = %d, want 2000", x.Steps())
	}
	if splitmix(1) == splitmix(2) {
		t.Error("splitmix maps two inputs to one output")
	}
}

// TestBreakOnceWhileStepsRun: a breakpoint installed while another
// goroutine is taking steps runs on that goroutine and reads what the
// test wrote before installing it. Under -race this fails if the
// explorer's quiet load of the breakpoint is all that orders the two
// (the race detector does not see it), as it did for a worker still at a
// step of the previous call when a test set its breakpoint.
func TestBreakOnceWhileStepsRun(t *testing.T) {
	x := New(Config{}, []string{"step"})
	stop, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		for {
			select {
			case <-stop:
				return
			default:
				x.At(0)
			}
		}
	}()
	want := 0
	want = 42 // written after the goroutine started: no edge but the breakpoint's
	hit := make(chan int, 1)
	clear := x.BreakOnce("step", func() { hit <- want })
	if got := <-hit; got != 42 {
		t.Errorf("the breakpoint read %d, want 42", got)
	}
	clear()
	close(stop)
	<-done
}
