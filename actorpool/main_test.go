package actorpool_test

import (
	"fmt"
	"os"
	"testing"

	"go.uber.org/goleak"
)

func TestMain(m *testing.M) {
	if seed := startInterleaving(); seed != 0 {
		fmt.Fprintf(os.Stderr, "actorpool: interleaving seed %d (run again with ACTORPOOL_SEED=%d)\n", seed, seed)
	}
	goleak.VerifyTestMain(m)
}
