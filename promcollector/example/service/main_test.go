package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// TestRun starts the service on a free loopback port, scrapes it over
// HTTP until its pool has completed more tasks than at the first scrape,
// and stops it.
func TestRun(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	addrs := make(chan net.Addr, 1)
	done := make(chan error, 1)
	go func() { done <- run(ctx, "127.0.0.1:0", func(a net.Addr) { addrs <- a }) }()
	var url string
	select {
	case a := <-addrs:
		url = fmt.Sprintf("http://%s/metrics", a)
	case err := <-done:
		t.Fatalf("run returned before serving: %v", err)
	case <-time.After(30 * time.Second):
		t.Fatal("the service did not start")
	}
	defer http.DefaultClient.CloseIdleConnections()

	first := scrape(t, url)
	for name, want := range map[string]dto.MetricType{
		"poolkit_pool_capacity":                   dto.MetricType_GAUGE,
		"poolkit_pool_completed_tasks_total":      dto.MetricType_COUNTER,
		"poolkit_pool_rejected_tasks_total":       dto.MetricType_COUNTER,
		"poolkit_pool_task_duration_seconds":      dto.MetricType_HISTOGRAM,
		"poolkit_autoscaler_target_workers":       dto.MetricType_GAUGE,
		"poolkit_autoscaler_decisions_total":      dto.MetricType_COUNTER,
		"poolkit_actor_live_actors":               dto.MetricType_GAUGE,
		"poolkit_actor_mailbox_messages":          dto.MetricType_GAUGE,
		"poolkit_router_forwarded_messages_total": dto.MetricType_COUNTER,
		"poolkit_router_handling_seconds":         dto.MetricType_HISTOGRAM,
	} {
		mf, ok := first[name]
		switch {
		case !ok:
			t.Errorf("%s missing", name)
		case mf.GetType() != want:
			t.Errorf("%s: type %v, want %v", name, mf.GetType(), want)
		case len(mf.GetMetric()) == 0:
			t.Errorf("%s: no series", name)
		}
	}

	completed := func(mfs map[string]*dto.MetricFamily) float64 {
		for _, m := range mfs["poolkit_pool_completed_tasks_total"].GetMetric() {
			return m.GetCounter().GetValue()
		}
		return 0
	}
	before := completed(first)
	deadline := time.Now().Add(30 * time.Second)
	for {
		if after := completed(scrape(t, url)); after > before {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("completed tasks stuck at %v", before)
		}
		time.Sleep(20 * time.Millisecond)
	}

	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("run: %v", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("run did not return after its context ended")
	}
}

// scrape gets url and parses the exposition: the text format, which
// promhttp serves a client that asks for none in particular.
func scrape(t *testing.T, url string) map[string]*dto.MetricFamily {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %s", url, resp.Status)
	}
	// A Decoder, not a TextParser: a TextParser's zero value is usable
	// before prometheus/common v0.66 and NewTextParser only from then on.
	dec := expfmt.NewDecoder(resp.Body, expfmt.ResponseFormat(resp.Header))
	mfs := map[string]*dto.MetricFamily{}
	for {
		mf := &dto.MetricFamily{}
		if err := dec.Decode(mf); errors.Is(err, io.EOF) {
			return mfs
		} else if err != nil {
			t.Fatal(err)
		}
		mfs[mf.GetName()] = mf
	}
}
