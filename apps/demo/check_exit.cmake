# Runs PROGRAM with ARGS (a ;-list) and requires exit code EXPECT and a
# message on stderr.
execute_process(COMMAND ${PROGRAM} ${ARGS} RESULT_VARIABLE rc
                OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT "${rc}" STREQUAL "${EXPECT}")
  message(FATAL_ERROR "'${ARGS}': exit '${rc}', expected ${EXPECT}\n${out}\n${err}")
endif()
string(STRIP "${err}" err)
if(err STREQUAL "")
  message(FATAL_ERROR "'${ARGS}': exit ${rc} but no message on stderr")
endif()
message("'${ARGS}' -> exit ${rc}: ${err}")
