package natsrunner

import "time"

// Stats is a snapshot of a Runner's counters. Fields are read one after
// another; once the runner is idle, Fetched == Acked + Naked + Termed.
type Stats struct {
	Fetched   uint64 // messages received from pulls
	Acked     uint64 // Ack or DoubleAck calls
	Naked     uint64 // Nak or NakWithDelay calls, after failures or at shutdown
	Termed    uint64 // Term calls: last attempt failed, or malformed
	Failed    uint64 // handler calls that returned an error or panicked
	Panics    uint64 // handler calls that panicked (counted in Failed too)
	Malformed uint64 // messages whose metadata could not be read (Termed)
	// SettleErrors counts Ack, Nak and Term calls that returned an error;
	// the server redelivers those messages after AckWait.
	SettleErrors uint64
	Progress     uint64 // InProgress signals sent by the runner
	FetchErrors  uint64 // pulls that failed and were retried
	// Retries counts the handler calls of a keyed runner (WithKey) that
	// handled a failed message again in place, rather than Nak it.
	Retries  uint64
	InFlight int // messages fetched and not yet settled
	// Handled counts handler calls that returned (or panicked), and
	// HandlerTime is their summed duration: HandlerTime / Handled is the
	// mean handler latency. Calls still running are in neither.
	Handled     uint64
	HandlerTime time.Duration
}

// MeanHandlerTime is the mean duration of the handler calls that
// returned, or 0 if none did. The difference of two snapshots gives the
// mean over an interval: see Sub.
func (s Stats) MeanHandlerTime() time.Duration {
	if s.Handled == 0 {
		return 0
	}
	return s.HandlerTime / time.Duration(s.Handled)
}

// NakRate is the fraction of settled messages that were nak'd (Naked /
// (Acked + Naked + Termed)), or 0 if none was settled.
func (s Stats) NakRate() float64 {
	n := s.Acked + s.Naked + s.Termed
	if n == 0 {
		return 0
	}
	return float64(s.Naked) / float64(n)
}

// Sub returns the counters accumulated between the snapshot old and s
// (every counter of s minus old's); InFlight is s's.
func (s Stats) Sub(old Stats) Stats {
	return Stats{
		Fetched:      s.Fetched - old.Fetched,
		Acked:        s.Acked - old.Acked,
		Naked:        s.Naked - old.Naked,
		Termed:       s.Termed - old.Termed,
		Failed:       s.Failed - old.Failed,
		Panics:       s.Panics - old.Panics,
		Malformed:    s.Malformed - old.Malformed,
		SettleErrors: s.SettleErrors - old.SettleErrors,
		Progress:     s.Progress - old.Progress,
		FetchErrors:  s.FetchErrors - old.FetchErrors,
		Retries:      s.Retries - old.Retries,
		InFlight:     s.InFlight,
		Handled:      s.Handled - old.Handled,
		HandlerTime:  s.HandlerTime - old.HandlerTime,
	}
}

// Stats returns a snapshot of the runner's counters.
func (r *Runner) Stats() Stats {
	r.mu.Lock()
	n := len(r.inflight)
	r.mu.Unlock()
	return Stats{
		Fetched:      r.fetched.Load(),
		Acked:        r.acked.Load(),
		Naked:        r.naked.Load(),
		Termed:       r.termed.Load(),
		Failed:       r.failed.Load(),
		Panics:       r.panics.Load(),
		Malformed:    r.malformed.Load(),
		SettleErrors: r.settleErrors.Load(),
		Progress:     r.progress.Load(),
		FetchErrors:  r.fetchErrors.Load(),
		Retries:      r.retries.Load(),
		InFlight:     n,
		Handled:      r.handled.Load(),
		HandlerTime:  time.Duration(r.handlerNanos.Load()),
	}
}
