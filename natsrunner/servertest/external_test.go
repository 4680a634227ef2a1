package servertest_test

import (
	"context"
	"errors"
	"math/rand/v2"
	"net"
	"os/exec"
	"strconv"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// freePort returns a TCP port on 127.0.0.1 that was free a moment ago.
func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// The at-least-once case against a real nats-server process.
func TestExternalServer(t *testing.T) {
	bin, err := exec.LookPath("nats-server")
	if err != nil {
		t.Skip("nats-server not on PATH: install it (Debian: apt-get install nats-server) to run this test")
	}
	port := freePort(t)
	cmd := exec.Command(bin, "-js", "-a", "127.0.0.1", "-p", strconv.Itoa(port), "-sd", t.TempDir())
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	url := "nats://127.0.0.1:" + strconv.Itoa(port)
	var nc *nats.Conn
	waitFor(t, 10*time.Second, "nats-server accepts connections", func() bool {
		c, err := nats.Connect(url)
		if err != nil {
			return false
		}
		nc = c
		return true
	})
	t.Cleanup(nc.Close)
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	const n = 300
	// JetStream may need a moment after the listener is up.
	waitFor(t, 10*time.Second, "JetStream ready", func() bool {
		_, err := js.AccountInfo(context.Background())
		return err == nil
	})
	setupJobs(t, js, 5*time.Second, n)
	cons, err := js.Consumer(context.Background(), streamName, durable)
	if err != nil {
		t.Fatal(err)
	}
	led := newLedger()
	h := func(_ context.Context, msg jetstream.Msg) error {
		md, err := msg.Metadata()
		if err != nil {
			return err
		}
		rng := rand.New(rand.NewPCG(7, uint64(msgID(t, msg))<<16|md.NumDelivered))
		if rng.IntN(100) < 20 {
			return errors.New("transient")
		}
		return nil
	}
	r := runUntilAcked(t, cons, newPool(t, 8), h, led, n)
	s := r.Stats()
	t.Logf("stats %+v", s)
	if s.Naked == 0 || s.Fetched != s.Acked+s.Naked+s.Termed {
		t.Errorf("stats %+v: want naks, and every fetched message settled", s)
	}
	info, err := cons.Info(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if info.NumPending != 0 || info.NumAckPending != 0 {
		t.Errorf("server still has pending %d, ack pending %d", info.NumPending, info.NumAckPending)
	}
}
