package natsrunner

import (
	"context"
	"math"

	"github.com/poolkit/poolkit/autoscale"
)

// AutoscaleOptions returns the options that let an autoscale.Controller
// of the runner's pool see what only the runner sees:
//
//   - the consumer's backlog (Backlog: NumPending, one consumer info
//     request a tick), through autoscale.WithBacklog. The runner pulls only
//     what the pool can start, so demand never shows as a queue in the
//     pool; the backlog is where it waits. It is the consumer's whole
//     backlog, shared by every replica pulling from it, so each replica
//     sizes itself to drain all of it; the controller's ceiling and its
//     knee and failure probes bound that, and replicas added by a
//     backlog-driven scaler (KEDA) drain it sooner, after which every
//     replica's controller shrinks.
//   - the handler failures (Stats.Failed: errors and panics), through
//     autoscale.WithFailures: failures that grow with the number of
//     handlers running make the controller back off.
//
// The pool's own measurements (service time, throughput) the controller
// reads from the pool itself:
//
//	ctl, err := autoscale.New(p, append(r.AutoscaleOptions(), autoscale.WithMax(64))...)
func (r *Runner) AutoscaleOptions() []autoscale.Option {
	return []autoscale.Option{
		autoscale.WithBacklog(func(ctx context.Context) (int, error) {
			n, err := r.Backlog(ctx)
			return int(min(n, math.MaxInt32)), err
		}),
		autoscale.WithFailures(func() uint64 { return r.failed.Load() }),
	}
}
