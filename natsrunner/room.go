package natsrunner

import (
	"context"
	"runtime"
	"time"
)

// free is how many tasks the pool could start now, plus the queue the
// runner may keep in it (WithQueued). Stats' fields are read one after
// another, so a task passing from the queue to a worker between two reads
// is counted in neither; the runner's own count of its tasks in the pool
// is exact, and the larger of the two is what fills the pool.
//
// The loop pulls at most this many messages and waitRoom waits for it to
// turn positive: how room is counted is decided here alone.
func (r *Runner) free() int {
	own := int(r.inPool.Load())
	if room := r.pool.Cap() - own + r.cfg.queued; room <= 0 {
		// The runner's own messages fill the pool: Stats, which copies
		// the pool's histograms, could only find less room.
		return room
	}
	s := r.pool.Stats()
	busy := max(s.Running+s.Waiting, own)
	return s.Cap - busy + r.cfg.queued
}

// waitRoom returns once the runner may pull again, or ctx is done. With no
// queue allowance (WithQueued), that is when the pool can start a task at
// once: the pool's own wait (WaitRoom), woken by a worker that runs out of
// work, a Resize that grows, or a close. With one, the runner's own tasks
// matter too, since their queued messages start without making the pool
// idle: it returns when one of its tasks finished, or the poll interval
// passed (the capacity may have grown by a Resize). So too for a keyed
// runner (WithKey), whose messages waiting behind their keys take room
// while the pool may have a slot free.
func (r *Runner) waitRoom(ctx context.Context) {
	if r.cfg.queued == 0 && r.keyed == nil {
		_, _ = r.pool.WaitRoom(ctx) // closed: the loop sees it in Stats
		return
	}
	t := time.NewTimer(r.cfg.pollInterval)
	defer t.Stop()
	select {
	case <-ctx.Done():
	case <-t.C:
	case <-r.finished:
		// The task signals just before it returns to the pool; give it
		// the moment it needs to leave the pool's running count.
		for range 4 {
			if r.free() > 0 {
				return
			}
			runtime.Gosched()
		}
	}
}

// signal wakes the loop waiting for room, or the drain waiting for the
// settlements. It never blocks a task: the channel holds one wake-up, and
// one already pending serves for this one too.
func (r *Runner) signal() {
	select {
	case r.finished <- struct{}{}:
	default:
	}
}
