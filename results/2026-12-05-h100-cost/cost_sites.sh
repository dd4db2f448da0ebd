#!/usr/bin/env bash
# What taking the program's lines (sites) costs a launch on the GPU
# (issue 36, Deliver 6: at most +0.3 us per launch), in one call: builds
# addscope against the carried Kokkos 4.6.99 prefix (cmake/gpu-build.sh;
# carry .deps), runs the waits unit tests there (unstripped: their sites
# tests read their own lines), then ROUNDS interleaved rounds of 50,000
# back-to-back launches, six ways: a CUDA program (addscope-test-seed-cuda
# --burst) and a Kokkos program (addscope-test-event-overhead's burst) each
# without the tool, under it with sites on, and with sites off. Prints each
# way's median and spread; keeps round 1's reports (how many launches were
# held back, each a stack when sites are on).
# The tool's own measure beside it: each run's JSON `sites_cost` (the stacks
# its threads took and the time they took them), per launch.
#   OUT=DIR [ROUNDS=9] [LAUNCHES=50000] [BUILT=1: .device is already built]
#     bash results/2026-12-05-h100-cost/cost_sites.sh
set -uo pipefail
OUT="${OUT:?OUT: the folder the logs go to}"
R="${ROUNDS:-9}" N="${LAUNCHES:-50000}"
t0=$SECONDS
[[ -n "${BUILT:-}" ]] || bash cmake/gpu-build.sh /tmp/addscope-gpu .device >"$OUT/build.log" 2>&1 ||
  { echo "build failed"; tail -40 "$OUT/build.log"; exit 1; }
echo "build in $((SECONDS - t0)) s"
H="$PWD/.device" B="$PWD/.device/bin"
export LD_LIBRARY_PATH="$H/lib:$(cat "$H/libpath" 2>/dev/null)"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv >"$OUT/gpu.txt" 2>&1
timeout 300 "$B/addscope-waits-tests" --gtest_brief=1 >"$OUT/waits_unit.log" 2>&1
echo "waits unit tests (CUDA build, unstripped): rc=$? $(grep -E '^\[  (PASSED|FAILED|SKIPPED) ' "$OUT/waits_unit.log" | tr '\n' ' ')"
W="$B/addscope-waits" tl="$H/lib/libaddscope_waits.so" D="$OUT/cost"; mkdir -p "$D"
cuda() { "$@" "$B/addscope-test-seed-cuda" --burst "$N" 2>>"$D/err" | sed -n 's/.*launches, \([0-9.]*\) us per launch.*/\1/p'; }
kok() { local tag="$1"; shift; env "$@" "$B/addscope-test-event-overhead" 10 "$N" 2>"$D/kokkos_${tag}_$r.err" | awk '$1 == "cost:" && $2 == "burst_launch" { print $3 }'; }
declare -A v=()
for r in $(seq "$R"); do
  v[cuda_none]+=" $(cuda env)"
  v[cuda_sites]+=" $(cuda "$W" --load cuda -o "$D/cuda_sites_$r.txt" --json "$D/cuda_sites_$r.json" --)"
  v[cuda_nosites]+=" $(cuda "$W" --load cuda --sites off -o "$D/cuda_nosites_$r.txt" --json "$D/cuda_nosites_$r.json" --)"
  v[kokkos_none]+=" $(kok none -u KOKKOS_TOOLS_LIBS -u KOKKOS_PROFILE_LIBRARY)"
  v[kokkos_sites]+=" $(kok sites KOKKOS_TOOLS_LIBS="$tl" ADDSCOPE_WAITS_SITES=on ADDSCOPE_WAITS_JSON="$D/kokkos_sites_$r.json")"
  v[kokkos_nosites]+=" $(kok nosites KOKKOS_TOOLS_LIBS="$tl" ADDSCOPE_WAITS_SITES=off ADDSCOPE_WAITS_JSON="$D/kokkos_nosites_$r.json")"
done
{
  echo "us per launch, $N back-to-back launches, $R interleaved rounds: median [min, max] (all rounds)"
  for k in cuda_none cuda_sites cuda_nosites kokkos_none kokkos_sites kokkos_nosites; do
    printf '%-15s %s\n' "$k" "$(tr ' ' '\n' <<<"${v[$k]}" | grep -v '^$' | sort -g | awk '{ a[NR] = $1; s = s " " $1 } END { if (NR) printf "%.3f [%.3f, %.3f] (%s)", (NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2), a[1], a[NR], s }')"
  done
  echo "hidden waits (launches held back >= 20 us: each a stack with sites on), per round:"
  for f in "$D"/cuda_sites_*.txt "$D"/cuda_nosites_*.txt "$D"/kokkos_sites_*.err "$D"/kokkos_nosites_*.err; do
    printf '  %-22s %s\n' "$(basename "$f")" "$(grep -m1 'hidden waits:' "$f" | cut -c1-60 | sed 's/^ *//')"
  done
  echo "the tool's own measure (JSON sites_cost): stacks taken, their time, per launch of $N:"
  for f in "$D"/cuda_sites_*.json "$D"/kokkos_sites_*.json "$D"/cuda_nosites_1.json "$D"/kokkos_nosites_1.json; do
    python3 -c 'import json, sys
c = json.load(open(sys.argv[1])).get("sites_cost")
n = int(sys.argv[2])
print("  %-22s %s" % (sys.argv[1].rsplit("/", 1)[1], "no sites_cost" if c is None else
      "%d stacks, %.1f us, %.3f us each, %.4f us per launch" % (c["taken"], c["seconds"] * 1e6,
      c["seconds"] * 1e6 / max(c["taken"], 1), c["seconds"] * 1e6 / n)))' "$f" "$N" 2>&1
  done
} | tee "$OUT/cost_sites.txt"
tar czf "$OUT/cost_reports.tgz" -C "$D" .
