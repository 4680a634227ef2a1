// Package ants is empty: it is where the test files of ants v2.12.1,
// rewritten to import github.com/poolkit/poolkit/ants, are compiled as its
// external tests (package ants_test) by the test in the parent directory.
package ants
