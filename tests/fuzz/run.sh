#!/usr/bin/env bash
# Builds the libFuzzer targets (standalone, no Kokkos) and fuzzes one of them
# for N executions over a scratch copy of its committed corpus
# (tests/fuzz/corpus/TARGET is never modified).
#
#   bash tests/fuzz/run.sh [N] [extra libFuzzer flags...]   (N default 1000000)
#
# Environment:
#   ADDSCOPE_FUZZ_TARGET     launch_config (default) or waits_tool (the waits
#                            tool's callback entry points; run with
#                            -max_len=256 -entropic=0 -detect_leaks=0 unless
#                            flags are given: its process-wide tracker keeps
#                            state across inputs on purpose)
#   ADDSCOPE_FUZZ_BUILD_DIR  build folder (default build-fuzz)
#   CXX_FUZZ                 clang++ to use (default clang++-14)
# Crash artifacts (if any) land in $ADDSCOPE_FUZZ_BUILD_DIR/artifacts/; the
# exit status is libFuzzer's (0: no finding).
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
runs="${1:-1000000}"; shift || true
[[ "$runs" =~ ^[0-9]+$ ]] || { echo "run.sh: N='$runs' is not a count" >&2; exit 2; }
build="${ADDSCOPE_FUZZ_BUILD_DIR:-$ROOT/build-fuzz}"
cxx="${CXX_FUZZ:-clang++-14}"
target="${ADDSCOPE_FUZZ_TARGET:-launch_config}"
case "$target" in
  launch_config) flags=(-dict="$HERE/launch_config.dict") ;;
  waits_tool) flags=(); [[ $# -eq 0 ]] && flags=(-max_len=256 -entropic=0 -detect_leaks=0) ;;
  *) echo "run.sh: ADDSCOPE_FUZZ_TARGET='$target' is not launch_config or waits_tool" >&2; exit 2 ;;
esac

bash "$ROOT/cmake/bootstrap.sh" fuzz-tools >&2
command -v cmake >/dev/null || bash "$ROOT/cmake/bootstrap.sh" packages >&2
gen=(); command -v ninja >/dev/null && gen=(-G Ninja)
if [[ ! -f "$build/CMakeCache.txt" ]]; then
  cmake -S "$HERE" -B "$build" "${gen[@]}" -DCMAKE_CXX_COMPILER="$cxx" \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo >&2
fi
cmake --build "$build" -j "$(nproc)" >&2

work="$build/run"
rm -rf "$work"; mkdir -p "$work/corpus" "$build/artifacts"
cp -R "$HERE/corpus/$target/." "$work/corpus/"
log="$work/fuzz_$target.log"
for s in /usr/lib/llvm-14/bin/llvm-symbolizer "$(command -v llvm-symbolizer-14 || true)"; do
  if [[ -n "$s" && -x "$s" ]]; then export ASAN_SYMBOLIZER_PATH="${ASAN_SYMBOLIZER_PATH:-$s}"; break; fi
done

echo "fuzz_$target: -runs=$runs over a copy of $HERE/corpus/$target ($work/corpus)" >&2
set +e
"$build/fuzz_$target" -runs="$runs" "${flags[@]}" \
  -print_final_stats=1 -artifact_prefix="$build/artifacts/" "$@" \
  "$work/corpus" 2>&1 | tee "$log" >&2
rc=${PIPESTATUS[0]}
set -e

echo "---- libFuzzer final stats ----"
grep -E '^#[0-9]+[[:space:]]+DONE' "$log" | tail -n 1 || true
grep -E '^Done [0-9]+ runs' "$log" | tail -n 1 || true
grep -E '^stat::' "$log" || true
if [[ $rc -eq 0 ]]; then
  echo "result: OK, no finding (exit 0)"
else
  echo "result: FINDING or failure (exit $rc); artifacts: $build/artifacts/ log: $log"
fi
exit "$rc"
