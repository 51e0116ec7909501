#!/usr/bin/env python3
"""PBLAS's level-3 testers (Debian's p{s,d,c,z}b3tst) on random P?GEADD problems, their transposing
calls sent to p?tran by the shim of tests/mpi/geadd_transposes_by_tran.c: each random .dat file
(20 problems: TRANS 'T' or 'C', sizes 0-25, offsets, first blocks 1-12, blocks 1-8, sources -1, 0
or 1, A and C apart, random ALPHA and BETA, padded or tight local arrays) runs with ScaLAPACK's
p?tran (the shim preloaded) and with redist's (the shim and the override preloaded); the two
reports must be identical, and REDIST_SCALAPACK_LOG must show redist answering, refusing none.

  scripts/pblas-geadd-as-tran-random.py <redist-build> [--types sdcz] [--seed 1] [--rounds 10] [--np 6]
      [--work DIR]

<redist-build> holds mpi/libredist_scalapack_override.so and
tests/mpi/libgeadd_transposes_by_tran.so (ctest ScalapackPblasTesterGeaddAsTran builds both).
Needs Debian's scalapack-mpi-test. Exit status 1 if any report differs (kept in the work
directory, default a temporary one), 0 otherwise."""
import argparse
import os
import random
import re
import subprocess
import sys
import tempfile

TESTERS = "/usr/lib/x86_64-linux-gnu/scalapack/openmpi-tests/PBLAS"
GRIDS = [(1, 1), (2, 2), (1, 2), (2, 1), (1, 4), (4, 1), (2, 3), (3, 2), (1, 3), (3, 1), (1, 6), (6, 1),
         (8, 1), (1, 8), (2, 4), (4, 2)]
ROWS = ["DIAG", "SIDE", "TRANSA", "TRANSB", "UPLO", "M", "N", "K", "M_A", "N_A", "IMB_A", "INB_A", "MB_A",
        "NB_A", "RSRC_A", "CSRC_A", "IA", "JA", "M_B", "N_B", "IMB_B", "INB_B", "MB_B", "NB_B", "RSRC_B",
        "CSRC_B", "IB", "JB", "M_C", "N_C", "IMB_C", "INB_C", "MB_C", "NB_C", "RSRC_C", "CSRC_C", "IC", "JC"]


def problem(rng):
    m, n = rng.randint(0, 25), rng.randint(0, 25)
    p = {"DIAG": "'N'", "SIDE": "'L'", "TRANSA": "'%s'" % rng.choice("TTTC"), "TRANSB": "'N'", "UPLO": "'U'",
         "M": m, "N": n, "K": 1,
         # B: P?GEMM's (K x N); P?GEMM runs before P?GEADD, which the tester needs (see
         # tests/mpi/scalapack_geadd_by_tran.cmake).
         "M_B": 2, "N_B": 30, "IMB_B": 3, "INB_B": 3, "MB_B": 3, "NB_B": 3, "RSRC_B": 0, "CSRC_B": 0,
         "IB": 1, "JB": 1}
    for x, rows, cols in (("A", n, m), ("C", m, n)):  # A is N x M (op(A) = A')
        i, j = rng.randint(1, 6), rng.randint(1, 6)
        p.update({"I" + x: i, "J" + x: j, "M_" + x: i - 1 + rows + rng.randint(0, 5),
                  "N_" + x: j - 1 + cols + rng.randint(0, 5), "IMB_" + x: rng.randint(1, 12),
                  "INB_" + x: rng.randint(1, 12), "MB_" + x: rng.randint(1, 8), "NB_" + x: rng.randint(1, 8),
                  "RSRC_" + x: rng.choice([-1, 0, 0, 0, 0, 0, 1]), "CSRC_" + x: rng.choice([-1, 0, 0, 0, 0, 0, 1])})
    return p


