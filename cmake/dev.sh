#!/usr/bin/env bash
# addscope developer entry point: sets up dependencies (cmake/bootstrap.sh),
# configures, builds, and runs. Idempotent; a second run only rebuilds.
#
#   cmake/dev.sh demo [demo flags]    build, run addscope-demo
#   cmake/dev.sh test                 build, run every test (ctest)
#   cmake/dev.sh bench [bench flags]  build, run addscope-bench
#   cmake/dev.sh build                build only
#   cmake/dev.sh sanitize             ASan+UBSan build (OpenMP), run all tests
#
# Environment:
#   ADDSCOPE_BACKEND   openmp (default) | cuda
#   ADDSCOPE_BUILD_DIR build folder (default build-<backend>[-sanitize])
#   Kokkos_ROOT / KokkosKernels_ROOT   use your own Kokkos; skip the bootstrap
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(dirname "$HERE")"
cmd="${1:-}"; shift || true
backend="${ADDSCOPE_BACKEND:-openmp}"
case "$backend" in openmp|cuda) ;; *)
  echo "ADDSCOPE_BACKEND='$backend' is invalid; allowed: openmp, cuda" >&2; exit 2 ;;
esac
case "$cmd" in demo|test|bench|build|sanitize) ;; *)
  echo "usage: cmake/dev.sh {demo|test|bench|build|sanitize} [args...] (got '${cmd}')" >&2
  exit 2 ;;
esac

extra=()
suffix=""
if [[ "$cmd" == sanitize ]]; then
  [[ "$backend" == openmp ]] || { echo "sanitize: only the openmp backend" >&2; exit 2; }
  extra+=(-Daddscope_ENABLE_SANITIZERS=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo)
  suffix="-sanitize"
fi

if [[ -n "${Kokkos_ROOT:-}" ]]; then
  prefix="$Kokkos_ROOT"
  kk="${KokkosKernels_ROOT:-$Kokkos_ROOT}"
  bash "$HERE/bootstrap.sh" packages
else
  prefix="$(bash "$HERE/bootstrap.sh" "$backend" | sed -n 's/^prefix: //p' | tail -n 1)"
  kk="$prefix"
fi
[[ -n "$prefix" ]] || { echo "dev.sh: bootstrap gave no prefix" >&2; exit 1; }

build="${ADDSCOPE_BUILD_DIR:-$ROOT/build-$backend$suffix}"
if [[ "$backend" == cuda && -z "${Kokkos_ROOT:-}" ]]; then
  extra+=(-DCMAKE_CXX_COMPILER="$prefix/bin/nvcc_wrapper_sm90")
  export PATH="/usr/lib/nvidia-cuda-toolkit/bin:/usr/bin:$PATH"
  unset CUDA_HOME
fi
if [[ ! -f "$build/CMakeCache.txt" ]]; then
  cmake -S "$ROOT" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DKokkos_ROOT="$prefix" -DKokkosKernels_ROOT="$kk" "${extra[@]}"
fi
cmake --build "$build" -j "$(nproc)"

export OMP_PROC_BIND="${OMP_PROC_BIND:-false}"
case "$cmd" in
  demo) exec "$build/apps/demo/addscope-demo" "$@" ;;
  bench) exec "$build/apps/bench/addscope-bench" "$@" ;;
  test|sanitize)
    cd "$build"
    if [[ "$cmd" == sanitize ]]; then
      export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1"
      export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
    fi
    exec ctest --output-on-failure --timeout 900 ;;
  build) ;;
esac
