//go:build go1.25

package pool_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/poolkit/poolkit/pool"
	"github.com/poolkit/poolkit/resize"
)

// mustKeyed builds a Keyed on p or fails the test.
func mustKeyed[K comparable](t testing.TB, p *pool.Pool, opts ...pool.KeyedOption) *pool.Keyed[K] {
	t.Helper()
	kd, err := pool.NewKeyed[K](p, opts...)
	if err != nil {
		t.Fatalf("NewKeyed = %v", err)
	}
	return kd
}

// keyLog records, per key, the order in which tasks ran, and fails the
// test if two tasks of one key ever overlap.
type keyLog struct {
	t    testing.TB
	mu   sync.Mutex
	busy map[int]bool
	ran  map[int][]int
}

func newKeyLog(t testing.TB) *keyLog {
	return &keyLog{t: t, busy: map[int]bool{}, ran: map[int][]int{}}
}

func (l *keyLog) task(key, seq int, body func()) func() {
	return func() {
		l.mu.Lock()
		if l.busy[key] {
			l.t.Errorf("key %d: task %d started while another of its tasks ran", key, seq)
		}
		l.busy[key] = true
		l.ran[key] = append(l.ran[key], seq)
		l.mu.Unlock()
		defer func() {
			l.mu.Lock()
			l.busy[key] = false
			l.mu.Unlock()
		}()
		if body != nil {
			body()
		}
	}
}

func (l *keyLog) order(key int) []int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]int(nil), l.ran[key]...)
}

// ranAllInOrder fails the test unless key ran tasks 0 to n-1, each once,
// in that order.
func (l *keyLog) ranAllInOrder(t testing.TB, key, n int) {
	t.Helper()
	got := l.order(key)
	if len(got) != n {
		t.Fatalf("key %d: %d of %d accepted tasks ran", key, len(got), n)
	}
	for i, seq := range got {
		if seq != i {
			t.Fatalf("key %d: task %d ran in place %d: %v", key, seq, i, got)
		}
	}
}

// TestKeyedOrderPerKey: KEY-1. Many producers submit to the same keys at
// once; each producer's tasks for a key run in the order it submitted
// them, and never two tasks of one key at once, while the keys run in
// parallel.
func TestKeyedOrderPerKey(t *testing.T) {
	const producers, keys, perKey = 8, 32, 200
	p := mustNew(t, 8)
	kd := mustKeyed[int](t, p, pool.WithBudget(4), pool.WithUnboundedQueue())
	log := newKeyLog(t)
	var wg sync.WaitGroup
	for pr := range producers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range perKey {
				for k := range keys {
					seq := pr*perKey + i // producer pr's i-th task for k
					if err := kd.Submit(bg, k, log.task(k, seq, runtime.Gosched)); err != nil {
						t.Errorf("Submit(%d) = %v", k, err)
						return
					}
				}
			}
		}()
	}
	wg.Wait()
	if err := shutdownWithin(p, time.Minute); err != nil {
		t.Fatal(err)
	}
	for k := range keys {
		got := log.order(k)
		if len(got) != producers*perKey {
			t.Fatalf("key %d ran %d tasks, want %d", k, len(got), producers*perKey)
		}
		last := make([]int, producers)
		for i := range last {
			last[i] = -1
		}
		for _, seq := range got {
			pr := seq / perKey
			if seq <= last[pr] {
				t.Fatalf("key %d: producer %d's task %d ran after its task %d", k, pr, seq%perKey, last[pr]%perKey)
			}
			last[pr] = seq
		}
	}
	if s := p.Stats(); s.Keys != 0 || s.KeyedWaiting != 0 {
		t.Errorf("after Shutdown, Keys = %d and KeyedWaiting = %d, want 0", s.Keys, s.KeyedWaiting)
	}
}

