package engine

import (
	"context"
	"testing"
)

// TestOnWorker: a caller learns cheaply that it runs outside every engine,
// and a unit, however deep its stack, is never taken for an outsider
// (which would make a wait from inside a task wait for its own slot).
func TestOnWorker(t *testing.T) {
	if onWorker() {
		t.Error("the test's goroutine is taken for a worker")
	}
	var e Engine[func()]
	e.Init(2, func(f func()) { f() }, Config{QueueSize: 4})
	got := make(chan [3]bool, 1)
	var deep func(n int) bool
	deep = func(n int) bool {
		if n == 0 {
			return onWorker()
		}
		return deep(n - 1)
	}
	if err := e.Submit(context.Background(), func() {
		got <- [3]bool{onWorker(), deep(40), deep(200)}
	}); err != nil {
		t.Fatal(err)
	}
	if r := <-got; r != [3]bool{true, true, true} {
		t.Errorf("inside a unit, at depths 0, 40 and 200: onWorker = %v, want all true", r)
	}
	go func() { got <- [3]bool{onWorker()} }()
	if r := <-got; r[0] {
		t.Error("a plain goroutine is taken for a worker")
	}
	<-e.Close()
}
