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
      # the ctest check itself (tests/tools/check_waits.cmake), asynchronous
      cmake -DPROGRAM="$B/addscope-test-slow-read" -DTOOL="$HERE/lib/libaddscope_waits.so" \
        -DJSON="$OUT/slow_read_waits.json" -DASYNC=ON -P "$HERE/check_waits.cmake" \
        >"$OUT/tool.log" 2>&1; rc=$?
      cat "$OUT/tool.log"; echo "tool check rc=$rc"; [[ $rc -eq 0 ]] || status=1
      # per-event cost: the same uninstrumented program without and with the
      # tool (both variable names: Kokkos 3.x reads the first, 4.x the second)
      for i in 1 2 3; do
        "$B/addscope-test-event-overhead" 20000 2>&1 | sed 's/^/no tool:       /'
        KOKKOS_PROFILE_LIBRARY="$HERE/lib/libaddscope_null_tool.so" KOKKOS_TOOLS_LIBS="$HERE/lib/libaddscope_null_tool.so" \
          "$B/addscope-test-event-overhead" 20000 2>&1 | grep event_overhead | sed 's/^/null tool:     /'
        KOKKOS_PROFILE_LIBRARY="$HERE/lib/libaddscope_waits.so" KOKKOS_TOOLS_LIBS="$HERE/lib/libaddscope_waits.so" \
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
      # GPU machines may lack gnuplot: let the bench write the plot data and
      # script (plots.gp) through a stand-in, pack them, and render them on
      # a machine with gnuplot (cd plots && gnuplot plots.gp).
      shim="$(mktemp -d)"; printf '#!/bin/sh\nexit 0\n' >"$shim/gnuplot"; chmod +x "$shim/gnuplot"
      command -v gnuplot >/dev/null || export PATH="$PATH:$shim"
      plots="$(mktemp -d)/plots"
      "$B/addscope-bench" ${BENCH_ARGS:-} --json "$OUT/bench.json" --csv "$OUT/bench.csv" \
        --plot "$plots" >"$OUT/bench.txt" 2>"$OUT/bench.err"; echo "bench rc=$?"
      tar -C "$(dirname "$plots")" -czf "$OUT/plots.tgz" plots
      grep -A200 "== advice" "$OUT/bench.txt" | head -80 ;;
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
