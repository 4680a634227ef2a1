module github.com/poolkit/poolkit/cmd/poolkit

go 1.25.0

replace github.com/poolkit/poolkit => ../../

replace github.com/poolkit/poolkit/compat => ../../compat

replace github.com/poolkit/poolkit/spectest => ../../spectest

replace github.com/poolkit/poolkit/bench => ../../bench

replace github.com/poolkit/poolkit/autoscale/eval => ../../autoscale/eval

require (
	github.com/poolkit/poolkit/autoscale/eval v0.1.0
	github.com/poolkit/poolkit/bench v0.1.0
	github.com/poolkit/poolkit/spectest v0.1.0
	github.com/schollz/progressbar/v3 v3.17.1
	go.uber.org/automaxprocs v1.6.0
	go.uber.org/goleak v1.3.0
	golang.org/x/perf v0.0.0-20260512194132-3cf34090a3db
	golang.org/x/term v0.26.0
)

require (
	github.com/HdrHistogram/hdrhistogram-go v1.1.2 // indirect
	github.com/Jeffail/tunny v0.1.4 // indirect
	github.com/aclements/go-moremath v0.0.0-20210112150236-f10218a38794 // indirect
	github.com/alitto/pond/v2 v2.7.1 // indirect
	github.com/anishathalye/porcupine v1.3.1 // indirect
	github.com/gammazero/deque v0.2.0 // indirect
	github.com/gammazero/workerpool v1.1.3 // indirect
	github.com/mitchellh/colorstring v0.0.0-20190213212951-d06e56a500db // indirect
	github.com/panjf2000/ants/v2 v2.12.1 // indirect
	github.com/poolkit/poolkit v0.1.0 // indirect
	github.com/poolkit/poolkit/compat v0.1.0 // indirect
	github.com/rivo/uniseg v0.4.7 // indirect
	github.com/sourcegraph/conc v0.3.0 // indirect
	go.uber.org/atomic v1.7.0 // indirect
	go.uber.org/multierr v1.9.0 // indirect
	golang.org/x/sync v0.20.0 // indirect
	golang.org/x/sys v0.44.0 // indirect
	gonum.org/v1/gonum v0.15.1 // indirect
	pgregory.net/rapid v1.3.0 // indirect
)
