package autoscale

import (
	"strings"
	"testing"
	"time"
)

// roomyAt is a window of CPU-bound work on 2 CPUs with room: 1,650 tasks a
// second of 0.52 ms of computation, the process using 0.87 CPUs, the p99
// wait at wait. At two workers the busy workers read 1.2 and the service
// times 0.73 ms, as spread as exponential ones and more (cs² 1.4): the
// scheduler's wake-ups and threads set aside. At one the tasks are alike
// (cs² 0.06).
func roomyAt(at time.Duration, n int, wait time.Duration) Observation {
	s := 520 * time.Microsecond
	o := withCPU(steadyAt(at, n, 1650, s), 0.87, 0.1)
	o.ServiceSD, o.WaitP99 = s/4, wait
	if n >= 2 {
		o.Busy, o.Service, o.ServiceSD = 1.2, 727*time.Microsecond, 860*time.Microsecond
	}
	return o
}

// TestLawTriesAWorkerFewer: at two workers the readings of CPU-bound work
// on CPUs with room ask for two under the default objective (the spread is
// the scheduler's), though the load is 0.87 of one worker. The law tries
// one, which keeps the objective, and keeps it: for the rest of a minute no
// size change, a tick a backlog brought forward that reads its arrivals
// high included, since one worker empties its queue within a tick at the
// regular windows' rate, and a window whose p99 wait broke the objective
// once. A queue one worker does not empty within a tick grows the pool. Where the load does not fit one worker, or a third of
// the busy workers are blocked (the readings are not the scheduler's), no
// trial.
func TestLawTriesAWorkerFewer(t *testing.T) {
	ms := time.Millisecond
	l := newObjectiveLaw(64)
	n, at := 2, time.Duration(0)
	for ; at < 3*time.Second && n == 2; at += 250 * ms {
		n = l.decide(roomyAt(at, n, 5*ms)).to
	}
	if n != 1 {
		t.Fatalf("%v at two workers, load 0.87 of one: %d workers, want a trial of one", at, n)
	}
	changes := 0
	for end := at + time.Minute; at < end; at += 250 * ms {
		o := roomyAt(at, n, 5*ms)
		if at%(10*time.Second) == 2500*ms {
			// One window's p99 wait above the objective: noise.
			o.Queue, o.WaitP99 = 2, 16*ms
		}
		if at%(5*time.Second) == 0 {
			// An early tick 30 ms into a window: a queue of 20, and
			// arrivals at 2,333 a second, beyond their Poisson spread
			// (and, smoothed in, the rate at which one worker would
			// not empty it within a tick).
			o.Window, o.Arrivals, o.Completions, o.Lambda = 30*ms, 70, 50, 2333
			o.Queue, o.Busy, o.BusyNow, o.WaitP50 = 20, 1, 1, ms
			to := decideEarly(l, o).to
			changes += abs(to - n)
			n = to
			continue
		}
		to := l.decide(o).to
		changes += abs(to - n)
		n = to
	}
	if n != 1 || changes != 0 {
		t.Fatalf("after a passed trial: %d workers, %d size changes in a minute; want 1 and none", n, changes)
	}
	o := roomyAt(at, 1, 5*ms)
	o.Window, o.Arrivals, o.Completions, o.Lambda = 30*ms, 70, 50, 2333
	o.Queue, o.Busy, o.BusyNow, o.WaitP50 = 80, 1, 1, 20*ms
	if d := decideEarly(l, o); d.to < 2 {
		t.Fatalf("a queue of 80 at one worker (it empties 68 a tick): %d (%q), want growth", d.to, d.reason)
	}

	for _, c := range []struct {
		name   string
		modify func(Observation) Observation
	}{
		{"load of 1.1 workers", func(o Observation) Observation {
			o.Lambda, o.Throughput, o.Arrivals, o.Completions = 2100, 2100, 525, 525
			o.CPU, o.Busy = 1.15, 1.5
			return o
		}},
		{"a third blocked", func(o Observation) Observation { o.CPU = 0.6; return o }},
	} {
		c := c
		t.Run(c.name, func(t *testing.T) {
			l := newObjectiveLaw(64)
			for at := time.Duration(0); at < 10*time.Second; at += 250 * ms {
				if d := l.decide(c.modify(roomyAt(at, 2, 5*ms))); d.to != 2 {
					t.Fatalf("%v: %d workers (%q), want 2", at, d.to, d.reason)
				}
			}
		})
	}
}

