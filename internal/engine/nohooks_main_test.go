//go:build !poolkit_hooks

package engine

import "io"

func startInterleaving(io.Writer) (stop func()) { return func() {} }

// recentSteps is empty without the hooks: there is no trace to show.
func recentSteps() string { return "" }
