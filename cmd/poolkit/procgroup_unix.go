//go:build unix

package main

import (
	"os/exec"
	"syscall"
)

// ownGroup puts cmd in a process group of its own, and makes the
// cancelling of its context interrupt that whole group, as a Ctrl-C
// does a terminal's: the go command and the test binary it runs, or the
// compiler and linker of a build, stop with it, and the go command
// waits for its children first. (A terminal's Ctrl-C reaches poolkit
// alone, which passes it on.) What still runs WaitDelay later is killed.
func ownGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGINT) }
}
