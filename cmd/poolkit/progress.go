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

// progress reports long work: a progress bar on a terminal, a plain line
// every ten seconds otherwise (logs, CI, pipes).
type progress interface {
	// Step says that done of total items are finished (total < 0: unknown)
	// and what runs next.
	Step(done, total int, what string)
	// Finish ends the current piece of work.
	Finish()
}

// newProgress picks the bar when stdout and stderr are terminals and
// plain was not asked for.
func newProgress(stage string, plain bool, out io.Writer) progress {
	if !plain && isTerminal(os.Stdout) && isTerminal(os.Stderr) {
		return &barProgress{stage: stage}
	}
	return &plainProgress{stage: stage, out: out, every: 10 * time.Second}
}

func isTerminal(f *os.File) bool { return term.IsTerminal(int(f.Fd())) }

type barProgress struct {
	stage string
	bar   *progressbar.ProgressBar
	total int
}

func (p *barProgress) Step(done, total int, what string) {
	if p.bar == nil || total != p.total {
		if p.bar != nil {
			p.bar.Exit()
		}
		p.total = total
		p.bar = progressbar.NewOptions(total,
			progressbar.OptionSetWriter(os.Stderr),
			progressbar.OptionSetDescription(p.stage),
			progressbar.OptionShowCount(),
			progressbar.OptionSetElapsedTime(true),
			progressbar.OptionSetPredictTime(total > 0),
			progressbar.OptionShowDescriptionAtLineEnd(),
			progressbar.OptionSetWidth(30),
			progressbar.OptionClearOnFinish(),
			progressbar.OptionThrottle(100*time.Millisecond),
		)
	}
	p.bar.Describe(p.stage + " " + what)
	_ = p.bar.Set(done)
}

func (p *barProgress) Finish() {
	if p.bar != nil {
		_ = p.bar.Finish()
		_ = p.bar.Exit()
		p.bar = nil
	}
}

// plainProgress prints one line at the first step, then at most one every
// period, and one at the end.
type plainProgress struct {
	mu    sync.Mutex
	stage string
	out   io.Writer
	every time.Duration
	last  time.Time
	start time.Time
	done  int
}

func (p *plainProgress) Step(done, total int, what string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	now := time.Now()
	if p.start.IsZero() {
		p.start = now
	}
	p.done = done
	if !p.last.IsZero() && now.Sub(p.last) < p.every {
		return
	}
	p.last = now
	of := ""
	if total >= 0 {
		of = fmt.Sprintf("/%d", total)
	}
	fmt.Fprintf(p.out, "%s: %d%s done, %s elapsed; next: %s\n", p.stage, done, of, now.Sub(p.start).Round(time.Second), what)
}

func (p *plainProgress) Finish() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.start.IsZero() {
		if p.done > 0 {
			fmt.Fprintf(p.out, "%s: finished %d in %s\n", p.stage, p.done, time.Since(p.start).Round(time.Second))
		} else {
			fmt.Fprintf(p.out, "%s: finished in %s\n", p.stage, time.Since(p.start).Round(time.Second))
		}
	}
	p.start, p.last = time.Time{}, time.Time{}
}
