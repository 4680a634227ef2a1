package pool

import (
	"context"
	"errors"
	"fmt"
	"hash/maphash"
	"runtime"
	"sync"

	"github.com/poolkit/poolkit/internal/engine"
)

// Keyed runs tasks by key on a Pool: the tasks of one key run one at a
// time, in the order their Submit calls were made, while the tasks of
// different keys run in parallel, up to the pool's capacity. Use it where
// work for one account, device, tenant or partition key must not overlap
// or reorder, and work for different keys must not wait for each other.
// Create one with NewKeyed; it shares its pool's workers, capacity,
// queue, panic handler and life with the pool's plain tasks.
//
// A key whose tasks wait enters the pool's queue as one task of the pool,
// its turn, which runs the key's waiting tasks one after another, at most
// WithBudget of them (DefaultBudget, 32, by default). A key with more waiting then goes
// to the back of the pool's queue, behind the keys and tasks that waited
// meanwhile: a key with a long backlog cannot starve the others, and a
// slow task delays only the tasks of its own key. A key with no task
// waiting or running costs nothing: beyond the few most recently idle
// (maxIdle per shard, kept so that a key that comes back soon finds its
// state), its state is dropped, so memory follows the keys in use, not
// every key ever seen.
//
// The pool's contract holds for keyed tasks. Each task for which Submit
// returned nil runs exactly once, or is handed back by the pool's
// ShutdownNow. A task that panics, or calls runtime.Goexit, ends as a plain
// task does (the pool's panic handler sees the panic) and its key's next
// task still runs, in order. Resize, Close and Shutdown act on keyed tasks
// as on plain ones; the pool's Stats count each turn as one task and add
// Keys and KeyedWaiting. Every method is safe for concurrent use, from
// any goroutine, a task of the pool included.
type Keyed[K comparable] struct {
	p       *Pool
	budget  int
	limit   int  // most tasks of one key waiting to start; 0: no limit
	checked bool // K may hold a key that cannot be a map key (see validKey)
	seed    maphash.Seed
	shards  [keyShards]keyShard[K]
	spare   sync.Pool // of *key[K], dropped by their turns
}

// The keyed protocol. Everything about a key is guarded by its shard's
// lock; the pool's engine is called with that lock held only by
// Continue, which never waits (lock order: shard, then the engine's).
//
//	K1. A key is in its shard's map while it has a turn (a task of the
//	    pool that is being admitted, is queued, or runs), and while it is
//	    one of the shard's maxIdle most recently idle keys (keyIdle: no
//	    turn, no task; on the shard's idle list). A key with tasks
//	    waiting always has a turn (so no task waits with nobody to start
//	    it), and never more than one (so no two of its tasks run at
//	    once).
//	K2. A task joins its key's queue only while the key has a turn that
//	    has been accepted (queued or running) or is the admission's own
//	    first task. A submitter that finds the key being admitted by
//	    another waits for that admission's outcome: were it to join, a
//	    refused admission would leave an accepted task with no turn.
//	K3. A turn puts its key to rest (idle, or dropped from the map) in
//	    the same critical section in which it finds the key's queue
//	    empty: a submitter either came first (and the turn runs its task)
//	    or finds the key idle or gone (and admits a new turn). No task is
//	    left behind at the idle transition. (Until the key's admitter has
//	    seen its outcome, the turn leaves the key drained, and the
//	    admitter puts it to rest; submitters wait for that as for an
//	    admission.) A key dropped from the map is referred to by nothing
//	    and may be reused for another key.
//	K4. A turn that yields hands its continuation to the engine under the
//	    lock (engine.Continue). After the pool's ShutdownNow the engine
//	    refuses it, and ShutdownNow's walk of the keys (handBack), which
//	    follows the engine's, finds each key's turn in one of three
//	    places. Among the units the engine handed back: calling it runs
//	    the key. With a worker, running or about to start (a unit taken
//	    from the queue, or handed to a worker directly, before the close,
//	    whose turn has not yet taken the lock): the walk marks the key
//	    handed back, and the turn stops before its next task, or at once,
//	    and closes ended for the function the walk returns. Nowhere
//	    (stalled: a continuation the engine refused): the walk returns
//	    the turn itself. The walk tells the first two apart by the
//	    units the engine handed back: a key's turn is the key itself.
//	    Every function the walk returns comes after the pool's plain
//	    tasks (KEY-7).

