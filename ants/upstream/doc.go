// Package upstream runs the test suite of ants v2.12.1 against
// github.com/poolkit/poolkit/ants, the drop-in: the external test files of
// ants (ants_test.go, ants_benchmark_test.go, example_test.go) are read from
// the module cache when the test runs, their import of ants is rewritten to
// the drop-in's path, and nothing else in them changes. They are compiled
// into the package in ./suite through an overlay, never copied into the
// repository.
//
// Every test, example and benchmark runs in a process of its own, so that a
// test that crashes (one that ignores a constructor's error and uses the nil
// pool) fails alone and no test sees another's leftovers. Each must pass,
// except those in known-failures.txt: tests that assert a behaviour where
// ants breaks its own contract and the drop-in does not follow it, each
// with its reason and a text its failure must show (none today). A listed
// test that passes, or fails without that text, fails the run.
package upstream
