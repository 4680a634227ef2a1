package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"go/parser"
	"go/token"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/poolkit/poolkit/bench"
)

// compare is poolkit's regression guard. It builds the benchmarks of
// bench/hotpath twice, in two scratch modules that hold a copy of the
// working tree's bench/hotpath: one against the -base revision, checked
// out in a temporary git worktree, the other against the working tree.
// It runs the two test binaries alternately, in rounds, the first of each
// round alternating (base, tree, then tree, base: what a slow drift of
// the machine does falls on both alike), and compares each benchmark's
// figures on the two sides (compare_summary.go).

// hotpathDir is where the benchmarks live in a poolkit source tree.
var hotpathDir = filepath.Join("bench", "hotpath")

// busyLoad is the 1-minute load average above which the figures are
// suspect: on a 2-core machine, another process taking half a core
// already moves them by several percent.
const busyLoad = 0.5

// compareOutcome is what compare measured and wrote.
type compareOutcome struct {
	view compareView
}

// runCompare runs the comparison of c, with the working tree at root,
// prints its tables and writes the raw results into c.out. The
// cancelling of ctx (an interrupt) stops the benchmarks and the builds,
// and runCompare returns its error; the worktree and the scratch modules
// are removed on every return.
func runCompare(ctx context.Context, c config, root string, prog progress, stdout io.Writer) (o *compareOutcome, err error) {
	defer func() {
		if err != nil && ctx.Err() != nil {
			err = ctx.Err()
		}
	}()
	say := func(format string, a ...any) { fmt.Fprintf(stdout, "compare: "+format+"\n", a...) }

	// The load before anything of ours runs: the builds would raise it.
	loadStart, haveLoad := loadAverage()
	if haveLoad && loadStart > busyLoad {
		say("warning: the load average is %.2f; figures need an idle machine (see uptime: well below 1 on 2 cores)", loadStart)
	}
	repo, err := openRepo(ctx, root)
	if err != nil {
		return nil, err
	}
	base, err := repo.resolve(ctx, c.compare.base)
	if err != nil {
		return nil, err
	}
	tree := repo.describeTree(ctx)
	tmp, err := os.MkdirTemp("", "poolkit-compare-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	say("checking out %s in a temporary git worktree", base)
	baseRoot, removeWorktree, err := repo.worktree(ctx, base.hash, filepath.Join(tmp, "base"))
	if err != nil {
		return nil, err
	}
	defer removeWorktree()

	goVersion, err := goEnv(ctx, "GOVERSION")
	if err != nil {
		return nil, err
	}
	probes, source, err := buildProbes(ctx, root, baseRoot, tmp, base, say)
	if err != nil {
		return nil, err
	}

	// One iteration of each benchmark on both sides: both binaries run,
	// -bench matches something, and the run's length can be told.
	say("a trial run of one iteration of each benchmark, on both sides")
	trialStart := time.Now()
	var trial [2]samples
	for i, p := range probes {
		out, err := p.run(ctx, c.compare.bench, "1x", c.compare.cpu)
		if err != nil {
			return nil, err
		}
		if trial[i], err = readSamples(out, p.side.String()); err != nil {
			return nil, err
		}
	}
	if len(trial[0].keys) == 0 && len(trial[1].keys) == 0 {
		return nil, fmt.Errorf("-bench %q matches no benchmark of %s", c.compare.bench, hotpathDir)
	}
	perRun := runTime(c.compare.benchtime, max(trial[0].benchmarks(), trial[1].benchmarks()), time.Since(trialStart)/2)
	say("%s on each side at -benchtime %s, alternating: about %s",
		plural(c.rounds, "run"), c.compare.benchtime, (perRun * time.Duration(2*c.rounds)).Round(time.Second))

	raw, err := runRounds(ctx, c, probes, perRun, prog)
	prog.Finish()
	if err != nil {
		return nil, err
	}
	loadEnd, _ := loadAverage()

	var files [2]string
	var got [2]samples
	for _, s := range []side{baseSide, treeSide} {
		files[s] = absPath(filepath.Join(c.out, "compare-"+s.String()+".txt"))
		if err := os.WriteFile(files[s], raw[s], 0o644); err != nil {
			return nil, err
		}
		if got[s], err = readSamples(raw[s], files[s]); err != nil {
			return nil, err
		}
	}
	v := newCompareView(got[baseSide], got[treeSide])
	m := bench.ThisMachine()
	m.Go = goVersion // the go command's, which built the benchmarks
	v.Machine = m.String()
	v.Base, v.Tree, v.Source = base.String(), tree, source
	v.Runs = fmt.Sprintf("%s at -benchtime %s, -bench %s", plural(c.rounds, "round"), c.compare.benchtime, c.compare.bench)
	if c.compare.cpu != "" {
		v.Runs += ", -cpu " + c.compare.cpu
	}
	if haveLoad {
		v.Load = fmt.Sprintf("%.2f at the start, %.2f at the end (the benchmarks' own load included)", loadStart, loadEnd)
		v.Busy = loadStart > busyLoad
	} else {
		v.Load = "unknown (no /proc/loadavg)"
	}
	v.BaseRaw, v.TreeRaw = files[baseSide], files[treeSide]
	v.Elapsed = prog.Took().String()
	fmt.Fprintln(stdout)
	return &compareOutcome{view: v}, renderText(stdout, "compare", v)
}

// runRounds runs both sides' benchmarks c.rounds times, the first of
// each round alternating, and returns what each side printed, the runs
// one after the other. perRun is how long a run should take, for prog.
func runRounds(ctx context.Context, c config, probes [2]probe, perRun time.Duration, prog progress) ([2][]byte, error) {
	var raw [2][]byte
	total := perRun * time.Duration(2*c.rounds)
	for r := range c.rounds {
		// Base first in odd rounds, tree first in even ones.
		order := []side{baseSide, treeSide}
		if r%2 == 1 {
			order = []side{treeSide, baseSide}
		}
		for k, s := range order {
			prog.Update(perRun*time.Duration(2*r+k), total, fmt.Sprintf("round %d/%d: %s", r+1, c.rounds, s))
			out, err := probes[s].run(ctx, c.compare.bench, c.compare.benchtime, c.compare.cpu)
			if err != nil {
				return raw, err
			}
			raw[s] = append(raw[s], out...)
		}
	}
	prog.Update(total, total, "")
	return raw, nil
}

// runTime is about how long one run of a binary takes: n benchmarks, each
// run for benchtime after the runs that find its iteration count (about
// a third more), plus the setup that the trial run (of one iteration
// each, which took trial) stands for. A benchtime in iterations has no
// expected time: the trial's stands for it, and the progress's estimate
// goes by the pace of the first runs.
func runTime(each string, n int, trial time.Duration) time.Duration {
	bt, ok := benchtime(each)
	if !ok || bt.x {
		return max(trial, time.Millisecond)
	}
	return time.Duration(float64(n)*bt.n*4/3) + trial
}

// side is one of the two sides compared.
type side int

const (
	baseSide side = iota
	treeSide
)

func (s side) String() string {
	if s == baseSide {
		return "base"
	}
	return "tree"
}

// probe is one side's test binary, built in its scratch module.
type probe struct {
	side side
	// dir is the scratch module, the binary's working directory.
	dir, bin string
}

// run runs the benchmarks that match re for benchtime each, once at each
// GOMAXPROCS of cpu (as -test.cpu; "" leaves it as it is), and returns
// what the binary printed: Go's benchmark format, with the goos, goarch,
// pkg and cpu lines.
func (p probe) run(ctx context.Context, re, benchtime, cpu string) ([]byte, error) {
	args := []string{"-test.run=^$", "-test.bench=" + re, "-test.benchmem",
		"-test.count=1", "-test.benchtime=" + benchtime, "-test.timeout=30m"}
	if cpu != "" {
		args = append(args, "-test.cpu="+cpu)
	}
	cmd := command(ctx, p.bin, args...)
	cmd.Dir = p.dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("the %s benchmarks failed (%v):\n%s%s", p.side, err, lastLines(stdout.String(), 20), stderr.String())
	}
	return stdout.Bytes(), nil
}

