#!/usr/bin/env bash
# Issue 36's GPU check at one commit, in one call (carry .deps): the build
# and the classes, injection and shapes steps (gpu_startup.sh), the waits
# unit tests on the CUDA build, then what a stack costs in a CUPTI callback
# at a blocking call taken again at one line: the CUDA seed's --syncs loop
# (ROUNDS slow 1 x 1 launches, each waited for by cudaStreamSynchronize),
# RUNS interleaved runs with sites on and off, and the tool's own measure
# (JSON sites_cost) per blocking call. At most 8 files in $OUT.
#   OUT=DIR [SYNCS=20000] [RUNS=3] [STEPS="classes injection shapes"]
#     bash results/2026-12-05-h200-check/gpu_check.sh
set -uo pipefail
OUT="${OUT:?OUT: the folder the logs go to}"
S=/tmp/check-startup W=/tmp/check-work
rm -rf "$S" "$W"; mkdir -p "$S" "$W"
OUT="$S" STEPS="${STEPS:-classes injection shapes}" \
  bash results/2026-12-04-h200-startup/gpu_startup.sh >"$OUT/startup.txt" 2>&1
echo "startup rc=$?" >>"$OUT/startup.txt"
H="$PWD/.device" B="$PWD/.device/bin"
export LD_LIBRARY_PATH="$H/lib:$(cat "$H/libpath" 2>/dev/null)"
nvidia-smi --query-gpu=name,driver_version --format=csv >"$W/gpu.txt" 2>&1
timeout 300 "$B/addscope-waits-tests" --gtest_brief=1 >"$W/waits_unit.log" 2>&1
echo "waits unit tests (CUDA build): rc=$? $(grep -E '^\[  (PASSED|FAILED|SKIPPED) ' "$W/waits_unit.log" | tr '\n' ' ')" |
  tee "$OUT/waits_unit.txt"
grep -E '^\[  FAILED' "$W/waits_unit.log" >>"$OUT/waits_unit.txt"
n="${SYNCS:-20000}"
{
  echo "the CUDA seed --syncs $n (each round a 1 x 1 launch of 512 floats and cudaStreamSynchronize at one line)"
  for r in $(seq "${RUNS:-3}"); do
    echo "none   $("$B/addscope-test-seed-cuda" --syncs "$n")"
    for s in on off; do
      echo "$s $("$B/addscope-waits" --load cuda --sites $s -o "$W/syncs_${s}_$r.txt" \
        --json "$W/syncs_${s}_$r.json" -- "$B/addscope-test-seed-cuda" --syncs "$n")"
    done
  done
  echo "the tool's own measure (JSON sites_cost) per blocking call of $n:"
  for f in "$W"/syncs_on_*.json "$W"/syncs_off_1.json; do
    python3 -c 'import json, sys
c = json.load(open(sys.argv[1])).get("sites_cost")
n = int(sys.argv[2])
print("  %-16s %s" % (sys.argv[1].rsplit("/", 1)[1], "no sites_cost" if c is None else
      "%d stacks, %.1f us, %.3f us each, %.4f us per blocking call" % (c["taken"], c["seconds"] * 1e6,
      c["seconds"] * 1e6 / max(c["taken"], 1), c["seconds"] * 1e6 / n)))' "$f" "$n" 2>&1
  done
} >"$OUT/syncs.txt" 2>&1
cp "$W/syncs_on_1.txt" "$OUT/syncs_on.report.txt" 2>/dev/null
cp "$S/idle.txt" "$S/seed_numba.report.txt" "$OUT/" 2>/dev/null
tar czf "$OUT/logs.tgz" -C /tmp check-startup check-work 2>/dev/null
cat "$OUT/startup.txt" "$OUT/waits_unit.txt" "$OUT/syncs.txt"
