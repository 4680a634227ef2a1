package bench

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/poolkit/poolkit/pool"
)

// A service under overload: requests arrive faster than the workers can
// serve them, half of them urgent, each with a deadline. What counts is
// goodput: the requests answered within their deadline, by class. Each
// request is handled as a server handles one, on a goroutine of its own
// that hands the work to the pool and waits for the answer or the
// deadline, whichever comes first.
//
// poolkit's Scheduler is compared with what services do without one: a
// plain FIFO pool, into which every request goes and waits its turn, and
// a concurrency limiter in front of a plain pool, which refuses a request
// when as many are in flight as the workers and a short queue hold.

const (
	overloadWorkers  = 8
	overloadService  = time.Millisecond      // each request sleeps this long on a worker
	overloadDeadline = 10 * time.Millisecond // from its arrival
	overloadPerTick  = 12                    // requests a millisecond: 1.5 times what 8 workers of 1 ms serve
	overloadMaxWait  = overloadDeadline / 2  // the Scheduler's WithMaxWait: a request that waited longer would likely be late
	overloadInFlight = 2 * overloadWorkers   // the limiter's bound: the workers, and as many waiting
)

// overloadRunner serves requests: Do returns once the request's work has
// run, or once it will not run in time (refused, shed, expired, or its
// deadline passed while it waited). The work itself counts whether it
// ended in time: work that runs after its handler gave up is late.
type overloadRunner interface {
	Do(ctx context.Context, urgent bool, work func())
	Close() error
}

type overloadContender struct {
	name string
	make func() (overloadRunner, error)
}

func overloadContenders() []overloadContender {
	return []overloadContender{
		{"poolkit", func() (overloadRunner, error) { return newScheduledRunner(pool.WithMaxWait(overloadMaxWait)) }},
		{"poolkit-no-max-wait", func() (overloadRunner, error) { return newScheduledRunner() }},
		{"fifo-pool", newFIFORunner},
		{"limiter+pool", newLimitedRunner},
	}
}

func overloadClasses() Workload {
	return Workload{
		Name: "OverloadClasses",
		About: fmt.Sprintf("a service at 1.5x capacity: %d requests a millisecond, half urgent, each %v of work on %d workers with a %v deadline; "+
			"the time per op shown is the run's time per request answered in time (lower is more goodput); good-urgent-%% and good-other-%% are "+
			"the share of each class answered in time; one op is one request", overloadPerTick, overloadService, overloadWorkers, overloadDeadline),
		Quick: "1s", Full: "3s",
		Cases: eachOverload(overloadGoodput),
	}
}

func eachOverload(f func(c overloadContender) func(*testing.B)) []Case {
	var cases []Case
	for _, c := range overloadContenders() {
		cases = append(cases, Case{Impl: c.name, F: f(c)})
	}
	return cases
}

// overloadGoodput sends b.N requests, overloadPerTick each millisecond,
// alternately urgent and not, and counts those answered by their deadline.
func overloadGoodput(c overloadContender) func(*testing.B) {
	return func(b *testing.B) {
		r, err := c.make()
		if err != nil {
			problem(b, c.name, err.Error())
		}
		var good, sent [2]atomic.Int64 // by class: 0 other, 1 urgent
		var late atomic.Int64          // requests whose work ran but ended after their deadline: wasted
		var handlers sync.WaitGroup
		b.ReportAllocs()
		b.ResetTimer()
		start := time.Now()
		tick := time.NewTicker(time.Millisecond)
		for i := 0; i < b.N; {
			<-tick.C
			for range overloadPerTick {
				if i == b.N {
					break
				}
				urgent := i%2 == 0
				class := 0
				if urgent {
					class = 1
				}
				i++
				sent[class].Add(1)
				handlers.Go(func() {
					deadline := time.Now().Add(overloadDeadline)
					ctx, cancel := context.WithDeadline(context.Background(), deadline)
					defer cancel()
					r.Do(ctx, urgent, func() {
						time.Sleep(overloadService)
						if time.Now().After(deadline) {
							late.Add(1)
						} else {
							good[class].Add(1)
						}
					})
				})
			}
		}
		tick.Stop()
		handlers.Wait()
		elapsed := time.Since(start)
		b.StopTimer()
		if err := r.Close(); err != nil {
			problem(b, c.name, fmt.Sprintf("Close = %v", err))
		}
		total := good[0].Load() + good[1].Load()
		b.ReportMetric(100*float64(good[1].Load())/float64(max(1, sent[1].Load())), "good-urgent-%")
		b.ReportMetric(100*float64(good[0].Load())/float64(max(1, sent[0].Load())), "good-other-%")
		// The pace is the same for everyone: the op's figure, and the
		// ratio the report ranks by, is the time per request answered in
		// time.
		b.ReportMetric(float64(elapsed.Nanoseconds())/float64(max(1, total)), "ns/op")
		b.ReportMetric(100*float64(late.Load())/float64(b.N), "late-%")
	}
}

// scheduledRunner is poolkit's Scheduler: urgent requests in class 1,
// the others in class 0, the request's deadline on its context; "poolkit"
// adds WithMaxWait(overloadMaxWait), and "poolkit-no-max-wait" shows what
// the deadlines alone do.
type scheduledRunner struct {
	p *pool.Pool
	s *pool.Scheduler
}

func newScheduledRunner(opts ...pool.SchedulerOption) (overloadRunner, error) {
	p, err := pool.New(overloadWorkers)
	if err != nil {
		return nil, err
	}
	s, err := pool.NewScheduler(p, opts...)
	if err != nil {
		return nil, err
	}
	return scheduledRunner{p, s}, nil
}

func (r scheduledRunner) Do(ctx context.Context, urgent bool, work func()) {
	var c pool.Class
	if urgent {
		c = 1
	}
	f, err := pool.Schedule(ctx, r.s, c, func() (struct{}, error) { work(); return struct{}{}, nil })
	if err == nil {
		_, _ = f.Wait(ctx)
	}
}

func (r scheduledRunner) Close() error { return r.p.Shutdown(context.Background()) }

// fifoRunner is a plain pool: a request waits for room as its context
// allows, and once queued it runs, however late, while its handler gives
// up at the deadline.
type fifoRunner struct{ p *pool.Pool }

func newFIFORunner() (overloadRunner, error) {
	p, err := pool.New(overloadWorkers)
	return fifoRunner{p}, err
}

func (r fifoRunner) Do(ctx context.Context, _ bool, work func()) {
	done := make(chan struct{})
	if err := r.p.Submit(ctx, func() { work(); close(done) }); err != nil {
		return
	}
	select {
	case <-done:
	case <-ctx.Done():
	}
}

func (r fifoRunner) Close() error { return r.p.Shutdown(context.Background()) }

// limitedRunner refuses a request when overloadInFlight are in flight
// (the usual fixed concurrency limit in front of a pool), and hands the
// others to a plain pool. It knows nothing of classes.
type limitedRunner struct {
	fifoRunner
	inFlight atomic.Int64
}

func newLimitedRunner() (overloadRunner, error) {
	p, err := pool.New(overloadWorkers)
	return &limitedRunner{fifoRunner: fifoRunner{p}}, err
}

func (r *limitedRunner) Do(ctx context.Context, urgent bool, work func()) {
	if r.inFlight.Add(1) > overloadInFlight {
		r.inFlight.Add(-1)
		return
	}
	defer r.inFlight.Add(-1)
	r.fifoRunner.Do(ctx, urgent, work)
}