// buildProbes builds both sides' binaries in scratch modules under tmp
// from the working tree's bench/hotpath. When that does not build against
// the base (its API changed since), the base side uses the base's own
// bench/hotpath, if it has one, and source says so.
func buildProbes(ctx context.Context, root, baseRoot, tmp string, base revision, say func(string, ...any)) (probes [2]probe, source string, err error) {
	hotpath := filepath.Join(root, hotpathDir)
	if _, err := os.Stat(hotpath); err != nil {
		return probes, "", fmt.Errorf("the working tree has no %s to compare with: %v", hotpathDir, err)
	}
	for _, s := range []side{treeSide, baseSide} {
		probes[s] = probe{side: s, dir: filepath.Join(tmp, "mod-"+s.String()), bin: filepath.Join(tmp, s.String()+".test")}
	}
	say("building %s against the working tree (%s)", hotpathDir, root)
	t0 := time.Now()
	if out, err := probes[treeSide].build(ctx, hotpath, root); err != nil {
		return probes, "", fmt.Errorf("%s does not build against the working tree: %v\n%s", hotpathDir, err, firstLines(out, 15))
	}
	say("built in %s; building it against %s", time.Since(t0).Round(time.Second), base)
	t0 = time.Now()
	out, err := probes[baseSide].build(ctx, hotpath, baseRoot)
	if err != nil {
		if ctx.Err() != nil {
			return probes, "", err
		}
		own := filepath.Join(baseRoot, hotpathDir)
		if _, statErr := os.Stat(own); statErr != nil {
			return probes, "", fmt.Errorf("the working tree's %s does not build against %s, which has no %s of its own; "+
				"the build says:\n%s", hotpathDir, base, hotpathDir, firstLines(out, 15))
		}
		say("the working tree's %s does not build against %s (its API differs); building the base's own", hotpathDir, base)
		if out2, err := probes[baseSide].build(ctx, own, baseRoot); err != nil {
			return probes, "", fmt.Errorf("neither the working tree's %s nor the base's own builds against %s; the build says, of the working tree's:\n%s\nand of the base's:\n%s",
				hotpathDir, base, firstLines(out, 15), firstLines(out2, 15))
		}
		source = fmt.Sprintf("The base ran its own %s: the working tree's does not build against it (%s).",
			hotpathDir, firstError(out))
	}
	say("built in %s", time.Since(t0).Round(time.Second))
	return probes, source, nil
}

