package main

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"
)

// progress shows a long stage as it runs, and times it. Every line starts
// with the time since the run started, which only grows from one stage to
// the next; a stage's own time, with the part spent building, is measured
// once, here, and the terminal and the report both show that measurement.
type progress interface {
	// Building says that the stage builds what, which its estimates leave
	// out (a first build fetches and compiles modules: minutes). The
	// progress shows the build's time meanwhile.
	Building(what string)
	// Built ends the build: the stage's work and the pace its time left is
	// estimated from start now.
	Built()
	// Update says that the finished work is expected to take done of the
	// stage's total, and what runs next. A negative done says that the
	// stage cannot tell: the progress is then the time against the total.
	Update(done, total time.Duration, what string)
	// Finish ends the display and the stage's clock. Calls after the
	// first do nothing.
	Finish()
	// End finishes the stage and says how it ended: how long it took, or
	// when stopped, that it was stopped (interrupted) after how long.
	End(stopped bool)
	// Took is how long the stage took, up to Finish.
	Took() stageTime
}

// stageTime is how long one stage took, and how much of that went into
// building its test binaries; or that it was stopped, or never ran.
type stageTime struct {
	Stage        string
	Total, Build time.Duration
	Ended        stageEnd
}

// stageEnd says how a stage ended.
type stageEnd int

const (
	// completed: the stage ran to its end (its outcome may be an error).
	completed stageEnd = iota
	// stopped: an interrupt stopped it; nothing of it is kept.
	stopped
	// notRun: the run was interrupted before it.
	notRun
)

// String is the stage's time as the terminal and the report show it:
// "2m56s (building 2m17s)", "stopped after 12.0s", "not run".
func (t stageTime) String() string {
	switch {
	case t.Ended == notRun:
		return "not run"
	case t.Ended == stopped:
		return "stopped after " + formatTime(t.Total)
	case t.Build > 0:
		return fmt.Sprintf("%s (building %s)", formatTime(t.Total), formatTime(t.Build))
	}
	return formatTime(t.Total)
}

// stageTimes says how long each stage took: "bench 1m32s, actors 2m56s
// (building 2m17s)".
func stageTimes(ts []stageTime) string {
	s := make([]string, len(ts))
	for i, t := range ts {
		s[i] = t.Stage + " " + t.String()
	}
	return strings.Join(s, ", ")
}

// tick is how often a stage's display is refreshed without news from the
// stage: a build, a test or a benchmark may say nothing for minutes.
const tick = time.Second

// newProgress shows the stage on a bar when stdout and stderr are
// terminals and plain was not asked for, else in plain lines on out;
// est follows the whole run, which started at est.start.
func newProgress(stage string, plain bool, out io.Writer, est *runEstimate) progress {
	var s screen
	if !plain && isTerminal(os.Stdout) && isTerminal(os.Stderr) {
		s = &barScreen{}
	} else {
		s = &plainScreen{out: out, every: 10 * time.Second}
	}
	return newStageProgress(stage, s, out, est)
}

func isTerminal(f *os.File) bool { return term.IsTerminal(int(f.Fd())) }

// screen is where a stage's progress is shown.
type screen interface {
	// show shows the state: line describes it, and done of total is the
	// run's share done (for a bar). now says that the state changed in a
	// way worth a line of its own.
	show(line string, done, total time.Duration, now bool)
	// close takes the display away.
	close()
}

// stageProgress keeps a stage's state and clock, and shows them on its
// screen at every change and every tick.
type stageProgress struct {
	mu     sync.Mutex
	stage  string
	screen screen
	out    io.Writer // where the stage's time is said at the end
	// est follows the whole run; run is the run's start.
	est *runEstimate
	// start, work and end are the stage's start, the start of its work
	// (after any build) and its end.
	run, start, work, end time.Time
	// said: End has said how the stage ended.
	said bool
	// building is what is being built since buildFrom, "" when nothing is;
	// build sums the time spent building.
	building  string
	buildFrom time.Time
	build     time.Duration
	// The latest update.
	updated     bool
	done, total time.Duration
	what        string
	// The ticker's, running from the first news to Finish.
	stop, stopped chan struct{}
}