// TestKeyedParallelAcrossKeys: KEY-2. Tasks of different keys run at once,
// up to the capacity and never beyond it.
func TestKeyedParallelAcrossKeys(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const capacity = 4
		p := mustNew(t, capacity)
		kd := mustKeyed[string](t, p)
		tr := newTracker()
		gate := make(chan struct{})
		for i := range 2 * capacity {
			if err := kd.Submit(bg, fmt.Sprint("k", i), tr.task(i, gate)); err != nil {
				t.Fatal(err)
			}
		}
		synctest.Wait() // every worker holds a key's task, and the other keys wait
		if tr.now.Load() != capacity {
			t.Fatalf("%d of %d keys' tasks run at once, want %d", tr.now.Load(), 2*capacity, capacity)
		}
		if s := p.Stats(); s.Keys != 2*capacity || s.Running != capacity || s.Waiting != capacity {
			t.Errorf("Keys, Running, Waiting = %d, %d, %d, want %d, %d, %d", s.Keys, s.Running, s.Waiting, 2*capacity, capacity, capacity)
		}
		close(gate)
		if err := shutdownWithin(p, time.Minute); err != nil {
			t.Fatal(err)
		}
		if peak := tr.peak.Load(); peak != capacity {
			t.Errorf("peak running = %d, want %d", peak, capacity)
		}
		if n := tr.total(); n != 2*capacity {
			t.Errorf("%d tasks ran, want %d", n, 2*capacity)
		}
	})
}

// TestKeyedFairness: KEY-3. On a pool of one worker, a hot key with a
// long backlog runs at most a budget of tasks before each cold key that
// was waiting gets its turn: cold keys never wait behind the hot key's
// backlog.
func TestKeyedFairness(t *testing.T) {
	const budget, hot, cold = 8, 2000, 50
	p := mustNew(t, 1)
	kd := mustKeyed[int](t, p, pool.WithBudget(budget), pool.WithUnboundedQueue())
	var mu sync.Mutex
	var order []int // the key of each task, as it started
	rec := func(k int) func() {
		return func() {
			mu.Lock()
			order = append(order, k)
			mu.Unlock()
		}
	}
	hold := make(chan struct{})
	if err := p.Submit(bg, func() { <-hold }); err != nil { // the only worker, until every key waits
		t.Fatal(err)
	}
	for range hot {
		if err := kd.Submit(bg, 0, rec(0)); err != nil {
			t.Fatal(err)
		}
	}
	for k := 1; k <= cold; k++ {
		if err := kd.Submit(bg, k, rec(k)); err != nil {
			t.Fatal(err)
		}
	}
	close(hold)
	if err := shutdownWithin(p, time.Minute); err != nil {
		t.Fatal(err)
	}
	// The hot key's first turn runs a budget, then it goes behind the 50
	// cold keys queued meanwhile: all of them run before its next turn.
	hotBefore, coldSeen := 0, 0
	for _, k := range order {
		if k == 0 {
			hotBefore++
		} else {
			coldSeen++
		}
		if coldSeen == cold {
			break
		}
	}
	if hotBefore > budget {
		t.Errorf("the hot key ran %d tasks before the last cold key's, want at most the budget %d", hotBefore, budget)
	}
	if len(order) != hot+cold {
		t.Errorf("%d tasks ran, want %d", len(order), hot+cold)
	}
}

// TestKeyedFairnessAmongBacklogs: KEY-3. Keys that all have backlogs share
// the workers by turns: on one worker, with a budget of b, no key runs more
// than b tasks in a row while another key has tasks waiting.
func TestKeyedFairnessAmongBacklogs(t *testing.T) {
	const budget, keys, each = 3, 5, 30
	p := mustNew(t, 1)
	kd := mustKeyed[int](t, p, pool.WithBudget(budget))
	var mu sync.Mutex
	var order []int
	hold := make(chan struct{})
	if err := p.Submit(bg, func() { <-hold }); err != nil {
		t.Fatal(err)
	}
	for i := range each {
		for k := range keys {
			_ = i
			if err := kd.Submit(bg, k, func() { mu.Lock(); order = append(order, k); mu.Unlock() }); err != nil {
				t.Fatal(err)
			}
		}
	}
	close(hold)
	if err := shutdownWithin(p, time.Minute); err != nil {
		t.Fatal(err)
	}
	run := 1
	for i := 1; i < len(order); i++ {
		if order[i] == order[i-1] {
			run++
		} else {
			run = 1
		}
		if run > budget {
			t.Fatalf("key %d ran %d tasks in a row with others waiting, budget %d: %v", order[i], run, budget, order)
		}
	}
}

