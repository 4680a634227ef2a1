//go:build !poolkit_hooks

package actorpool

func hook(hookPoint) {}
