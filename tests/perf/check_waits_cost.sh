#!/usr/bin/env bash
# ctest tools.waits.cost: the cost benchmark (tests/perf/waits_cost.sh) end
# to end on this build with tiny sizes (no timing is judged: a loaded
# machine may give any numbers): usage errors exit 2 naming the parameter;
# every tool has every metric, its median is the median of its rounds and
# its difference is to no tool's median; the table has a row per tool in
# order; the count tool finds 2 events per iteration where Kokkos sends a
# begin and an end (launch + fence: parallel_for, deep_copy: deep_copy,
# back-to-back: parallel_for); the per-event and target sections are there.
#   bash check_waits_cost.sh BUILD_DIR WAITS_COST_SH
set -uo pipefail
B="${1:?usage: check_waits_cost.sh BUILD_DIR WAITS_COST_SH}"
S="${2:?usage: check_waits_cost.sh BUILD_DIR WAITS_COST_SH}"
t="$(mktemp -d)"
trap 'rm -rf "$t"' EXIT
bad=0
fail() { echo "FAIL: $*"; bad=1; }

# 1. Usage errors: exit 2, the parameter and what is allowed named.
expect_usage() {  # expect_usage "MESSAGE" ARGS...
  local msg="$1"; shift
  bash "$S" "$@" >"$t/u.out" 2>"$t/u.err"
  local rc=$?
  [[ $rc -eq 2 ]] || fail "waits_cost.sh $* exited $rc, not 2"
  grep -qF -- "$msg" "$t/u.err" || fail "waits_cost.sh $*: no '$msg' in: $(cat "$t/u.err")"
}
expect_usage "ROUNDS = '0' is invalid; allowed: an integer >= 1" "$B" --rounds 0
expect_usage "unknown option '--bogus'" "$B" --bogus
expect_usage "--iters needs a value" "$B" --iters
expect_usage "is not a folder" "$t/nonexistent"
expect_usage "holds neither CMakeCache.txt" "$t"
expect_usage "KT_LIB = '$t/none.so' does not exist" "$B" --kt-lib "$t/none.so"
expect_usage "EXTRA_TOOLS entry 'x' is invalid" "$B" --extra x

# 2. A run: 2 rounds, 4 tools (the empty tool twice, under another label).
OUT="$t/out" bash "$S" "$B" --rounds 2 --iters 300 --burst 400 --stream-n 100000 \
  --stream-iters 2 --two-n 100000 --no-callgrind \
  --extra "again=$B/tests/tools/libaddscope_null_tool.so" >"$t/table" 2>"$t/err"
rc=$?
[[ $rc -eq 0 ]] || fail "waits_cost.sh exited $rc: $(tail -5 "$t/err")"
csv="$t/out/waits_cost.csv"
[[ -f "$csv" && -f "$t/out/waits_cost.txt" && -f "$t/out/waits_cost.log" ]] ||
  fail "OUT holds $(ls "$t/out" 2>/dev/null | tr '\n' ' '), not waits_cost.txt, .csv and .log"
cmp -s "$t/table" "$t/out/waits_cost.txt" || fail "waits_cost.txt is not what was printed"
tools=("none" "empty tool" "libaddscope_waits.so" "libaddscope_waits.so (ADDSCOPE_WAITS_SITES=off)" "again")
metrics=(launch_fence deep_copy burst_launch stream_add two_wall)
for m in "${metrics[@]}"; do
  base=""
  for tool in "${tools[@]}"; do
    row="$(grep -F "tool,\"$tool\",$m," "$csv")"
    [[ -n "$row" ]] || { fail "no CSV row for $tool, $m"; continue; }
    # section,tool,metric,unit,median,diff,diff_unit,runs,values
    awk -F, -v tool="$tool" -v m="$m" -v base="$base" '{
      med = $5; diff = $6; runs = $8; vals = $9; gsub("\"", "", vals)
      n = split(vals, v, " ")
      if (runs != 2 || n != 2) { printf "FAIL: %s %s: %d runs, %d values (2 rounds)\n", tool, m, runs, n; exit 1 }
      if (!(v[1] > 0 && v[2] > 0)) { printf "FAIL: %s %s: values %s not positive\n", tool, m, vals; exit 1 }
      want = (v[1] + v[2]) / 2
      if (med - want > 1e-9 * want || want - med > 1e-9 * want) { printf "FAIL: %s %s: median %s, not that of %s\n", tool, m, med, vals; exit 1 }
      if (base == "") { if (diff != "") { printf "FAIL: none %s has a difference %s\n", m, diff; exit 1 } }
      else {
        d = ($7 == "%") ? 100 * (med - base) / base : med - base
        if (diff - d > 1e-4 * (d < 0 ? -d : d) + 1e-9 || d - diff > 1e-4 * (d < 0 ? -d : d) + 1e-9) {
          printf "FAIL: %s %s: difference %s, not %g to none median %s\n", tool, m, diff, d, base; exit 1 }
      }
    }' <<<"$row" || bad=1
    [[ "$tool" == none ]] && base="$(cut -d, -f5 <<<"$row")"
  done
done
# The table: a header, then the tools' rows in order.
rows="$(grep '^| ' "$t/table" | sed -n '1,/^| per event/p' | grep -v '^| tool\|^| per event' | cut -d'|' -f2 | sed 's/^ *//; s/ *$//')"
want="$(printf '%s\n' "none" "empty tool" "libaddscope_waits.so" "libaddscope_waits.so (ADDSCOPE_WAITS_SITES=off)" "again")"
[[ "$rows" == "$want" ]] || fail "the table's rows are [$(echo $rows)], not [$(echo $want)]"
grep -q '^| tool | launch + fence | deep_copy of 1 element | back-to-back launch | STREAM-style add, 10^5 floats | two instances, wall |$' "$t/table" ||
  fail "no table header with the five columns: $(grep '^| tool' "$t/table")"
# Events per iteration (the count tool): a begin and an end each (Kokkos
# 4.x adds fences of its own: "deep_copy 4.00 (fence 2, deep_copy 2)",
# "back-to-back launch 2.00 (parallel_for 2, fence 0.002)").
ev="$(grep '^events per iteration' "$t/table")"
for want in "launch + fence [0-9.]* (parallel_for 2" "deep_copy [0-9.]* ([^)]*deep_copy 2" "back-to-back launch 2.00 (parallel_for 2[,)]"; do
  grep -q "$want" <<<"$ev" || fail "events per iteration: no '$want' in: $ev"
done
grep -q '^| libaddscope_waits.so | [+-][0-9]* ns over none, [+-][0-9]* ns over the empty tool |' "$t/table" ||
  fail "no per-event row of the waits tool"
grep -q '^targets (issue 21' "$t/table" || fail "no targets section"
grep -q '^  launch + fence  .* (target <= +1.5 us): \(met\|MISSED\)$' "$t/table" || fail "no launch + fence target line"
for m in "launch + fence" "deep_copy" "back-to-back launch"; do
  grep -q "^    $m  *[+-][0-9.]* us: \(met\|MISSED\)$" "$t/table" || fail "no sites on over off line for $m"
done
grep -q '^the tracker alone' "$t/table" || fail "no tracker line (host backend)"
grep -q 'host backend' "$t/table" || fail "the table does not say it is a host backend"
[[ $bad -eq 0 ]] && echo "PASS: waits_cost.sh (usage errors, 5 tools x 5 metrics, medians, differences, table, events, targets)"
exit $bad