// TestKeyedNoHeadOfLineBlocking: KEY-3. A key whose task is slow delays
// only its own key: the other keys' tasks run beside it.
func TestKeyedNoHeadOfLineBlocking(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p := mustNew(t, 2)
		kd := mustKeyed[string](t, p)
		slow := make(chan struct{})
		defer close(slow)
		if err := kd.Submit(bg, "slow", func() { <-slow }); err != nil {
			t.Fatal(err)
		}
		var done atomic.Int64
		for i := range 100 {
			if err := kd.Submit(bg, fmt.Sprint("fast", i%10), func() { done.Add(1) }); err != nil {
				t.Fatal(err)
			}
		}
		synctest.Wait() // only the slow task is left, blocked
		if done.Load() != 100 {
			t.Fatalf("%d of 100 fast tasks ran while one key's task was slow", done.Load())
		}
	})
}

// TestKeyedMemoryFlat: KEY-4. A key costs nothing once its tasks have run:
// after a million distinct keys, one task each, the Keyed holds no key and
// the heap is what it was after the first few thousand.
func TestKeyedMemoryFlat(t *testing.T) {
	keys := 1 << 20
	if raceEnabled {
		keys = 1 << 18 // the race detector makes each task slower, not each key costlier
	}
	p := mustNew(t, 4)
	kd := mustKeyed[int](t, p)
	var ran atomic.Int64
	task := func() { ran.Add(1) }
	submit := func(from, to int) {
		for k := from; k < to; k++ {
			if err := kd.Submit(bg, k, task); err != nil {
				t.Fatal(err)
			}
		}
		for ran.Load() < int64(to) || p.Stats().Keys > 0 {
			runtime.Gosched()
		}
	}
	heap := func() uint64 {
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return m.HeapAlloc
	}
	const warm = 1 << 14
	submit(0, warm)
	before := heap()
	submit(warm, keys)
	after := heap()
	if s := p.Stats(); s.Keys != 0 || s.KeyedWaiting != 0 {
		t.Errorf("after every task ran, Keys = %d and KeyedWaiting = %d, want 0", s.Keys, s.KeyedWaiting)
	}
	// A key that stayed would cost at least its entry (over 100 bytes);
	// a million of them, 100 MB. Allow 4 MB for the runtime's own churn.
	if after > before+4<<20 {
		t.Errorf("heap grew from %d to %d bytes over %d distinct keys", before, after, keys-warm)
	}
	t.Logf("heap %d bytes after %d keys, %d after %d", before, warm, after, keys)
}

