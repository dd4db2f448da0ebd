#!/usr/bin/env bash
# The waits tool on its own, as its users install it (run by .ci/run, on a
# fresh clone; each step timed and printed):
#   1. `cmake/dev.sh tool PREFIX`: the tool-only CMake build (no Kokkos,
#      Kokkos Kernels or CUDA looked for), installed into PREFIX;
#   2. `pip install --no-index --no-build-isolation .` into a fresh venv,
#      with no network;
# then, from each, the installed launcher runs a program, and from the venv
# `python -m addscope_waits` runs a Python script under the tool.
#   tests/install/tool_only.sh [WORKDIR]   (default: a temporary folder)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
work="${1:-$(mktemp -d)}"
mkdir -p "$work"
fail() { echo "tool_only: FAILED: $*" >&2; exit 1; }
expect() {  # expect FILE TEXT
  grep -qF -- "$2" "$1" || { cat "$1" >&2; fail "$1 lacks '$2'"; }
}
version="$(sed -n 's/^project(addscope VERSION \([0-9.]*\).*/\1/p' "$ROOT/CMakeLists.txt")"
clean=(env -u LD_LIBRARY_PATH -u KOKKOS_TOOLS_LIBS -u KOKKOS_PROFILE_LIBRARY
       -u CUDA_INJECTION64_PATH)

# 1. The CMake build of the tool alone.
start=$SECONDS
ADDSCOPE_BUILD_DIR="$work/build-tool" bash "$ROOT/cmake/dev.sh" tool "$work/prefix" \
  > "$work/cmake-tool.log" 2>&1 || { tail -n 40 "$work/cmake-tool.log" >&2; fail "cmake/dev.sh tool"; }
echo "tool_only: cmake/dev.sh tool (configure, build, install): $((SECONDS - start)) s"
grep -q "Kokkos_DIR\|KokkosKernels_DIR" "$work/build-tool/CMakeCache.txt" &&
  fail "the tool-only build looked for Kokkos (CMakeCache.txt names it)"
for f in bin/addscope-waits bin/addscope-waits-plot lib/libaddscope_waits.so; do
  [[ -e "$work/prefix/$f" ]] || fail "the tool-only install lacks $f"
done
[[ -e "$work/prefix/bin/addscope-demo" || -d "$work/prefix/include" ]] &&
  fail "the tool-only install holds more than the tool (a demo or headers)"
# The MPI variant, where built, finds the tool beside it (its RUNPATH).
mpi_lib="$work/prefix/lib/libaddscope_waits_mpi.so"
if [[ -e "$mpi_lib" ]]; then
  ldd "$mpi_lib" | grep -q "libaddscope_waits.so => $(realpath "$work/prefix/lib")/" ||
    { ldd "$mpi_lib" >&2; fail "$mpi_lib does not find the libaddscope_waits.so beside it"; }
fi
"${clean[@]}" "$work/prefix/bin/addscope-waits" --version > "$work/v1.txt"
expect "$work/v1.txt" "addscope-waits $version"
"${clean[@]}" "$work/prefix/bin/addscope-waits" --top 3 -- env > "$work/env1.txt"
expect "$work/env1.txt" "KOKKOS_TOOLS_LIBS=$(realpath "$work/prefix")/lib"

# 2. pip, offline, into a fresh venv.
python="${PYTHON:-python3}"
"$python" -m venv "$work/venv" || fail "$python -m venv (Debian: apt install python3-venv)"
start=$SECONDS
(cd "$ROOT" && "$work/venv/bin/pip" install --no-index --no-build-isolation \
  --disable-pip-version-check . ) > "$work/pip.log" 2>&1 ||
  { tail -n 40 "$work/pip.log" >&2; fail "pip install"; }
echo "tool_only: pip install --no-index --no-build-isolation . (fresh venv): $((SECONDS - start)) s"
"${clean[@]}" "$work/venv/bin/addscope-waits" --version > "$work/v2.txt"
expect "$work/v2.txt" "addscope-waits $version"
"${clean[@]}" "$work/venv/bin/python" -m addscope_waits --help > "$work/help.txt"
expect "$work/help.txt" "usage: python -m addscope_waits"
expect "$work/help.txt" "--threshold"
# A Python script under the tool: the launcher gave it the installed tool.
cat > "$work/script.py" <<'EOF'
import os, sys
print("tool:", os.environ.get("CUDA_INJECTION64_PATH", "none"))
print("args:", sys.argv[1:])
print("site:", os.environ.get("ADDSCOPE_PYTHON_SITE_PACKAGES", "none"))
EOF
"${clean[@]}" "$work/venv/bin/python" -m addscope_waits --top 2 "$work/script.py" a b \
  > "$work/script.txt" 2>&1 || { cat "$work/script.txt" >&2; fail "python -m addscope_waits script.py"; }
expect "$work/script.txt" "tool: $(realpath "$work/venv")/lib/python"
expect "$work/script.txt" "/site-packages/addscope_waits/lib/libaddscope_waits.so"
expect "$work/script.txt" "args: ['a', 'b']"
# Where the tool looks for a pip-installed CUPTI: this venv's site-packages.
expect "$work/script.txt" "site: $work/venv/lib/python"
# Bad use: no script, exit 2.
set +e
"${clean[@]}" "$work/venv/bin/python" -m addscope_waits --top 2 > "$work/noscript.txt" 2>&1
rc=$?
set -e
[[ $rc -eq 2 ]] || { cat "$work/noscript.txt" >&2; fail "no script: exit $rc, expected 2"; }
expect "$work/noscript.txt" "no script given"
# No compiler toolchain (no cmake on PATH): one clear line, a non-zero exit,
# nothing installed.
"$python" -m venv "$work/venv-bare"
set +e
(cd "$ROOT" && env PATH="$work/venv-bare/bin" "$work/venv-bare/bin/pip" install --no-index \
  --no-build-isolation --disable-pip-version-check . ) > "$work/pip-nocmake.log" 2>&1
rc=$?
set -e
[[ $rc -ne 0 ]] || fail "pip install without cmake exited 0"
expect "$work/pip-nocmake.log" "addscope-waits build: cmake not found on PATH"
"$work/venv-bare/bin/python" -c "import addscope_waits" 2>/dev/null &&
  fail "pip install without cmake left addscope_waits installed"
[[ ! -e "$work/venv-bare/bin/addscope-waits" ]] || fail "a half-installed addscope-waits"
echo "tool_only: passed (cmake and pip installs; the launcher, python -m addscope_waits; no cmake: refused, nothing installed)"
