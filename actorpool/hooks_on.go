//go:build poolkit_hooks

package actorpool

import (
	"sync/atomic"

	"github.com/poolkit/poolkit/internal/interleave"
)

// Under the poolkit_hooks build tag every step of the actors' scheduling
// protocol runs through the installed interleaving explorer
// (internal/interleave, the engine's too): seeded yields, and the
// breakpoints of tests.
var current atomic.Pointer[interleave.Explorer]

func hook(p hookPoint) {
	if x := current.Load(); x != nil {
		x.At(uint8(p))
	}
}

// hookNames name the steps, for traces and breakpoints.
var hookNames = [numHookPoints]string{
	"scheduled", "yield", "idle", "reclaim", "stop", "route", "put", "stall-swapped",
}
