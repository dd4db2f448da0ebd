#!/usr/bin/env bash
# Runs the bundled CUDA programs (see cuda-bundle.sh) on a GPU machine;
# logs go to $OUT (default ./logs). Steps: unit waits (alias tool) shapes demo
# probe readprobe bench bench-full bench-host sanitize. Exits non-zero if
# any step failed.
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
    shapes)
      # the waits tool's checks alone (every case, launch shapes included),
      # no overhead runs: tests/tools/waits_h200.sh with WAITS_OVERHEAD=0
      flavours=("$HERE")
      for f in "$HERE"/*/flavour; do [[ -f "$f" ]] && flavours+=("$(dirname "$f")"); done
      WAITS_OVERHEAD=0 OUT="$OUT" bash "$HERE/waits_h200.sh" "$HERE" "${flavours[@]}"; rc=$?
      echo "shapes rc=$rc"; [[ $rc -eq 0 ]] || status=1 ;;
    tool|waits)
      # the waits tool: every case checked, its overhead, a summary table
      # (tests/tools/waits_h200.sh), for each bundled Kokkos flavour
      flavours=("$HERE")
      for f in "$HERE"/*/flavour; do [[ -f "$f" ]] && flavours+=("$(dirname "$f")"); done
      OUT="$OUT" bash "$HERE/waits_h200.sh" "$HERE" "${flavours[@]}"; rc=$?
      echo "waits rc=$rc"; [[ $rc -eq 0 ]] || status=1 ;;
    demo)
      "$B/addscope-demo" --json "$OUT/demo.json" >"$OUT/demo.txt" 2>&1; rc=$?
      for ty in double int32; do
        "$B/addscope-demo" --type $ty --repeat 5 >>"$OUT/demo.txt" 2>&1 || rc=1
      done
      cat "$OUT/demo.txt"; echo "demo rc=$rc"; [[ $rc -eq 0 ]] || status=1 ;;
    probe)
      "$B/addscope-range-probe" 0 24 28 >"$OUT/range_probe.txt" 2>&1; rc=$?
      cat "$OUT/range_probe.txt"; echo "probe rc=$rc"; [[ $rc -eq 0 ]] || status=1 ;;
    readprobe)
      # The fenced read of out[2] after a long kernel, part by part, read by
      # read; with 8 OpenMP threads (as the demo step) and with 1.
      for t in 8 1; do
        OMP_NUM_THREADS=$t "$B/addscope-read-probe" 10000000 5 2 >>"$OUT/read_probe.txt" 2>&1 || status=1
      done
      cat "$OUT/read_probe.txt"
      k=0
      for ty in float float double; do
        k=$((k + 1))
        "$B/addscope-demo" --type $ty --configs range --repeat 3 --json "$OUT/read_demo_$k.json" \
          >"$OUT/read_demo_$k.txt" 2>&1 || status=1
        grep -E "read out|naive|Conclusion|median of" "$OUT/read_demo_$k.txt" >>"$OUT/read_demo.txt"
      done
      cat "$OUT/read_demo.txt" ;;
    bench)
      [[ -x "$B/addscope-bench" ]] || { echo "no bench"; status=1; continue; }
      "$B/addscope-bench" --quick --json "$OUT/bench_quick.json" >"$OUT/bench_quick.txt" 2>&1; rc=$?
      echo "bench rc=$rc"; tail -40 "$OUT/bench_quick.txt"; [[ $rc -eq 0 ]] || status=1 ;;
    bench-full)
      [[ -x "$B/addscope-bench" ]] || { echo "no bench"; continue; }
      # GPU machines may lack gnuplot: let the bench write the plot data and
      # script (plots.gp) through a stand-in, pack them, and render them on
      # a machine with gnuplot (cd plots && gnuplot plots.gp).
      shim="$(mktemp -d)"; printf '#!/bin/sh\nexit 0\n' >"$shim/gnuplot"; chmod +x "$shim/gnuplot"
      command -v gnuplot >/dev/null || export PATH="$PATH:$shim"
      plots="$(mktemp -d)/plots"
      "$B/addscope-bench" ${BENCH_ARGS:-} --json "$OUT/bench.json" --csv "$OUT/bench.csv" \
        --plot "$plots" >"$OUT/bench.txt" 2>"$OUT/bench.err"; rc=$?
      echo "bench rc=$rc"; [[ $rc -eq 0 ]] || { status=1; tail -5 "$OUT/bench.err"; }
      tar -C "$(dirname "$plots")" -czf "$OUT/plots.tgz" plots
      head -3 "$OUT/bench.txt"; grep -A200 "== advice" "$OUT/bench.txt" | head -80 ;;
    bench-host)
      # The OpenMP build's bench on this machine's host cores (one thread
      # per core, spread), the same outputs as bench-full.
      [[ -x "$B/addscope-bench-openmp" ]] || { echo "no OpenMP bench in the bundle"; status=1; continue; }
      shim="$(mktemp -d)"; printf '#!/bin/sh\nexit 0\n' >"$shim/gnuplot"; chmod +x "$shim/gnuplot"
      command -v gnuplot >/dev/null || export PATH="$PATH:$shim"
      plots="$(mktemp -d)/plots-host"
      cores="$(nproc --all)"  # (plain nproc reports OMP_NUM_THREADS)
      lscpu >"$OUT/host_lscpu.txt" 2>&1 || true
      LD_LIBRARY_PATH="$HERE/lib-openmp:$LD_LIBRARY_PATH" OMP_NUM_THREADS="${HOST_THREADS:-$cores}" \
        OMP_PROC_BIND=spread OMP_PLACES=cores \
        "$B/addscope-bench-openmp" ${HOST_BENCH_ARGS:-} --json "$OUT/bench_host.json" \
        --csv "$OUT/bench_host.csv" --plot "$plots" >"$OUT/bench_host.txt" 2>"$OUT/bench_host.err"; rc=$?
      echo "bench-host rc=$rc (OMP_NUM_THREADS=${HOST_THREADS:-$cores})"; [[ $rc -eq 0 ]] || { status=1; tail -5 "$OUT/bench_host.err"; }
      tar -C "$(dirname "$plots")" -czf "$OUT/plots_host.tgz" plots-host
      head -4 "$OUT/bench_host.txt"; grep -A200 "== advice" "$OUT/bench_host.txt" | head -60 ;;
    sanitize)
      for tool in memcheck racecheck; do
        compute-sanitizer --tool $tool --print-limit 20 "$B/addscope-unit-tests" \
          --gtest_brief=1 --gtest_filter="${SAN_FILTER:-*Cuda*}" >"$OUT/sanitize_$tool.log" 2>&1; rc=$?
        echo "$tool rc=$rc"; [[ $rc -eq 0 ]] || status=1
        grep -E "ERROR SUMMARY|PASSED|FAILED" "$OUT/sanitize_$tool.log" | tail -5
      done ;;
    *) echo "unknown step $step"; status=2 ;;
  esac
done
exit $status
