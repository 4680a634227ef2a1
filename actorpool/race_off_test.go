//go:build !race

package actorpool_test

const raceEnabled = false
