package spectest_test

import (
	"flag"
	"fmt"
	"os"
	"testing"

	"go.uber.org/goleak"

	"github.com/poolkit/poolkit/spec_test"
)

var (
	update    = flag.Bool("update", false, "rewrite MATRIX.md from this run's results")
	matrixOut = flag.String("matrix-out", "", "write the matrix this run found to this file instead of checking MATRIX.md")
)

// TestMain checks for leaked goroutines, except in the child processes the
// suite starts: a leak there is the result of the pool under test.
func TestMain(m *testing.M) {
	flag.Parse()
	if spectest.IsChild() {
		os.Exit(m.Run())
	}
	code := m.Run()
	if code == 0 {
		// ants starts a package-level pool at import; it predates every test.
		if err := goleak.Find(ignoreAnts...); err != nil {
			fmt.Fprintln(os.Stderr, "goleak:", err)
			code = 1
		}
	}
	os.Exit(code)
}

var ignoreAnts = []goleak.Option{
	goleak.IgnoreAnyFunction("github.com/panjf2000/ants/v2.(*poolCommon).purgeStaleWorkers"),
	goleak.IgnoreAnyFunction("github.com/panjf2000/ants/v2.(*poolCommon).ticktock"),
}
