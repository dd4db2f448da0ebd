# Runs PROGRAM with ARGS ('|'-separated) and checks that it exits with exactly
# EXPECTED, that a failure says so on stderr, that the output contains MATCH
# (if given), and that an error is written for users: no source location, no
# doubled prefix.
#   cmake -DPROGRAM=... -DEXPECTED=2 "-DARGS=--repeat|0" "-DMATCH=--repeat = 0" -P check_exit.cmake
string(REPLACE "|" ";" _args "${ARGS}")
execute_process(COMMAND ${PROGRAM} ${_args}
  RESULT_VARIABLE _rc OUTPUT_VARIABLE _out ERROR_VARIABLE _err TIMEOUT 100)
message(STATUS "${PROGRAM} ${_args}\n-> exit ${_rc}\nstdout: ${_out}\nstderr: ${_err}")
if(NOT "${_rc}" STREQUAL "${EXPECTED}")
  message(FATAL_ERROR "expected exit status ${EXPECTED}, got '${_rc}'")
endif()
if(NOT "${MATCH}" STREQUAL "")
  string(FIND "${_out}${_err}" "${MATCH}" _at)
  if(_at EQUAL -1)
    message(FATAL_ERROR "output does not mention '${MATCH}'")
  endif()
endif()
if(NOT "${EXPECTED}" STREQUAL "0" AND "${_err}" STREQUAL "")
  message(FATAL_ERROR "exit ${_rc} without a message on stderr")
endif()
if(_err MATCHES "\\.(cpp|hpp):[0-9]+" OR _err MATCHES ": error: addscope:"
   OR _err MATCHES "addscope: addscope")
  message(FATAL_ERROR "a message written for developers: ${_err}")
endif()