// build makes p's scratch module from the .go files of src, requiring
// poolkit from the source tree at poolkitRoot, and builds its test binary.
// On failure it returns what the go command printed.
func (p probe) build(ctx context.Context, src, poolkitRoot string) ([]byte, error) {
	if err := os.RemoveAll(p.dir); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(p.dir, 0o755); err != nil {
		return nil, err
	}
	files, err := filepath.Glob(filepath.Join(src, "*.go"))
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("no Go files in %s", src)
	}
	var imports []string
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		if err := os.WriteFile(filepath.Join(p.dir, filepath.Base(f)), data, 0o644); err != nil {
			return nil, err
		}
		parsed, err := parser.ParseFile(token.NewFileSet(), f, data, parser.ImportsOnly)
		if err != nil {
			return nil, err
		}
		for _, im := range parsed.Imports {
			if path, err := strconv.Unquote(im.Path.Value); err == nil {
				imports = append(imports, path)
			}
		}
	}
	// A package that the revision lacks would send go mod tidy looking
	// for it on the module proxy.
	for _, im := range imports {
		if rel, ok := strings.CutPrefix(im, module+"/"); ok && !hasGoFiles(filepath.Join(poolkitRoot, filepath.FromSlash(rel))) {
			return []byte(fmt.Sprintf("%s imports %s, which that revision does not have\n", hotpathDir, im)),
				fmt.Errorf("no package %s", im)
		}
	}
	// The other modules the files import, at the versions the module
	// they come from (bench) requires; go mod tidy adds what those need,
	// and finds the latest of any that module does not require.
	benchMod, err := os.ReadFile(filepath.Join(filepath.Dir(src), "go.mod"))
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(p.dir, "go.mod"), scratchGoMod(poolkitRoot, imports, requirements(benchMod)), 0o644); err != nil {
		return nil, err
	}
	if out, err := goCommand(ctx, p.dir, "mod", "tidy"); err != nil {
		return out, fmt.Errorf("go mod tidy: %v", err)
	}
	if out, err := goCommand(ctx, p.dir, "test", "-c", "-o", p.bin, "."); err != nil {
		return out, fmt.Errorf("go test -c: %v", err)
	}
	return nil, nil
}

