// The tests of this folder keep the documentation true to the repository:
// every link resolves, the README's first program is the one that runs,
// the README stays short, the commands name packages that exist, and no
// ratio is written by hand beside the results it would restate.
package docs_test

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

const root = ".."

// documents are the Markdown files the tests read, relative to the root:
// the README, the contract and every page of docs/.
func documents(t *testing.T) []string {
	t.Helper()
	docs := []string{"README.md", "SPEC.md", "MATRIX.md"}
	pages, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range pages {
		rel, _ := filepath.Rel(root, p)
		docs = append(docs, filepath.ToSlash(rel))
	}
	sort.Strings(docs)
	return docs
}

func read(t *testing.T, rel string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(rel)))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// fenced reports, line by line, whether a line is inside a fenced code
// block (the fences included).
func fenced(lines []string) []bool {
	in := false
	out := make([]bool, len(lines))
	for i, l := range lines {
		fence := strings.HasPrefix(strings.TrimSpace(l), "```")
		out[i] = in || fence
		if fence {
			in = !in
		}
	}
	return out
}

var (
	linkRE    = regexp.MustCompile(`\]\(([^)\s]+)\)`)
	spanRE    = regexp.MustCompile("`[^`]*`")
	headingRE = regexp.MustCompile(`^#{1,6} +(.*)$`)
)

// slug is the anchor GitHub gives a heading.
func slug(h string) string {
	h = strings.ToLower(strings.TrimSpace(h))
	var b strings.Builder
	for _, r := range h {
		switch {
		case r == ' ' || r == '-':
			b.WriteRune('-')
		case r == '_' || ('a' <= r && r <= 'z') || ('0' <= r && r <= '9') || r > 127:
			b.WriteRune(r)
		}
	}
	return b.String()
}

func anchors(text string) map[string]bool {
	out := map[string]bool{}
	lines := strings.Split(text, "\n")
	code := fenced(lines)
	for i, l := range lines {
		if m := headingRE.FindStringSubmatch(l); m != nil && !code[i] {
			out[slug(m[1])] = true
		}
	}
	return out
}

// TestLinks: every relative link of the README, the contract and docs/
// names a file or folder of the repository, and every anchor a heading of
// the page it points into.
func TestLinks(t *testing.T) {
	for _, doc := range documents(t) {
		text := read(t, doc)
		lines := strings.Split(text, "\n")
		code := fenced(lines)
		for i, l := range lines {
			if code[i] {
				continue
			}
			for _, m := range linkRE.FindAllStringSubmatch(spanRE.ReplaceAllString(l, ""), -1) {
				target := m[1]
				if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
					continue
				}
				file, anchor, _ := strings.Cut(target, "#")
				page := doc
				if file != "" {
					page = filepath.ToSlash(filepath.Join(filepath.Dir(doc), file))
					if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(page))); err != nil {
						t.Errorf("%s:%d: link %s: no such file", doc, i+1, target)
						continue
					}
				}
				if anchor != "" && strings.HasSuffix(page, ".md") && !anchors(read(t, page))[anchor] {
					t.Errorf("%s:%d: link %s: %s has no heading for #%s", doc, i+1, target, page, anchor)
				}
			}
		}
	}
}

// TestReadmeShort: the README answers in a minute: at most 250 lines, none
// over 120 characters, the two commands first.
func TestReadmeShort(t *testing.T) {
	readme := read(t, "README.md")
	lines := strings.Split(strings.TrimSuffix(readme, "\n"), "\n")
	if len(lines) > 250 {
		t.Errorf("README.md has %d lines, more than 250: move detail to docs/", len(lines))
	}
	for i, l := range lines {
		if n := len([]rune(l)); n > 120 {
			t.Errorf("README.md:%d is %d characters, more than 120", i+1, n)
		}
	}
	if len(lines) < 5 || lines[2] != "```sh" || !strings.HasPrefix(lines[3], "go run ./cmd/poolkit ") ||
		!strings.HasPrefix(lines[4], "go test ") {
		t.Errorf("README.md does not open with the two commands, the main job and then the tests:\n%s",
			strings.Join(lines[:min(len(lines), 6)], "\n"))
	}
}

