# Every field the apps write into their --json files is documented in
# docs/json.md: runs addscope-demo and addscope-bench (short runs), walks
# every key of every object of both JSON documents, and fails naming each
# key that the documentation's section for its object does not list.
#
# docs/json.md's format, which this script reads: a heading (or a line
# beginning "At: " under it) names the object(s) the section documents in
# backticks, as paths from the program's name (`addscope-demo`,
# `addscope-demo.runs[]`, `addscope-bench.rows[].phases`; `[]` is "every
# element of the array"); the rows of the tables under it name one field
# each in their first cell (`name`).
#   cmake -DDEMO=... -DBENCH=... -DDOC=docs/json.md -DOUT=dir [-DJSON_FILES=a.json;b.json]
#     -P check_json_documented.cmake
# JSON_FILES: check these documents (named <program>*.json) instead of running.
cmake_minimum_required(VERSION 3.19)

# ---- the documentation: section paths -> documented keys ------------------
file(STRINGS "${DOC}" _lines)
set(_paths "")
set(_sections 0)
foreach(_line IN LISTS _lines)
  if(_line MATCHES "^#")
    string(REGEX MATCHALL "`addscope-(demo|bench)[^`]*`" _heads "${_line}")
    set(_current "")
    foreach(_h IN LISTS _heads)
      string(REPLACE "`" "" _h "${_h}")
      list(APPEND _current "${_h}")
      list(APPEND _paths "${_h}")
    endforeach()
    if(_current)
      math(EXPR _sections "${_sections} + 1")
    endif()
  elseif(_line MATCHES "^At: ")
    string(REGEX MATCHALL "`addscope-(demo|bench)[^`]*`" _heads "${_line}")
    foreach(_h IN LISTS _heads)
      string(REPLACE "`" "" _h "${_h}")
      list(APPEND _current "${_h}")
      list(APPEND _paths "${_h}")
    endforeach()
  elseif(_current AND _line MATCHES "^\\| *`([^`]+)`")
    foreach(_p IN LISTS _current)
      list(APPEND "_doc:${_p}" "${CMAKE_MATCH_1}")
    endforeach()
  endif()
endforeach()
if(_sections LESS 5)
  message(FATAL_ERROR "${DOC}: ${_sections} sections name an object; is the format above kept?")
endif()

# ---- the JSON documents ----------------------------------------------------
if(NOT JSON_FILES)
  file(MAKE_DIRECTORY "${OUT}")
  set(_demo_json "${OUT}/addscope-demo.json")
  set(_bench_json "${OUT}/addscope-bench.json")
  file(REMOVE "${_demo_json}" "${_bench_json}")
  foreach(_cmd
      "${DEMO};--n;1e4;--repeat;2;--warmup;0;--reads;2;--configs;range,team:auto,blas;--json;${_demo_json}"
      "${BENCH};--quick;--max-log2;16;--json;${_bench_json}")
    execute_process(COMMAND ${_cmd} RESULT_VARIABLE _rc OUTPUT_VARIABLE _o
                    ERROR_VARIABLE _e TIMEOUT 200)
    if(NOT _rc EQUAL 0)
      message(FATAL_ERROR "${_cmd}: exit ${_rc}\n${_o}\n${_e}")
    endif()
  endforeach()
  set(JSON_FILES "${_demo_json};${_bench_json}")
endif()

set_property(GLOBAL PROPERTY json_seen "")
set_property(GLOBAL PROPERTY json_missing "")
set_property(GLOBAL PROPERTY json_keys 0)

# Walks `doc` (an object or array found at `path`), checking every key.
function(walk doc path)
  string(JSON _type TYPE "${doc}")
  if(_type STREQUAL "ARRAY")
    string(JSON _len LENGTH "${doc}")
    if(_len EQUAL 0)
      return()
    endif()
    math(EXPR _last "${_len} - 1")
    foreach(_i RANGE ${_last})
      string(JSON _t TYPE "${doc}" ${_i})
      if(_t STREQUAL "OBJECT" OR _t STREQUAL "ARRAY")
        string(JSON _v GET "${doc}" ${_i})
        walk("${_v}" "${path}[]")
      endif()
    endforeach()
  elseif(_type STREQUAL "OBJECT")
    string(JSON _len LENGTH "${doc}")
    if(_len EQUAL 0)
      return()
    endif()
    math(EXPR _last "${_len} - 1")
    foreach(_i RANGE ${_last})
      string(JSON _key MEMBER "${doc}" ${_i})
      get_property(_seen GLOBAL PROPERTY json_seen)
      if(NOT "${path}.${_key}" IN_LIST _seen)
        set_property(GLOBAL APPEND PROPERTY json_seen "${path}.${_key}")
        get_property(_n GLOBAL PROPERTY json_keys)
        math(EXPR _n "${_n} + 1")
        set_property(GLOBAL PROPERTY json_keys ${_n})
        if(NOT "${path}" IN_LIST _paths)
          set_property(GLOBAL APPEND PROPERTY json_missing
                       "${path}.${_key} (no section names `${path}`)")
        elseif(NOT "${_key}" IN_LIST "_doc:${path}")
          set_property(GLOBAL APPEND PROPERTY json_missing
                       "${path}.${_key} (the section of `${path}` lacks `${_key}`)")
        endif()
      endif()
      string(JSON _t TYPE "${doc}" "${_key}")
      if(_t STREQUAL "OBJECT" OR _t STREQUAL "ARRAY")
        string(JSON _v GET "${doc}" "${_key}")
        walk("${_v}" "${path}.${_key}")
      endif()
    endforeach()
  endif()
endfunction()

foreach(_f IN LISTS JSON_FILES)
  get_filename_component(_name "${_f}" NAME)
  if(_name MATCHES "^(addscope-(demo|bench))")
    set(_root "${CMAKE_MATCH_1}")
  else()
    message(FATAL_ERROR "${_f}: name it addscope-demo*.json or addscope-bench*.json")
  endif()
  file(READ "${_f}" _doc)
  walk("${_doc}" "${_root}")
endforeach()

get_property(_n GLOBAL PROPERTY json_keys)
get_property(_missing GLOBAL PROPERTY json_missing)
list(LENGTH _missing _nm)
if(_nm GREATER 0)
  string(REPLACE ";" "\n  " _list "${_missing}")
  message(FATAL_ERROR "${_nm} of ${_n} fields written by the apps are not documented in ${DOC}:\n  ${_list}")
endif()
if(_n LESS 100)
  message(FATAL_ERROR "only ${_n} fields walked: did the apps write their JSON?")
endif()
message(STATUS "all ${_n} fields (object path + key) of ${JSON_FILES} are documented in ${DOC}")
