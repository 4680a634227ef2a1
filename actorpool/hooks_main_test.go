//go:build poolkit_hooks

package actorpool_test

import (
	"os"
	"strconv"
	"time"

	"github.com/poolkit/poolkit/actorpool"
)

// startInterleaving makes every step of the actors' scheduling protocol
// yield from a seeded schedule (the engine's own steps are not pushed in
// this package's run; pool's tests do that).
func startInterleaving() uint64 {
	seed, _ := strconv.ParseUint(os.Getenv("ACTORPOOL_SEED"), 10, 64)
	if seed == 0 {
		seed = uint64(time.Now().UnixNano())
	}
	actorpool.SetInterleaveSeed(seed)
	return seed
}
