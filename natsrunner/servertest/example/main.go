// Command example consumes a burst of JetStream messages with a
// natsrunner.Runner over a poolkit pool sized by autoscale.Controller.
// Everything runs in-process: an embedded NATS server (no listener), a
// stream, a durable pull consumer, 2000 messages, and the runner.
//
//	go run ./natsrunner/servertest/example
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"strconv"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/poolkit/poolkit/autoscale"
	"github.com/poolkit/poolkit/natsrunner"
	"github.com/poolkit/poolkit/pool"
)

const messages = 2000

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "example:", err)
		os.Exit(1)
	}
}

// run starts the server, publishes the burst, consumes it and writes the
// controller's decisions and a summary to out.
func run(ctx context.Context, out io.Writer) (err error) {
	dir, err := os.MkdirTemp("", "natsrunner-example-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	ns, err := server.NewServer(&server.Options{
		JetStream: true, DontListen: true, StoreDir: dir, NoLog: true, NoSigs: true,
	})
	if err != nil {
		return err
	}
	ns.Start()
	defer func() { ns.Shutdown(); ns.WaitForShutdown() }()
	if !ns.ReadyForConnections(10 * time.Second) {
		return errors.New("embedded server not ready")
	}
	nc, err := nats.Connect("", nats.InProcessServer(ns))
	if err != nil {
		return err
	}
	defer nc.Close()
	js, err := jetstream.New(nc)
	if err != nil {
		return err
	}

	if _, err := js.CreateStream(ctx, jetstream.StreamConfig{Name: "JOBS", Subjects: []string{"jobs.>"}}); err != nil {
		return err
	}
	cons, err := js.CreateOrUpdateConsumer(ctx, "JOBS", jetstream.ConsumerConfig{
		Durable:       "worker",
		AckPolicy:     jetstream.AckExplicitPolicy,
		AckWait:       30 * time.Second,
		MaxAckPending: 1000, // at least the largest pool size, plus the queue
	})
	if err != nil {
		return err
	}
	for i := range messages {
		if _, err := js.PublishAsync("jobs.new", []byte(strconv.Itoa(i))); err != nil {
			return err
		}
	}
	select {
	case <-js.PublishAsyncComplete():
	case <-ctx.Done():
		return ctx.Err()
	}
	fmt.Fprintf(out, "published %d messages\n", messages)

	p, err := pool.New(4, pool.WithTimings()) // the autoscaler reads the waits and service times
	if err != nil {
		return err
	}
	defer func() { err = errors.Join(err, p.Shutdown(context.Background())) }()

	// I/O-like work: 2ms of waiting per message.
	handler := func(ctx context.Context, msg jetstream.Msg) error {
		select {
		case <-time.After(2 * time.Millisecond):
			return nil
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	// The runner pulls only what the pool can start; the controller sees
	// the demand in the consumer's backlog (AutoscaleOptions).
	r, err := natsrunner.New(cons, p, handler, natsrunner.WithDrainTimeout(5*time.Second))
	if err != nil {
		return err
	}
	logger := slog.New(slog.NewTextHandler(out, &slog.HandlerOptions{Level: slog.LevelInfo}))
	ctl, err := autoscale.New(p, append(r.AutoscaleOptions(), autoscale.WithMin(1), autoscale.WithMax(64),
		autoscale.WithTick(100*time.Millisecond), autoscale.WithLogger(logger))...)
	if err != nil {
		return err
	}

	began := time.Now()
	rctx, cancel := context.WithCancel(ctx)
	defer cancel()
	ctlDone := make(chan error, 1)
	go func() { ctlDone <- ctl.Run(rctx) }()
	runDone := make(chan error, 1)
	go func() { runDone <- r.Run(rctx) }()

	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
wait:
	for {
		select {
		case <-tick.C:
			if s := r.Stats(); s.Acked+s.Termed >= messages {
				break wait
			}
		case err := <-runDone:
			cancel()
			<-ctlDone
			return fmt.Errorf("runner stopped: %w", err)
		case <-ctx.Done():
			break wait
		}
	}
	elapsed := time.Since(began)
	cancel()
	if err := <-runDone; !errors.Is(err, context.Canceled) {
		return fmt.Errorf("runner: %w", err)
	}
	<-ctlDone

	s := r.Stats()
	fmt.Fprintf(out, "acked %d/%d, naks %d, termed %d, elapsed %v, %.0f msgs/s, mean handler %v, final pool size %d (controller: %d resizes, class %s)\n",
		s.Acked, messages, s.Naked, s.Termed, elapsed.Round(time.Millisecond),
		float64(s.Acked)/elapsed.Seconds(), s.MeanHandlerTime().Round(time.Microsecond),
		p.Stats().Cap, ctl.Stats().Resizes, ctl.Stats().Class)
	if s.Acked != messages {
		return fmt.Errorf("acked %d of %d messages", s.Acked, messages)
	}
	return ctx.Err()
}
