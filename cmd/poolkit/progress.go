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
	// Finish ends the display and the stage's clock, and says how long the
	// stage took. Calls after the first do nothing.
	Finish()
	// Took is how long the stage took, up to Finish.
	Took() stageTime
}

// stageTime is how long one stage took, and how much of that went into
// building its test binaries.
type stageTime struct {
	Stage        string
	Total, Build time.Duration
}

// String is the stage's time as the terminal and the report show it:
// "2m56s (building 2m17s)".
func (t stageTime) String() string {
	if t.Build > 0 {
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
// run is when the whole run started.
func newProgress(stage string, plain bool, out io.Writer, run time.Time) progress {
	var s screen
	if !plain && isTerminal(os.Stdout) && isTerminal(os.Stderr) {
		s = &barScreen{}
	} else {
		s = &plainScreen{out: out, every: 10 * time.Second}
	}
	return newStageProgress(stage, s, out, run)
}

func isTerminal(f *os.File) bool { return term.IsTerminal(int(f.Fd())) }

// screen is where a stage's progress is shown.
type screen interface {
	// show shows the stage's state: line describes it, and done of total
	// is its share done (for a bar). now says that the state changed in a
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
	// run is the run's start; start, work and end the stage's start, the
	// start of its work (after any build) and its end.
	run, start, work, end time.Time
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

func newStageProgress(stage string, s screen, out io.Writer, run time.Time) *stageProgress {
	now := time.Now()
	return &stageProgress{stage: stage, screen: s, out: out, run: run, start: now, work: now}
}

func (p *stageProgress) Building(what string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.ended() {
		return
	}
	p.building, p.buildFrom = what, time.Now()
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
	p.screen.show(fmt.Sprintf("%sbuilt in %s", p.prefix(now), formatTime(took)), 0, p.total, true)
	p.building, p.work = "", now
}

func (p *stageProgress) Update(done, total time.Duration, what string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.ended() {
		return
	}
	p.updated, p.done, p.total, p.what = true, done, total, what
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
	p.screen.close()
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

// prefix starts every line: the run's clock and the stage.
func (p *stageProgress) prefix(now time.Time) string {
	return fmt.Sprintf("[%s] %s: ", clock(now.Sub(p.run)), p.stage)
}

// status describes the stage as of now, and the share of it done for a
// bar: while it builds, the build's time; when it can tell its share done,
// that share with the time left at the pace so far; else its time against
// the expected total (the bar moves with the time, short of its end).
func (p *stageProgress) status(now time.Time) (line string, done, total time.Duration) {
	if p.building != "" {
		return fmt.Sprintf("%sbuilding %s, %s so far", p.prefix(now), p.building, clock(now.Sub(p.buildFrom))), 0, p.total
	}
	if !p.updated {
		return "", 0, 0
	}
	elapsed := now.Sub(p.work)
	done, total = p.done, p.total
	var s string
	switch {
	case total <= 0:
		s = fmt.Sprintf("%s so far", clock(elapsed))
	case done < 0:
		s = fmt.Sprintf("%s of about %s", clock(elapsed), clock(total))
		done = min(elapsed, total*99/100)
	default:
		done = min(done, total)
		left := total - done
		if done > 0 {
			left = time.Duration(float64(elapsed) * float64(total-done) / float64(done))
		}
		s = fmt.Sprintf("%3.0f%%, about %s left", 100*float64(done)/float64(total), clock(left))
	}
	if p.what != "" {
		s += "; now: " + p.what
	}
	return p.prefix(now) + s, done, total
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
