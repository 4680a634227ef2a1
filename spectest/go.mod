module github.com/poolkit/poolkit/spectest

go 1.25.0

replace github.com/poolkit/poolkit => ../

require (
	github.com/anishathalye/porcupine v1.3.1
	github.com/poolkit/poolkit v0.1.0
	go.uber.org/goleak v1.3.0
	pgregory.net/rapid v1.3.0
)
