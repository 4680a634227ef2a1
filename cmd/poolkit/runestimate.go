package main

import (
	"math"
	"slices"
	"sync"
	"time"
)

// runEstimate follows the whole run against its plan, stage by stage,
// and says how much of it is done and how long it has left: one figure
// for the run, all stages and their builds weighted by their expected
// times, where each stage's own progress would say of that stage only.
//
// The share done is of the expected time: a finished stage counts its
// expected time whatever it took, the running one what it says it did
// (or its time so far, up to its expected time, when it cannot tell).
// It never goes back.
//
// The time left is what remains of the plan at the pace of the run so
// far, the ratio of the time the work took to the time it was expected
// to take, blended with the plan's own pace (1) as though the plan had
// already been seen to hold for pacePrior: a few seconds of a stage
// moving fast or slow do not rescale the whole rest of the run. What
// remains of the running stage, when it tells its share done, goes at
// its own pace, blended likewise with the run's. The builds, whose time
// depends on the build cache rather than the machine's pace, count at
// their expected times and teach the pace nothing.
//
// The expected end the line shows moves toward that estimate smoothly
// (by a share 1-e^(-dt/smoothing) of the gap per dt), later by at most
// the time that passed and earlier by at most twice that: the time left
// never grows, and never falls more than three times as fast as the
// clock. A stage that runs slow holds the time left where it is until
// it catches up; it does not jump.
type runEstimate struct {
	mu     sync.Mutex
	start  time.Time
	stages []stageState
	// end is the expected end shown, last moved at moved.
	end, moved time.Time
	// shown is the share done shown last: the share never goes back.
	shown float64
	// known: end holds an estimate (a run with nothing planned has none
	// until a stage tells its total).
	known bool
}

const (
	// pacePrior is the weight of the plan's own pace against what the
	// run has measured, for the stages to come; stagePrior the weight of
	// the run's pace against the running stage's own, for what remains
	// of it.
	pacePrior  = 2 * time.Minute
	stagePrior = 30 * time.Second
	// smoothing is the time constant of the expected end's moves.
	smoothing = 15 * time.Second
)

// stageState is one stage's plan and where it stands.
type stageState struct {
	stagePlan
	phase phase
	// from is when the current phase began.
	from time.Time
	// built and worked are the time spent in the phases that ended.
	built, worked time.Duration
	// done is the work done, in expected time, as the stage said it; -1
	// when it cannot tell.
	done time.Duration
}

type phase int

const (
	pending phase = iota
	building
	working
	ended
)

// newRunEstimate starts following a run that started at start and
// follows plan: the time left is the plan's whole time at first.
func newRunEstimate(start time.Time, plan []stagePlan) *runEstimate {
	e := &runEstimate{start: start, moved: start}
	for _, p := range plan {
		e.stages = append(e.stages, stageState{stagePlan: p, done: -1})
	}
	e.end, e.known = start.Add(planned(plan)), planned(plan) > 0
	return e
}

// stage is the state of the named stage; a stage the plan lacks is
// added, with nothing expected of it.
func (e *runEstimate) stage(name string) *stageState {
	i := slices.IndexFunc(e.stages, func(s stageState) bool { return s.stage == name })
	if i < 0 {
		e.stages = append(e.stages, stageState{stagePlan: stagePlan{stage: name}, done: -1})
		i = len(e.stages) - 1
	}
	return &e.stages[i]
}

// close ends the stage's current phase at now.
func (s *stageState) close(now time.Time) {
	switch s.phase {
	case building:
		s.built += now.Sub(s.from)
	case working:
		s.worked += now.Sub(s.from)
	}
}

// begin says that the stage starts at now: its work, until it says that
// it builds.
func (e *runEstimate) begin(name string, now time.Time) {
	e.mu.Lock()
	defer e.mu.Unlock()
	s := e.stage(name)
	s.phase, s.from = working, now
}

