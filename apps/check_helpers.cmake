# Helpers for the apps' ctest scripts. CHECK_OUTPUT holds the program's
# standard output; numbers are compared through awk (CMake has no floats).

# The output contains / does not contain `text`.
function(need text)
  string(FIND "${CHECK_OUTPUT}" "${text}" pos)
  if(pos EQUAL -1)
    message(FATAL_ERROR "output lacks '${text}'")
  endif()
endfunction()
function(never text)
  string(FIND "${CHECK_OUTPUT}" "${text}" pos)
  if(NOT pos EQUAL -1)
    message(FATAL_ERROR "output says '${text}', which its numbers do not support")
  endif()
endfunction()

# a == b within a relative 1e-9 (a and b are awk expressions).
function(near what a b)
  execute_process(COMMAND awk "BEGIN { a = ${a}; b = ${b}; d = a - b; if (d < 0) d = -d;
                       m = (a < 0 ? -a : a); if ((b < 0 ? -b : b) > m) m = (b < 0 ? -b : b);
                       exit (d <= 1e-9 * m + 1e-12) ? 0 : 1 }" RESULT_VARIABLE r)
  if(NOT r EQUAL 0)
    message(FATAL_ERROR "${what}: ${a} != ${b}")
  endif()
endfunction()

# a >= b.
function(at_least what a b)
  execute_process(COMMAND awk "BEGIN { exit (${a} >= ${b}) ? 0 : 1 }" RESULT_VARIABLE r)
  if(NOT r EQUAL 0)
    message(FATAL_ERROR "${what}: ${a} < ${b}")
  endif()
endfunction()

# Sets `var` to the JSON value at the path, or to "null" for a JSON null.
function(json_get var doc)
  string(JSON type TYPE "${doc}" ${ARGN})
  if(type STREQUAL "NULL")
    set(${var} null PARENT_SCOPE)
  else()
    string(JSON value GET "${doc}" ${ARGN})
    set(${var} "${value}" PARENT_SCOPE)
  endif()
endfunction()

# A GB/s and its % of the DRAM peak: GB/s = bytes / median; the % is null
# exactly where the peak is (unknown), else 100 GB/s / peak.
function(check_rate what gbps bytes median pct peak)
  near("${what}: GB/s = bytes / median" "${gbps}" "${bytes} / ${median} * 1e-9")
  if(peak STREQUAL "null")
    if(NOT pct STREQUAL "null")
      message(FATAL_ERROR "${what}: % of an unknown peak = ${pct}")
    endif()
  else()
    near("${what}: % of the DRAM peak" "${pct}" "100 * ${gbps} / ${peak}")
  endif()
endfunction()
