//go:build go1.22

package pool_test

import (
	"bytes"
	"context"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/poolkit/poolkit/pool"
)

// quickStart is the quick start of docs/pool.md, verbatim: TestQuickStartDoc
// fails when the two differ, and Example_quickStart runs it.
func quickStart(ctx context.Context, jobs []int, urls []string) error {
	p, err := pool.New(8) // at most 8 tasks at once
	if err != nil {
		return err
	}
	defer p.Shutdown(ctx) // stops intake, waits for the accepted tasks as ctx allows

	for _, job := range jobs {
		if err := p.Submit(ctx, func() { handle(job) }); err != nil {
			return err // ErrClosed; ErrOverload under WithMaxWaiting; ctx.Err()
		}
	}
	if err := p.Resize(16); err != nil { // more capacity now; queued work starts at once
		return err
	}

	// One function, many arguments, no allocation per call:
	fp, err := pool.NewFunc(8, func(id int) { handle(id) })
	if err != nil {
		return err
	}
	defer fp.Shutdown(ctx)
	if err := fp.Invoke(ctx, 42); err != nil {
		return err
	}

	// A batch with the first error, errgroup style (gctx ends when the batch does):
	g, gctx := p.Group(ctx)
	for _, u := range urls {
		g.Go(func() error { return fetch(gctx, u) })
	}
	if err := g.Wait(); err != nil {
		return err
	}

	// A typed result (ctx, not gctx: the batch is over):
	f, err := pool.SubmitResult(ctx, p, func() (int, error) { return compute() })
	if err != nil {
		return err
	}
	v, err := f.Wait(ctx)
	if err != nil {
		return err
	}
	fmt.Println("result:", v)
	return nil
}

var handled atomic.Int64

func handle(int)                                { handled.Add(1) }
func fetch(ctx context.Context, _ string) error { return ctx.Err() }
func compute() (int, error)                     { return 42, nil }

// Example_quickStart runs the quick start of docs/pool.md.
func Example_quickStart() {
	err := quickStart(context.Background(), []int{1, 2, 3}, []string{"a", "b"})
	// The deferred Shutdowns waited for every task: all four have run.
	fmt.Println(err, handled.Load())
	// Output:
	// result: 42
	// <nil> 4
}

// TestQuickStartDoc fails when the quick start of docs/pool.md is not the body
// of quickStart: docs/pool.md shows only code that compiles and runs.
func TestQuickStartDoc(t *testing.T) {
	readme, err := os.ReadFile("../docs/pool.md")
	if err != nil {
		t.Fatal(err)
	}
	_, after, ok := bytes.Cut(readme, []byte("## Quick start\n"))
	if !ok {
		t.Fatal("docs/pool.md has no Quick start section")
	}
	_, block, ok := bytes.Cut(after, []byte("```go\n"))
	if !ok {
		t.Fatal("docs/pool.md's Quick start has no Go block")
	}
	block, _, ok = bytes.Cut(block, []byte("```"))
	if !ok {
		t.Fatal("docs/pool.md's Quick start block is not closed")
	}

	src, err := os.ReadFile("quickstart_test.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, "quickstart_test.go", src, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	var body string
	for _, d := range file.Decls {
		if fn, ok := d.(*ast.FuncDecl); ok && fn.Name.Name == "quickStart" {
			from := fset.Position(fn.Body.Lbrace).Offset + 2 // past "{\n"
			to := fset.Position(fn.Body.Rbrace).Offset
			body = string(src[from:to])
		}
	}
	if body == "" {
		t.Fatal("no func quickStart")
	}
	var lines []string
	for _, l := range strings.Split(strings.TrimSuffix(body, "\n"), "\n") {
		lines = append(lines, strings.TrimPrefix(l, "\t"))
	}
	lines = lines[:len(lines)-1] // the final "return nil" of the function
	want := strings.Join(lines, "\n") + "\n"
	if got := string(block); got != want {
		t.Errorf("docs/pool.md's quick start differs from quickStart in pool/quickstart_test.go; make it:\n%s", want)
	}
}
