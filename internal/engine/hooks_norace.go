//go:build poolkit_hooks && !race

package engine

func quiet() {}
func loud()  {}
