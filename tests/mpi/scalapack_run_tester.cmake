# Included by the ScaLAPACK tester scripts (cmake -P): run_tester(out program np [VAR=value ...])
# runs `program` on `np` ranks in WORK (where it reads its .dat files) with the extra environment
# given, fails the test on a non-zero exit, and returns the program's output in `out`.
function(run_tester out program np)
  execute_process(COMMAND ${CMAKE_COMMAND} -E env ${ARGN} ${MPIEXEC} --oversubscribe ${NUMPROC_FLAG} ${np} ${program}
                  WORKING_DIRECTORY ${WORK} OUTPUT_VARIABLE stdout ERROR_VARIABLE stderr RESULT_VARIABLE rc
                  TIMEOUT 240)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${program} ${ARGN} exited with ${rc}:\n${stdout}\n${stderr}")
  endif()
  set(${out} "${stdout}" PARENT_SCOPE)
endfunction()
