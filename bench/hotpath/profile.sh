#!/usr/bin/env bash
# Where the time goes on a many-core machine, in one prepared run: CPU,
# mutex and block profiles of the shapes that scale worst (many submitters,
# GOMAXPROCS submitters, P submitters to P workers, the router with 16
# producers, ping-pong) at GOMAXPROCS 16, and the engine's shared-word
# counts (BenchmarkSharedWords, the hooks build) at 2, 4, 8 and 16 Ps,
# where on a machine with as many cores they count real contention.
#
#   bench/hotpath/profile.sh build      # here, with a Go toolchain: binaries into .profile/ (git-ignored)
#   bash .profile/profile.sh run        # there, from a copy of the tree holding .profile/; results in $OUT
#
# The run takes about 2 minutes and needs no Go toolchain. The mutex
# profile includes the runtime's own locks (GODEBUG=runtimecontentionstacks=1:
# the scheduler's, which runtime.Gosched takes), and every profile is
# symbolized as written: read them with `go tool pprof -top FILE`.
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
	cp bench/hotpath/profile.sh "$out/profile.sh"
	git checkout -- go.work.sum 2>/dev/null || true
	echo "built $(du -sh "$out" | cut -f1) in $out; run there: bash $out/profile.sh run"
	;;
run)
	B=$(cd "$(dirname "$0")" && pwd)
	O=${OUT:-/tmp/profile}
	mkdir -p "$O"
	{ nproc; grep -m1 'model name' /proc/cpuinfo || true; uptime; } >"$O/machine.txt"
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
	echo "usage: $0 build | run" >&2
	exit 2
	;;
esac
