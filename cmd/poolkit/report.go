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

//go:embed report.html.tmpl
var reportTemplate string

var reportPage = template.Must(template.New("report").Parse(reportTemplate))

type reportData struct {
	Machine, Generated, Command, Mode, Elapsed string
	Errors                                     []string
	Bench                                      *benchView
	Actors                                     *actorsView
	Spec                                       *specView
	Autoscale                                  *autoscaleView
}

type benchView struct {
	Rounds, Raw string
	Overview    template.HTML
	Workloads   []workloadView
}

type workloadView struct {
	Name, About, Chart string
	Table              template.HTML
}

type actorsView struct {
	Rounds, Raw, Data string
	Table             template.HTML
}

type specView struct {
	Elapsed string
	Passed  bool
	Matrix  template.HTML
}

type autoscaleView struct {
	Note, Elapsed string
	Passed        bool
	Tables        []template.HTML
	Plots         []string
}

// outcomes is everything a report shows; a nil outcome's error is in errs.
type outcomes struct {
	bench     *benchOutcome
	actors    *actorsOutcome
	spec      *specOutcome
	autoscale *autoscaleOutcome
	errs      []string
	elapsed   time.Duration
}

// writeReport writes index.html into c.out and returns its path.
func writeReport(c config, o outcomes) (string, error) {
	rel := func(p string) string {
		if r, err := filepath.Rel(c.out, p); err == nil {
			return filepath.ToSlash(r)
		}
		return p
	}
	mode := "quick run"
	if c.full {
		mode = "full run"
	}
	d := reportData{
		Machine:   bench.ThisMachine().String(),
		Generated: time.Now().UTC().Format("2006-01-02 15:04 MST"),
		Command:   commandLine(c),
		Mode:      mode,
		Elapsed:   o.elapsed.Round(time.Second).String(),
		Errors:    o.errs,
	}
	if b := o.bench; b != nil {
		d.Machine = b.results.Machine.String()
		v := &benchView{
			Rounds:   roundsNote(c, b.elapsed),
			Raw:      rel(b.raw),
			Overview: template.HTML(markdownHTML(overviewMarkdown(b.results), 0)),
		}
		for i, w := range b.results.Workloads {
			v.Workloads = append(v.Workloads, workloadView{
				Name:  w.Name,
				About: w.About,
				Chart: rel(b.charts[i]),
				Table: template.HTML(markdownHTML(workloadMarkdown(b.results, w.Name), 0)),
			})
		}
		d.Bench = v
	}
	if a := o.actors; a != nil {
		d.Actors = &actorsView{
			Rounds: fmt.Sprintf("Medians of %d rounds (%s)", a.results.Rounds, a.elapsed.Round(time.Second)),
			Raw:    rel(a.raw),
			Data:   rel(a.data),
			Table:  template.HTML(markdownHTML(a.results.markdown(), 0)),
		}
	}
	if s := o.spec; s != nil {
		md, err := os.ReadFile(s.matrix)
		if err == nil {
			d.Spec = &specView{
				Elapsed: s.elapsed.Round(time.Second).String(),
				Passed:  s.passed,
				Matrix:  template.HTML(markdownHTML(dropFirstHeading(string(md)), 1)),
			}
		}
	}
	if a := o.autoscale; a != nil {
		v := &autoscaleView{
			Note: "I/O scenarios in fake time (testing/synctest), each through a grid of fixed sizes (the best is the oracle) " +
				"and four controllers: poolkit's, a port of Netflix's AIMD limiter, the Kubernetes HPA rule and Akka's resizer",
			Elapsed: a.elapsed.Round(time.Second).String(),
			Passed:  a.passed,
		}
		if c.full {
			v.Note += "; CPU-bound scenarios in real time"
		} else {
			v.Note += "; the CPU-bound scenarios run in real time with -full"
		}
		for _, t := range a.tables {
			md, err := os.ReadFile(t)
			if err != nil {
				continue
			}
			v.Tables = append(v.Tables, template.HTML(markdownHTML(string(md), 2)))
		}
		for _, p := range a.plots {
			v.Plots = append(v.Plots, rel(p))
		}
		d.Autoscale = v
	}
	path := filepath.Join(c.out, "index.html")
	f, err := os.Create(path)
	if err != nil {
		return "", err
	}
	if err := reportPage.Execute(f, d); err != nil {
		f.Close()
		return "", err
	}
	return path, f.Close()
}

// workloadMarkdown is one workload's table: time, ratio, allocations and
// extra metrics per contender.
func workloadMarkdown(res *bench.Results, workload string) string {
	cols := res.Columns(workload)
	var b strings.Builder
	b.WriteString("| impl | time/op | vs poolkit | allocs/op | B/op |")
	for _, c := range cols {
		b.WriteString(" " + c + " |")
	}
	b.WriteString("\n|" + strings.Repeat("---|", 5+len(cols)) + "\n")
	for _, s := range res.Summaries() {
		if s.Workload == workload {
			b.WriteString("| " + s.Impl + " | " + strings.Join(bench.Cells(s, cols), " | ") + " |\n")
		}
	}
	return b.String()
}

func roundsNote(c config, elapsed time.Duration) string {
	heavy := 1
	if c.full {
		heavy = 3
	}
	return fmt.Sprintf("Medians of %d rounds (Sleeping1M: %d), %s", c.rounds, min(c.rounds, heavy), elapsed.Round(time.Second))
}

// dropFirstHeading removes the matrix file's own title; the report has one.
func dropFirstHeading(md string) string {
	if strings.HasPrefix(md, "# ") {
		if _, rest, ok := strings.Cut(md, "\n"); ok {
			return rest
		}
	}
	return md
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
	if (c.full && c.rounds != 10) || (!c.full && c.rounds != 3) {
		parts = append(parts, fmt.Sprintf("-rounds=%d", c.rounds))
	}
	if c.command != "report" {
		parts = append(parts, c.command)
	}
	return strings.Join(parts, " ")
}
