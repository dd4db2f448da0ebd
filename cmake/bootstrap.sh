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
# The cuda variant with the machine's own CUDA 12/13 toolkit instead of
# Debian's 11.8 (Kokkos 4.x/5.x sources only; apt installs no CUDA then):
#
#   ADDSCOPE_CUDA_ROOT=/usr/local/cuda  [ADDSCOPE_CUDA_HOST_CXX=g++-12] \
#   ADDSCOPE_KOKKOS_SOURCE=... ADDSCOPE_KOKKOS_KERNELS_SOURCE=... cmake/bootstrap.sh cuda
#
#   Cuda + OpenMP + Serial, Kokkos_ARCH_HOPPER90, that toolkit's nvcc, and as
#   host compiler the newest g++ / g++-N on PATH the toolkit accepts (the
#   "__GNUC__ > N" check of its crt/host_config.h; ADDSCOPE_CUDA_HOST_CXX
#   overrides). Kokkos is built from the bootstrap's own copy of the source,
#   never from the given tree: in the copy, bin/nvcc_wrapper's default
#   architecture is sm_90 (Kokkos' default sm_70 no longer exists in CUDA
#   13), and for Kokkos older than 4.7 with CUDA 13 or later
#   cmake/kokkos-pre4.7-cuda13.patch is applied (two CUDA 13 API changes;
#   the file says which). Default prefix: install/cuda<CUDA major.minor>-
#   kokkos<version>-<hash of both source paths and the CUDA root>: its own,
#   never an 11.8 one; share/addscope-cuda-toolkit in it names the toolkit.
#
# The hip variant, from Kokkos 4.x/5.x sources only, with Debian 12's hipcc
# (ROCm 5.2.3; step hip-toolkit), for compiling (no AMD GPU here):
#
#   ADDSCOPE_KOKKOS_SOURCE=... ADDSCOPE_KOKKOS_KERNELS_SOURCE=... cmake/bootstrap.sh hip
#
#   HIP + Serial, Kokkos_ARCH_AMD_GFX90A (MI200; ADDSCOPE_HIP_ARCH=AMD_GFX942
#   or another Kokkos_ARCH_ name), Kokkos_ENABLE_ROCTHRUST=OFF, compiler
#   hipcc; default prefix install/hip-kokkos<version>-<hash>.
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
# Usage: cmake/bootstrap.sh [packages|cuda-toolkit|hip-toolkit|fuzz-tools|source|openmp|cuda|hip]...
#   packages      apt: compilers, GoogleTest, CLI11, nlohmann-json, fmt, gnuplot,
#                 Open MPI (the MPI component and its tests), libdw + libunwind
#                 (the waits tool's source lines)
#   cuda-toolkit  apt: nvidia-cuda-toolkit (11.8, non-free) + libcupti-dev + g++-11 (large)
#   hip-toolkit   apt: hipcc + libamdhip64-dev (Debian 12's ROCm 5.2.3)
#   fuzz-tools    apt: clang-14 + compiler-rt (libFuzzer) for tests/fuzz
#   source        fetch and unpack Kokkos + Kokkos Kernels from Debian's trilinos
#   openmp        packages + source + build/install the openmp variant
#   cuda          packages + cuda-toolkit + source + build/install the cuda variant
#                 (with ADDSCOPE_CUDA_ROOT: packages + the build, nothing else)
#   hip           packages + hip-toolkit + build/install the hip variant
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
CUDA_ROOT="${ADDSCOPE_CUDA_ROOT:-}"
CUDA_HOST_CXX="${ADDSCOPE_CUDA_HOST_CXX:-}"
HIP_ARCH="${ADDSCOPE_HIP_ARCH:-AMD_GFX90A}"
KOKKOS_CUDA13_PATCH="$HERE/kokkos-pre4.7-cuda13.patch"

