package natsrunner_test

import (
	"context"
	"log"
	"os/signal"
	"strconv"
	"sync"
	"syscall"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/poolkit/poolkit/autoscale"
	"github.com/poolkit/poolkit/natsrunner"
	"github.com/poolkit/poolkit/pool"
)

// Wiring a runner to a durable pull consumer. The example is compiled, not
// run: it needs a NATS server at nats.DefaultURL.
func Example() {
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM)
	defer stop()

	nc, err := nats.Connect(nats.DefaultURL)
	if err != nil {
		log.Fatal(err)
	}
	defer nc.Close()
	js, err := jetstream.New(nc)
	if err != nil {
		log.Fatal(err)
	}
	cons, err := js.CreateOrUpdateConsumer(ctx, "JOBS", jetstream.ConsumerConfig{
		Durable:       "worker",
		AckPolicy:     jetstream.AckExplicitPolicy,
		AckWait:       30 * time.Second,
		MaxAckPending: 1000, // at least the sum of all replicas' pool capacities
	})
	if err != nil {
		log.Fatal(err)
	}

	p, err := pool.New(16)
	if err != nil {
		log.Fatal(err)
	}
	defer p.Shutdown(context.Background())

	r, err := natsrunner.New(cons, p, func(ctx context.Context, msg jetstream.Msg) error {
		log.Printf("job %s", msg.Data())
		return nil // the runner acks; an error naks with backoff
	}, natsrunner.WithMaxAttempts(5), natsrunner.WithDrainTimeout(20*time.Second))
	if err != nil {
		log.Fatal(err)
	}
	// Run returns ctx.Err() on SIGTERM, after draining: nothing fetched is
	// left unsettled.
	if err := r.Run(ctx); err != nil && ctx.Err() == nil {
		log.Fatal(err)
	}
}

// ExampleRunner_AutoscaleOptions drives the runner's pool with the
// autoscaler. The pool measures its own tasks; the runner adds what only
// it sees: the consumer's backlog, where the demand waits (the runner
// pulls only what the pool can start), and the handler failures. The
// example is compiled, not run: it needs a NATS server.
func ExampleRunner_AutoscaleOptions() {
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM)
	defer stop()
	nc, err := nats.Connect(nats.DefaultURL)
	if err != nil {
		log.Fatal(err)
	}
	defer nc.Close()
	js, err := jetstream.New(nc)
	if err != nil {
		log.Fatal(err)
	}
	cons, err := js.Consumer(ctx, "JOBS", "worker")
	if err != nil {
		log.Fatal(err)
	}
	p, err := pool.New(4, pool.WithTimings()) // the autoscaler reads its timings
	if err != nil {
		log.Fatal(err)
	}
	defer p.Shutdown(context.Background())
	r, err := natsrunner.New(cons, p, func(ctx context.Context, msg jetstream.Msg) error {
		return nil // call the downstream here
	})
	if err != nil {
		log.Fatal(err)
	}
	ctl, err := autoscale.New(p, append(r.AutoscaleOptions(), autoscale.WithMax(64))...)
	if err != nil {
		log.Fatal(err)
	}
	go ctl.Run(ctx)
	if err := r.Run(ctx); err != nil && ctx.Err() == nil {
		log.Fatal(err)
	}
}

// ExampleWithKey keeps order per account: the messages of one account,
// on subjects orders.<account>, are handled one at a time in stream order,
// different accounts in parallel. A failure is retried in place before
// the account's next message. The example is compiled, not run: it needs
// a NATS server.
func ExampleWithKey() {
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM)
	defer stop()
	nc, err := nats.Connect(nats.DefaultURL)
	if err != nil {
		log.Fatal(err)
	}
	defer nc.Close()
	js, err := jetstream.New(nc)
	if err != nil {
		log.Fatal(err)
	}
	cons, err := js.Consumer(ctx, "ORDERS", "ledger")
	if err != nil {
		log.Fatal(err)
	}
	p, err := pool.New(32)
	if err != nil {
		log.Fatal(err)
	}
	defer p.Shutdown(context.Background())
	r, err := natsrunner.New(cons, p, func(ctx context.Context, msg jetstream.Msg) error {
		return nil // apply the order to its account
	}, natsrunner.WithKey(natsrunner.SubjectToken(1)), natsrunner.WithMaxAttempts(10))
	if err != nil {
		log.Fatal(err)
	}
	if err := r.Run(ctx); err != nil && ctx.Err() == nil {
		log.Fatal(err)
	}
}

// ExampleWithLease keeps order per account across the replicas of a
// service, on a server without pinned priority groups. The stream stores
// orders.<account> as orders.<partition>.<account> (a SubjectTransform
// with partition(4,1)), with a consumer per partition, ledger-0 to
// ledger-3; the bucket "ledger-owners" has a TTL above the consumers'
// AckWait. Every replica runs this: a keyed runner per partition, each
// pulling only while it holds its partition's lease. The example is
// compiled, not run: it needs a NATS server.
func ExampleWithLease() {
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM)
	defer stop()
	nc, err := nats.Connect(nats.DefaultURL)
	if err != nil {
		log.Fatal(err)
	}
	defer nc.Close()
	js, err := jetstream.New(nc)
	if err != nil {
		log.Fatal(err)
	}
	owners, err := js.KeyValue(ctx, "ledger-owners")
	if err != nil {
		log.Fatal(err)
	}
	p, err := pool.New(32)
	if err != nil {
		log.Fatal(err)
	}
	defer p.Shutdown(context.Background())
	var wg sync.WaitGroup
	for i := range 4 {
		name := "ledger-" + strconv.Itoa(i)
		cons, err := js.Consumer(ctx, "ORDERS", name)
		if err != nil {
			log.Fatal(err)
		}
		r, err := natsrunner.New(cons, p, func(ctx context.Context, msg jetstream.Msg) error {
			return nil // apply the order to its account
		}, natsrunner.WithKey(natsrunner.SubjectToken(2)), natsrunner.WithLease(owners, name))
		if err != nil {
			log.Fatal(err)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := r.Run(ctx); err != nil && ctx.Err() == nil {
				log.Print(err)
			}
		}()
	}
	wg.Wait()
}
