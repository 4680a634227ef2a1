package main

import (
	"bytes"
	_ "embed"
	"fmt"
	"os"
	"path/filepath"
	"text/template"
)

const (
	readmeBegin = "<!-- results: begin (written by the poolkit command's -readme flag; edits here are overwritten) -->"
	readmeEnd   = "<!-- results: end -->"
)

//go:embed readme.md.tmpl
var readmeTemplate string

// readmeSection renders the README's results section; its links are
// relative to the README's folder, set per run with the "href" function.
var readmeSection = template.Must(template.New("readme").Funcs(template.FuncMap{
	"href":         func(p string) string { return p },
	"overviewNote": overviewNote,
}).Parse(readmeTemplate))

// readmeData is what the README section shows: the report's data and how
// the run was asked for.
type readmeData struct {
	reportData
	Out, Readme string
}

// updateReadme replaces the text between the results markers of the
// README at c.readme with this run's summary: the machine, the overview
// table, the first workload's chart, the actor table, the keyed stream
// table, the conformance failure counts and the autoscaler's verdicts.
// checkFiles has made sure the README has both markers.
func updateReadme(c config, root string, o outcomes) error {
	old, err := os.ReadFile(c.readme)
	if err != nil {
		return err
	}
	i := bytes.Index(old, []byte(readmeBegin))
	j := bytes.Index(old, []byte(readmeEnd))
	if i < 0 || j < i {
		return fmt.Errorf("%s: no results section; add the lines %q and %q where it goes", c.readme, readmeBegin, readmeEnd)
	}
	dir := filepath.Dir(absPath(c.readme))
	t, err := readmeSection.Clone()
	if err != nil {
		return err
	}
	t.Funcs(template.FuncMap{"href": func(p string) string { return relFrom(dir, p) }})
	var b bytes.Buffer
	d := readmeData{reportData: newReportData(c, o), Out: filepath.ToSlash(c.out), Readme: filepath.ToSlash(c.readme)}
	if err := t.Execute(&b, d); err != nil {
		return err
	}
	out := append(append(append(old[:i:i], readmeBegin...), b.Bytes()...), old[j:]...)
	return os.WriteFile(c.readme, out, 0o644)
}
