// Package hotpath benchmarks poolkit's own hot paths: submitting tiny
// tasks to a Pool, invoking a FuncPool, the ants drop-in's blocking
// Invoke, and the actor runtime's router, ping-pong, fan-in and Ask. One
// op is one task or one message wherever a benchmark allows it, so that
// ns/op is the cost per task.
//
// It is the regression guard of `go run ./cmd/poolkit compare`, which
// builds these benchmarks against an earlier revision and against the
// working tree and runs them interleaved. For that its files import only
// the standard library and poolkit's public API (pool, ants, actorpool,
// and goleak in the tests' TestMain): a copy of them builds against any
// revision of poolkit whose API they use, in a scratch module that
// requires nothing else. The benchmark names are what is compared across
// revisions: keep them stable.
package hotpath
