package spectest

import (
	"context"
	"slices"
	"sync"
	"time"
)

type syncWaitGroup = sync.WaitGroup

func contextWithTimeout(d time.Duration) (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), d)
}

func slicesSort(s []int) { slices.Sort(s) }
