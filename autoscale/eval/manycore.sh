#!/usr/bin/env bash
# The real-time autoscaler scenarios on a many-core machine, in one
# prepared run: the CPU-bound saturation (S5), GOMAXPROCS halved (S10) and
# the CPU-bound overload (S18) at the machine's GOMAXPROCS, each against
# its reference (the fixed sizes up to two or four a CPU), poolkit's controller
# only, seed 42: a knee at 16 CPUs is not a knee at 2.
#
#   autoscale/eval/manycore.sh build    # here, with a Go toolchain: a test binary into .evalmany/ (git-ignored)
#   bash .evalmany/manycore.sh run      # there, from a copy of the tree holding .evalmany/; results in $OUT
#
# At 16 CPUs the run is about 7 minutes of scenario time (S5 8 s, S10 15 s,
# S18 30 s, each once for every size its reference search tries, about 7,
# and once for poolkit), within a 9-minute timeout; it needs no Go toolchain;
# SCENARIOS (a regular expression) picks others. It writes cpu.md (the
# tables), cpu.json (eval.Results), one SVG per scenario, the test's log
# and the machine with its load before and after.
set -euo pipefail
case "${1:-}" in
build)
	root=$(git rev-parse --show-toplevel)
	cd "$root"
	out=.evalmany
	rm -rf "$out"
	mkdir -p "$out"
	(cd autoscale/eval && CGO_ENABLED=0 go test -c -o "$root/$out/eval.test" .)
	cp autoscale/eval/manycore.sh "$out/manycore.sh"
	git checkout -- go.work.sum 2>/dev/null || true
	echo "built $(du -sh "$out" | cut -f1) in $out; run there: bash $out/manycore.sh run"
	;;
run)
	B=$(cd "$(dirname "$0")" && pwd)
	O=${OUT:-/tmp/evalmany}
	mkdir -p "$O"
	{ nproc; grep -m1 'model name' /proc/cpuinfo || true; uptime; } >"$O/machine.txt"
	timeout 540 "$B/eval.test" -test.run '^TestCPUScenarios$' -test.timeout 9m -test.v \
		-scenarios "${SCENARIOS:-^S(5|10|18) }" -baselines=false -cpu-report "$O/cpu.md" \
		-cpu-results-json "$O/cpu.json" -plots "$O" >"$O/eval.txt" 2>&1 || echo "eval: exit $?" >>"$O/machine.txt"
	uptime >>"$O/machine.txt"
	;;
*)
	echo "usage: $0 build | run" >&2
	exit 2
	;;
esac
