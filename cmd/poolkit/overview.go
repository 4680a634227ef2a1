package main

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/poolkit/poolkit/bench"
)

// overview is the one-glance table: a row per contender, a column per
// workload, each cell the median ratio of its time per op to poolkit's.
func overview(res *bench.Results) (header []string, rows [][]string) {
	header = []string{"impl"}
	var impls []string
	seen := map[string]bool{}
	cell := map[[2]string]string{}
	for _, w := range res.Workloads {
		header = append(header, w.Name)
	}
	for _, s := range res.Summaries() {
		if !seen[s.Impl] {
			seen[s.Impl] = true
			impls = append(impls, s.Impl)
		}
		v := "failed"
		if s.Ratio > 0 {
			v = fmt.Sprintf("%.2fx", s.Ratio)
		} else if s.Runs > s.Failed {
			v = "-"
		}
		cell[[2]string{s.Impl, s.Workload}] = v
	}
	order := bench.Contenders()
	rank := func(impl string) int {
		if i := slices.Index(order, impl); i >= 0 {
			return i
		}
		return len(order)
	}
	slices.SortStableFunc(impls, func(a, b string) int { return rank(a) - rank(b) })
	for _, impl := range impls {
		row := []string{impl}
		for _, w := range res.Workloads {
			v, ok := cell[[2]string{impl, w.Name}]
			if !ok {
				v = "n.a."
			}
			row = append(row, v)
		}
		rows = append(rows, row)
	}
	return header, rows
}

func writeOverviewText(w io.Writer, res *bench.Results) {
	header, rows := overview(res)
	fmt.Fprintln(w, "Time per op relative to poolkit (median ratio; lower is faster; n.a.: the pool has no such entry point):")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, strings.Join(header, "\t")+"\t")
	for _, r := range rows {
		fmt.Fprintln(tw, strings.Join(r, "\t")+"\t")
	}
	tw.Flush()
	fmt.Fprintln(w)
}

func overviewMarkdown(res *bench.Results) string {
	header, rows := overview(res)
	var b strings.Builder
	b.WriteString("| " + strings.Join(header, " | ") + " |\n|")
	b.WriteString(strings.Repeat("---|", len(header)) + "\n")
	for _, r := range rows {
		b.WriteString("| " + strings.Join(r, " | ") + " |\n")
	}
	return b.String()
}
