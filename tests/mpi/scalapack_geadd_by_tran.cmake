# cmake -DMPIEXEC=… -DNUMPROC_FLAG=-np -DPRELOAD=<libredist_scalapack_override.so> -DSHIM=<geadd shim .so>
#       -DWORK=<dir> [-DTESTERS=<dir of Debian's openmpi-tests>] [-DTYPES="s;d;c;z"] [-DNP=6] -P this file
# or, on testers built from source with the shim and the override linked in (no preloading):
# cmake -DMPIEXEC=… -DNUMPROC_FLAG=-np -DLINKED=<dir of x?pblas3tst-{stock,shim,redist}> -DWORK=<dir> -P this file
# PBLAS's level-3 testers as Debian builds them (p{s,d,c,z}b3tst, package scalapack-mpi-test), with
# their transposing P?GEADD calls sent to p?tran (the shim, geadd_transposes_by_tran.c: TRANS 'T'
# to p?tran or p?tranu, 'C' to p?tran or p?tranc, everything else to ScaLAPACK's P?GEADD). P?GEADD
# with TRANS 'T' computes sub(C) := beta*sub(C) + alpha*sub(A)', which is p?tran's operation on
# the same arguments, so the tester's checks (result, padding, A and the scalars untouched) judge
# p?tran. Each tester runs on NP processes (default 6), on the grids of up to NP processes (12 for
# 6), the .dat files written here (P?GEADD enabled, and P?GEMM before it, which the tester needs to
# clear a failure flag P?GEADD alone leaves unset; TRANS 'T', 'C' and 'N'; first blocks smaller and
# larger than the others, A and C apart; sources 0, 1 and -1 (replicated); offsets up to the last
# element; empty submatrices; two pairs of ALPHA and BETA; padded and tight local arrays), three ways:
#   stock:  as it is (P?GEADD computes the transposes itself);
#   shim:   the shim preloaded, p?tran is ScaLAPACK's (PBLAS): the baseline for the same calls;
#   redist: the shim and redist's shared override preloaded, p?tran is redist's.
# Every case passing in the stock and shim runs must pass with redist: the three reports (case by
# case and the summary) must be alike. The shim's count and REDIST_SCALAPACK_LOG must show that the
# transposes reached p?tran and redist on every rank, none refused.
# Without the package the test prints "scalapack-mpi-test is not installed" (ctest: skipped).
cmake_minimum_required(VERSION 3.25)

if(NOT TESTERS)
  set(TESTERS /usr/lib/x86_64-linux-gnu/scalapack/openmpi-tests)
endif()
if(NOT NP)
  set(NP 6)
endif()
if(NOT TYPES)
  set(TYPES s d c z)
endif()
if(LINKED)
  # The testers built from source (scripts/scalapack-redist-testers.sh): x<t>pblas3tst-stock on
  # ScaLAPACK alone, -shim with the shim linked in, -redist with the shim and the override linked
  # before ScaLAPACK; nothing preloaded.
  set(SHIM "")
  set(PRELOAD "")
  foreach(way stock shim redist)
    set(program_${way} "${LINKED}/x@t@pblas3tst-${way}")
  endforeach()
else()
  if(NOT EXISTS ${TESTERS}/PBLAS/dpb3tst)
    message("scalapack-mpi-test is not installed (no ${TESTERS}/PBLAS/dpb3tst): skipped; "
            "scripts/install-deps.sh installs it")
    return()
  endif()
  foreach(file ${PRELOAD} ${SHIM})
    if(NOT EXISTS ${file})
      message(FATAL_ERROR "no ${file}")
    endif()
  endforeach()
  foreach(way stock shim redist)
    set(program_${way} "${TESTERS}/PBLAS/@t@pb3tst")
  endforeach()
  set(PRELOAD "LD_PRELOAD=${SHIM} ${PRELOAD}")
  set(SHIM "LD_PRELOAD=${SHIM}")
endif()

file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})

