package actorpool

import (
	"testing"
	"unsafe"
)

// TestMailboxStamps: a router's stamps stay beside their messages through
// any mix of stamped and unstamped messages, takes, and a close; the
// envelope stays at four words (see envelope).
func TestMailboxStamps(t *testing.T) {
	if n := unsafe.Sizeof(envelope{}) / unsafe.Sizeof(uintptr(0)); n > 4 {
		t.Errorf("an envelope is %d words, want at most 4", n)
	}
	var m mailbox
	next := 0
	put := func(at int64) {
		t.Helper()
		if err := m.put(envelope{msg: next}, at); err != nil {
			t.Fatal(err)
		}
		next++
	}
	want := map[int]int64{}
	taken := 0
	take := func() {
		t.Helper()
		_, e, at, ok := m.take(true)
		if !ok || e.msg != taken || at != want[taken] {
			t.Fatalf("take = %v, %d, %v; want message %d stamped %d", e.msg, at, ok, taken, want[taken])
		}
		taken++
	}
	stamped := func(at int64) { want[next] = at; put(at) }

	put(0)
	put(0)
	if m.stamps != nil {
		t.Fatal("stamps allocated with nothing stamped")
	}
	stamped(11)
	put(0) // behind a stamped message: gets a 0 entry
	stamped(12)
	take() // unstamped, before the stamps
	take()
	take() // 11
	put(0)
	take()
	take() // 12
	take()
	if m.stamps.len() != 0 {
		t.Fatalf("%d stamps left in an empty mailbox", m.stamps.len())
	}
	put(0) // no stamp queued: no entry
	if m.stamps.len() != 0 {
		t.Fatal("an unstamped message got an entry with no stamped one before it")
	}
	stamped(13)
	take()
	for i := 0; i < 300; i++ { // past the ring, into the chunks
		stamped(int64(next))
		put(0)
	}
	for i := 0; i < 100; i++ {
		take()
	}
	out, ats := m.close()
	if len(out) != len(ats) || len(out) != next-taken {
		t.Fatalf("close returned %d messages, %d stamps; want %d", len(out), len(ats), next-taken)
	}
	for i, e := range out {
		if e.msg != taken+i || ats[i] != want[taken+i] {
			t.Fatalf("left %d: %v stamped %d, want %d stamped %d", i, e.msg, ats[i], taken+i, want[taken+i])
		}
	}
	var m2 mailbox
	_ = m2.put(envelope{msg: 1}, 0)
	if out, ats := m2.close(); len(out) != 1 || ats != nil {
		t.Errorf("close of an unstamped mailbox = %v, %v; want no stamps", out, ats)
	}
}
