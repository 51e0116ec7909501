# cmake -DMPIEXEC=… -DNUMPROC_FLAG=-np -DNP=4 -DPROGRAM=<exe> -DPRELOAD=<libredist_scalapack_override.so>
#       -DLOG=<file> -P this file
# A prebuilt ScaLAPACK program (linked against ScaLAPACK only) run twice: as it is, and with redist's
# shared override preloaded (LD_PRELOAD). Both runs must exit 0 printing the same non-empty output,
# and the preloaded run must have gone through redist: REDIST_SCALAPACK_LOG gets a line for every
# call on every rank, and the plain run writes none.
cmake_minimum_required(VERSION 3.25)
include(${CMAKE_CURRENT_LIST_DIR}/scalapack_tester_helpers.cmake)

function(run out)
  file(REMOVE ${LOG})
  execute_process(COMMAND ${CMAKE_COMMAND} -E env REDIST_SCALAPACK_LOG=${LOG} ${ARGN}
                          ${MPIEXEC} --oversubscribe ${NUMPROC_FLAG} ${NP} ${PROGRAM}
                  OUTPUT_VARIABLE stdout ERROR_VARIABLE stderr RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${PROGRAM} ${ARGN} exited with ${rc}:\n${stdout}\n${stderr}")
  endif()
  if(stdout STREQUAL "")
    message(FATAL_ERROR "${PROGRAM} printed nothing:\n${stderr}")
  endif()
  set(${out} "${stdout}" PARENT_SCOPE)
endfunction()

run(by_scalapack)
if(EXISTS ${LOG})
  message(FATAL_ERROR "${LOG} written without the preload: redist ran where ScaLAPACK should have")
endif()
run(by_redist LD_PRELOAD=${PRELOAD})
if(NOT by_scalapack STREQUAL by_redist)
  message(FATAL_ERROR "the outputs differ\nScaLAPACK:\n${by_scalapack}\nredist preloaded:\n${by_redist}")
endif()
# The program's calls, on every rank: pdgemr2d, pdtrmr2d, pdtran, pztranu and pztranc.
check_redist_log(lines ${LOG} ${NP} "the preloaded run" pdgemr2d pdtrmr2d pdtran pztranu pztranc)
list(LENGTH lines count)
message(STATUS "both print the same; redist logged ${count} calls")
