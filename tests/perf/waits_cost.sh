#!/usr/bin/env bash
# What the waits tool costs a Kokkos program, measured the same way on any
# machine (issue 21): no tool / the empty tool (tests/tools/null_tool.cpp) /
# libaddscope_waits.so / the same with ADDSCOPE_WAITS_SITES=off (no stack
# taken: what naming the program's lines costs) / kokkos-tools' kernel timer
# (when its path is given) / any other Kokkos Tools library, in ROUNDS
# interleaved rounds,
# medians, on
#   launch + fence        an empty parallel_for + fence, per iteration
#   deep_copy             a one-element deep_copy device -> host
#   back-to-back launch   100,000 empty parallel_fors, then one fence, per launch
#                         (tests/tools/event_overhead.cpp, all three)
#   STREAM-style add      c = a + b of 10^7 floats, a fence after every
#                         kernel, the best of 100 (tests/tools/stream_fenced.cpp)
#   BabelStream Add       the same in BabelStream's Kokkos model (--float),
#                         when built (cmake/external-programs.sh)
#   two instances         two execution space instances x a slow kernel,
#                         wall time (tests/tools/two_instances.cpp; on a host
#                         backend both run on one instance)
# printed as a table: microseconds and the difference to no tool, GB/s and
# the change in %, seconds and %. On a device, the CUPTI floor
# (tests/perf/cupti_floor.cpp: a plain CUDA program, one CUPTI set-up per
# row, in the same rounds) is printed under it as rows "floor: CUPTI
# set-up X", with the same columns (launch + cudaStreamSynchronize, a
# one-element cudaMemcpy, back-to-back launches, a fenced add). Events per
# iteration come from tests/tools/count_tool.cpp (time per event). On a host
# backend it also prints the tracker's own cost per event on the program's
# thread (tests/perf/addscope-waits-tracker-perf) and, with valgrind, the
# instructions per call of each Kokkos Tools entry point of the waits tool.
# The issue's targets are checked and printed, never enforced: this is a
# benchmark, not a timed test (exit status 1 only when a run failed).
#
#   bash tests/perf/waits_cost.sh BUILD_OR_BUNDLE_DIR [options]
#
# BUILD_OR_BUNDLE_DIR: a CMake build of addscope (programs under tests/,
# the tool under src/, external programs under external/bin), a bundle of
# cmake/cuda-bundle.sh (bin/ and lib/), or a flavour folder inside a bundle
# (bin/ and a file "flavour"; the tool from the bundle's lib/).
# Options (each also an environment variable):
#   --rounds N         ROUNDS             interleaved rounds (5)
#   --kt-lib PATH      KT_LIB             kokkos-tools' kernel timer library
#   --extra L=PATH     EXTRA_TOOLS        more tools, a row each ("L=PATH L2=PATH2")
#   --tool PATH        WAITS_TOOL         the waits tool (the build's/bundle's)
#   --iters N          COST_ITERS         launch + fence, deep_copy iterations (20000)
#   --burst N          COST_BURST         back-to-back launches (100000)
#   --stream-n N       COST_STREAM_N      floats of the adds (10000000)
#   --stream-iters N   COST_STREAM_ITERS  adds per run (100; 20 on a host backend)
#   --two-n N          COST_TWO_N         elements of two_instances' kernels (10000000)
#   --no-floor         COST_FLOOR=0       no CUPTI floor
#   --floor-setups L   COST_FLOOR_SETUPS  the floor's set-ups (all: none,activity,...)
#   --floor-tool L     COST_FLOOR_TOOL    the floor tool's set-ups, a row each
#                                         (tool,launch; none: no such rows)
#   --no-callgrind     CALLGRIND=0        no instruction counts (host backend)
#   --timeout S        COST_TIMEOUT       per program run (300)
# OUT=DIR: also writes DIR/waits_cost.txt (what is printed), waits_cost.csv
# (one row per tool and metric) and waits_cost.log (every run's output).
# OMP_NUM_THREADS defaults to 1 (a host backend's cost per event, not its
# bandwidth).
set -uo pipefail

usage() {  # usage [STATUS]: the help above (on stderr for a usage error)
  if [[ "${1:-2}" == 0 ]]; then
    awk '/^#   bash/ { p = 1 } p && !/^#/ { exit } p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'
  else
    awk '/^#   bash/ { p = 1 } p && !/^#/ { exit } p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//' >&2
  fi
  exit "${1:-2}"
}
die_usage() { echo "waits_cost.sh: $*" >&2; exit 2; }
posint() {  # posint NAME VALUE [MIN]
  [[ "$2" =~ ^[0-9]+$ && "$2" -ge "${3:-1}" ]] ||
    die_usage "$1 = '$2' is invalid; allowed: an integer >= ${3:-1}"
}

