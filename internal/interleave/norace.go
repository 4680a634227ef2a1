//go:build !race

package interleave

// Quiet and Loud matter only under -race (race.go).
func Quiet() {}

// Loud ends what Quiet began.
func Loud() {}
