package bench

import (
	"bufio"
	"fmt"
	"os"
	"runtime"
	"strings"
)

// Machine describes where a comparison ran.
type Machine struct {
	CPU                string
	NumCPU, GOMAXPROCS int
	GOOS, GOARCH, Go   string
}

// ThisMachine describes the machine this process runs on.
func ThisMachine() Machine {
	return Machine{
		CPU:        cpuName(),
		NumCPU:     runtime.NumCPU(),
		GOMAXPROCS: runtime.GOMAXPROCS(0),
		GOOS:       runtime.GOOS,
		GOARCH:     runtime.GOARCH,
		Go:         runtime.Version(),
	}
}

func (m Machine) String() string {
	return fmt.Sprintf("%s, %d CPUs (GOMAXPROCS %d), %s/%s, %s", m.CPU, m.NumCPU, m.GOMAXPROCS, m.GOOS, m.GOARCH, m.Go)
}

// cpuName reads the processor's model name where the system tells it.
func cpuName() string {
	f, err := os.Open("/proc/cpuinfo")
	if err != nil {
		return "unknown " + runtime.GOARCH + " CPU"
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if k, v, ok := strings.Cut(sc.Text(), ":"); ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return "unknown " + runtime.GOARCH + " CPU"
}
