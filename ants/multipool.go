package ants

import (
	"context"
	"fmt"
	"math"
	"sync"
	"sync/atomic"
	"time"

	"github.com/poolkit/poolkit/resize"
)

// LoadBalancingStrategy says how a multi-pool picks the sub-pool for a task.
type LoadBalancingStrategy int

const (
	// RoundRobin takes the sub-pools in turn; when the chosen one is
	// non-blocking and full, the task goes to the one with the fewest
	// running tasks instead.
	RoundRobin LoadBalancingStrategy = 1 << (iota + 1)

	// LeastTasks takes the sub-pool with the fewest running tasks.
	LeastTasks
)

// subPool is what a multi-pool needs of its sub-pools.
type subPool interface {
	busy() int
	Running() int
	Free() int
	Waiting() int
	Cap() int
	Tune(size int)
	Resize(n int) error
	Release()
	releaseDone() <-chan struct{}
	Reboot()
}

// multi is the part of MultiPool, MultiPoolWithFunc and
// MultiPoolWithFuncGeneric that does not depend on the task type.
//
// The capacity of a multi-pool is the sum of its sub-pools', as in ants
// (-1 for each unlimited sub-pool). Tune(size) tunes each sub-pool to
// size, as ants' does, so that Cap then reports size times the number of
// sub-pools; Resize(n), which ants lacks, sets the sum: sub-pool i gets
// n/k, plus one if i < n%k, for k sub-pools. That share never falls when n
// grows, so a grow only grows sub-pools and a shrink only shrinks them.
// Cap reads the sum as last set, under the same lock as the sub-pools'
// resizes: a grow sets it before growing the sub-pools, a shrink after
// shrinking them.
//
// Each sub-pool keeps its own bound, not the sum's: after a shrink, tasks
// still running in one sub-pool above its new share do not stop another
// from starting tasks up to its own share, so until that excess drains more
// than Cap() tasks may run (never more than before the shrink). That is the
// price of sharding, as in ants; package pool's single pool keeps the bound
// exactly.
type multi[P subPool] struct {
	pools    []P
	index    atomic.Uint32
	lbs      LoadBalancingStrategy
	closed   atomic.Bool
	capacity atomic.Int64

	// mu serialises Resize, releases, and the two ends of Reboot, so that
	// the sub-pools are all open or all released whenever it is free.
	mu sync.Mutex
	// releases counts releases, so that a Reboot that a release overtook
	// does not reopen the pool. Guarded by mu.
	releases uint64
	// rebootMu serialises Reboots: each sees the outcome of the one before
	// (whose end may release every sub-pool again), so none reopens the
	// multi-pool over sub-pools that another closed.
	rebootMu sync.Mutex
}

// init builds the sub-pools. A multi-pool that was not built (a zero
// value) has none: it rejects every task with ErrPoolClosed and reports
// zeros.
func (m *multi[P]) init(size, sizePerPool int, lbs LoadBalancingStrategy, build func() (P, error)) error {
	if size <= 0 {
		return ErrInvalidMultiPoolSize
	}
	if lbs != RoundRobin && lbs != LeastTasks {
		return ErrInvalidLoadBalancingStrategy
	}
	pools := make([]P, size)
	for i := range pools {
		p, err := build()
		if err != nil {
			for _, q := range pools[:i] {
				q.Release()
			}
			return err
		}
		pools[i] = p
	}
	m.pools, m.lbs = pools, lbs
	m.index.Store(math.MaxUint32) // the first task goes to sub-pool 0
	m.capacity.Store(int64(m.sumCaps()))
	return nil
}

// next returns the index of the sub-pool for the next task.
func (m *multi[P]) next(lbs LoadBalancingStrategy) int {
	if lbs == RoundRobin {
		return int(m.index.Add(1) % uint32(len(m.pools)))
	}
	idx, least := 0, math.MaxInt
	for i, p := range m.pools {
		if n := p.busy(); n < least {
			idx, least = i, n
		}
	}
	return idx
}

