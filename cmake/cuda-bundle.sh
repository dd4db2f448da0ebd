#!/usr/bin/env bash
# Packs the CUDA build's programs, with the libraries a bare GPU machine may
# lack (CUDA 11.8 runtime and CUPTI, fmt, libgomp, libaddscope_waits), into one
# relocatable folder, plus run.sh that runs them there (a build against the
# bootstrap's CUDA 12/13 takes that CUDA's runtime and CUPTI from the GPU
# machine instead: see describe_build). With an OpenMP build
# (OPENMP_BUILD_DIR, default build-openmp, if it exists) its addscope-bench
# goes along as bin/addscope-bench-openmp, for the GPU machine's host cores.
#   cmake/cuda-bundle.sh [BUILD_DIR] [OUT_DIR]   (defaults: build-cuda .device)
# BUILD_DIR may be any CUDA build of addscope (e.g. one against Kokkos 4.x:
# build-cuda-k4-cuda); programs and libraries are stripped (no debug info
# travels), but for the waits cases' programs (addscope-test-*, built with
# -g: the waits tool names their lines, and the checks assert them) and the
# waits unit tests (their sites tests read their own lines).
# Programs nobody here wrote, built by cmake/external-programs.sh into
# BUILD_DIR/external/bin (BabelStream's Kokkos model, Kokkos' STREAM and a
# tutorial), go along when built; KT_LIB=path bundles kokkos-tools' kernel
# timer (lib/kp_kernel_timer.so) for the cost benchmark's row of it.
# On the GPU machine: OUT=logs bash .device/run.sh [unit|waits|shapes|cost|demo|probe|readprobe|bench|bench-full|bench-host|sanitize|soak|mpi|injection|flavour:NAME]...
# The CUDA 13 build as a flavour (cmake/dev.sh's build folder for it), and
# everything of it on the GPU (unit tests, every waits case, demo, bench):
#   ADDSCOPE_BUNDLE_FLAVOUR=$PWD/build-cuda-cuda13.0-kokkos4.6.99-<hash>:cuda13 \
#     bash cmake/cuda-bundle.sh build-cuda .device
#   OUT=logs bash .device/run.sh flavour:cuda13     # -> logs/cuda13/
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
B="${1:-$ROOT/build-cuda}"
D="${2:-$ROOT/.device}"
O="${OPENMP_BUILD_DIR:-$ROOT/build-openmp}"
if [[ -n "${KT_LIB:-}" ]]; then
  [[ -f "$KT_LIB" ]] || { echo "cuda-bundle: KT_LIB = '$KT_LIB' does not exist; allowed: the path of kokkos-tools' kp_kernel_timer.so" >&2; exit 2; }
  # Kokkos runs on without a tool that fails to load (an undefined symbol:
  # kp_kernel_timer.cpp built without kp_shared.cpp): refuse it here
  why="$(python3 -c 'import ctypes, os, sys; ctypes.CDLL(sys.argv[1], mode=os.RTLD_NOW | os.RTLD_GLOBAL)' "$KT_LIB" 2>&1 | tail -1)" ||
    { echo "cuda-bundle: KT_LIB = '$KT_LIB' does not load ($why); allowed: a kp_kernel_timer.so that loads (kp_kernel_timer.cpp with kp_shared.cpp)" >&2; exit 2; }
fi
rm -rf "$D"; mkdir -p "$D/bin" "$D/lib"
# describe_build BUILD_DIR TO: TO/info.txt (what was built, from what), and
# for a build against the bootstrap's CUDA 12/13 (its prefix's
# share/addscope-cuda-toolkit) TO/libpath: the toolkit's lib64, where the GPU
# machine has that CUDA's runtime and CUPTI (the H200 image: CUDA 13 in
# /usr/local/cuda). Returns 0 for such a build.
describe_build() {
  local b="$1" to="$2" kroot toolkit
  kroot="$(sed -n 's/^Kokkos_ROOT:[A-Z]*=//p' "$b/CMakeCache.txt" 2>/dev/null)"
  toolkit="$kroot/share/addscope-cuda-toolkit"
  {
    echo "build: $(cd "$b" && pwd)"
    echo "Kokkos_ROOT: $kroot"
    echo "source: $(git -C "$ROOT" describe --always --dirty 2>/dev/null || echo unknown)"
    if [[ -f "$kroot/share/addscope-bootstrap.stamp" ]]; then
      sed -n 's/^\(kokkos_version\|kokkos_kernels_version\|cuda_release\|host_cxx\|kokkos_patch\)=/\1: /p' \
        "$kroot/share/addscope-bootstrap.stamp"
    fi
  } >"$to/info.txt"
  [[ -f "$toolkit" ]] || return 1
  echo "$(sed -n 's/^root=//p' "$toolkit")/lib64" >"$to/libpath"
  echo "cuda: $(sed -n 's/^version=//p' "$toolkit"), its runtime and CUPTI from $(cat "$to/libpath") on the GPU machine" \
    >>"$to/info.txt"
}
waits_programs="tests/tools/addscope-test-slow-read tests/tools/addscope-test-overlap
  tests/tools/addscope-test-two-instances tests/tools/addscope-test-stream-fenced
  tests/tools/addscope-test-region-wait tests/tools/addscope-test-two-threads
  tests/tools/addscope-test-event-overhead tests/tools/addscope-test-shape-starved
  tests/tools/addscope-test-shape-healthy tests/tools/addscope-test-shape-plain-add
  tests/tools/addscope-test-wait-scope tests/tools/addscope-test-soak
  tests/tools/addscope-test-idle-patterns tests/tools/addscope-test-faults
  tests/tools/addscope-lifecycle-check tests/addscope-waits-tests"
