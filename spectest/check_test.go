package spectest_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/poolkit/poolkit/spectest"
)

// lossyPool is tinyPool with a bug: after a close, Submit reports success
// and drops the task.
type lossyPool struct{ *tinyPool }

func (p lossyPool) Submit(task func()) error {
	if err := p.tinyPool.Submit(task); !errors.Is(err, errClosed) {
		return err
	}
	return nil
}

// TestCheck: Check's verdict is nil for a pool that keeps every clause
// that applies to it, and names each clause a pool breaks, or that it
// keeps although Known lists it, with what the clause saw.
func TestCheck(t *testing.T) {
	t.Run("tinypool", func(t *testing.T) {
		if err := spectest.Check(t, tinyImpl); err != nil {
			t.Errorf("Check(tinypool) = %v, want nil", err)
		}
	})
	t.Run("lossy", func(t *testing.T) {
		lossy := tinyImpl
		lossy.Name = "lossy"
		lossy.New = func(c spectest.Config) (spectest.Pool, error) {
			p, err := newTinyPool(c)
			if err != nil {
				return nil, err
			}
			return lossyPool{p}, nil
		}
		lossy.Known = map[string]string{"SUB-7": "listed, but the pool keeps it"}
		err := spectest.Check(t, lossy)
		if spectest.IsChild() {
			return
		}
		if err == nil {
			t.Fatal("Check(lossy) = nil, want CLS-1 and SUB-7 named")
		}
		failed := map[string]*spectest.ClauseError{}
		for _, e := range err.(interface{ Unwrap() []error }).Unwrap() {
			var ce *spectest.ClauseError
			if !errors.As(e, &ce) {
				t.Fatalf("Check(lossy) joined %T (%v), want *spectest.ClauseError", e, e)
			}
			failed[ce.ID] = ce
		}
		cls1 := failed["CLS-1"]
		if cls1 == nil {
			t.Fatalf("Check(lossy) = %v; want CLS-1 among the failures", err)
		}
		if !strings.Contains(cls1.Saw, "Submit after close = <nil>") {
			t.Errorf("CLS-1 saw %q, want what the clause saw: Submit after close = <nil>", cls1.Saw)
		}
		if msg := err.Error(); !strings.Contains(msg, "CLS-1: "+cls1.Title) {
			t.Errorf("the verdict does not name CLS-1 with its promise:\n%s", msg)
		}
		if sub7 := failed["SUB-7"]; sub7 == nil || !strings.Contains(sub7.Saw, "Known lists it") {
			t.Errorf("SUB-7 (listed in Known, kept) reported as %v; want it named as a divergence that did not show", sub7)
		}
	})
}

// unboundedPool runs each task on a goroutine of its own at once: it never
// blocks, whatever its size.
type unboundedPool struct{ *tinyPool }

func newUnboundedPool(c spectest.Config) (spectest.Pool, error) {
	p, err := newTinyPool(c)
	if err != nil {
		return nil, err
	}
	p.slots = make(chan struct{}, 1<<20)
	return unboundedPool{p}, nil
}

// TestRunResults: Run returns one result per clause, in clause order,
// among them a clause found not to apply while it ran in this process
// (CLS-2 cannot saturate a pool that never blocks).
func TestRunResults(t *testing.T) {
	results := spectest.Run(t, spectest.Implementation{
		Name: "unbounded",
		New:  newUnboundedPool,
		Known: map[string]string{
			"SUB-2": "never blocks",
			"CAP-1": "runs every task at once",
			"CAP-5": spectest.Intermittent + "runs tasks above the capacity when they overlap",
		},
	})
	if spectest.IsChild() {
		return
	}
	clauses := spectest.Clauses()
	if len(results) != len(clauses) {
		t.Fatalf("%d results for %d clauses", len(results), len(clauses))
	}
	for i, r := range results {
		if r.Clause != clauses[i].ID || r.Impl != "unbounded" || r.Status == "" {
			t.Errorf("result %d is %+v, want clause %s of unbounded, with a status", i, r, clauses[i].ID)
		}
		if r.Clause == "CLS-2" && (r.Status != spectest.NA || !strings.Contains(r.Note, "cannot be saturated")) {
			t.Errorf("CLS-2: %+v, want n.a. because the pool cannot be saturated", r)
		}
	}
}
