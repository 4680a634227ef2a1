package actors

import (
	"context"

	"github.com/poolkit/poolkit/actorpool"
)

// Serializer measures what poolkit's serializer adds to an Ask: customers
// goroutines ask one echo service, either directly or through a
// serializer in front of it (one more actor, a return proxy and one more
// message per request). One op is one Ask; p50 and p99 are per Ask, so
// with many customers they include the queueing of the requests.
func Serializer(throughSerializer bool, customers int) Workload {
	return func(b B, n int) {
		sys := startPoolkit(b)
		target, err := sys.Spawn(func() actorpool.Behavior {
			return actorpool.BehaviorFunc(func(c *actorpool.Context, msg any) { _ = c.Respond(msg) })
		})
		if err != nil {
			b.Fatal(err)
		}
		if throughSerializer {
			s, err := actorpool.NewSerializer(sys, target)
			if err != nil {
				b.Fatal(err)
			}
			target = s.Ref()
		}
		if _, err := target.Ask(context.Background(), tok); err != nil {
			b.Fatal(err)
		}
		h := askLoop(b, n, customers, func(ctx context.Context) error {
			v, err := target.Ask(ctx, tok)
			if err == nil && v != tok {
				b.Errorf("answer %v, want the message back", v)
			}
			return err
		})
		reportQuantiles(b, h, "")
	}
}
