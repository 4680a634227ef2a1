package natsrunner

import (
	"fmt"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// Defaults used when the corresponding option is not given.
const (
	DefaultMaxAttempts  = 5
	DefaultDrainTimeout = 10 * time.Second
	DefaultFetchMaxWait = time.Second
	// DefaultAckWait is used when neither WithAckWait nor the consumer's
	// cached info gives an AckWait; it is the server's default.
	DefaultAckWait = 30 * time.Second
	// DefaultPollInterval bounds how long a runner whose pool is full
	// waits before it looks at the pool again, in case capacity grew
	// without one of its own tasks finishing.
	DefaultPollInterval = 5 * time.Millisecond
	// DefaultMaxBatch caps one pull even when the pool has more room: the
	// client allocates buffers in proportion to the batch size.
	DefaultMaxBatch = 256
)

// Outcome is how the runner settled a message.
type Outcome uint8

// The outcomes reported to a WithOnSettle callback.
const (
	Acked  Outcome = iota + 1 // Ack or DoubleAck
	Naked                     // Nak or NakWithDelay: the server redelivers
	Termed                    // Term: the server never redelivers
)

func (o Outcome) String() string {
	switch o {
	case Acked:
		return "acked"
	case Naked:
		return "naked"
	case Termed:
		return "termed"
	}
	return fmt.Sprintf("Outcome(%d)", uint8(o))
}

// Option configures a Runner. An invalid value makes New return an error
// matching ErrInvalid.
type Option func(*config) error

type config struct {
	maxAttempts  int
	drainTimeout time.Duration
	fetchMaxWait time.Duration
	ackWait      time.Duration
	pollInterval time.Duration
	maxBatch     int
	queued       int
	backoff      func(attempt int) time.Duration
	doubleAck    bool
	onSettle     func(msg jetstream.Msg, o Outcome, err error)
	key          KeyFunc
	group        string
	lease        *lease
}

func defaultConfig() config {
	return config{
		maxAttempts:  DefaultMaxAttempts,
		drainTimeout: DefaultDrainTimeout,
		fetchMaxWait: DefaultFetchMaxWait,
		pollInterval: DefaultPollInterval,
		maxBatch:     DefaultMaxBatch,
		backoff:      DefaultBackoff,
	}
}

// DefaultBackoff is the Nak delay after a failed delivery numbered attempt
// (1 for the first delivery): 100ms doubled per attempt, at most 30s.
func DefaultBackoff(attempt int) time.Duration {
	d := 100 * time.Millisecond
	for i := 1; i < attempt && d < 30*time.Second; i++ {
		d *= 2
	}
	return min(d, 30*time.Second)
}

func invalid(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrInvalid}, args...)...)
}

// WithMaxAttempts sets the delivery count at which a failing message is
// terminated instead of nak'd (default 5): a message whose handler fails
// on its n-th delivery, n >= attempts, is Termed. attempts must be >= 1.
// A consumer whose MaxDeliver is lower stops redelivering first.
func WithMaxAttempts(attempts int) Option {
	return func(c *config) error {
		if attempts < 1 {
			return invalid("max attempts %d < 1", attempts)
		}
		c.maxAttempts = attempts
		return nil
	}
}

// WithDrainTimeout sets how long Run waits, once its context is done, for
// in-flight handlers before it Naks their messages (default 10s; 0 Naks
// them at once).
func WithDrainTimeout(d time.Duration) Option {
	return func(c *config) error {
		if d < 0 {
			return invalid("negative drain timeout %v", d)
		}
		c.drainTimeout = d
		return nil
	}
}

// WithFetchMaxWait sets how long one pull waits for messages (default 1s).
func WithFetchMaxWait(d time.Duration) Option {
	return func(c *config) error {
		if d <= 0 {
			return invalid("fetch max wait %v <= 0", d)
		}
		c.fetchMaxWait = d
		return nil
	}
}

// WithAckWait overrides the AckWait the runner assumes when it decides
// which in-flight messages need InProgress. By default it is read from
// the consumer's cached info, or DefaultAckWait.
func WithAckWait(d time.Duration) Option {
	return func(c *config) error {
		if d <= 0 {
			return invalid("ack wait %v <= 0", d)
		}
		c.ackWait = d
		return nil
	}
}

// WithPollInterval sets how often a runner whose pool is full checks the
// pool for room that did not come from one of its own tasks finishing,
// for example a Resize or another user of the pool (default 5ms).
func WithPollInterval(d time.Duration) Option {
	return func(c *config) error {
		if d <= 0 {
			return invalid("poll interval %v <= 0", d)
		}
		c.pollInterval = d
		return nil
	}
}

// WithBackoff sets the Nak delay for a failed delivery; attempt is the
// message's delivery count (1 for the first delivery). The default is
// DefaultBackoff. A delay <= 0 naks without a delay.
func WithBackoff(f func(attempt int) time.Duration) Option {
	return func(c *config) error {
		if f == nil {
			return invalid("nil backoff")
		}
		c.backoff = f
		return nil
	}
}

// WithDoubleAck makes the runner acknowledge with DoubleAck, waiting for
// the server to confirm the ack, instead of Ack.
func WithDoubleAck(on bool) Option {
	return func(c *config) error {
		c.doubleAck = on
		return nil
	}
}

// WithOnSettle sets a callback called once for every message the runner
// settles, after the Ack, Nak or Term call, with that call's error. It runs
// on the goroutine that settled the message and must be quick.
func WithOnSettle(f func(msg jetstream.Msg, o Outcome, err error)) Option {
	return func(c *config) error {
		c.onSettle = f
		return nil
	}
}

// WithMaxBatch caps the number of messages asked for in one pull (default
// 256). The runner asks for the smaller of this and the pool's free room.
func WithMaxBatch(n int) Option {
	return func(c *config) error {
		if n < 1 {
			return invalid("max batch %d < 1", n)
		}
		c.maxBatch = n
		return nil
	}
}

// WithQueued lets the runner keep up to n fetched messages waiting in the
// pool for a worker, beyond what the pool can start at once (default 0:
// it pulls only what the pool can start). The runner then blocks in the
// pool's Submit for those messages, and they wait in the client while
// their AckWait runs (kept alive by InProgress like running ones).
//
// With n = 0 a saturated pool never has a queue; an autoscale.Controller
// sees the demand through Runner.AutoscaleOptions (the consumer's
// backlog) instead. n must be >= 0.
func WithQueued(n int) Option {
	return func(c *config) error {
		if n < 0 {
			return invalid("queued %d < 0", n)
		}
		c.queued = n
		return nil
	}
}

// WithPriorityGroup makes every pull name the consumer's priority group
// group (the consumer's PriorityGroups must list it). With a consumer whose
// PriorityPolicy is pinned, the server delivers to one client of the group
// at a time and pins another once the pinned one has not pulled for the
// consumer's PinnedTTL: the runners of several replicas on such a consumer
// take turns owning it, which is how a keyed runner keeps order per key
// across replicas (see the package documentation). group must not be
// empty.
func WithPriorityGroup(group string) Option {
	return func(c *config) error {
		if group == "" {
			return invalid("empty priority group")
		}
		c.group = group
		return nil
	}
}
