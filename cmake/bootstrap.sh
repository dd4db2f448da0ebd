#!/usr/bin/env bash
# addscope dependency bootstrap.
#
# Builds and installs Kokkos 3.4.01 + Kokkos Kernels 3.4.01 from Debian 12's
# `trilinos` source package (the only complete Kokkos these machines can get),
# in one of two variants:
#
#   openmp  Kokkos (Serial + OpenMP) + Kokkos Kernels (no ETI), system g++, C++17
#   cuda    Kokkos (Cuda + OpenMP + Serial, lambdas) + Kokkos Kernels (no ETI),
#           Debian's CUDA 11.8 toolkit + g++-11, Ampere80 config retargeted to sm_90
#
# Usage: cmake/bootstrap.sh [packages|cuda-toolkit|fuzz-tools|source|openmp|cuda]...
#   packages      apt: compilers, GoogleTest, CLI11, nlohmann-json, fmt, gnuplot
#   cuda-toolkit  apt: nvidia-cuda-toolkit (11.8, non-free) + g++-11 (large)
#   fuzz-tools    apt: clang-14 + compiler-rt (libFuzzer) for tests/fuzz
#   source        fetch and unpack Kokkos + Kokkos Kernels from Debian's trilinos
#   openmp        packages + source + build/install the openmp variant
#   cuda          packages + cuda-toolkit + source + build/install the cuda variant
#
# Idempotent and cached: everything lands in $ADDSCOPE_DEPS_DIR
# (default ~/.cache/addscope-deps); a finished step leaves a stamp file and is
# skipped next time. Prints the install prefix of the last variant on stdout's
# last line ("prefix: DIR").
set -euo pipefail

DEPS="${ADDSCOPE_DEPS_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/addscope-deps}"
JOBS="${ADDSCOPE_JOBS:-$(nproc)}"
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
KOKKOS_VERSION_EXPECTED="3.4.01"

log() { printf '[addscope-bootstrap] %s\n' "$*" >&2; }
fail() {
  local step="$1"; shift
  printf '[addscope-bootstrap] FAILED at step "%s": %s\n' "$step" "$*" >&2
  printf '[addscope-bootstrap] retry with: %s %s\n' "$0" "$step" >&2
  printf '[addscope-bootstrap] (logs under %s/logs; remove %s/stamps/%s* to force a redo)\n' \
    "$DEPS" "$DEPS" "$step" >&2
  exit 1
}
stamp() { mkdir -p "$DEPS/stamps"; touch "$DEPS/stamps/$1"; }
done_() { [[ -f "$DEPS/stamps/$1" ]]; }
run_logged() {  # run_logged STEP LOGNAME cmd...
  local step="$1" name="$2"; shift 2
  mkdir -p "$DEPS/logs"
  if ! "$@" >"$DEPS/logs/$name.log" 2>&1; then
    tail -n 30 "$DEPS/logs/$name.log" >&2 || true
    fail "$step" "command failed: $* (full log: $DEPS/logs/$name.log)"
  fi
}

as_root() {
  if [[ $(id -u) -eq 0 ]]; then "$@"; elif command -v sudo >/dev/null; then sudo "$@"; else
    fail apt "need root (or sudo) to run: $*"; fi
}

# --- apt sources ----------------------------------------------------------
# Derive a deb-src entry (main) and the non-free components from the machine's
# own apt sources, so that no registry host name is ever written into the repo.
APT_SOURCES=/etc/apt/sources.list.d/addscope.sources
apt_sources() {
  command -v apt-get >/dev/null || fail apt "apt-get not found: this bootstrap needs Debian 12 \
(or pass -DKokkos_ROOT=... and -DKokkosKernels_ROOT=... to CMake to use your own Kokkos)"
  if [[ -f "$APT_SOURCES" ]] && done_ apt-update; then return; fi
  log "deriving deb-src and non-free apt entries from the machine's sources"
  local tmp; tmp="$(mktemp)"
  python3 - "$tmp" <<'EOF' || fail apt "could not derive apt sources from /etc/apt"
import glob, re, sys
stanzas = []
for f in sorted(glob.glob('/etc/apt/sources.list.d/*.sources')):
    if f.endswith('addscope.sources'):
        continue
    for st in open(f).read().split('\n\n'):
        if re.search(r'^Components:.*\bmain\b', st, re.M) and re.search(r'^URIs:.*debian', st, re.M):
            stanzas.append(st.strip())
lines = []
try:
    for ln in open('/etc/apt/sources.list'):
        m = re.match(r'\s*deb\s+(\[[^\]]*\]\s+)?(\S+)\s+(\S+)\s+(.*\bmain\b.*)$', ln)
        if m:
            lines.append((m.group(1) or '', m.group(2), m.group(3)))
except FileNotFoundError:
    pass
out = []
for st in stanzas:
    src = re.sub(r'^Types:.*$', 'Types: deb-src', st, flags=re.M)
    src = re.sub(r'^Components:.*$', 'Components: main', src, flags=re.M)
    nf = re.sub(r'^Types:.*$', 'Types: deb', st, flags=re.M)
    nf = re.sub(r'^Components:.*$', 'Components: contrib non-free', nf, flags=re.M)
    out += [src, nf]
for opts, uri, suite in lines:
    out.append(f'Types: deb-src\nURIs: {uri}\nSuites: {suite}\nComponents: main')
    out.append(f'Types: deb\nURIs: {uri}\nSuites: {suite}\nComponents: contrib non-free')
if not out:
    sys.exit('no Debian "main" entry found in the apt sources')
open(sys.argv[1], 'w').write('# written by addscope cmake/bootstrap.sh\n' + '\n\n'.join(out) + '\n')
EOF
  as_root install -m 644 "$tmp" "$APT_SOURCES"
  rm -f "$tmp"
  run_logged apt apt-update as_root apt-get update
  stamp apt-update
}

