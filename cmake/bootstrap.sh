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
# Or, from a Kokkos + Kokkos Kernels source tree you give (3.x, 4.x or 5.x; for
# example a git checkout of Kokkos develop), instead of Debian's 3.4:
#
#   ADDSCOPE_KOKKOS_SOURCE=/path/to/kokkos \
#   ADDSCOPE_KOKKOS_KERNELS_SOURCE=/path/to/kokkos-kernels \
#   [ADDSCOPE_KOKKOS_PREFIX=/opt/kokkos-%v]  cmake/bootstrap.sh openmp|cuda
#
#   4.x/5.x openmp  Serial + OpenMP, Kokkos_ENABLE_DEPRECATED_CODE_4=OFF
#   4.x/5.x cuda    Cuda + OpenMP + Serial, Kokkos_ARCH_HOPPER90 (native sm_90),
#                   CUDA 11.8 + g++-11, Kokkos_ENABLE_DEPRECATED_CODE_4=OFF
#   (a 3.x tree gets the Debian 3.4 options above.) Kokkos Kernels: only the
#   BLAS component, no ETI. 5.x is built as C++20, older ones as C++17.
#
#   The install prefix is ADDSCOPE_KOKKOS_PREFIX (%v = the variant; without
#   %v only one variant per call), default
#   $ADDSCOPE_DEPS_DIR/install/<variant>-kokkos<version>-<hash of both source
#   paths>, so two source trees never share a prefix. The prefix records what
#   it was built from (share/addscope-bootstrap.stamp: both source paths, a
#   fingerprint of every file's name, size and time, the variant, the
#   options); a later call reuses it only when all of that matches and
#   rebuilds it otherwise. A non-empty prefix without that stamp is never
#   touched. Concurrent calls for one prefix wait for each other (flock on a
#   file under $ADDSCOPE_DEPS_DIR/locks).
#
# Usage: cmake/bootstrap.sh [packages|cuda-toolkit|fuzz-tools|source|openmp|cuda]...
#   packages      apt: compilers, GoogleTest, CLI11, nlohmann-json, fmt, gnuplot,
#                 Open MPI (the MPI component and its tests)
#   cuda-toolkit  apt: nvidia-cuda-toolkit (11.8, non-free) + libcupti-dev + g++-11 (large)
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
KOKKOS_SOURCE="${ADDSCOPE_KOKKOS_SOURCE:-}"
KK_SOURCE="${ADDSCOPE_KOKKOS_KERNELS_SOURCE:-}"
USER_PREFIX="${ADDSCOPE_KOKKOS_PREFIX:-}"

log() { printf '[addscope-bootstrap] %s\n' "$*" >&2; }
fail() {
  local step="$1"; shift
  printf '[addscope-bootstrap] FAILED at step "%s": %s\n' "$step" "$*" >&2
  local env_=""
  [[ -n "$KOKKOS_SOURCE$KK_SOURCE" ]] &&
    env_="ADDSCOPE_KOKKOS_SOURCE=$KOKKOS_SOURCE ADDSCOPE_KOKKOS_KERNELS_SOURCE=$KK_SOURCE "
  [[ -n "$USER_PREFIX" ]] && env_+="ADDSCOPE_KOKKOS_PREFIX=$USER_PREFIX "
  printf '[addscope-bootstrap] retry with: %s%s %s\n' "$env_" "$0" "$step" >&2
  if [[ -n "$env_" ]]; then
    printf '[addscope-bootstrap] (logs under %s/logs)\n' "$DEPS" >&2
  else
    printf '[addscope-bootstrap] (logs under %s/logs; remove %s/stamps/%s* to force a redo)\n' \
      "$DEPS" "$DEPS" "$step" >&2
  fi
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
    libgtest-dev libgmock-dev libcli11-dev nlohmann-json3-dev libfmt-dev gnuplot-nox \
    libopenmpi-dev openmpi-bin
}

