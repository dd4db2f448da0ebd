#!/usr/bin/env bash
# The H200 check of start-up apart (issue 36, Deliver 4), in one call:
# builds addscope against the carried Kokkos 4.6.99 + Kokkos Kernels 4.7.99
# prefix for CUDA 13 (cmake/gpu-build.sh; carry .deps), runs the classes
# (PyTorch, CuPy, CuPy on four threads, numba) and injection steps of
# cmake/cuda-run.sh, then reads each program's idle time by cause from its
# JSON (tests/cuda_programs/check_idle.py, other/unknown at most 5% of the
# idle). Reports and checks in $OUT (8 files at most come back).
#   OUT=DIR [STEPS="classes injection"] bash results/2026-12-04-h200-startup/gpu_startup.sh
set -uo pipefail
OUT="${OUT:?OUT: the folder the logs go to}"
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
args=()
for fw in torch cupy cupy_threads numba; do
  [[ -s "$run/classes/$fw.json" ]] && args+=("$fw=$run/classes/$fw.json")
done
for c in seed_numba seed_cupy seed_cuda torch_sleep both; do
  [[ -s "$run/injection/$c.json" ]] && args+=("$c=$run/injection/$c.json")
done
python3 tests/cuda_programs/check_idle.py --max-unknown 0.05 "${args[@]}" >"$OUT/idle.txt" 2>&1
echo "idle check rc=$?"
cp "$run/classes/torch.err" "$OUT/torch.report.txt" 2>/dev/null
cp "$run/classes/cupy_threads.err" "$OUT/cupy_threads.report.txt" 2>/dev/null
cp "$run/injection/seed_numba.err" "$OUT/seed_numba.report.txt" 2>/dev/null
cp "$run/injection/seed_cuda.err" "$OUT/seed_cuda.report.txt" 2>/dev/null
tar czf "$OUT/run_logs.tgz" -C "$run" . 2>/dev/null
grep -E "PASS|FAIL|rc=|^-- " "$OUT/run.log" | tail -60
cat "$OUT/idle.txt"
exit $rc
