module github.com/poolkit/poolkit/compat

go 1.25.0

replace github.com/poolkit/poolkit => ../

replace github.com/poolkit/poolkit/spec_test => ../spec_test

require (
	github.com/Jeffail/tunny v0.1.4
	github.com/alitto/pond/v2 v2.7.1
	github.com/panjf2000/ants/v2 v2.12.1
	github.com/poolkit/poolkit v0.0.0-00010101000000-000000000000
	github.com/poolkit/poolkit/spec_test v0.0.0-00010101000000-000000000000
	go.uber.org/goleak v1.3.0
)

require (
	github.com/anishathalye/porcupine v1.3.1 // indirect
	golang.org/x/sync v0.11.0 // indirect
	pgregory.net/rapid v1.3.0 // indirect
)
