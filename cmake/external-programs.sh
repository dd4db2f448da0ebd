#!/usr/bin/env bash
# Builds programs nobody here wrote against the Kokkos of an addscope build,
# for the waits tool's checks and its cost benchmark (tests/tools/waits_h200.sh,
# tests/perf/waits_cost.sh), outside the repository's tracked files:
#   bin/babelstream-kokkos          BabelStream's Kokkos model (its own sources)
#   bin/kokkos-stream               Kokkos' STREAM benchmark (benchmarks/stream)
#   bin/kokkos-thread-teams-lambda  Kokkos' tutorial Hierarchical_Parallelism/
#                                   01_thread_teams_lambda
# each with the build's Kokkos (its CMakeCache's Kokkos_ROOT / Kokkos_DIR) and
# C++ compiler (for CUDA builds the same compiler wrapper, so the same device
# code generation). Nothing is copied out of the source trees: CMake reads
# them where they are; the objects and programs go to OUT_DIR.
#
#   cmake/external-programs.sh BUILD_DIR [OUT_DIR]   (OUT_DIR: BUILD_DIR/external)
#
# OUT_DIR must not hold tracked files: inside a git work tree it must be
# ignored by git (build*/ is). cmake/cuda-bundle.sh carries OUT_DIR/bin of
# the bundled builds (BUILD_DIR/external/bin) into the bundle's bin/.
# Sources (environment):
#   BABELSTREAM_SOURCE  BabelStream's source tree (/work/src/BabelStream)
#   KOKKOS_SOURCE       the Kokkos source tree the build's Kokkos was made
#                       from; default: what the bootstrap's stamp in the
#                       Kokkos prefix names (share/addscope-bootstrap.stamp),
#                       else Debian's Kokkos 3.4.01 sources unpacked by
#                       cmake/bootstrap.sh for a Kokkos 3.4.x prefix. Its
#                       version must be the build's Kokkos version.
# A program whose sources are missing is skipped with a line saying so; a
# program that fails to build makes the exit status 1 (the others still
# build). Prints the programs built, one per line, at the end.
set -uo pipefail
usage() { sed -n '/^#   cmake\/external/p' "${BASH_SOURCE[0]}" | sed 's/^# *//' >&2; exit 2; }
[[ $# -ge 1 && $# -le 2 ]] || usage
B="${1%/}"
[[ -f "$B/CMakeCache.txt" ]] || { echo "external-programs: BUILD_DIR = '$B' has no CMakeCache.txt; allowed: a configured build of addscope" >&2; exit 2; }
B="$(cd "$B" && pwd)"
O="$(realpath -m "${2:-$B/external}")"
# (checked before anything is made: the nearest folder that exists says
# which work tree, if any, OUT_DIR would be in)
up="$O"
while [[ ! -d "$up" ]]; do up="$(dirname "$up")"; done
if git -C "$up" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  git -C "$up" check-ignore -q "$O/" || {
    echo "external-programs: OUT_DIR = '$O' is inside a git work tree and not ignored; allowed: an ignored folder (e.g. BUILD_DIR/external) or one outside the repository" >&2
    exit 2
  }
fi
mkdir -p "$O" || exit 2
cache() { sed -n "s/^$1:[A-Z]*=//p" "$B/CMakeCache.txt" | head -1; }
cxx="$(cache CMAKE_CXX_COMPILER)"
kroot="$(cache Kokkos_ROOT)"
kdir="$(cache Kokkos_DIR)"
if [[ -z "$kroot" && -n "$kdir" ]]; then
  # <prefix>/lib{,64}/cmake/Kokkos
  kroot="$(cd "$kdir/../../.." 2>/dev/null && pwd)"
fi
[[ -n "$kroot" && -d "$kroot" ]] || { echo "external-programs: no Kokkos_ROOT or Kokkos_DIR in $B/CMakeCache.txt" >&2; exit 1; }
kcfgv="$(ls "$kroot"/lib*/cmake/Kokkos/KokkosConfigVersion.cmake 2>/dev/null | head -1)"
kver="$(sed -n 's/^set(PACKAGE_VERSION "\([0-9.]*\)").*/\1/p' "$kcfgv" 2>/dev/null | head -1)"
[[ -n "$kver" ]] || { echo "external-programs: no Kokkos version in $kroot/lib*/cmake/Kokkos/KokkosConfigVersion.cmake" >&2; exit 1; }
build_type="$(cache CMAKE_BUILD_TYPE)"
[[ -n "$build_type" ]] || build_type=Release
jobs="${ADDSCOPE_JOBS:-2}"
# A CUDA build through the bootstrap's wrapper needs its toolchain first on
# PATH (as cmake/dev.sh sets it).
if [[ "$cxx" == *nvcc_wrapper* ]]; then
  export PATH="/usr/lib/nvidia-cuda-toolkit/bin:/usr/bin:$PATH"
  unset CUDA_HOME
fi

# The Kokkos sources of this Kokkos.
ksrc="${KOKKOS_SOURCE:-}"
if [[ -z "$ksrc" && -f "$kroot/share/addscope-bootstrap.stamp" ]]; then
  ksrc="$(sed -n 's/^kokkos_source=//p' "$kroot/share/addscope-bootstrap.stamp")"
fi
deps="${ADDSCOPE_DEPS_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/addscope-deps}"
if [[ -z "$ksrc" && "$kver" == 3.4.* && -d "$deps/src/trilinos/packages/kokkos" ]]; then
  ksrc="$deps/src/trilinos/packages/kokkos"
fi
srcver() {
  local f="$1/CMakeLists.txt" a b c
  a="$(sed -n 's/^ *set(Kokkos_VERSION_MAJOR \([0-9]*\)).*/\1/Ip' "$f" 2>/dev/null | head -1)"
  b="$(sed -n 's/^ *set(Kokkos_VERSION_MINOR \([0-9]*\)).*/\1/Ip' "$f" 2>/dev/null | head -1)"
  c="$(sed -n 's/^ *set(Kokkos_VERSION_PATCH \([0-9]*\)).*/\1/Ip' "$f" 2>/dev/null | head -1)"
  [[ -n "$a" && -n "$b" && -n "$c" ]] && echo "$a.$b.$((10#$c))"
}
kv_norm="$(awk -F. '{ printf "%d.%d.%d", $1, $2, $3 }' <<<"$kver")"
if [[ -n "$ksrc" ]]; then
  sv="$(srcver "$ksrc")"
  if [[ "$sv" != "$kv_norm" ]]; then
    echo "external-programs: KOKKOS_SOURCE = '$ksrc' is Kokkos ${sv:-?}, the build's Kokkos ($kroot) is $kv_norm: not building Kokkos' own programs (set KOKKOS_SOURCE to the matching tree)" >&2
    ksrc=""
  fi
fi
bsrc="${BABELSTREAM_SOURCE:-/work/src/BabelStream}"

mkdir -p "$O/bin" "$O/build"
status=0
built=()
log() { echo "external-programs: $*" >&2; }
cmake_build() {  # cmake_build NAME SRC_DIR CMAKE_ARGS...
  local name="$1" src="$2"; shift 2
  local bd="$O/build/$name"
  log "building $name (Kokkos $kver from $kroot, $cxx) ..."
  if ! cmake -S "$src" -B "$bd" -G Ninja -DCMAKE_BUILD_TYPE="$build_type" \
      -DCMAKE_CXX_COMPILER="$cxx" -DKokkos_ROOT="$kroot" -DCMAKE_PREFIX_PATH="$kroot" \
      "$@" >"$O/build/$name.configure.log" 2>&1; then
    log "configuring $name FAILED (log: $O/build/$name.configure.log):"
    tail -15 "$O/build/$name.configure.log" >&2
    status=1; return 1
  fi
  if ! cmake --build "$bd" -j "$jobs" >"$O/build/$name.build.log" 2>&1; then
    log "building $name FAILED (log: $O/build/$name.build.log):"
    tail -15 "$O/build/$name.build.log" >&2
    status=1; return 1
  fi
}

# 1. BabelStream's Kokkos model (its own CMake; -O3 without -march=native:
#    the programs may run on another machine's CPU). It needs Kokkos 3.7 or
#    later (Kokkos::InitializationSettings).
if [[ ! -f "$bsrc/src/kokkos/KokkosStream.cpp" ]]; then
  log "no BabelStream sources at '$bsrc' (set BABELSTREAM_SOURCE): babelstream-kokkos skipped"
elif awk -F. '{ exit !($1 < 3 || ($1 == 3 && $2 < 7)) }' <<<"$kv_norm" &&
     grep -q InitializationSettings "$bsrc/src/kokkos/KokkosStream.cpp"; then
  log "BabelStream's Kokkos model needs Kokkos 3.7 or later (Kokkos::InitializationSettings), this is $kv_norm: babelstream-kokkos skipped"
elif cmake_build babelstream "$bsrc" -DMODEL=kokkos -DKOKKOS_IN_PACKAGE="$kroot" -DRELEASE_FLAGS=-O3; then
  # (named babelstream, or <model>-stream by older BabelStreams)
  for e in babelstream kokkos-stream; do
    if [[ -x "$O/build/babelstream/$e" ]]; then
      cp "$O/build/babelstream/$e" "$O/bin/babelstream-kokkos" && built+=(babelstream-kokkos)
      break
    fi
  done
fi

# 2. and 3. Kokkos' own programs: a small CMake project, written here, that
#    compiles the sources where they are.
if [[ -n "$ksrc" ]]; then
  stream="$ksrc/benchmarks/stream/stream-kokkos.cpp"
  teams="$ksrc/example/tutorial/Hierarchical_Parallelism/01_thread_teams_lambda/thread_teams_lambda.cpp"
  p="$O/build/kokkos-programs-src"
  mkdir -p "$p"
  {
    echo "# Written by addscope's cmake/external-programs.sh: Kokkos' own programs,"
    echo "# compiled from $ksrc where they are."
    echo "cmake_minimum_required(VERSION 3.16)"
    echo "project(addscope_kokkos_programs LANGUAGES CXX)"
    echo "find_package(Kokkos CONFIG REQUIRED)"
    [[ -f "$stream" ]] && echo "add_executable(kokkos-stream \"$stream\")
target_link_libraries(kokkos-stream PRIVATE Kokkos::kokkos)"
    [[ -f "$teams" ]] && echo "add_executable(kokkos-thread-teams-lambda \"$teams\")
target_link_libraries(kokkos-thread-teams-lambda PRIVATE Kokkos::kokkos)"
  } >"$p/CMakeLists.txt"
  [[ -f "$stream" ]] || log "no $stream: kokkos-stream skipped"
  [[ -f "$teams" ]] || log "no $teams: kokkos-thread-teams-lambda skipped"
  if [[ -f "$stream" || -f "$teams" ]] && cmake_build kokkos-programs "$p"; then
    for e in kokkos-stream kokkos-thread-teams-lambda; do
      [[ -x "$O/build/kokkos-programs/$e" ]] && cp "$O/build/kokkos-programs/$e" "$O/bin/" && built+=("$e")
    done
  fi
else
  log "no Kokkos sources for Kokkos $kver (set KOKKOS_SOURCE): kokkos-stream and kokkos-thread-teams-lambda skipped"
fi

for e in "${built[@]}"; do echo "$O/bin/$e"; done
exit $status
