module github.com/poolkit/poolkit/compat

go 1.25.0

replace github.com/poolkit/poolkit => ../

replace github.com/poolkit/poolkit/spectest => ../spectest

require (
	github.com/Jeffail/tunny v0.1.4
	github.com/alitto/pond/v2 v2.7.1
	github.com/gammazero/workerpool v1.1.3
	github.com/panjf2000/ants/v2 v2.12.1
	github.com/poolkit/poolkit v0.1.0
	github.com/poolkit/poolkit/spectest v0.1.0
	github.com/sourcegraph/conc v0.3.0
	go.uber.org/goleak v1.3.0
	golang.org/x/sync v0.20.0
)

require (
	github.com/anishathalye/porcupine v1.3.1 // indirect
	github.com/gammazero/deque v0.2.0 // indirect
	go.uber.org/atomic v1.7.0 // indirect
	go.uber.org/multierr v1.9.0 // indirect
	pgregory.net/rapid v1.3.0 // indirect
)