step_cuda_toolkit() {
  apt_install cuda-toolkit nvidia-cuda-toolkit libcupti-dev g++-11
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
# kokkos_options VARIANT MAJOR PREFIX: sets kopts (Kokkos' CMake options),
# kkopts (Kokkos Kernels'), cxx_std and env_ (the environment both builds run
# in).
kokkos_options() {
  local v="$1" major="$2" prefix="$3"
  env_=(env)
  cxx_std=17
  [[ "$major" -ge 5 ]] && cxx_std=20
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
      # Kokkos 3.x knows no Hopper: configure Ampere80, retarget the code to
      # sm_90. Kokkos 4.x+ has Hopper: the wrapper only pins the toolchain.
      local arch=-DKokkos_ARCH_HOPPER90=ON
      [[ "$major" -lt 4 ]] && arch=-DKokkos_ARCH_AMPERE80=ON
      kopts=(-DCMAKE_CXX_COMPILER="$prefix/bin/nvcc_wrapper_sm90" -DKokkos_ENABLE_SERIAL=ON
        -DKokkos_ENABLE_OPENMP=ON -DKokkos_ENABLE_CUDA=ON -DKokkos_ENABLE_CUDA_LAMBDA=ON
        "$arch" -DCUDAToolkit_ROOT=/usr)
      # Debian's CUDA headers live in /usr/include, which 4.x's FindCUDAToolkit misses.
      [[ "$major" -ge 4 ]] && kopts+=(-DCUDAToolkit_INCLUDE_DIR=/usr/include)
      ;;
    *) fail "$v" "unknown variant '$v' (allowed: openmp, cuda)" ;;
  esac
  local cxx="${kopts[0]#-DCMAKE_CXX_COMPILER=}"
  kkopts=(-DKokkos_ROOT="$prefix" -DCMAKE_CXX_COMPILER="$cxx"
    -DKokkosKernels_ENABLE_TESTS=OFF -DKokkosKernels_ENABLE_EXAMPLES=OFF
    -DKokkosKernels_ENABLE_TPL_BLAS=OFF)
  if [[ "$major" -ge 4 ]]; then
    kopts+=(-DKokkos_ENABLE_DEPRECATED_CODE_4=OFF -DKokkos_ENABLE_TESTS=OFF
      -DKokkos_ENABLE_EXAMPLES=OFF -DKokkos_ENABLE_BENCHMARKS=OFF)
    # Only the BLAS component, no explicit instantiations: what addscope uses.
    kkopts+=(-DKokkosKernels_ADD_DEFAULT_ETI=OFF -DKokkosKernels_ENABLE_ALL_COMPONENTS=OFF
      -DKokkosKernels_ENABLE_COMPONENT_BLAS=ON -DKokkosKernels_ENABLE_PERFTESTS=OFF
      -DKokkosKernels_ENABLE_BENCHMARKS=OFF -DKokkosKernels_ENABLE_DOCS=OFF)
  else
    kkopts+=(-DKokkosKernels_INST_DOUBLE=OFF -DKokkosKernels_INST_FLOAT=OFF
      -DKokkosKernels_INST_COMPLEX_DOUBLE=OFF -DKokkosKernels_INST_COMPLEX_FLOAT=OFF
      -DKokkosKernels_INST_ORDINAL_INT=OFF -DKokkosKernels_INST_ORDINAL_INT64_T=OFF
      -DKokkosKernels_INST_OFFSET_INT=OFF -DKokkosKernels_INST_OFFSET_SIZE_T=OFF
      -DKokkosKernels_INST_LAYOUTLEFT=OFF -DKokkosKernels_INST_LAYOUTRIGHT=OFF
      -DKokkosKernels_INST_EXECSPACE_OPENMP=OFF -DKokkosKernels_INST_EXECSPACE_SERIAL=OFF
      -DKokkosKernels_INST_EXECSPACE_CUDA=OFF)
  fi
}

# write_cuda_wrapper PREFIX MAJOR NVCC_WRAPPER: PREFIX/bin/nvcc_wrapper_sm90,
# Kokkos' NVCC_WRAPPER behind CUDA 11.8 + g++-11 on PATH. For Kokkos 3.x, which
# knows no Hopper, it also retargets the Ampere80 code to sm_90.
write_cuda_wrapper() {
  local prefix="$1" major="$2" wrapper="$3" retarget=0
  [[ "$major" -lt 4 ]] && retarget=1
  mkdir -p "$prefix/bin"
  sed -e "s|@KOKKOS_NVCC_WRAPPER@|$wrapper|" -e "s|@ADDSCOPE_RETARGET_SM80@|$retarget|" \
    "$HERE/nvcc_wrapper_sm90.in" >"$prefix/bin/nvcc_wrapper_sm90"
  chmod +x "$prefix/bin/nvcc_wrapper_sm90"
}

