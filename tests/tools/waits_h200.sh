#!/usr/bin/env bash
# The waits tool on a GPU, every case and every overhead figure in one go,
# for each Kokkos flavour bundled (cmake/cuda-bundle.sh): the checks of
# tests/tools (device timestamps and, for two cases, without CUPTI; the
# faults, exits and soak cases too when addscope-test-faults is bundled), the
# library's in-process front door (unit tests), programs nobody here wrote
# when bundled (bin/babelstream-kokkos, bin/kokkos-stream,
# bin/kokkos-thread-teams-lambda: cmake/external-programs.sh), and the
# tool's cost: tests/perf/waits_cost.sh on the flavour (no tool / empty
# tool / waits tool / kokkos-tools' kernel timer when bundled, ROUNDS
# interleaved rounds, default 5; the CUPTI floor beside it), its table in
# the summary, its CSV and log in waits_checks.tgz (cost_FLAVOUR/).
# Ends with a summary table.
#   OUT=logs bash waits_h200.sh BUNDLE_DIR [FLAVOUR_DIR...]
# WAITS_OVERHEAD=0 skips the cost runs (the checks alone: ~30 s per
# flavour).
# A flavour dir holds bin/ (the programs) and optionally lib/, and libpath
# (a CUDA 12/13 build: the folder of the machine's CUDA runtime and CUPTI,
# e.g. /usr/local/cuda/lib64, put first for that flavour); BUNDLE_DIR's lib/
# holds libaddscope_waits.so, libaddscope_null_tool.so and the CUDA 11.8
# runtime + CUPTI (carried: the tool is Kokkos-free, one build serves all
# flavours).
set -uo pipefail
B="$(cd "${1:?usage: waits_h200.sh BUNDLE_DIR [FLAVOUR_DIR...]}" && pwd)"
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
shift
[[ $# -gt 0 ]] || set -- "$B"
OUT="${OUT:-$PWD/logs}"
mkdir -p "$OUT/checks"
TOOL="$B/lib/libaddscope_waits.so"
export LD_LIBRARY_PATH="$B/lib:${LD_LIBRARY_PATH:-}"
export OMP_PROC_BIND=false OMP_NUM_THREADS="${OMP_NUM_THREADS:-8}"
summary="$OUT/waits_summary.txt"
: >"$summary"
status=0

base_ld_path="$LD_LIBRARY_PATH"
for F in "$@"; do
  F="$(cd "$F" && pwd)"
  name="$(basename "$F")"
  [[ "$F" == "$B" ]] && name="kokkos-3.4"
  [[ -f "$F/flavour" ]] && name="$(cat "$F/flavour")"
  lp="$F/lib:"; [[ -f "$F/libpath" ]] && lp+="$(cat "$F/libpath"):"
  export LD_LIBRARY_PATH="$lp$B/lib:$base_ld_path"
  bin="$F/bin"
  log="$OUT/waits_${name}.log"
  : >"$log"
  echo "=== $name ($bin)" | tee -a "$log"
  out="$OUT/checks/$name"
  mkdir -p "$out"
  chk="$B/bin/addscope-waits-check"
  run_case() {  # case expect program args...
    timeout 180 "$chk" "$1" "$2" "$TOOL" "$out" "$bin/$3" "${@:4}" >>"$log" 2>&1
    local rc=$?
    grep -A20 "^== $1 ($2)" "$log" | grep -E "FAIL|SUMMARY" | sed "s/^/  /" | tail -8
    [[ $rc -eq 0 ]] || status=1
    grep "^SUMMARY $1 " "$log" | tail -1 | sed "s/^SUMMARY /$name  /" >>"$summary"
  }
  run_case seed device addscope-test-slow-read
  run_case overlap device addscope-test-overlap 10000000 1000
  run_case two_instances device addscope-test-two-instances
  run_case stream_fenced device addscope-test-stream-fenced 10000000 100
  run_case region_wait device addscope-test-region-wait
  run_case two_threads device addscope-test-two-threads
  run_case shape_starved device addscope-test-shape-starved
  run_case shape_healthy device addscope-test-shape-healthy 100000000 10
  run_case shape_plain_add device addscope-test-shape-plain-add 10000000 20
  run_case wait_scope device addscope-test-wait-scope
  run_case idle_loop device addscope-test-idle-patterns loop
  run_case idle_host_bound device addscope-test-idle-patterns host_bound
  run_case idle_launch_bound device addscope-test-idle-patterns launch_bound
  run_case idle_streaming device addscope-test-idle-patterns streaming
  run_case seed kokkos-only addscope-test-slow-read
  run_case overlap kokkos-only addscope-test-overlap 10000000 1000
  # The other cases of tests/tools/CMakeLists.txt, with ctest's arguments,
  # when bundled: what real programs do to a tool (tests/tools/faults.cpp),
  # the exits, unwritable outputs, and the 10^6-kernel soak (one thread).
  if [[ -x "$bin/addscope-test-faults" ]]; then
    run_case faults_regions device addscope-test-faults regions 10000
    run_case faults_throw device addscope-test-faults throw
    run_case faults_names device addscope-test-faults names 100000
    run_case faults_threads device addscope-test-faults threads 16
    run_case faults_unfenced device addscope-test-faults unfenced 1000
    run_case host_only host addscope-test-faults host_only
    run_case exit_return device addscope-test-faults exit_return
    run_case exit_exit device addscope-test-faults exit_exit
    run_case exit_quick device addscope-test-faults exit_quick
    run_case exit_abort device addscope-test-faults exit_abort
    run_case bad_paths device addscope-test-faults plain
  fi
  if [[ -x "$bin/addscope-test-soak" ]]; then
    OMP_NUM_THREADS=1 run_case soak device addscope-test-soak 1000000 10 1000
  fi
  if [[ -x "$bin/babelstream-kokkos" ]]; then
    run_case external_babelstream device babelstream-kokkos --arraysize 10000000 --numtimes 100
  fi
  # Kokkos' own STREAM benchmark and hierarchical-parallelism tutorial, when
  # bundled (built from the Kokkos sources of the flavour, not kept here).
  if [[ -x "$bin/kokkos-stream" ]]; then
    run_case external_healthy device kokkos-stream
  fi
  if [[ -x "$bin/kokkos-thread-teams-lambda" ]]; then
    run_case external_tutorial device kokkos-thread-teams-lambda
  fi

  # The library's front door (measure_seed_sequence), in-process CUPTI.
  if [[ -x "$bin/addscope-unit-tests" ]]; then
    timeout 300 "$bin/addscope-unit-tests" --gtest_brief=1 \
      --gtest_filter='*Timing*:*Waits*:*SyncTracker*' >>"$log" 2>&1
    rc=$?
    echo "  front door unit tests rc=$rc" | tee -a "$log"
    printf '%-11s front-door unit tests (Timing, Waits): %s\n' "$name" \
      "$([[ $rc -eq 0 ]] && echo PASS || echo FAIL)" >>"$summary"
    [[ $rc -eq 0 ]] || status=1
  fi

  [[ "${WAITS_OVERHEAD:-1}" == 0 ]] && continue
  # ---- the tool's cost: tests/perf/waits_cost.sh (beside this script in the
  # bundle), ROUNDS interleaved rounds; its table goes into the summary.
  cost_sh="$HERE/waits_cost.sh"
  [[ -f "$cost_sh" ]] || cost_sh="$HERE/../perf/waits_cost.sh"
  kt=()
  [[ -f "$B/lib/kp_kernel_timer.so" ]] && kt=(--kt-lib "$B/lib/kp_kernel_timer.so")
  echo "  cost: bash $cost_sh $F ${kt[*]} (OUT=$OUT/cost_$name)" | tee -a "$log"
  OUT="$OUT/cost_$name" bash "$cost_sh" "$F" "${kt[@]}" >>"$log" 2>&1 || status=1
  if [[ -f "$OUT/cost_$name/waits_cost.txt" ]]; then
    { echo "$name cost:"; cat "$OUT/cost_$name/waits_cost.txt"; echo; } | tee -a "$log" >>"$summary"
  else
    echo "$name cost: FAILED (no table; see $log)" | tee -a "$log" >>"$summary"
  fi
done

# (the cost runs' CSV and logs go into the same archive: few files come back)
costs=()
for c in "$OUT"/cost_*; do [[ -d "$c" ]] && costs+=("$(basename "$c")"); done
tar -C "$OUT" -czf "$OUT/waits_checks.tgz" checks "${costs[@]}" && rm -rf "$OUT/checks" "${costs[@]/#/$OUT/}"
echo
echo "===== waits summary"
cat "$summary"
exit $status