[[ $# -ge 1 ]] || usage
[[ "$1" == -h || "$1" == --help ]] && usage 0
D_ARG="$1"
shift
[[ -d "$D_ARG" ]] || die_usage "BUILD_OR_BUNDLE_DIR = '$D_ARG' is not a folder; allowed: a build of addscope, a bundle of cmake/cuda-bundle.sh, or a flavour folder in one"
D="$(cd "$D_ARG" && pwd)"
ROUNDS="${ROUNDS:-5}"
KT_LIB="${KT_LIB:-}"
EXTRA_TOOLS="${EXTRA_TOOLS:-}"
WAITS_TOOL="${WAITS_TOOL:-}"
ITERS="${COST_ITERS:-20000}"
BURST="${COST_BURST:-100000}"
STREAM_N="${COST_STREAM_N:-10000000}"
STREAM_ITERS="${COST_STREAM_ITERS:-}"
TWO_N="${COST_TWO_N:-10000000}"
FLOOR="${COST_FLOOR:-1}"
FLOOR_SETUPS="${COST_FLOOR_SETUPS:-}"
FLOOR_TOOL_SETUPS="${COST_FLOOR_TOOL:-tool,launch}"
CALLGRIND="${CALLGRIND:-1}"
TIMEOUT="${COST_TIMEOUT:-300}"
while [[ $# -gt 0 ]]; do
  opt="$1"
  case "$opt" in
    --no-floor) FLOOR=0; shift; continue ;;
    --no-callgrind) CALLGRIND=0; shift; continue ;;
    -h|--help) usage 0 ;;
    --rounds|--kt-lib|--extra|--tool|--iters|--burst|--stream-n|--stream-iters|--two-n|--timeout|--floor-setups|--floor-tool)
      [[ $# -ge 2 ]] || die_usage "$opt needs a value" ;;
    *) die_usage "unknown option '$opt'; allowed: --rounds --kt-lib --extra --tool --iters --burst --stream-n --stream-iters --two-n --no-floor --floor-setups --floor-tool --no-callgrind --timeout" ;;
  esac
  case "$opt" in
    --rounds) ROUNDS="$2" ;;
    --kt-lib) KT_LIB="$2" ;;
    --extra) EXTRA_TOOLS="${EXTRA_TOOLS:+$EXTRA_TOOLS }$2" ;;
    --tool) WAITS_TOOL="$2" ;;
    --iters) ITERS="$2" ;;
    --burst) BURST="$2" ;;
    --stream-n) STREAM_N="$2" ;;
    --stream-iters) STREAM_ITERS="$2" ;;
    --two-n) TWO_N="$2" ;;
    --timeout) TIMEOUT="$2" ;;
    --floor-setups) FLOOR_SETUPS="$2" ;;
    --floor-tool) FLOOR_TOOL_SETUPS="$2" ;;
  esac
  shift 2
done
posint ROUNDS "$ROUNDS"; posint iters "$ITERS"; posint burst "$BURST"
posint stream-n "$STREAM_N"; posint two-n "$TWO_N"; posint timeout "$TIMEOUT"
[[ -z "$STREAM_ITERS" ]] || posint stream-iters "$STREAM_ITERS"
[[ "$FLOOR" == 0 || "$FLOOR" == 1 ]] || die_usage "COST_FLOOR = '$FLOOR' is invalid; allowed: 0 or 1"
[[ "$FLOOR_TOOL_SETUPS" =~ ^(none|[a-z-]+(,[a-z-]+)*)$ ]] || die_usage "COST_FLOOR_TOOL = '$FLOOR_TOOL_SETUPS' is invalid; allowed: none or set-ups of addscope-cupti-floor separated by commas (tool,launch)"
[[ "$CALLGRIND" == 0 || "$CALLGRIND" == 1 ]] || die_usage "CALLGRIND = '$CALLGRIND' is invalid; allowed: 0 or 1"

# ---- where the pieces are ---------------------------------------------------
first_of() { for f in "$@"; do [[ -e "$f" ]] && { echo "$f"; return; }; done; echo ""; }
if [[ -f "$D/CMakeCache.txt" ]]; then
  layout="build $D"
  EO="$D/tests/tools/addscope-test-event-overhead"
  SF="$D/tests/tools/addscope-test-stream-fenced"
  TI="$D/tests/tools/addscope-test-two-instances"
  TOOL_DEFAULT="$D/src/libaddscope_waits.so"
  NULL_TOOL="$D/tests/tools/libaddscope_null_tool.so"
  COUNT_TOOL="$D/tests/tools/libaddscope_count_tool.so"
  PERF="$D/tests/perf/addscope-waits-tracker-perf"
  FLOOR_BIN="$D/tests/perf/addscope-cupti-floor"
  FLOOR_TOOL_LIB="$D/tests/perf/libaddscope_cupti_floor_tool.so"
  BABEL="$D/external/bin/babelstream-kokkos"
