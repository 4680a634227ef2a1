package compat_test

import (
	"testing"

	"github.com/poolkit/poolkit/compat"
	"github.com/poolkit/poolkit/spectest"
)

// implementation describes a compat adapter to the suite. Supports is a
// property of the adapter type: asking a nil one builds no pool (pond's
// must not be built outside the clause's bubble).
func implementation[A interface {
	spectest.Pool
	Supports(spectest.Capability) bool
}](name string, isolate bool, build func(spectest.Config) (A, error), known, notes map[string]string) spectest.Implementation {
	var zero A
	return spectest.Implementation{
		Name:     name,
		New:      func(c spectest.Config) (spectest.Pool, error) { return build(c) },
		Supports: zero.Supports,
		Isolate:  isolate,
		Known:    known,
		Notes:    notes,
	}
}

// implementations lists what the matrix covers, in column order.
func implementations() []spectest.Implementation {
	return []spectest.Implementation{
		implementation("poolkit", false, compat.NewPoolkit, nil, nil),
		implementation("ants", true, compat.NewAnts, knownAnts, nil),
		implementation("ants-func", true, compat.NewAntsFunc, knownAntsFunc, nil),
		implementation("ants-func-any", true, compat.NewAntsFuncAny, knownAntsFuncAny, nil),
		implementation("ants-multi", true, compat.NewAntsMulti, knownAntsMulti, nil),
		implementation("ants-multi-func", true, compat.NewAntsMultiFunc, knownAntsMultiFunc, nil),
		implementation("poolkit-ants", false, compat.NewPoolkitAnts, knownPoolkitAnts, nil),
		implementation("poolkit-ants-func", false, compat.NewPoolkitAntsFunc, knownPoolkitAntsFunc, nil),
		implementation("poolkit-ants-func-any", false, compat.NewPoolkitAntsFuncAny, knownPoolkitAntsFuncAny, nil),
		implementation("poolkit-ants-multi", false, compat.NewPoolkitAntsMulti, knownPoolkitAntsMulti, nil),
		implementation("poolkit-ants-multi-func", false, compat.NewPoolkitAntsMultiFunc, knownPoolkitAntsMultiFunc, nil),
		implementation("pond", true, compat.NewPond, knownPond, notesPond),
		implementation("tunny", true, compat.NewTunny, knownTunny, notesTunny),
		implementation("conc", true, compat.NewConc, knownConc, nil),
		implementation("errgroup", true, compat.NewErrgroup, knownErrgroup, nil),
		implementation("workerpool", true, compat.NewWorkerpool, knownWorkerpool, nil),
		implementation("actor-router", false, compat.NewActorRouter, knownActorRouter, nil),
	}
}

// results collects every cell of a run for MATRIX.md.
var results = map[string][]spectest.Result{}

// TestConformance runs every clause against every implementation.
func TestConformance(t *testing.T) {
	for _, impl := range implementations() {
		t.Run(impl.Name, func(t *testing.T) {
			results[impl.Name] = spectest.Run(t, impl)
		})
	}
}
