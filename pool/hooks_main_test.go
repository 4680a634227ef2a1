//go:build poolkit_hooks

package pool_test

import (
	"flag"
	"fmt"
	"io"
	"time"

	"github.com/poolkit/poolkit/pool"
)

var seedFlag = flag.Uint64("pool.seed", 0, "interleaving seed for the poolkit_hooks run (0: pick one and print it)")

// startInterleaving installs the run's interleaving and says which seed it
// uses, so that a failure can be run again under the same pressure.
func startInterleaving(w io.Writer) (stop func()) {
	seed := *seedFlag
	if seed == 0 {
		seed = uint64(time.Now().UnixNano())
	}
	fmt.Fprintf(w, "pool: interleaving seed %d (run again with -pool.seed=%d)\n", seed, seed)
	return pool.Interleave(pool.DefaultInterleaving(seed))
}
