package spectest_test

import (
	"context"
	"fmt"

	"github.com/poolkit/poolkit/pool"
	"github.com/poolkit/poolkit/spec_test"
)

// myPool stands for a pool of your own; here it wraps poolkit's.
type myPool struct{ p *pool.Pool }

func (m myPool) Submit(task func()) error          { return m.p.Submit(task) }
func (m myPool) Release(ctx context.Context) error { return m.p.ReleaseContext(ctx) }

// Example shows how to run the suite against a pool of your own: describe
// it as an Implementation and call Run from a test function:
//
//	func TestMyPool(t *testing.T) { spectest.Run(t, impl) }
//
// Clauses that need a capability the pool lacks (Resize, SubmitContext,
// Running/Waiting, ...) are reported as not applicable.
func Example() {
	impl := spectest.Implementation{
		Name: "mypool",
		New: func(c spectest.Config) (spectest.Pool, error) {
			p, err := pool.New(c.Size)
			return myPool{p}, err
		},
		Known: map[string]string{}, // clause ID -> a divergence you know of
	}
	fmt.Println(impl.Name, len(spectest.Clauses()), "clauses")
	// Output: mypool 48 clauses
}