apt_install() {  # apt_install STEP pkgs...
  local step="$1"; shift
  local missing=()
  for p in "$@"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
  [[ ${#missing[@]} -eq 0 ]] && return
  apt_sources
  log "apt-get install ${missing[*]}"
  run_logged "$step" "apt-$step" as_root env DEBIAN_FRONTEND=noninteractive \
    apt-get install -y --no-install-recommends "${missing[@]}"
}

step_packages() {
  apt_install packages build-essential cmake ninja-build python3 dpkg-dev \
    libgtest-dev libgmock-dev libcli11-dev nlohmann-json3-dev libfmt-dev gnuplot-nox
}

step_cuda_toolkit() {
  apt_install cuda-toolkit nvidia-cuda-toolkit g++-11
}

# clang++-14 (clang-14) and its compiler-rt, which holds libFuzzer's
# -fsanitize=fuzzer runtime and the ASan/UBSan runtimes (libclang-rt-14-dev:
# only a Recommends of clang-14, so named here); llvm-14 for llvm-symbolizer.
step_fuzz_tools() {
  apt_install fuzz-tools clang-14 libclang-rt-14-dev llvm-14
}

# --- source ---------------------------------------------------------------
SRC="$DEPS/src/trilinos"
step_source() {
  if done_ source && [[ -d "$SRC/packages/kokkos" ]]; then return; fi
  apt_sources
  mkdir -p "$DEPS/download"
  log "downloading Debian's trilinos source package (~166 MB)"
  (cd "$DEPS/download" && run_logged source apt-source apt-get source --download-only trilinos)
  local orig; orig=$(ls "$DEPS"/download/trilinos_*.orig.tar.* 2>/dev/null | head -n 1)
  [[ -n "$orig" ]] || fail source "no trilinos_*.orig.tar.* in $DEPS/download"
  log "unpacking packages/kokkos and packages/kokkos-kernels from $(basename "$orig")"
  rm -rf "$SRC" "$DEPS/src/unpack"; mkdir -p "$DEPS/src/unpack"
  run_logged source untar tar -xf "$orig" -C "$DEPS/src/unpack" --wildcards \
    '*/packages/kokkos/*' '*/packages/kokkos-kernels/*'
  mv "$DEPS/src/unpack"/* "$SRC"; rmdir "$DEPS/src/unpack"
  grep -q "Kokkos_VERSION_MAJOR 3" "$SRC/packages/kokkos/CMakeLists.txt" ||
    fail source "unexpected Kokkos version in $SRC/packages/kokkos"
  stamp source
}

# --- builds ---------------------------------------------------------------
build_variant() {  # build_variant NAME
  local v="$1"
  local prefix="$DEPS/install/$v" build="$DEPS/build/$v"
  if done_ "build-$v" && [[ -f "$prefix/lib/cmake/Kokkos/KokkosConfig.cmake" ]]; then
    log "variant $v already installed in $prefix"; echo "prefix: $prefix"; return
  fi
  local kopts=() env_=()
  case "$v" in
    openmp)
      kopts=(-DCMAKE_CXX_COMPILER=g++ -DKokkos_ENABLE_SERIAL=ON -DKokkos_ENABLE_OPENMP=ON)
      ;;
    cuda)
      local nvcc_dir=/usr/lib/nvidia-cuda-toolkit/bin
      [[ -x $nvcc_dir/nvcc ]] || fail cuda "CUDA 11.8 toolkit missing ($nvcc_dir/nvcc); run: $0 cuda-toolkit"
      command -v g++-11 >/dev/null || fail cuda "g++-11 missing; run: $0 cuda-toolkit"
      # /usr/local/bin may hold CUDA 13 shims (nvcc, ptxas, cudafe++) that break 11.8.
      env_=(env -u CUDA_HOME "PATH=$nvcc_dir:/usr/bin:/bin:$PATH" NVCC_WRAPPER_DEFAULT_COMPILER=g++-11)
      # Kokkos 3.4 knows no Hopper: configure Ampere80, retarget the code to sm_90.
      mkdir -p "$prefix/bin"
      sed "s|@KOKKOS_NVCC_WRAPPER@|$SRC/packages/kokkos/bin/nvcc_wrapper|" \
        "$HERE/nvcc_wrapper_sm90.in" >"$prefix/bin/nvcc_wrapper_sm90"
      chmod +x "$prefix/bin/nvcc_wrapper_sm90"
      kopts=(-DCMAKE_CXX_COMPILER="$prefix/bin/nvcc_wrapper_sm90" -DKokkos_ENABLE_SERIAL=ON
        -DKokkos_ENABLE_OPENMP=ON -DKokkos_ENABLE_CUDA=ON -DKokkos_ENABLE_CUDA_LAMBDA=ON
        -DKokkos_ARCH_AMPERE80=ON
        -DCUDAToolkit_ROOT=/usr)
      ;;
    *) fail "$v" "unknown variant '$v' (allowed: openmp, cuda)" ;;
  esac
  local common=(-G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_STANDARD=17
    -DCMAKE_INSTALL_PREFIX="$prefix" -DBUILD_SHARED_LIBS=OFF -DCMAKE_POSITION_INDEPENDENT_CODE=ON)
  log "building Kokkos $KOKKOS_VERSION_EXPECTED ($v) -> $prefix"
  rm -rf "$build"; mkdir -p "$build"
  run_logged "$v" "kokkos-$v-configure" "${env_[@]}" cmake -S "$SRC/packages/kokkos" \
    -B "$build/kokkos" "${common[@]}" "${kopts[@]}"
  run_logged "$v" "kokkos-$v-build" "${env_[@]}" cmake --build "$build/kokkos" -j "$JOBS"
  run_logged "$v" "kokkos-$v-install" cmake --install "$build/kokkos"
  log "building Kokkos Kernels $KOKKOS_VERSION_EXPECTED ($v, no ETI: only what addscope uses)"
  run_logged "$v" "kk-$v-configure" "${env_[@]}" cmake -S "$SRC/packages/kokkos-kernels" \
    -B "$build/kk" "${common[@]}" -DKokkos_ROOT="$prefix" \
    -DCMAKE_CXX_COMPILER="$(grep -m1 '^CMAKE_CXX_COMPILER:' "$build/kokkos/CMakeCache.txt" | cut -d= -f2)" \
    -DKokkosKernels_INST_DOUBLE=OFF -DKokkosKernels_INST_FLOAT=OFF \
    -DKokkosKernels_INST_COMPLEX_DOUBLE=OFF -DKokkosKernels_INST_COMPLEX_FLOAT=OFF \
    -DKokkosKernels_INST_ORDINAL_INT=OFF -DKokkosKernels_INST_ORDINAL_INT64_T=OFF \
    -DKokkosKernels_INST_OFFSET_INT=OFF -DKokkosKernels_INST_OFFSET_SIZE_T=OFF \
    -DKokkosKernels_INST_LAYOUTLEFT=OFF -DKokkosKernels_INST_LAYOUTRIGHT=OFF \
    -DKokkosKernels_INST_EXECSPACE_OPENMP=OFF -DKokkosKernels_INST_EXECSPACE_SERIAL=OFF \
    -DKokkosKernels_INST_EXECSPACE_CUDA=OFF -DKokkosKernels_ENABLE_TESTS=OFF \
    -DKokkosKernels_ENABLE_EXAMPLES=OFF -DKokkosKernels_ENABLE_TPL_BLAS=OFF
  run_logged "$v" "kk-$v-build" "${env_[@]}" cmake --build "$build/kk" -j "$JOBS"
  run_logged "$v" "kk-$v-install" cmake --install "$build/kk"
  rm -rf "$build"
  stamp "build-$v"
  log "variant $v installed in $prefix"
  echo "prefix: $prefix"
}

[[ $# -gt 0 ]] || set -- openmp
for step in "$@"; do
  case "$step" in
    packages) step_packages ;;
    cuda-toolkit) step_cuda_toolkit ;;
    fuzz-tools) step_fuzz_tools ;;
    source) step_source ;;
    openmp) step_packages; step_source; build_variant openmp ;;
    cuda) step_packages; step_cuda_toolkit; step_source; build_variant cuda ;;
    *) echo "usage: $0 [packages|cuda-toolkit|fuzz-tools|source|openmp|cuda]... (unknown step '$step')" >&2
       exit 2 ;;
  esac
done