// TestPrograms: the complete programs the documents show are the files
// of examples/ as they stand, which their own tests run.
func TestPrograms(t *testing.T) {
	for _, c := range []struct{ doc, section, file string }{
		{"README.md", "## A first program\n", "examples/first/main.go"},
		{"docs/autoscale.md", "## A complete example\n", "examples/autoscale/main.go"},
	} {
		_, after, ok := strings.Cut(read(t, c.doc), c.section)
		if !ok {
			t.Errorf("%s has no section %q", c.doc, strings.TrimSpace(c.section))
			continue
		}
		_, block, ok := strings.Cut(after, "```go\n")
		if !ok {
			t.Errorf("%s's %q has no Go block", c.doc, strings.TrimSpace(c.section))
			continue
		}
		block, _, ok = strings.Cut(block, "```\n")
		if !ok {
			t.Errorf("%s's %q block is not closed", c.doc, strings.TrimSpace(c.section))
			continue
		}
		if want := read(t, c.file); block != want {
			t.Errorf("%s's %q differs from %s; make it:\n%s", c.doc, strings.TrimSpace(c.section), c.file, want)
		}
	}
}

// commandRE finds what a shell line of the documents runs from the root:
// go run, go test, go vet or go build of packages given as paths.
var (
	commandRE = regexp.MustCompile(`^go (run|test|vet|build)\b(.*)$`)
	quotedRE  = regexp.MustCompile(`"[^"]*"|'[^']*'`)
)

// TestCommandPaths: every go command the documents show names packages
// that exist: a ./path that is a folder of the repository.
func TestCommandPaths(t *testing.T) {
	for _, doc := range documents(t) {
		lines := strings.Split(read(t, doc), "\n")
		code := fenced(lines)
		sh := false
		for i, l := range lines {
			trimmed := strings.TrimSpace(l)
			if strings.HasPrefix(trimmed, "```") {
				sh = !sh && (trimmed == "```sh" || trimmed == "```bash")
				continue
			}
			if !code[i] || !sh {
				continue
			}
			cmd, _, _ := strings.Cut(trimmed, "#")
			m := commandRE.FindStringSubmatch(strings.TrimSpace(cmd))
			if m == nil {
				continue
			}
			for _, arg := range strings.Fields(quotedRE.ReplaceAllString(m[2], "")) {
				if !strings.HasPrefix(arg, "./") {
					continue
				}
				dir := strings.TrimSuffix(strings.TrimSuffix(arg, "/..."), "...")
				if fi, err := os.Stat(filepath.Join(root, filepath.FromSlash(dir))); err != nil || !fi.IsDir() {
					t.Errorf("%s:%d: %s names %s, which is not a folder of the repository", doc, i+1, m[0], arg)
				}
			}
		}
	}
}

var (
	ratioRE = regexp.MustCompile(`\b\d+\.\d+x\b`)
	dateRE  = regexp.MustCompile(`\b20\d\d-\d\d-\d\d\b`)
	// ownRunRE finds the command a dated run names, which tells it from the
	// report's run of the same day.
	ownRunRE = regexp.MustCompile("`(go\\s+(test|run)\\s|poolkit compare)")
)

// Generated results sit between these markers (cmd/poolkit's -readme).
const (
	generatedBegin = "<!-- results: begin"
	generatedEnd   = "<!-- results: end -->"
)

