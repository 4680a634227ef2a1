//go:build poolkit_hooks

package actorpool

// SetInterleaveSeed installs the seeded yields of hooks_on.go.
func SetInterleaveSeed(seed uint64) { interleaveSeed.Store(seed) }