# The grids: those of at most NP processes from these (the tester reads at most 20).
set(all_p 1 2 1 2 1 4 2 3 1 3 1 6 8 1 2 4)
set(all_q 1 2 2 1 4 1 3 2 3 1 6 1 1 8 4 2)
set(grid_p)
set(grid_q)
foreach(i RANGE 15)
  list(GET all_p ${i} p)
  list(GET all_q ${i} q)
  math(EXPR size "${p} * ${q}")
  if(size LESS_EQUAL NP)
    list(APPEND grid_p ${p})
    list(APPEND grid_q ${q})
  endif()
endforeach()
# Two sets of test problems, one column each (at most 20): "general" (submatrices at offsets in
# 31 x 31 and 35 x 35 matrices) and "edges" (1 x 1 and empty matrices, whole matrices, one process
# holding all, both operands replicated, first blocks of 1 or beyond the matrix, thin shapes).
set(general
  # TRANSA   M  N   A: MA NA IMB INB MB NB RSRC CSRC IA JA   C: MC NC IMB INB MB NB RSRC CSRC IC JC
  "T 22 23  31 31  4  4  4  4  0  0   5  5   35 35  4  4  4  4  0  0   5  5"
  "T 30 29  31 31  5  5  5  5  0  0   1  1   35 35  3  3  3  3  0  0   2  4"
  "N  8  7  31 31  2  3  2  3  0  0   4  4   35 35  3  2  3  2  0  0   6  1"
  "T 20 21  31 31  1  7  3  2  0  0   7  7   35 35  6  2  4  5  0  0   3  9"
  "T  3  3  31 31  2  2  2  2  1  1   1  2   35 35  2  2  2  2  0  1   3  3"
  "T  5 14  31 31  1  1  1  1  0  0  12  9   35 35  9  9  9  9  0  0  12 12"
  "T 11 11  31 31  4  5  4  5 -1 -1   1  1   35 35  3  3  3  3  0  0   1  1"
  "T  8  8  31 31  3  3  3  3  0  0   2  3   35 35  2  5  2  5 -1  0   4  2"
  "C 13 17  31 31  5  3  4  6  0  0   2  3   35 35  7  1  2  3  0  0   4  6"
  "T  0 10  31 31  4  4  4  4  0  0   3  3   35 35  4  4  4  4  0  0   3  3"
  "T 10  0  31 31  4  4  4  4  0  0   3  3   35 35  4  4  4  4  0  0   3  3"
  "T  1  1  31 31  4  4  4  4  0  0  31 31   35 35  4  4  4  4  0  0  35 35"
  "T 31 31  31 31 40 40 40 40  0  0   1  1   35 35  1  1  1  1  0  0   5  5"
  "T 17  9  31 31  2  3  3  2  1  0   4 10   35 35  5  4  2  2  0  1   8  2"
  "C  9 17  31 31  3  2  3  2 -1  1   6  9   35 35  2  3  2  3  1 -1   9  3"
  "T 25  4  31 31  3  1  8  1  0  0  20  2   35 35  1  3  1  3  0  0   6 30"
  "N 12  6  31 31  4  4  4  4  1  0   2  2   35 35  4  4  4  4  0  1   2  2"
  "T  6 27  31 31 10 10 10 10  0  0   3 20   35 35  2  7  2  7  0  0  29  1"
  "T 14 14  31 31  4  4  4  4  0  0   6  6   35 35  4  4  4  4  0  0   6  6"
  "C  2 30  31 31  4  2  3  5  0  0   2 29   35 35  1  6  2  6  0  0   1  6")
