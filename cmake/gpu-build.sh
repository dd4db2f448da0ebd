#!/usr/bin/env bash
# Builds addscope on the GPU machine itself, from what travels with the
# working tree: a CUDA 12/13 build there takes minutes on its 16 cores where
# this 2-core machine takes about an hour. Here, once:
#   bash cmake/gpu-build.sh --pack PREFIX        (fills .deps/, git-ignored)
# PREFIX: a Kokkos + Kokkos Kernels prefix of the bootstrap's cuda variant
# against the GPU machine's CUDA (e.g. ADDSCOPE_CUDA_ROOT=/usr/local/cuda:
# ~/.cache/addscope-deps/install/cuda13.0-kokkos4.6.99-<hash>). --pack copies
# it, Debian's GoogleTest, fmt, nlohmann-json and CLI11 (headers, static
# GoogleTest, libfmt, their CMake files: the GPU machine has none of them),
# and the small sources of the programs nobody here wrote
# (cmake/external-programs.sh: BabelStream, Kokkos' STREAM benchmark and a
# tutorial) into .deps/.
# There (carry .deps):
#   bash cmake/gpu-build.sh BUILD_DIR [BUNDLE_DIR]
# configures and builds addscope (MPI off: the GPU machine has no MPI
# headers), the external programs, and bundles them (cmake/cuda-bundle.sh,
# default BUNDLE_DIR .device) for cmake/cuda-run.sh. The prefix is put back
# at the absolute path it was built in (its CMake files name it); the host
# compiler is the machine's g++ (NVCC_WRAPPER_DEFAULT_COMPILER, default g++).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
DEPS="$ROOT/.deps"
usage() { sed -n '/^#   bash cmake\/gpu-build/p' "${BASH_SOURCE[0]}" | sed 's/^# *//' >&2; exit 2; }
[[ $# -ge 1 ]] || usage

if [[ "$1" == --pack ]]; then
  [[ $# -eq 2 ]] || usage
  P="$(cd "$2" 2>/dev/null && pwd)" ||
    { echo "gpu-build: PREFIX = '$2' does not exist; allowed: a prefix of the bootstrap's cuda variant" >&2; exit 2; }
  [[ -f "$P/share/addscope-cuda-toolkit" && -x "$P/bin/nvcc_wrapper_sm90" ]] ||
    { echo "gpu-build: PREFIX = '$P' is not a CUDA 12/13 prefix of the bootstrap (no share/addscope-cuda-toolkit); allowed: one built with ADDSCOPE_CUDA_ROOT" >&2; exit 2; }
  git -C "$ROOT" check-ignore -q "$DEPS/" ||
    { echo "gpu-build: $DEPS is not ignored by git; allowed: an ignored folder" >&2; exit 2; }
  ksrc="$(sed -n 's/^kokkos_source=//p' "$P/share/addscope-bootstrap.stamp")"
  bsrc="${BABELSTREAM_SOURCE:-/work/src/BabelStream}"
  tmp="$DEPS.tmp"
  rm -rf "$tmp"
  mkdir -p "$tmp/usr/include" "$tmp/usr/lib/x86_64-linux-gnu/cmake" "$tmp/usr/share/cmake"
  for d in gtest gmock fmt nlohmann CLI; do cp -r "/usr/include/$d" "$tmp/usr/include/"; done
  cp -a /usr/lib/x86_64-linux-gnu/libgtest*.a /usr/lib/x86_64-linux-gnu/libgmock*.a \
    /usr/lib/x86_64-linux-gnu/libfmt.so* "$tmp/usr/lib/x86_64-linux-gnu/"
  cp -r /usr/lib/x86_64-linux-gnu/cmake/GTest /usr/lib/x86_64-linux-gnu/cmake/fmt \
    "$tmp/usr/lib/x86_64-linux-gnu/cmake/"
  cp -r /usr/share/cmake/CLI11 /usr/share/cmake/nlohmann_json "$tmp/usr/share/cmake/"
  # The waits tool's source lines: elfutils' libdw and libunwind (headers,
  # libraries; not libunwind's unwind.h, which would hide the compiler's).
  mkdir -p "$tmp/usr/include/x86_64-linux-gnu"
  cp -r /usr/include/elfutils /usr/include/dwarf.h /usr/include/libelf.h \
    /usr/include/gelf.h "$tmp/usr/include/"
  cp /usr/include/x86_64-linux-gnu/libunwind*.h "$tmp/usr/include/x86_64-linux-gnu/"
  cp -a /usr/lib/x86_64-linux-gnu/libdw.so* /usr/lib/x86_64-linux-gnu/libdw-*.so \
    /usr/lib/x86_64-linux-gnu/libelf.so* /usr/lib/x86_64-linux-gnu/libelf-*.so \
    /usr/lib/x86_64-linux-gnu/libunwind.so* /usr/lib/x86_64-linux-gnu/libunwind-x86_64.so* \
    "$tmp/usr/lib/x86_64-linux-gnu/" 2>/dev/null || true
  mkdir -p "$tmp/prefix"
  cp -a "$P" "$tmp/prefix/"
  echo "$P" >"$tmp/prefix/path"
  if [[ -n "$ksrc" && -f "$ksrc/CMakeLists.txt" ]]; then
    k="$tmp/kokkos-src"
    mkdir -p "$k/benchmarks" "$k/example/tutorial/Hierarchical_Parallelism"
    cp "$ksrc/CMakeLists.txt" "$k/"
    cp -r "$ksrc/benchmarks/stream" "$k/benchmarks/"
    cp -r "$ksrc/example/tutorial/Hierarchical_Parallelism/01_thread_teams_lambda" \
      "$k/example/tutorial/Hierarchical_Parallelism/"
  fi
  if [[ -f "$bsrc/src/kokkos/KokkosStream.cpp" ]]; then
    mkdir -p "$tmp/BabelStream"
    (cd "$bsrc" && tar --exclude=.git --exclude=results --exclude='*.png' -cf - .) |
      tar -C "$tmp/BabelStream" -xf -
  fi
  rm -rf "$DEPS"
  mv "$tmp" "$DEPS"
  du -sh "$DEPS"
  exit 0
fi

B="$(realpath -m "$1")"
D="${2:-$ROOT/.device}"
[[ -f "$DEPS/prefix/path" ]] ||
  { echo "gpu-build: no $DEPS/prefix/path; run 'bash cmake/gpu-build.sh --pack PREFIX' here and carry .deps" >&2; exit 2; }
orig="$(cat "$DEPS/prefix/path")"
name="$(basename "$orig")"
if [[ ! -e "$orig" ]]; then
  mkdir -p "$(dirname "$orig")"
  ln -s "$DEPS/prefix/$name" "$orig"
fi
export NVCC_WRAPPER_DEFAULT_COMPILER="${NVCC_WRAPPER_DEFAULT_COMPILER:-g++}"
cuda_root="$(sed -n 's/^root=//p' "$orig/share/addscope-cuda-toolkit")"
# Kokkos Kernels names the CUDA libraries (cuBLAS, cuSPARSE, cuSOLVER) by the
# paths they had here (/usr/local/cuda/lib/...); the GPU machine may keep
# them elsewhere (lib64, targets/x86_64-linux/lib, without the unversioned
# link): the carried copy's CMake files are pointed at what is there.
for f in "$DEPS/prefix/$name"/lib*/cmake/KokkosKernels/*.cmake; do
  for lib in $(grep -o '"/[^"]*\.so"' "$f" | tr -d '"' | sort -u); do
    [[ -e "$lib" ]] && continue
    base="$(basename "$lib")" found=""
    for d in "$cuda_root/lib64" "$cuda_root/targets/x86_64-linux/lib" "$cuda_root/lib"; do
      found="$(ls "$d/$base" "$d/$base".* 2>/dev/null | head -1)"
      [[ -n "$found" ]] && break
    done
    [[ -n "$found" ]] || { echo "gpu-build: $lib (named by $f) is not on this machine" >&2; exit 1; }
    echo "gpu-build: $lib -> $found"
    sed -i "s|\"$lib\"|\"$found\"|g" "$f"
  done
done
jobs="${ADDSCOPE_JOBS:-$(nproc)}"
t0=$SECONDS
cmake -S "$ROOT" -B "$B" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DKokkos_ROOT="$orig" -DKokkosKernels_ROOT="$orig" \
  -DCMAKE_CXX_COMPILER="$orig/bin/nvcc_wrapper_sm90" -DCUDAToolkit_ROOT="$cuda_root" \
  -DCMAKE_PREFIX_PATH="$DEPS/usr" -Daddscope_ENABLE_MPI=OFF >"$B.configure.log" 2>&1 ||
  { tail -30 "$B.configure.log"; exit 1; }
echo "gpu-build: configured in $((SECONDS - t0)) s"
cmake --build "$B" -j "$jobs" -- -k 0 >"$B.build.log" 2>&1 ||
  { grep -E "error|FAILED" "$B.build.log" | head -30; exit 1; }
echo "gpu-build: built in $((SECONDS - t0)) s ($jobs jobs)"
ext=0
KOKKOS_SOURCE="$DEPS/kokkos-src" BABELSTREAM_SOURCE="$DEPS/BabelStream" ADDSCOPE_JOBS="$jobs" \
  bash "$ROOT/cmake/external-programs.sh" "$B" || ext=1
echo "gpu-build: external programs in $((SECONDS - t0)) s (rc $ext)"
ADDSCOPE_BUNDLE_LIBDIRS="$DEPS/usr/lib/x86_64-linux-gnu" bash "$ROOT/cmake/cuda-bundle.sh" "$B" "$D"
