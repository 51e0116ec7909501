#!/usr/bin/env python3
"""Every numeric option of `redist` and `redist-mpi`, and the numbers of a sweep file, given the
values at the edges of 64-bit arithmetic: each is answered or refused at once, never a crash, a
hang or an overflowed result. A refusal is one line; an answer exits 0.

Run by ctest (label `robustness`) as `test_numeric_options.py REDIST REDIST_MPI [unittest arguments]`.
redist-mpi runs as one process without mpirun (MPI's singleton start).
"""
import os
import subprocess
import sys
import tempfile
import unittest
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

REDIST = ""
REDIST_MPI = ""
PLATFORMS = Path(__file__).resolve().parent.parent.parent / "platforms"
PARAGON = str(PLATFORMS / "paragon.xml")
WITHIN_S = 10.0  # "at once", with room for a loaded machine
EDGES = ["9223372036854775807", "9223372036854775806", "9223372036854775800", "4611686018427387904",
         "4294967296", "-1", "0"]
CRASHES = ("terminate called", "Segmentation", "signal", "Sanitizer", "runtime error:", "Aborted", "core dumped")


def run(program, args, cwd=None):
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    try:
        done = subprocess.run([program, *args], capture_output=True, text=True, timeout=WITHIN_S,
                              stdin=subprocess.DEVNULL, cwd=cwd, env=env)
    except subprocess.TimeoutExpired:
        return None
    return done


def problem(program, args, cwd=None):
    """What is wrong with how `program args` ended, or None."""
    done = run(program, args, cwd)
    shown = " ".join([Path(program).name, *args])
    if done is None:
        return f"{shown}: still running after {WITHIN_S} s"
    out = done.stdout + done.stderr
    for crash in CRASHES:
        if crash in out:
            return f"{shown}: '{crash}' in the output:\n{out}"
    if done.returncode < 0:
        return f"{shown}: killed by signal {-done.returncode}"
    if done.returncode != 0:
        lines = done.stderr.splitlines()
        prefix = Path(program).name + ": error: "
        if len(lines) != 1 or not lines[0].startswith(prefix):
            return f"{shown}: exit {done.returncode} with {len(lines)} lines on stderr, wanted one '{prefix}...':\n{done.stderr}"
    return None


def replaced(args, option, value):
    """args with the value after `option` replaced (or option=value where written so)."""
    out = list(args)
    i = out.index(option)
    out[i + 1] = value
    return out


def check_all(test, cases):
    """cases: (program, args, cwd); every one must end well."""
    with ThreadPoolExecutor(max_workers=4) as pool:
        found = [p for p in pool.map(lambda c: problem(*c), cases) if p]
    test.assertEqual(found, [], "\n".join(found))


# Each command with arguments it answers, and its options that take numbers.
REDIST_COMMANDS = [
    (["grid", "-P", "4", "-r", "2", "-Q", "4", "-s", "3"], ["-P", "-r", "-Q", "-s"]),
    (["schedule", "-P", "4", "-r", "2", "-Q", "4", "-s", "3"], ["-P", "-r", "-Q", "-s"]),
    (["tables", "-P", "4", "-r", "2", "-Q", "4", "-s", "3", "--rank", "0"], ["-P", "-r", "-Q", "-s", "--rank"]),
    (["holes", "-P", "4", "--block", "2", "--stride", "1", "--offset", "0", "-n", "64", "--rank", "0"],
     ["-P", "--block", "--stride", "--offset", "-n", "--rank"]),
    (["explain", "--platform", PARAGON, "-P", "4", "-r", "2", "-Q", "4", "-s", "3", "-N", "4800", "--elem-bytes", "8",
      "--hosts", "4"], ["-P", "-r", "-Q", "-s", "-N", "--elem-bytes", "--hosts"]),
    (["simulate", "--platform", PARAGON, "-P", "4", "-r", "2", "-Q", "4", "-s", "3", "-N", "4800", "--elem-bytes", "8"],
     ["-P", "-r", "-Q", "-s", "-N", "--elem-bytes"]),
]

