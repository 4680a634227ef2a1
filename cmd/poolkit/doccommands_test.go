package main

import (
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// commandInDocsRE finds a poolkit command line in the documents, in a
// shell block or in backquotes: what follows "go run ./cmd/poolkit".
var commandInDocsRE = regexp.MustCompile("go run \\./cmd/poolkit((?: +[^ `#\\n]+)*)")

// TestDocumentedCommands: every poolkit command line that the README and
// docs/ show parses: its command, flags and values are ones the command
// accepts.
func TestDocumentedCommands(t *testing.T) {
	root := filepath.Join("..", "..")
	docs, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	docs = append(docs, filepath.Join(root, "README.md"))
	seen := 0
	for _, doc := range docs {
		b, err := os.ReadFile(doc)
		if err != nil {
			t.Fatal(err)
		}
		// A command may wrap across lines in prose: join them first.
		text := strings.ReplaceAll(string(b), "\n", " ")
		for _, m := range commandInDocsRE.FindAllStringSubmatch(text, -1) {
			args := strings.Fields(m[1])
			seen++
			if _, err := parseArgs(args); err != nil && !errors.Is(err, errHelp) {
				t.Errorf("%s: go run ./cmd/poolkit %s: %v", filepath.Base(doc), strings.Join(args, " "), err)
			}
		}
	}
	if seen < 5 {
		t.Errorf("found %d poolkit command lines in the documents; the pattern no longer finds them", seen)
	}
}
