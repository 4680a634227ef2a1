//go:build !poolkit_hooks

package actorpool_test

func startInterleaving() uint64 { return 0 }
