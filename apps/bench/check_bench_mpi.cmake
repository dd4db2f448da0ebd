# Runs the bench across MPI ranks (--quick) and checks that its numbers
# follow from what it measured, recomputed here from the JSON: each rank's
# alone rate is its bytes over its median; the single-rank rate is their
# mean; each run's job time covers every rank's own time; the aggregate is
# all ranks' bytes over the median job time; efficiency = aggregate /
# (ranks x single-rank rate); the slowest rank has the largest median; every
# add was verified on all elements of all ranks.
# With -DSIZES=2^28 (one size; float) the sweep is that size only, and
# -DMIN_EFFICIENCY=0.95 also requires the add with the highest aggregate
# rate to reach that weak-scaling efficiency (the GPU
# machine's bar; printed either way).
#   cmake -DMPIEXEC="mpiexec|--oversubscribe|..." -DNP_FLAG=-n -DRANKS=2
#         -DBENCH=... -DJSON=... -DCSV=... [-DSIZES=2^28]
#         [-DMIN_EFFICIENCY=0.95] -P check_bench_mpi.cmake
include(${CMAKE_CURRENT_LIST_DIR}/../check_helpers.cmake)
string(REPLACE "|" ";" MPIEXEC "${MPIEXEC}")
file(REMOVE ${JSON} ${CSV})
if(DEFINED SIZES)
  set(sweep --sizes ${SIZES} --types float)
  set(min_rows 2)  # the add and the staging
  set(min_adds 1)
else()
  set(sweep --max-log2 20)
  set(min_rows 10)
  set(min_adds 5)
