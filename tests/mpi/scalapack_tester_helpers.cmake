# Included by the ScaLAPACK tester scripts (cmake -P).

# run_tester(out program np [VAR=value ...]): runs `program` on `np` ranks in WORK (where it reads
# its .dat files) with the extra environment given, fails the test on a non-zero exit, and returns
# the program's output in `out`.
function(run_tester out program np)
  execute_process(COMMAND ${CMAKE_COMMAND} -E env ${ARGN} ${MPIEXEC} --oversubscribe ${NUMPROC_FLAG} ${np} ${program}
                  WORKING_DIRECTORY ${WORK} OUTPUT_VARIABLE stdout ERROR_VARIABLE stderr RESULT_VARIABLE rc
                  TIMEOUT 240)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${program} ${ARGN} exited with ${rc}:\n${stdout}\n${stderr}")
  endif()
  set(${out} "${stdout}" PARENT_SCOPE)
endfunction()

# check_redist_log(out log np context routine...): fails the test (naming `context`) unless redist's
# call log `log` (REDIST_SCALAPACK_LOG) exists, refuses no call, and has a line of each routine
# (a regular expression) from each of ranks 0 to np - 1; its lines go to `out`.
function(check_redist_log out log np context)
  if(NOT EXISTS ${log})
    message(FATAL_ERROR "${context}: no ${log}: the calls did not reach redist")
  endif()
  file(STRINGS ${log} lines)
  foreach(line IN LISTS lines)
    if(line MATCHES "refused")
      message(FATAL_ERROR "${context}: redist refused a call ScaLAPACK answered: ${line}")
    endif()
  endforeach()
  math(EXPR last_rank "${np} - 1")
  foreach(routine IN LISTS ARGN)
    foreach(rank RANGE ${last_rank})
      set(mine ${lines})
      list(FILTER mine INCLUDE REGEX "^redist ${routine} rank ${rank} ")
      if(NOT mine)
        message(FATAL_ERROR "${context}: ${log} has no ${routine} line of rank ${rank}")
      endif()
    endforeach()
  endforeach()
  set(${out} "${lines}" PARENT_SCOPE)
endfunction()
