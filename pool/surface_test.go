package pool_test

import (
	"go/doc"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"sort"
	"strings"
	"testing"
)

// maxSurface is the most exported names package pool may have, counted as
// go doc lists them: every top-level name and every method. docs/pool.md
// says what each one is for.
const maxSurface = 70

// TestSurfaceSize: API-36. The package's exported surface stays small: at
// most maxSurface names, each of which docs/pool.md's "The pool's API"
// section names.
func TestSurfaceSize(t *testing.T) {
	fset := token.NewFileSet()
	pkgs, err := parser.ParseDir(fset, ".", func(fi fs.FileInfo) bool {
		return !strings.HasSuffix(fi.Name(), "_test.go")
	}, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	d := doc.New(pkgs["pool"], "github.com/poolkit/poolkit/pool", 0)
	var names []string
	add := func(ns ...string) { names = append(names, ns...) }
	for _, v := range append(d.Consts, d.Vars...) {
		add(v.Names...)
	}
	for _, f := range d.Funcs {
		add(f.Name)
	}
	for _, ty := range d.Types {
		add(ty.Name)
		for _, v := range append(ty.Consts, ty.Vars...) {
			add(v.Names...)
		}
		for _, f := range ty.Funcs {
			add(f.Name)
		}
		for _, m := range ty.Methods {
			add(ty.Name + "." + m.Name)
		}
	}
	sort.Strings(names)
	if len(names) > maxSurface {
		t.Errorf("package pool exports %d names, more than %d: %s", len(names), maxSurface, strings.Join(names, " "))
	}
	b, err := os.ReadFile("../docs/pool.md")
	if err != nil {
		t.Fatal(err)
	}
	readme := string(b)
	_, api, ok := strings.Cut(readme, "## The pool's API\n")
	if !ok {
		t.Fatal("docs/pool.md has no \"The pool's API\" section")
	}
	api, _, _ = strings.Cut(api, "\n## ")
	// A name is there in backquotes, as itself, as a call ("Submit(ctx,
	// task)"), or, for a method, with its type ("Pool.Submit(...)") or as
	// a method shared by Pool and FuncPool ("Resize(n)").
	for _, n := range names {
		short := n[strings.LastIndex(n, ".")+1:]
		found := false
		for _, form := range []string{"`" + n + "`", "`" + n + "(", "`" + short + "`", "`" + short + "(", ", " + short + "`"} {
			if strings.Contains(api, form) {
				found = true
			}
		}
		if !found {
			t.Errorf("docs/pool.md's \"The pool's API\" does not say what %s is for", n)
		}
	}
}
