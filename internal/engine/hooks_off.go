//go:build !poolkit_hooks

package engine

// hooksOn says whether the interleaving hooks and the invariant checks are
// compiled in (build tag poolkit_hooks). Code under "if hooksOn" is removed
// from a normal build.
const hooksOn = false

func hook(hookPoint) {}

func invariant(bool, string, ...any) {}

// suspendInterleaving removes the installed interleaving until restore is
// called; tests of the engine's parts use it to run at full speed.
func suspendInterleaving() (restore func()) { return func() {} }

func tally(tallyKind) {}
