#!/usr/bin/env bash
# ScaLAPACK's own REDIST testers (x{i,s,d,c,z}gemr on GEMR2D.dat, x?trmr on TRMR2D.dat), built
# unchanged from a Reference-ScaLAPACK source tree and run three ways: on ScaLAPACK alone, linked with
# redist's shared override first, and as built on ScaLAPACK with the override preloaded. Every run
# must pass every case and print ScaLAPACK's output byte for byte; redist's log must show the calls.
# Then PBLAS's level-3 testers (x{s,d,c,z}pblas3tst, from PBLAS/TESTING) with their transposing
# P?GEADD calls sent to p?tran by tests/mpi/geadd_transposes_by_tran.c, built three ways: on
# ScaLAPACK alone, with the shim (ScaLAPACK's p?tran), with the shim and the override linked first
# (redist's p?tran), run on tests/mpi/scalapack_geadd_by_tran.cmake's .dat files: every case must
# pass as on ScaLAPACK alone.
#
#   scripts/scalapack-redist-testers.sh <scalapack-source> <redist-build> [work-dir]
#
# <scalapack-source>: a checkout of github.com/Reference-ScaLAPACK/scalapack (REDIST/TESTING and
# PBLAS are read from it); <redist-build>: a redist build tree holding
# mpi/libredist_scalapack_override.so. Needs mpicc, mpif90 and libscalapack-openmpi
# (scripts/install-deps.sh). Nothing is written outside work-dir (default: a temporary directory,
# kept and named at the end).
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
pblas=${1:?usage: $0 <scalapack-source> <redist-build> [work-dir]}/PBLAS
src=$1/REDIST/TESTING
build=$(cd "${2:?usage: $0 <scalapack-source> <redist-build> [work-dir]}" && pwd)
work=${3:-$(mktemp -d -t scalapack-redist-testers.XXXXXX)}
override=$build/mpi/libredist_scalapack_override.so
[ -f "$src/GEMR2D.dat" ] || { echo "no $src/GEMR2D.dat: not a ScaLAPACK source tree" >&2; exit 2; }
[ -f "$override" ] || { echo "no $override: build the target redist_scalapack_override_shared" >&2; exit 2; }
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl_vader_single_copy_mechanism=none
mpirun="mpirun --oversubscribe -np 4"

mkdir -p "$work"/{stock,linked} "$work"/run-{stock,linked,preloaded}
for dir in "$work"/run-*; do cp "$src/GEMR2D.dat" "$src/TRMR2D.dat" "$dir/"; done
status=0
for type in i s d c z; do
  for kind in gemr trmr; do
    name=x$type$kind
    mpicc -O1 -w -I"$src" -o "$work/stock/$name" "$src/p$type${kind}drv.c" -lscalapack-openmpi
    mpicc -O1 -w -I"$src" -o "$work/linked/$name" "$src/p$type${kind}drv.c" -L"$build/mpi" -Wl,-rpath,"$build/mpi" \
      -Wl,--no-as-needed -lredist_scalapack_override -lscalapack-openmpi
    (cd "$work/run-stock" && $mpirun "$work/stock/$name" >"$name.out" 2>"$name.err")
    (cd "$work/run-linked" && $mpirun -x REDIST_SCALAPACK_LOG="$work/run-linked/redist.log" "$work/linked/$name" \
      >"$name.out" 2>"$name.err")
    (cd "$work/run-preloaded" && $mpirun -x LD_PRELOAD="$override" -x REDIST_SCALAPACK_LOG="$work/run-preloaded/redist.log" \
      "$work/stock/$name" >"$name.out" 2>"$name.err")
    tests=$(grep -c 'TEST #' "$work/run-stock/$name.out" || true)
    line="$name: $tests cases"
    for way in stock linked preloaded; do
      passed=$(grep -c 'TEST PASSED OK' "$work/run-$way/$name.out" || true)
      line+=", $way $passed passed"
      [ "$passed" -eq "$tests" ] && [ "$tests" -gt 0 ] || status=1
    done
    for way in linked preloaded; do
      if cmp -s "$work/run-stock/$name.out" "$work/run-$way/$name.out"; then line+=", $way output identical"
      else line+=", $way OUTPUT DIFFERS"; status=1; fi
    done
    echo "$line"
  done
done
for way in linked preloaded; do
  log=$work/run-$way/redist.log
  calls=$(wc -l <"$log" 2>/dev/null || echo 0)
  refused=$(grep -c refused "$log" 2>/dev/null || true)
  echo "$way: redist answered $calls calls, refused ${refused:-0}"
  [ "$calls" -gt 0 ] && [ "${refused:-0}" -eq 0 ] || status=1
done

# PBLAS's level-3 testers, P?GEADD with TRANS 'T' or 'C' sent to p?tran.
mkdir -p "$work/pblas"
mpicc -O1 -w -DAdd_ -DTestingPblas -I"$pblas/TESTING" -c "$pblas/SRC/PTOOLS/PB_Cwarn.c" -o "$work/pblas/PB_Cwarn.o"
mpicc -O1 -w -DAdd_ -DTestingPblas -I"$pblas/TESTING" -c "$pblas/SRC/PTOOLS/PB_Cabort.c" -o "$work/pblas/PB_Cabort.o"
mpicc -O1 -c "$repo/tests/mpi/geadd_transposes_by_tran.c" -o "$work/pblas/shim.o"
for type in s d c z; do
  case $type in s|c) lamch=slamch.f ;; *) lamch=dlamch.f ;; esac
  sources=("$pblas/TESTING/p${type}blas3tst.f" "$pblas/TESTING/p${type}blastst.f" "$pblas/TESTING/pblastst.f"
           "$pblas/TESTING/$lamch" "$work/pblas/PB_Cwarn.o" "$work/pblas/PB_Cabort.o")
  fortran="mpif90 -O1 -w -fallow-argument-mismatch"
  $fortran -o "$work/pblas/x${type}pblas3tst-stock" "${sources[@]}" -lscalapack-openmpi -lblas
  $fortran -o "$work/pblas/x${type}pblas3tst-shim" "${sources[@]}" "$work/pblas/shim.o" -lscalapack-openmpi -lblas -ldl
  $fortran -o "$work/pblas/x${type}pblas3tst-redist" "${sources[@]}" "$work/pblas/shim.o" -L"$build/mpi" \
    -Wl,-rpath,"$build/mpi" -Wl,--no-as-needed -lredist_scalapack_override -lscalapack-openmpi -lblas -ldl
done
if cmake -DMPIEXEC=mpirun -DNUMPROC_FLAG=-np -DLINKED="$work/pblas" -DWORK="$work/run-pblas" \
     -P "$repo/tests/mpi/scalapack_geadd_by_tran.cmake" >"$work/pblas.out" 2>&1; then
  sed -n '/P?GEADD as p?tran/,$p' "$work/pblas.out" | sed 's/^-- //'
else
  cat "$work/pblas.out"; status=1
fi
echo "outputs in $work"
exit $status
