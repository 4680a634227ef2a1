package bench

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"

	"github.com/poolkit/poolkit/pool"
)

// Keyed work: tasks of one key run one at a time, in order; different keys
// in parallel. poolkit's pool.Keyed is compared with the two ways Go
// services build it by hand: hashing each key onto one of N single-worker
// channels, and a goroutine per key that lives while the key has work.

// keyedRunner runs tasks by key. Close waits for every accepted task.
type keyedRunner interface {
	Submit(key int, task func()) error
	Close() error
}

// keyedContender builds a keyedRunner with the given number of workers.
type keyedContender struct {
	name string
	make func(workers int) (keyedRunner, error)
}

func keyedContenders() []keyedContender {
	return []keyedContender{
		{"poolkit", newPoolkitKeyed},
		{"hash-to-N-channels", newHashedChannels},
		{"goroutine-per-key", newGoroutinePerKey},
	}
}

// keyedPoolkit is pool.Keyed on a pool of the given workers. Its keys'
// queues are unbounded, as the goroutine-per-key map's are, so that a
// submitter never sees ErrKeyFull; the hashed channels hold 1,024 tasks
// each and block beyond.
type keyedPoolkit struct {
	p  *pool.Pool
	kd *pool.Keyed[int]
}

func newPoolkitKeyed(workers int) (keyedRunner, error) {
	p, err := pool.New(workers)
	if err != nil {
		return nil, err
	}
	kd, err := pool.NewKeyed[int](p, pool.WithUnboundedQueue())
	if err != nil {
		return nil, err
	}
	return keyedPoolkit{p, kd}, nil
}

func (k keyedPoolkit) Submit(key int, task func()) error {
	return k.kd.Submit(context.Background(), key, task)
}

func (k keyedPoolkit) Close() error { return k.p.Shutdown(context.Background()) }

// hashedChannels is the usual workaround: key % N picks one of N channels,
// each drained by one goroutine. A slow task blocks every key of its
// channel, a hot key gets one worker at most, and N is fixed.
type hashedChannels struct {
	chs []chan func()
	wg  sync.WaitGroup
}

func newHashedChannels(workers int) (keyedRunner, error) {
	h := &hashedChannels{chs: make([]chan func(), workers)}
	for i := range h.chs {
		ch := make(chan func(), 1024)
		h.chs[i] = ch
		h.wg.Add(1)
		go func() {
			defer h.wg.Done()
			for t := range ch {
				t()
			}
		}()
	}
	return h, nil
}

func (h *hashedChannels) Submit(key int, task func()) error {
	h.chs[uint(key)%uint(len(h.chs))] <- task
	return nil
}

func (h *hashedChannels) Close() error {
	for _, ch := range h.chs {
		close(ch)
	}
	h.wg.Wait()
	return nil
}

// goroutinePerKey starts a goroutine for a key when it gets work and ends
// it when the key's queue empties: no head-of-line blocking, no bound on
// how many keys run at once.
type goroutinePerKey struct {
	mu   sync.Mutex
	keys map[int]*perKey
	wg   sync.WaitGroup
}

type perKey struct{ q []func() }

func newGoroutinePerKey(int) (keyedRunner, error) {
	return &goroutinePerKey{keys: make(map[int]*perKey)}, nil
}

func (g *goroutinePerKey) Submit(key int, task func()) error {
	g.mu.Lock()
	k := g.keys[key]
	if k != nil {
		k.q = append(k.q, task)
		g.mu.Unlock()
		return nil
	}
	k = &perKey{q: []func(){task}}
	g.keys[key] = k
	g.wg.Add(1)
	g.mu.Unlock()
	go g.drain(key, k)
	return nil
}

func (g *goroutinePerKey) drain(key int, k *perKey) {
	defer g.wg.Done()
	for {
		g.mu.Lock()
		if len(k.q) == 0 {
			delete(g.keys, key)
			g.mu.Unlock()
			return
		}
		t := k.q[0]
		k.q[0] = nil
		k.q = k.q[1:]
		g.mu.Unlock()
		t()
	}
}

func (g *goroutinePerKey) Close() error { g.wg.Wait(); return nil }

// keyedWorkers is the workers of the keyed workloads (the channels' N).
const keyedWorkers = 8

// keyCount is how many distinct keys the keyed workloads draw from.
const keyCount = 1024

func keyedUniform() Workload {
	return keyedThroughputWorkload("KeyedUniform",
		"GOMAXPROCS x 8 goroutines submit ~100 ns tasks for 1,024 keys drawn uniformly, 8 workers; one op is one task",
		func(r *rand.Rand) int { return r.IntN(keyCount) })
}

func keyedZipf() Workload {
	return keyedThroughputWorkload("KeyedZipf",
		"as KeyedUniform, keys drawn from a Zipf law (s = 1.1): the hottest key gets about a sixth of the tasks", nil)
}

// keyedThroughputWorkload is a keyedThroughput run for every contender.
func keyedThroughputWorkload(name, about string, pick func(*rand.Rand) int) Workload {
	return Workload{
		Name: name, About: about,
		Quick: "50ms", Full: "300ms",
		Cases: eachKeyed(func(c keyedContender) func(*testing.B) { return keyedThroughput(c, pick) }),
	}
}

func keyedSlowKey() Workload {
	return Workload{
		Name: "KeyedSlowKey",
		About: "head-of-line blocking: one key gets a 1 ms task every 2 ms while tasks for the other 1,023 keys arrive 50 every millisecond, 8 workers; " +
			"p50, p99 and p99.9 of their wait from their burst to their start; the time per op shown is the p99 wait (the pace is the same for all); one op is one such task",
		Quick: "500ms", Full: "2s", // a p99.9 wants thousands of tasks
		Cases: eachKeyed(keyedColdLatency),
	}
}