for p in tests/addscope-unit-tests apps/demo/addscope-demo apps/bench/addscope-bench \
         $waits_programs tests/tools/addscope-waits-check tests/perf/addscope-waits-tracker-perf \
         tests/perf/addscope-range-probe tests/perf/addscope-read-probe tests/perf/addscope-cupti-floor \
         apps/waits/addscope-waits tests/cuda_programs/addscope-test-seed-cuda; do
  [[ -x "$B/$p" ]] && cp "$B/$p" "$D/bin/"
done
# cmake/external-programs.sh's programs of this build (never kept in the
# repository).
if [[ -d "$B/external/bin" ]]; then
  for p in "$B"/external/bin/*; do [[ -x "$p" ]] && cp "$p" "$D/bin/"; done
fi
# More flavours of the programs (e.g. built against Kokkos 4.x, or with CUDA
# 13): ADDSCOPE_BUNDLE_FLAVOUR="DIR:NAME [DIR2:NAME2]..." bundles each DIR's
# unit tests, demo, bench and waits test programs into $D/NAME/bin (the tool
# itself is Kokkos-free: the one in $D/lib serves all). A DIR built against
# a prefix of the bootstrap's CUDA 12/13 (share/addscope-cuda-toolkit) ships
# no CUDA runtime of its own: $D/NAME/libpath names the toolkit's lib64
# (/usr/local/cuda/lib64 for ADDSCOPE_CUDA_ROOT=/usr/local/cuda), where the
# GPU machine's CUDA runtime and CUPTI of that major are (the H200 image:
# CUDA 13 in /usr/local/cuda); run.sh and waits_h200.sh put it first on the
# library path for that flavour. $D/NAME/info.txt says what was built.
for spec in ${ADDSCOPE_BUNDLE_FLAVOUR:-}; do
  fb="${spec%:*}" fname="${spec##*:}"
  [[ "$spec" == *:* && -n "$fname" && "$fname" != */* ]] || {
    echo "cuda-bundle: ADDSCOPE_BUNDLE_FLAVOUR entry '$spec' is invalid; allowed: DIR:NAME" \
      "(NAME without '/')" >&2; exit 2; }
  [[ -x "$fb/tests/addscope-unit-tests" || -x "$fb/apps/demo/addscope-demo" ]] || {
    echo "cuda-bundle: ADDSCOPE_BUNDLE_FLAVOUR entry '$spec': no programs in '$fb'" >&2; exit 2; }
  mkdir -p "$D/$fname/bin"
  echo "$fname" >"$D/$fname/flavour"
  for p in tests/addscope-unit-tests apps/demo/addscope-demo apps/bench/addscope-bench \
           $waits_programs; do
    [[ -x "$fb/$p" ]] && cp "$fb/$p" "$D/$fname/bin/"
  done
  if [[ -d "$fb/external/bin" ]]; then
    for p in "$fb"/external/bin/*; do [[ -x "$p" ]] && cp "$p" "$D/$fname/bin/"; done
  fi
  strip "$D/$fname"/bin/* 2>/dev/null || true
  describe_build "$fb" "$D/$fname" || true
done
cp "$B/src/libaddscope_waits.so" "$B/tests/tools/libaddscope_null_tool.so" "$D/lib/"
[[ -f "$B/tests/tools/libaddscope_count_tool.so" ]] && cp "$B/tests/tools/libaddscope_count_tool.so" "$D/lib/"
[[ -f "$B/tests/perf/libaddscope_cupti_floor_tool.so" ]] && cp "$B/tests/perf/libaddscope_cupti_floor_tool.so" "$D/lib/"
[[ -n "${KT_LIB:-}" ]] && cp "$KT_LIB" "$D/lib/kp_kernel_timer.so"
# The MPI pieces (a build with addscope_ENABLE_MPI): the waits tool's PMPI
# wrappers, the slow-collective program and the ctest checks that run.sh mpi
# uses (cmake -P). libmpi.so.40 does not travel: the GPU machine's Open MPI
# 4.1.6 has the same ABI as Debian's 4.1.4.
if [[ -f "$B/src/libaddscope_waits_mpi.so" ]]; then
  cp "$B/src/libaddscope_waits_mpi.so" "$D/lib/"
  cp "$B/tests/mpi/addscope-test-waits-slow-collective" "$D/bin/"
  mkdir -p "$D/checks/demo" "$D/checks/bench" "$D/checks/mpi"
  cp "$ROOT/apps/check_helpers.cmake" "$D/checks/"
  cp "$ROOT/apps/demo/check_demo_mpi.cmake" "$D/checks/demo/"
  cp "$ROOT/apps/bench/check_bench_mpi.cmake" "$D/checks/bench/"
  cp "$ROOT/tests/mpi/check_waits_mpi.cmake" "$D/checks/mpi/"
fi
# Debian's CUDA 11.8 runtime and CUPTI go along for a build with it; a build
# against CUDA 12/13 uses the GPU machine's (its libpath).
libs="libfmt.so.9 libgomp.so.1"
if describe_build "$B" "$D"; then
  # its name in waits_h200.sh's and the soak's reports (else: kokkos-3.4)
  echo "cuda$(sed -n 's/^cuda: \([0-9.]*\),.*/\1/p' "$D/info.txt")" >"$D/flavour"
