module github.com/poolkit/poolkit/natsrunner

go 1.23.0

replace github.com/poolkit/poolkit => ../

require (
	github.com/nats-io/nats.go v1.48.0
	github.com/poolkit/poolkit v0.1.0
)

require (
	github.com/klauspost/compress v1.18.4 // indirect
	github.com/nats-io/nkeys v0.4.11 // indirect
	github.com/nats-io/nuid v1.0.1 // indirect
	golang.org/x/crypto v0.41.0 // indirect
	golang.org/x/sys v0.35.0 // indirect
)
