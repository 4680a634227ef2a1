module github.com/poolkit/poolkit

go 1.25

require (
	github.com/alitto/pond/v2 v2.7.1
	github.com/anishathalye/porcupine v1.3.1
	github.com/panjf2000/ants/v2 v2.12.1
	go.uber.org/goleak v1.3.0
	pgregory.net/rapid v1.3.0
)

require (
	github.com/Jeffail/tunny v0.1.4 // indirect
	golang.org/x/sync v0.11.0 // indirect
)
