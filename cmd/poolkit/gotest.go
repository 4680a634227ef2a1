package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// module is the path the suites are looked for under.
const module = "github.com/poolkit/poolkit"

// errNoSource says why spec and autoscale cannot run.
var errNoSource = errors.New("spec and autoscale run poolkit's test suites with the go command: run poolkit from a clone of " + module)

// moduleRoot finds the poolkit source tree: the directory of the root
// module as the go command resolves it from the working directory (through
// go.work, or the replace directive of this command's own module).
func moduleRoot() (string, error) {
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", module).Output()
	if err != nil {
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			err = fmt.Errorf("%v: %s", err, bytes.TrimSpace(exit.Stderr))
		}
		return "", fmt.Errorf("%w (go list -m %s: %v)", errNoSource, module, err)
	}
	dir := strings.TrimSpace(string(out))
	if dir == "" {
		return "", errNoSource
	}
	if _, err := os.Stat(filepath.Join(dir, "go.mod")); err != nil {
		return "", fmt.Errorf("%w: %v", errNoSource, err)
	}
	return dir, nil
}

// testEvent is one line of `go test -json`.
type testEvent struct {
	Action string
	Test   string
	Output string
}

// goTest runs `go test -json` on one package of the source tree at root
// (what names it for people), with goFlags before the package and
// testArgs after -args. The suites report no share of their work done, so
// the progress is the time since the tests started (after the build)
// against expected, with the test running now. It returns whether the
// tests passed and the last lines they printed (for a report of what went
// wrong). The cancelling of ctx stops the tests, and goTest returns its
// error.
func goTest(ctx context.Context, root, what, pkg string, goFlags, testArgs []string, prog progress, expected time.Duration) (passed bool, tail []string, err error) {
	args := append([]string{"test", "-json", "-count=1"}, goFlags...)
	args = append(args, pkg)
	if len(testArgs) > 0 {
		args = append(append(args, "-args"), testArgs...)
	}
	cmd := command(ctx, "go", args...)
	cmd.Dir = root
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return false, nil, err
	}
	prog.Building("the tests of " + what)
	if err := cmd.Start(); err != nil {
		prog.Finish()
		return false, nil, err
	}
	started := false
	sc := bufio.NewScanner(stdout)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		var ev testEvent
		if json.Unmarshal(sc.Bytes(), &ev) != nil {
			tail = keepTail(tail, sc.Text())
			continue
		}
		switch ev.Action {
		case "output":
			tail = keepTail(tail, strings.TrimRight(ev.Output, "\n"))
		case "start", "run":
			if !started {
				started = true
				prog.Built()
			}
			if ev.Test != "" {
				prog.Update(-1, expected, ev.Test)
			}
		}
	}
	err = cmd.Wait()
	prog.Finish()
	if ctx.Err() != nil {
		return false, tail, ctx.Err()
	}
	for _, line := range strings.Split(strings.TrimSpace(stderr.String()), "\n") {
		if line != "" {
			tail = keepTail(tail, line)
		}
	}
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		return false, tail, nil
	}
	return err == nil, tail, err
}

func keepTail(tail []string, line string) []string {
	const keep = 40
	tail = append(tail, line)
	if len(tail) > keep {
		tail = tail[len(tail)-keep:]
	}
	return tail
}

// command is exec.CommandContext in a process group of its own (see
// ownGroup): the cancelling of ctx stops the command and whatever it
// started.
func command(ctx context.Context, name string, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, name, args...)
	ownGroup(cmd)
	cmd.WaitDelay = 3 * time.Second
	return cmd
}