func eachKeyed(f func(c keyedContender) func(*testing.B)) []Case {
	var cases []Case
	for _, c := range keyedContenders() {
		cases = append(cases, Case{Impl: c.name, F: f(c)})
	}
	return cases
}

// keyedThroughput submits tasks from many goroutines, each for a key pick
// draws (nil: Zipf), and checks that each key's tasks ran in order, one at
// a time.
func keyedThroughput(c keyedContender, pick func(*rand.Rand) int) func(*testing.B) {
	return func(b *testing.B) {
		r, err := c.make(keyedWorkers)
		if err != nil {
			problem(b, c.name, err.Error())
		}
		// last[k] is the sequence number of key k's last task, written
		// only by the task that runs (one at a time per key): a task
		// that finds a number from another submitter's later task, or a
		// key busy, reports disorder.
		var keys [keyCount]struct {
			busy bool
			_    [63]byte
		}
		var wg sync.WaitGroup
		var failed firstError
		var seed uint64
		var seedMu sync.Mutex
		b.ReportAllocs()
		b.SetParallelism(submitters)
		b.ResetTimer()
		b.RunParallel(func(pb *testing.PB) {
			seedMu.Lock()
			seed++
			rng := rand.New(rand.NewPCG(seed, 42))
			seedMu.Unlock()
			zipf := rand.NewZipf(rng, 1.1, 1, keyCount-1)
			var i uint64
			for pb.Next() {
				i++
				var k int
				if pick != nil {
					k = pick(rng)
				} else {
					k = int(zipf.Uint64())
				}
				wg.Add(1)
				err := r.Submit(k, func() {
					if keys[k].busy {
						failed.set(fmt.Errorf("two tasks of key %d ran at once", k))
					}
					keys[k].busy = true
					sink.Add(spin(i) & 1)
					keys[k].busy = false
					wg.Done()
				})
				if err != nil {
					failed.set(fmt.Errorf("Submit = %v", err))
					wg.Done()
					return
				}
			}
		})
		wg.Wait()
		b.StopTimer()
		if err := r.Close(); err != nil {
			problem(b, c.name, fmt.Sprintf("Close = %v", err))
		}
		if err := failed.get(); err != nil {
			problem(b, c.name, err.Error())
		}
	}
}

// keyedColdLatency measures how long tasks of ordinary keys wait to start
// while one key's tasks are slow. The ordinary tasks arrive at a fixed
// rate, coldPerTick every millisecond, whatever happens to them (an open
// loop: a submitter that waited for each task would submit fewer of them
// exactly while they wait, and hide the waits), and each one's wait counts
// from the start of its burst.
func keyedColdLatency(c keyedContender) func(*testing.B) {
	return func(b *testing.B) {
		r, err := c.make(keyedWorkers)
		if err != nil {
			problem(b, c.name, err.Error())
		}
		stop := make(chan struct{})
		slowDone := make(chan error, 1)
		go func() { // key 0: a 1 ms task every 2 ms, busy half the time
			t := time.NewTicker(2 * time.Millisecond)
			defer t.Stop()
			for {
				select {
				case <-stop:
					slowDone <- nil
					return
				case <-t.C:
					if err := r.Submit(0, func() { time.Sleep(time.Millisecond) }); err != nil {
						slowDone <- err
						return
					}
				}
			}
		}()
		waits := make([]int64, b.N)
		var done sync.WaitGroup
		var failed firstError
		rng := rand.New(rand.NewPCG(uint64(b.N), 7))
		b.ReportAllocs()
		b.ResetTimer()
		tick := time.NewTicker(time.Millisecond)
	submitting:
		for i := 0; i < b.N; {
			<-tick.C
			due := time.Now() // not the tick's own time: the timer's lateness is not the contender's
			for range coldPerTick {
				if i == b.N {
					break
				}
				done.Add(1)
				at := &waits[i]
				if err := r.Submit(1+rng.IntN(keyCount-1), func() {
					*at = int64(time.Since(due))
					done.Done()
				}); err != nil {
					failed.set(fmt.Errorf("Submit = %v", err))
					done.Done()
					break submitting
				}
				i++
			}
		}
		tick.Stop()
		done.Wait()
		b.StopTimer()
		close(stop)
		if err := <-slowDone; err != nil {
			failed.set(err)
		}
		if err := r.Close(); err != nil {
			problem(b, c.name, fmt.Sprintf("Close = %v", err))
		}
		if err := failed.get(); err != nil {
			problem(b, c.name, err.Error())
		}
		h := hdrhistogram.New(1, maxLatency, 3)
		for _, w := range waits {
			_ = h.RecordValue(min(max(w, 1), maxLatency))
		}
		b.ReportMetric(float64(h.ValueAtQuantile(50)), "p50-ns")
		b.ReportMetric(float64(h.ValueAtQuantile(99)), "p99-ns")
		// The time per op would be the pace, the same for everyone: the
		// op's figure, and the ratio the report ranks by, is the p99 wait.
		b.ReportMetric(float64(h.ValueAtQuantile(99)), "ns/op")
		b.ReportMetric(float64(h.ValueAtQuantile(99.9)), "p99.9-ns")
	}
}

// coldPerTick is how many tasks of the ordinary keys KeyedSlowKey submits
// each millisecond: 50,000 a second, well within what every contender
// sustains, in bursts that queue a little for every contender alike.
const coldPerTick = 50