set(edges
  # TRANSA   M  N   A: MA NA IMB INB MB NB RSRC CSRC IA JA   C: MC NC IMB INB MB NB RSRC CSRC IC JC
  "T  1  1   1  1  1  1  1  1  0  0   1  1    1  1  1  1  1  1  0  0   1  1"
  "T  5  0   0  5  2  2  2  2  0  0   1  1    5  3  2  2  2  2  0  0   1  1"
  "T  0  4   4  0  2  2  2  2  0  0   1  1    0  4  2  2  2  2  0  0   1  1"
  "T  7  9   9  7  9  7  9  7  0  0   1  1    7  9  7  9  7  9  0  0   1  1"
  "T 12 10  10 12  1  1  1  1 -1 -1   1  1   12 10  1  1  1  1 -1 -1   1  1"
  "C 16 16  16 16  5  5  2  2  0 -1   1  1   16 16  3  2  5  7 -1  0   1  1"
  "T 20  3  40 40  7  1  3  5  1  1  15 30   40 40 13 13  4  4  1  1  20 38"
  "T 33 33  33 33  2  3  5  4  0  0   1  1   33 33  4  5  3  2  0  0   1  1"
  "N  5  5  10 10  2  2  2  2  0  0   3  3   10 10  3  3  3  3  0  0   2  2"
  "T  2 40  40  2  1  1  1  1  0  0   1  1    2 40  1  1  1  1  0  0   1  1"
  "T 40  2   2 40  3  3  3  3  0  0   1  1   40  2  2  2  2  2  0  0   1  1"
  "C  9 13  20 20 11 11  3  3  0  0   2  5   20 20 11 11  3  3  0  0   7  4"
  "T  6  6  20 20 20 20 20 20  0  0  15 15   20 20  1  1 20 20  0  0  15 15"
  "T 19 17  25 25  4  6  4  6 -1  0   9  7   25 25  6  4  6  4  0 -1   7  9"
  "T 11 23  30 30  8  8  8  8  1  1   5  1   30 30  8  8  8  8  1  1   2  3")

# Writes P<T>BLAS3TST.dat for type `t` with ALPHA and BETA as the tester reads them, the problems
# of the list named `table`, the leading dimension gap `gap` (0: LLD_ the local rows, or 1), and
# `exits` (T or F) whether the tester checks the error exits (illegal TRANS, dimensions and
# descriptors: P?GEADD calls the shim forwards).
function(write_dat t alpha beta table gap exits)
  string(TOUPPER ${t} T)
  list(LENGTH grid_p ngrids)
  list(LENGTH ${table} ntests)
  string(REPLACE ";" " " ps "${grid_p}")
  string(REPLACE ";" " " qs "${grid_q}")
  set(columns "") # one list per row of the file, filled column by column
  set(names TRANSA M N M_A N_A IMB_A INB_A MB_A NB_A RSRC_A CSRC_A IA JA
            M_C N_C IMB_C INB_C MB_C NB_C RSRC_C CSRC_C IC JC)
  foreach(problem IN LISTS ${table})
    string(REGEX REPLACE " +" ";" values "${problem}")
    list(LENGTH names count)
    math(EXPR last "${count} - 1")
    foreach(i RANGE ${last})
      list(GET names ${i} name)
      list(GET values ${i} value)
      if(name STREQUAL "TRANSA")
        set(value "'${value}'")
      endif()
      string(APPEND row_${name} " ${value}")
    endforeach()
    string(APPEND row_DIAG " 'N'")
    string(APPEND row_SIDE " 'L'")
    string(APPEND row_TRANSB " 'N'")
    string(APPEND row_UPLO " 'U'")
    string(APPEND row_K " 1")
    # B: P?GEMM's (K x N), not an operand of P?GEADD.
    string(APPEND row_M_B " 2")
    string(APPEND row_N_B " 35")
    foreach(name IMB_B INB_B MB_B NB_B)
      string(APPEND row_${name} " 3")
    endforeach()
    foreach(name IB JB)
      string(APPEND row_${name} " 1")
    endforeach()
    foreach(name RSRC_B CSRC_B)
      string(APPEND row_${name} " 0")
    endforeach()
  endforeach()
  set(text "'Level 3 PBLAS, Testing input file'\n'P?GEADD with TRANS T and C, as p?tran'\n")
  string(APPEND text "'P${T}BLAS3TST.SUMM'\toutput file name (if any)\n6\t\tdevice out\n")
  string(APPEND text "F\t\tlogical flag, T to stop on failures\n${exits}\t\tlogical flag, T to test error exits\n")
  string(APPEND text "0\t\tverbosity, 0 for pass/fail, 1-3 for matrix dump on errors\n")
  string(APPEND text "${gap}\t\tthe leading dimension gap\n16.0\t\tthreshold value of test ratio\n")
  string(APPEND text "10\t\tvalue of the logical computational blocksize NB\n")
  string(APPEND text "${ngrids}\t\tnumber of process grids (ordered pairs of P & Q)\n")
  string(APPEND text "${ps}\tvalues of P\n${qs}\tvalues of Q\n")
  string(APPEND text "${alpha}\t\tvalue of ALPHA\n${beta}\t\tvalue of BETA\n")
  string(APPEND text "${ntests}\t\tnumber of tests problems\n")
  foreach(name DIAG SIDE TRANSA TRANSB UPLO M N K M_A N_A IMB_A INB_A MB_A NB_A RSRC_A CSRC_A IA JA
               M_B N_B IMB_B INB_B MB_B NB_B RSRC_B CSRC_B IB JB
               M_C N_C IMB_C INB_C MB_C NB_C RSRC_C CSRC_C IC JC)
    string(APPEND text "${row_${name}}\tvalues of ${name}\n")
  endforeach()
  if(t STREQUAL "s" OR t STREQUAL "d")
    set(routines GEMM SYMM SYRK SYR2K TRMM TRSM GEADD TRADD)
  else()
    set(routines GEMM SYMM HEMM SYRK HERK SYR2K HER2K TRMM TRSM GEADD TRADD)
  endif()
  foreach(routine IN LISTS routines)
    set(on F)
    if(routine STREQUAL "GEADD" OR routine STREQUAL "GEMM")
      set(on T)
    endif()
    # read as (A7, L2): the name in 7 columns, the flag in the next two
    string(SUBSTRING "P${T}${routine}       " 0 7 padded)
    string(APPEND text "${padded} ${on}\tput F for no test in the same column\n")
  endforeach()
  file(WRITE ${WORK}/P${T}BLAS3TST.dat "${text}")
