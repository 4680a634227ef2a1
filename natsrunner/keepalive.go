package natsrunner

import "time"

// ackWait is the AckWait the keep-alive ticker works against.
func (r *Runner) ackWait() time.Duration {
	if r.cfg.ackWait > 0 {
		return r.cfg.ackWait
	}
	if info := r.cachedInfo(); info != nil && info.Config.AckWait > 0 {
		return info.Config.AckWait
	}
	return DefaultAckWait
}

// keepAlive sends InProgress for every in-flight message not signalled for
// half of AckWait, from one ticker for the whole runner.
func (r *Runner) keepAlive(stop <-chan struct{}) {
	aw := r.ackWait()
	t := time.NewTicker(max(aw/4, time.Millisecond))
	defer t.Stop()
	var batch []*entry
	for {
		select {
		case <-stop:
			return
		case now := <-t.C:
			batch = batch[:0]
			r.mu.Lock()
			for e := range r.inflight {
				batch = append(batch, e)
			}
			r.mu.Unlock()
			for _, e := range batch {
				e.mu.Lock()
				if !e.settled && now.Sub(e.lastSeen) >= aw/2 {
					if e.msg.InProgress() == nil {
						r.progress.Add(1)
					}
					e.lastSeen = now
				}
				e.mu.Unlock()
			}
			clear(batch)
		}
	}
}
