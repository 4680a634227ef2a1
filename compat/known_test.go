package compat_test

import (
	"strings"

	"github.com/poolkit/poolkit/spectest"
)

// The divergences of the third-party pools found by this suite, and those
// that poolkit's drop-in replacement for ants keeps by design, each with
// what the clause observed. The suite expects these clauses to fail (they
// run in a child process each) and fails when one stops failing.

// antsCommon holds what ants' pool types (Pool, PoolWithFunc, generic
// PoolWithFunc, MultiPool, MultiPoolWithFunc) share; the maps below add
// each one's own.
var antsCommon = map[string]string{
	"NEW-1": "a size of 0 or -1 gives a working pool: ants takes a size below 1 to mean unlimited",
	"SUB-1": "Submit(nil) returns nil; the worker then panics calling it (recovered and logged by ants)",
	"CAP-2": "after Tune(2) on a pool of 4 with 4 idle workers, 4 new tasks run at once: idle workers are reused without checking the capacity",
	// Replay the shrunk case with:
	// POOLKIT_SPECTEST_CHILD=1 go test ./compat -run '^TestConformance$/^ants$/^CAP-6-' \
	//   -rapid.failfile=testdata/rapid/TestConformance_ants_CAP-6-random-resizes/ants-shrink-idle-reuse.fail
	"CAP-6": "rapid shrinks it to Submit, Submit, Finish, Resize(1), Submit: the last task starts beside the one still running, on the idle worker (failfile committed in compat/testdata/rapid)",
	"RSZ-4": "Tune(0) and Tune(-1) are silently ignored: no error",
	"RSZ-5": "Tune(5) on a released pool returns no error and changes Cap to 5",
	"CLS-5": "a second ReleaseContext, after one that timed out, returns ErrPoolClosed instead of waiting: release now, wait later is impossible",
	"CNT-1": "Running() counts live workers, idle ones included: 4 with one task running",
	"CLS-6": spectest.Intermittent + "under -race, concurrent ReleaseContext calls race on the pool's stopPurge and stopTicktock fields (read in ReleaseContext, written in Release, ants.go:391 and :395)",
	"CAP-7": "after Tune(1) with A running, B's worker is back in ants' idle queue and C runs on it beside A: idle workers are reused without checking the capacity (as in CAP-2)",
	// Why CAP-4 passes while the grow benchmark in bench/resize.go saw this
	// ("63 of 64 tasks running 5s after growing") is part of the entry.
	"CAP-8": spectest.Intermittent + "a grow's wake-up is lost: Tune stores the new capacity and calls cond.Broadcast without taking the pool's lock (ants.go:368-374), " +
		"while a submitter checks capacity > Running() under that lock and only then registers in cond.Wait (ants.go:524-539); " +
		"a Broadcast between the two is missed, and the submitter waits beside a free slot until a task finishes (32 of 33 running, Waiting()=1). " +
		"It shows in about 1 try in 100: 60 of 60 runs of 1000 tries on an idle two-core machine (the latest at try 817), fewer on a busy one. " +
		"CAP-4 cannot see it: it grows inside a testing/synctest bubble, once every submitter is parked in cond.Wait and the window has closed; " +
		"the grow benchmark (4 to 64, 1 ms after starting 60 submitters) caught it when some were still on their way to wait",
	"CLS-9": "ReleaseContext racing Reboot hangs past its own deadline: having seen the closed life's allDone, it waits on p.ticktockCtx.Done() (ants.go:456), " +
		"re-read after Reboot has replaced it with the new life's context, which nothing cancels (one Reboot is enough); " +
		"concurrent Reboot calls hang too, one spinning at ants.go:484 for a purgeDone flag the other has reset",
	"CLS-10": "Reboot called from a task blocks for ever: it waits on allDone (ants.go:477), which the last worker to exit closes, and the calling task's worker cannot exit while the call lasts",
}

func withAnts(extra map[string]string) map[string]string { return with(antsCommon, extra) }

