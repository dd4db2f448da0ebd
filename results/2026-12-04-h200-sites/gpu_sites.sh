#!/usr/bin/env bash
# The H200 check of the program's own lines (issue 36, sites), in one call:
# the core's check (../2026-12-04-h200-core/gpu_core.sh: build against the
# carried Kokkos 4.6.99 + Kokkos Kernels 4.7.99 for CUDA 13, every waits
# case, the CUDA programs without Kokkos under the launcher), then the
# reports to read: the Kokkos seed (tests/tools/slow_read.cpp, built with
# -g, under the launcher), the CUDA C++ seed (-g) and numba's seed.
#   OUT=DIR [STEPS="shapes injection"] bash results/2026-12-04-h200-sites/gpu_sites.sh
set -uo pipefail
OUT="${OUT:?OUT: the folder the logs go to}"
bash "$(dirname "$0")/../2026-12-04-h200-core/gpu_core.sh"
rc=$?
for c in both seed_cuda seed_numba; do
  cp "/tmp/addscope-run/injection/$c.err" "$OUT/$c.report.txt" 2>/dev/null
done
exit $rc
