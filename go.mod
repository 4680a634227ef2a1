module github.com/poolkit/poolkit

go 1.21.0

require (
	github.com/anishathalye/porcupine v1.3.1
	go.uber.org/goleak v1.3.0
	pgregory.net/rapid v1.2.0
)
