//go:build poolkit_hooks

package pool

import "github.com/poolkit/poolkit/internal/engine"

// The engine's interleaving explorer, for the hooked tests of this package.
type InterleavingConfig = engine.InterleavingConfig

var (
	DefaultInterleaving = engine.DefaultInterleaving
	Interleave          = engine.Interleave
	BreakOnce           = engine.BreakOnce
)