else
  libs+=" libcudart.so.11.0 libcupti.so.11.8"
fi
# The waits tool's source lines (libdw, libelf, libunwind), where it was
# built with them.
needed="$(readelf -d "$B/src/libaddscope_waits.so" 2>/dev/null)"
[[ "$needed" == *"[libdw.so.1]"* ]] && libs+=" libdw.so.1 libelf.so.1"
[[ "$needed" == *"[libunwind.so.8]"* ]] && libs+=" libunwind.so.8"
# (ADDSCOPE_BUNDLE_LIBDIRS: folders searched first, e.g. cmake/gpu-build.sh's
# carried libfmt on the GPU machine)
for l in $libs; do
  found=""
  for dir in ${ADDSCOPE_BUNDLE_LIBDIRS:-} /usr/lib/x86_64-linux-gnu; do
    [[ -f "$dir/$l" ]] && { cp -L "$dir/$l" "$D/lib/"; found=1; break; }
  done
  [[ -n "$found" ]] || { echo "cuda-bundle: $l not found in ${ADDSCOPE_BUNDLE_LIBDIRS:-} /usr/lib/x86_64-linux-gnu" >&2; exit 1; }
done
[[ -x "$D/bin/addscope-unit-tests" || -x "$D/bin/addscope-waits-check" ]] ||
  { echo "cuda-bundle: no programs in $B" >&2; exit 1; }
if [[ -x "$O/apps/bench/addscope-bench" ]]; then
  mkdir -p "$D/lib-openmp"
  cp "$O/apps/bench/addscope-bench" "$D/bin/addscope-bench-openmp"
  cp "$O/src/libaddscope_waits.so" "$D/lib-openmp/"
fi
# The waits unit tests keep theirs too: their sites tests resolve stacks
# to their own lines (stripped, 15 of them failed on the H100).
for p in "$D"/bin/*; do
  case "$(basename "$p")" in
    addscope-test-* | addscope-waits-tests) ;;
    *) strip "$p" 2>/dev/null || true ;;
  esac
done
strip --strip-unneeded "$D"/lib/*.so* "$D"/lib-openmp/*.so* 2>/dev/null || true
# The injection step's CUDA programs without Kokkos and their checker
# (run.sh injection).
mkdir -p "$D/cuda_programs"
cp "$ROOT"/tests/cuda_programs/*.py "$ROOT"/tests/cuda_programs/*.cpp "$D/cuda_programs/"
cp "$ROOT/cmake/cuda-run.sh" "$D/run.sh"
cp "$ROOT/tests/tools/waits_h200.sh" "$ROOT/tests/perf/waits_cost.sh" "$D/"
du -sh "$D"
