//go:build unix

package autoscale

import (
	"syscall"
	"time"
)

// processCPU returns the CPU time the process has used so far, user and
// system, and whether the platform reports it.
func processCPU() (time.Duration, bool) {
	var r syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &r); err != nil {
		return 0, false
	}
	return time.Duration(r.Utime.Nano() + r.Stime.Nano()), true
}
