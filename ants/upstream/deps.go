//go:build tools

// This file is never built. It names what the test files of ants v2.12.1
// import, and ants itself, whose module holds those files, so that the
// module's requirements keep all of them.
package upstream

import (
	_ "github.com/panjf2000/ants/v2"
	_ "github.com/poolkit/poolkit/ants"
	_ "github.com/stretchr/testify/require"
	_ "golang.org/x/sync/errgroup"
)