elif [[ -d "$D/bin" ]]; then
  R="$D"
  [[ -f "$D/lib/libaddscope_waits.so" ]] || R="$(dirname "$D")"
  layout="bundle $R$([[ "$R" != "$D" ]] && echo ", flavour $(cat "$D/flavour" 2>/dev/null || basename "$D")")"
  export LD_LIBRARY_PATH="$D/lib:$R/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  EO="$D/bin/addscope-test-event-overhead"
  SF="$D/bin/addscope-test-stream-fenced"
  TI="$D/bin/addscope-test-two-instances"
  TOOL_DEFAULT="$R/lib/libaddscope_waits.so"
  NULL_TOOL="$R/lib/libaddscope_null_tool.so"
  COUNT_TOOL="$R/lib/libaddscope_count_tool.so"
  PERF="$(first_of "$D/bin/addscope-waits-tracker-perf" "$R/bin/addscope-waits-tracker-perf")"
  FLOOR_BIN="$(first_of "$D/bin/addscope-cupti-floor" "$R/bin/addscope-cupti-floor")"
  FLOOR_TOOL_LIB="$R/lib/libaddscope_cupti_floor_tool.so"
  BABEL="$D/bin/babelstream-kokkos"
else
  die_usage "BUILD_OR_BUNDLE_DIR = '$D' holds neither CMakeCache.txt (a build) nor bin/ (a bundle or flavour)"
fi
TOOL="${WAITS_TOOL:-$TOOL_DEFAULT}"
[[ -x "$EO" ]] || die_usage "no $EO (build the target addscope-test-event-overhead, or bundle it)"
[[ -f "$TOOL" ]] || die_usage "the waits tool '$TOOL' does not exist (set --tool / WAITS_TOOL)"
[[ -f "$NULL_TOOL" ]] || die_usage "the empty tool '$NULL_TOOL' does not exist (build the target addscope_null_tool)"
[[ -z "$KT_LIB" || -f "$KT_LIB" ]] || die_usage "KT_LIB = '$KT_LIB' does not exist; allowed: the path of kokkos-tools' kp_kernel_timer.so"

# The rows: label, display name, library ("" = no tool), environment
# ("VAR=VALUE ..." for that row's runs).
T_LABEL=(none empty waits) T_NAME=("none" "empty tool" "libaddscope_waits.so") T_LIB=("" "$NULL_TOOL" "$TOOL") T_ENV=("" "" "")
# The same tool taking no stack (the program's lines off): what sites cost.
T_LABEL+=(waits-nosites); T_NAME+=("libaddscope_waits.so (ADDSCOPE_WAITS_SITES=off)"); T_LIB+=("$TOOL"); T_ENV+=("ADDSCOPE_WAITS_SITES=off")
if [[ -n "$KT_LIB" ]]; then
  T_LABEL+=(kt); T_NAME+=("kokkos-tools kernel timer"); T_LIB+=("$(cd "$(dirname "$KT_LIB")" && pwd)/$(basename "$KT_LIB")"); T_ENV+=("")
fi
for e in $EXTRA_TOOLS; do
  l="${e%%=*}" p="${e#*=}"
  [[ "$e" == *=* && -n "$l" && "$l" =~ ^[A-Za-z0-9._-]+$ && -f "$p" ]] ||
    die_usage "EXTRA_TOOLS entry '$e' is invalid; allowed: LABEL=PATH (LABEL of letters, digits, . _ -, PATH an existing library)"
  T_LABEL+=("$l"); T_NAME+=("$l"); T_LIB+=("$(cd "$(dirname "$p")" && pwd)/$(basename "$p")"); T_ENV+=("")
done

export OMP_PROC_BIND="${OMP_PROC_BIND:-false}" OMP_NUM_THREADS="${OMP_NUM_THREADS:-1}"
scratch="$(mktemp -d)"
# OUT gets what there is even when a run stops the script early (the log).
leave() {
  if [[ -n "${OUT:-}" ]]; then
    mkdir -p "$OUT" &&
      for f in waits_cost.txt waits_cost.csv waits_cost.log; do
        [[ -f "$scratch/$f" ]] && cp "$scratch/$f" "$OUT/"
      done
  fi
  rm -rf "$scratch"
}
trap leave EXIT
LOG="$scratch/waits_cost.log"
: >"$LOG"
failures=0

# run LIB PROGRAM ARGS...: runs the program in a scratch folder (tools write
# files into the working directory) with LIB as the only Kokkos Tools
# library; its output (stdout and stderr) in RUN_OUT, and in the log.
RUN_OUT=""
run() {
  local lib="$1"; shift
  local env_=(env -u KOKKOS_PROFILE_LIBRARY -u KOKKOS_TOOLS_LIBS)
  [[ -n "$lib" ]] && env_+=(KOKKOS_PROFILE_LIBRARY="$lib" KOKKOS_TOOLS_LIBS="$lib")
  # shellcheck disable=SC2206  # RUN_ENV: VAR=VALUE words, no spaces inside
  [[ -n "${RUN_ENV:-}" ]] && env_+=($RUN_ENV)
  local rc
  RUN_OUT="$(cd "$scratch/run" && "${env_[@]}" timeout "$TIMEOUT" "$@" 2>&1)"
  rc=$?
  { echo "### ${lib:-no tool}${RUN_ENV:+ ($RUN_ENV)}: $* (rc=$rc)"; echo "$RUN_OUT"; } >>"$LOG"
  if [[ $rc -ne 0 ]]; then
    echo "waits_cost: FAILED (rc=$rc): ${lib:+tool $lib, }$*" >&2
    failures=$((failures + 1))
  elif [[ -n "$lib" ]] && grep -q "Unable to load KokkosP library" <<<"$RUN_OUT"; then
    # Kokkos (3.4 and 4.x) runs on without the tool when dlopen fails: the
    # run measured no tool, so its numbers must not stand in the tool's row
    echo "waits_cost: FAILED (the tool did not load: $(grep -m1 -o 'failed with .*' <<<"$RUN_OUT")): tool $lib, $*" >&2
    echo "### the tool did not load: this run's numbers are dropped" >>"$LOG"
    RUN_OUT=""
    failures=$((failures + 1))
  fi
}
mkdir -p "$scratch/run"
cost_field() { awk -v m="$1" '$1 == "cost:" && $2 == m { print $3; exit }'; }

