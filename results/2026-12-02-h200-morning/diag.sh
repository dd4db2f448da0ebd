#!/usr/bin/env bash
# Call-1 diagnostics (run from the repo root on the GPU machine; bundle in .device).
# deep_copy cost parts on each flavour, the 3.4 soak repeated with the tool's own stats.
set -uo pipefail
D="$PWD/.device"; OUT="${OUT:-$PWD/logs}"; mkdir -p "$OUT"
export OMP_PROC_BIND=false OMP_NUM_THREADS=1
LOG="$OUT/diag.txt"
say() { echo "$@" | tee -a "$LOG"; }
flav_env() {  # flav_env NAME -> sets LD_LIBRARY_PATH and BIN
  if [[ "$1" == kokkos34 ]]; then BIN="$D/bin"; export LD_LIBRARY_PATH="$D/lib"
  else BIN="$D/$1/bin"; export LD_LIBRARY_PATH="$D/lib:$(cat "$D/$1/libpath")"; fi
}
# one run of event_overhead with a tool and env; prints its cost lines on one row
eo() {  # eo LABEL LIB [VAR=VAL...]
  local label="$1" lib="$2"; shift 2
  local e=(env -u KOKKOS_PROFILE_LIBRARY -u KOKKOS_TOOLS_LIBS "$@")
  [[ -n "$lib" ]] && e+=(KOKKOS_TOOLS_LIBS="$lib" KOKKOS_PROFILE_LIBRARY="$lib")
  local o; o="$( (cd /tmp && "${e[@]}" timeout 120 "$BIN/addscope-test-event-overhead" 20000 20000) 2>&1)"
  local lf dc bl
  lf="$(sed -n 's/^cost: launch_fence \([0-9.]*\).*/\1/p' <<<"$o")"
  dc="$(sed -n 's/^cost: deep_copy \([0-9.]*\).*/\1/p' <<<"$o")"
  bl="$(sed -n 's/^cost: burst_launch \([0-9.]*\).*/\1/p' <<<"$o")"
  say "$(printf 'EO %-9s %-22s lf %8s dc %8s bl %8s' "$FL" "$label" "$lf" "$dc" "$bl")"
  grep "addscope waits: analyzer thread\|CUPTI delivered\|cupti_floor_tool" <<<"$o" | sed 's/^/    /' | tee -a "$LOG" >/dev/null
}
W="$D/lib/libaddscope_waits.so"; F="$D/lib/libaddscope_cupti_floor_tool.so"; N="$D/lib/libaddscope_null_tool.so"
W2="$D/lib/libaddscope_waits_prev.so"
for FL in ${DIAG_FLAVOURS:-cuda13 kokkos34}; do
  flav_env "$FL"
  for r in 1 2 3 4 5; do
    eo none ""
    eo empty "$N"
    eo floor-tool "$F" ADDSCOPE_CUPTI_FLOOR_SETUP=tool
    eo floor-launch "$F" ADDSCOPE_CUPTI_FLOOR_SETUP=launch
    eo waits "$W" ADDSCOPE_WAITS_VERBOSE=1
    [[ -f "$W2" ]] && eo waits-prev "$W2" ADDSCOPE_WAITS_VERBOSE=1
    eo waits-flush0 "$W" ADDSCOPE_WAITS_FLUSH_EVERY=0 ADDSCOPE_WAITS_VERBOSE=1
    eo waits-copy0 "$W" ADDSCOPE_WAITS_COPY_RECORDS=0 ADDSCOPE_WAITS_VERBOSE=1
  done
done
# ---- the soak (10^6 kernels, a deep_copy every 10), with the tool's own stats
soak() {  # soak LABEL LIB [VAR=VAL...]
  local label="$1" lib="$2"; shift 2
  local e=(env -u KOKKOS_PROFILE_LIBRARY -u KOKKOS_TOOLS_LIBS "$@")
  [[ -n "$lib" ]] && e+=(KOKKOS_TOOLS_LIBS="$lib" KOKKOS_PROFILE_LIBRARY="$lib")
  local t0=$SECONDS o
  o="$( (cd /tmp && "${e[@]}" ADDSCOPE_WAITS_OUTPUT=/tmp/soak_report.txt timeout 200 "$BIN/addscope-test-soak" 1000000 10 1000) 2>&1)"
  say "SOAK $FL $label ($((SECONDS - t0)) s): $(grep -m1 '^soak: ' <<<"$o" | sed 's/.*chunks of 1000: //')"
  grep "addscope waits: analyzer thread\|CUPTI delivered\|cupti_floor_tool" <<<"$o" | sed 's/^/    /' | tee -a "$LOG" >/dev/null
}
for FL in ${SOAK_FLAVOURS:-kokkos34}; do
  flav_env "$FL"
  soak plain ""
  soak waits "$W" ADDSCOPE_WAITS_VERBOSE=1
  soak floor-tool "$F" ADDSCOPE_CUPTI_FLOOR_SETUP=tool
  soak waits "$W" ADDSCOPE_WAITS_VERBOSE=1
  soak waits-flush0 "$W" ADDSCOPE_WAITS_VERBOSE=1 ADDSCOPE_WAITS_FLUSH_EVERY=0
  soak waits "$W" ADDSCOPE_WAITS_VERBOSE=1
done