log() { printf '[addscope-bootstrap] %s\n' "$*" >&2; }
fail() {
  local step="$1"; shift
  printf '[addscope-bootstrap] FAILED at step "%s": %s\n' "$step" "$*" >&2
  local env_=""
  [[ -n "$KOKKOS_SOURCE$KK_SOURCE" ]] &&
    env_="ADDSCOPE_KOKKOS_SOURCE=$KOKKOS_SOURCE ADDSCOPE_KOKKOS_KERNELS_SOURCE=$KK_SOURCE "
  [[ -n "$USER_PREFIX" ]] && env_+="ADDSCOPE_KOKKOS_PREFIX=$USER_PREFIX "
  [[ -n "$CUDA_ROOT" ]] && env_+="ADDSCOPE_CUDA_ROOT=$CUDA_ROOT "
  [[ -n "$CUDA_HOST_CXX" ]] && env_+="ADDSCOPE_CUDA_HOST_CXX=$CUDA_HOST_CXX "
  [[ -n "${ADDSCOPE_HIP_ARCH:-}" ]] && env_+="ADDSCOPE_HIP_ARCH=$HIP_ARCH "
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
    libopenmpi-dev openmpi-bin libdw-dev libunwind-dev
}

step_cuda_toolkit() {
  apt_install cuda-toolkit nvidia-cuda-toolkit libcupti-dev g++-11
}

# Debian 12's HIP: hipcc (clang 15 based) and the HIP runtime's headers and
# library (ROCm 5.2.3): compiles for AMD GPUs; nothing here runs them.
step_hip_toolkit() {
  apt_install hip-toolkit hipcc libamdhip64-dev
}

