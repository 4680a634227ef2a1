package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

const (
	readmeBegin = "<!-- results: begin (written by the poolkit command's -readme flag; edits here are overwritten) -->"
	readmeEnd   = "<!-- results: end -->"
)

// updateReadme replaces the text between the results markers of the
// README at c.readme with this run's summary: the machine, the overview
// table, the tiny-tasks chart, the conformance failure counts and the
// autoscaler's verdicts. The README must already have both markers.
func updateReadme(c config, o outcomes) error {
	old, err := os.ReadFile(c.readme)
	if err != nil {
		return err
	}
	i := bytes.Index(old, []byte(readmeBegin))
	j := bytes.Index(old, []byte(readmeEnd))
	if i < 0 || j < i {
		return fmt.Errorf("%s: no results section; add the lines %q and %q where it goes", c.readme, readmeBegin, readmeEnd)
	}
	rel := func(p string) string {
		r, err := filepath.Rel(filepath.Dir(c.readme), p)
		if err != nil {
			return p
		}
		return filepath.ToSlash(r)
	}
	var b strings.Builder
	b.WriteString(readmeBegin + "\n\n")
	mode := "quick run"
	if c.full {
		mode = "full run"
	}
	fmt.Fprintf(&b, "Measured by `%s -out %s -readme %s` (%s, %s), %s.",
		commandLine(c), filepath.ToSlash(c.out), filepath.ToSlash(c.readme), mode, o.elapsed.Round(time.Second), time.Now().UTC().Format(time.DateOnly))
	fmt.Fprintf(&b, " The whole report, with every table and plot: [%s](%s).\n\n", rel(filepath.Join(c.out, "index.html")), rel(filepath.Join(c.out, "index.html")))
	if bo := o.bench; bo != nil {
		fmt.Fprintf(&b, "Machine: %s. Time per op relative to poolkit, medians of %d interleaved rounds (lower is faster):\n\n",
			bo.results.Machine, c.rounds)
		b.WriteString(overviewMarkdown(bo.results) + "\n")
		if len(bo.charts) > 0 {
			fmt.Fprintf(&b, "![%s](%s)\n\n", bo.results.Workloads[0].Name, rel(bo.charts[0]))
		}
	}
	if ao := o.actors; ao != nil {
		fmt.Fprintf(&b, "Actors, medians of %d rounds (in brackets poolkit's advantage, above 1 when poolkit did better; raw results in %s):\n\n",
			ao.results.Rounds, rel(ao.raw))
		b.WriteString(ao.results.markdown() + "\n")
	}
	if so := o.spec; so != nil {
		if md, err := os.ReadFile(so.matrix); err == nil {
			for _, line := range strings.Split(string(md), "\n") {
				if strings.HasPrefix(line, "Failing clauses") {
					fmt.Fprintf(&b, "Conformance (%s): %s\n\n", rel(so.matrix), line)
				}
			}
		}
	}
	if ao := o.autoscale; ao != nil {
		for _, t := range ao.tables {
			md, err := os.ReadFile(t)
			if err != nil {
				continue
			}
			for _, line := range strings.Split(string(md), "\n") {
				if strings.HasPrefix(line, "poolkit beats every baseline") {
					fmt.Fprintf(&b, "Autoscaler (%s): %s\n\n", rel(t), line)
				}
			}
		}
	}
	b.WriteString(readmeEnd)
	out := append(append(append([]byte{}, old[:i]...), b.String()...), old[j+len(readmeEnd):]...)
	return os.WriteFile(c.readme, out, 0o644)
}
