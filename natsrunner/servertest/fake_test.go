package servertest_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"
	"github.com/poolkit/poolkit/natsrunner"
)

// fakeMsg is a message whose metadata cannot be read; it records how it
// was settled. Methods not overridden panic through the nil interface.
type fakeMsg struct {
	jetstream.Msg
	mu      sync.Mutex
	settles []string
}

func (m *fakeMsg) Metadata() (*jetstream.MsgMetadata, error) {
	return nil, errors.New("no reply subject")
}
func (m *fakeMsg) Data() []byte { return []byte("0") }
func (m *fakeMsg) record(s string) error {
	m.mu.Lock()
	m.settles = append(m.settles, s)
	m.mu.Unlock()
	return nil
}
func (m *fakeMsg) Term() error                      { return m.record("term") }
func (m *fakeMsg) Ack() error                       { return m.record("ack") }
func (m *fakeMsg) Nak() error                       { return m.record("nak") }
func (m *fakeMsg) NakWithDelay(time.Duration) error { return m.record("nak") }

type fakeBatch struct{ ch chan jetstream.Msg }

func (b fakeBatch) Messages() <-chan jetstream.Msg { return b.ch }
func (b fakeBatch) Error() error                   { return nil }

// fakeConsumer hands out its messages once, then empty batches that end
// with the fetch context.
type fakeConsumer struct {
	jetstream.Consumer
	mu   sync.Mutex
	msgs []jetstream.Msg
}

func (c *fakeConsumer) CachedInfo() *jetstream.ConsumerInfo { return nil }

func (c *fakeConsumer) Fetch(batch int, opts ...jetstream.FetchOpt) (jetstream.MessageBatch, error) {
	c.mu.Lock()
	n := min(batch, len(c.msgs))
	out := c.msgs[:n]
	c.msgs = c.msgs[n:]
	c.mu.Unlock()
	ch := make(chan jetstream.Msg, n)
	for _, m := range out {
		ch <- m
	}
	if n == 0 {
		// An empty pull lasts a moment, as a real one waits for messages.
		time.AfterFunc(time.Millisecond, func() { close(ch) })
	} else {
		close(ch)
	}
	return fakeBatch{ch}, nil
}

func TestMalformedMessageTermed(t *testing.T) {
	m := &fakeMsg{}
	c := &fakeConsumer{msgs: []jetstream.Msg{m}}
	called := make(chan struct{}, 1)
	h := func(context.Context, jetstream.Msg) error {
		called <- struct{}{}
		return nil
	}
	r, err := natsrunner.New(c, newPool(t, 2), h)
	if err != nil {
		t.Fatal(err)
	}
	stop := start(t, r)
	waitFor(t, 5*time.Second, "malformed counted", func() bool { return r.Stats().Malformed == 1 })
	_ = stop()
	s := r.Stats()
	if s.Termed != 1 || s.Fetched != 1 || s.Acked != 0 || s.Naked != 0 {
		t.Errorf("stats %+v", s)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if len(m.settles) != 1 || m.settles[0] != "term" {
		t.Errorf("settled %v, want [term]", m.settles)
	}
	select {
	case <-called:
		t.Error("handler called for a malformed message")
	default:
	}
}