// dispatch hands a to a sub-pool with call (a method expression such as
// (*Pool).Submit), and tries the least busy sub-pool once when a
// round-robin pick was overloaded.
func dispatch[P subPool, A any](m *multi[P], call func(P, A) error, a A) error {
	if m.closed.Load() || len(m.pools) == 0 {
		return ErrPoolClosed
	}
	err := call(m.pools[m.next(m.lbs)], a)
	if err == ErrPoolOverload && m.lbs == RoundRobin {
		return call(m.pools[m.next(LeastTasks)], a)
	}
	return err
}

// Running returns the number of tasks running in all the sub-pools.
func (m *multi[P]) Running() (n int) {
	for _, p := range m.pools {
		n += p.Running()
	}
	return n
}

// RunningByIndex returns the number of tasks running in sub-pool idx, or
// ErrInvalidPoolIndex.
func (m *multi[P]) RunningByIndex(idx int) (int, error) {
	if idx < 0 || idx >= len(m.pools) {
		return -1, ErrInvalidPoolIndex
	}
	return m.pools[idx].Running(), nil
}

// Free returns the sum of the sub-pools' Free.
func (m *multi[P]) Free() (n int) {
	for _, p := range m.pools {
		n += p.Free()
	}
	return n
}

// FreeByIndex returns sub-pool idx's Free, or ErrInvalidPoolIndex.
func (m *multi[P]) FreeByIndex(idx int) (int, error) {
	if idx < 0 || idx >= len(m.pools) {
		return -1, ErrInvalidPoolIndex
	}
	return m.pools[idx].Free(), nil
}

// Waiting returns the number of submitters blocked in all the sub-pools.
func (m *multi[P]) Waiting() (n int) {
	for _, p := range m.pools {
		n += p.Waiting()
	}
	return n
}

// WaitingByIndex returns sub-pool idx's Waiting, or ErrInvalidPoolIndex.
func (m *multi[P]) WaitingByIndex(idx int) (int, error) {
	if idx < 0 || idx >= len(m.pools) {
		return -1, ErrInvalidPoolIndex
	}
	return m.pools[idx].Waiting(), nil
}

// Cap returns the capacity: the sum of the sub-pools' capacities (-1 for
// each unlimited one), as the constructor, the latest Tune or Resize left
// it.
func (m *multi[P]) Cap() int { return int(m.capacity.Load()) }

// sumCaps adds the sub-pools' capacities up. Requires m.mu, or a
// multi-pool not yet shared.
func (m *multi[P]) sumCaps() (n int) {
	for _, p := range m.pools {
		n += p.Cap()
	}
	return n
}

// Tune tunes each sub-pool to size, as ants' Tune does: each then runs up
// to size tasks, so Cap reports size times the number of sub-pools. A
// sub-pool ignores it as a pool's Tune does (unlimited, WithPreAlloc, a
// size below 1), and a released one reopens with it. Resize sets the total
// instead.
func (m *multi[P]) Tune(size int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	old := m.capacity.Load()
	grow := int64(size)*int64(len(m.pools)) > old
	if grow {
		m.capacity.Store(int64(size) * int64(len(m.pools)))
	}
	for _, p := range m.pools {
		p.Tune(size)
	}
	m.capacity.Store(int64(m.sumCaps()))
}

