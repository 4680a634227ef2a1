//go:build unix

package servertest_test

import (
	"context"
	"errors"
	"math/rand/v2"
	"net"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/poolkit/poolkit/natsrunner"
)

// The environment that makes TestServerProcess a JetStream server run by
// TestKeyedServerKilled in a process of its own.
const (
	envStore = "POOLKIT_TEST_STORE_DIR"
	envPort  = "POOLKIT_TEST_PORT"
)

// TestServerProcess is a JetStream server in a process of its own,
// started by TestKeyedServerKilled, which kills it; run directly, it has
// nothing to do.
func TestServerProcess(t *testing.T) {
	dir := os.Getenv(envStore)
	if dir == "" {
		t.Skip("a helper process of TestKeyedServerKilled")
	}
	port, err := strconv.Atoi(os.Getenv(envPort))
	if err != nil {
		t.Fatal(err)
	}
	startTCPServer(t, port, dir)
	select {} // until killed
}

// serverProcess runs TestServerProcess on port with its store in dir.
type serverProcess struct {
	t    *testing.T
	dir  string
	port int
	cmd  *exec.Cmd
}

func (s *serverProcess) start() {
	s.t.Helper()
	s.cmd = exec.Command(os.Args[0], "-test.run=^TestServerProcess$", "-test.count=1")
	s.cmd.Env = append(os.Environ(), envStore+"="+s.dir, envPort+"="+strconv.Itoa(s.port))
	if err := s.cmd.Start(); err != nil {
		s.t.Fatal(err)
	}
	waitFor(s.t, 30*time.Second, "the server process to listen", func() bool {
		c, err := net.DialTimeout("tcp", s.url()[len("nats://"):], 100*time.Millisecond)
		if err == nil {
			c.Close()
		}
		return err == nil
	})
}

// kill ends the server with SIGKILL: no shutdown, no flush of its state.
func (s *serverProcess) kill() {
	_ = s.cmd.Process.Kill()
	_ = s.cmd.Wait()
}

func (s *serverProcess) url() string { return "nats://127.0.0.1:" + strconv.Itoa(s.port) }

// TestKeyedServerKilled: the server is killed with SIGKILL twice while a
// keyed runner consumes, and restarted on the same store each time. The
// runner goes on through the outages; every message is handled, and the
// first handlings of every key are in stream order (a message handled
// twice, its ack lost with the server, is allowed).
func TestKeyedServerKilled(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes")
	}
	const n, keys = 5000, 500
	srv := &serverProcess{t: t, dir: t.TempDir(), port: freePort(t)}
	srv.start()
	t.Cleanup(srv.kill)
	nc, err := nats.Connect(srv.url(), nats.MaxReconnects(-1),
		nats.ReconnectWait(20*time.Millisecond), nats.ReconnectJitter(0, 0), nats.ReconnectBufSize(-1))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	e := &env{t: t}
	if e.js, err = jetstream.New(nc); err != nil {
		t.Fatal(err)
	}
	setupJobs(t, e.js, time.Second, 0)
	rng := rand.New(rand.NewPCG(5, 6))
	ks := make([]string, n)
	for i := range ks {
		ks[i] = "k" + strconv.Itoa(rng.IntN(keys))
	}
	want := e.publishKeyed(ks)
	// The test reads the consumer's info through a handle of its own (see
	// TestServerRestartMidRun).
	cons, probe := e.consumer(e.js), e.consumer(e.js)

	book := newOrderBook()
	h := func(_ context.Context, msg jetstream.Msg) error {
		key := strings.TrimPrefix(msg.Subject(), "jobs.")
		defer book.enter(t, key, msg)()
		time.Sleep(200 * time.Microsecond)
		return nil
	}
	r, err := natsrunner.New(cons, newPool(t, 16), h,
		natsrunner.WithKey(natsrunner.SubjectToken(1)), natsrunner.WithMaxAttempts(1000),
		natsrunner.WithFetchMaxWait(100*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	stop := start(t, r)
	for _, at := range []int{n / 5, n / 2} {
		waitFor(t, 30*time.Second, strconv.Itoa(at)+" messages handled", func() bool { return book.count() >= at })
		srv.kill()
		time.Sleep(200 * time.Millisecond)
		srv.start()
	}
	var last *jetstream.ConsumerInfo
	waitFor(t, 60*time.Second, "every message handled, nothing pending on the server", func() bool {
		if book.count() < n {
			return false
		}
		info, err := probe.Info(context.Background())
		if err == nil {
			last = info
		}
		return err == nil && info.NumPending == 0 && info.NumAckPending == 0
	})
	if err := stop(); !errors.Is(err, context.Canceled) {
		t.Errorf("Run returned %v, want context.Canceled", err)
	}
	book.check(t, want)
	s := r.Stats()
	t.Logf("stats %+v; consumer delivered %+v, redelivered %d", s, last.Delivered, last.NumRedelivered)
	if s.FetchErrors == 0 {
		t.Error("no failed pull was counted during the outages")
	}
}
