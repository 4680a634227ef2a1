// Service is an example of a program that exports poolkit's metrics: a
// pool sized by an autoscaler under a load that varies, and an actor
// system with a router, all watched by one promcollector.Collector and
// served on /metrics until SIGINT or SIGTERM.
//
//	go run ./promcollector/example/service -addr 127.0.0.1:9464
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log"
	"math"
	"math/rand"
	"net"
	"net/http"
	"os"
	"os/signal"
	"sync"
	"syscall"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/poolkit/poolkit/actorpool"
	"github.com/poolkit/poolkit/autoscale"
	"github.com/poolkit/poolkit/pool"
	"github.com/poolkit/poolkit/promcollector"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:9464", "address to serve /metrics on")
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, *addr, func(a net.Addr) { fmt.Printf("serving metrics on http://%s/metrics\n", a) })
	stop()
	if err != nil {
		log.Fatal(err)
	}
}

// period is the period of the synthetic load: it rises from a trickle to a
// peak and falls back, so that the autoscaler has something to follow.
const period = 40 * time.Second

// run serves the metrics of a pool, its autoscaler, an actor system and a
// router on addr, under load, until ctx is done; ready is called with the
// address listened on once the server accepts connections. It returns nil
// after a clean shutdown.
func run(ctx context.Context, addr string, ready func(net.Addr)) (err error) {
	p, err := pool.New(2, pool.WithTimings()) // the histograms and the autoscaler read them
	if err != nil {
		return err
	}
	defer func() {
		err = errors.Join(err, p.Shutdown(context.Background()))
	}()
	ctl, err := autoscale.New(p, autoscale.WithMin(2), autoscale.WithMax(64), autoscale.WithTick(250*time.Millisecond))
	if err != nil {
		return err
	}
	sys, err := actorpool.New()
	if err != nil {
		return err
	}
	defer func() {
		sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		err = errors.Join(err, sys.Shutdown(sctx))
	}()
	r, err := actorpool.NewRouter(sys, 4, func() actorpool.Behavior { return &tally{} },
		actorpool.WithTimings()) // the mailbox wait and handling histograms
	if err != nil {
		return err
	}

	c := promcollector.New()
	if err := errors.Join(
		c.WatchPool("work", p),
		c.WatchAutoscaler("work", ctl),
		c.WatchSystem("actors", sys),
		c.WatchRouter("events", r),
	); err != nil {
		return err
	}
	reg := prometheus.NewRegistry()
	reg.MustRegister(c, collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	mux := http.NewServeMux()
	mux.Handle("/metrics", promhttp.HandlerFor(reg, promhttp.HandlerOpts{Registry: reg}))

	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second}
	serveErr := make(chan error, 1)
	go func() { serveErr <- srv.Serve(ln) }()
	ready(ln.Addr())

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var wg sync.WaitGroup
	var ctlErr error
	wg.Add(3)
	go func() {
		defer wg.Done()
		if err := ctl.Run(ctx); !errors.Is(err, context.Canceled) {
			ctlErr = err
		}
	}()
	go func() { defer wg.Done(); submitLoad(ctx, p) }()
	go func() { defer wg.Done(); tellLoad(ctx, r) }()

	select {
	case <-ctx.Done():
	case err := <-serveErr:
		cancel()
		wg.Wait()
		return err
	}
	wg.Wait()
	sctx, scancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer scancel()
	if err := srv.Shutdown(sctx); err != nil {
		return err
	}
	if err := <-serveErr; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return ctlErr
}

// load returns the arrival rate at t, in tasks a second: between 50 and
// 1000, following a sine of the period.
func load(t time.Duration) float64 {
	phase := 2 * math.Pi * float64(t%period) / float64(period)
	return 50 + 950*(1-math.Cos(phase))/2
}

// submitLoad submits tasks that wait 2 to 8ms, as a call to a database or
// another service would, at the rate load gives, until ctx is done.
func submitLoad(ctx context.Context, p *pool.Pool) {
	const step = 10 * time.Millisecond
	start := time.Now()
	t := time.NewTicker(step)
	defer t.Stop()
	var owed float64
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		owed += load(time.Since(start)) * step.Seconds()
		for ; owed >= 1; owed-- {
			d := time.Duration(2+rand.Intn(7)) * time.Millisecond
			// Blocks while the pool is saturated, which is the pressure
			// the autoscaler answers; an error is a done ctx.
			if err := p.Submit(ctx, func() { time.Sleep(d) }); err != nil {
				return
			}
		}
	}
}

// tellLoad sends events to the router, a few hundred a second, and asks
// it for a count now and then, until ctx is done.
func tellLoad(ctx context.Context, r *actorpool.Router) {
	t := time.NewTicker(5 * time.Millisecond)
	defer t.Stop()
	for i := 0; ; i++ {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		for j, n := 0, 1+rand.Intn(4); j < n; j++ {
			_ = r.Ref().Tell(event(i*4 + j))
		}
		if i%100 == 0 {
			_, _ = r.Ref().Ask(ctx, countQuery{})
		}
	}
}

type (
	event      int
	countQuery struct{}
)

// tally is a router worker: it counts the events it handles.
type tally struct{ n, sum int }

func (t *tally) Receive(c *actorpool.Context, msg any) {
	switch m := msg.(type) {
	case event:
		t.n++
		t.sum += int(m)
	case countQuery:
		_ = c.Respond(t.n)
	}
}
