#!/usr/bin/env bash
# Sets up a fresh Debian machine and passes the test suite: dependencies, a warnings-as-errors build
# with every test, then the algorithms, the message layer, the MPI binding and the parsers again
# under AddressSanitizer + UndefinedBehaviorSanitizer. About 20 minutes on 2 cores.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/install-deps.sh
jobs=$(nproc)

# Every test, built at -O2 as RelWithDebInfo but without debug information (-g0: a third less
# compile time; rebuild with -g to debug a failure), and as unity builds (CMAKE_UNITY_BUILD: a
# library's sources compiled a few at a time, each header parsed once per batch).
cmake -S . -B build/ci -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DREDIST_WERROR=ON \
      -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -DNDEBUG" -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O2 -DNDEBUG" \
      -DCMAKE_UNITY_BUILD=ON
cmake --build build/ci -j "$jobs"
ctest --test-dir build/ci -j "$jobs" --output-on-failure --timeout 600

# Under ASan + UBSan, only the tests labelled `sanitize` (tests/CMakeLists.txt, redist_sanitized),
# and only what they need (the target sanitized_tests): the algorithms (algorithms/: layouts,
# indexing, schedules, exchanges, holes, pack, symmetric, prediction and machine models), the
# message layer (the thread transport of the tests, SimGridTransport and the simulator's engine,
# MpiTransport), the MPI binding (tests/mpi: redistribute, the ScaLAPACK drop-in and override,
# redist-mpi and its examples, rank agreement) and the parsers (scenario and sweep YAML, strict
# inputs, experiment schemas, platform values, local-work measurements JSON). Not here: the CLI's
# long runs (tables, schedules, simulate, sweeps, replays, calibrate/validate, fit), the Python
# checks and the benchmarks; they run in the build above. -O1 -g1: line numbers in the reports.
cmake -S . -B build/asan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DREDIST_WERROR=ON \
      -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1 -DNDEBUG" -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O1 -g1 -DNDEBUG" \
      -DCMAKE_UNITY_BUILD=ON -DREDIST_SANITIZE=ON -DREDIST_BUILD_BENCH=OFF
cmake --build build/asan -j "$jobs" --target sanitized_tests
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
  ctest --test-dir build/asan -j "$jobs" -L sanitize --output-on-failure --timeout 900
