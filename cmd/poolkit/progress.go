package main

import (
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"
)

// progress reports a long stage in time: how much of the stage's
// expected time the finished work stands for, the time elapsed and the
// time left at the pace so far. A progress bar on a terminal, a plain line
// every ten seconds otherwise (logs, CI, pipes).
type progress interface {
	// Update says that the finished work is expected to take done of the
	// stage's total, and what runs next. A negative done says that the
	// stage cannot tell: the progress is then the time against the total.
	Update(done, total time.Duration, what string)
	// Restart starts the stage's clock again (after a build the
	// estimates leave out).
	Restart()
	// Finish ends the stage.
	Finish()
}

// newProgress picks the bar when stdout and stderr are terminals and
// plain was not asked for.
func newProgress(stage string, plain bool, out io.Writer) progress {
	if !plain && isTerminal(os.Stdout) && isTerminal(os.Stderr) {
		return &barProgress{stage: stage}
	}
	return &plainProgress{stage: stage, out: out, every: 10 * time.Second, start: time.Now()}
}

func isTerminal(f *os.File) bool { return term.IsTerminal(int(f.Fd())) }

// status describes where a stage is: its share done, the time elapsed and
// the time left, estimated from the pace so far once there is one, else
// from the expected total.
func status(done, total, elapsed time.Duration) string {
	switch {
	case total <= 0:
		return fmt.Sprintf("%s elapsed", elapsed.Round(time.Second))
	case done < 0:
		return fmt.Sprintf("%s elapsed, expected about %s", elapsed.Round(time.Second), total.Round(time.Second))
	}
	done = min(done, total)
	left := total - done
	if done > 0 {
		left = time.Duration(float64(elapsed) * float64(total-done) / float64(done))
	}
	return fmt.Sprintf("%3.0f%%, %s elapsed, about %s left", 100*float64(done)/float64(total),
		elapsed.Round(time.Second), left.Round(time.Second))
}

type barProgress struct {
	stage string
	bar   *progressbar.ProgressBar
	start time.Time
}

func (p *barProgress) Update(done, total time.Duration, what string) {
	if done < 0 {
		// No share known: the bar moves with the time, short of the end.
		if p.start.IsZero() {
			p.start = time.Now()
		}
		done = min(time.Since(p.start), total*99/100)
		what += fmt.Sprintf(" (expected about %s)", total.Round(time.Second))
	}
	if p.bar == nil {
		// The bar counts expected milliseconds: its percentage and its
		// prediction of the time left are in time, not in items.
		p.bar = progressbar.NewOptions64(max(1, total.Milliseconds()),
			progressbar.OptionSetWriter(os.Stderr),
			progressbar.OptionSetDescription(p.stage),
			progressbar.OptionSetElapsedTime(true),
			progressbar.OptionSetPredictTime(true),
			progressbar.OptionShowDescriptionAtLineEnd(),
			progressbar.OptionSetWidth(30),
			progressbar.OptionClearOnFinish(),
			progressbar.OptionThrottle(100*time.Millisecond),
		)
	}
	p.bar.Describe(p.stage + " " + what)
	_ = p.bar.Set64(min(done, total).Milliseconds())
}

func (p *barProgress) Restart() {
	p.start = time.Now()
	if p.bar != nil {
		p.bar.Reset()
	}
}

func (p *barProgress) Finish() {
	if p.bar != nil {
		_ = p.bar.Finish()
		_ = p.bar.Exit()
		p.bar = nil
	}
}

// plainProgress prints one line at the first update, then at most one
// every period, and one at the end.
type plainProgress struct {
	mu           sync.Mutex
	stage        string
	out          io.Writer
	every        time.Duration
	start, last  time.Time
	total        time.Duration
	started, end bool
}

func (p *plainProgress) Update(done, total time.Duration, what string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	now := time.Now()
	p.total = total
	if p.started && now.Sub(p.last) < p.every {
		return
	}
	p.started, p.last = true, now
	line := fmt.Sprintf("%s: %s", p.stage, status(done, total, now.Sub(p.start)))
	if what != "" {
		line += "; now: " + what
	}
	fmt.Fprintln(p.out, line)
}

func (p *plainProgress) Restart() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.start = time.Now()
}

func (p *plainProgress) Finish() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.started && !p.end {
		fmt.Fprintf(p.out, "%s: finished in %s (expected about %s)\n", p.stage,
			time.Since(p.start).Round(time.Second), p.total.Round(time.Second))
	}
	p.end = true
}
