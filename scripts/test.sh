#!/usr/bin/env bash
# Sets up a fresh Debian machine and passes the test suite: dependencies, a warnings-as-errors build
# with every test, then the algorithms, the message layer, the MPI binding and the parsers again
# under AddressSanitizer + UndefinedBehaviorSanitizer. 15 to 27 minutes on 2 idle cores, by machine
# (docs/MEASUREMENTS.md, "The test command").
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/install-deps.sh
jobs=$(nproc)

# Every test, at -O2 as RelWithDebInfo but without debug information (-g0: about a fifth less
# compile time; rebuild with -g to debug a failure), as unity builds (CMAKE_UNITY_BUILD: each
# target's sources compiled 8 to a file, so the heavy headers are parsed once per 8 sources, not
# once per source: about two thirds less compile time). Functions, types and constants private to a
# source (anonymous namespace, static) need names of their own within their target. The test
# programs' own sources at -O0 (REDIST_TEST_COMPILE_OPTIONS): they spend their time in the libraries,
# at -O2, and in the programs they start; -O2 took half as long again to compile them.
cmake -S . -B build/ci -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DREDIST_WERROR=ON \
      -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -DNDEBUG" -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O2 -DNDEBUG" \
      -DCMAKE_UNITY_BUILD=ON -DREDIST_TEST_COMPILE_OPTIONS=-O0
cmake --build build/ci -j "$jobs"
ctest --test-dir build/ci -j "$jobs" --output-on-failure --timeout 600
# The pytest suites ran inside ctest (PythonSimulator, PythonMpi: one ctest test each); their own count.
if compgen -G "build/ci/python/pytest-*.xml" > /dev/null; then python3 - build/ci/python/pytest-*.xml <<'COUNT'
import sys, xml.etree.ElementTree as ET
tests = failures = skipped = 0
for report in sys.argv[1:]:
    for suite in ET.parse(report).getroot().iter("testsuite"):
        tests += int(suite.get("tests")); failures += int(suite.get("failures")) + int(suite.get("errors"))
        skipped += int(suite.get("skipped"))
print(f"pytest (python/tests): {tests - failures - skipped} passed, {skipped} skipped, {failures} failed")
COUNT
fi

# Under ASan + UBSan, only the tests labelled `sanitize` and only what they need (the target
# sanitized_tests; both chosen in tests/CMakeLists.txt and tests/mpi/CMakeLists.txt with
# redist_sanitized): the algorithms (algorithms/: layouts, indexing, schedules, exchanges, holes,
# pack, symmetric, prediction and machine models), the message layer (the tests' thread transport,
# SimGridTransport and the simulator's engine, MpiTransport), the MPI binding (tests/mpi but the
# calibration: redistribute, plans, the ScaLAPACK drop-in and override, redist-mpi and its examples;
# rank agreement) and the parsers (scenarios and sweeps, platform search, strict inputs and numbers,
# experiment schemas, platform values, calibrated platforms, local-work measurements). The CLI's
# long runs (tables, schedules, simulate, sweeps, replays, fit, calibrate and validate), the Python
# checks and the benchmarks run in the build above only; the random and exhaustive checks run a
# quarter of their cases here (tests/sanitizer_share.hpp), all of them above. -O0 -g1: line
# numbers in the reports; the sanitizers' instrumentation optimised at -O1 took twice the compile
# time of -O0 (31 s against 15 s for one batch of 8 sources), more than its faster tests save. Each
# test program is one ctest test here (tests/CMakeLists.txt, redist_add_gtest).
cmake -S . -B build/asan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DREDIST_WERROR=ON \
      -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O0 -g1 -DNDEBUG" -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O0 -g1 -DNDEBUG" \
      -DCMAKE_UNITY_BUILD=ON -DREDIST_SANITIZE=ON -DREDIST_BUILD_BENCH=OFF
cmake --build build/asan -j "$jobs" --target sanitized_tests
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
  ctest --test-dir build/asan -j "$jobs" -L sanitize --output-on-failure --timeout 900
