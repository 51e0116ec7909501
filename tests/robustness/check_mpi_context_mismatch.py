"""Runs mpi_context_mismatch under mpirun -np 4 in each mode and wants: "same" copies and exits 0;
"subset" and "order" (ranks whose ICTXTs name other processes) end the job within seconds, not
zero, with exactly one line of redist's saying why, and no crash.

usage: check_mpi_context_mismatch.py MPIEXEC PROGRAM
"""
import subprocess
import sys
import time

LIMIT_S = 60  # the ranks that find the difference end the job at once; a hang is what this catches


def run(mpiexec, program, mode):
    start = time.monotonic()
    try:
        done = subprocess.run([mpiexec, "--oversubscribe", "-np", "4", program, mode],
                              capture_output=True, text=True, timeout=LIMIT_S)
    except subprocess.TimeoutExpired:
        return None, "", time.monotonic() - start
    return done.returncode, done.stdout + done.stderr, time.monotonic() - start


def main():
    mpiexec, program = sys.argv[1], sys.argv[2]
    failures = []
    rc, out, _ = run(mpiexec, program, "same")
    if rc != 0:
        failures.append(f"same: exit {rc}, wanted 0:\n{out}")
    for mode in ("subset", "order"):
        rc, out, took = run(mpiexec, program, mode)
        told = [line for line in out.splitlines() if line.startswith("pdgemr2d: ")]
        if rc is None:
            failures.append(f"{mode}: still running after {LIMIT_S} s")
            continue
        if rc == 0:
            failures.append(f"{mode}: exit 0, wanted the job ended")
        if len(told) != 1 or "same processes in the same order" not in told[0]:
            failures.append(f"{mode}: {len(told)} lines of redist's, wanted one:\n{out}")
        for crash in ("terminate called", "Segmentation", "signal", "Sanitizer"):
            if crash in out:
                failures.append(f"{mode}: '{crash}' in the output:\n{out}")
        print(f"{mode}: exit {rc} after {took:.1f} s: {told[0] if told else '(no line)'}")
    for f in failures:
        print("FAILED " + f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
