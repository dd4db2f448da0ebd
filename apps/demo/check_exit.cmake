# Runs PROGRAM with ARGS (a ;-list) and requires exit code EXPECT, a message
# on stderr that contains MATCH (if given), and none of what users should not
# see: a source location, or the program's name twice.
execute_process(COMMAND ${PROGRAM} ${ARGS} RESULT_VARIABLE rc
                OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT "${rc}" STREQUAL "${EXPECT}")
  message(FATAL_ERROR "'${ARGS}': exit '${rc}', expected ${EXPECT}\n${out}\n${err}")
endif()
string(STRIP "${err}" err)
if(err STREQUAL "")
  message(FATAL_ERROR "'${ARGS}': exit ${rc} but no message on stderr")
endif()
if(NOT "${MATCH}" STREQUAL "")
  string(FIND "${err}" "${MATCH}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "'${ARGS}': the message does not name '${MATCH}':\n${err}")
  endif()
endif()
if(err MATCHES "\\.(cpp|hpp):[0-9]+" OR err MATCHES ": error: addscope:"
   OR err MATCHES "addscope: addscope")
  message(FATAL_ERROR "'${ARGS}': a message written for developers:\n${err}")
endif()
message("'${ARGS}' -> exit ${rc}: ${err}")
