package main

import (
	_ "embed"
	"fmt"
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
	"overviewNote": overviewNote,
	"compareNote":  compareNote,
	"join":         strings.Join,
	"narrow":       narrowTable,
	"wrap":         wrap,
}).Parse(textTemplates))

// textWidth is the width the widest tables are made to fit.
const textWidth = 100

// narrowTable aligns a table whose cells are one or two characters with
// one space between columns, left-aligned: with the two spaces of the
// other tables, the conformance matrix would not fit textWidth.
func narrowTable(t table) (string, error) {
	var b strings.Builder
	tw := tabwriter.NewWriter(&b, 0, 0, 1, ' ', 0)
	for _, row := range append([][]string{t.Header}, t.Rows...) {
		fmt.Fprintf(tw, "%s\t\n", strings.Join(row, "\t"))
	}
	if err := tw.Flush(); err != nil {
		return "", err
	}
	// Each line ends in the padding of its last cell.
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return strings.Join(lines, "\n"), nil
}

// wrap lists items after lead, separated by commas, in lines of at most
// textWidth characters, the later ones indented.
func wrap(lead string, items []string) string {
	var b strings.Builder
	line := lead
	for i, s := range items {
		if i < len(items)-1 {
			s += ","
		}
		if len([]rune(line))+1+len([]rune(s)) > textWidth && line != lead {
			b.WriteString(line + "\n")
			line = " "
		}
		line += " " + s
	}
	b.WriteString(line)
	return b.String()
}

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