// TestNoHandCopiedRatios: a ratio (1.23x) outside the results the report
// writes must name the dated run it comes from, in its paragraph or the
// one just above it (through a table, the paragraph that introduced the
// table); and unless it names the command of its own run, its date must
// not be that of a generated results section, whose figures it would
// restate by hand (and contradict at the next run).
func TestNoHandCopiedRatios(t *testing.T) {
	generatedDates := map[string]bool{}
	for _, doc := range documents(t) {
		if _, gen, ok := strings.Cut(read(t, doc), generatedBegin); ok {
			gen, _, _ = strings.Cut(gen, generatedEnd)
			for _, d := range dateRE.FindAllString(gen, -1) {
				generatedDates[d] = true
			}
		}
	}
	for _, doc := range documents(t) {
		text := read(t, doc)
		for _, p := range paragraphs(text) {
			if p.generated || !ratioRE.MatchString(p.text) {
				continue
			}
			dates := dateRE.FindAllString(p.text+"\n"+p.before, -1)
			if len(dates) == 0 {
				t.Errorf("%s:%d: ratios %v without the dated run they come from (its date, machine and load)",
					doc, p.line, ratioRE.FindAllString(p.text, 3))
				continue
			}
			if ownRunRE.MatchString(p.text + "\n" + p.before) {
				continue // it names the command of its own run
			}
			for _, d := range dates {
				if generatedDates[d] {
					t.Errorf("%s:%d: ratios %v restate the generated results of %s by hand: let the report write them",
						doc, p.line, ratioRE.FindAllString(p.text, 3), d)
					break
				}
			}
		}
	}
}

// paragraph is a block of a document between blank lines, outside code.
type paragraph struct {
	text, before string // before: the paragraph above (and what introduced it, if a table)
	line         int
	generated    bool
}

func paragraphs(text string) []paragraph {
	var out []paragraph
	var cur []string
	start, generated, inGenerated := 0, false, false
	prev := ""
	flush := func() {
		if len(cur) == 0 {
			return
		}
		p := paragraph{text: strings.Join(cur, "\n"), line: start, generated: generated}
		// A table takes its run from the paragraph that introduces it,
		// and a paragraph after a table may read from it.
		p.before = prev
		if n := len(out); n > 0 && strings.HasPrefix(prev, "|") {
			p.before = out[n-1].before + "\n" + prev
		}
		out = append(out, p)
		prev = p.text
		cur = nil
	}
	sc := bufio.NewScanner(bytes.NewReader([]byte(text)))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	inCode := false
	for n := 1; sc.Scan(); n++ {
		l := sc.Text()
		switch {
		case strings.HasPrefix(l, generatedBegin):
			flush()
			inGenerated = true
			continue
		case strings.HasPrefix(l, generatedEnd):
			flush()
			inGenerated = false
			continue
		case strings.HasPrefix(strings.TrimSpace(l), "```"):
			inCode = !inCode
			continue
		}
		if inCode {
			continue
		}
		if strings.TrimSpace(l) == "" {
			flush()
			continue
		}
		if len(cur) == 0 {
			start, generated = n, inGenerated
		}
		cur = append(cur, l)
	}
	flush()
	return out
}

// TestPrereleaseLines: the README's lines for using poolkit before a
// release are the blocks of .ci/prerelease-lines.txt, which CI runs as
// they are.
func TestPrereleaseLines(t *testing.T) {
	blocks := map[string]string{}
	name := ""
	for _, l := range strings.Split(read(t, ".ci/prerelease-lines.txt"), "\n") {
		switch {
		case strings.HasPrefix(l, "[") && strings.HasSuffix(l, "]"):
			name = strings.Trim(l, "[]")
		case name != "" && strings.TrimSpace(l) != "":
			blocks[name] += l + "\n"
		}
	}
	if len(blocks) == 0 {
		t.Fatal(".ci/prerelease-lines.txt has no blocks")
	}
	readme := read(t, "README.md")
	_, install, _ := strings.Cut(readme, "## Install\n")
	install, _, _ = strings.Cut(install, "\n## ")
	for name, want := range blocks {
		if !strings.Contains(install, "```sh\n"+want+"```\n") {
			t.Errorf("README.md's Install section lacks the %s block of .ci/prerelease-lines.txt as it stands:\n%s", name, want)
		}
	}
}
