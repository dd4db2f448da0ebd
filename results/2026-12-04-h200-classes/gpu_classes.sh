#!/usr/bin/env bash
# The H200 check of who asked for each synchronization (issue 36), in one
# call: builds addscope against the carried Kokkos 4.6.99 + Kokkos Kernels
# 4.7.99 prefix for CUDA 13 (cmake/gpu-build.sh; carry .deps), then runs
# tests/cuda_programs/framework_syncs.py with PyTorch, CuPy and numba under
# the launcher (run.sh classes: check_classes.py) and the CUDA programs
# without Kokkos (run.sh injection). Reports and checks in $OUT.
#   OUT=DIR [STEPS="classes injection"] bash results/2026-12-04-h200-classes/gpu_classes.sh
set -uo pipefail
OUT="${OUT:?OUT: the folder the logs go to}"
# The image's Python with numba-cuda, CuPy and PyTorch.
[[ -x /opt/torch/.venv/bin/python3 ]] && export PATH="/opt/torch/.venv/bin:$PATH"
t0=$SECONDS
bash cmake/gpu-build.sh /tmp/addscope-gpu .device >"$OUT/build.log" 2>&1
rc=$?
echo "build rc=$rc in $((SECONDS - t0)) s"
if [[ $rc -ne 0 ]]; then tail -40 "$OUT/build.log"; exit 1; fi
run=/tmp/addscope-run
rm -rf "$run"; mkdir -p "$run"
t1=$SECONDS
OUT="$run" bash .device/run.sh ${STEPS:-classes injection} >"$OUT/run.log" 2>&1
rc=$?
echo "run rc=$rc in $((SECONDS - t1)) s"
for fw in torch cupy cupy_threads numba; do
  cp "$run/classes/$fw.err" "$OUT/$fw.report.txt" 2>/dev/null
done
for c in seed_numba seed_cupy seed_cuda torch_sleep; do
  cp "$run/injection/$c.err" "$OUT/$c.report.txt" 2>/dev/null
done
tar czf "$OUT/run_logs.tgz" -C "$run" . 2>/dev/null
grep -E "PASS|FAIL|rc=|^-- " "$OUT/run.log" | tail -60
exit $rc
