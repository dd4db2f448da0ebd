#!/usr/bin/env bash
# On a GPU machine: the pip-installed waits tool explains the seed's
# programs with CUPTI found only in pip layouts — the wheel installed into
# the Python that holds numba and CuPy (PY, default python3), every libcupti
# on the machine moved aside (put back on exit) but, in turn:
#   A. pip's own CUDA 13 wheel's (site-packages/nvidia/cu13/lib), if any;
#   B. a copy in site-packages/nvidia/cuda_cupti/lib (CUDA 12 wheels' folder);
#   C. none: the report's one line says where it looked; the program runs.
# No CUDA folder on the library path.
#   WHEEL=path/to/addscope_waits-*.whl OUT=logs bash tests/install/pip_cupti_gpu.sh
set -uo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
C="$HERE/../cuda_programs"
OUT="${OUT:-$PWD/pip-cupti-out}"
mkdir -p "$OUT"
wheel="${WHEEL:?WHEEL = the addscope_waits wheel to install}"
PY="${PY:-$(command -v python3)}"
"$PY" -m pip install -q --no-index --no-deps --disable-pip-version-check --force-reinstall "$wheel" ||
  { echo "FAIL: pip install $wheel"; exit 1; }
bin="$(dirname "$PY")"
sp="$("$PY" -c 'import site; print(site.getsitepackages()[0])')"
echo "python: $PY; site-packages: $sp"
[[ -x "$bin/addscope-waits" ]] || { echo "FAIL: no $bin/addscope-waits"; exit 1; }

# Every libcupti on the machine, moved aside.
hidden="$(mktemp -d)"
mapfile -t found < <(find / -xdev -path /proc -prune -o -name 'libcupti.so*' -print 2>/dev/null | sort)
printf 'libcupti on the machine: %s\n' "${found[@]}" | tee "$OUT/cupti_found.txt"
real=""
for f in "${found[@]}"; do
  [[ "$f" == /usr/local/cuda* && -f "$f" && ! -L "$f" && -z "$real" ]] && real="$f"
done
[[ -n "$real" ]] || { echo "FAIL: no libcupti under /usr/local/cuda* to copy"; exit 1; }
restore() {
  local i=0
  for f in "${found[@]}"; do
    [[ -e "$hidden/$i" || -L "$hidden/$i" ]] && mv "$hidden/$i" "$f"
    i=$((i + 1))
  done
  rm -rf "$sp/nvidia/cuda_cupti/lib/libcupti.so.13"
  echo "libcupti files put back: $i"
}
trap restore EXIT
i=0
for f in "${found[@]}"; do mv "$f" "$hidden/$i"; i=$((i + 1)); done
ldconfig 2>/dev/null
export LD_LIBRARY_PATH="$(tr ':' '\n' <<<"${LD_LIBRARY_PATH:-}" | grep -v cuda | paste -sd:)"
echo "LD_LIBRARY_PATH=$LD_LIBRARY_PATH"
put_back() {  # put_back ORIGINAL_PATH: that one file back
  local i=0
  for f in "${found[@]}"; do
    [[ "$f" == "$1" ]] && mv "$hidden/$i" "$f"
    i=$((i + 1))
  done
}
np_fix='import numpy as np; np.row_stack = getattr(np, "row_stack", np.vstack)'
status=0
run_case() {  # run_case NAME how...
  local name="$1"; shift
  "$@" >"$OUT/$name.out" 2>"$OUT/$name.err"; local rc=$?
  echo "-- $name: exit $rc"
  grep -h "CUPTI" "$OUT/$name.err" | head -3 | sed 's/^/   /'
  return $rc
}
seeds() {  # seeds EXPECTED_CUPTI_PATH LABEL
  local want="$1" l="$2"
  run_case "${l}_seed_numba" "$PY" -m addscope_waits -v --json "$OUT/${l}_seed_numba.json" \
    "$C/seed_numba.py" || status=1
  python3 "$C/check_injection.py" seed_numba "$OUT/${l}_seed_numba.json" "$OUT/${l}_seed_numba.err" \
    "$OUT/${l}_seed_numba.out" --min-wait 0.4 --max-wait 1.2 || status=1
  run_case "${l}_seed_cupy" "$bin/addscope-waits" -v --json "$OUT/${l}_seed_cupy.json" -- \
    "$PY" "$C/seed_cupy.py" || status=1
  python3 "$C/check_injection.py" seed_cupy "$OUT/${l}_seed_cupy.json" "$OUT/${l}_seed_cupy.err" \
    "$OUT/${l}_seed_cupy.out" --min-wait 0.4 --max-wait 1.2 || status=1
  for c in seed_numba seed_cupy; do
    grep -q "CUPTI ($want" "$OUT/${l}_$c.err" ||
      { echo "FAIL: $l $c's report does not name $want"; status=1; }
  done
}
# A. pip's own CUDA 13 wheel.
pipcupti="$sp/nvidia/cu13/lib/libcupti.so.13"
if printf '%s\n' "${found[@]}" | grep -qxF "$pipcupti"; then
  echo "== A: only $pipcupti"
  put_back "$pipcupti"
  seeds "$pipcupti" A
  idx=0; for f in "${found[@]}"; do [[ "$f" == "$pipcupti" ]] && mv "$f" "$hidden/$idx"; idx=$((idx + 1)); done
else
  echo "== A: not run (no $pipcupti on this machine)"
fi
# B. A copy in nvidia/cuda_cupti/lib.
echo "== B: only a copy of $real in $sp/nvidia/cuda_cupti/lib"
mkdir -p "$sp/nvidia/cuda_cupti/lib"
cp "$hidden/$(printf '%s\n' "${found[@]}" | grep -nxF "$real" | cut -d: -f1 | awk '{print $1-1}')" \
  "$sp/nvidia/cuda_cupti/lib/libcupti.so.13"
seeds "$sp/nvidia/cuda_cupti/lib/libcupti.so.13" B
# C. No CUPTI anywhere.
echo "== C: no libcupti anywhere"
rm "$sp/nvidia/cuda_cupti/lib/libcupti.so.13"
run_case C_no_cupti "$PY" -m addscope_waits -v "$C/seed_numba.py" || status=1
grep -h "no libcupti found" "$OUT/C_no_cupti.err" | head -2
grep -q "no libcupti found.*set ADDSCOPE_CUPTI_LIB" "$OUT/C_no_cupti.err" ||
  { echo "FAIL: no line saying where it looked"; status=1; }
grep -q "^seed_numba: .*out\[2\] = 3.0" "$OUT/C_no_cupti.out" ||
  { echo "FAIL: the program did not run to its end without CUPTI"; status=1; }
echo "pip_cupti_gpu: $([[ $status -eq 0 ]] && echo PASS || echo FAIL)"
exit $status
