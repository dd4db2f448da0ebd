#!/usr/bin/env bash
# Runs the bundled CUDA programs (see cuda-bundle.sh) on a GPU machine;
# logs go to $OUT (default ./logs). Steps: unit tool demo probe bench
# bench-full sanitize.
set -uo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
OUT="${OUT:-$PWD/logs}"; mkdir -p "$OUT"
export LD_LIBRARY_PATH="$HERE/lib:${LD_LIBRARY_PATH:-}"
export OMP_PROC_BIND=false OMP_NUM_THREADS="${OMP_NUM_THREADS:-8}"
B="$HERE/bin"
[[ $# -gt 0 ]] || set -- unit tool demo
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.mem --format=csv 2>&1 | tee "$OUT/gpu.txt"
status=0
for step in "$@"; do
  echo "=== $step"
  case "$step" in
    unit)
      "$B/addscope-unit-tests" --gtest_brief=1 >"$OUT/unit.log" 2>&1; rc=$?
      tail -3 "$OUT/unit.log"
      grep -E "^\[  (PASSED|FAILED) |tests? from .* ran|FAILED|Failure" "$OUT/unit.log" | head -40
      echo "unit rc=$rc"; [[ $rc -eq 0 ]] || status=1 ;;
    tool)
      KOKKOS_PROFILE_LIBRARY="$HERE/lib/libaddscope_waits.so" \
      KOKKOS_TOOLS_LIBS="$HERE/lib/libaddscope_waits.so" \
      ADDSCOPE_WAITS_JSON="$OUT/slow_read_waits.json" \
        "$B/addscope-test-slow-read" >"$OUT/tool.log" 2>&1; rc=$?
      cat "$OUT/tool.log"; echo "tool rc=$rc"; [[ $rc -eq 0 ]] || status=1
      # per-event cost: the same uninstrumented program without and with the tool
      for i in 1 2 3; do
        "$B/addscope-test-event-overhead" 20000 2>&1 | sed 's/^/no tool:       /'
        KOKKOS_PROFILE_LIBRARY="$HERE/lib/libaddscope_null_tool.so" \
          "$B/addscope-test-event-overhead" 20000 2>&1 | grep event_overhead | sed 's/^/null tool:     /'
        KOKKOS_PROFILE_LIBRARY="$HERE/lib/libaddscope_waits.so" \
          "$B/addscope-test-event-overhead" 20000 2>&1 | grep event_overhead | sed 's/^/addscope_waits: /'
      done | tee -a "$OUT/tool.log" ;;
    demo)
      "$B/addscope-demo" --json "$OUT/demo.json" >"$OUT/demo.txt" 2>&1; rc=$?
      for ty in double int32; do
        "$B/addscope-demo" --type $ty --repeat 5 >>"$OUT/demo.txt" 2>&1 || rc=1
      done
      cat "$OUT/demo.txt"; echo "demo rc=$rc"; [[ $rc -eq 0 ]] || status=1 ;;
    probe)
      "$B/addscope-range-probe" 0 24 28 >"$OUT/range_probe.txt" 2>&1; cat "$OUT/range_probe.txt" ;;
    bench)
      [[ -x "$B/addscope-bench" ]] || { echo "no bench"; continue; }
      "$B/addscope-bench" --quick --json "$OUT/bench_quick.json" >"$OUT/bench_quick.txt" 2>&1
      echo "bench rc=$?"; tail -40 "$OUT/bench_quick.txt" ;;
    bench-full)
      [[ -x "$B/addscope-bench" ]] || { echo "no bench"; continue; }
      mkdir -p "$OUT/plots"
      "$B/addscope-bench" ${BENCH_ARGS:-} --json "$OUT/bench.json" --csv "$OUT/bench.csv" \
        >"$OUT/bench.txt" 2>"$OUT/bench.err"; echo "bench rc=$?"; tail -60 "$OUT/bench.txt" ;;
    sanitize)
      for tool in memcheck racecheck; do
        compute-sanitizer --tool $tool --print-limit 20 "$B/addscope-unit-tests" \
          --gtest_brief=1 --gtest_filter="${SAN_FILTER:-*Cuda*}" >"$OUT/sanitize_$tool.log" 2>&1
        echo "$tool rc=$?"; grep -E "ERROR SUMMARY|PASSED|FAILED" "$OUT/sanitize_$tool.log" | tail -5
      done ;;
    *) echo "unknown step $step"; status=2 ;;
  esac
done
exit $status
