package main

import (
	_ "embed"
	"io"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"text/template"
)

//go:embed text.tmpl
var textTemplates string

// textPage renders the stages' views for the terminal: tables as
// tab-separated cells, which a tabwriter aligns.
var textPage = template.Must(template.New("text").Funcs(template.FuncMap{
	"path":         fromWorkingDir,
	"problemsOf":   problemsOf,
	"overviewNote": func() string { return overviewNote },
	"compareNote":  compareNote,
	"join":         strings.Join,
}).Parse(textTemplates))

// renderText writes the named section of the text templates for data.
func renderText(w io.Writer, section string, data any) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	if err := textPage.ExecuteTemplate(tw, section, data); err != nil {
		return err
	}
	return tw.Flush()
}

// fromWorkingDir is an absolute path made relative to the working
// directory when it lies below it.
func fromWorkingDir(p string) string {
	wd, err := os.Getwd()
	if err != nil {
		return p
	}
	if r := relFrom(wd, p); !strings.HasPrefix(r, "../") && r != ".." {
		return r
	}
	return p
}

// relFrom is the path of target seen from the folder base, slash-separated,
// or target itself when there is no such path. Relative paths are taken
// from the working directory.
func relFrom(base, target string) string {
	r, err := filepath.Rel(absPath(base), absPath(target))
	if err != nil {
		return target
	}
	return filepath.ToSlash(r)
}

// problemsOf are the problems of one workload.
func problemsOf(ps []problemView, workload string) []problemView {
	var out []problemView
	for _, p := range ps {
		if p.Workload == workload {
			out = append(out, p)
		}
	}
	return out
}
