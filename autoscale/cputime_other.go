//go:build !unix

package autoscale

import "time"

// processCPU reports that this platform's CPU time is not read: the law
// then learns the work's class from its experiments alone.
func processCPU() (time.Duration, bool) { return 0, false }
