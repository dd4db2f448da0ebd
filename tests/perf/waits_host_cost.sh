#!/usr/bin/env bash
# The waits tool's own cost per Kokkos event on a host backend (no device):
#   * wall time: tests/tools/event_overhead.cpp (an empty parallel_for +
#     fence, a one-element deep_copy), no tool / the empty tool / the waits
#     tool, the fastest of REPS runs each (a loaded machine only adds time);
#   * the tracker alone (tests/perf/waits_tracker_perf.cpp: kernel, launch
#     correlation, fence, blocking call, device records in batches);
#   * instructions per call of each Kokkos Tools entry point, counted by
#     valgrind's callgrind (independent of the machine's load), if installed.
#   bash tests/perf/waits_host_cost.sh BUILD_DIR [ITERS=200000] [REPS=5]
# WAITS_TOOL=path overrides the tool library (compare two builds of it).
set -euo pipefail
B="$(cd "${1:?usage: waits_host_cost.sh BUILD_DIR [ITERS] [REPS]}" && pwd)"
iters="${2:-200000}"
reps="${3:-5}"
tool="${WAITS_TOOL:-$B/src/libaddscope_waits.so}"
null="$B/tests/tools/libaddscope_null_tool.so"
prog="$B/tests/tools/addscope-test-event-overhead"
export OMP_PROC_BIND=false OMP_NUM_THREADS="${OMP_NUM_THREADS:-1}"
field() { sed -n "s/.*$1 \([0-9.e+-]*\).*/\1/p" | head -1; }
min() { grep -v '^$' | sort -g | head -1; }

declare -A lf=() dc=()
for r in $(seq "$reps"); do
  for mode in none null waits; do
    lib=""
    [[ $mode == null ]] && lib="$null"
    [[ $mode == waits ]] && lib="$tool"
    line="$(KOKKOS_PROFILE_LIBRARY="$lib" KOKKOS_TOOLS_LIBS="$lib" "$prog" "$iters" 2>/dev/null | grep '^event_overhead')"
    lf[$mode]+="$(echo "$line" | field "launch+fence")"$'\n'
    dc[$mode]+="$(echo "$line" | field "deep_copy")"$'\n'
  done
done
for mode in none null waits; do
  printf 'event_overhead %-5s (fastest of %s, %s iterations): launch+fence %s us, deep_copy %s us\n' \
    "$mode" "$reps" "$iters" "$(min <<<"${lf[$mode]}")" "$(min <<<"${dc[$mode]}")"
done
perf="$B/tests/perf/addscope-waits-tracker-perf"
if [[ -n "${WAITS_TOOL:-}" ]]; then
  LD_LIBRARY_PATH="$(dirname "$tool")" "$perf" 1000000
else
  "$perf" 1000000
fi

if command -v valgrind >/dev/null; then
  n=20000
  cg="$(mktemp -d)"
  KOKKOS_PROFILE_LIBRARY="$tool" KOKKOS_TOOLS_LIBS="$tool" \
    valgrind --tool=callgrind --callgrind-out-file="$cg/out" "$prog" "$n" >/dev/null 2>&1
  echo "instructions per call (callgrind, $n iterations + 100 warm-up launches):"
  callgrind_annotate --inclusive=yes "$cg/out" 2>/dev/null |
    awk -v n="$n" '/:kokkosp_(begin|end)_(parallel_for|deep_copy|fence)/ {
        gsub(",", "", $1); f = $0; sub(/.*:kokkosp_/, "kokkosp_", f); sub(/ .*/, "", f);
        calls = (f ~ /parallel_for/) ? n + 100 : n;
        printf "  %-28s %7.0f\n", f, $1 / calls }'
  rm -rf "$cg"
fi
