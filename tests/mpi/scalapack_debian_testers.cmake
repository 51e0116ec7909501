# cmake -DMPIEXEC=… -DNUMPROC_FLAG=-np -DPRELOAD=<libredist_scalapack_override.so> -DWORK=<dir>
#       [-DTESTERS=<dir of Debian's openmpi-tests>] [-DDATA=<dir of their .dat files>] -P this file
# ScaLAPACK's own tester programs as Debian builds them (package scalapack-mpi-test, linked
# dynamically against libscalapack-openmpi), each run twice on the grids of its .dat file: as it
# is, and with redist's shared override preloaded. Every case the plain run reports passed must be
# reported passed with redist too, and no case may fail there that passed here.
#  - PBLAS's level-3 testers dpb3tst and zpb3tst (PDBLAS3TST.dat, PZBLAS3TST.dat: grids of up to
#    8 processes). They call no routine redist replaces (PBLAS's own routines reach p?tran's kernel
#    PB_Cptran inside the library, not through pdtran_), so they show that the preloaded library
#    leaves the rest of ScaLAPACK as it is.
#  - ScaLAPACK's drivers whose routines call p?gemr2d and p?trmr2d through the library's dynamic
#    symbols, which the preload answers: xdsvd (PDGESVD: pdgemr2d), xzsep (pzgemr2d, pztrmr2d and
#    pdgemr2d), xdhseqr (PDLAQR*: pdgemr2d). REDIST_SCALAPACK_LOG must show those calls on every
#    rank, none refused.
# Without the package the test prints "scalapack-mpi-test is not installed" (ctest: skipped).
cmake_minimum_required(VERSION 3.25)

if(NOT TESTERS)
  set(TESTERS /usr/lib/x86_64-linux-gnu/scalapack/openmpi-tests)
endif()
if(NOT DATA)
  set(DATA /usr/share/scalapack)
endif()
if(NOT EXISTS ${TESTERS}/PBLAS/dpb3tst OR NOT EXISTS ${DATA}/PBLAS/PDBLAS3TST.dat)
  message("scalapack-mpi-test is not installed (no ${TESTERS}/PBLAS/dpb3tst): skipped; "
          "scripts/install-deps.sh installs it")
  return()
endif()

file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
foreach(dat PBLAS/PDBLAS3TST.dat PBLAS/PZBLAS3TST.dat SVD.dat SEP.dat)
  file(COPY ${DATA}/${dat} DESTINATION ${WORK})
endforeach()
file(COPY ${TESTERS}/HRD.dat DESTINATION ${WORK})  # xdhseqr's, shipped beside it

include(${CMAKE_CURRENT_LIST_DIR}/scalapack_tester_helpers.cmake)

# What the tester reports, as "<what>=<count>" items: PBLAS's summary table per routine (passed,
# failed); xzsep's totals; the other drivers' lines per case ("Passed ..." or "... PASSED", and
# "has failed" or "FAILED").
function(count_of out regex text)
  string(REGEX MATCHALL "${regex}" found "${text}")
  list(LENGTH found n)
  set(${out} ${n} PARENT_SCOPE)
endfunction()

function(verdicts out text kind)
  set(items)
  if(kind STREQUAL "pblas")
    string(REGEX MATCHALL "\n  \\|  P[SDCZ][A-Z0-9]+ +[0-9]+ +[0-9]+ +[0-9]+ +[0-9]+" rows "${text}")
    foreach(row IN LISTS rows)
      string(REGEX MATCH "(P[SDCZ][A-Z0-9]+) +([0-9]+) +([0-9]+) +([0-9]+)" parts "${row}")
      list(APPEND items "${CMAKE_MATCH_1}-passed=${CMAKE_MATCH_3}" "${CMAKE_MATCH_1}-failed=${CMAKE_MATCH_4}")
    endforeach()
  elseif(kind STREQUAL "totals")
    foreach(what passed failed)
      if("${text}" MATCHES "([0-9]+) tests completed and ${what}")
        list(APPEND items "${what}=${CMAKE_MATCH_1}")
      endif()
    endforeach()
  else()
    count_of(passed "(^|\n)Passed |PASSED *\n" "${text}")
    count_of(failed "has failed|FAILED *\n" "${text}")
    list(APPEND items "passed=${passed}" "failed=${failed}")
  endif()
  set(${out} "${items}" PARENT_SCOPE)
endfunction()

set(summary)
# tester, ranks, how it reports, the routines its run must log (none: it calls none of redist's)
foreach(spec "PBLAS/dpb3tst;8;pblas;" "PBLAS/zpb3tst;8;pblas;" "xdsvd;4;lines;pdgemr2d"
             "xzsep;4;totals;pzgemr2d pztrmr2d pdgemr2d" "xdhseqr;4;lines;pdgemr2d")
  list(GET spec 0 tester)
  list(GET spec 1 np)
  list(GET spec 2 kind)
  list(GET spec 3 routines)
  string(REPLACE " " ";" routines "${routines}")
  set(log ${WORK}/redist.log)
  file(REMOVE ${log})
  run_tester(stock_out ${TESTERS}/${tester} ${np})
  run_tester(redist_out ${TESTERS}/${tester} ${np} LD_PRELOAD=${PRELOAD} REDIST_SCALAPACK_LOG=${log})
  file(WRITE ${WORK}/${tester}.stock.txt "${stock_out}")
  file(WRITE ${WORK}/${tester}.redist.txt "${redist_out}")
  verdicts(stock "${stock_out}" ${kind})
  verdicts(redist "${redist_out}" ${kind})
  if(NOT stock)
    message(FATAL_ERROR "${tester}: no verdict found in its output (see ${WORK}/${tester}.stock.txt)")
  endif()
  if(stock MATCHES "(^|;)passed=0(;|$)")
    message(FATAL_ERROR "${tester}: no case passed with ScaLAPACK alone (see ${WORK}/${tester}.stock.txt)")
  endif()
  if(NOT stock STREQUAL redist)
    message(FATAL_ERROR "${tester}: ScaLAPACK alone reports\n  ${stock}\nwith redist preloaded\n  ${redist}\n"
                        "(outputs in ${WORK}/${tester}.stock.txt and .redist.txt)")
  endif()
  set(calls 0)
  if(routines OR EXISTS ${log})  # a tester that calls none of redist's routines may log nothing
    check_redist_log(lines ${log} ${np} ${tester} ${routines})
    list(LENGTH lines calls)
  endif()
  string(REPLACE ";" " " stock "${stock}")
  list(APPEND summary "${tester}: ${stock} alike, redist answered ${calls} calls")
endforeach()
string(REPLACE ";" "\n  " summary "${summary}")
message(STATUS "as with ScaLAPACK alone:\n  ${summary}")