// TestKeyedKeyFull: KEY-5. A key's queue holds WithQueueSize tasks; past
// that Submit returns ErrKeyFull, which matches ErrOverload, counts as an
// overload rejection, and leaves other keys alone.
func TestKeyedKeyFull(t *testing.T) {
	p := mustNew(t, 2)
	kd := mustKeyed[string](t, p, pool.WithQueueSize(2))
	hold := make(chan struct{})
	release := sync.OnceFunc(func() { close(hold) })
	defer release() // a failed check must not leave the task holding the pool
	started := make(chan struct{})
	if err := kd.Submit(bg, "a", func() { close(started); <-hold }); err != nil {
		t.Fatal(err)
	}
	<-started
	var ran atomic.Int64
	for i := range 2 {
		if err := kd.Submit(bg, "a", func() { ran.Add(1) }); err != nil {
			t.Fatalf("task %d of a full key's queue: %v", i, err)
		}
	}
	err := kd.Submit(bg, "a", func() { t.Error("a refused task ran") })
	if !errors.Is(err, pool.ErrKeyFull) || !errors.Is(err, pool.ErrOverload) || !errors.Is(err, resize.ErrOverload) {
		t.Fatalf("Submit to a full key = %v, want ErrKeyFull matching ErrOverload", err)
	}
	bRan := make(chan struct{})
	if err := kd.Submit(bg, "b", func() { ran.Add(1); close(bRan) }); err != nil {
		t.Fatalf("another key beside a full one: %v", err)
	}
	<-bRan
	for p.Stats().Keys > 1 { // b's turn drops b just after its task
		runtime.Gosched()
	}
	if s := p.Stats(); s.RejectedOverload != 1 || s.KeyedWaiting != 2 || s.Keys != 1 {
		t.Errorf("RejectedOverload, KeyedWaiting, Keys = %d, %d, %d, want 1, 2, 1", s.RejectedOverload, s.KeyedWaiting, s.Keys)
	}
	release()
	if err := shutdownWithin(p, time.Minute); err != nil {
		t.Fatal(err)
	}
	if ran.Load() != 3 {
		t.Errorf("%d accepted tasks ran, want 3", ran.Load())
	}
}

// TestKeyedPanicAndGoexit: KEY-6. A keyed task that panics or calls
// runtime.Goexit ends as a plain task does (the handler sees the panic,
// Stats counts it) and its key's next tasks still run, in order.
func TestKeyedPanicAndGoexit(t *testing.T) {
	var handled atomic.Int64
	p := mustNew(t, 2, pool.WithPanicHandler(func(any) { handled.Add(1) }))
	kd := mustKeyed[int](t, p, pool.WithBudget(2))
	log := newKeyLog(t)
	const n = 60
	for i := range n {
		var body func()
		switch i % 3 {
		case 1:
			body = func() { panic(fmt.Sprint("task ", i)) }
		case 2:
			body = runtimeGoexit
		}
		if err := kd.Submit(bg, 7, log.task(7, i, body)); err != nil {
			t.Fatal(err)
		}
	}
	if err := shutdownWithin(p, time.Minute); err != nil {
		t.Fatal(err)
	}
	log.ranAllInOrder(t, 7, n)
	if h, s := handled.Load(), p.Stats(); h != n/3 || s.Panicked != n/3 {
		t.Errorf("handler saw %d panics, Stats.Panicked = %d, want %d", h, s.Panicked, n/3)
	}
}

// TestKeyedCloseRunsAccepted: KEY-7. Close stops keyed intake with
// ErrClosed, and every keyed task accepted before it still runs, in order,
// across turns; Shutdown waits for them.
func TestKeyedCloseRunsAccepted(t *testing.T) {
	p := mustNew(t, 1, pool.WithPanicHandler(func(any) {}))
	kd := mustKeyed[int](t, p, pool.WithBudget(2))
	log := newKeyLog(t)
	hold := make(chan struct{})
	if err := p.Submit(bg, func() { <-hold }); err != nil {
		t.Fatal(err)
	}
	const keys, each = 3, 10
	for i := range each {
		for k := range keys {
			var body func()
			if i == 4 {
				body = func() { panic("after close") } // its continuation goes on a closed pool
			}
			if err := kd.Submit(bg, k, log.task(k, i, body)); err != nil {
				t.Fatal(err)
			}
		}
	}
	p.Close()
	if err := kd.Submit(bg, 0, func() { t.Error("a task refused after Close ran") }); !errors.Is(err, pool.ErrClosed) {
		t.Errorf("Submit after Close = %v, want ErrClosed", err)
	}
	if err := kd.Submit(bg, 99, func() { t.Error("a task refused after Close ran") }); !errors.Is(err, pool.ErrClosed) {
		t.Errorf("Submit of a new key after Close = %v, want ErrClosed", err)
	}
	close(hold)
	if err := shutdownWithin(p, time.Minute); err != nil {
		t.Fatal(err)
	}
	for k := range keys {
		log.ranAllInOrder(t, k, each)
	}
}