// Resize sets the capacity, the sum over the sub-pools, to n, spread evenly
// over them; it implements resize.Resizer. Each sub-pool keeps at least one
// slot and takes at most resize.MaxSize, so n below the number of
// sub-pools, or above resize.MaxSize times it, is an error matching
// ErrInvalidPoolSize, whose text names n and the valid range; a released
// pool returns ErrPoolClosed. Either way
// nothing changes. Like a pool's Resize, it interrupts no running task and
// never waits.
func (m *multi[P]) Resize(n int) error {
	k := len(m.pools)
	if k == 0 {
		return ErrPoolClosed
	}
	if hi := maxCapacity(k); n < k || n > hi {
		return &capacityError{n: n, k: k, hi: hi}
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed.Load() {
		return ErrPoolClosed
	}
	old := m.capacity.Load()
	if int64(n) > old {
		m.capacity.Store(int64(n))
	}
	for i, p := range m.pools {
		share := n / k
		if i < n%k {
			share++
		}
		if err := p.Resize(share); err != nil {
			return err // cannot happen: mu keeps the sub-pools open
		}
	}
	m.capacity.Store(int64(n))
	return nil
}

// maxCapacity is the largest capacity k sub-pools take: resize.MaxSize
// each, or the largest int where that sum overflows one.
func maxCapacity(k int) int {
	if k > math.MaxInt/resize.MaxSize {
		return math.MaxInt
	}
	return k * resize.MaxSize
}

// capacityError is a multi-pool's Resize error for a capacity its
// sub-pools cannot share: it names the capacity and the valid range, and
// matches ErrInvalidPoolSize.
type capacityError struct{ n, k, hi int }

func (e *capacityError) Error() string {
	return fmt.Sprintf("ants: invalid capacity %d for %d sub-pools: want %d to %d", e.n, e.k, e.k, e.hi)
}

func (e *capacityError) Unwrap() error { return ErrInvalidPoolSize }

// IsClosed reports whether the multi-pool has been released (and not
// rebooted).
func (m *multi[P]) IsClosed() bool { return m.closed.Load() || len(m.pools) == 0 }

// release closes the multi-pool and all its sub-pools without waiting,
// and returns the channels that close when the sub-pools' lives it closed
// have ended; as in ants, it does nothing, and ok is false, on a
// multi-pool already released. A caller waits on those channels, never by
// closing a sub-pool again: a Reboot may have reopened it meanwhile, and
// its new life is not the caller's to end.
func (m *multi[P]) release() (done []<-chan struct{}, ok bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed.Load() || len(m.pools) == 0 {
		return nil, false
	}
	m.closed.Store(true)
	m.releases++
	done = make([]<-chan struct{}, len(m.pools))
	for i, p := range m.pools {
		done[i] = p.releaseDone()
	}
	return done, true
}

// await waits for every channel in done, until stop is closed; it returns
// how many had not closed by then. A channel that has closed wins over a
// stop that has too.
func await(done []<-chan struct{}, stop <-chan struct{}) (unfinished int) {
	for i, d := range done {
		select {
		case <-d:
			continue
		default:
		}
		select {
		case <-d:
		case <-stop:
			for _, d := range done[i:] {
				select {
				case <-d:
				default:
					unfinished++
				}
			}
			return unfinished
		}
	}
	return 0
}

// ReleaseTimeout releases every sub-pool and waits until all their tasks
// have finished and their workers exited, or returns an error matching
// ErrTimeout once timeout has passed. On a multi-pool already released it
// returns ErrPoolClosed at once, as in ants.
func (m *multi[P]) ReleaseTimeout(timeout time.Duration) error {
	done, ok := m.release()
	if !ok {
		return ErrPoolClosed
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	if unfinished := await(done, ctx.Done()); unfinished > 0 {
		return fmt.Errorf("ants: %d of %d sub-pools not finished: %w", unfinished, len(m.pools), ErrTimeout)
	}
	return nil
}

// ReleaseContext is ReleaseTimeout bounded by ctx: it returns an error
// matching ctx.Err() if ctx is done first. A nil ctx releases the pool and
// returns nil at once, as in ants; a multi-pool already released is
// ErrPoolClosed.
func (m *multi[P]) ReleaseContext(ctx context.Context) error {
	done, ok := m.release()
	if !ok {
		return ErrPoolClosed
	}
	if ctx == nil {
		return nil
	}
	if unfinished := await(done, ctx.Done()); unfinished > 0 {
		return fmt.Errorf("ants: %d of %d sub-pools not finished: %w", unfinished, len(m.pools), ctx.Err())
	}
	return nil
}

// Reboot reopens a released multi-pool: each sub-pool in turn, after
// waiting for its previous life, then the multi-pool itself, unless it was
// released again meanwhile. On an open multi-pool it does nothing.
func (m *multi[P]) Reboot() {
	m.rebootMu.Lock()
	defer m.rebootMu.Unlock()
	m.mu.Lock()
	if !m.closed.Load() {
		m.mu.Unlock()
		return
	}
	releases := m.releases
	m.mu.Unlock()
	for _, p := range m.pools {
		p.Reboot()
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.releases != releases {
		for _, p := range m.pools {
			p.Release() // a release came while the sub-pools were reopening
		}
		return
	}
	m.capacity.Store(int64(m.sumCaps())) // a Tune while released applies now
	m.closed.Store(false)
}

// MultiPool spreads tasks over several Pools, to cut contention between
// submitters, under one capacity. Build one with NewMultiPool.
type MultiPool struct{ multi[*Pool] }

var _ resize.Resizer = (*MultiPool)(nil)

// NewMultiPool returns a multi-pool of size Pools of sizePerPool each,
// with the given strategy: ErrInvalidMultiPoolSize for a size below 1,
// ErrInvalidLoadBalancingStrategy for an unknown strategy, and NewPool's
// errors for sizePerPool and the options.
func NewMultiPool(size, sizePerPool int, lbs LoadBalancingStrategy, options ...Option) (*MultiPool, error) {
	mp := new(MultiPool)
	if err := mp.init(size, sizePerPool, lbs, func() (*Pool, error) { return NewPool(sizePerPool, options...) }); err != nil {
		return nil, err
	}
	return mp, nil
}

// Submit hands task to a sub-pool picked by the strategy, with
// Pool.Submit's outcomes; ErrPoolClosed once the multi-pool is released.
func (mp *MultiPool) Submit(task func()) error { return dispatch(&mp.multi, (*Pool).Submit, task) }

// MultiPoolWithFunc spreads arguments over several PoolWithFuncs, under one
// capacity. Build one with NewMultiPoolWithFunc.
type MultiPoolWithFunc struct{ multi[*PoolWithFunc] }

var _ resize.Resizer = (*MultiPoolWithFunc)(nil)

// NewMultiPoolWithFunc returns a multi-pool of size PoolWithFuncs calling
// fn, of sizePerPool each; its errors are NewMultiPool's and
// ErrLackPoolFunc.
func NewMultiPoolWithFunc(size, sizePerPool int, fn func(any), lbs LoadBalancingStrategy, options ...Option) (*MultiPoolWithFunc, error) {
	mp := new(MultiPoolWithFunc)
	if err := mp.init(size, sizePerPool, lbs, func() (*PoolWithFunc, error) {
		return NewPoolWithFunc(sizePerPool, fn, options...)
	}); err != nil {
		return nil, err
	}
	return mp, nil
}

// Invoke hands args to a sub-pool picked by the strategy, with
// PoolWithFunc.Invoke's outcomes.
func (mp *MultiPoolWithFunc) Invoke(args any) error {
	return dispatch(&mp.multi, (*PoolWithFunc).Invoke, args)
}

// MultiPoolWithFuncGeneric spreads arguments of type T over several
// PoolWithFuncGenerics, under one capacity. Build one with
// NewMultiPoolWithFuncGeneric.
type MultiPoolWithFuncGeneric[T any] struct {
	multi[*PoolWithFuncGeneric[T]]
}

// NewMultiPoolWithFuncGeneric returns a multi-pool of size
// PoolWithFuncGenerics calling fn, of sizePerPool each; its errors are
// NewMultiPoolWithFunc's.
func NewMultiPoolWithFuncGeneric[T any](size, sizePerPool int, fn func(T), lbs LoadBalancingStrategy, options ...Option) (*MultiPoolWithFuncGeneric[T], error) {
	mp := new(MultiPoolWithFuncGeneric[T])
	if err := mp.init(size, sizePerPool, lbs, func() (*PoolWithFuncGeneric[T], error) {
		return NewPoolWithFuncGeneric(sizePerPool, fn, options...)
	}); err != nil {
		return nil, err
	}
	return mp, nil
}

// Invoke hands args to a sub-pool picked by the strategy, with
// PoolWithFuncGeneric.Invoke's outcomes.
func (mp *MultiPoolWithFuncGeneric[T]) Invoke(args T) error {
	return dispatch(&mp.multi, (*PoolWithFuncGeneric[T]).Invoke, args)
}
