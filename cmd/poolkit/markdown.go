package main

import (
	"html"
	"regexp"
	"strings"
)

// markdownHTML renders the small subset of Markdown the suites write
// (headings, pipe tables, lists, paragraphs, code spans, bold, links) as
// well-formed HTML. Headings are shifted down by shift levels so that they
// nest under the report's own.
func markdownHTML(md string, shift int) string {
	var b strings.Builder
	lines := strings.Split(md, "\n")
	var para []string
	flush := func() {
		if len(para) > 0 {
			b.WriteString("<p>" + inline(strings.Join(para, " ")) + "</p>\n")
			para = nil
		}
	}
	for i := 0; i < len(lines); i++ {
		line := strings.TrimRight(lines[i], " ")
		switch {
		case line == "":
			flush()
		case strings.HasPrefix(line, "#"):
			flush()
			level := len(line) - len(strings.TrimLeft(line, "#"))
			h := string(rune('0' + min(level+shift, 6)))
			b.WriteString("<h" + h + ">" + inline(strings.TrimSpace(line[level:])) + "</h" + h + ">\n")
		case strings.HasPrefix(line, "|"):
			flush()
			j := i
			for j < len(lines) && strings.HasPrefix(lines[j], "|") {
				j++
			}
			b.WriteString(tableHTML(lines[i:j]))
			i = j - 1
		case strings.HasPrefix(line, "- "):
			flush()
			b.WriteString("<ul>\n")
			for ; i < len(lines) && strings.HasPrefix(lines[i], "- "); i++ {
				b.WriteString("<li>" + inline(strings.TrimPrefix(lines[i], "- ")) + "</li>\n")
			}
			b.WriteString("</ul>\n")
			i--
		default:
			para = append(para, line)
		}
	}
	flush()
	return b.String()
}

// tableHTML renders a pipe table; the second line, made of dashes, marks
// the first as the header.
func tableHTML(rows []string) string {
	cells := func(row string) []string {
		row = strings.TrimSpace(row)
		row = strings.TrimSuffix(strings.TrimPrefix(row, "|"), "|")
		parts := strings.Split(row, "|")
		for i := range parts {
			parts[i] = strings.TrimSpace(parts[i])
		}
		return parts
	}
	var b strings.Builder
	b.WriteString("<table>\n")
	for i, row := range rows {
		if i == 1 && strings.Trim(row, "|-: ") == "" {
			continue
		}
		tag := "td"
		if i == 0 && len(rows) > 1 && strings.Trim(rows[1], "|-: ") == "" {
			tag = "th"
		}
		b.WriteString("<tr>")
		for _, c := range cells(row) {
			b.WriteString("<" + tag + ">" + inline(c) + "</" + tag + ">")
		}
		b.WriteString("</tr>\n")
	}
	b.WriteString("</table>\n")
	return b.String()
}

var (
	codeSpan = regexp.MustCompile("`([^`]+)`")
	bold     = regexp.MustCompile(`\*\*([^*]+)\*\*`)
	link     = regexp.MustCompile(`\[([^\]]+)\]\(([^)\s]+)\)`)
)

// inline escapes text and renders code spans, bold and links.
func inline(s string) string {
	var b strings.Builder
	last := 0
	for _, m := range codeSpan.FindAllStringSubmatchIndex(s, -1) {
		b.WriteString(spans(s[last:m[0]]))
		b.WriteString("<code>" + html.EscapeString(s[m[2]:m[3]]) + "</code>")
		last = m[1]
	}
	b.WriteString(spans(s[last:]))
	return b.String()
}

func spans(s string) string {
	s = html.EscapeString(s)
	s = bold.ReplaceAllString(s, "<strong>$1</strong>")
	return link.ReplaceAllString(s, `<a href="$2">$1</a>`)
}