# ---- what this is ---------------------------------------------------------------
run "" "$EO" 10 10
probe="$RUN_OUT"
SPACE="$(cost_field exec_space <<<"$probe")"
KVER="$(cost_field kokkos <<<"$probe")"
[[ -n "$SPACE" ]] || { echo "waits_cost: $EO printed no 'cost: exec_space' line:" >&2; echo "$probe" >&2; exit 1; }
case "$SPACE" in
  Serial|OpenMP|Threads|HPX) HOST=1 ;;
  *) HOST=0 ;;
esac
[[ -n "$STREAM_ITERS" ]] || STREAM_ITERS=$([[ $HOST == 1 ]] && echo 20 || echo 100)
if [[ $HOST == 1 ]]; then
  machine="host backend $SPACE, $OMP_NUM_THREADS thread(s), $(lscpu 2>/dev/null | sed -n 's/^Model name: *//p' | head -1)"
else
  gpu="$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -1)"
  machine="device backend $SPACE${gpu:+, $gpu}"
fi
log10() { awk -v n="$1" 'BEGIN { e = int(log(n) / log(10) + 0.5); if (n >= 1000 && sprintf("%.0f", 10 ^ e) == n) printf "10^%d", e; else printf "%d", n }'; }
SN="$(log10 "$STREAM_N")"