// newStageProgress starts the stage now, in the run that est follows.
func newStageProgress(stage string, s screen, out io.Writer, est *runEstimate) *stageProgress {
	now := time.Now()
	est.begin(stage, now)
	return &stageProgress{stage: stage, screen: s, out: out, est: est, run: est.start, start: now, work: now}
}

func (p *stageProgress) Building(what string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.ended() {
		return
	}
	p.building, p.buildFrom = what, time.Now()
	p.est.building(p.stage, p.buildFrom)
	p.startTicker()
	p.showLocked(true)
}

func (p *stageProgress) Built() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.building == "" || p.ended() {
		return
	}
	now := time.Now()
	took := now.Sub(p.buildFrom)
	p.build += took
	p.est.built(p.stage, now)
	done, total := p.runShare(now)
	p.screen.show(fmt.Sprintf("%sbuilt in %s", p.prefix(now), formatTime(took)), done, total, true)
	p.building, p.work = "", now
}

func (p *stageProgress) Update(done, total time.Duration, what string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.ended() {
		return
	}
	p.updated, p.done, p.total, p.what = true, done, total, what
	p.est.update(p.stage, done, total, time.Now())
	p.startTicker()
	p.showLocked(false)
}

func (p *stageProgress) Finish() {
	p.mu.Lock()
	if p.ended() {
		p.mu.Unlock()
		return
	}
	p.end = time.Now()
	if p.building != "" {
		p.build += p.end.Sub(p.buildFrom)
		p.building = ""
	}
	stop, stopped := p.stop, p.stopped
	p.mu.Unlock()
	// The ticker takes the lock: it is stopped without it.
	if stop != nil {
		close(stop)
		<-stopped
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.est.finish(p.stage, p.end)
	p.screen.close()
}

func (p *stageProgress) End(stopped bool) {
	p.Finish()
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.said {
		return
	}
	p.said = true
	if stopped {
		fmt.Fprintf(p.out, "%sstopped after %s (interrupted): nothing of it is kept\n", p.prefix(p.end), formatTime(p.end.Sub(p.start)))
		return
	}
	fmt.Fprintf(p.out, "%stook %s\n", p.prefix(p.end), p.tookLocked())
}

func (p *stageProgress) Took() stageTime {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.tookLocked()
}

func (p *stageProgress) tookLocked() stageTime {
	end := p.end
	if end.IsZero() {
		end = time.Now()
	}
	return stageTime{Stage: p.stage, Total: end.Sub(p.start), Build: p.build}
}

func (p *stageProgress) ended() bool { return !p.end.IsZero() }

// startTicker refreshes the display every tick until Finish.
func (p *stageProgress) startTicker() {
	if p.stop != nil {
		return
	}
	p.stop, p.stopped = make(chan struct{}), make(chan struct{})
	go func(stop, stopped chan struct{}) {
		defer close(stopped)
		t := time.NewTicker(tick)
		defer t.Stop()
		for {
			select {
			case <-stop:
				return
			case <-t.C:
				p.mu.Lock()
				p.showLocked(false)
				p.mu.Unlock()
			}
		}
	}(p.stop, p.stopped)
}

// showLocked shows the state as of now.
func (p *stageProgress) showLocked(news bool) {
	now := time.Now()
	line, done, total := p.status(now)
	if line != "" {
		p.screen.show(line, done, total, news)
	}
}

// prefix starts the lines of the stage's own events: the run's clock and
// the stage.
func (p *stageProgress) prefix(now time.Time) string {
	return fmt.Sprintf("[%s] %s: ", clock(now.Sub(p.run)), p.stage)
}

// runShare is the run's share done for a bar, in milliseconds of
// expected time.
func (p *stageProgress) runShare(now time.Time) (done, total time.Duration) {
	share, _, ok := p.est.status(now)
	if !ok {
		return 0, 0
	}
	return time.Duration(share * float64(time.Hour)), time.Hour
}

// status describes the run and the stage as of now, with the run's share
// done for a bar. The run's part comes first: its share done and its
// time left, one figure for every stage to come, builds included (see
// runEstimate). The stage's part follows: while it builds, the build's
// time; when it can tell its share done, that share, labelled as the
// stage's; else its time against its expected time.
func (p *stageProgress) status(now time.Time) (line string, done, total time.Duration) {
	var s string
	switch elapsed := now.Sub(p.work); {
	case p.building != "":
		s = fmt.Sprintf("building %s, %s so far", p.building, clock(now.Sub(p.buildFrom)))
	case !p.updated:
		return "", 0, 0
	case p.total <= 0:
		s = fmt.Sprintf("%s so far", clock(elapsed))
	case p.done < 0:
		s = fmt.Sprintf("%s of about %s", clock(elapsed), clock(p.total))
	default:
		s = fmt.Sprintf("%.0f%% of the stage", 100*float64(min(p.done, p.total))/float64(p.total))
	}
	if p.what != "" && p.building == "" {
		s += "; now: " + p.what
	}
	run := ""
	if share, left, ok := p.est.status(now); ok {
		// Rounded down: 100% is the end.
		run = fmt.Sprintf("%d%% of the run done, %s | ", int(100*share), timeLeft(left))
		done, total = time.Duration(share*float64(time.Hour)), time.Hour
	}
	return fmt.Sprintf("[%s] %s%s: %s", clock(now.Sub(p.run)), run, p.stage, s), done, total
}

// timeLeft says the run's time left.
func timeLeft(d time.Duration) string {
	if d < 5*time.Second {
		return "a few seconds left"
	}
	return "about " + clock(d) + " left"
}

// clock is a time on the progress lines, to the second: the lines tell
// where a run is, the measurements are in the tables.
func clock(d time.Duration) string { return d.Round(time.Second).String() }

// plainScreen prints a line at the first news, then at most one every
// period, but at once for news of its own (a build started or ended).
type plainScreen struct {
	out     io.Writer
	every   time.Duration
	last    time.Time
	started bool
}

func (s *plainScreen) show(line string, _, _ time.Duration, news bool) {
	now := time.Now()
	if s.started && !news && now.Sub(s.last) < s.every {
		return
	}
	s.started, s.last = true, now
	fmt.Fprintln(s.out, line)
}

func (s *plainScreen) close() {}

// barScreen is a progress bar on stderr, with the status line beside it.
type barScreen struct {
	bar *progressbar.ProgressBar
	max int64
}

func (s *barScreen) show(line string, done, total time.Duration, _ bool) {
	// The bar counts expected milliseconds: its share is one of time. A
	// new total gets a new bar: changing a bar's total turns its own
	// prediction of the time left back on.
	m := max(1, total.Milliseconds())
	if s.bar != nil && m != s.max {
		s.close()
	}
	if s.bar == nil {
		s.bar = progressbar.NewOptions64(m,
			progressbar.OptionSetWriter(os.Stderr),
			progressbar.OptionSetElapsedTime(false), // the line has the run's clock
			progressbar.OptionSetPredictTime(false), // and the time left
			progressbar.OptionShowDescriptionAtLineEnd(),
			progressbar.OptionSetWidth(30),
			progressbar.OptionClearOnFinish(),
		)
		s.max = m
	}
	// A line longer than the terminal would wrap, and the bar would be
	// drawn anew below it at every refresh.
	if w, _, err := term.GetSize(int(os.Stderr.Fd())); err == nil {
		if r, room := []rune(line), w-45; len(r) > room && room > 20 {
			line = string(r[:room-1]) + "…"
		}
	}
	_ = s.bar.Set64(min(done, total).Milliseconds())
	s.bar.Describe(line)
}

func (s *barScreen) close() {
	if s.bar != nil {
		_ = s.bar.Finish()
		_ = s.bar.Exit()
		s.bar = nil
	}
}
