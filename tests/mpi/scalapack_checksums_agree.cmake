# cmake -DMPIEXEC=… -DNUMPROC_FLAG=-np -DNP=4 -DNM=nm -DSCALAPACK=<exe> -DREDIST=<exe> -P this file
# One ScaLAPACK program linked on ScaLAPACK alone and with redist::scalapack_override first: the
# second must really run redist (its executable defines ScaLAPACK's names, the first does not), and
# both must exit 0 printing the same non-empty checksums.
cmake_minimum_required(VERSION 3.25)

# The program's ScaLAPACK calls, and redist's entry behind them.
set(called pdgemr2d_ pdtrmr2d_ pdtran_ pztranu_ pztranc_)

function(defined_symbols exe out)
  execute_process(COMMAND ${NM} --defined-only ${exe} OUTPUT_VARIABLE listing RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${NM} ${exe} failed (${rc})")
  endif()
  string(REGEX MATCHALL "[^\n ]+\n" names "${listing}")  # the last word of every line
  list(TRANSFORM names STRIP)
  set(${out} ${names} PARENT_SCOPE)
endfunction()

defined_symbols(${REDIST} redist_defines)
defined_symbols(${SCALAPACK} scalapack_defines)
foreach(name IN LISTS called ITEMS redist_pdgemr2d_ redist_pdtran_)
  if(NOT name IN_LIST redist_defines)
    message(FATAL_ERROR "${REDIST} does not define ${name}: ScaLAPACK's would run, not redist's")
  endif()
endforeach()
foreach(name IN LISTS called)
  if(name IN_LIST scalapack_defines)
    message(FATAL_ERROR "${SCALAPACK} defines ${name} itself: it should take ScaLAPACK's")
  endif()
endforeach()

function(run exe out)
  execute_process(COMMAND ${MPIEXEC} --oversubscribe ${NUMPROC_FLAG} ${NP} ${exe}
                  OUTPUT_VARIABLE stdout ERROR_VARIABLE stderr RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${exe} exited with ${rc}:\n${stdout}\n${stderr}")
  endif()
  if(stdout STREQUAL "")
    message(FATAL_ERROR "${exe} printed nothing:\n${stderr}")
  endif()
  set(${out} "${stdout}" PARENT_SCOPE)
endfunction()

run(${SCALAPACK} by_scalapack)
run(${REDIST} by_redist)
if(NOT by_scalapack STREQUAL by_redist)
  message(FATAL_ERROR "the outputs differ\nScaLAPACK:\n${by_scalapack}\nredist:\n${by_redist}")
endif()
message(STATUS "both print\n${by_redist}")
