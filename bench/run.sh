#!/usr/bin/env bash
# Runs the comparison benchmarks interleaved: each round runs every
# contender once, one after another, so a burst of noise on a shared
# machine hits all of them alike. Output is Go's benchmark format, ready
# for benchstat (benchstat -col /impl results.txt).
#
#   bench/run.sh [rounds] [benchmark regexp] [benchtime] > results.txt
#
# The batch benchmarks (TinyTasks, IOLike) do a whole batch per op and want
# a benchtime like 10x; the per-task ones (Invoke, ManySubmitters) want a
# duration such as 200ms.
set -euo pipefail
rounds=${1:-10}
pattern=${2:-.}
benchtime=${3:-10x}
cd "$(dirname "$0")"
bin=$(mktemp -d)/bench.test
go test -c -o "$bin" .
{
  echo "# machine: $(uname -m), $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')"
  echo "# go: $(go version)"
}
for ((i = 1; i <= rounds; i++)); do
  "$bin" -test.run '^$' -test.bench "$pattern" -test.benchmem -test.count 1 -test.benchtime "$benchtime" |
    if ((i == 1)); then cat; else grep '^Benchmark'; fi
done
rm -rf "$(dirname "$bin")"