# --- a CUDA toolkit of the machine's own (ADDSCOPE_CUDA_ROOT) ----------------
# cuda_toolkit STEP: checks ADDSCOPE_CUDA_ROOT; sets cuda_root, cuda_version
# (MAJOR.MINOR), cuda_release (nvcc's V...), cuda_major, host_cxx (a path) and
# host_cxx_version: ADDSCOPE_CUDA_HOST_CXX, or the newest g++ / g++-N on PATH
# that the toolkit accepts.
cuda_toolkit() {
  local step="$1" v hc gmax=""
  # (absolute, links kept: /usr/local/cuda stays the machine's current CUDA)
  cuda_root="$(cd "$CUDA_ROOT" 2>/dev/null && pwd)" || fail "$step" "ADDSCOPE_CUDA_ROOT = \
'$CUDA_ROOT' does not exist; allowed: the root of a CUDA 12 or 13 toolkit (with bin/nvcc), \
e.g. /usr/local/cuda, or unset (Debian's CUDA 11.8)"
  [[ -x "$cuda_root/bin/nvcc" ]] || fail "$step" "ADDSCOPE_CUDA_ROOT = '$CUDA_ROOT' has no \
bin/nvcc; allowed: the root of a CUDA 12 or 13 toolkit, e.g. /usr/local/cuda"
  v="$("$cuda_root/bin/nvcc" --version 2>&1)" || fail "$step" "$cuda_root/bin/nvcc --version failed: $v"
  cuda_version="$(sed -n 's/.*release \([0-9][0-9]*\.[0-9][0-9]*\).*/\1/p' <<<"$v" | head -n 1)"
  cuda_release="$(sed -n 's/.*release [0-9.]*, \(V[0-9.]*\).*/\1/p' <<<"$v" | head -n 1)"
  [[ -n "$cuda_version" ]] || fail "$step" "no 'release X.Y' in $cuda_root/bin/nvcc --version: $v"
  cuda_major="${cuda_version%%.*}"
  [[ "$cuda_major" -ge 12 ]] || fail "$step" "ADDSCOPE_CUDA_ROOT = '$CUDA_ROOT' is CUDA \
$cuda_version; allowed: 12 or later (for 11.8 leave ADDSCOPE_CUDA_ROOT unset: Debian's toolkit)"
  # The newest GCC the toolkit accepts: its host_config.h stops __GNUC__ > N.
  for hc in "$cuda_root/include/crt/host_config.h" "$cuda_root"/targets/*/include/crt/host_config.h; do
    [[ -f "$hc" ]] || continue
    gmax="$(sed -n 's/^#if __GNUC__ > \([0-9][0-9]*\).*/\1/p' "$hc" | head -n 1)"
    [[ -n "$gmax" ]] && break
  done
  [[ -n "$gmax" ]] || fail "$step" "no '#if __GNUC__ > N' in $cuda_root's crt/host_config.h: \
cannot tell which g++ CUDA $cuda_version accepts; set ADDSCOPE_CUDA_HOST_CXX"
  if [[ -n "$CUDA_HOST_CXX" ]]; then
    host_cxx="$(command -v "$CUDA_HOST_CXX")" || fail "$step" "ADDSCOPE_CUDA_HOST_CXX = \
'$CUDA_HOST_CXX' is not on PATH; allowed: a g++ that CUDA $cuda_version accepts (GCC $gmax or older)"
    host_cxx_version="$("$host_cxx" -dumpfullversion 2>/dev/null)"
    [[ "${host_cxx_version%%.*}" =~ ^[0-9]+$ && "${host_cxx_version%%.*}" -le "$gmax" ]] ||
      fail "$step" "ADDSCOPE_CUDA_HOST_CXX = '$CUDA_HOST_CXX' is GCC '$host_cxx_version'; \
allowed: GCC $gmax or older (CUDA $cuda_version's crt/host_config.h)"
  else
    local c best="" bestv=0 cv
    for c in g++ $(compgen -c g++- | grep -E '^g\+\+-[0-9]+$' | sort -u); do
      command -v "$c" >/dev/null || continue
      cv="$("$c" -dumpversion 2>/dev/null)"; cv="${cv%%.*}"
      [[ "$cv" =~ ^[0-9]+$ && "$cv" -le "$gmax" && "$cv" -ge "$bestv" ]] || continue
      best="$c" bestv="$cv"
    done
    [[ -n "$best" ]] || fail "$step" "no g++ on PATH that CUDA $cuda_version accepts (GCC $gmax \
or older); install one (apt: g++-12) or set ADDSCOPE_CUDA_HOST_CXX"
    host_cxx="$(command -v "$best")"
    host_cxx_version="$("$host_cxx" -dumpfullversion 2>/dev/null)"
  fi
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
      if [[ -n "$CUDA_ROOT" ]]; then
        # The machine's CUDA 12/13 (cuda_toolkit set cuda_root, host_cxx),
        # its bin/ ahead of any shims in /usr/local/bin; Kokkos 4.x+ only.
        env_=(env "CUDA_HOME=$cuda_root" "PATH=$cuda_root/bin:/usr/bin:/bin:$PATH"
          "NVCC_WRAPPER_DEFAULT_COMPILER=$host_cxx")
        kopts=(-DCMAKE_CXX_COMPILER="$prefix/bin/nvcc_wrapper_sm90" -DKokkos_ENABLE_SERIAL=ON
          -DKokkos_ENABLE_OPENMP=ON -DKokkos_ENABLE_CUDA=ON -DKokkos_ENABLE_CUDA_LAMBDA=ON
          -DKokkos_ARCH_HOPPER90=ON -DCUDAToolkit_ROOT="$cuda_root")
      else
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
      fi
      ;;
    hip)
      # Debian's hipcc; rocThrust is not packaged (Kokkos only uses it for sort).
      local hipcc; hipcc="$(command -v hipcc)" || fail hip "hipcc missing; run: $0 hip-toolkit"
      # hipcc without --offload-arch (CMake's checks, links) asks
      # rocm_agent_enumerator, which fails without an AMD GPU: name the target.
      [[ "$HIP_ARCH" =~ ^AMD_(GFX[0-9A-F]+)$ ]] &&
        env_=(env "HCC_AMDGPU_TARGET=$(tr 'A-Z' 'a-z' <<<"${BASH_REMATCH[1]}")")
      kopts=(-DCMAKE_CXX_COMPILER="$hipcc" -DKokkos_ENABLE_SERIAL=ON -DKokkos_ENABLE_HIP=ON
        "-DKokkos_ARCH_$HIP_ARCH=ON" -DKokkos_ENABLE_ROCTHRUST=OFF)
      ;;
    *) fail "$v" "unknown variant '$v' (allowed: openmp, cuda, hip)" ;;
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

