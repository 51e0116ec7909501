#!/usr/bin/env bash
# Write-fault sweep (nothing lost, nothing left running): the main job's replay,
# `redist replay --all --jobs 2 --out DIR`, run over a folder of complete earlier results under a
# file size limit of k x 4 KiB for k = 1..32 (SIGXFSZ ignored: writes fail with EFBIG). Every run
# must complete or exit non-zero, and no earlier file may be shorter or different afterwards.
# Too slow for ctest (the fast version is FullDisk in test_robustness.py); run it by hand:
#   tests/robustness/write_fault_sweep.sh build/dev/cli/redist /tmp/write-faults [K_MAX]
set -u
redist=$1
out=$2
k_max=${3:-32}

if [ ! -f "$out/paper000-table1.json" ]; then
  echo "complete earlier results: redist replay --all --jobs 2 --out $out"
  "$redist" replay --all --jobs 2 --out "$out" >/dev/null || { echo "the reference replay failed"; exit 1; }
fi
digests() { (cd "$out" && find . -maxdepth 1 -type f ! -name '.redist.lock' -print0 | sort -z | xargs -0 sha256sum); }
before=$(digests)

failures=0
for k in $(seq 1 "$k_max"); do
  start=$(date +%s.%N)
  err=$( (trap '' XFSZ; ulimit -f $((k * 4)); "$redist" replay --all --jobs 2 --out "$out" 2>&1 >/dev/null) )
  rc=$?
  seconds=$(echo "$(date +%s.%N) - $start" | bc)
  after=$(digests)
  verdict=ok
  # Every earlier file present and identical (replays are deterministic: a completed run rewrites
  # the same bytes), and no temporary left behind.
  if [ "$(diff <(echo "$before") <(echo "$after") | grep -c '^<')" != 0 ]; then verdict="EARLIER FILE CHANGED"; fi
  if ls -A "$out" | grep -q '\.tmp'; then verdict="TEMPORARY LEFT"; fi
  if [ $rc -ne 0 ] && [ $rc -ge 128 ]; then verdict="KILLED BY SIGNAL $((rc - 128))"; fi
  [ "$verdict" = ok ] || failures=$((failures + 1))
  printf 'k=%2d limit=%3d KiB rc=%d %5.1fs %s %s\n' "$k" $((k * 4)) "$rc" "$seconds" "$verdict" "${err##*$'\n'}"
done
echo "$failures failure(s) over k = 1..$k_max"
[ "$failures" = 0 ]
