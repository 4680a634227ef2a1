// Package natsrunner feeds a NATS JetStream pull consumer into a
// poolkit pool, pulling no more messages than the pool can start at once.
//
// # Flow control
//
// A Runner asks the pool how many tasks it could start now
// (Stats: Cap − Running − Waiting) and fetches at most that many messages
// in one pull. When the pool is full it does not pull at all: it waits
// until one of its tasks finishes, or the pool's capacity grows (Resize),
// or Run's context is done. A message therefore never waits in a client
// buffer for a worker while its AckWait runs down, and a Resize of the
// pool changes the size of the next pull. WithQueued(n) relaxes this by
// n messages that may wait in the pool.
//
// # Autoscaling
//
// Demand that the pool cannot start waits in the consumer, not in the
// pool, so a controller that reads only the pool sees busy workers and no
// one waiting. AutoscaleOptions gives an autoscale.Controller the
// consumer's backlog (NumPending) and the handler failures; see its
// documentation for how each is used.
//
// # Settlement
//
// The runner, not the handler, settles every message it fetched, exactly
// once:
//
//   - handler returns nil: Ack (or DoubleAck with WithDoubleAck);
//   - handler returns an error or panics: NakWithDelay(backoff(n)), where n
//     is the delivery count from the message metadata; on the delivery
//     numbered WithMaxAttempts (default 5) or later: Term;
//   - the metadata cannot be read: Term, counted as malformed, the handler
//     is not called;
//   - the pool refuses the task (closed, overloaded) or Run is shutting
//     down before the task was handed to the pool: Nak.
//
// A handler must not call Ack, Nak, Term or DoubleAck itself; it may call
// InProgress. While a handler runs, one ticker per Runner (not one per
// message) sends InProgress for every in-flight message whose last
// delivery or progress signal is older than half of AckWait, so long
// handlers do not cause redelivery.
//
// # Order per key
//
// WithKey(f) makes the runner keep order per key: f names each message's
// key (SubjectToken(i) and Header(name) name the usual ones), and the
// messages of one key are handled one at a time, in the order they were
// delivered, through a pool.Keyed on the runner's pool, while different
// keys run in parallel, fairly. A failure holds its key: the message is
// handled again in place after the backoff (InProgress keeps its AckWait
// alive), never nak'd for the failure, since the server would hand out
// the key's later messages first; after its last attempt it is termed,
// and only then does the key's next message run. A runner that stops
// naks what it still holds in stream order after the drain, so that the
// server gives a key's messages back in its order.
//
// What holds, and where it stops:
//
//   - one runner on a consumer: order per key, through failures, panics,
//     retries and a stop and restart of Run;
//   - a handler that outlives the drain may still run while its message is
//     redelivered: delivery stays at least once, and handlers must be
//     idempotent;
//   - replicas that share one consumer each get messages of the same key;
//     order per key across replicas needs each key's messages to go to one
//     replica at a time: a stream that maps keys to subject partitions
//     (a SubjectTransform with partition(n, ...)), a consumer per
//     partition owned by one replica at a time, and on every replica a
//     keyed runner per partition. The owner is the client the server pins
//     the consumer to, in a priority group with the pinned policy
//     (WithPriorityGroup; nats-server 2.11 and later), whose PinnedTTL must
//     be above the consumer's AckWait, so that a replica that died is
//     replaced only once its messages are due for redelivery, which comes
//     before new messages: New refuses a keyed runner on a pinned consumer
//     that does not keep to it. On older servers the owner holds a lease
//     (WithLease), a key of a key-value bucket whose TTL, above the
//     AckWait, plays PinnedTTL's part. Neither spreads the partitions over
//     the replicas: the first replica to pull takes every partition it
//     finds free;
//   - the server killed and restarted on its store: order per key holds
//     (a message whose Ack was lost is handled again);
//   - a runner killed without its drain (kill -9) leaves its unacked
//     messages to come back after AckWait; another runner already
//     pulling from the same consumer (unpinned) may handle later
//     messages of their keys first, and a replica cut off from the server
//     but alive may still be handling what it held when another takes
//     its partition over;
//   - a message the server sent that never reached the runner (a pull
//     answered as the connection or the server went down) comes back
//     after AckWait, behind later messages of its key that arrived
//     meanwhile.
//
// A key function that fails, panics or calls runtime.Goexit terms its
// message, counted as malformed: a message whose key is unknown cannot be
// put in order.
//
// # Connection outages
//
// A pull that fails for a reason that may pass (no responders while the
// server restarts, a timeout, a disconnected connection) is counted in
// Stats.FetchErrors and retried after a backoff of 100ms doubling up to
// 2s, for as long as Run's context is live. Only a deleted or missing
// consumer, an invalid pull option, a closed connection or a closed pool
// end Run. With a connection that reconnects for ever
// (nats.MaxReconnects(-1)) a runner therefore outlives a server restart;
// settlements sent during the outage are buffered by the client or lost,
// and a lost one is redelivered after AckWait.
//
// # Shutdown
//
// When Run's context is done the runner stops pulling at once (the
// outstanding pull is cancelled) and waits for in-flight handlers up to
// the drain timeout (WithDrainTimeout, default 10s). Handlers run with a
// context that is not cancelled by Run's context, only at the drain
// deadline. Messages whose handlers have not returned by then are Nak'd,
// so the server redelivers them at once; the results of those handlers
// are ignored when they return. Run then returns ctx.Err().
//
// Nothing is lost: every fetched message is acked, nak'd or termed exactly
// once by the runner. A message the server sent in reply to a pull that
// shutdown cancelled, but that never reached the runner, and a message
// whose Ack or Nak did not reach the server, is redelivered by the server
// after AckWait. Delivery is therefore at least once; handlers must be
// idempotent.
package natsrunner