// building says that the stage builds from now on. What it did before
// counts as building.
func (e *runEstimate) building(name string, now time.Time) {
	e.mu.Lock()
	defer e.mu.Unlock()
	s := e.stage(name)
	// A stage that says nothing before it builds started with its build:
	// it keeps its start.
	if s.phase != working || s.done >= 0 || s.worked > 0 {
		s.close(now)
		s.from = now
	}
	s.phase = building
}

// built says that the stage's build ended at now, and its work starts.
func (e *runEstimate) built(name string, now time.Time) {
	e.mu.Lock()
	defer e.mu.Unlock()
	s := e.stage(name)
	s.close(now)
	s.phase, s.from = working, now
}

// update says that the stage's work done is expected to take done of
// its total (done < 0: it cannot tell).
func (e *runEstimate) update(name string, done, total time.Duration, now time.Time) {
	e.mu.Lock()
	defer e.mu.Unlock()
	s := e.stage(name)
	if s.phase != working {
		s.close(now)
		s.phase, s.from = working, now
	}
	if total > 0 {
		s.work = total
	}
	s.done = done
}

// finish says that the stage ended at now.
func (e *runEstimate) finish(name string, now time.Time) {
	e.mu.Lock()
	defer e.mu.Unlock()
	s := e.stage(name)
	s.close(now)
	s.phase = ended
}

// status is the run's share done and its time left as of now; ok is
// false when nothing is expected of the run, which can then tell
// neither. It moves the expected end shown: call it as the time passes
// (every tick), with now never going back.
func (e *runEstimate) status(now time.Time) (share float64, left time.Duration, ok bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	done, total, raw := e.raw(now)
	if total <= 0 {
		return 0, 0, false
	}
	e.shown = max(e.shown, min(1, float64(done)/float64(total)))
	if !e.known {
		e.end, e.moved, e.known = now.Add(raw), now, true
	}
	if dt := now.Sub(e.moved); dt > 0 {
		gap := now.Add(raw).Sub(e.end)
		step := time.Duration(float64(gap) * (1 - math.Exp(-float64(dt)/float64(smoothing))))
		e.end = e.end.Add(min(max(step, -2*dt), dt))
		e.moved = now
	}
	return e.shown, max(0, e.end.Sub(now)), true
}

// raw is the plan's expected time done and in all, and the time left
// at the run's pace, as of now, unsmoothed.
func (e *runEstimate) raw(now time.Time) (done, total, left time.Duration) {
	// took and expected: the time the work measured so far took, and was
	// expected to take.
	var took, expected time.Duration
	var builds, rest time.Duration // expected, still to come
	// current is what remains of the running stage's work at a pace.
	current := func(float64) time.Duration { return 0 }
	for i := range e.stages {
		s := &e.stages[i]
		total += s.build + s.work
		switch s.phase {
		case pending:
			builds += s.build
			rest += s.work
		case building:
			b := now.Sub(s.from) + s.built
			done += min(b, s.build)
			builds += max(0, s.build-b)
			rest += s.work
		case working:
			w := now.Sub(s.from) + s.worked
			done += s.build
			if s.done >= 0 && s.work > 0 {
				// Its own pace, blended with the run's.
				d := min(s.done, s.work)
				done += d
				took += w
				expected += d
				current = func(pace float64) time.Duration {
					own := (float64(w) + float64(stagePrior)*pace) / float64(d+stagePrior)
					return time.Duration(float64(s.work-d) * own)
				}
			} else {
				// Its time is its share done, up to its expected time; the
				// rest comes at the run's pace.
				d := min(w, s.work*99/100)
				done += d
				took += w
				expected += min(w, s.work)
				current = func(pace float64) time.Duration {
					return max(0, time.Duration(float64(s.work)*pace)-w)
				}
			}
		case ended:
			done += s.build + s.work
			took += s.worked
			expected += s.work
		}
	}
	pace := float64(took+pacePrior) / float64(expected+pacePrior)
	return done, total, builds + time.Duration(float64(rest)*pace) + current(pace)
}