# On a device: the waits tool without copy records, without CUPTI flushes
# on a timer (what the analyzer's flushes cost the program), and the CUPTI
# floor inside the same programs (one row per set-up of the floor tool).
FT_ROWS=()
if [[ $HOST == 0 ]]; then
  T_LABEL+=(waits-nocopy); T_NAME+=("libaddscope_waits.so, ADDSCOPE_WAITS_COPY_RECORDS=0"); T_LIB+=("$TOOL"); T_ENV+=("ADDSCOPE_WAITS_COPY_RECORDS=0")
  T_LABEL+=(waits-noflush); T_NAME+=("libaddscope_waits.so, ADDSCOPE_WAITS_FLUSH_EVERY=0"); T_LIB+=("$TOOL"); T_ENV+=("ADDSCOPE_WAITS_FLUSH_EVERY=0")
  if [[ "$FLOOR_TOOL_SETUPS" != none && -f "$FLOOR_TOOL_LIB" ]]; then
    for s in ${FLOOR_TOOL_SETUPS//,/ }; do
      T_LABEL+=("floortool-$s"); T_NAME+=("CUPTI floor tool (set-up $s)"); T_LIB+=("$FLOOR_TOOL_LIB"); T_ENV+=("ADDSCOPE_CUPTI_FLOOR_SETUP=$s")
      FT_ROWS+=("$s")
    done
  fi
fi
NT=${#T_LABEL[@]}

# Events per iteration of each loop (the count tool, once, not timed).
declare -A EV=() EVK=()
calls_line=""
if [[ -f "$COUNT_TOOL" ]]; then
  run "$COUNT_TOOL" "$EO" 1000 1000
  cout="$RUN_OUT"
  for m in launch_fence deep_copy burst_launch; do
    line="$(grep "^count_tool: phase $m " <<<"$cout")"
    [[ -n "$line" ]] || continue
    EV[$m]="$(awk -v per=1000 '{ for (i = 4; i < NF; i += 2) if ($i == "total") printf "%.2f", $(i + 1) / per }' <<<"$line")"
    EVK[$m]="$(awk -v per=1000 '{ s = ""; for (i = 4; i < NF; i += 2) if ($i != "total" && $(i + 1) > 0) s = s (s == "" ? "" : ", ") $i " " $(i + 1) / per; print s }' <<<"$line")"
  done
  calls_line="$(grep '^count_tool: calls ' <<<"$cout")"
fi

# ---- the rounds ------------------------------------------------------------------
declare -A V=()   # V[label,metric] = "v1 v2 ..."
add() { [[ -n "$3" ]] && V["$1,$2"]+="$3 "; }
have_floor=0
[[ $HOST == 0 && $FLOOR == 1 && -x "$FLOOR_BIN" ]] && have_floor=1
declare -A FTRUTH=() FSEEN=() FNOTE=()
FSETUPS=()
echo "waits cost: $ROUNDS interleaved rounds, $NT tools$([[ $have_floor == 1 ]] && echo " + the CUPTI floor"), $layout ..." >&2
for r in $(seq "$ROUNDS"); do
  for k in $(seq 0 $((NT - 1))); do
    i=$(((k + r - 1) % NT))   # each round starts with the next tool
    l="${T_LABEL[$i]}" lib="${T_LIB[$i]}" RUN_ENV="${T_ENV[$i]}"
    run "$lib" "$EO" "$ITERS" "$BURST"; o="$RUN_OUT"
    for m in launch_fence deep_copy burst_launch; do add "$l" "$m" "$(cost_field "$m" <<<"$o")"; done
    if [[ -x "$SF" ]]; then
      run "$lib" "$SF" "$STREAM_N" "$STREAM_ITERS"; o="$RUN_OUT"
      add "$l" stream_add "$(cost_field stream_add <<<"$o")"
    fi
    if [[ -x "$BABEL" ]]; then
      run "$lib" "$BABEL" --float --arraysize "$STREAM_N" --numtimes "$STREAM_ITERS" --csv --gigabytes
      o="$RUN_OUT"
      add "$l" babel_add "$(awk -F, '$1 == "Add" { print $5; exit }' <<<"$o")"
    fi
    if [[ -x "$TI" ]]; then
      run "$lib" "$TI" "$TWO_N"; o="$RUN_OUT"
      add "$l" two_wall "$(cost_field two_instances_wall <<<"$o")"
    fi
  done
  RUN_ENV=""
  if [[ $have_floor == 1 ]]; then
    run "" "$FLOOR_BIN" --rounds 1 --rotate "$((r - 1))" --iters "$ITERS" --burst "$BURST" \
      --n "$STREAM_N" --add-iters "$STREAM_ITERS" ${FLOOR_SETUPS:+--setups "$FLOOR_SETUPS"}
    o="$RUN_OUT"
    while read -r s m v; do
      [[ -z "${FSEEN[$s]:-}" ]] && { FSEEN[$s]=1; FSETUPS+=("$s"); }
      add "floor:$s" "$m" "$v"
    done < <(sed -n 's/^cupti_floor setup=\([^ ]*\) metric=\([^ ]*\) median=\([^ ]*\) .*/\1 \2 \3/p' <<<"$o")
    while read -r s t; do
      [[ -z "${FSEEN[$s]:-}" ]] && { FSEEN[$s]=1; FSETUPS+=("$s"); }
      [[ "${FTRUTH[$s]:-yes}" == yes ]] && FTRUTH[$s]="$t"
    done < <(sed -n 's/^cupti_floor setup=\([^ ]*\) truth=\([a-z]*\) .*/\1 \2/p' <<<"$o")
    floor_info="$(grep '^cupti_floor: device' <<<"$o" | tail -1 | sed 's/^cupti_floor: //')"
    while read -r s n; do
      [[ -n "${FNOTE[$s]:-}" ]] || FNOTE[$s]="$n"
    done < <(sed -n 's/^cupti_floor setup=\([^ ]*\) note: \(.*\)/\1 \2/p' <<<"$o")
  fi
  echo "  round $r of $ROUNDS done" >&2
done

# ---- the table ---------------------------------------------------------------------
median() { tr ' ' '\n' | grep -v '^$' | sort -g | awk '{ a[NR] = $1 } END { if (NR) printf "%.10g\n", (NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2) }'; }
med() { median <<<"${V[$1,$2]:-}"; }
count() { wc -w <<<"${V[$1,$2]:-}" | tr -d ' '; }
# cell KIND VALUE BASE: "10.24 µs (+0.21)", "2105 GB/s (−7.4%)", "0.5673 s (+0.2%)"
cell() {
  awk -v k="$1" -v v="$2" -v b="$3" 'function sgn(d) { return d < 0 ? "\342\210\222" : "+" }
    BEGIN {
      if (v == "") { printf "—"; exit }
      if (k == "us") {
        f = v < 1 ? "%.3f" : "%.2f"; printf f " µs", v
        if (b != "") { d = v - b; printf " (%s" f ")", sgn(d), d < 0 ? -d : d }
      } else if (k == "gbs") {
        f = v < 100 ? "%.1f" : "%.0f"; printf f " GB/s", v
        if (b != "") { d = 100 * (v - b) / b; printf " (%s%.1f%%)", sgn(d), d < 0 ? -d : d }
      } else {
        printf "%.4g s", v
        if (b != "") { d = 100 * (v - b) / b; printf " (%s%.1f%%)", sgn(d), d < 0 ? -d : d }
      }
    }'
}
METRICS=(launch_fence deep_copy burst_launch)
KINDS=(us us us)
HEADS=("launch + fence" "deep_copy of 1 element" "back-to-back launch")
if [[ -n "${V[none,stream_add]:-}" ]]; then
  METRICS+=(stream_add); KINDS+=(gbs); HEADS+=("STREAM-style add, $SN floats")
fi
if [[ -n "${V[none,babel_add]:-}" ]]; then
  METRICS+=(babel_add); KINDS+=(gbs); HEADS+=("BabelStream Add, $SN floats")
fi
if [[ -n "${V[none,two_wall]:-}" ]]; then
  METRICS+=(two_wall); KINDS+=(s); HEADS+=("two instances, wall")
fi
# The floor's metrics in the same columns.
declare -A FLOOR_OF=([launch_fence]=launch_sync [deep_copy]=memcpy_d2h [burst_launch]=burst_launch [stream_add]=add)
CSV="$scratch/waits_cost.csv"
echo "section,tool,metric,unit,median,diff_to_none,diff_unit,runs,values" >"$CSV"
csv_row() {  # csv_row SECTION TOOL METRIC UNIT MEDIAN BASE DIFFUNIT VALUES
  local d=""
  [[ -n "$5" && -n "$6" ]] && d="$(awk -v v="$5" -v b="$6" -v u="$7" 'BEGIN { printf "%.6g", u == "%" ? 100 * (v - b) / b : v - b }')"
  echo "$1,\"$2\",$3,$4,$5,$d,$7,$(wc -w <<<"$8" | tr -d ' '),\"$(echo $8)\"" >>"$CSV"
}
unit_of() { case "$1" in us) echo us ;; gbs) echo GB/s ;; *) echo s ;; esac; }
dunit_of() { [[ "$1" == us ]] && echo us || echo %; }

