package pool

import (
	"reflect"
	"sync"
	"sync/atomic"

	"github.com/poolkit/poolkit/internal/engine"
	"github.com/poolkit/poolkit/internal/fifo"
)

// keyShard is one of a Keyed's shards of keys: a key's lock, its place
// in the map and in the idle list are its shard's (K1, K3).
type keyShard[K comparable] struct {
	mu   sync.Mutex
	m    map[K]*key[K]
	peak int // the most keys m has held since it was made
	// waiting counts the tasks in the queues of m's keys, and active the
	// keys of m with a turn (not idle). They change under mu and are read
	// without it, by Stats: a feeder that reads Stats for every task it
	// takes (natsrunner) would otherwise take every shard's lock each time.
	waiting, active atomic.Int64
	// The idle keys, oldest first: at most maxIdle; the oldest is
	// dropped for a newer one.
	idle fifo.List[key[K], *key[K]]
	// Shards are written by different CPUs at once: each has its own
	// cache line (64 bytes, which the fields above fill).
}

// maxIdle is how many idle keys a shard keeps (K1): a key that drains and
// comes back soon, as keys under a steady load do, then costs no map
// insertion and deletion. A Keyed keeps at most keyShards x maxIdle of
// them, about 200 bytes each.
const maxIdle = 32

// keyState is where a key's turn is (K1).
type keyState uint8

const (
	keyAdmitting  keyState = iota // its first task's Submit is submitting its turn to the pool
	keyQueued                     // its turn waits in the pool's queue
	keyRunning                    // its turn runs
	keyStalled                    // ShutdownNow refused its turn's continuation: handBack hands it back
	keyHandedBack                 // ShutdownNow handed its tasks back; its running task has still to end
	keyDrained                    // its turn found its queue empty before its admission's submitter saw the outcome, who puts it to rest
	keyIdle                       // no turn, no task: on its shard's idle list (K1)
)

type key[K comparable] struct {
	kd    *Keyed[K]
	sh    *keyShard[K]
	id    K
	state keyState
	// unconfirmed says that the submitter that admitted the key has not
	// yet taken the lock again after the pool accepted (or refused) its
	// turn: until it has, the key stays in the map (keyDrained), so that
	// the submitter never touches a key that was dropped and reused.
	unconfirmed bool
	q           fifo.Ring[func()] // its tasks waiting to start
	idle        fifo.Link[key[K]] // its place in the shard's idle list (keyIdle)
	// admitted is closed when an admission ends, either way; made by the
	// first submitter that waits for it (K2).
	admitted chan struct{}
	// ended is closed by a turn that finds its key handed back, once its
	// running task has ended (K4).
	ended chan struct{}
}

func (kd *Keyed[K]) newKey(sh *keyShard[K], id K) *key[K] {
	k, _ := kd.spare.Get().(*key[K])
	if k == nil {
		k = &key[K]{kd: kd}
	}
	k.sh, k.id, k.state = sh, id, keyAdmitting
	return k
}

// recycle keeps a dropped key for the next new one; nothing refers to it
// any more (K3). A nil k is none.
func (kd *Keyed[K]) recycle(k *key[K]) {
	if k == nil {
		return
	}
	if engine.HooksOn {
		engine.Invariant(!k.unconfirmed, "a key was dropped before its admitter saw the outcome (K3)")
	}
	var zero K
	k.sh, k.id = nil, zero
	if k.q.Cap() > 64 {
		return // a key that had a long queue would keep its buffer
	}
	kd.spare.Put(k)
}

// rest puts k, whose queue is empty and which has no turn, to rest (K3):
// it becomes the newest idle key, and the oldest idle key beyond maxIdle
// is dropped from the map and returned, for the caller to recycle after
// unlocking. Requires sh.mu.
func (sh *keyShard[K]) rest(k *key[K]) (dropped *key[K]) {
	k.state = keyIdle
	sh.active.Add(-1)
	sh.idle.PushBack(k)
	if sh.idle.Len() <= maxIdle {
		return nil
	}
	old := sh.idle.Front()
	sh.idle.Remove(old)
	sh.drop(old)
	return old
}

func (k *key[K]) Link() *fifo.Link[key[K]] { return &k.idle }

// drop removes k from its shard's map (K3). A map that has emptied to an
// eighth of its peak is copied to a smaller one: Go's maps do not shrink,
// and a burst of a million keys would otherwise hold their memory for good.
// Requires sh.mu.
func (sh *keyShard[K]) drop(k *key[K]) {
	delete(sh.m, k.id)
	if sh.peak >= 1024 && len(sh.m) <= sh.peak/8 {
		m := make(map[K]*key[K], len(sh.m))
		for id, k := range sh.m {
			m[id] = k
		}
		sh.m, sh.peak = m, len(m)
	}
}

// mayBeInvalidKey reports whether K may hold keys validKey must check on
// every Submit: one with an interface anywhere in it (the type itself, a
// field of a struct, an element of an array, at any depth), whose dynamic
// value may not be comparable (hashing it, or comparing it, would panic).
// Other types can be invalid only by not being equal to themselves, which
// a key's first Submit checks.
func mayBeInvalidKey[K comparable]() bool {
	return holdsInterface(reflect.TypeOf((*K)(nil)).Elem())
}

func holdsInterface(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Interface:
		return true
	case reflect.Array:
		return holdsInterface(t.Elem())
	case reflect.Struct:
		for i := 0; i < t.NumField(); i++ {
			if holdsInterface(t.Field(i).Type) {
				return true
			}
		}
	}
	return false
}

// validKey reports whether id can be a map key that finds itself again.
func validKey[K comparable](id K) (ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	return id == id
}
