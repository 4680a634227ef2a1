package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/poolkit/poolkit/bench"
)

// commandDocs says what each command does, in the order the usage lists
// them.
var commandDocs = []struct{ name, about string }{
	{"report", "the quick report: bench, actors, keyed, spec and autoscale, as HTML"},
	{"bench", "comparative benchmarks: medians and ratios to poolkit, raw results for benchstat"},
	{"actors", "actor benchmarks: poolkit's actorpool against protoactor-go and GoAkt"},
	{"keyed", "keyed stream benchmark: natsrunner's keyed runner (in order per key) against the unordered one and 16 hashed ordered consumers"},
	{"spec", "the conformance matrix: every SPEC.md clause against every pool"},
	{"autoscale", "the autoscaler scenarios against the best fixed size in hindsight and three baselines"},
	{"compare", "regression guard: poolkit's hot paths (bench/hotpath) at -base against the working tree"},
	{"help", "this text; help COMMAND: that command's text and flags"},
}

const sourceNote = "report, actors, keyed, spec, autoscale and compare run the go command: run poolkit from a clone of its repository."

const compareAbout = `compare builds bench/hotpath against the -base revision (checked out in a temporary git worktree) and against
the working tree, runs the two alternately, -rounds times (default %d), and prints each benchmark's median on
both sides with its spread, their ratio and the p-value of the difference, as benchstat does; the raw results
go to -out as compare-base.txt and compare-tree.txt. Its figures need an idle machine.
`

// timesNote says what the times the command tells include.
func timesNote() string {
	return fmt.Sprintf(`Before it starts, poolkit says how long the run will take, builds included: it asks the go command
(offline) what the build cache lacks of the test binaries it will build; a first build of the actor
benchmarks takes %s more. While it runs, every line gives the whole run's share done and
one time left, for every stage to come, which moves smoothly; a stage's own share is labelled as such.
`, minutes(firstActorsBuild))
}

// verdictNote says when the benchmark tables rank a pool, for the help.
func verdictNote() string {
	return wrapText("Verdicts. "+verdictRule()+". The million sleeping tasks (Sleeping1M) run one round in a quick run, "+
		"hence no verdict there; -full runs 10 rounds, 3 of Sleeping1M.", textWidth) + "\n"
}

// wrapText breaks s into lines of at most width characters, at spaces.
func wrapText(s string, width int) string {
	var b strings.Builder
	n := 0
	for i, w := range strings.Fields(s) {
		if i > 0 && n+1+len([]rune(w)) > width {
			b.WriteString("\n")
			n = 0
		} else if i > 0 {
			b.WriteString(" ")
			n++
		}
		b.WriteString(w)
		n += len([]rune(w))
	}
	return b.String()
}

// exitNote says what the exit status means, and why a go run user sees
// another one.
const exitNote = `Ctrl-C (or SIGTERM) stops the running stage and keeps what the stages before it measured: the report
(index.html and the result files) shows them and marks the stage stopped and those not run, one line
says what was kept and where, and the README given to -readme is left as it was. With nothing measured
yet, an output folder the run created is removed. A second Ctrl-C quits at once.

Exit status: 0; 1 when a stage could not run or one of poolkit's own runs failed; 2 for a bad command
line; 130 when interrupted. go run reports a status other than 0 as "exit status N" and exits 1 itself.
`

// config is what the command line asks for.
type config struct {
	command string
	// full runs the long versions: 10 benchmark rounds at longer
	// benchtimes, and the CPU-bound autoscaler scenarios in real time.
	full   bool
	rounds int
	// workloads restricts bench to these workloads (all when empty).
	workloads []string
	// actors restricts the actor benchmarks to the workloads it matches
	// (all when nil).
	actors *regexp.Regexp
	// keyed restricts the keyed stream benchmark to the key distributions
	// it matches (all when nil).
	keyed    *regexp.Regexp
	out      string
	readme   string
	maxprocs string
	// plain forces plain progress lines even on a terminal.
	plain bool
	// compare is what the compare command compares; zero for the others.
	compare compareConfig
	// help is the command whose usage was asked for ("" for all of them).
	help string
}

// compareConfig is what the compare command runs: bench/hotpath at base
// against the working tree.
type compareConfig struct {
	// base is the git revision compared with the working tree.
	base string
	// bench and benchtime are the test binaries' -test.bench and
	// -test.benchtime.
	bench, benchtime string
	// cpu is the binaries' -test.cpu, "" for GOMAXPROCS as it is: with
	// several counts, compare adds a scaling table.
	cpu string
}

var commands = []string{"report", "bench", "actors", "keyed", "spec", "autoscale", "compare", "help"}

// compareRounds is compare's default -rounds: the fewest that give each
// median a 95% interval (see compare_summary.go).
const compareRounds = 6