endif()
execute_process(COMMAND ${MPIEXEC} ${NP_FLAG} ${RANKS} ${BENCH} --quick
                        ${sweep} --json ${JSON} --csv ${CSV}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
message("${out}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "bench across ${RANKS} ranks failed (${rc}): ${err}")
endif()
set(CHECK_OUTPUT "${out}")
need("addscope-bench across ${RANKS} MPI ranks: weak scaling")
need("efficiency = aggregate / (ranks x single-rank rate)")
if(NOT EXISTS ${CSV})
  message(FATAL_ERROR "no CSV written")
endif()

file(READ ${JSON} j)
string(JSON ranks GET "${j}" mpi ranks)
string(JSON fails GET "${j}" verify_failures)
string(JSON nrows LENGTH "${j}" rows)
if(NOT ranks EQUAL RANKS OR NOT fails EQUAL 0 OR nrows LESS min_rows)
  message(FATAL_ERROR "ranks=${ranks} verify_failures=${fails} rows=${nrows}")
endif()
math(EXPR last_row "${nrows} - 1")
math(EXPR last_rank "${RANKS} - 1")
set(adds 0)
set(best_agg 0)
set(best_eff 0)
set(best_what "")
foreach(i RANGE ${last_row})
  string(JSON row GET "${j}" rows ${i})
  string(JSON what GET "${row}" what)
  string(JSON n GET "${row}" n_per_rank)
  string(JSON bytes GET "${row}" bytes_per_rank)
  string(JSON rr GET "${row}" ranks)
  string(JSON single GET "${row}" single_rank_gbps)
  string(JSON agg GET "${row}" aggregate_gbps)
  string(JSON eff GET "${row}" efficiency)
  string(JSON tg GET "${row}" together)
  string(JSON btot GET "${tg}" bytes_total)
  string(JSON ntot GET "${tg}" n_total)
  string(JSON jobmed GET "${tg}" job median_s)
  string(JSON slowest GET "${tg}" slowest_rank)
  string(JSON nruns LENGTH "${tg}" runs_s)
  set(where "row ${i} (${what}, N = ${n} per rank)")
  if(NOT rr EQUAL RANKS)
    message(FATAL_ERROR "${where}: ranks ${rr}")
  endif()
  math(EXPR want_b "${bytes} * ${RANKS}")
  math(EXPR want_n "${n} * ${RANKS}")
  if(NOT btot EQUAL want_b OR NOT ntot EQUAL want_n)
    message(FATAL_ERROR "${where}: bytes_total ${btot} (want ${want_b}), n_total ${ntot} (want ${want_n})")
  endif()
  if(what STREQUAL "add")
    math(EXPR adds "${adds} + 1")
    math(EXPR want_bytes "3 * ${n} * 4")
    string(JSON checked GET "${row}" check checked_elements)
    string(JSON wrong GET "${row}" check mismatches)
    if(NOT bytes EQUAL want_bytes OR NOT checked EQUAL want_n OR NOT wrong EQUAL 0)
      message(FATAL_ERROR "${where}: bytes ${bytes} (want ${want_bytes}), checked ${checked} of ${want_n}, wrong ${wrong}")
    endif()
    execute_process(COMMAND awk "BEGIN { exit (${agg} > ${best_agg}) ? 0 : 1 }"
                    RESULT_VARIABLE better)
    if(better EQUAL 0)
      set(best_agg ${agg})
      set(best_eff ${eff})
      string(JSON cfg GET "${row}" label)
      set(best_what "${cfg}, N = ${n} per rank")
    endif()
  endif()
  # Alone: bytes / median per rank; the single-rank rate is their mean.
  set(sum 0)
  foreach(q RANGE ${last_rank})
    string(JSON g GET "${row}" alone ${q} gbps)
    string(JSON m GET "${row}" alone ${q} completion median_s)
    near("${where}: rank ${q} alone = bytes / median" "${g}" "${bytes} / ${m} / 1e9")
    set(sum "${sum} + ${g}")
  endforeach()
  near("${where}: single-rank rate = mean of the alone rates" "${single}" "(${sum}) / ${RANKS}")
  # Each run: its job time (span) covers every rank's own time; the job's
  # median is the median of the spans; the aggregate divides all bytes by it.
  math(EXPR lr "${nruns} - 1")
  set(spans "")
  foreach(k RANGE ${lr})
    string(JSON sp GET "${tg}" span_s ${k})
    list(APPEND spans ${sp})
    foreach(q RANGE ${last_rank})
      string(JSON t GET "${tg}" runs_s ${k} ${q})
      at_least("${where}: run ${k} covers rank ${q}" "${sp}" "${t}")
    endforeach()
  endforeach()
  string(REPLACE ";" " " spans "${spans}")
  execute_process(COMMAND sh -c "printf '%s\\n' ${spans} | sort -g | awk '{ a[NR] = $1 } END { m = (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2; printf \"%.17g\", m }'"
                  OUTPUT_VARIABLE med)
  near("${where}: job median = median of the runs' spans" "${jobmed}" "${med}")
  near("${where}: aggregate = all bytes / job median" "${agg}" "${btot} / ${jobmed} / 1e9")
  near("${where}: efficiency = aggregate / (ranks x single)" "${eff}" "${agg} / (${RANKS} * ${single})")
  # The slowest rank has the largest median.
  string(JSON sm GET "${tg}" per_rank ${slowest} median_s)
  foreach(q RANGE ${last_rank})
    string(JSON m GET "${tg}" per_rank ${q} median_s)
    at_least("${where}: slowest rank ${slowest} vs rank ${q}" "${sm}" "${m}")
  endforeach()
endforeach()
if(adds LESS min_adds)
  message(FATAL_ERROR "only ${adds} add rows")
endif()
execute_process(COMMAND awk "BEGIN { printf \"%.1f\", 100 * ${best_eff} }"
                OUTPUT_VARIABLE best_pct)
execute_process(COMMAND awk "BEGIN { printf \"%.1f\", ${best_agg} }"
                OUTPUT_VARIABLE best_agg_text)
message("weak scaling: the add with the highest aggregate rate (${best_what}): "
        "${best_agg_text} GB/s on ${RANKS} ranks, efficiency ${best_pct}%")
if(DEFINED MIN_EFFICIENCY)
  execute_process(COMMAND awk "BEGIN { printf \"%.1f\", 100 * ${MIN_EFFICIENCY} }"
                  OUTPUT_VARIABLE want_pct)
  at_least("weak-scaling efficiency ${best_pct}% vs the target ${want_pct}%"
           "${best_eff}" "${MIN_EFFICIENCY}")
  message("weak scaling: efficiency ${best_pct}% >= target ${want_pct}%: met")
endif()
