//go:build poolkit_hooks && !race

package pool

func quiet() {}
func loud()  {}