// TestKeyedShutdownNow: KEY-7. ShutdownNow hands back the keyed tasks that
// have not started, one function per key: no task starts in the pool after
// it, the running ones finish, and the functions run the rest in order,
// so that every accepted task runs exactly once. (The hooked
// TestBreakKeyTurnBeforeShutdownNow covers a turn a worker has taken but
// not begun.)
func TestKeyedShutdownNow(t *testing.T) {
	for _, capacity := range []int{1, 3} {
		t.Run(fmt.Sprint("cap", capacity), func(t *testing.T) {
			p := mustNew(t, capacity)
			kd := mustKeyed[int](t, p, pool.WithBudget(2))
			log := newKeyLog(t)
			hold := make(chan struct{})
			var running atomic.Int64
			var plain atomic.Int64
			const keys, each = 4, 9
			for i := range each {
				for k := range keys {
					var body func()
					if i == 0 {
						body = func() { running.Add(1); <-hold }
					}
					if err := kd.Submit(bg, k, log.task(k, i, body)); err != nil {
						t.Fatal(err)
					}
				}
			}
			if err := p.Submit(bg, func() { plain.Add(1) }); err != nil {
				t.Fatal(err)
			}
			for running.Load() < int64(capacity) { // every worker holds a key's first task
				runtime.Gosched()
			}
			back := p.ShutdownNow()
			snapshot := map[int]int{}
			for k := range keys {
				snapshot[k] = len(log.order(k))
			}
			close(hold)
			if err := shutdownWithin(p, time.Minute); err != nil {
				t.Fatal(err)
			}
			for k := range keys {
				if n := len(log.order(k)); n != snapshot[k] {
					t.Errorf("key %d: %d tasks started in the pool after ShutdownNow", k, n-snapshot[k])
				}
			}
			if want := keys + 1; len(back) != want {
				t.Fatalf("ShutdownNow handed back %d functions, want one per key and the plain task, %d", len(back), want)
			}
			// The plain task comes first, though the keys' turns were
			// queued before it: a function per key after the plain tasks.
			started := 0
			for k := range keys {
				started += len(log.order(k))
			}
			back[0]()
			if plain.Load() != 1 {
				t.Errorf("the first function handed back is not the plain task")
			}
			for k := range keys {
				started -= len(log.order(k))
			}
			if started != 0 {
				t.Errorf("the first function handed back ran %d keyed tasks", -started)
			}
			for _, f := range back[1:] {
				f()
			}
			for k := range keys {
				log.ranAllInOrder(t, k, each) // those handed back included
			}
			if plain.Load() != 1 {
				t.Errorf("the plain task ran %d times", plain.Load())
			}
		})
	}
}

// TestKeyedResizeBound: KEY-8. Resize bounds keyed tasks as plain ones: after
// a shrink no more than the new capacity run, and a grow lets more keys
// run at once.
func TestKeyedResizeBound(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p := mustNew(t, 4)
		kd := mustKeyed[int](t, p)
		tr := newTracker()
		gate := make(chan struct{})
		for k := range 8 {
			if err := kd.Submit(bg, k, tr.task(k, gate)); err != nil {
				t.Fatal(err)
			}
		}
		synctest.Wait()
		if n := tr.now.Load(); n != 4 {
			t.Fatalf("on a pool of 4, %d keys run", n)
		}
		if err := p.Resize(6); err != nil {
			t.Fatal(err)
		}
		synctest.Wait()
		if tr.now.Load() != 6 {
			t.Fatalf("after Resize(6), %d keys run", tr.now.Load())
		}
		if err := p.Resize(1); err != nil {
			t.Fatal(err)
		}
		after := newTracker() // the keys submitted after the shrink, and any old task running beside them
		var old atomic.Int64
		old.Store(tr.now.Load())
		for k := range 8 {
			task := after.task(100+k, nil)
			if err := kd.Submit(bg, 100+k, func() {
				if n := tr.now.Load(); n > 0 {
					t.Errorf("a key started after Resize(1) beside %d running tasks", n)
				}
				task()
			}); err != nil {
				t.Fatal(err)
			}
		}
		close(gate)
		if err := shutdownWithin(p, time.Minute); err != nil {
			t.Fatal(err)
		}
		if peak := after.peak.Load(); peak != 1 {
			t.Errorf("after Resize(1), %d keys ran at once", peak)
		}
		if n := tr.total() + after.total(); n != 16 {
			t.Errorf("%d tasks ran, want 16", n)
		}
	})
}

