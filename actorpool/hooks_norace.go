//go:build poolkit_hooks && !race

package actorpool

func quiet() {}
func loud()  {}
