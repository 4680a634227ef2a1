#!/usr/bin/env bash
# What a lent many-core machine runs, prepared here: it needs no Go
# toolchain there.
#
# run: where the time goes, in about 2 minutes. CPU, mutex and block
# profiles of the shapes that scale worst (many submitters, GOMAXPROCS
# submitters, P submitters to P workers, the router with 16 producers,
# ping-pong) at GOMAXPROCS 16, and the engine's shared-word counts
# (BenchmarkSharedWords, the hooks build) at 2, 4, 8 and 16 Ps, where on a
# machine with as many cores they count real contention. The mutex
# profile includes the runtime's own locks (GODEBUG=runtimecontentionstacks=1:
# the scheduler's, which runtime.Gosched takes), and every profile is
# symbolized as written: read them with `go tool pprof -top FILE`.
#
# eval: the real-time autoscaler scenarios at the machine's GOMAXPROCS (a
# knee at 16 CPUs is not a knee at 2): the CPU-bound saturation (S5),
# GOMAXPROCS halved (S10) and the CPU-bound overload (S18), each against
# its reference, poolkit's controller only, seed 42. At 16 CPUs about 7
# minutes of scenario time (S5 8 s, S10 15 s, S18 30 s, each once for
# every size its reference search tries, about 7, and once for poolkit),
# within a 9-minute timeout; SCENARIOS (a regular expression) picks
# others. It writes cpu.md (the tables), cpu.json (eval.Results) and one
# SVG per scenario.
#
#   bench/hotpath/profile.sh build      # here, with a Go toolchain: binaries into .profile/ (git-ignored)
#   bash .profile/profile.sh run        # there, from a copy of the tree holding .profile/; results in $OUT
#   bash .profile/profile.sh eval       # there, likewise
set -euo pipefail
case "${1:-}" in
build)
	root=$(git rev-parse --show-toplevel)
	cd "$root"
	out=.profile
	rm -rf "$out"
	mkdir -p "$out"
	export CGO_ENABLED=0
	(cd bench/hotpath && go test -c -o "$root/$out/hotpath.test" .)
	(cd internal/engine && go test -c -tags poolkit_hooks -o "$root/$out/engine-hooks.test" .)
	(cd autoscale/eval && go test -c -o "$root/$out/eval.test" .)
	cp bench/hotpath/profile.sh "$out/profile.sh"
	git checkout -- go.work.sum 2>/dev/null || true
	echo "built $(du -sh "$out" | cut -f1) in $out; run there: bash $out/profile.sh run (or eval)"
	;;
run | eval)
	B=$(cd "$(dirname "$0")" && pwd)
	O=${OUT:-/tmp/profile}
	mkdir -p "$O"
	{ nproc; grep -m1 'model name' /proc/cpuinfo || true; uptime; } >"$O/machine.txt"
	if [ "$1" = eval ]; then
		timeout 540 "$B/eval.test" -test.run '^TestCPUScenarios$' -test.timeout 9m -test.v \
			-scenarios "${SCENARIOS:-^S(5|10|18) }" -baselines=false -cpu-report "$O/cpu.md" \
			-cpu-results-json "$O/cpu.json" -plots "$O" >"$O/eval.txt" 2>&1 || echo "eval: exit $?" >>"$O/machine.txt"
		uptime >>"$O/machine.txt"
		exit 0
	fi
	timeout 150 "$B/engine-hooks.test" -test.run '^$' -test.bench SharedWords -test.cpu 2,4,8,16 \
		-test.benchtime 200000x >"$O/shared-words.txt" 2>&1 || echo "shared words: exit $?" >>"$O/machine.txt"
	# One profile a run: the block profiler's own lock would show in the
	# mutex profile, and both slow the CPU profile down.
	for shape in ManySubmitters SubmitParallel PbyP 'Router/producers=16/workers=16' PingPong; do
		name=${shape%%/*}
		for kind in cpu mutex block; do
			case $kind in
			cpu) prof=(-test.cpuprofile "$O/$name.cpu.pprof") ;;
			mutex) prof=(-test.mutexprofile "$O/$name.mutex.pprof" -test.mutexprofilefraction 10) ;;
			block) prof=(-test.blockprofile "$O/$name.block.pprof" -test.blockprofilerate 10000) ;;
			esac
			GODEBUG=runtimecontentionstacks=1 timeout 60 "$B/hotpath.test" -test.run '^$' -test.bench "^Benchmark$shape\$" \
				-test.cpu 16 -test.benchtime 1s "${prof[@]}" >>"$O/$name.txt" 2>&1 || echo "$shape $kind: exit $?" >>"$O/machine.txt"
		done
	done
	uptime >>"$O/machine.txt"
	;;
*)
	echo "usage: $0 build | run | eval" >&2
	exit 2
	;;
esac
