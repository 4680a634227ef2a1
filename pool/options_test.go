package pool_test

import (
	"reflect"
	"testing"
	"time"

	"github.com/poolkit/poolkit/pool"
)

// TestOptionsByConstructor: API-39. Each constructor takes its own option
// type, so that an option given to the wrong one is a compile error: the
// pool's options are Options only, WithBudget a KeyedOption only,
// WithMaxWait a SchedulerOption only, and the two queue options are all
// three.
func TestOptionsByConstructor(t *testing.T) {
	var (
		forPool      = reflect.TypeOf((*pool.Option)(nil)).Elem()
		forKeyed     = reflect.TypeOf((*pool.KeyedOption)(nil)).Elem()
		forScheduler = reflect.TypeOf((*pool.SchedulerOption)(nil)).Elem()
	)
	for _, c := range []struct {
		name                  string
		opt                   any
		pool, keyed, schedule bool
	}{
		{"WithQueueSize", pool.WithQueueSize(1), true, true, true},
		{"WithUnboundedQueue", pool.WithUnboundedQueue(), true, true, true},
		{"WithMaxWaiting", pool.WithMaxWaiting(1), true, false, false},
		{"WithIdleTimeout", pool.WithIdleTimeout(time.Second), true, false, false},
		{"WithMinWorkers", pool.WithMinWorkers(1), true, false, false},
		{"WithPanicHandler", pool.WithPanicHandler(nil), true, false, false},
		{"WithTimings", pool.WithTimings(), true, false, false},
		{"WithLogger", pool.WithLogger(nil), true, false, false},
		{"WithBudget", pool.WithBudget(1), false, true, false},
		{"WithMaxWait", pool.WithMaxWait(time.Second), false, false, true},
	} {
		ty := reflect.TypeOf(c.opt)
		if got := ty.Implements(forPool); got != c.pool {
			t.Errorf("%s is a pool's option: %v, want %v", c.name, got, c.pool)
		}
		if got := ty.Implements(forKeyed); got != c.keyed {
			t.Errorf("%s is a Keyed's option: %v, want %v", c.name, got, c.keyed)
		}
		if got := ty.Implements(forScheduler); got != c.schedule {
			t.Errorf("%s is a Scheduler's option: %v, want %v", c.name, got, c.schedule)
		}
	}
}