// onlyFor names the commands a flag applies to, for the flags that apply
// to few.
var onlyFor = map[string][]string{
	"readme":    {"report"},
	"workloads": {"report", "bench"},
	"actors":    {"report", "actors"},
	"keyed":     {"report", "keyed"},
	"base":      {"compare"},
	"bench":     {"compare"},
	"benchtime": {"compare"},
	"cpu":       {"compare"},
}

// notFor names the commands a flag does not apply to.
var notFor = map[string][]string{
	"full": {"compare"},
}

// errHelp asks for the usage text, on stdout, and exit status 0.
var errHelp = errors.New("help requested")

// flags declares the command line's flags on a new flag set that prints
// nothing itself: run prints an error once, or the usage when asked.
func flags(c *config) (fs *flag.FlagSet, rounds, workloads, actors, keyed *string) {
	fs = flag.NewFlagSet("poolkit", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	fs.BoolVar(&c.full, "full", false, "run the long comparison: more rounds, longer benchtimes, the CPU-bound autoscaler scenarios")
	rounds = fs.String("rounds", "", fmt.Sprintf("benchmark rounds, at least 1 (default 3, or 10 with -full; %d for compare)", compareRounds))
	workloads = fs.String("workloads", "", "comma-separated benchmark workloads to run (default all: "+strings.Join(workloadNames(), ", ")+")")
	actors = fs.String("actors", "", "a regexp: the actor workloads to run (default all: "+strings.Join(actorWorkloads(), ", ")+"); in a report, one that matches none leaves the actor table out")
	keyed = fs.String("keyed", "", "a regexp: the key distributions of the keyed stream benchmark to run (default all: "+strings.Join(keyedDists, ", ")+"); in a report, one that matches none leaves the keyed table out")
	fs.StringVar(&c.out, "out", "poolkit-report", "folder the results, plots and HTML report are written to")
	fs.StringVar(&c.readme, "readme", "", "report: also rewrite the results section of this README")
	fs.StringVar(&c.maxprocs, "maxprocs", "", `how GOMAXPROCS is set: "" leaves Go's default; "automaxprocs" applies go.uber.org/automaxprocs (container CPU quota) to this program and the suites it runs`)
	fs.BoolVar(&c.plain, "plain", false, "print plain progress lines instead of a progress bar")
	fs.StringVar(&c.compare.base, "base", "HEAD", "compare: the git revision (branch, tag or commit) the working tree is compared with")
	fs.StringVar(&c.compare.bench, "bench", ".", "compare: a regexp, the benchmarks of bench/hotpath to run (as go test -bench)")
	fs.StringVar(&c.compare.benchtime, "benchtime", "200ms", "compare: each benchmark's run time (200ms) or iterations (1000x), as go test -benchtime")
	fs.StringVar(&c.compare.cpu, "cpu", "", "compare: GOMAXPROCS values to run each benchmark at, as go test -cpu (2,4,8,16); with several, a scaling table follows")
	return fs, rounds, workloads, actors, keyed
}

// writeUsage writes the usage text for command, or for every command when
// command is "" or help; name is how the user runs poolkit.
func writeUsage(w io.Writer, name, command string) {
	var c config
	fs, _, _, _, _ := flags(&c)
	quick := config{command: "report", rounds: 3}
	full := config{command: "report", rounds: 10, full: true}
	if command != "" && command != "help" {
		writeCommandUsage(w, fs, name, command)
		return
	}
	fmt.Fprintf(w, "poolkit measures poolkit against the Go pools people use instead, on this machine.\n\nUsage:\n")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, d := range commandDocs {
		about, args := d.about, "[flags] "+d.name
		switch d.name {
		case "report":
			about, args = fmt.Sprintf("%s (%s on 2 cores once built, %s more on a first run)", about,
				minutes(quick.estimate()), minutes(firstActorsBuild)), "[flags] [report]"
		case "help":
			args = "help [command]"
		}
		fmt.Fprintf(tw, "  %s %s\t%s\n", name, args, about)
	}
	tw.Flush()
	fmt.Fprintf(w, "\n%s\nFlags go before or after the command.\n\n", sourceNote)
	fmt.Fprintf(w, compareAbout, compareRounds)
	fmt.Fprintf(w, "\nFlags:\n")
	fs.SetOutput(w)
	fs.PrintDefaults()
	fmt.Fprintf(w, "\nThe full report takes %s, once built.\n\n%s\n%s\n%s", minutes(full.estimate()), timesNote(), verdictNote(), exitNote)
}

// writeCommandUsage writes one command's usage: what it does, how long it
// takes, and the flags it accepts.
func writeCommandUsage(w io.Writer, fs *flag.FlagSet, name, command string) {
	i := slices.IndexFunc(commandDocs, func(d struct{ name, about string }) bool { return d.name == command })
	about := commandDocs[i].about
	quick := config{command: command, rounds: 3}
	full := config{command: command, rounds: 10, full: true}
	fmt.Fprintf(w, "Usage: %s [flags] %s\n\n%s%s.\n", name, command, strings.ToUpper(about[:1]), about[1:])
	switch command {
	case "compare":
		fmt.Fprintf(w, "\n"+compareAbout, compareRounds)
	default:
		fmt.Fprintf(w, "It takes %s on 2 cores once built, %s with -full.\n",
			minutes(quick.estimate()), minutes(full.estimate()))
		if _, ok := stageBuilds[command]; ok || command == "report" {
			fmt.Fprint(w, timesNote())
		}
		if command == "bench" || command == "report" {
			fmt.Fprint(w, verdictNote())
		}
		if command == "keyed" {
			fmt.Fprintln(w, wrapText(keyedNote(), textWidth))
		}
	}
	if command != "bench" {
		fmt.Fprintf(w, "It runs the go command: run it from a clone of poolkit's repository.\n")
	}
	// Only the flags the command accepts, from the one set of
	// declarations.
	own := flag.NewFlagSet(command, flag.ContinueOnError)
	fs.VisitAll(func(f *flag.Flag) {
		if appliesTo(f.Name, command) {
			own.Var(f.Value, f.Name, f.Usage)
		}
	})
	fmt.Fprintf(w, "\nFlags (before or after %s):\n", command)
	own.SetOutput(w)
	own.PrintDefaults()
	fmt.Fprintf(w, "\nEvery command: %s help\n", name)
}

// appliesTo reports whether the flag name may be given to command.
func appliesTo(name, command string) bool {
	if cmds, ok := onlyFor[name]; ok && !slices.Contains(cmds, command) {
		return false
	}
	return !slices.Contains(notFor[name], command)
}

// parseArgs reads the command line (without the program name) and checks
// every flag's value, without touching the file system. It returns errHelp
// when usage was asked for.
func parseArgs(args []string) (config, error) {
	c := config{command: "report"}
	fs, rounds, workloads, actors, keyed := flags(&c)
	if err := parse(fs, args); err != nil {
		return c, err
	}
	if fs.NArg() > 0 {
		c.command = fs.Arg(0)
		if err := parse(fs, fs.Args()[1:]); err != nil {
			if errors.Is(err, errHelp) && slices.Contains(commands, c.command) {
				c.help = c.command // bench -h
			}
			return c, err
		}
		// "help compare" asks for compare's usage.
		if c.command == "help" && fs.NArg() == 1 {
			if !slices.Contains(commands, fs.Arg(0)) {
				return c, fmt.Errorf("help %s: no such command (want one of %s)", fs.Arg(0), strings.Join(commands, ", "))
			}
			c.help = fs.Arg(0)
			return c, errHelp
		}
		if fs.NArg() > 0 {
			return c, fmt.Errorf("unexpected arguments after %s: %s", c.command, strings.Join(fs.Args(), " "))
		}
	}
	if !slices.Contains(commands, c.command) {
		return c, fmt.Errorf("unknown command %q (want one of %s)", c.command, strings.Join(commands, ", "))
	}
	if c.command == "help" {
		return c, errHelp
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	for _, name := range slices.Sorted(maps.Keys(set)) {
		if appliesTo(name, c.command) {
			continue
		}
		if cmds, ok := onlyFor[name]; ok {
			return c, fmt.Errorf("-%s applies to %s, not %s", name, strings.Join(cmds, " and "), c.command)
		}
		return c, fmt.Errorf("-%s does not apply to %s", name, c.command)
	}
	switch {
	case set["rounds"]:
		n, err := parseRounds(*rounds)
		if err != nil {
			return c, err
		}
		c.rounds = n
	case c.command == "compare":
		c.rounds = compareRounds
	case c.full:
		c.rounds = 10
	default:
		c.rounds = 3
	}
	if set["workloads"] {
		names, err := parseWorkloads(*workloads)
		if err != nil {
			return c, err
		}
		c.workloads = names
	}
	if set["actors"] {
		re, err := regexp.Compile(*actors)
		if err != nil {
			return c, fmt.Errorf("-actors: %v", err)
		}
		c.actors = re
		if c.command == "actors" && len(actorRuns(c)) == 0 {
			return c, fmt.Errorf("-actors %q matches no actor workload (they are %s)", *actors, strings.Join(actorWorkloads(), ", "))
		}
	}
	if set["keyed"] {
		re, err := regexp.Compile(*keyed)
		if err != nil {
			return c, fmt.Errorf("-keyed: %v", err)
		}
		c.keyed = re
		if c.command == "keyed" && len(keyedRuns(c)) == 0 {
			return c, fmt.Errorf("-keyed %q matches no key distribution (they are %s)", *keyed, strings.Join(keyedDists, ", "))
		}
	}
	if c.maxprocs != "" && c.maxprocs != "automaxprocs" {
		return c, fmt.Errorf(`-maxprocs %q: want "" or "automaxprocs"`, c.maxprocs)
	}
	if c.out == "" {
		return c, errors.New("-out must name a folder")
	}
	if c.command != "compare" {
		c.compare = compareConfig{}
		return c, nil
	}
	return c, checkCompare(c.compare)
}

// checkCompare checks compare's flags.
func checkCompare(cc compareConfig) error {
	// A revision that starts with a dash would reach git as an option.
	if cc.base == "" || strings.HasPrefix(cc.base, "-") {
		return fmt.Errorf("-base %q: want a branch, tag or commit", cc.base)
	}
	if _, err := regexp.Compile(cc.bench); err != nil {
		return fmt.Errorf("-bench: %v", err)
	}
	if bt, ok := benchtime(cc.benchtime); !ok || bt.n <= 0 {
		return fmt.Errorf("-benchtime %q: want a duration (200ms) or a number of iterations (1000x)", cc.benchtime)
	}
	if _, err := parseCPU(cc.cpu); err != nil {
		return err
	}
	return nil
}

// parseCPU reads -cpu: GOMAXPROCS values, each at least 1 and given once,
// separated by commas; "" is none.
func parseCPU(s string) ([]int, error) {
	if s == "" {
		return nil, nil
	}
	var cpus []int
	for _, f := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 {
			return nil, fmt.Errorf("-cpu %q: want GOMAXPROCS values of at least 1, separated by commas (2,4,8,16)", s)
		}
		if slices.Contains(cpus, n) {
			return nil, fmt.Errorf("-cpu %q: %d is given twice", s, n)
		}
		cpus = append(cpus, n)
	}
	return cpus, nil
}

// parse parses args with fs, turning -h into errHelp.
func parse(fs *flag.FlagSet, args []string) error {
	err := fs.Parse(args)
	if errors.Is(err, flag.ErrHelp) {
		return errHelp
	}
	return err
}

// parseRounds reads -rounds: a whole number, at least 1.
func parseRounds(s string) (int, error) {
	n, err := strconv.Atoi(s)
	if err != nil {
		return 0, fmt.Errorf("-rounds %q: want a whole number of rounds, at least 1", s)
	}
	if n < 1 {
		return 0, fmt.Errorf("-rounds %d: want at least 1", n)
	}
	return n, nil
}

// parseWorkloads reads -workloads: benchmark workload names, each once.
func parseWorkloads(s string) ([]string, error) {
	valid := workloadNames()
	var names []string
	for _, name := range strings.Split(s, ",") {
		name = strings.TrimSpace(name)
		switch {
		case !slices.Contains(valid, name):
			return nil, fmt.Errorf("-workloads: no workload %q (the workloads are %s)", name, strings.Join(valid, ", "))
		case slices.Contains(names, name):
			return nil, fmt.Errorf("-workloads: %s named twice", name)
		}
		names = append(names, name)
	}
	return names, nil
}

// workloadNames lists the benchmark workloads, in the report's order.
func workloadNames() []string {
	var names []string
	for _, w := range bench.Workloads() {
		names = append(names, w.Name)
	}
	return names
}

// checkFiles checks, before anything runs or is created, what the
// command will need of the file system: a folder (or nothing yet) at
// -out, and a README with a results section at -readme.
func checkFiles(c config) error {
	if fi, err := os.Stat(c.out); err == nil && !fi.IsDir() {
		return fmt.Errorf("-out %s: not a folder", c.out)
	}
	if c.readme == "" {
		return nil
	}
	data, err := os.ReadFile(c.readme)
	if err != nil {
		return fmt.Errorf("-readme: %v", err)
	}
	i, j := bytes.Index(data, []byte(readmeBegin)), bytes.Index(data, []byte(readmeEnd))
	if i < 0 || j < i {
		return fmt.Errorf("-readme %s: no results section; add the lines %q and %q where it goes", c.readme, readmeBegin, readmeEnd)
	}
	return nil
}

// needsSource reports whether the command runs test suites from the
// source tree.
func (c config) needsSource() bool { return c.command != "bench" }

// stages lists what the command runs, in order.
func (c config) stages() []string {
	switch c.command {
	case "report":
		s := []string{"bench"}
		if len(actorRuns(c)) > 0 {
			s = append(s, "actors")
		}
		if len(keyedRuns(c)) > 0 {
			s = append(s, "keyed")
		}
		return append(s, "spec", "autoscale")
	default:
		return []string{c.command}
	}
}