// TestKeyedInsideTask: KEY-9. A keyed task may submit to its own key (the
// new task runs after it) and to a new key on a saturated pool without
// waiting for the slot it holds.
func TestKeyedInsideTask(t *testing.T) {
	p := mustNew(t, 1, pool.WithQueueSize(1))
	kd := mustKeyed[int](t, p)
	log := newKeyLog(t)
	done := make(chan error, 1)
	err := kd.Submit(bg, 1, log.task(1, 0, func() {
		if err := kd.Submit(bg, 1, log.task(1, 1, nil)); err != nil {
			done <- err
			return
		}
		if err := p.Submit(bg, func() {}); err != nil { // fills the queue
			done <- err
			return
		}
		ctx, cancel := context.WithTimeout(bg, time.Minute)
		defer cancel()
		done <- kd.Submit(ctx, 2, log.task(2, 0, nil)) // no room: runs the queued task in this slot
	}))
	if err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatalf("Submit from inside a task = %v", err)
	}
	if err := shutdownWithin(p, time.Minute); err != nil {
		t.Fatal(err)
	}
	if got := log.order(1); len(got) != 2 || got[0] != 0 || got[1] != 1 {
		t.Errorf("key 1 ran %v, want [0 1]", got)
	}
	if got := log.order(2); len(got) != 1 {
		t.Errorf("key 2 ran %v, want [0]", got)
	}
}

// TestKeyedAdmissionWaits: KEY-10. A new key enters the pool as a plain
// task does: on a saturated pool its Submit waits for room as ctx allows,
// and a second Submit for the same key waits for that outcome, as its own
// ctx allows. Refused, neither task runs.
func TestKeyedAdmissionWaits(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p := mustNew(t, 1, pool.WithQueueSize(1))
		kd := mustKeyed[string](t, p)
		hold := make(chan struct{})
		if err := p.Submit(bg, func() { <-hold }); err != nil {
			t.Fatal(err)
		}
		if err := p.Submit(bg, func() {}); err != nil { // the queue is full
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(bg, 20*time.Millisecond)
		defer cancel()
		first := make(chan error, 1)
		go func() { first <- kd.Submit(ctx, "k", func() { t.Error("a refused task ran") }) }()
		synctest.Wait() // the first Submit waits for room
		if w := p.Stats().Waiting; w != 2 {
			t.Fatalf("Waiting = %d with the first Submit blocked, want 2", w)
		}
		ctx2, cancel2 := context.WithTimeout(bg, 10*time.Millisecond)
		defer cancel2()
		if err := kd.Submit(ctx2, "k", func() { t.Error("a refused task ran") }); !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("second Submit while the key is admitted = %v, want DeadlineExceeded", err)
		}
		if err := <-first; !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("Submit of a new key on a saturated pool = %v, want DeadlineExceeded", err)
		}
		if s := p.Stats(); s.Keys != 0 || s.KeyedWaiting != 0 || s.RejectedContext != 2 {
			t.Errorf("Keys, KeyedWaiting, RejectedContext = %d, %d, %d, want 0, 0, 2", s.Keys, s.KeyedWaiting, s.RejectedContext)
		}
		var ran atomic.Bool
		second := make(chan error, 1)
		go func() { second <- kd.Submit(bg, "k", func() { ran.Store(true) }) }()
		close(hold)
		if err := <-second; err != nil {
			t.Fatal(err)
		}
		if err := shutdownWithin(p, time.Minute); err != nil {
			t.Fatal(err)
		}
		if !ran.Load() {
			t.Error("the task admitted once room appeared never ran")
		}
	})
}

