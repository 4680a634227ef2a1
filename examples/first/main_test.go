package main

import (
	"testing"

	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// Example runs the first program as the README shows it.
func Example() {
	main()
	// Output:
	// hello from a task
	// sum: 5050 completed: 101 capacity: 8
}
