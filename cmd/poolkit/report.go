package main

import (
	_ "embed"
	"fmt"
	"html/template"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/poolkit/poolkit/bench"
)

// reportData is what the HTML report and the README section show.
type reportData struct {
	Machine, Generated, Date, Command, Mode, Elapsed string
	// Stages says how long each stage took.
	Stages string
	// Interrupted says, when an interrupt stopped the run, what the
	// report lacks; Missing names each stage stopped or not run.
	Interrupted string
	Missing     []string
	Errors      []string
	// Index is the HTML report.
	Index     string
	Bench     *benchView
	Actors    *actorsView
	Keyed     *keyedView
	Spec      *specView
	Autoscale *autoscaleView
	times     []stageTime
}

// Took is how long the stage took, as the terminal said it.
func (d reportData) Took(stage string) string {
	for _, t := range d.times {
		if t.Stage == stage {
			return t.String()
		}
	}
	return "time not measured"
}

// actorsView is what the actors stage measured, and where it wrote it.
type actorsView struct {
	*actorResults
	Raw, Data string
}

// keyedView is what the keyed stage measured, and where it wrote it.
type keyedView struct {
	*keyedResults
	Raw, Data string
}

// newReportData gathers the views of the stages that ran.
func newReportData(c config, o outcomes) reportData {
	mode := "quick run"
	if c.full {
		mode = "full run"
	}
	now := time.Now().UTC()
	d := reportData{
		Machine:   bench.ThisMachine().String(),
		Generated: now.Format("2006-01-02 15:04 MST"),
		Date:      now.Format(time.DateOnly),
		Command:   commandLine(c),
		Mode:      mode,
		Elapsed:   formatTime(o.elapsed),
		Stages:    stageTimes(o.times),
		Errors:    o.errs,
		Index:     absPath(filepath.Join(c.out, "index.html")),
		times:     o.times,
	}
	if o.interrupted {
		var lost []string
		for _, t := range o.times {
			if t.Ended != completed {
				d.Missing = append(d.Missing, fmt.Sprintf("%s: %s (interrupted)", stageTitles[t.Stage], t))
				lost = append(lost, t.Stage)
			}
		}
		have := "have"
		if len(lost) == 1 {
			have = "has"
		}
		d.Interrupted = fmt.Sprintf("This run was interrupted after %s: the report shows the stages that ended before then; "+
			"%s, stopped or not run, %s no results here.", formatTime(o.elapsed), andList(lost), have)
	}
	if b := o.bench; b != nil {
		d.Machine = b.view.Machine
		d.Bench = &b.view
	}
	if a := o.actors; a != nil {
		d.Actors = &actorsView{a.results, a.raw, a.data}
	}
	if k := o.keyed; k != nil {
		d.Keyed = &keyedView{k.results, k.raw, k.data}
	}
	if s := o.spec; s != nil {
		d.Spec = &s.view
	}
	if a := o.autoscale; a != nil {
		d.Autoscale = &a.view
	}
	return d
}

// stageTitles are the stages' sections in the report.
var stageTitles = map[string]string{
	"bench":     "Benchmarks",
	"actors":    "Actor benchmarks",
	"keyed":     "Keyed stream benchmark",
	"spec":      "Conformance matrix",
	"autoscale": "Autoscaler scenarios",
	"compare":   "Comparison",
}

//go:embed report.html.tmpl
var reportTemplate string

// reportPage renders the report; its links are relative to the report's
// folder, set per run with the "href" function.
var reportPage = template.Must(template.New("report").Funcs(template.FuncMap{
	"href":         func(p string) string { return p },
	"problemsOf":   problemsOf,
	"overviewNote": overviewNote,
}).Parse(reportTemplate))

// writeReport writes index.html into c.out and returns its path.
func writeReport(c config, root string, o outcomes) (string, error) {
	d := newReportData(c, o)
	out := absPath(c.out)
	page, err := reportPage.Clone()
	if err != nil {
		return "", err
	}
	page.Funcs(template.FuncMap{"href": func(p string) string { return relFrom(out, p) }})
	f, err := os.Create(d.Index)
	if err != nil {
		return "", err
	}
	if err := page.Execute(f, d); err != nil {
		f.Close()
		return "", err
	}
	return d.Index, f.Close()
}

// commandLine is the command that reproduces this run.
func commandLine(c config) string {
	parts := []string{"go run ./cmd/poolkit"}
	if c.full {
		parts = append(parts, "-full")
	}
	if c.maxprocs != "" {
		parts = append(parts, "-maxprocs="+c.maxprocs)
	}
	if len(c.workloads) > 0 {
		parts = append(parts, "-workloads="+strings.Join(c.workloads, ","))
	}
	if c.actors != nil {
		parts = append(parts, "-actors="+shellQuote(c.actors.String()))
	}
	if c.keyed != nil {
		parts = append(parts, "-keyed="+shellQuote(c.keyed.String()))
	}
	if (c.full && c.rounds != 10) || (!c.full && c.rounds != 3) {
		parts = append(parts, fmt.Sprintf("-rounds=%d", c.rounds))
	}
	if c.command != "report" {
		parts = append(parts, c.command)
	}
	return strings.Join(parts, " ")
}

// shellQuote quotes s for a POSIX shell when it needs it.
func shellQuote(s string) string {
	if strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.,/") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
