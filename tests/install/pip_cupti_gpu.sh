#!/usr/bin/env bash
# On a GPU machine: the pip-installed waits tool explains the seed's
# programs with CUPTI found only in a pip layout — the machine's libcupti
# copied into a venv's site-packages/nvidia/cuda_cupti/lib, every other
# libcupti on the machine moved aside (put back on exit) and no CUDA
# folder on the library path — then with no CUPTI anywhere (the report's
# one line says where it looked; the program still runs).
#   WHEEL=path/to/addscope_waits-*.whl OUT=logs bash tests/install/pip_cupti_gpu.sh
# Needs python3 with numba-cuda and CuPy (the H200 image has them).
set -uo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
C="$HERE/../cuda_programs"
OUT="${OUT:-$PWD/pip-cupti-out}"
mkdir -p "$OUT"
wheel="${WHEEL:?WHEEL = the addscope_waits wheel to install}"
venv="$(mktemp -d)/venv"
python3 -m venv --system-site-packages "$venv" || { echo "FAIL: python3 -m venv"; exit 1; }
"$venv/bin/pip" install -q --no-index --no-deps --disable-pip-version-check "$wheel" ||
  { echo "FAIL: pip install $wheel"; exit 1; }
sp="$("$venv/bin/python" -c 'import site; print(site.getsitepackages()[0])')"
echo "venv site-packages: $sp"

# Every libcupti on the machine (but the venv's), moved aside.
hidden="$(mktemp -d)"
mapfile -t found < <(find / -xdev \( -path /proc -o -path "$venv" \) -prune -o \
  -name 'libcupti.so*' -print 2>/dev/null | sort)
printf 'libcupti on the machine: %s\n' "${found[@]}" | tee "$OUT/cupti_found.txt"
real=""
for f in "${found[@]}"; do
  [[ -f "$f" && ! -L "$f" && -z "$real" ]] && real="$f"
done
[[ -n "$real" ]] || { echo "FAIL: no libcupti on this machine to copy"; exit 1; }
mkdir -p "$sp/nvidia/cuda_cupti/lib"
cp "$real" "$sp/nvidia/cuda_cupti/lib/libcupti.so.13"
restore() {
  local i=0
  for f in "${found[@]}"; do
    [[ -e "$hidden/$i" || -L "$hidden/$i" ]] && mv "$hidden/$i" "$f"
    i=$((i + 1))
  done
  echo "libcupti files put back: $i"
}
trap restore EXIT
i=0
for f in "${found[@]}"; do mv "$f" "$hidden/$i"; i=$((i + 1)); done
ldconfig 2>/dev/null
export LD_LIBRARY_PATH="$(tr ':' '\n' <<<"${LD_LIBRARY_PATH:-}" | grep -v cuda | paste -sd:)"
echo "LD_LIBRARY_PATH=$LD_LIBRARY_PATH"
np_fix='import numpy as np; np.row_stack = getattr(np, "row_stack", np.vstack)'
status=0
run_case() {  # run_case NAME how...
  local name="$1"; shift
  "$@" >"$OUT/$name.out" 2>"$OUT/$name.err"; local rc=$?
  echo "-- $name: exit $rc"
  grep -h "CUPTI" "$OUT/$name.err" | head -3 | sed 's/^/   /'
  return $rc
}
# 1. CUPTI only in the venv: python -m addscope_waits and the console script.
run_case seed_numba "$venv/bin/python" -m addscope_waits -v --json "$OUT/seed_numba.json" \
  "$C/seed_numba.py" || status=1
python3 "$C/check_injection.py" seed_numba "$OUT/seed_numba.json" "$OUT/seed_numba.err" \
  "$OUT/seed_numba.out" --min-wait 0.4 --max-wait 1.2 || status=1
grep -q "CUPTI ($sp/nvidia/cuda_cupti/lib/libcupti.so.13" "$OUT/seed_numba.err" ||
  { echo "FAIL: seed_numba's report does not name the venv's CUPTI"; status=1; }
run_case seed_cupy "$venv/bin/addscope-waits" -v --json "$OUT/seed_cupy.json" -- \
  "$venv/bin/python" "$C/seed_cupy.py" || status=1
python3 "$C/check_injection.py" seed_cupy "$OUT/seed_cupy.json" "$OUT/seed_cupy.err" \
  "$OUT/seed_cupy.out" --min-wait 0.4 --max-wait 1.2 || status=1
grep -q "CUPTI ($sp/nvidia/cuda_cupti/lib/libcupti.so.13" "$OUT/seed_cupy.err" ||
  { echo "FAIL: seed_cupy's report does not name the venv's CUPTI"; status=1; }
# 2. No CUPTI anywhere: one line says where it looked; the program runs.
rm "$sp/nvidia/cuda_cupti/lib/libcupti.so.13"
run_case no_cupti "$venv/bin/python" -m addscope_waits -v "$C/seed_numba.py" || status=1
grep -h "no libcupti found" "$OUT/no_cupti.err" | head -2
grep -q "no libcupti found.*set ADDSCOPE_CUPTI_LIB" "$OUT/no_cupti.err" ||
  { echo "FAIL: no line saying where it looked"; status=1; }
grep -q "^seed_numba: .*out\[2\] = 3.0" "$OUT/no_cupti.out" ||
  { echo "FAIL: the program did not run to its end without CUPTI"; status=1; }
echo "pip_cupti_gpu: $([[ $status -eq 0 ]] && echo PASS || echo FAIL)"
exit $status
