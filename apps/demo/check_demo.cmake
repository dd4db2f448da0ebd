file(REMOVE ${JSON})
execute_process(COMMAND ${DEMO} --n 100000 --repeat 3 --config range team:auto blas
                        --json ${JSON}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
message("${out}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "demo failed (${rc}): ${err}")
endif()
foreach(s "1. The naive sequence" "2. With a fence" "Conclusion:" "All results verified")
  string(FIND "${out}" "${s}" pos)
  if(pos EQUAL -1)
    message(FATAL_ERROR "output lacks '${s}'")
  endif()
endforeach()
file(READ ${JSON} j)
string(JSON n GET "${j}" n)
string(JSON verified GET "${j}" verified)
string(JSON label GET "${j}" seed label)
string(JSON launch GET "${j}" seed naive launch_s)
string(JSON read GET "${j}" seed fenced read_s)
string(JSON ncfg LENGTH "${j}" configs)
string(JSON gbps GET "${j}" configs 0 gbps_median)
string(JSON ntr LENGTH "${j}" transfers)
if(NOT n EQUAL 100000 OR NOT verified OR NOT label STREQUAL "addscope::add[team:1x1]"
   OR NOT ncfg EQUAL 3 OR ntr LESS 2 OR NOT gbps GREATER 0 OR NOT launch GREATER 0
   OR NOT read GREATER 0)
  message(FATAL_ERROR "unexpected JSON: n=${n} verified=${verified} label=${label} "
                      "configs=${ncfg} transfers=${ntr} gbps=${gbps}")
endif()