# write_cuda_wrapper PREFIX MAJOR NVCC_WRAPPER [CUDA_BIN HOST_CXX CUDA_HOME]:
# PREFIX/bin/nvcc_wrapper_sm90, Kokkos' NVCC_WRAPPER behind CUDA_BIN on PATH
# and HOST_CXX (default: Debian's CUDA 11.8 + g++-11, CUDA_HOME unset). For
# Kokkos 3.x, which knows no Hopper, it also retargets the Ampere80 code to
# sm_90.
write_cuda_wrapper() {
  local prefix="$1" major="$2" wrapper="$3" retarget=0
  local bin="${4:-/usr/lib/nvidia-cuda-toolkit/bin}" cxx="${5:-g++-11}" home="${6:-}"
  [[ "$major" -lt 4 ]] && retarget=1
  mkdir -p "$prefix/bin"
  sed -e "s|@KOKKOS_NVCC_WRAPPER@|$wrapper|g" -e "s|@ADDSCOPE_RETARGET_SM80@|$retarget|g" \
    -e "s|@ADDSCOPE_CUDA_BIN@|$bin|g" -e "s|@ADDSCOPE_HOST_CXX@|$cxx|g" \
    -e "s|@ADDSCOPE_CUDA_HOME@|$home|g" \
    "$HERE/nvcc_wrapper_sm90.in" >"$prefix/bin/nvcc_wrapper_sm90"
  chmod +x "$prefix/bin/nvcc_wrapper_sm90"
}

# cuda13_patch_wanted KOKKOS_VERSION: true for Kokkos < 4.7 with CUDA >= 13.
cuda13_patch_wanted() {
  local major="${1%%.*}" minor; minor="$(cut -d. -f2 <<<"$1")"
  [[ "$cuda_major" -ge 13 ]] && { [[ "$major" -lt 4 ]] || [[ "$major" -eq 4 && "$minor" -lt 7 ]]; }
}

