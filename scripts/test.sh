#!/usr/bin/env bash
# Sets up a fresh Debian machine and passes the test suite: dependencies, a warnings-as-errors build
# with every test, then the same tests under AddressSanitizer + UndefinedBehaviorSanitizer.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/install-deps.sh
jobs=$(nproc)

cmake -S . -B build/ci -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DREDIST_WERROR=ON
cmake --build build/ci -j "$jobs"
ctest --test-dir build/ci -j "$jobs" --output-on-failure --timeout 600

cmake -S . -B build/asan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DREDIST_WERROR=ON \
      -DREDIST_SANITIZE=ON -DREDIST_BUILD_BENCH=OFF
cmake --build build/asan -j "$jobs"
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
  ctest --test-dir build/asan -j "$jobs" --output-on-failure --timeout 900