# build_kokkos STEP LOGTAG KOKKOS_SRC KK_SRC PREFIX BUILD: configure, build and
# install Kokkos, then Kokkos Kernels, with kopts/kkopts/cxx_std/env_.
build_kokkos() {
  local step="$1" tag="$2" ksrc="$3" kksrc="$4" prefix="$5" build="$6"
  local common=(-G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_STANDARD="$cxx_std"
    -DCMAKE_INSTALL_PREFIX="$prefix" -DBUILD_SHARED_LIBS=OFF -DCMAKE_POSITION_INDEPENDENT_CODE=ON)
  rm -rf "$build"; mkdir -p "$build"
  run_logged "$step" "kokkos-$tag-configure" "${env_[@]}" cmake -S "$ksrc" \
    -B "$build/kokkos" "${common[@]}" "${kopts[@]}"
  run_logged "$step" "kokkos-$tag-build" "${env_[@]}" cmake --build "$build/kokkos" -j "$JOBS"
  run_logged "$step" "kokkos-$tag-install" cmake --install "$build/kokkos"
  log "building Kokkos Kernels ($tag, no ETI: only what addscope uses)"
  run_logged "$step" "kk-$tag-configure" "${env_[@]}" cmake -S "$kksrc" \
    -B "$build/kk" "${common[@]}" "${kkopts[@]}"
  run_logged "$step" "kk-$tag-build" "${env_[@]}" cmake --build "$build/kk" -j "$JOBS"
  run_logged "$step" "kk-$tag-install" cmake --install "$build/kk"
  rm -rf "$build"
}

build_variant() {  # build_variant NAME: Kokkos 3.4.01 from Debian's sources
  local v="$1"
  local prefix="$DEPS/install/$v" build="$DEPS/build/$v"
  if done_ "build-$v" && [[ -f "$prefix/lib/cmake/Kokkos/KokkosConfig.cmake" ]]; then
    log "variant $v already installed in $prefix"; echo "prefix: $prefix"; return
  fi
  local kopts=() kkopts=() env_=() cxx_std=17
  kokkos_options "$v" 3 "$prefix"
  [[ "$v" == cuda ]] && write_cuda_wrapper "$prefix" 3 "$SRC/packages/kokkos/bin/nvcc_wrapper"
  log "building Kokkos $KOKKOS_VERSION_EXPECTED ($v) -> $prefix"
  build_kokkos "$v" "$v" "$SRC/packages/kokkos" "$SRC/packages/kokkos-kernels" "$prefix" "$build"
  stamp "build-$v"
  log "variant $v installed in $prefix"
  echo "prefix: $prefix"
}

# --- builds from a user-given source tree -----------------------------------
src_version() {  # src_version DIR NAME -> "MAJOR.MINOR.PATCH" from DIR/CMakeLists.txt
  local f="$1/CMakeLists.txt" part out=""
  for part in MAJOR MINOR PATCH; do
    local x
    x=$(sed -n -E "s/^[[:space:]]*set[[:space:]]*\([[:space:]]*$2_VERSION_$part[[:space:]]+([0-9]+).*/\1/Ip" \
      "$f" 2>/dev/null | head -n 1)
    [[ -n "$x" ]] || return 1
    out+="${out:+.}$x"
  done
  echo "$out"
}
tree_fingerprint() {  # every file's path, size and mtime (no .git), hashed
  (cd "$1" && find . -path ./.git -prune -o -type f -printf '%P %s %T@\n' | LC_ALL=C sort |
    sha256sum | cut -c1-16)
}

