#!/usr/bin/env bash
# The session's last GPU call (carry .deps): the whole check of
# results/2026-12-05-h200-check/gpu_check.sh (build, classes, injection,
# shapes, waits unit tests, the --syncs loop), then the PyTorch program of
# the classes step RUNS more times, each run's cost of the program's lines
# (how much of it reading Python lines). At most 8 files in $OUT.
#   OUT=DIR [RUNS=2] bash results/2026-12-05-h100-places/gpu_final.sh
set -uo pipefail
OUT="${OUT:?OUT: the folder the logs go to}"
bash results/2026-12-05-h200-check/gpu_check.sh >/dev/null 2>&1
echo "gpu_check rc=$?"
[[ -x /opt/torch/.venv/bin/python3 ]] && export PATH="/opt/torch/.venv/bin:$PATH"
H="$PWD/.device" W=/tmp/final-torch
rm -rf "$W"; mkdir -p "$W"
export LD_LIBRARY_PATH="$H/lib:$(cat "$H/libpath" 2>/dev/null)"
{
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
  for r in $(seq "${RUNS:-2}"); do
    "$H/bin/addscope-waits" --json "$W/torch_$r.json" -o "$W/torch_$r.txt" -- \
      python3 "$H/cuda_programs/framework_syncs.py" torch >"$W/torch_$r.out" 2>&1
    echo "torch round $r: rc=$? $(grep -h '^framework_syncs:' "$W/torch_$r.out")"
    grep -h "^  the program's lines:" "$W/torch_$r.txt" | sed 's/^/    /'
  done
} >"$OUT/torch_lines.txt" 2>&1
cat "$OUT/torch_lines.txt"