TXT="$scratch/waits_cost.txt"
{
  echo "waits cost: $machine; Kokkos $KVER; $layout"
  echo "  medians of $ROUNDS interleaved rounds; launch + fence and deep_copy: $ITERS iterations, back-to-back: $BURST launches + 1 fence; adds: $STREAM_N floats, best of $STREAM_ITERS"
  [[ $HOST == 1 ]] && echo "  (a host backend: kernels run inside their launch, nothing waits for a device; two instances run on one)"
  echo
  printf '| tool |'; for h in "${HEADS[@]}"; do printf ' %s |' "$h"; done; echo
  printf '|---|'; for h in "${HEADS[@]}"; do printf -- '---|'; done; echo
  for i in $(seq 0 $((NT - 1))); do
    l="${T_LABEL[$i]}"
    printf '| %s |' "${T_NAME[$i]}"
    for j in "${!METRICS[@]}"; do
      m="${METRICS[$j]}" v="$(med "$l" "${METRICS[$j]}")" b=""
      [[ "$l" != none ]] && b="$(med none "$m")"
      printf ' %s |' "$(cell "${KINDS[$j]}" "$v" "$b")"
      csv_row tool "${T_NAME[$i]}" "$m" "$(unit_of "${KINDS[$j]}")" "$v" "$b" "$(dunit_of "${KINDS[$j]}")" "${V[$l,$m]:-}"
    done
    echo
  done
  if [[ $have_floor == 1 && ${#FSETUPS[@]} -gt 0 ]]; then
    for s in "${FSETUPS[@]}"; do
      t=""; [[ "${FTRUTH[$s]:-no}" == yes ]] && t=" (gives the truth)"
      printf '| floor: CUPTI set-up %s%s |' "$s" "$t"
      for j in "${!METRICS[@]}"; do
        m="${METRICS[$j]}" fm="${FLOOR_OF[${METRICS[$j]}]:-}"
        if [[ -z "$fm" ]]; then printf ' |'; continue; fi
        v="$(med "floor:$s" "$fm")" b=""
        [[ "$s" != none ]] && b="$(med floor:none "$fm")"
        printf ' %s |' "$(cell "${KINDS[$j]}" "$v" "$b")"
        csv_row floor "$s" "$fm" "$(unit_of "${KINDS[$j]}")" "$v" "$b" "$(dunit_of "${KINDS[$j]}")" "${V[floor:$s,$fm]:-}"
      done
      echo
    done
    echo
    echo "floor: tests/perf/cupti_floor.cpp, plain CUDA, no Kokkos: its columns are an empty kernel + cudaStreamSynchronize, a one-element cudaMemcpy D2H, back-to-back empty launches, a fenced add; its differences are to its own set-up none; ${floor_info:-}"
    for s in "${FSETUPS[@]}"; do
      [[ -n "${FNOTE[$s]:-}" ]] && echo "floor: set-up $s: ${FNOTE[$s]}"
    done
  elif [[ $HOST == 0 && $FLOOR == 1 ]]; then
    echo
    echo "floor: no CUPTI floor program ($FLOOR_BIN; built when Kokkos has CUDA and CUPTI's headers are found)"
  fi

  # Time per event.
  if [[ ${#EV[@]} -gt 0 ]]; then
    echo
    echo "events per iteration (tests/tools/count_tool.cpp): launch + fence ${EV[launch_fence]:-?} (${EVK[launch_fence]:-}), deep_copy ${EV[deep_copy]:-?} (${EVK[deep_copy]:-}), back-to-back launch ${EV[burst_launch]:-?} (${EVK[burst_launch]:-})"
    echo
    echo "| per event | launch + fence | deep_copy of 1 element | back-to-back launch |"
    echo "|---|---|---|---|"
    for i in $(seq 1 $((NT - 1))); do
      l="${T_LABEL[$i]}"
      printf '| %s |' "${T_NAME[$i]}"
      for m in launch_fence deep_copy burst_launch; do
        printf ' %s |' "$(awk -v v="$(med "$l" $m)" -v b="$(med none $m)" -v z="$(med empty $m)" -v e="${EV[$m]:-0}" -v self="$l" 'BEGIN {
          if (v == "" || b == "" || e <= 0) { printf "—"; exit }
          printf "%+.0f ns over none", 1000 * (v - b) / e
          if (self != "empty" && z != "") printf ", %+.0f ns over the empty tool", 1000 * (v - z) / e }')"
        csv_row per_event "${T_NAME[$i]}" "$m" ns_per_event "$(awk -v v="$(med "$l" $m)" -v b="$(med none $m)" -v e="${EV[$m]:-0}" 'BEGIN { if (v != "" && b != "" && e > 0) printf "%.6g", 1000 * (v - b) / e }')" "" "" ""
      done
      echo
    done
  fi

  # The issue's targets (a benchmark: read, never enforced).
  echo
  w_lf="$(med waits launch_fence)" n_lf="$(med none launch_fence)"
  w_dc="$(med waits deep_copy)" n_dc="$(med none deep_copy)"
  w_bl="$(med waits burst_launch)" n_bl="$(med none burst_launch)"
  w_sa="$(med waits stream_add)" n_sa="$(med none stream_add)"
  w_tw="$(med waits two_wall)" n_tw="$(med none two_wall)"
  truth=""
  if [[ $have_floor == 1 ]]; then
    best=""
    for s in "${FSETUPS[@]}"; do
      [[ "${FTRUTH[$s]:-no}" == yes ]] || continue
      d="$(awk -v v="$(med "floor:$s" launch_sync)" -v b="$(med floor:none launch_sync)" 'BEGIN { if (v != "" && b != "") print v - b }')"
      [[ -n "$d" ]] || continue
      if [[ -z "$best" ]] || awk -v a="$d" -v b="$best" 'BEGIN { exit !(a < b) }'; then best="$d" truth="$s"; fi
    done
  fi
  echo "targets (issue 21; medians of at least 5 rounds: this run has $ROUNDS):"
  target_us() {  # NAME WAITS NONE FLOORMETRIC
    awk -v name="$1" -v w="$2" -v n="$3" -v fs="$truth" -v fv="$( [[ -n "$truth" ]] && med "floor:$truth" "$4")" -v fb="$( [[ -n "$truth" ]] && med floor:none "$4")" 'BEGIN {
      if (w == "" || n == "") { printf "  %-22s not measured\n", name; exit }
      d = w - n; ok = d <= 1.5
      s = sprintf("  %-22s %+.2f us (target <= +1.5 us", name, d)
      if (fs != "" && fv != "" && fb != "") { f = fv - fb; s = s sprintf(" and <= the floor %s %+.2f + 0.5 us", fs, f); ok = ok && d <= f + 0.5 }
      printf "%s): %s\n", s, ok ? "met" : "MISSED" }'
  }
  target_us "launch + fence" "$w_lf" "$n_lf" launch_sync
  target_us "deep_copy" "$w_dc" "$n_dc" memcpy_d2h
  target_us "back-to-back launch" "$w_bl" "$n_bl" burst_launch
  awk -v w="$w_sa" -v n="$n_sa" 'BEGIN { if (w == "" || n == "") { print "  STREAM-style add       not measured"; exit }
    d = 100 * (w - n) / n; printf "  %-22s %+.1f%% (target >= -2%%): %s\n", "STREAM-style add", d, (d >= -2) ? "met" : "MISSED" }'
  awk -v w="$w_tw" -v n="$n_tw" -v host="$HOST" 'BEGIN { if (w == "" || n == "") { print "  two instances          not measured"; exit }
    d = 100 * (w - n) / n; printf "  %-22s %+.1f%% wall (target within 2%%)%s: %s\n", "two instances", d, host ? ", on one instance here" : "", (d <= 2 && d >= -2) ? "met" : "MISSED" }'
  # The program's lines (issue 36): the tool with sites on over the same
  # tool with them off, per launch and per blocking call.
  echo "  the program's lines (issue 36): sites on over off (target <= +0.3 us per launch and per blocking call):"
  for m in launch_fence deep_copy burst_launch; do
    awk -v m="$m" -v w="$(med waits "$m")" -v o="$(med waits-nosites "$m")" 'BEGIN {
      name = (m == "launch_fence") ? "launch + fence" : (m == "deep_copy") ? "deep_copy" : "back-to-back launch"
      if (w == "" || o == "") { printf "    %-22s not measured\n", name; exit }
      d = w - o; printf "    %-22s %+.3f us: %s\n", name, d, d <= 0.3 ? "met" : "MISSED" }'
  done
  # Over CUPTI's own cost in the same Kokkos programs: the tool with its
  # CUPTI set-up over the floor tool with that set-up ("tool"), and without
  # copy records over the floor tool's "launch" (the cheapest set-up that
  # gives the truth: kernels tied to their launches, every blocking call).
  if [[ ${#FT_ROWS[@]} -gt 0 ]]; then
    echo "  the tool's own cost over CUPTI's, in the same Kokkos programs (target: within 0.5 us of the floor that gives the truth):"
    for pair in waits:tool waits-noflush:tool waits-nocopy:launch; do
      w="${pair%%:*}" f="floortool-${pair#*:}"
      [[ -n "${V[$f,launch_fence]:-}" && -n "${V[$w,launch_fence]:-}" ]] || continue
      for m in launch_fence deep_copy burst_launch stream_add; do
        awk -v m="$m" -v w="$(med "$w" "$m")" -v f="$(med "$f" "$m")" -v wn="$w" -v fn="${f#floortool-}" 'BEGIN {
          if (w == "" || f == "") exit
          name = (m == "launch_fence") ? "launch + fence" : (m == "deep_copy") ? "deep_copy" : (m == "burst_launch") ? "back-to-back launch" : "STREAM-style add"
          who = (wn == "waits") ? "tool" : (wn == "waits-noflush") ? "tool, no flush timer" : "tool, no copy records"
          if (m == "stream_add") { d = 100 * (w - f) / f; printf "    %-22s %s over the floor tool %s: %+.1f%%\n", name, who, fn, d; exit }
          d = w - f; printf "    %-22s %s over the floor tool %s: %+.2f us (target <= +0.5 us): %s\n", name, who, fn, d, d <= 0.5 ? "met" : "MISSED" }'
      done
    done
  fi
  if [[ $HOST == 1 && ${#EV[@]} -gt 0 ]]; then
    for m in launch_fence deep_copy burst_launch; do
      awk -v name="$m" -v w="$(med waits $m)" -v n="$(med none $m)" -v z="$(med empty $m)" -v e="${EV[$m]:-0}" 'BEGIN {
        if (w == "" || n == "" || e <= 0) exit
        a = 1000 * (w - n) / e; b = (z == "") ? a : 1000 * (w - z) / e
        printf "  per event, %-12s %+.0f ns over none, %+.0f ns over the empty tool (target <= 100 ns on the program thread): %s\n", name, a, b, a <= 100 ? "met" : (b <= 100 ? "met over the empty tool only" : "MISSED") }'
    done
  fi

  # A host backend: the tracker alone, and the instructions per call.
  if [[ $HOST == 1 && -x "$PERF" ]]; then
    echo
    echo "the tracker alone ($(basename "$PERF") 1000000, no Kokkos, on the program thread):"
    if [[ -n "$WAITS_TOOL" ]]; then
      LD_LIBRARY_PATH="$(dirname "$TOOL")${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" timeout "$TIMEOUT" "$PERF" 1000000 2>&1 | tee -a "$LOG" | sed 's/^/  /'
    else
      timeout "$TIMEOUT" "$PERF" 1000000 2>&1 | tee -a "$LOG" | sed 's/^/  /'
    fi
  fi
  if [[ $HOST == 1 && $CALLGRIND == 1 && -n "$calls_line" ]] && command -v valgrind >/dev/null && command -v callgrind_annotate >/dev/null; then
    cg="$scratch/callgrind.out"
    cgn=20000
    run "$COUNT_TOOL" "$EO" "$cgn" 1000
    calls2="$(grep '^count_tool: calls ' <<<"$RUN_OUT")"
    # Sites off: under valgrind every call lasts past the threshold at which a
    # stack is taken, so the counts would follow valgrind's slowness, not the
    # tool (a site's cost: the tracker's line above, sites on against off).
    (cd "$scratch/run" && KOKKOS_PROFILE_LIBRARY="$TOOL" KOKKOS_TOOLS_LIBS="$TOOL" \
      ADDSCOPE_WAITS_SITES=off timeout "$((TIMEOUT * 4))" valgrind --tool=callgrind --callgrind-out-file="$cg" "$EO" "$cgn" 1000 >/dev/null 2>&1)
    echo
    echo "instructions per call of the waits tool's entry points (callgrind, ADDSCOPE_WAITS_SITES=off, $cgn iterations, 1000 back-to-back launches; calls counted by the count tool):"
    callgrind_annotate --inclusive=yes "$cg" 2>/dev/null |
      awk -v calls="$calls2" 'BEGIN { n = split(calls, c, " "); for (i = 3; i < n; i += 2) cnt[c[i]] = c[i + 1] }
        /:kokkosp_(begin|end)_(parallel_for|deep_copy|fence)|:kokkosp_(push|pop)_profile_region/ {
          ir = $1; gsub(",", "", ir); f = $0; sub(/.*:kokkosp_/, "kokkosp_", f); sub(/[ (\[].*/, "", f)
          if (seen[f]++ || !(f in cnt) || cnt[f] == 0) next
          printf "  %-28s %8.0f (%d calls)\n", f, ir / cnt[f], cnt[f] }'
  fi
  [[ $failures -eq 0 ]] || { echo; echo "waits cost: $failures program run(s) FAILED (see waits_cost.log)"; }
} >"$TXT"
cat "$TXT"
[[ $failures -eq 0 ]]