def dat(t, rng, np):
    real = t in "sd"
    alpha = rng.choice(["2.0", "-1.5", "1.0", "0.0"] if real else ["(2.0,-4.0)", "(-1.5,0.5)", "(1.0,0.0)", "(0.0,0.0)"])
    beta = rng.choice(["3.0", "0.25", "1.0", "0.0"] if real else ["(3.0,-2.0)", "(0.0,1.0)", "(1.0,0.0)", "(0.0,0.0)"])
    grids = [g for g in GRIDS if g[0] * g[1] <= np]
    problems = [problem(rng) for _ in range(20)]
    lines = ["'Level 3 PBLAS, Testing input file'", "'random P?GEADD problems'", "'P%sBLAS3TST.SUMM'" % t.upper(),
             "6", "F", "F", "0", str(rng.choice([0, 10])), "16.0", "10", str(len(grids)),
             " ".join(str(g[0]) for g in grids), " ".join(str(g[1]) for g in grids), alpha, beta, "20"]
    lines += [" ".join(str(p[row]) for p in problems) for row in ROWS]
    names = ["GEMM", "SYMM", "SYRK", "SYR2K", "TRMM", "TRSM", "GEADD", "TRADD"] if real else \
        ["GEMM", "SYMM", "HEMM", "SYRK", "HERK", "SYR2K", "HER2K", "TRMM", "TRSM", "GEADD", "TRADD"]
    lines += ["%-7s %s" % ("P" + t.upper() + name, "T" if name in ("GEMM", "GEADD") else "F") for name in names]
    return "\n".join(lines) + "\n"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("build")
    ap.add_argument("--types", default="sdcz")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--rounds", type=int, default=10)
    ap.add_argument("--np", type=int, default=6)
    ap.add_argument("--work")
    args = ap.parse_args()
    shim = os.path.abspath(os.path.join(args.build, "tests/mpi/libgeadd_transposes_by_tran.so"))
    override = os.path.abspath(os.path.join(args.build, "mpi/libredist_scalapack_override.so"))
    for f in (shim, override, TESTERS + "/dpb3tst"):
        if not os.path.exists(f):
            sys.exit("no " + f)
    work = args.work or tempfile.mkdtemp(prefix="pblas-geadd-as-tran.")
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
               OMPI_MCA_btl_vader_single_copy_mechanism="none")
    rng = random.Random(args.seed)
    totals = [0, 0, 0, 0]
    differ = 0
    calls = 0
    for t in args.types:
        for r in range(args.rounds):
            d = os.path.join(work, "%s%d" % (t, r))
            os.makedirs(d, exist_ok=True)
            with open(os.path.join(d, "P%sBLAS3TST.dat" % t.upper()), "w") as f:
                f.write(dat(t, rng, args.np))
            out = {}
            log = os.path.join(d, "redist.log")
            for way, preload in (("stock-tran", shim), ("redist-tran", shim + " " + override)):
                run = subprocess.run(["mpirun", "--oversubscribe", "-np", str(args.np), TESTERS + "/%spb3tst" % t],
                                     cwd=d, env=dict(env, LD_PRELOAD=preload, REDIST_SCALAPACK_LOG=log),
                                     capture_output=True, text=True, timeout=600)
                out[way] = run.stdout
                with open(os.path.join(d, way + ".txt"), "w") as f:
                    f.write(run.stdout + run.stderr)
            row = re.search(r"\|  P.GEADD +(\d+) +(\d+) +(\d+) +(\d+)", out["stock-tran"])
            if not row:
                sys.exit("%s: no P?GEADD summary (see %s/stock-tran.txt)" % (d, d))
            for i in range(4):
                totals[i] += int(row.group(i + 1))
            lines = open(log).read().splitlines() if os.path.exists(log) else []
            refused = sum("refused" in line for line in lines)
            same = out["stock-tran"] == out["redist-tran"] and lines and not refused
            differ += not same
            calls += len(lines)
            print("%spb3tst %s: %s cases, %s passed, %s failed, %s skipped; %s; redist answered %d calls, refused %d" %
                  ((t, d) + row.groups() + ("reports identical" if same else "REPORTS DIFFER",
                                            len(lines), refused)), flush=True)
    print("all: %d cases, %d passed, %d failed, %d skipped with ScaLAPACK's p?tran; with redist's (%d calls) "
          "%d reports differ" % tuple(totals + [calls, differ]))
    print("outputs in " + work)
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