// errNilKeyed is returned by the methods of a nil *Keyed.
var errNilKeyed = errors.New("pool: nil *Keyed")

// DefaultBudget is the tasks a key's turn runs, when WithBudget is not
// given, before it lets the other keys' turns go first. It is actorpool's
// DefaultBudget too, an actor's messages per turn (docs/vocabulary.md).
const DefaultBudget = 32

// NewKeyed returns a Keyed that runs its tasks on p. Its options are
// WithBudget, the tasks of a key one turn runs; WithQueueSize, the most
// tasks of one key that may wait to start (1024 by default, at least 1);
// and WithUnboundedQueue, no such limit. A nil p, or a nil or invalid
// option, is an error matching ErrInvalidOption; a pool that Close,
// Shutdown or ShutdownNow has closed is an error matching ErrClosed (a
// Keyed made as the pool closes refuses its tasks with ErrClosed, as the
// pool does). A Keyed stays with its pool (its ShutdownNow hands back the
// Keyed's tasks) for as long as the pool lives: make one per key space,
// not one per request.
func NewKeyed[K comparable](p *Pool, opts ...KeyedOption) (*Keyed[K], error) {
	if p == nil {
		return nil, invalid("NewKeyed: nil *Pool")
	}
	c, err := buildLayerConfig(opts, KeyedOption.applyKeyed)
	if err != nil {
		return nil, err
	}
	if err := p.e.Usable(); err != nil {
		return nil, fmt.Errorf("pool: NewKeyed: %w", err)
	}
	kd := &Keyed[K]{p: p, budget: DefaultBudget, limit: c.queueSize, seed: maphash.MakeSeed()}
	if c.budget > 0 {
		kd.budget = c.budget
	}
	kd.checked = mayBeInvalidKey[K]()
	for i := range kd.shards {
		kd.shards[i].m = make(map[K]*key[K])
	}
	p.layers.add(kd)
	return kd, nil
}

// WithBudget sets how many tasks of one key a turn runs before the key,
// if it has more waiting, goes to the back of the pool's queue; the
// default is DefaultBudget, 32. A smaller budget shares the workers more finely among
// keys with backlogs, at the cost of a pass through the pool's queue
// every n tasks. n below 1 is an error.
func WithBudget(n int) KeyedOption {
	return keyedOption(func(c *layerConfig) error {
		if n < 1 {
			return invalid("budget %d: want at least 1", n)
		}
		c.budget = n
		return nil
	})
}

// ErrKeyFull is returned by Keyed.Submit when the key already has as many
// tasks waiting as its queue holds (WithQueueSize given to NewKeyed). The
// task was not accepted. It matches ErrOverload and resize.ErrOverload.
var ErrKeyFull error = &keyFullError{}

type keyFullError struct{}

func (*keyFullError) Error() string { return "pool: the key's queue is full" }
func (*keyFullError) Unwrap() error { return ErrOverload }

// ErrInvalidKey is returned by Keyed.Submit for a key that cannot order
// tasks: one not equal to itself (a floating-point NaN, or a value that
// holds one), which no later Submit could find again, or one that holds,
// at any depth (in an interface, a struct field or an array element), an
// interface value whose dynamic type cannot be compared (a slice, a map,
// a func).
var ErrInvalidKey = errors.New("pool: invalid key")

