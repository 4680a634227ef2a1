// Package actors compares poolkit's actor runtime (actorpool) with the Go
// actor libraries people use instead, protoactor-go and GoAkt, on the
// workloads that tell an actor runtime apart: ping-pong pairs, sequential
// Ask, fan-in, fan-out over many idle actors, pool routers, and, for
// poolkit alone, the turn budget and the serializer.
//
// It is a module of its own so that poolkit's root module never depends
// on the libraries it is measured against. Each library sits behind
// System (one package per library), so every workload is written once and
// runs over all of them in the same process, one contender after the
// other for each workload:
//
//	go test -run '^$' -bench . ./... | benchstat -col /impl -
//
// The poolkit command runs these benchmarks in rounds for its actor table
// (poolkit actors).
//
// protoactor-go pins OpenTelemetry v1.21, whose SDK does not build beside
// the v1.43 API GoAkt needs; this module selects the newer SDK and
// Prometheus exporter, against which protoactor-go builds unchanged (the
// benchmarks do not turn its metrics on).
package actors