// rewritten returns m with r applied to every entry.
func rewritten(m map[string]string, r *strings.Replacer) map[string]string {
	out := map[string]string{}
	for k, v := range m {
		out[k] = r.Replace(v)
	}
	return out
}

// with returns base with extra's entries added, and those of extra's keys
// whose value is "" removed.
func with(base, extra map[string]string) map[string]string {
	m := map[string]string{}
	for k, v := range base {
		if v != "" {
			m[k] = v
		}
	}
	for k, v := range extra {
		if v == "" {
			delete(m, k) // a divergence this flavour does not share
			continue
		}
		m[k] = v
	}
	return m
}

var (
	knownAnts     = withAnts(nil)
	knownAntsFunc = withAnts(map[string]string{
		"SUB-1": "Invoke(nil) returns nil; the worker then panics calling the nil func (recovered and logged by ants)",
	})
	knownAntsFuncAny = withAnts(map[string]string{
		"SUB-1": "Invoke(nil) returns nil, and the function is never called with the nil argument: a PoolWithFunc worker takes nil as its signal to exit (worker_func.go:69), so the invocation is silently dropped",
	})
	knownAntsMulti = withAnts(map[string]string{
		"CAP-3": "Tune(1) on a MultiPool of 2 sub-pools sets each sub-pool to 1, so 2 tasks run after a shrink to 1 and a waiting task starts with 1 still running",
		"CAP-6": "rapid finds a task starting at or above the capacity after Tune (Tune applies per sub-pool)",
		"RSZ-1": "Cap() after Tune(n) returns n times the number of sub-pools: a value no Resize set",
		"RSZ-3": "Tune(2) on a MultiPool built with total size 2 (2 sub-pools of 1) makes Cap 4 and lets 4 tasks run: the same size twice is not a no-op",
		"RSZ-5": "Tune(5) on a released MultiPool returns no error and changes Cap (to 5 per sub-pool)",
		"CLS-5": "ReleaseContext's timeout error is formatted with %v (\"pool 0: context deadline exceeded\"), so errors.Is(err, context.DeadlineExceeded) fails; and a second call returns ErrPoolClosed",
		// Tune(1) makes each sub-pool 1, and round-robin sends C to A's
		// sub-pool, where it usually waits for A.
		"CAP-7": spectest.Intermittent + "round-robin sends A and C to the same sub-pool, where C waits for A, unless that sub-pool has kept a second idle worker: " +
			"one is made when a try's B lands beside the previous try's C still returning (each try ends with Tune(2), 2 per sub-pool), " +
			"and after Tune(1) C runs on it beside A, since idle workers are reused without checking the capacity (as in CAP-2)",
		"CLS-9": "the race ends three ways, all failing: ReleaseContext hangs past its deadline in a sub-pool, as in ants' CLS-9; or returns \"pool 1: context deadline exceeded\"; " +
			"or the MultiPool is left open over closed sub-pools: ReleaseContext marks the MultiPool closed before it closes the sub-pools, a Reboot in between marks it open again (multipool.go:248) " +
			"and reboots sub-pools that are not closed yet, which does nothing, and then the sub-pools close; the next ReleaseContext returns " +
			"\"pool 1: this pool has been closed | pool 0: this pool has been closed\", formatted with %v so that it matches no closed-pool error",
		"CLS-10": "MultiPool.Reboot called from a task blocks for ever: it reopens the MultiPool, then calls each sub-pool's Reboot, which waits on allDone (ants.go:477), closed by the last worker to exit, and the calling task's worker cannot exit while the call lasts",
	})
	// MultiPoolWithFunc is MultiPool's code over PoolWithFuncs.
	knownAntsMultiFunc = with(rewritten(knownAntsMulti, strings.NewReplacer(
		"MultiPool", "MultiPoolWithFunc", "multipool.go:248", "multipool_func.go:196")), map[string]string{
		"SUB-1": "Invoke(nil) returns nil, and the function is never called with the nil argument: the sub-pool's worker takes nil as its signal to exit (worker_func.go:69), so the invocation is silently dropped",
	})
	// The drop-in keeps ants' contract where ants' documentation, examples
	// or tests define it (SPEC.md, Part 4), and so diverges from Part 1
	// where ants' contract says otherwise.
	knownPoolkitAnts = map[string]string{
		"NEW-1": "a size of 0 or -1 gives a working pool: as in ants, a size below 1 is an unlimited pool (DROP-4)",
		"CLS-5": "a second release, after one that timed out, returns ErrPoolClosed instead of waiting, as in ants (DROP-7)",
		"CNT-1": "Running() counts live workers, idle ones included, as in ants (DROP-6): 4 with one task running",
	}
	// A pool with a function keeps its contract: the argument of Invoke
	// is the function's data, valid whatever its value (ants drops a nil
	// one; the drop-in passes it on: SPEC.md's DROP-5).
	knownPoolkitAntsFunc = with(knownPoolkitAnts, map[string]string{
		"SUB-1": "Invoke(nil) returns nil: a nil func() is an argument like any other, by design (DROP-5), and the function then panics calling it (recovered and logged)",
	})
	knownPoolkitAntsFuncAny = with(knownPoolkitAnts, map[string]string{
		"SUB-1": "Invoke(nil) returns nil: nil is an argument like any other, by design (DROP-5: the function is called with it, where ants drops it), and the function then panics calling it (recovered and logged)",
	})
	// A drop-in multi-pool's Resize(n) sets the total capacity, spread over
	// its sub-pools, and refuses n below their number, since each keeps at
	// least one slot (SPEC.md's DROP-6); the adapter builds pools of even
	// size from 2 sub-pools. Each sub-pool also keeps its own bound, not the
	// total's: after a shrink, tasks still running above one sub-pool's new
	// share do not stop another from starting tasks up to its own, so more
	// than Cap() may run until the excess drains (DROP-6 says so).
	knownPoolkitAntsMulti = with(knownPoolkitAnts, map[string]string{
		"CAP-3": "Resize(1) on a pool of 4, built as 2 sub-pools of 2, is refused with resize.ErrInvalidSize: each sub-pool keeps at least one slot (DROP-6); the capacity stays 4, and a waiting task starts as soon as one of the 4 running tasks finishes. " +
			"Where a shrink is accepted, each sub-pool bounds only its own share: one below its share starts tasks while another still drains its excess",
		"CAP-6": "rapid finds a pool of 2, built as 2 sub-pools of 1, on which Resize(1) is refused with resize.ErrInvalidSize: each sub-pool keeps at least one slot (DROP-6). " +
			"On sizes of 2 or more it finds a task starting at the capacity after a shrink: sub-pool 0 still runs 2 tasks of its old share when Resize(2) makes the shares 1+1, and sub-pool 1 starts one (per-sub-pool bounds)",
		"CAP-7": "Resize(1) on a pool of 2, built as 2 sub-pools of 1, is refused with resize.ErrInvalidSize: each sub-pool keeps at least one slot (DROP-6)",
		"RSZ-1": "Resize(1) on a pool of 4, built as 2 sub-pools of 2, returns resize.ErrInvalidSize, since each sub-pool keeps at least one slot (DROP-6); the register model wants every Resize to a size of 1 or more to succeed",
	})
	knownPoolkitAntsMultiFunc = with(knownPoolkitAntsMulti, map[string]string{
		"SUB-1": knownPoolkitAntsFuncAny["SUB-1"],
	})
	knownPond = map[string]string{
		"NEW-1": "NewPool(0) returns an unbounded pool (NewPool(-1) panics)",
		"SUB-1": "Go(nil) returns nil; the nil task's panic is recovered and counted as failed",
		"SUB-2": "the default queue is unbounded: 10000 gated tasks are accepted without blocking",
		"SUB-3": "with WithNonBlocking and the default (unbounded) queue, no submission is ever rejected",
		"CAP-6": "StopAndWait runs on pond's package-level default pool, which binds to the first testing/synctest bubble; the second bubble crashes the process (fatal error: sync: WaitGroup.Add called from multiple synctest bubbles)",
		"RSZ-5": "Resize(5) on a stopped pool changes MaxConcurrency to 5 and reports nothing",
	}
	// The actor router keeps Ergo's act.Pool semantics, which are not a
	// task pool's: a message is bound to a worker's mailbox when it is sent.
	knownActorRouter = map[string]string{
		"NEW-2": spectest.Intermittent + "a router of 64 starts 64 worker actors, and each runs its PreStart turn at once: up to 65 goroutines; " +
			"how many workers the turns start depends on the timing (a worker that finishes a turn takes the next without waking another, so fast turns need few), and some runs stay within 4",
		"SUB-2": "Tell never blocks (worker mailboxes are unbounded): 10000 gated tasks are accepted without blocking",
		"CAP-4": "a grow adds workers, but messages already sent stay in the mailboxes of the busy workers they were forwarded to: after Resize(4) with 1 running and 2 waiting, 1 runs",
		"CAP-6": "a worker removed by a shrink finishes its current message while the remaining workers go on: a task started with 1 running and capacity 1",
		"CAP-7": "after Resize(1), the removed worker still runs A while the remaining one starts C",
		"CAP-8": "messages forwarded before the grows stay queued behind busy workers: 3 tasks running 2s after the grow to 5 (Running()=3, Waiting()=30)",
	}
	knownTunny = map[string]string{
		"NEW-1": "New(0) returns a pool with no workers, on which every Process blocks forever",
		"NEW-2": "New(64) starts 64 worker goroutines at once",
		"SUB-1": "a nil callback crashes the process: tunny recovers no panics (nil pointer dereference in the worker)",
		"SUB-6": spectest.Intermittent + "ProcessCtx with a context already done picks at random between ctx.Done() and a ready worker, twice (tunny.go:229-243), " +
			"so the job of a canceled submission runs in about 1 try in 4 once a worker waits on the request channel (in the bubble the workers are usually not there yet: seen once in many full runs)",
		"CAP-3": spectest.Intermittent + "a shrink stops the removed workers only after their jobs, while the remaining worker already takes waiting jobs: 3 run at capacity 1 " +
			"(in most runs: whether it shows depends on when SetSize, blocked on tunny's mutex where testing/synctest cannot see it, gets to run)",
		"CAP-7": spectest.Intermittent + "as in CAP-3: when A runs on the worker that SetSize(1) removes, SetSize waits for A (the adapter returns after 100ms) and the remaining worker takes C beside A; " +
			"which worker A lands on follows the order in which tunny's workers queue on its request channel (3 runs in 30 alone, and in full runs of the suite)",
		"CAP-6":  "overlapping SetSize calls (the adapter stops waiting for each after 100ms) queue on tunny's mutex, which testing/synctest cannot see as blocked: runs hang until killed, or fail in ways rapid cannot replay",
		"RSZ-2":  "SetSize blocks until the removed workers finish their jobs (the adapter gives up waiting after 100ms)",
		"RSZ-5":  "SetSize after Close starts workers that send on the closed request channel: panic: send on closed channel",
		"ONCE-1": "Process after Close panics (\"the pool is not running\") instead of returning an error",
		"CLS-1":  "Process after Close panics: \"the pool is not running\"",
		"CLS-2":  "callers waiting in Process when Close runs panic (\"the pool is not running\") instead of returning",
		"CLS-3":  "Close with callers still waiting for a worker makes them panic (\"the pool is not running\")",
		"CLS-5":  "a second Close panics: close of closed channel",
		"CLS-6":  "concurrent or repeated Close panics: close of closed channel",
		"CLS-7":  "Close from inside a job, then Close again from outside, panics: close of closed channel",
		"PAN-1":  "a panicking job crashes the process: tunny recovers no panics",
		"PAN-3":  "runtime.Goexit in a job ends the worker, and the caller's Process panics (\"worker was closed\")",
		"CONC-1": "Process racing Close panics: \"the pool is not running\"",
	}
	notesPond = map[string]string{
		"RSZ-4": "the adapter refuses sizes below 1: pond's own Resize(0) would make the pool unbounded",
	}
	notesTunny = map[string]string{
		"RSZ-4": "the adapter refuses sizes below 1: tunny's SetSize(0) stops every worker and a negative size panics",
		"RSZ-1": "Cap reports the size last asked for, since tunny's GetSize blocks during a shrink",
	}
	// conc has no closed state: Wait closes the channel that Go sends on,
	// so anything after Wait is a send on, or a close of, a closed channel.
	knownConc = map[string]string{
		"SUB-1":  "Go(nil) returns; the worker panics calling the nil func, conc catches the panic, and Wait raises it again, which crashes the process (nil pointer dereference)",
		"ONCE-1": "Go racing Wait panics (send on closed channel), and the race detector reports the send racing the close: conc has no closed state to report",
		"CLS-1":  "Go after Wait panics: send on closed channel",
		"CLS-2":  "calls blocked in Go when Wait runs panic (send on closed channel) instead of returning",
		"CLS-5":  "a second Wait, after one that the adapter stopped waiting for, panics: close of closed channel",
		"CLS-6":  "concurrent or repeated Wait panics: close of closed channel",
		"CLS-7":  "Wait from inside a task, then again from outside, panics: close of closed channel",
		"PAN-1":  "conc catches a task's panic and Wait raises it again, so closing the pool crashes the process (panic: spectest)",
		"CONC-1": "Go racing Wait panics (send on closed channel), and the race detector reports the send racing the close",
	}
	// errgroup's Group has no close either: Wait waits, and the Group takes
	// work again after.
	knownErrgroup = map[string]string{
		"NEW-1":  "New(0) and New(-1) return a Group and no error: SetLimit(-1) means no limit, and with SetLimit(0) every Go blocks for ever",
		"SUB-1":  "Go with a function that calls a nil task returns; its goroutine panics (nil pointer dereference), which errgroup does not recover: the process crashes",
		"ONCE-1": spectest.Intermittent + "Go racing Wait makes Wait's WaitGroup panic (\"sync: WaitGroup is reused before previous Wait has returned\"): a Group has no closed state, and a Go during Wait is a misuse (18 runs in 20 alone)",
		"CLS-1":  "Go after Wait returns nil and runs the task: a Group has no closed state",
		"CLS-2":  "calls blocked in Go on the limit when Wait runs stay blocked, and their tasks run later: nothing closes",
		"CLS-3":  spectest.Intermittent + "Wait returns nil while calls blocked in Go on the limit have not yet added their tasks, which run after the close (task 5 ran 0 times when Wait returned), and the race detector reports WaitGroup.Add racing Wait (19 runs in 20 alone)",
		"PAN-1":  "a panicking task crashes the process: errgroup recovers no panics",
		"CONC-1": spectest.Intermittent + "Go racing Wait makes the WaitGroup panic (\"sync: WaitGroup is reused before previous Wait has returned\") (17 runs in 20 alone)",
	}
	knownWorkerpool = map[string]string{
		"NEW-1":  "New(0) and New(-1) return a pool of 1 worker and no error",
		"SUB-1":  "Submit(nil) is silently ignored: no error, and nothing runs",
		"SUB-2":  "the waiting queue has no bound: Submit never blocks (10000 gated tasks accepted)",
		"ONCE-1": "Submit racing StopWait panics: send on closed channel",
		"CLS-1":  "Submit after StopWait panics: send on closed channel",
		"PAN-1":  "a panicking task crashes the process: workerpool recovers no panics",
		"PAN-3":  "runtime.Goexit in a task ends its worker without telling the dispatcher, which still counts it: the capacity is lost (0 of 2 tasks run), and StopWait blocks for ever handing the stop signal to the dead worker",
		"CONC-1": "Submit racing StopWait panics (send on closed channel), and the race detector reports the send racing the close",
	}
)