// TestKeyedOverloadRefuses: KEY-10. Under WithMaxWaiting(0) a new key on a
// saturated pool is refused with ErrOverload, as a plain task is.
func TestKeyedOverloadRefuses(t *testing.T) {
	p := mustNew(t, 1, pool.WithQueueSize(0), pool.WithMaxWaiting(0))
	kd := mustKeyed[int](t, p)
	hold := make(chan struct{})
	defer close(hold)
	if err := p.Submit(bg, func() { <-hold }); err != nil {
		t.Fatal(err)
	}
	if err := kd.Submit(bg, 1, func() {}); !errors.Is(err, pool.ErrOverload) || errors.Is(err, pool.ErrKeyFull) {
		t.Errorf("Submit of a new key on a saturated pool = %v, want ErrOverload (not ErrKeyFull)", err)
	}
}

// TestKeyedBadInput: KEY-11. Nil and invalid inputs are errors, never a
// panic or a hang.
func TestKeyedBadInput(t *testing.T) {
	p := mustNew(t, 1)
	if _, err := pool.NewKeyed[int](nil); !errors.Is(err, pool.ErrInvalidOption) {
		t.Errorf("NewKeyed(nil) = %v, want ErrInvalidOption", err)
	}
	for _, o := range []pool.KeyedOption{nil, pool.WithBudget(0), pool.WithQueueSize(0), pool.WithQueueSize(-1), pool.WithQueueSize(1 << 21)} {
		if _, err := pool.NewKeyed[int](p, o); !errors.Is(err, pool.ErrInvalidOption) {
			t.Errorf("NewKeyed with a bad option = %v, want ErrInvalidOption", err)
		}
	}
	var nilKeyed *pool.Keyed[int]
	if err := nilKeyed.Submit(bg, 1, func() {}); err == nil {
		t.Error("Submit on a nil *Keyed = nil")
	}
	kd := mustKeyed[int](t, p)
	if err := kd.Submit(bg, 1, nil); !errors.Is(err, pool.ErrNilTask) {
		t.Errorf("nil task: %v", err)
	}
	//lint:ignore SA1012 a nil context is the input under test
	if err := kd.Submit(nil, 1, func() {}); !errors.Is(err, pool.ErrNilContext) { //nolint:staticcheck
		t.Errorf("nil ctx: %v", err)
	}
	done, cancel := context.WithCancel(bg)
	cancel()
	if err := kd.Submit(done, 1, func() { t.Error("ran") }); !errors.Is(err, context.Canceled) {
		t.Errorf("done ctx: %v", err)
	}
	fk := mustKeyed[float64](t, p)
	if err := fk.Submit(bg, math.NaN(), func() { t.Error("ran") }); !errors.Is(err, pool.ErrInvalidKey) {
		t.Errorf("NaN key: %v", err)
	}
	ak := mustKeyed[any](t, p)
	if err := ak.Submit(bg, []int{1}, func() { t.Error("ran") }); !errors.Is(err, pool.ErrInvalidKey) {
		t.Errorf("uncomparable key: %v", err)
	}
	if err := ak.Submit(bg, math.NaN(), func() { t.Error("ran") }); !errors.Is(err, pool.ErrInvalidKey) {
		t.Errorf("NaN in an interface key: %v", err)
	}
	// An interface deep inside a key's type holds an uncomparable value:
	// comparing or hashing the key would panic.
	type inner struct{ v any }
	type deep struct {
		id  int
		arr [2]inner
	}
	dk := mustKeyed[deep](t, p)
	bad := deep{id: 1, arr: [2]inner{{v: 1}, {v: []int{1}}}}
	if err := dk.Submit(bg, bad, func() { t.Error("ran") }); !errors.Is(err, pool.ErrInvalidKey) {
		t.Errorf("a slice in an interface inside a struct key's array: %v, want ErrInvalidKey", err)
	}
	if err := dk.Submit(bg, deep{arr: [2]inner{{v: math.NaN()}}}, func() { t.Error("ran") }); !errors.Is(err, pool.ErrInvalidKey) {
		t.Errorf("a NaN in an interface inside a struct key: %v, want ErrInvalidKey", err)
	}
	if s := p.Stats(); s.Keys != 0 {
		t.Errorf("refused keys left %d keys", s.Keys)
	}
	deepRan := make(chan struct{})
	if err := dk.Submit(bg, deep{id: 2, arr: [2]inner{{v: "a"}, {v: 2}}}, func() { close(deepRan) }); err != nil {
		t.Errorf("a valid struct key with interfaces inside: %v", err)
	}
	<-deepRan
	ran := make(chan struct{})
	if err := ak.Submit(bg, "fine", func() { close(ran) }); err != nil {
		t.Errorf("a valid interface key: %v", err)
	}
	<-ran
	// A key is dropped just after its last task returns, not before the
	// task's own close(ran) is seen here.
	for deadline := time.Now().Add(10 * time.Second); p.Stats().Keys != 0; runtime.Gosched() {
		if time.Now().After(deadline) {
			t.Fatalf("valid keys left %d keys after their tasks ran", p.Stats().Keys)
		}
	}
	var zero pool.Pool // a zero pool is closed (API-2): no Keyed is made on it
	if zk, err := pool.NewKeyed[int](&zero); zk != nil || !errors.Is(err, pool.ErrClosed) {
		t.Errorf("NewKeyed on a zero pool = %v, %v; want no Keyed and ErrClosed", zk != nil, err)
	}
	if got := zero.ShutdownNow(); len(got) != 0 {
		t.Errorf("ShutdownNow of a zero pool handed back %d functions", len(got))
	}
}