// hasGoFiles reports whether dir holds a Go package.
func hasGoFiles(dir string) bool {
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	return err == nil && len(files) > 0
}

// scratchModule is the module path of the scratch modules.
const scratchModule = "hotpathprobe"

// scratchGoMod is the go.mod of a scratch module whose files import
// imports: poolkit from poolkitRoot, and the other modules at the
// versions in versions (module path to version) of those imported.
func scratchGoMod(poolkitRoot string, imports []string, versions map[string]string) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "module %s\n\ngo 1.25\n\nrequire %s v0.0.0\n", scratchModule, module)
	seen := map[string]bool{}
	for _, im := range imports {
		if isStd(im) || im == module || strings.HasPrefix(im, module+"/") {
			continue
		}
		mod := ""
		for m := range versions {
			if (im == m || strings.HasPrefix(im, m+"/")) && len(m) > len(mod) {
				mod = m
			}
		}
		if mod != "" && !seen[mod] {
			seen[mod] = true
			fmt.Fprintf(&b, "require %s %s\n", mod, versions[mod])
		}
	}
	fmt.Fprintf(&b, "\nreplace %s => %s\n", module, poolkitRoot)
	return []byte(b.String())
}

// isStd reports whether an import path is in the standard library, whose
// first element has no dot.
func isStd(path string) bool {
	first, _, _ := strings.Cut(path, "/")
	return !strings.Contains(first, ".")
}

// requirements reads the require directives of a go.mod file: module
// path to version.
func requirements(gomod []byte) map[string]string {
	req := map[string]string{}
	block := false
	for _, line := range strings.Split(string(gomod), "\n") {
		line, _, _ = strings.Cut(line, "//")
		f := strings.Fields(line)
		switch {
		case len(f) == 2 && f[0] == "require" && f[1] == "(":
			block = true
		case block && len(f) == 1 && f[0] == ")":
			block = false
		case block && len(f) == 2:
			req[f[0]] = f[1]
		case len(f) == 3 && f[0] == "require":
			req[f[1]] = f[2]
		}
	}
	return req
}

// goCommand runs the go command in dir on a scratch module: outside the
// workspace, free to fetch what the module needs. It returns what the
// command printed.
func goCommand(ctx context.Context, dir string, args ...string) ([]byte, error) {
	cmd := command(ctx, "go", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS="+strings.TrimSpace(os.Getenv("GOFLAGS")+" -mod=mod"))
	return cmd.CombinedOutput()
}

// goEnv is one variable of go env.
func goEnv(ctx context.Context, name string) (string, error) {
	out, err := exec.CommandContext(ctx, "go", "env", name).Output()
	if err != nil {
		return "", fmt.Errorf("go env %s: %v", name, err)
	}
	return strings.TrimSpace(string(out)), nil
}

// firstLines is the first n lines of out.
func firstLines(out []byte, n int) string {
	lines := strings.Split(strings.TrimRight(string(out), "\n"), "\n")
	return strings.Join(lines[:min(n, len(lines))], "\n") + "\n"
}

// firstError is the first line of the go command's output that is not a
// package header ("# pkg").
func firstError(out []byte) string {
	for _, line := range strings.Split(string(out), "\n") {
		if line = strings.TrimSpace(line); line != "" && !strings.HasPrefix(line, "#") {
			return line
		}
	}
	return "it says nothing"
}

// loadAverage is the system's 1-minute load average, and false where the
// system does not tell it.
func loadAverage() (float64, bool) {
	data, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return 0, false
	}
	f := strings.Fields(string(data))
	if len(f) == 0 {
		return 0, false
	}
	x, err := strconv.ParseFloat(f[0], 64)
	return x, err == nil
}