# Options whose number is one part of a text (AxB, RSRC,CSRC): each part gets the edge values.
REDIST_PARTS = [
    (["pack", "--platform", PARAGON, "--shape", "64x64", "--grid", "2x2", "--block", "4"],
     {"--shape": "{}x64", "--grid": "2x{}", "--block": "{}x4"}),
]

MPI_RUN = ["run", "-P", "2", "-r", "2", "-Q", "2", "-s", "3", "-N", "64", "--elem-bytes", "8", "--repeat", "1"]
MPI_RUN_2D = ["run", "--rows", "16", "--cols", "16", "--src-grid", "1x1", "--src-block", "2x2", "--src-first", "0,0",
              "--dst-grid", "1x1", "--dst-block", "3x3", "--dst-first", "0,0"]


# 2^32 as an array size is a valid run that takes minutes (simulate, a sweep's N), and as explain's
# -s it is still worked through instead of refused: left out here (docs/CAPABILITIES.md).
NOT_AT_ONCE = {("explain", "-s"), ("simulate", "-N")}


def edges(command, option):
    return [v for v in EDGES if not (v == "4294967296" and (command, option) in NOT_AT_ONCE)]


class RedistOptions(unittest.TestCase):
    def test_every_numeric_option_at_the_edges_is_answered_or_refused_at_once(self):
        cases = [(REDIST, replaced(args, option, value), None)
                 for args, options in REDIST_COMMANDS for option in options for value in edges(args[0], option)]
        cases += [(REDIST, replaced(args, option, form.format(value)), None)
                  for args, forms in REDIST_PARTS for option, form in forms.items() for value in EDGES]
        check_all(self, cases)

    def test_the_numbers_of_a_sweep_file_at_the_edges_are_answered_or_refused_at_once(self):
        with tempfile.TemporaryDirectory() as folder:
            cases = []
            for key in ("P", "Q", "r", "s", "N", "elem_bytes"):
                for k, value in enumerate(edges("simulate", "-N") if key == "N" else EDGES):
                    fixed = {"P": "4", "Q": "4", "r": "2", "s": "3", "N": "4800", "elem_bytes": "8", key: value}
                    sub = Path(folder) / f"{key}-{k}"
                    sub.mkdir()
                    scenario = sub / "edge.yaml"
                    scenario.write_text(
                        "scenario: edge\ndescription: numbers at the edges\n"
                        f"platform: {PARAGON}\nexperiment: redistribute\n"
                        "fixed: {" + ", ".join(f"{n}: {v}" for n, v in fixed.items() if n != "r") + "}\n"
                        f"sweep:\n  r: [{fixed['r']}]\nmethods:\n  - name: async\n    schedule: async\n"
                        "phases: [comm]\nunit: ms\n")
                    cases.append((REDIST, ["sweep", str(scenario), "--no-plot", "--out", str(sub)], None))
            for option in ("--jobs", "--max-runs", "--progress-seconds"):
                for value in EDGES:
                    sub = Path(folder) / f"opt{option}{value}"
                    sub.mkdir()
                    scenario = Path(folder) / "P-0" / "edge.yaml"
                    cases.append((REDIST, ["sweep", str(scenario), "--no-plot", "--out", str(sub), option, value], None))
            check_all(self, cases)


class RedistMpiOptions(unittest.TestCase):
    def test_every_numeric_option_at_the_edges_is_answered_or_refused_at_once(self):
        cases = [(REDIST_MPI, replaced(MPI_RUN, option, value), None)
                 for option in ("-P", "-r", "-Q", "-s", "-N", "--elem-bytes", "--repeat") for value in EDGES]
        parts = {"--rows": "{}", "--cols": "{}", "--src-grid": "{}x1", "--dst-grid": "1x{}", "--src-block": "{}x2",
                 "--dst-block": "3x{}", "--src-first": "{},0", "--dst-first": "0,{}"}
        cases += [(REDIST_MPI, replaced(MPI_RUN_2D, option, form.format(value)), None)
                  for option, form in parts.items() for value in EDGES]
        check_all(self, cases)


if __name__ == "__main__":
    REDIST = sys.argv.pop(1)
    REDIST_MPI = sys.argv.pop(1)
    unittest.main()
