#!/usr/bin/env bash
# One GPU call for what issue 36 has left (carry .deps): the whole check and
# PyTorch's lines' cost (results/2026-12-05-h100-places/gpu_final.sh: build,
# classes, injection, shapes, waits unit tests, the --syncs loop), then, while
# the call has time left, the cost benchmark with sites on and off beside the
# CUPTI floor (.device/run.sh cost, COST_ROUNDS rounds), bounded so that the
# files are copied before the call's limit. At most 8 files in $OUT.
#   OUT=DIR [PARTS="final cost"] [COST_ROUNDS=3] [LIMIT=570]
#     bash results/2026-12-06-h100-final/gpu_all.sh
set -uo pipefail
OUT="${OUT:?OUT: the folder the logs go to}"
F=/tmp/all-final C=/tmp/all-cost
rm -rf "$F" "$C"; mkdir -p "$F" "$C"
limit="${LIMIT:-570}"
parts=" ${PARTS:-final cost} "
if [[ "$parts" == *" final "* ]]; then
  OUT="$F" bash results/2026-12-05-h100-places/gpu_final.sh >"$F/final.out" 2>&1
  echo "final rc=$? at $SECONDS s"
else
  bash cmake/gpu-build.sh /tmp/addscope-gpu .device >"$F/build.log" 2>&1
  echo "build rc=$? at $SECONDS s"
fi
left=$((limit - SECONDS))
if [[ "$parts" == *" cost "* ]]; then
  if ((left > 150)); then
    OUT="$C" ROUNDS="${COST_ROUNDS:-3}" timeout "$left" bash .device/run.sh cost >"$C/cost.out" 2>&1
    echo "cost rc=$? at $SECONDS s"
  else
    echo "cost skipped: $left s left of $limit"
  fi
fi
# back: the check's summaries in one file, the reports read, the rest as a tar
for f in startup.txt waits_unit.txt syncs.txt torch_lines.txt; do
  [[ -f "$F/$f" ]] && { echo "==== $f"; cat "$F/$f"; }
done >"$OUT/check.txt"
cp "$F/seed_numba.report.txt" "$F/syncs_on.report.txt" "$OUT/" 2>/dev/null
cp /tmp/final-torch/torch_2.txt "$OUT/torch.report.txt" 2>/dev/null
cp "$C/cost_summary.txt" "$OUT/" 2>/dev/null
tar czf "$OUT/logs.tgz" -C /tmp all-final all-cost final-torch 2>/dev/null
cat "$OUT/check.txt" "$OUT/cost_summary.txt" 2>/dev/null