endfunction()

include(${CMAKE_CURRENT_LIST_DIR}/scalapack_tester_helpers.cmake)

# The tester's verdicts: each case's lines ("... PASSED"/"FAILED", skips and error messages, in
# order), and the summary row of P?GEADD (total, passed, failed, skipped).
function(verdicts out text)
  string(REGEX MATCHALL "[^\n]*(PASSED|FAILED|ERROR|skipped|Invalid|illegal)[^\n]*" lines "${text}")
  string(REGEX MATCH "\n  \\|  P[SDCZ]GEADD +[0-9]+ +[0-9]+ +[0-9]+ +[0-9]+" row "${text}")
  string(STRIP "${row}" row)
  set(${out} "${lines};${row}" PARENT_SCOPE)
endfunction()

set(summary)
# ALPHA, BETA, problems, leading dimension gap, error exits: the tester's usual pair on the general
# problems with padded local arrays, and a plain transpose (BETA 0: sub(C) is overwritten) on the
# edges with tight ones.
set(real_variants "2.0 3.0 general 10 T" "1.0 0.0 edges 0 F")
set(complex_variants "(2.0,-4.0) (3.0,-2.0) general 10 T" "(1.0,0.0) (0.0,0.0) edges 0 F")
foreach(t IN LISTS TYPES)
  if(t STREQUAL "s" OR t STREQUAL "d")
    set(variants ${real_variants})
  else()
    set(variants ${complex_variants})
  endif()
  set(name 0)
  foreach(variant IN LISTS variants)
    math(EXPR name "${name} + 1")
    string(REPLACE " " ";" variant "${variant}")
    list(GET variant 0 a)
    list(GET variant 1 b)
    list(GET variant 2 table)
    list(GET variant 3 gap)
    list(GET variant 4 exits)
    write_dat(${t} "${a}" "${b}" ${table} ${gap} ${exits})
    foreach(way stock shim redist)
      string(REPLACE "@t@" "${t}" program_${way}_t "${program_${way}}")
    endforeach()
    get_filename_component(tester "${program_stock_t}" NAME)
    string(REPLACE "-stock" "" tester "${tester}")
    set(case "${tester} ${table}, alpha ${a} beta ${b}")
    set(shimlog ${WORK}/shim.log)
    set(log ${WORK}/redist.log)
    file(REMOVE ${shimlog} ${log})
    run_tester(stock_out ${program_stock_t} ${NP})
    run_tester(shim_out ${program_shim_t} ${NP} ${SHIM} GEADD_TRAN_LOG=${shimlog})
    file(STRINGS ${shimlog} shim_stock_lines)
    file(REMOVE ${shimlog})
    run_tester(redist_out ${program_redist_t} ${NP} ${PRELOAD} GEADD_TRAN_LOG=${shimlog} REDIST_SCALAPACK_LOG=${log})
    file(STRINGS ${shimlog} shim_redist_lines)
    foreach(way stock shim redist)
      file(WRITE "${WORK}/${tester}.${name}.${way}.txt" "${${way}_out}")
      verdicts(${way} "${${way}_out}")
    endforeach()
    if(NOT stock MATCHES "GEADD +([0-9]+) +([0-9]+) +([0-9]+) +([0-9]+)$")
      message(FATAL_ERROR "${case}: no P?GEADD summary (see ${WORK}/${tester}.${name}.stock.txt)")
    endif()
    set(total ${CMAKE_MATCH_1})
    set(passed ${CMAKE_MATCH_2})
    set(failed ${CMAKE_MATCH_3})
    set(skipped ${CMAKE_MATCH_4})
    if(passed EQUAL 0)
      message(FATAL_ERROR "${case}: no case passed with ScaLAPACK alone (see ${WORK}/${tester}.${name}.stock.txt)")
    endif()
    foreach(way shim redist)
      if(NOT stock STREQUAL ${way})
        message(FATAL_ERROR "${case}: ScaLAPACK alone reports\n  ${stock}\nthe ${way} run\n  ${${way}}\n"
                            "(outputs in ${WORK}/${tester}.${name}.*.txt)")
      endif()
    endforeach()
    # The shim's calls, and redist's log: p?tran on every rank, none refused.
    foreach(way stock redist)
      list(LENGTH shim_${way}_lines n)
      if(NOT n EQUAL NP)
        message(FATAL_ERROR "${case}: ${n} shim reports (${NP} processes) in the ${way} run: ${shim_${way}_lines}")
      endif()
      set(count_${way} 0)
      foreach(line IN LISTS shim_${way}_lines)
        if(NOT line MATCHES ": ([0-9]+) to p.tran")
          message(FATAL_ERROR "${case}: shim line ${line}")
        endif()
        math(EXPR count_${way} "${count_${way}} + ${CMAKE_MATCH_1}")
      endforeach()
    endforeach()
    if(count_stock EQUAL 0 OR NOT count_stock EQUAL count_redist)
      message(FATAL_ERROR "${case}: the shim sent ${count_stock} calls to ScaLAPACK's p?tran, ${count_redist} to redist's")
    endif()
    check_redist_log(lines ${log} ${NP} ${case} "p${t}tran[uc]?")
    list(LENGTH lines calls)
    if(NOT calls EQUAL count_redist)
      message(FATAL_ERROR "${case}: the shim made ${count_redist} p?tran calls, redist's log has ${calls} lines")
    endif()
    # Beyond the verdicts: whether the printed reports are the same byte for byte.
    set(identical "reports identical")
    if(NOT stock_out STREQUAL shim_out OR NOT shim_out STREQUAL redist_out)
      set(identical "reports differ beyond the verdicts")
    endif()
    list(APPEND summary "${case}: ${total} cases, ${passed} passed, ${failed} failed, ${skipped} skipped, \
alike in all three runs (${identical}), ${count_redist} p?tran calls answered by redist")
  endforeach()
endforeach()
string(REPLACE ";" "\n  " summary "${summary}")
message(STATUS "P?GEADD as p?tran, as with ScaLAPACK alone:\n  ${summary}")