build_from_source() {  # build_from_source VARIANT NUMBER_OF_VARIANTS_REQUESTED
  local v="$1" nvariants="$2"
  [[ -n "$KOKKOS_SOURCE" && -n "$KK_SOURCE" ]] || fail "$v" "ADDSCOPE_KOKKOS_SOURCE \
('$KOKKOS_SOURCE') and ADDSCOPE_KOKKOS_KERNELS_SOURCE ('$KK_SOURCE') are needed together; \
allowed: both set to source trees, or neither (Debian's Kokkos 3.4.01)"
  local ksrc kksrc kver kkver
  ksrc="$(realpath -e "$KOKKOS_SOURCE" 2>/dev/null)" ||
    fail "$v" "ADDSCOPE_KOKKOS_SOURCE = '$KOKKOS_SOURCE' does not exist"
  kksrc="$(realpath -e "$KK_SOURCE" 2>/dev/null)" ||
    fail "$v" "ADDSCOPE_KOKKOS_KERNELS_SOURCE = '$KK_SOURCE' does not exist"
  kver="$(src_version "$ksrc" Kokkos)" || fail "$v" "ADDSCOPE_KOKKOS_SOURCE = '$ksrc' is \
not a Kokkos source tree (no Kokkos_VERSION_MAJOR/MINOR/PATCH in its CMakeLists.txt)"
  kkver="$(src_version "$kksrc" KokkosKernels)" || fail "$v" "ADDSCOPE_KOKKOS_KERNELS_SOURCE = \
'$kksrc' is not a Kokkos Kernels source tree (no KokkosKernels_VERSION_* in its CMakeLists.txt)"
  local major="${kver%%.*}"
  [[ "$major" -ge 3 ]] || fail "$v" "Kokkos $kver in $ksrc is too old; allowed: 3.x, 4.x, 5.x"
  [[ "${kkver%%.*}" == "$major" ]] || fail "$v" "Kokkos Kernels $kkver ($kksrc) does not \
match Kokkos $kver ($ksrc); allowed: the same major version"

  local prefix key
  key="$(printf '%s\n%s\n' "$ksrc" "$kksrc" | sha256sum | cut -c1-8)"
  if [[ -n "$USER_PREFIX" ]]; then
    [[ "$USER_PREFIX" == *%v* || "$nvariants" -le 1 ]] || fail "$v" "ADDSCOPE_KOKKOS_PREFIX = \
'$USER_PREFIX' names one prefix for several variants; allowed: one variant per call, or %v in it"
    prefix="${USER_PREFIX//%v/$v}"
    [[ "$prefix" == /* ]] || prefix="$PWD/$prefix"
  else
    prefix="$DEPS/install/$v-kokkos$kver-$key"
  fi
  local kopts=() kkopts=() env_=() cxx_std=17
  kokkos_options "$v" "$major" "$prefix"
  local st="$prefix/share/addscope-bootstrap.stamp" want
  want="$(printf 'kokkos_source=%s\nkokkos_version=%s\nkokkos_fingerprint=%s\n' \
      "$ksrc" "$kver" "$(tree_fingerprint "$ksrc")"
    printf 'kokkos_kernels_source=%s\nkokkos_kernels_version=%s\nkokkos_kernels_fingerprint=%s\n' \
      "$kksrc" "$kkver" "$(tree_fingerprint "$kksrc")"
    printf 'variant=%s\ncxx_standard=%s\noptions=%s\n' "$v" "$cxx_std" \
      "$(printf '%s\n' "${kopts[@]}" "${kkopts[@]}" | sha256sum | cut -c1-16)")"

  mkdir -p "$DEPS/locks"
  local lock; lock="$DEPS/locks/$(printf '%s' "$prefix" | sha256sum | cut -c1-16).lock"
  exec 9>"$lock"
  flock 9 || fail "$v" "could not lock $lock (for $prefix)"
  if [[ -f "$st" && "$(cat "$st")" == "$want" && -f "$prefix/lib/cmake/Kokkos/KokkosConfig.cmake" ]]; then
    log "Kokkos $kver + Kokkos Kernels $kkver ($v) from $ksrc already installed in $prefix"
    exec 9>&-
    echo "prefix: $prefix"; return
  fi
  if [[ -f "$st" ]]; then
    log "$prefix was built from other sources or options; rebuilding it:"
    diff <(cat "$st") <(echo "$want") | sed 's/^/[addscope-bootstrap]   /' >&2 || true
    rm -rf "$prefix"
  elif [[ -d "$prefix" && -n "$(ls -A "$prefix" 2>/dev/null)" ]]; then
    fail "$v" "ADDSCOPE_KOKKOS_PREFIX: $prefix is not empty and was not made by this bootstrap \
(no $st); allowed: an empty or new folder"
  fi
  rm -rf "$prefix"
  if [[ "$v" == cuda ]]; then
    # Kokkos' nvcc_wrapper is copied into the prefix first (its install puts
    # the same file there), so the prefix does not depend on the source tree.
    install -D -m 755 "$ksrc/bin/nvcc_wrapper" "$prefix/bin/nvcc_wrapper"
    write_cuda_wrapper "$prefix" "$major" "$prefix/bin/nvcc_wrapper"
  fi
  local tag; tag="$(basename "$prefix")"
  log "building Kokkos $kver + Kokkos Kernels $kkver ($v) from $ksrc and $kksrc -> $prefix"
  build_kokkos "$v" "$tag" "$ksrc" "$kksrc" "$prefix" "$DEPS/build/$tag"
  mkdir -p "$(dirname "$st")"
  echo "$want" >"$st"
  exec 9>&-
  log "Kokkos $kver ($v) installed in $prefix"
  echo "prefix: $prefix"
}

from_source() { [[ -n "$KOKKOS_SOURCE$KK_SOURCE" ]]; }

[[ $# -gt 0 ]] || set -- openmp
nvariants=0
for step in "$@"; do [[ "$step" == openmp || "$step" == cuda ]] && nvariants=$((nvariants + 1)); done
for step in "$@"; do
  case "$step" in
    packages) step_packages ;;
    cuda-toolkit) step_cuda_toolkit ;;
    fuzz-tools) step_fuzz_tools ;;
    source) step_source ;;
    openmp)
      step_packages
      if from_source; then build_from_source openmp "$nvariants"; else step_source; build_variant openmp; fi ;;
    cuda)
      step_packages; step_cuda_toolkit
      if from_source; then build_from_source cuda "$nvariants"; else step_source; build_variant cuda; fi ;;
    *) echo "usage: $0 [packages|cuda-toolkit|fuzz-tools|source|openmp|cuda]... (unknown step '$step')" >&2
       exit 2 ;;
  esac
done