// TestLayersOnClosedPool: KEY-11, PRI-9. NewKeyed and NewScheduler on a
// pool that Close, Shutdown or ShutdownNow has closed return an error
// matching ErrClosed (and resize.ErrClosed), and no Keyed or Scheduler.
func TestLayersOnClosedPool(t *testing.T) {
	for _, c := range []struct {
		name  string
		close func(*pool.Pool)
	}{
		{"Close", (*pool.Pool).Close},
		{"Shutdown", func(p *pool.Pool) {
			if err := shutdownWithin(p, time.Minute); err != nil {
				t.Fatal(err)
			}
		}},
		{"ShutdownNow", func(p *pool.Pool) { p.ShutdownNow() }},
	} {
		p := mustNew(t, 1)
		c.close(p)
		kd, err := pool.NewKeyed[int](p)
		if kd != nil || !errors.Is(err, pool.ErrClosed) || !errors.Is(err, resize.ErrClosed) || err.Error() != "pool: NewKeyed: poolkit: closed" {
			t.Errorf("after %s: NewKeyed returned a Keyed: %t, and %v; want none, and pool: NewKeyed: poolkit: closed", c.name, kd != nil, err)
		}
		s, err := pool.NewScheduler(p)
		if s != nil || !errors.Is(err, pool.ErrClosed) || !errors.Is(err, resize.ErrClosed) || err.Error() != "pool: NewScheduler: poolkit: closed" {
			t.Errorf("after %s: NewScheduler returned a Scheduler: %t, and %v; want none, and pool: NewScheduler: poolkit: closed", c.name, s != nil, err)
		}
	}
}

// TestKeyShardIsACacheLine: each shard of a Keyed has a cache line of its
// own, so that two CPUs taking two shards' locks do not share one.
func TestKeyShardIsACacheLine(t *testing.T) {
	if n := pool.KeyShardSize(); n != 64 {
		t.Errorf("a shard takes %d bytes, want 64", n)
	}
}
