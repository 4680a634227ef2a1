//go:build race

package actorpool_test

const raceEnabled = true
