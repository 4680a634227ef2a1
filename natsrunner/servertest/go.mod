module github.com/poolkit/poolkit/natsrunner/servertest

go 1.23.0

replace (
	github.com/poolkit/poolkit => ../../
	github.com/poolkit/poolkit/natsrunner => ../
)

require (
	github.com/nats-io/nats-server/v2 v2.11.8
	github.com/nats-io/nats.go v1.48.0
	github.com/panjf2000/ants/v2 v2.12.1
	github.com/poolkit/poolkit v0.1.0
	github.com/poolkit/poolkit/natsrunner v0.1.0
	go.uber.org/goleak v1.3.0
)

require (
	github.com/google/go-tpm v0.9.8 // indirect
	github.com/klauspost/compress v1.18.4 // indirect
	github.com/minio/highwayhash v1.0.4 // indirect
	github.com/nats-io/jwt/v2 v2.8.0 // indirect
	github.com/nats-io/nkeys v0.4.11 // indirect
	github.com/nats-io/nuid v1.0.1 // indirect
	golang.org/x/crypto v0.41.0 // indirect
	golang.org/x/sync v0.16.0 // indirect
	golang.org/x/sys v0.35.0 // indirect
	golang.org/x/time v0.12.0 // indirect
)
