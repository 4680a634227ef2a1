package actorpool

import "time"

// Directive is what happens to an actor whose handler panicked.
type Directive uint8

const (
	// Restart replaces the behaviour with a fresh one from the actor's
	// producer (PostStop on the old value, PreStart on the new), after a
	// backoff, and goes on with the next message. The mailbox is kept.
	Restart Directive = iota
	// Resume keeps the behaviour and its state and goes on with the next
	// message.
	Resume
	// Stop stops the actor; its queued messages become dead letters.
	Stop
)

// Supervisor says what to do when an actor's handler panics. The message
// being handled is not retried; an Ask waiting on it is answered with a
// *PanicError.
//
// A restart budget keeps a crash loop from spinning for ever: once an
// actor has been restarted MaxRestarts times within Within, the next panic
// stops it. Restarts are delayed by a backoff that starts at MinBackoff
// and doubles with each restart in the window, up to MaxBackoff; while it
// waits the actor handles system messages only (a Stop still stops it),
// and holds no worker.
type Supervisor struct {
	Directive   Directive
	MaxRestarts int           // restarts allowed within Within; 0 means the next panic stops
	Within      time.Duration // the window over which restarts are counted
	MinBackoff  time.Duration // delay before the first restart in the window; 0: none
	MaxBackoff  time.Duration // cap on the delay
}

// DefaultSupervisor restarts, at most 10 times a minute, after 1 ms,
// doubling up to 1 s.
var DefaultSupervisor = Supervisor{
	Directive:   Restart,
	MaxRestarts: 10,
	Within:      time.Minute,
	MinBackoff:  time.Millisecond,
	MaxBackoff:  time.Second,
}

func (s Supervisor) valid() bool {
	return s.Directive <= Stop && s.MaxRestarts >= 0 && s.Within >= 0 &&
		s.MinBackoff >= 0 && s.MaxBackoff >= s.MinBackoff
}

// restartDelay decides a restart at now: ok false when the budget is
// spent; otherwise the backoff to wait. recent is the actor's record of
// its restarts, updated in place.
func (s Supervisor) restartDelay(recent *[]time.Time, now time.Time) (time.Duration, bool) {
	kept := (*recent)[:0]
	for _, t := range *recent {
		if now.Sub(t) < s.Within {
			kept = append(kept, t)
		}
	}
	*recent = kept
	if len(kept) >= s.MaxRestarts {
		return 0, false
	}
	*recent = append(kept, now)
	d := s.MinBackoff
	for i := 0; i < len(kept); i++ {
		if d >= s.MaxBackoff/2 {
			d = s.MaxBackoff
			break
		}
		d *= 2
	}
	return min(d, s.MaxBackoff), true
}
