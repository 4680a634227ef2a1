//go:build unix

package servertest_test

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/poolkit/poolkit/natsrunner"
)

// The environment that makes TestKeyedReplicaProcess a replica run by
// TestKeyedReplicaKilled in a process of its own.
const (
	envURL   = "POOLKIT_TEST_NATS_URL"
	envDone  = "POOLKIT_TEST_DONE_FILE"
	envParts = "POOLKIT_TEST_PARTS"
	envOwner = "POOLKIT_TEST_OWNER"
)

// doneLog appends a line "key seq" to a file shared by the processes of a
// test for each message whose handler completed: O_APPEND writes of a line
// each, so the file's order is the order of completion across processes.
type doneLog struct {
	mu sync.Mutex
	f  *os.File
}

func openDoneLog(t testing.TB, path string) *doneLog {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return &doneLog{f: f}
}

func (l *doneLog) complete(key string, seq uint64) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	_, err := fmt.Fprintf(l.f, "%s %d\n", key, seq)
	return err
}

// readDone returns an orderBook of the first completion of each message,
// in the order of the file.
func readDone(t *testing.T, path string) *orderBook {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	book := newOrderBook()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		key, s, ok := strings.Cut(sc.Text(), " ")
		seq, err := strconv.ParseUint(s, 10, 64)
		if !ok || err != nil {
			continue // a line cut short by the kill
		}
		book.first(key, seq)
	}
	return book
}

// runKeyedReplica runs a keyed runner per partition on js with a handler
// that logs each completion, until ctx is done.
func runKeyedReplica(t testing.TB, ctx context.Context, js jetstream.JetStream, parts int, own ownership, log *doneLog) *sync.WaitGroup {
	p := newPool(t, 8)
	h := func(_ context.Context, msg jetstream.Msg) error {
		time.Sleep(time.Millisecond)
		md, err := msg.Metadata()
		if err != nil {
			return err
		}
		key, _ := natsrunner.SubjectToken(-1)(msg)
		return log.complete(key, md.Sequence.Stream)
	}
	var wg sync.WaitGroup
	for i := range parts {
		c, err := js.Consumer(context.Background(), ordStream, "part"+strconv.Itoa(i))
		if err != nil {
			t.Fatal(err)
		}
		r, err := natsrunner.New(c, p, h, natsrunner.WithKey(natsrunner.SubjectToken(-1)),
			own(t, js, i), natsrunner.WithFetchMaxWait(100*time.Millisecond),
			natsrunner.WithMaxAttempts(1000))
		if err != nil {
			t.Fatal(err)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			_ = r.Run(ctx)
		}()
	}
	return &wg
}

// TestKeyedReplicaProcess is a replica in a process of its own, started by
// TestKeyedReplicaKilled, which kills it; run directly, it has nothing to
// do.
func TestKeyedReplicaProcess(t *testing.T) {
	url := os.Getenv(envURL)
	if url == "" {
		t.Skip("a helper process of TestKeyedReplicaKilled")
	}
	parts, _ := strconv.Atoi(os.Getenv(envParts))
	nc, err := nats.Connect(url)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	log := openDoneLog(t, os.Getenv(envDone))
	own := pinnedOwner
	for _, o := range owners {
		if o.name == os.Getenv(envOwner) {
			own = o.owner
		}
	}
	wg := runKeyedReplica(t, context.Background(), js, parts, own, log)
	wg.Wait() // until killed
}

// TestKeyedReplicaKilled: a replica process owns every partition and is
// killed with SIGKILL mid-run and started again; a replica that was
// waiting, or the restarted one, takes the partitions over when their
// pins or leases expire. Every message
// completes, and the first completions of every key, across both
// processes, are in stream order.
func TestKeyedReplicaKilled(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a process")
	}
	for _, o := range owners {
		t.Run("owner="+o.name, func(t *testing.T) { replicaKilled(t, o.name, o.owner, o.setup) })
	}
}

func replicaKilled(t *testing.T, name string, own ownership, setup func(testing.TB, *env, int, time.Duration)) {
	const parts, n, keys = 2, 2000, 100
	ns := startTCPServer(t, -1, t.TempDir())
	t.Cleanup(func() { stopServer(ns) })
	e := &env{t: t, ns: ns}
	nc, err := nats.Connect(ns.ClientURL())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	if e.js, err = jetstream.New(nc); err != nil {
		t.Fatal(err)
	}
	setup(t, e, parts, 500*time.Millisecond)
	ctx := context.Background()
	for i := range n {
		if _, err := e.js.Publish(ctx, "ord.k"+strconv.Itoa(i%keys), nil); err != nil {
			t.Fatal(err)
		}
	}
	path := t.TempDir() + "/done"
	log := openDoneLog(t, path)

	spawn := func() *exec.Cmd {
		child := exec.Command(os.Args[0], "-test.run=^TestKeyedReplicaProcess$", "-test.count=1")
		child.Env = append(os.Environ(), envURL+"="+ns.ClientURL(), envDone+"="+path, envParts+"="+strconv.Itoa(parts), envOwner+"="+name)
		if err := child.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = child.Process.Kill(); _ = child.Wait() })
		return child
	}
	child := spawn()
	waitFor(t, 30*time.Second, "the replica process to complete 300 messages", func() bool {
		return readDone(t, path).count() >= 300
	})
	// The second replica pulls too, but the partitions are owned by the
	// first.
	rctx, cancel := context.WithCancel(ctx)
	wg := runKeyedReplica(t, rctx, e.js, parts, own, log)
	time.Sleep(100 * time.Millisecond)
	if err := child.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = child.Wait()
	// The killed process is started again, and competes with the waiting
	// replica for the partitions.
	spawn()
	atKill := readDone(t, path).count()
	killed := time.Now()
	waitFor(t, 30*time.Second, "every message completed", func() bool {
		return readDone(t, path).count() == n
	})
	t.Logf("killed the replica process after %d completions; the rest completed %v later", atKill, time.Since(killed).Round(time.Millisecond))
	cancel()
	wg.Wait()
	readDone(t, path).check(t, nil)
	if atKill >= n {
		t.Errorf("the replica process completed everything before it was killed")
	}
}
