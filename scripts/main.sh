#!/usr/bin/env bash
# The main job on a fresh Debian machine: install, build, and replay the papers' experiments on the
# bundled platforms. Reports go to results/ (Markdown, CSV, JSON and PNG per scenario, and a summary).
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/install-deps.sh
# A unity build (CMAKE_UNITY_BUILD: each target's sources compiled 8 to a file, so that the heavy
# headers are parsed once per 8 sources): about two thirds less compile time than one by one.
cmake -S . -B build/release -G Ninja -DCMAKE_BUILD_TYPE=Release -DREDIST_BUILD_TESTS=OFF -DREDIST_BUILD_BENCH=OFF \
      -DCMAKE_UNITY_BUILD=ON
cmake --build build/release -j "$(nproc)"

redist=build/release/cli/redist
# The Python module (python/README.md), built above when pybind11 and numpy are found.
if [ -d build/release/python/redist ]; then
  echo "Python: export PYTHONPATH=$PWD/build/release/python   # then: python3 -c 'import redist, redist.mpi'"
  echo
fi
# Paper 004's exact tables first: the communication grids of examples 1-5 and the scaled example 3
# (tables 1, 4, 7, 10, 13, 14), then the stepwise schedule of example 1 (tables 2 and 3).
for params in "-P 16 -r 3 -Q 16 -s 5" "-P 16 -r 7 -Q 16 -s 11" "-P 15 -r 3 -Q 15 -s 5" \
              "-P 12 -r 4 -Q 8 -s 3" "-P 15 -r 12 -Q 15 -s 20" "-P 15 -r 2 -Q 6 -s 3"; do
  # shellcheck disable=SC2086
  "$redist" grid $params
  echo
done
"$redist" schedule -P 16 -r 3 -Q 16 -s 5 --strategy stepwise
echo

# Every published experiment, simulated beside the published values.
"$redist" replay --all --jobs "$(nproc)" --out results
echo "Reports: results/*.md, *.csv, *.json, *.png"
echo
# The fidelity of every scenario, paper and role at a glance (also results/summary.json, fidelity.png).
cat results/SUMMARY.md

# What if the papers' experiments ran on a modern cluster? Their claims there, beside their status
# on the papers' own machines.
echo
"$redist" replay --all --jobs "$(nproc)" --no-plot --platform modern-100g.xml --beside results \
  --out results/what-if-modern-100g > /dev/null
cat results/what-if-modern-100g/CLAIMS.md
