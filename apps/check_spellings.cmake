# Both apps accept the same spellings of the shared flags (names, aliases,
# list separators, size syntax, --kokkos-* forwarding), show defaults in
# --help, print --version, and refuse the same bad values naming the flag.
#   cmake -DDEMO=... -DBENCH=... -DKOKKOS_VERSION=4.6.99 -P check_spellings.cmake
set(bench_only --no-transfers --no-latency)
set(prog_demo ${DEMO})
set(prog_bench ${BENCH})
# A thread-count flag this Kokkos takes (4.x removed --kokkos-threads).
if(KOKKOS_VERSION VERSION_LESS 4.0)
  set(threads_flag --kokkos-threads=1)
else()
  set(threads_flag --kokkos-num-threads=1)
endif()
set(spellings
  "--n|2^12|--type|float|--config|range,team:auto|--repeat|1|--warmup|0|--seed|3"
  "--sizes=4096|--types=float|--configs=range, team:auto|--repeat=1|--warmup=0"
  "--n|4e3|--types|float,double|--configs|range team:auto|--repeat|1|${threads_flag}"
  "--sizes|4096|--types|int32 int64|--config|range:chunk=64,ilp=2,team:1x1|--repeat|1")
foreach(s IN LISTS spellings)
  string(REPLACE "|" ";" args "${s}")
  foreach(app demo bench)
    set(cmd ${prog_${app}} ${args})
    if(app STREQUAL "bench")
      list(APPEND cmd ${bench_only})
    endif()
    execute_process(COMMAND ${cmd} RESULT_VARIABLE rc OUTPUT_VARIABLE out
                    ERROR_VARIABLE err)
    if(NOT rc EQUAL 0)
      message(FATAL_ERROR "${app} rejects '${args}' (exit ${rc}):\n${err}")
    endif()
    if(err MATCHES "did not take")
      message(FATAL_ERROR "${app}: a --kokkos- flag was not forwarded:\n${err}")
    endif()
    message(STATUS "${app} accepts ${args}")
  endforeach()
endforeach()

foreach(app demo bench)
  execute_process(COMMAND ${prog_${app}} --help RESULT_VARIABLE rc OUTPUT_VARIABLE out)
  foreach(flag "--sizes,--n" "--types,--type" "--configs,--config" "--repeat"
          "--warmup" "--seed" "--json" "--version")
    string(FIND "${out}" "${flag}" at)
    if(NOT rc EQUAL 0 OR at EQUAL -1)
      message(FATAL_ERROR "${app} --help (exit ${rc}) lacks ${flag}:\n${out}")
    endif()
  endforeach()
  # --sizes: the demo tells the story of one size, the bench takes a list.
  string(FIND "${out}" "a list separated by commas or spaces" at_list)
  string(FIND "${out}" "number of elements, one size" at_one)
  if(app STREQUAL "demo" AND (NOT at_list EQUAL -1 OR at_one EQUAL -1))
    message(FATAL_ERROR "demo --help: --sizes takes one size, not a list:\n${out}")
  endif()
  if(app STREQUAL "bench" AND at_list EQUAL -1)
    message(FATAL_ERROR "bench --help: --sizes takes a list:\n${out}")
  endif()
  string(REGEX MATCHALL "\\(default: " defaults "${out}")
  list(LENGTH defaults ndefaults)
  if(ndefaults LESS 6)
    message(FATAL_ERROR "${app} --help shows ${ndefaults} defaults:\n${out}")
  endif()
  execute_process(COMMAND ${prog_${app}} --version RESULT_VARIABLE rc OUTPUT_VARIABLE out)
  if(NOT rc EQUAL 0 OR NOT out MATCHES "^addscope-(demo|bench) [0-9]+\\.[0-9]+\\.[0-9]+ \\(Kokkos [0-9]")
    message(FATAL_ERROR "${app} --version (exit ${rc}): ${out}")
  endif()
  foreach(bad "--n|0=>--n = '0'" "--sizes|1e99=>--sizes = '1e99'"
          "--repeat|0=>--repeat = 0" "--type|half=>--type = 'half'"
          "--configs|team:0x1=>--configs: launch configuration 'team:0x1'"
          "--configs|team:1x99999=>--configs: team size = 99999"
          "--config|range team:1x99999=>--config: team size = 99999")
    string(REPLACE "=>" ";" parts "${bad}")
    list(GET parts 0 args)
    list(GET parts 1 match)
    string(REPLACE "|" ";" args "${args}")
    execute_process(COMMAND ${prog_${app}} ${args} RESULT_VARIABLE rc
                    OUTPUT_VARIABLE out ERROR_VARIABLE err)
    string(FIND "${err}" "${match}" at)
    if(NOT rc EQUAL 2 OR at EQUAL -1 OR err MATCHES "\\.cpp:")
      message(FATAL_ERROR "${app} ${args}: exit ${rc}, want 2 and '${match}':\n${err}")
    endif()
  endforeach()
endforeach()