// repo is the git repository of the working tree.
type repo struct {
	// top is the repository's top folder; root the poolkit module's, in
	// it.
	top, root string
}

// revision is a commit of the repository.
type revision struct {
	ref, hash, short, subject string
}

// String names the revision for people: the ref as given, its short hash
// and its subject.
func (r revision) String() string {
	if strings.HasPrefix(r.hash, r.ref) {
		return fmt.Sprintf("%s (%s)", r.short, r.subject)
	}
	return fmt.Sprintf("%s (%s %s)", r.ref, r.short, r.subject)
}

// openRepo finds the git repository that holds the source tree at root.
func openRepo(ctx context.Context, root string) (repo, error) {
	if _, err := exec.LookPath("git"); err != nil {
		return repo{}, fmt.Errorf("compare checks the base revision out with git, which was not found: %v", err)
	}
	top, err := git(ctx, root, "rev-parse", "--show-toplevel")
	if err != nil {
		return repo{}, fmt.Errorf("compare needs the git repository of poolkit's source, and %s is not in one (%v)", root, err)
	}
	return repo{top: top, root: root}, nil
}

// resolve finds the commit that ref names.
func (g repo) resolve(ctx context.Context, ref string) (revision, error) {
	hash, err := git(ctx, g.top, "rev-parse", "--verify", "--quiet", ref+"^{commit}")
	if err != nil {
		return revision{}, fmt.Errorf("-base %q: no such commit in %s", ref, g.top)
	}
	r := revision{ref: ref, hash: hash, short: hash[:min(len(hash), 7)]}
	if s, err := git(ctx, g.top, "log", "-1", "--format=%h\x1f%s", hash); err == nil {
		r.short, r.subject, _ = strings.Cut(s, "\x1f")
	}
	if rs := []rune(r.subject); len(rs) > 60 {
		r.subject = string(rs[:59]) + "…"
	}
	return r, nil
}

// describeTree says what the working tree holds beside its HEAD.
func (g repo) describeTree(ctx context.Context) string {
	// --no-optional-locks: status must not refresh the index, which
	// another git command may be using.
	s, err := git(ctx, g.top, "--no-optional-locks", "status", "--porcelain", "--", ".")
	switch {
	case err != nil:
		return fmt.Sprintf("the working tree, %s", g.root)
	case s == "":
		return fmt.Sprintf("the working tree, %s (no uncommitted changes)", g.root)
	}
	return fmt.Sprintf("the working tree, %s (%s not committed)", g.root, plural(len(strings.Split(s, "\n")), "file"))
}

// worktree checks hash out, detached, into dir, and returns where the
// poolkit module is in it and a function that removes the worktree.
func (g repo) worktree(ctx context.Context, hash, dir string) (string, func(), error) {
	remove := func() {
		// Not ctx: the worktree goes also after an interrupt.
		_, _ = git(context.Background(), g.top, "worktree", "remove", "--force", dir)
	}
	if _, err := git(ctx, g.top, "worktree", "add", "--detach", dir, hash); err != nil {
		remove() // what an interrupted add left
		return "", nil, fmt.Errorf("git worktree add: %v", err)
	}
	rel, err := filepath.Rel(g.top, g.root)
	if err != nil {
		remove()
		return "", nil, err
	}
	return filepath.Join(dir, rel), remove, nil
}

// git runs git in dir and returns what it printed, trimmed; its error
// carries what git said.
func git(ctx context.Context, dir string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		if msg := strings.TrimSpace(stderr.String()); msg != "" {
			err = fmt.Errorf("%v: %s", err, msg)
		}
		return "", err
	}
	return strings.TrimSpace(string(out)), nil
}
