//go:build poolkit_hooks

package engine

import (
	"flag"
	"fmt"
	"io"
	"time"
)

var seedFlag = flag.Uint64("engine.seed", 0, "interleaving seed for the poolkit_hooks run (0: pick one and print it)")

// startInterleaving installs the run's interleaving and says which seed it
// uses, so that a failure can be run again under the same pressure.
func startInterleaving(w io.Writer) (stop func()) {
	seed := *seedFlag
	if seed == 0 {
		seed = uint64(time.Now().UnixNano())
	}
	fmt.Fprintf(w, "engine: interleaving seed %d (run again with -engine.seed=%d)\n", seed, seed)
	return Interleave(DefaultInterleaving(seed))
}

// recentSteps is the trace of the last protocol steps, for a stuck test's
// report: once an engine is stuck no step is taken, so the trace ends with
// the steps that led there.
func recentSteps() string { return "last steps: " + RecentSteps() }