# prepare_kokkos_copy SRC DIR KOKKOS_VERSION: DIR = a copy of the Kokkos
# source SRC (no .git), its bin/nvcc_wrapper's default architecture sm_90,
# and cmake/kokkos-pre4.7-cuda13.patch applied when cuda13_patch_wanted.
prepare_kokkos_copy() {
  local src="$1" dir="$2" kver="$3" p="$KOKKOS_CUDA13_PATCH"
  rm -rf "$dir"; mkdir -p "$dir"
  run_logged cuda kokkos-copy bash -c 'tar -C "$1" --exclude=./.git -cf - . | tar -C "$2" -xf -' \
    copy "$src" "$dir"
  sed -i -E 's/^default_arch="sm_[0-9]+"/default_arch="sm_90"/' "$dir/bin/nvcc_wrapper"
  grep -q '^default_arch="sm_90"$' "$dir/bin/nvcc_wrapper" || fail cuda "no default_arch=\"sm_NN\" \
line in $src/bin/nvcc_wrapper: cannot set its default architecture to sm_90"
  cuda13_patch_wanted "$kver" || return 0
  local f="$dir/core/src/Cuda/Kokkos_Cuda_Instance.hpp"
  if patch -p1 -N --dry-run -s -d "$dir" -i "$p" >/dev/null 2>&1; then
    run_logged cuda kokkos-patch patch -p1 -N -d "$dir" -i "$p"
    log "Kokkos $kver with CUDA $cuda_version: applied $(basename "$p") to the copy in $dir"
  elif patch -p1 -R --dry-run -s -d "$dir" -i "$p" >/dev/null 2>&1; then
    log "Kokkos $kver: $src has $(basename "$p") applied already"
  elif ! grep -q 'cudaGraphAddDependencies(graph, from, to, numDependencies)' "$f" &&
       ! grep -q 'cudaMemPrefetchAsync(devPtr, count, dstDevice, m_stream)' "$f"; then
    log "Kokkos $kver: $src calls cudaGraphAddDependencies and cudaMemPrefetchAsync the CUDA 13 way already; not patched"
  else
    fail cuda "$p does not fit Kokkos $kver in $src ($f); allowed with CUDA \
$cuda_version: Kokkos 4.7 or later, or a 4.x whose Kokkos_Cuda_Instance.hpp this patch fits"
  fi
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
  local own_cuda=0 cuda_root="" cuda_version="" cuda_release="" cuda_major=0 host_cxx="" host_cxx_version=""
  if [[ "$v" == cuda && -n "$CUDA_ROOT" ]]; then
    own_cuda=1
    cuda_toolkit "$v"
    [[ "$major" -ge 4 ]] || fail "$v" "Kokkos $kver ($ksrc) with ADDSCOPE_CUDA_ROOT (CUDA \
$cuda_version): allowed: Kokkos 4.x or 5.x (3.x predates CUDA 12; leave ADDSCOPE_CUDA_ROOT unset \
for Debian's CUDA 11.8)"
  fi
  [[ "$v" != hip || "$major" -ge 4 ]] || fail "$v" "Kokkos $kver ($ksrc) for hip: allowed: \
Kokkos 4.x or 5.x"

  local prefix key
  if [[ $own_cuda -eq 1 ]]; then
    key="$(printf '%s\n%s\n%s\n' "$ksrc" "$kksrc" "$cuda_root" | sha256sum | cut -c1-8)"
  else
    key="$(printf '%s\n%s\n' "$ksrc" "$kksrc" | sha256sum | cut -c1-8)"
  fi
  if [[ -n "$USER_PREFIX" ]]; then
    [[ "$USER_PREFIX" == *%v* || "$nvariants" -le 1 ]] || fail "$v" "ADDSCOPE_KOKKOS_PREFIX = \
'$USER_PREFIX' names one prefix for several variants; allowed: one variant per call, or %v in it"
    prefix="${USER_PREFIX//%v/$v}"
    [[ "$prefix" == /* ]] || prefix="$PWD/$prefix"
  elif [[ $own_cuda -eq 1 ]]; then
    prefix="$DEPS/install/cuda$cuda_version-kokkos$kver-$key"
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
      "$(printf '%s\n' "${kopts[@]}" "${kkopts[@]}" | sha256sum | cut -c1-16)"
    if [[ $own_cuda -eq 1 ]]; then
      printf 'cuda_root=%s\ncuda_release=%s\nhost_cxx=%s %s\nnvcc_wrapper_default_arch=sm_90\n' \
        "$cuda_root" "$cuda_release" "$host_cxx" "$host_cxx_version"
      printf 'wrapper=%s\n' "$(sha256sum <"$HERE/nvcc_wrapper_sm90.in" | cut -c1-16)"
      if cuda13_patch_wanted "$kver"; then
        printf 'kokkos_patch=%s %s\n' "$(basename "$KOKKOS_CUDA13_PATCH")" \
          "$(sha256sum <"$KOKKOS_CUDA13_PATCH" | cut -c1-16)"
      fi
    fi
    if [[ "$v" == hip ]]; then
      printf 'hipcc=%s\n' "$(hipcc --version 2>/dev/null | grep -m1 -i 'HIP version' || true)"
    fi)"

  local what="$v"
  [[ $own_cuda -eq 1 ]] && what="cuda, CUDA $cuda_version ($cuda_root), host $host_cxx $host_cxx_version"
  mkdir -p "$DEPS/locks"
  local lock; lock="$DEPS/locks/$(printf '%s' "$prefix" | sha256sum | cut -c1-16).lock"
  exec 9>"$lock"
  flock 9 || fail "$v" "could not lock $lock (for $prefix)"
  if [[ -f "$st" && "$(cat "$st")" == "$want" && -f "$prefix/lib/cmake/Kokkos/KokkosConfig.cmake" ]]; then
    log "Kokkos $kver + Kokkos Kernels $kkver ($what) from $ksrc already installed in $prefix"
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
  local tag; tag="$(basename "$prefix")"
  local kbuild="$ksrc"
  if [[ $own_cuda -eq 1 ]]; then
    # The bootstrap's own copy: default architecture sm_90, and the CUDA 13
    # patch where Kokkos needs it. The given tree is only read.
    kbuild="$DEPS/src/$tag/kokkos"
    prepare_kokkos_copy "$ksrc" "$kbuild" "$kver"
  fi
  if [[ "$v" == cuda ]]; then
    # Kokkos' nvcc_wrapper is copied into the prefix first (its install puts
    # the same file there), so the prefix does not depend on the source tree.
    install -D -m 755 "$kbuild/bin/nvcc_wrapper" "$prefix/bin/nvcc_wrapper"
    if [[ $own_cuda -eq 1 ]]; then
      write_cuda_wrapper "$prefix" "$major" "$prefix/bin/nvcc_wrapper" "$cuda_root/bin" \
        "$host_cxx" "$cuda_root"
    else
      write_cuda_wrapper "$prefix" "$major" "$prefix/bin/nvcc_wrapper"
    fi
  fi
  log "building Kokkos $kver + Kokkos Kernels $kkver ($what) from $ksrc and $kksrc -> $prefix"
  build_kokkos "$v" "$tag" "$kbuild" "$kksrc" "$prefix" "$DEPS/build/$tag"
  [[ $own_cuda -eq 1 ]] && rm -rf "$DEPS/src/$tag"
  mkdir -p "$(dirname "$st")"
  if [[ $own_cuda -eq 1 ]]; then
    # What cmake/dev.sh and .ci/run read: which toolkit this prefix needs.
    printf 'root=%s\nversion=%s\nrelease=%s\nhost_cxx=%s\n' "$cuda_root" "$cuda_version" \
      "$cuda_release" "$host_cxx" >"$prefix/share/addscope-cuda-toolkit"
  fi
  echo "$want" >"$st"
  exec 9>&-
  log "Kokkos $kver ($what) installed in $prefix"
  echo "prefix: $prefix"
}

from_source() { [[ -n "$KOKKOS_SOURCE$KK_SOURCE" ]]; }

[[ $# -gt 0 ]] || set -- openmp
nvariants=0
for step in "$@"; do
  [[ "$step" == openmp || "$step" == cuda || "$step" == hip ]] && nvariants=$((nvariants + 1))
done
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
      step_packages
      if [[ -n "$CUDA_ROOT" ]]; then
        from_source || fail cuda "ADDSCOPE_CUDA_ROOT = '$CUDA_ROOT' needs ADDSCOPE_KOKKOS_SOURCE and \
ADDSCOPE_KOKKOS_KERNELS_SOURCE (Kokkos 4.x or 5.x): Debian's Kokkos 3.4.01 does not compile with \
CUDA 13; allowed: both set, or ADDSCOPE_CUDA_ROOT unset (Debian's CUDA 11.8)"
        build_from_source cuda "$nvariants"
      else
        step_cuda_toolkit
        if from_source; then build_from_source cuda "$nvariants"; else step_source; build_variant cuda; fi
      fi ;;
    hip)
      step_packages
      from_source || fail hip "the hip variant needs ADDSCOPE_KOKKOS_SOURCE and \
ADDSCOPE_KOKKOS_KERNELS_SOURCE (Kokkos 4.x or 5.x): Debian's Kokkos 3.4.01 is not built for HIP"
      step_hip_toolkit
      build_from_source hip "$nvariants" ;;
    hip-toolkit) step_hip_toolkit ;;
    *) echo "usage: $0 [packages|cuda-toolkit|hip-toolkit|fuzz-tools|source|openmp|cuda|hip]... (unknown step '$step')" >&2
       exit 2 ;;
  esac
done