// TestLawTriesOnAQueue: at a load the CPUs serve with room, a window may
// end with a few tasks queued (arrivals that clustered at its end); where
// one worker fewer empties them within a tick, they do not put the trial
// off. A queue it would not empty does.
func TestLawTriesOnAQueue(t *testing.T) {
	ms := time.Millisecond
	for _, c := range []struct {
		queue int
		want  int
	}{{3, 1}, {100, 2}} {
		l := newObjectiveLaw(64)
		n := 2
		for at := time.Duration(0); at < 3*time.Second && n == 2; at += 250 * ms {
			o := roomyAt(at, n, 5*ms)
			o.Queue = c.queue
			n = l.decide(o).to
		}
		if n != c.want {
			t.Errorf("a queue of %d at every tick, two workers at a load of 0.87 of one: %d workers, want %d", c.queue, n, c.want)
		}
	}
}

// TestLawEarlyWindowNoStrike: at the size a trial kept, a tick a backlog
// brought forward reads the p99 wait of the few dozen tasks that arrived
// clustered: above the objective there, it is not the first of the two
// windows in a row that send the pool back. Two regular ones are.
func TestLawEarlyWindowNoStrike(t *testing.T) {
	ms := time.Millisecond
	l := newObjectiveLaw(64)
	n, at := 2, time.Duration(0)
	for ; at < 10*time.Second; at += 250 * ms {
		n = l.decide(roomyAt(at, n, 5*ms)).to
	}
	if n != 1 {
		t.Fatalf("no trial of one worker in 10s: %d", n)
	}
	o := roomyAt(at-220*ms, 1, 16*ms)
	o.Window, o.Arrivals, o.Completions, o.Lambda = 30*ms, 50, 50, 1650
	o.Queue, o.Busy, o.BusyNow = 4, 1, 1
	if d := decideEarly(l, o); d.to != 1 {
		t.Fatalf("an early window, p99 16ms: %d (%q), want 1", d.to, d.reason)
	}
	late := roomyAt(at, 1, 16*ms)
	late.Queue = 2
	if d := l.decide(late); d.to != 1 {
		t.Fatalf("one regular window, p99 16ms, after an early one: %d (%q), want 1", d.to, d.reason)
	}
	late.At = late.At.Add(250 * ms)
	if d := l.decide(late); d.to != 2 {
		t.Fatalf("two regular windows in a row, p99 16ms: %d (%q), want 2", d.to, d.reason)
	}
}

// TestLawTrialFailsBack: a worker fewer whose p99 wait breaks the
// objective in two windows in a row (one window may be noise) goes back,
// and the next trial waits trialHold, then twice that: trials that keep
// failing cost a few size changes a minute, then fewer.
func TestLawTrialFailsBack(t *testing.T) {
	ms := time.Millisecond
	l := newObjectiveLaw(64)
	n, at := 2, time.Duration(0)
	var trials []time.Duration
	for ; at < 3*time.Minute; at += 250 * ms {
		wait := 5 * ms
		if n == 1 {
			wait = 16 * ms // above the objective of 10 ms
		}
		d := l.decide(roomyAt(at, n, wait))
		if d.to < n {
			trials = append(trials, at)
		}
		if d.to > n && !strings.Contains(d.reason, "back to 2") {
			t.Fatalf("%v: %d → %d (%q), want a failed trial's reason", at, n, d.to, d.reason)
		}
		n = d.to
	}
	if len(trials) < 3 {
		t.Fatalf("trials at %v, want three at least in 3 minutes", trials)
	}
	for i, want := range []time.Duration{trialHold, 2 * trialHold} {
		if gap := trials[i+1] - trials[i]; gap < want || gap > want+2*time.Second {
			t.Errorf("trial %d at %v, %v after the one before; want %v after", i+2, trials[i+1], gap, want)
		}
	}
}

func abs(n int) int { return max(n, -n) }
