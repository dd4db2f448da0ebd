#!/usr/bin/env bash
# Launch places on and off (ADDSCOPE_WAITS_PLACES=1/0) on a GPU, in one call
# (carry .deps): builds (cmake/gpu-build.sh; BUILT=1: .device is built),
# then RUNS interleaved rounds of the shapes step's faults_names case
# (100,000 kernel names on one thread: what fills the threads' logs) and of
# the classes step's PyTorch program (framework_syncs.py torch: the stacks
# a PyTorch run takes), each way; prints the checker's verdict, the limits
# line and the program's lines' cost of each run. At most 8 files in $OUT.
#   OUT=DIR [RUNS=2] [BUILT=1] bash results/2026-12-05-h100-places/gpu_places_ab.sh
set -uo pipefail
OUT="${OUT:?OUT: the folder the logs go to}"
[[ -x /opt/torch/.venv/bin/python3 ]] && export PATH="/opt/torch/.venv/bin:$PATH"
t0=$SECONDS
[[ -n "${BUILT:-}" ]] || bash cmake/gpu-build.sh /tmp/addscope-gpu .device >"$OUT/build.log" 2>&1 ||
  { echo "build failed"; tail -40 "$OUT/build.log"; exit 1; }
echo "build in $((SECONDS - t0)) s"
H="$PWD/.device" B="$PWD/.device/bin" W=/tmp/places-ab
rm -rf "$W"; mkdir -p "$W"
export LD_LIBRARY_PATH="$H/lib:$(cat "$H/libpath" 2>/dev/null)"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >"$OUT/gpu.txt" 2>&1
{
  cat "$OUT/gpu.txt"
  for r in $(seq "${RUNS:-2}"); do
    for p in 1 0; do
      d="$W/names_${p}_$r"; mkdir -p "$d"
      ADDSCOPE_WAITS_PLACES=$p timeout 180 "$B/addscope-waits-check" faults_names device \
        "$H/lib/libaddscope_waits.so" "$d" "$B/addscope-test-faults" names 100000 >"$d.log" 2>&1
      echo "faults_names places=$p round $r: rc=$? $(grep -h '^SUMMARY' "$d.log" | sed 's/.*overlap *[0-9.]* s *//')"
      grep -h -E "^  FAIL|^  limits:|^  the program's lines:" "$d.log" | sed 's/^/    /'
    done
    for p in 1 0; do
      ADDSCOPE_WAITS_PLACES=$p "$B/addscope-waits" --json "$W/torch_${p}_$r.json" -o "$W/torch_${p}_$r.txt" -- \
        python3 "$H/cuda_programs/framework_syncs.py" torch >"$W/torch_${p}_$r.out" 2>&1
      echo "torch places=$p round $r: rc=$? $(grep -h '^framework_syncs:' "$W/torch_${p}_$r.out")"
      grep -h -E "^    mostly launched|^    first launched|^  the program's lines:" "$W/torch_${p}_$r.txt" | cut -c1-240 | sed 's/^/    /'
    done
  done
} >"$OUT/places_ab.txt" 2>&1
cp "$W/torch_1_1.txt" "$OUT/torch_places_on.report.txt" 2>/dev/null
cp "$W/torch_0_1.txt" "$OUT/torch_places_off.report.txt" 2>/dev/null
tar czf "$OUT/places_ab_logs.tgz" -C /tmp places-ab 2>/dev/null
cat "$OUT/places_ab.txt"
