#!/usr/bin/env bash
# What the safe writer costs the main job: the wall time of `redist replay --all`, and the time the
# safe writer takes to write that run's results folder (bench_safe_writer), as a share of it.
#   bench/safe_writer_cost.sh BUILD_DIR [OUT_DIR]     (BUILD_DIR built with benchmarks, e.g. build/ci)
set -euo pipefail
build=$1
out=${2:-$(mktemp -d)}
start=$(date +%s.%N)
"$build/cli/redist" replay --all --jobs 2 --out "$out" >/dev/null
replay=$(echo "$(date +%s.%N) - $start" | bc)
line=$("$build/bench/bench_safe_writer" "$out")
echo "replay --all: ${replay} s into $out"
echo "$line"
safe=$(echo "$line" | sed -E 's/.*safe writer ([0-9.]+) s.*/\1/')
echo "safe writer share of the replay: $(echo "scale=4; 100 * $safe / $replay" | bc) %"
