package eval

import (
	"context"
	"fmt"
	"math"

	"github.com/poolkit/poolkit/autoscale"
	"github.com/poolkit/poolkit/resize"
)

// Fixed keeps the pool at n: the contenders the reference is chosen from.
type Fixed int

func (f Fixed) Name() string { return fmt.Sprintf("fixed-%d", int(f)) }
func (f Fixed) Initial() int { return int(f) }
func (f Fixed) Start(resize.Resizer) (*autoscale.Meter, func(), func()) {
	return new(autoscale.Meter), func() {}, nil
}

// Poolkit is poolkit's autoscaler with the given options.
type Poolkit struct {
	Options []autoscale.Option
	Start0  int
}

func (c Poolkit) Name() string { return "poolkit" }
func (c Poolkit) Initial() int { return max(1, c.Start0) }

// Start returns no meter for a poolkit pool, which measures itself: the
// controller reads it directly. It drives itself, as a service runs it
// (Controller.Run: a tick, and a wake-up when a backlog forms between
// ticks), so it has no tick function; stop ends its Run and waits for it.
func (c Poolkit) Start(r resize.Resizer) (*autoscale.Meter, func(), func()) {
	ctl, err := autoscale.New(r, append([]autoscale.Option{autoscale.WithTick(Tick)}, c.Options...)...)
	if err != nil {
		panic(err)
	}
	var m *autoscale.Meter
	if _, self := r.(autoscale.SelfMeasuring); !self {
		m = ctl.Meter()
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = ctl.Run(ctx)
	}()
	return m, nil, func() { cancel(); <-done }
}

// sizer is a baseline's control law: the size for the next window.
type sizer func(o autoscale.Observation) int

// baseline runs a control law on the same observations poolkit's sees.
func baseline(r resize.Resizer, law sizer) (*autoscale.Meter, func(), func()) {
	m := new(autoscale.Meter)
	obs := autoscale.NewObserver(m)
	return m, func() {
		o := obs.Observe(r.Cap())
		if n := law(o); n != o.Size && n >= 1 {
			_ = r.Resize(n)
		}
	}, nil
}

// AIMD is a port of Netflix concurrency-limits' AIMD limit (Go port rules):
// +1 when every slot is in use, ×0.9 (at least −1) on a drop; a drop is a
// rejection, or a p99 queue wait above SLO when SLO is set.
type AIMD struct {
	Max    int
	SLO    float64 // seconds; 0: rejections only
	Start0 int
}

func (c AIMD) Name() string { return "netflix-aimd" }
func (c AIMD) Initial() int { return max(1, c.Start0) }
func (c AIMD) Start(r resize.Resizer) (*autoscale.Meter, func(), func()) {
	return baseline(r, func(o autoscale.Observation) int {
		n := o.Size
		drop := o.Rejections > 0 || (c.SLO > 0 && o.WaitP99.Seconds() > c.SLO)
		switch {
		case drop:
			n = max(1, min(n-1, int(float64(n)*0.9)))
		case o.BusyNow >= n:
			n++
		}
		return min(n, c.Max)
	})
}

// HPA is the Kubernetes horizontal autoscaler's rule on utilisation:
// desired = ceil(N × U / target) once per sync period, skipped within a
// 10% tolerance, scale-up limited to max(+100%, +4) per period, and
// scale-down to the largest recommendation of a stabilisation window.
// Periods are scaled down from minutes to seconds for a pool.
type HPA struct {
	Max         int
	Target      float64 // utilisation, default 0.8
	SyncTicks   int     // default 4 (1s)
	WindowTicks int     // default 20 (5s)
	Start0      int
}

func (c HPA) Name() string { return "k8s-hpa" }
func (c HPA) Initial() int { return max(1, c.Start0) }
func (c HPA) Start(r resize.Resizer) (*autoscale.Meter, func(), func()) {
	target, sync, window := c.Target, c.SyncTicks, c.WindowTicks
	if target == 0 {
		target = 0.8
	}
	if sync == 0 {
		sync = 4
	}
	if window == 0 {
		window = 20
	}
	var recs []int
	ticks := 0
	var busy float64
	return baseline(r, func(o autoscale.Observation) int {
		ticks++
		busy += o.Busy
		n := o.Size
		if ticks%sync != 0 {
			return n
		}
		u := busy / float64(sync) / float64(n)
		busy = 0
		desired := n
		if ratio := u / target; math.Abs(ratio-1) > 0.1 {
			desired = int(math.Ceil(float64(n) * ratio))
		}
		if o.Queue > 0 && desired <= n && u >= target {
			desired = n + 1 // a backlog with saturated pods counts as above target
		}
		desired = max(1, min(desired, c.Max, max(2*n, n+4)))
		recs = append(recs, desired)
		if len(recs) > window/sync {
			recs = recs[1:]
		}
		if desired < n {
			for _, x := range recs {
				desired = max(desired, x)
			}
			desired = min(desired, n)
		}
		return desired
	})
}

// Akka is a port of Akka's DefaultResizer: grow by ceil(20%) when every
// routee is busy with messages waiting, shrink by 10% when fewer than 30%
// are busy, within [1, Max].
type Akka struct {
	Max    int
	Start0 int
}

func (c Akka) Name() string { return "akka-resizer" }
func (c Akka) Initial() int { return max(1, c.Start0) }
func (c Akka) Start(r resize.Resizer) (*autoscale.Meter, func(), func()) {
	return baseline(r, func(o autoscale.Observation) int {
		n := o.Size
		pressure := 0
		if o.Queue > 0 {
			pressure = o.BusyNow // busy and with messages waiting
		}
		delta := 0
		if pressure >= n {
			delta = int(math.Ceil(0.2 * float64(n)))
		}
		if n > 0 && float64(o.BusyNow)/float64(n) < 0.3 {
			delta += int(math.Floor(-0.1 * float64(n)))
		}
		return max(1, min(c.Max, n+delta))
	})
}
