// Package servertest holds the tests, the benchmark and the example of
// natsrunner that run a NATS server in-process (nats-server) or compare
// the runner with an ants pool. They are a module of their own, so that
// nats-server and ants, which only they need, stay out of the module
// graph of every module that requires natsrunner. The package itself is
// empty: its test files test natsrunner through its exported API.
package servertest