// Submit hands task to the pool as the next task of key id. It returns nil
// once the task is accepted: it runs after every task of id accepted
// before it, and never beside another task of id.
//
// When id has tasks waiting or running, Submit adds task to them and never
// waits for the pool; when id already has as many waiting as its queue
// holds, it returns ErrKeyFull. Otherwise id enters the pool as one task,
// admitted as Pool.Submit admits one: at once when the pool has room,
// else waiting for room as long as ctx allows, or refused with
// ErrOverload under WithMaxWaiting. Meanwhile a Submit for the same key
// waits for that outcome, as ctx allows. Submit returns ErrClosed once the
// pool is closed; ctx.Err() when ctx is done before the task is accepted;
// ErrNilTask, ErrNilContext and ErrInvalidKey for a nil task, a nil ctx
// and a key that cannot order tasks. A task for which Submit returned an
// error never runs.
//
// Called from inside a task of the pool, Submit does not wait for a slot
// its own task holds, as Pool.Submit does not; a task may submit to its own
// key (the new task runs after it).
//
// Submit synchronizes before the task starts, and the return of each
// task of a key before the start of the key's next task.
func (kd *Keyed[K]) Submit(ctx context.Context, id K, task func()) error {
	if kd == nil {
		return errNilKeyed
	}
	if task == nil {
		return ErrNilTask
	}
	if ctx == nil {
		return ErrNilContext
	}
	e := &kd.p.e
	if err := ctx.Err(); err != nil {
		return e.Reject(err)
	}
	if kd.checked && !validKey(id) {
		return fmt.Errorf("%w: %#v", ErrInvalidKey, any(id))
	}
	sh := &kd.shards[keyHash(kd.seed, id)%keyShards]
	for {
		sh.mu.Lock()
		if e.Closed() {
			sh.mu.Unlock()
			return e.Reject(ErrClosed)
		}
		k := sh.m[id]
		if k == nil {
			if !kd.checked && id != id {
				sh.mu.Unlock()
				return fmt.Errorf("%w: %v is not equal to itself", ErrInvalidKey, any(id))
			}
			k = kd.newKey(sh, id)
			sh.m[id] = k
			sh.active.Add(1)
			sh.peak = max(sh.peak, len(sh.m))
			return kd.admit(ctx, k, task)
		}
		if k.state == keyIdle {
			sh.idle.Remove(k)
			sh.active.Add(1)
			return kd.admit(ctx, k, task)
		}
		if k.state == keyAdmitting || k.state == keyDrained {
			if k.admitted == nil {
				k.admitted = make(chan struct{})
			}
			ch := k.admitted
			sh.mu.Unlock()
			if err := kd.awaitAdmission(ctx, ch); err != nil {
				return e.Reject(err)
			}
			continue
		}
		if kd.limit > 0 && k.q.Len() >= kd.limit {
			sh.mu.Unlock()
			return e.Reject(ErrKeyFull)
		}
		k.q.Push(task)
		sh.waiting.Add(1)
		sh.mu.Unlock()
		return nil
	}
}

// admit gives k, a key of sh's map with no turn, task as its first, and
// submits its turn to the pool (K1, K2). Requires sh.mu, which it
// releases.
func (kd *Keyed[K]) admit(ctx context.Context, k *key[K], task func()) error {
	sh := k.sh
	k.state = keyAdmitting
	k.q.Push(task)
	sh.waiting.Add(1)
	k.unconfirmed = true
	sh.mu.Unlock()
	engine.At(engine.KeyAdmit)
	err := kd.p.e.Submit(ctx, k)
	sh.mu.Lock()
	if engine.HooksOn {
		engine.Invariant(k.sh == sh && k.unconfirmed && k.state != keyIdle, "an admitted key was put to rest before its admitter saw the outcome (K3)")
	}
	k.unconfirmed = false
	var dropped *key[K]
	switch {
	case err != nil:
		// Refused, so the turn never ran, and other submitters waited:
		// the task is alone in the queue.
		k.q.Pop()
		sh.waiting.Add(-1)
		if k.state == keyHandedBack { // ShutdownNow's walk could not tell (K4): its function finds nothing to run
			close(k.ended)
			k.ended = nil
			break
		}
		dropped = sh.rest(k)
	case k.state == keyAdmitting:
		k.state = keyQueued
	case k.state == keyDrained: // its turn ran the task already
		dropped = sh.rest(k)
	}
	if k.admitted != nil {
		close(k.admitted)
		k.admitted = nil
	}
	sh.mu.Unlock()
	kd.recycle(dropped)
	return err
}

// awaitAdmission waits until ch, an admission's, is closed or ctx is done.
// Inside a task of the pool it runs the pool's waiting tasks meanwhile, as
// a blocked Submit does: the admission may wait for the slot the caller
// holds.
func (kd *Keyed[K]) awaitAdmission(ctx context.Context, ch chan struct{}) error {
	// The admission is usually over in a few hundred nanoseconds: look a
	// few times, yielding, before paying the traceback that tells whether
	// the caller is a task of the pool (HelpCaller).
	for i := 0; i < 4; i++ {
		select {
		case <-ch:
			return nil
		case <-ctx.Done():
			return ctx.Err()
		default:
		}
		runtime.Gosched()
	}
	if finished, inside := kd.p.e.HelpCaller(ch, ctx.Done()); inside {
		if finished {
			return nil
		}
		return ctx.Err()
	}
	select {
	case <-ch:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
