package upstream

import (
	"fmt"
	"go/constant"
	"go/importer"
	"go/token"
	"go/types"
	"io"
	"os"
	"strings"
	"testing"
)

// TestAPIMatchesAnts checks that every name ants v2.12.1 exports is
// exported by the drop-in with the same kind, type or signature, and, for
// constants, the same value; and that every exported method of an ants
// type exists on the drop-in's with the same signature. The drop-in may
// export more (Resize, Stats, errors ants lacks).
func TestAPIMatchesAnts(t *testing.T) {
	theirs := loadPackage(t, antsModule)
	ours := loadPackage(t, dropIn)
	qual := func(p *types.Package) string {
		if p.Path() == antsModule || p.Path() == dropIn {
			return ""
		}
		return p.Path()
	}
	str := func(x any) string {
		switch x := x.(type) {
		case *types.Signature:
			return signature(x, qual)
		case types.Type:
			return types.TypeString(x, qual)
		case types.Object:
			return types.ObjectString(x, qual)
		}
		return fmt.Sprint(x)
	}
	names := theirs.Scope().Names()
	checked := 0
	for _, name := range names {
		a := theirs.Scope().Lookup(name)
		if !a.Exported() {
			continue
		}
		checked++
		b := ours.Scope().Lookup(name)
		if b == nil {
			t.Errorf("missing: %s", str(a))
			continue
		}
		if fmt.Sprintf("%T", a) != fmt.Sprintf("%T", b) {
			t.Errorf("%s: ants has %T, the drop-in %T", name, a, b)
			continue
		}
		switch a := a.(type) {
		case *types.Const:
			b := b.(*types.Const)
			if str(a.Type()) != str(b.Type()) || !constant.Compare(a.Val(), token.EQL, b.Val()) {
				t.Errorf("%s: ants has %s = %v, the drop-in %s = %v", name, str(a.Type()), a.Val(), str(b.Type()), b.Val())
			}
		case *types.Var, *types.Func:
			if str(a.Type()) != str(b.Type()) {
				t.Errorf("%s: ants has %s, the drop-in %s", name, str(a), str(b))
			}
		case *types.TypeName:
			compareType(t, name, a, b.(*types.TypeName), str)
		}
	}
	if checked < 40 {
		t.Fatalf("checked %d exported names of ants, expected over 40", checked)
	}
}

func compareType(t *testing.T, name string, a, b *types.TypeName, str func(any) string) {
	t.Helper()
	an, bn := a.Type().(*types.Named), b.Type().(*types.Named)
	if an.TypeParams().Len() != bn.TypeParams().Len() {
		t.Errorf("%s: type parameters differ", name)
		return
	}
	// Interfaces, functions and basic types must be identical; structs
	// may differ in their unexported fields, but not in exported ones.
	switch au := an.Underlying().(type) {
	case *types.Struct:
		bu, ok := bn.Underlying().(*types.Struct)
		if !ok {
			t.Errorf("%s: ants' is a struct, the drop-in's %s", name, str(bn.Underlying()))
			return
		}
		for i := range au.NumFields() {
			f := au.Field(i)
			if !f.Exported() || f.Embedded() {
				continue
			}
			if g := fieldNamed(bu, f.Name()); g == nil || str(f.Type()) != str(g.Type()) {
				t.Errorf("%s.%s: missing or of another type", name, f.Name())
			}
		}
	default:
		if str(an.Underlying()) != str(bn.Underlying()) {
			t.Errorf("%s: ants has %s, the drop-in %s", name, str(an.Underlying()), str(bn.Underlying()))
		}
	}
	am, bm := types.NewMethodSet(types.NewPointer(an)), types.NewMethodSet(types.NewPointer(bn))
	for i := range am.Len() {
		m := am.At(i).Obj()
		if !m.Exported() {
			continue
		}
		sel := bm.Lookup(m.Pkg(), m.Name())
		if sel == nil {
			sel = bm.Lookup(b.Pkg(), m.Name())
		}
		if sel == nil {
			t.Errorf("%s: missing method %s", name, m.Name())
			continue
		}
		if sa, sb := str(m.Type()), str(sel.Obj().Type()); sa != sb {
			t.Errorf("%s.%s: ants has %s, the drop-in %s", name, m.Name(), sa, sb)
		}
	}
}

// signature writes a function type without its parameter names, which
// are no part of it.
func signature(sig *types.Signature, qual types.Qualifier) string {
	list := func(tup *types.Tuple, variadic bool) string {
		var parts []string
		for i := range tup.Len() {
			s := types.TypeString(tup.At(i).Type(), qual)
			if variadic && i == tup.Len()-1 {
				s = "..." + strings.TrimPrefix(s, "[]")
			}
			parts = append(parts, s)
		}
		return "(" + strings.Join(parts, ", ") + ")"
	}
	return "func" + list(sig.Params(), sig.Variadic()) + " " + list(sig.Results(), false)
}

func fieldNamed(s *types.Struct, name string) *types.Var {
	for i := range s.NumFields() {
		if s.Field(i).Name() == name {
			return s.Field(i)
		}
	}
	return nil
}

// loadPackage type-checks path from its export data, which go list builds.
func loadPackage(t *testing.T, path string) *types.Package {
	t.Helper()
	out := goCmd(t, "list", "-export", "-deps", "-f", "{{.ImportPath}}\t{{.Export}}", path)
	files := map[string]string{}
	for _, line := range strings.Split(out, "\n") {
		if p, f, ok := strings.Cut(line, "\t"); ok && f != "" {
			files[p] = f
		}
	}
	imp := importer.ForCompiler(token.NewFileSet(), "gc", func(p string) (io.ReadCloser, error) {
		f, ok := files[p]
		if !ok {
			return nil, fmt.Errorf("no export data for %s", p)
		}
		return os.Open(f)
	})
	pkg, err := imp.Import(path)
	if err != nil {
		t.Fatalf("importing %s: %v", path, err)
	}
	return pkg
}
