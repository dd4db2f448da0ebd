#!/usr/bin/env bash
# Runs the bundled CUDA programs (see cuda-bundle.sh) on a GPU machine;
# logs go to $OUT (default ./logs). Steps: unit waits (alias tool) shapes cost
# demo probe readprobe bench bench-full bench-host sanitize mpi soak injection
# classes flavour:NAME.
# classes (issue 36): tests/cuda_programs/framework_syncs.py with PyTorch,
# CuPy and numba under bin/addscope-waits: each wait at a line marked
# `waits: explicit` or `waits: hidden` must have that class
# (check_classes.py).
# Exits non-zero if any step failed.
# cost: the waits tool's cost benchmark (waits_cost.sh: no tool / empty tool /
# waits tool / the kernel timer when bundled, ROUNDS=5 interleaved rounds,
# the CUPTI floor beside it) for each bundled Kokkos flavour, or only those
# named in COST_FLAVOURS ("kokkos-3.4 kokkos-4.x"; about 4-5 minutes each);
# the tables in cost_summary.txt, their CSV and logs in cost.tgz.
# injection (issue 24): CUDA programs without Kokkos under bin/addscope-waits
# (the tool through CUPTI's injection): the seed with numba and with CuPy, a
# PyTorch spin read by .item(), the plain CUDA C++ seed, the C++ seed's
# streams destroyed and made again at one address (seed_cuda_streams: each
# synchronize must wait for its own stream's kernel); each checked by
# cuda_programs/check_injection.py, each also run once without the tool.
# Then a Python program that touches no GPU ("nothing to report"), a
# Kokkos CUDA program started both ways (the tool runs once), the same
# program with the variables alone and under the launcher, with --load kokkos
# and with its default (both ways; the same report:
# cuda_programs/same_report.py; the two runs both ways within
# INJECTION_TIMEOUT, 60 s), and what the injection path costs the CUDA
# seed's back-to-back launches (--burst) beside what the Kokkos Tools path
# costs event_overhead's, each with sites on and off (INJECTION_COST_ROUNDS,
# INJECTION_COST_LAUNCHES; printed, not judged). Needs python3
# with numba-cuda, CuPy, PyTorch. INJECTION_CASES (default: seed_numba
# seed_cupy torch_sleep seed_cuda seed_cuda_streams) picks; INJECTION_CUPTI: the libcupti for
# the Python programs (else libcupti.so.<their CUDA major> is searched: the
# CUDA toolkits, the Python packages, ldconfig); INJECTION_MIN_WAIT /
# INJECTION_MAX_WAIT (0.4 / 1.2 s) bound the read's wait.
# flavour:NAME (a flavour bundled with ADDSCOPE_BUNDLE_FLAVOUR=DIR:NAME, e.g.
# the CUDA 13 build as cuda13): everything of that build, into $OUT/NAME/ —
# the layout of a results folder (results/<date>-h200-NAME/):
#   gpu.txt  info.txt (what was built)  unit.log (every unit test)
#   waits/   (tests/tools/waits_h200.sh on that flavour: every waits case
#            of tests/tools with device timestamps, two also without CUPTI,
#            the front-door unit tests, the tool's cost; waits_summary.txt,
#            waits_NAME.log, waits_checks.tgz)
#   demo.txt demo.json  (float, then double and int32 x 5)
#   bench_quick.txt/.json (--quick)  bench_2p28.txt/.json (float at 2^28:
#            the default range against the native CUDA references)
#   summary.txt (one line per part, rc of each)
# A flavour with a libpath file (a CUDA 12/13 build) runs with that folder
# (the machine's CUDA runtime and CUPTI) first on the library path.
# mpi (a bundle of an MPI build; 2 GPUs, e.g. nvidia-h200-x2): under
# `mpirun --allow-run-as-root -np 2` (one GPU per node-local rank, chosen by
# addscope::mpi): the demo's seed across ranks and its check, the waits tool
# with libaddscope_waits_mpi.so on the slow-collective program and its
# merged-report check, the bench's weak scaling for float at 2^28 with the
# 95% target. MPI_RANKS, MPI_DEMO_N, MPI_WAITS_EXPECT (device | host),
# MPI_WAITS_ARGS ("N|REPS"), MPI_BENCH_SIZE (2^28) override.
set -uo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
OUT="${OUT:-$PWD/logs}"; mkdir -p "$OUT"
export LD_LIBRARY_PATH="$HERE/lib:${LD_LIBRARY_PATH:-}"
# A bundle of a CUDA 12/13 build: that CUDA's runtime and CUPTI are the machine's.
[[ -f "$HERE/libpath" ]] && LD_LIBRARY_PATH="$HERE/lib:$(cat "$HERE/libpath"):${LD_LIBRARY_PATH#"$HERE/lib:"}"
export OMP_PROC_BIND=false OMP_NUM_THREADS="${OMP_NUM_THREADS:-8}"
B="$HERE/bin"
[[ $# -gt 0 ]] || set -- unit tool demo
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.mem --format=csv 2>&1 | tee "$OUT/gpu.txt"
status=0
# The steps that a flavour runs too: BIN (programs) and TO (logs) given.
unit_in() {  # unit_in BIN TO
  "$1/addscope-unit-tests" --gtest_brief=1 >"$2/unit.log" 2>&1; local rc=$?
  tail -3 "$2/unit.log"
  grep -E "^\[  (PASSED|FAILED) |tests? from .* ran|FAILED|Failure" "$2/unit.log" | head -40
  echo "unit rc=$rc"; return $rc
}
demo_in() {  # demo_in BIN TO
  local rc=0 ty
  "$1/addscope-demo" --json "$2/demo.json" >"$2/demo.txt" 2>&1 || rc=1
  for ty in double int32; do
    "$1/addscope-demo" --type $ty --repeat 5 >>"$2/demo.txt" 2>&1 || rc=1
  done
  cat "$2/demo.txt"; echo "demo rc=$rc"; return $rc
}
bench_quick_in() {  # bench_quick_in BIN TO
  [[ -x "$1/addscope-bench" ]] || { echo "no bench"; return 1; }
  "$1/addscope-bench" --quick --json "$2/bench_quick.json" >"$2/bench_quick.txt" 2>&1; local rc=$?
  echo "bench rc=$rc"; tail -40 "$2/bench_quick.txt"; return $rc
}
for step in "$@"; do
  echo "=== $step"
  case "$step" in
    unit)
      unit_in "$B" "$OUT" || status=1 ;;
    shapes)
      # the waits tool's checks alone (every case, launch shapes included),
      # no overhead runs: tests/tools/waits_h200.sh with WAITS_OVERHEAD=0
      flavours=("$HERE")
      for f in "$HERE"/*/flavour; do [[ -f "$f" ]] && flavours+=("$(dirname "$f")"); done
      WAITS_OVERHEAD=0 OUT="$OUT" bash "$HERE/waits_h200.sh" "$HERE" "${flavours[@]}"; rc=$?
      echo "shapes rc=$rc"; [[ $rc -eq 0 ]] || status=1 ;;
    tool|waits)
      # the waits tool: every case checked, its overhead, a summary table
      # (tests/tools/waits_h200.sh), for each bundled Kokkos flavour
      flavours=("$HERE")
      for f in "$HERE"/*/flavour; do [[ -f "$f" ]] && flavours+=("$(dirname "$f")"); done
      OUT="$OUT" bash "$HERE/waits_h200.sh" "$HERE" "${flavours[@]}"; rc=$?
      echo "waits rc=$rc"; [[ $rc -eq 0 ]] || status=1 ;;
    cost)
      flavours=("$HERE")
      for f in "$HERE"/*/flavour; do [[ -f "$f" ]] && flavours+=("$(dirname "$f")"); done
      kt=(); [[ -f "$HERE/lib/kp_kernel_timer.so" ]] && kt=(--kt-lib "$HERE/lib/kp_kernel_timer.so")
      : >"$OUT/cost_summary.txt"; rc=0; dirs=()
      for F in "${flavours[@]}"; do
        name=kokkos-3.4; [[ -f "$F/flavour" ]] && name="$(cat "$F/flavour")"
        if [[ -n "${COST_FLAVOURS:-}" && " $COST_FLAVOURS " != *" $name "* ]]; then continue; fi
        t0=$SECONDS
        OUT="$OUT/cost_$name" bash "$HERE/waits_cost.sh" "$F" "${kt[@]}" 2>&1 | grep -v "^  round" || rc=1
        echo "($name: $((SECONDS - t0)) s)"
        { echo "== $name"; cat "$OUT/cost_$name/waits_cost.txt" 2>/dev/null || echo "FAILED: no table"; echo; } >>"$OUT/cost_summary.txt"
        [[ -d "$OUT/cost_$name" ]] && dirs+=("cost_$name")
      done
      [[ ${#dirs[@]} -gt 0 ]] && tar -C "$OUT" -czf "$OUT/cost.tgz" "${dirs[@]}" && rm -rf "${dirs[@]/#/$OUT/}"
      echo "cost rc=$rc"; [[ $rc -eq 0 ]] || status=1 ;;
    demo)
      demo_in "$B" "$OUT" || status=1 ;;
    probe)
      "$B/addscope-range-probe" 0 24 28 >"$OUT/range_probe.txt" 2>&1; rc=$?
      cat "$OUT/range_probe.txt"; echo "probe rc=$rc"; [[ $rc -eq 0 ]] || status=1 ;;
    readprobe)
      # The fenced read of out[2] after a long kernel, part by part, read by
      # read; with 8 OpenMP threads (as the demo step) and with 1.
      for t in 8 1; do
        OMP_NUM_THREADS=$t "$B/addscope-read-probe" 10000000 5 2 >>"$OUT/read_probe.txt" 2>&1 || status=1
      done
      cat "$OUT/read_probe.txt"
      k=0
      for ty in float float double; do
        k=$((k + 1))
        "$B/addscope-demo" --type $ty --configs range --repeat 3 --json "$OUT/read_demo_$k.json" \
          >"$OUT/read_demo_$k.txt" 2>&1 || status=1
        grep -E "read out|naive|Conclusion|median of" "$OUT/read_demo_$k.txt" >>"$OUT/read_demo.txt"
      done
      cat "$OUT/read_demo.txt" ;;
    bench)
      bench_quick_in "$B" "$OUT" || status=1 ;;
    flavour:*)
      # Everything of one bundled flavour, into $OUT/NAME (see the top).
      name="${step#flavour:}" F="$HERE/${step#flavour:}"
      if [[ -z "$name" || "$name" == */* || ! -f "$F/flavour" ]]; then
        have="$(for f in "$HERE"/*/flavour; do [[ -f "$f" ]] && basename "$(dirname "$f")"; done | tr '\n' ' ' | sed 's/ $//')"
        echo "no flavour '$name' in this bundle (have: ${have:-none}; ADDSCOPE_BUNDLE_FLAVOUR=DIR:NAME in cuda-bundle.sh)"
        echo "$step rc=2"; status=1; continue
      fi
      FO="$OUT/$name"; mkdir -p "$FO"
      cp "$OUT/gpu.txt" "$FO/" 2>/dev/null; cp "$F/info.txt" "$FO/" 2>/dev/null; cat "$F/info.txt" 2>/dev/null
      (
        lp="$F/lib:"; [[ -f "$F/libpath" ]] && lp+="$(cat "$F/libpath"):"
        export LD_LIBRARY_PATH="$lp$LD_LIBRARY_PATH"
        frc=0 parts=()
        part() { local what="$1" rc; shift; "$@"; rc=$?; parts+=("$name $what rc=$rc"); [[ $rc -eq 0 ]] || frc=1; }
        echo "--- $name: unit"; part unit unit_in "$F/bin" "$FO"
        echo "--- $name: waits"; part waits env OUT="$FO/waits" bash "$HERE/waits_h200.sh" "$HERE" "$F"
        echo "--- $name: demo"; part demo demo_in "$F/bin" "$FO"
        echo "--- $name: bench"; part bench-quick bench_quick_in "$F/bin" "$FO"
        bench_2p28() {
          [[ -x "$F/bin/addscope-bench" ]] || { echo "no bench"; return 1; }
          "$F/bin/addscope-bench" --types float --sizes 2^28 ${FLAVOUR_BENCH_ARGS:-} --json "$FO/bench_2p28.json" \
            >"$FO/bench_2p28.txt" 2>&1; local rc=$?
          echo "bench 2^28 rc=$rc"; grep -A200 "== advice" "$FO/bench_2p28.txt" | head -40; return $rc
        }
        part bench-2^28 bench_2p28
        printf '%s\n' "${parts[@]}" | tee "$FO/summary.txt"
        exit $frc
      ); rc=$?
      echo "$step rc=$rc"; [[ $rc -eq 0 ]] || status=1 ;;
    bench-full)
      [[ -x "$B/addscope-bench" ]] || { echo "no bench"; continue; }
      # GPU machines may lack gnuplot: let the bench write the plot data and
      # script (plots.gp) through a stand-in, pack them, and render them on
      # a machine with gnuplot (cd plots && gnuplot plots.gp).
      shim="$(mktemp -d)"; printf '#!/bin/sh\nexit 0\n' >"$shim/gnuplot"; chmod +x "$shim/gnuplot"
      command -v gnuplot >/dev/null || export PATH="$PATH:$shim"
      plots="$(mktemp -d)/plots"
      "$B/addscope-bench" ${BENCH_ARGS:-} --json "$OUT/bench.json" --csv "$OUT/bench.csv" \
        --plot "$plots" >"$OUT/bench.txt" 2>"$OUT/bench.err"; rc=$?
      echo "bench rc=$rc"; [[ $rc -eq 0 ]] || { status=1; tail -5 "$OUT/bench.err"; }
      tar -C "$(dirname "$plots")" -czf "$OUT/plots.tgz" plots
      head -3 "$OUT/bench.txt"; grep -A200 "== advice" "$OUT/bench.txt" | head -80 ;;
    bench-host)
      # The OpenMP build's bench on this machine's host cores (one thread
      # per core, spread), the same outputs as bench-full.
      [[ -x "$B/addscope-bench-openmp" ]] || { echo "no OpenMP bench in the bundle"; status=1; continue; }
      shim="$(mktemp -d)"; printf '#!/bin/sh\nexit 0\n' >"$shim/gnuplot"; chmod +x "$shim/gnuplot"
      command -v gnuplot >/dev/null || export PATH="$PATH:$shim"
      plots="$(mktemp -d)/plots-host"
      cores="$(nproc --all)"  # (plain nproc reports OMP_NUM_THREADS)
      lscpu >"$OUT/host_lscpu.txt" 2>&1 || true
      LD_LIBRARY_PATH="$HERE/lib-openmp:$LD_LIBRARY_PATH" OMP_NUM_THREADS="${HOST_THREADS:-$cores}" \
        OMP_PROC_BIND=spread OMP_PLACES=cores \
        "$B/addscope-bench-openmp" ${HOST_BENCH_ARGS:-} --json "$OUT/bench_host.json" \
        --csv "$OUT/bench_host.csv" --plot "$plots" >"$OUT/bench_host.txt" 2>"$OUT/bench_host.err"; rc=$?
      echo "bench-host rc=$rc (OMP_NUM_THREADS=${HOST_THREADS:-$cores})"; [[ $rc -eq 0 ]] || { status=1; tail -5 "$OUT/bench_host.err"; }
      tar -C "$(dirname "$plots")" -czf "$OUT/plots_host.tgz" plots-host
      head -4 "$OUT/bench_host.txt"; grep -A200 "== advice" "$OUT/bench_host.txt" | head -60 ;;
    sanitize)
      for tool in memcheck racecheck; do
        compute-sanitizer --tool $tool --print-limit 20 "$B/addscope-unit-tests" \
          --gtest_brief=1 --gtest_filter="${SAN_FILTER:-*Cuda*}" >"$OUT/sanitize_$tool.log" 2>&1; rc=$?
        echo "$tool rc=$rc"; [[ $rc -eq 0 ]] || status=1
        grep -E "ERROR SUMMARY|PASSED|FAILED" "$OUT/sanitize_$tool.log" | tail -5
      done ;;
    mpi)
      [[ -f "$HERE/lib/libaddscope_waits_mpi.so" ]] || { echo "no MPI pieces in the bundle"; echo "mpi rc=1"; status=1; continue; }
      command -v mpirun >/dev/null || { echo "no mpirun"; echo "mpi rc=1"; status=1; continue; }
      # This machine's libmpi.so.40 (Open MPI 4.x: the ABI the programs were
      # linked against), beside mpirun when not on the loader's path.
      mpilib="$(dirname "$(dirname "$(command -v mpirun)")")/lib"
      ldconfig -p 2>/dev/null | grep -q 'libmpi\.so\.40' || export LD_LIBRARY_PATH="$LD_LIBRARY_PATH:$mpilib"
      mpirun --version 2>&1 | head -1 | tee "$OUT/mpi_version.txt"
      ranks="${MPI_RANKS:-2}" rc=0
      # (containers often forbid the shared-memory single copy: plain copies)
      export OMPI_MCA_btl_vader_single_copy_mechanism=none
      M="mpirun|--allow-run-as-root|--oversubscribe|-x|LD_LIBRARY_PATH|-x|OMP_NUM_THREADS|-x|OMP_PROC_BIND"
      kv="$("$B/addscope-demo" --version | sed -n 's/.*(Kokkos \([0-9.]*\).*/\1/p')"
      # 1. The demo: the seed across ranks (the last rank's 1x1 kernel), its
      #    findings recomputed from its JSON.
      t0=$SECONDS
      cmake -DMPIEXEC="$M" -DNP_FLAG=-np -DRANKS="$ranks" -DN="${MPI_DEMO_N:-10000000}" -DSLOW=$((ranks - 1)) \
        -DDEMO="$B/addscope-demo" -DJSON="$OUT/demo_mpi.json" -DKOKKOS_VERSION="$kv" \
        -P "$HERE/checks/demo/check_demo_mpi.cmake" >"$OUT/demo_mpi.txt" 2>&1 || rc=1
      echo "-- demo across $ranks ranks: $([[ $rc -eq 0 ]] && echo checked || echo FAILED) ($((SECONDS - t0)) s)"
      grep -v '^$' "$OUT/demo_mpi.txt" | head -60
      # 2. The waits tool + libaddscope_waits_mpi.so on a plain Kokkos + MPI
      #    program whose last rank is slow before MPI_Allreduce.
      t0=$SECONDS r2=0
      cmake -DMPIEXEC="$M" -DNP_FLAG=-np -DPROGRAM="$B/addscope-test-waits-slow-collective" \
        -DTOOL="$HERE/lib/libaddscope_waits.so" -DTOOL_MPI="$HERE/lib/libaddscope_waits_mpi.so" \
        -DOUT="$OUT/waits_mpi" -DEXPECT="${MPI_WAITS_EXPECT:-device}" -DARGS="${MPI_WAITS_ARGS:-10000000|1}" \
        -P "$HERE/checks/mpi/check_waits_mpi.cmake" >"$OUT/waits_mpi.txt" 2>&1 || r2=1
      echo "-- waits tool across 2 ranks: $([[ $r2 -eq 0 ]] && echo checked || echo FAILED) ($((SECONDS - t0)) s)"
      grep -v '^$' "$OUT/waits_mpi.txt" | grep -v "^  *[0-9]* x " | head -60
      [[ $r2 -eq 0 ]] || rc=1
      # 3. The bench: weak scaling, float at 2^28 per rank, target 95%.
      t0=$SECONDS r3=0
      cmake -DMPIEXEC="$M" -DNP_FLAG=-np -DRANKS="$ranks" -DBENCH="$B/addscope-bench" \
        -DJSON="$OUT/bench_mpi.json" -DCSV="$OUT/bench_mpi.csv" -DSIZES="${MPI_BENCH_SIZE:-2^28}" -DMIN_EFFICIENCY=0.95 \
        -P "$HERE/checks/bench/check_bench_mpi.cmake" >"$OUT/bench_mpi.txt" 2>&1 || r3=1
      echo "-- bench across $ranks ranks: $([[ $r3 -eq 0 ]] && echo checked || echo FAILED) ($((SECONDS - t0)) s)"
      grep -v '^$' "$OUT/bench_mpi.txt" | grep -v "WARNING\|OMP_PROC_BIND\|For best\|For unit\|In general" | tail -25
      [[ $r3 -eq 0 ]] || rc=1
      echo "mpi rc=$rc"; [[ $rc -eq 0 ]] || status=1 ;;
    soak)
      # The waits tool over a long run (tests/tools/soak.cpp: a region open,
      # small kernels, a deep_copy every tenth), for each bundled Kokkos
      # flavour, without and with libaddscope_waits.so (CUPTI records on).
      # Fails if the tool's peak RSS exceeds the program's own by more than
      # SOAK_MAX_EXTRA_KIB (64 MiB) or the tool run's mean time per kernel
      # in the last tenth exceeds the first tenth's by more than
      # SOAK_MAX_SLOWDOWN (1.10). SOAK_KERNELS (10^7) for the first flavour,
      # SOAK_KERNELS_FLAVOUR (4 x 10^6, to stay near 3 minutes in all) for
      # the others; each run is cut at SOAK_TIMEOUT (200 s).
      flavours=("$HERE")
      for f in "$HERE"/*/flavour; do [[ -f "$f" ]] && flavours+=("$(dirname "$f")"); done
      max_kib="${SOAK_MAX_EXTRA_KIB:-65536}" max_ratio="${SOAK_MAX_SLOWDOWN:-1.10}"
      first=1
      for F in "${flavours[@]}"; do
        name=kokkos3; [[ -f "$F/flavour" ]] && name="$(cat "$F/flavour")"
        n="${SOAK_KERNELS:-10000000}"; [[ $first -eq 1 ]] || n="${SOAK_KERNELS_FLAVOUR:-4000000}"
        first=0
        prog="$F/bin/addscope-test-soak"
        [[ -x "$prog" ]] || { echo "soak $name: no addscope-test-soak in the bundle"; status=1; continue; }
        declare -A line=()
        for mode in plain waits; do
          env_=(); [[ $mode == waits ]] && env_=(KOKKOS_PROFILE_LIBRARY="$HERE/lib/libaddscope_waits.so" KOKKOS_TOOLS_LIBS="$HERE/lib/libaddscope_waits.so")
          t0=$EPOCHREALTIME
          env "${env_[@]}" timeout "${SOAK_TIMEOUT:-200}" "$prog" "$n" 10 1000 >"$OUT/soak_${name}_$mode.log" 2>&1; rc=$?
          printf 'soak %s %s: %s kernels in %.1f s, rc=%s\n' "$name" "$mode" "$n" "$(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { print b - a }')" "$rc"
          [[ $rc -eq 0 ]] || status=1
          line[$mode]="$(grep -m1 '^soak: ' "$OUT/soak_${name}_$mode.log")"
          echo "  ${line[$mode]}"
        done
        [[ -n "${line[plain]}" && -n "${line[waits]}" ]] || { echo "soak $name: FAIL (no soak line)"; status=1; continue; }
        grep -E "limits:|kernels, .* host calls" "$OUT/soak_${name}_waits.log" | head -3 | sed 's/^/  tool: /'
        # fields: first-tenth ns, last-tenth ns, fastest chunks, peak RSS at the end
        f() { sed -n "s/.*first tenth \([0-9.]*\) ns\/kernel (fastest chunk \([0-9.]*\)), last tenth \([0-9.]*\) ns\/kernel (fastest chunk \([0-9.]*\)).*at the end \([0-9]*\) KiB; RSS.*/\1 \2 \3 \4 \5/p"; }
        read -r p1 pf1 p9 pf9 prss <<<"$(f <<<"${line[plain]}")"
        read -r w1 wf1 w9 wf9 wrss <<<"$(f <<<"${line[waits]}")"
        awk -v name="$name" -v n="$n" -v p1="$p1" -v p9="$p9" -v prss="$prss" -v w1="$w1" -v w9="$w9" \
            -v wf1="$wf1" -v wf9="$wf9" -v wrss="$wrss" -v maxk="$max_kib" -v maxr="$max_ratio" 'BEGIN {
          extra = wrss - prss; r = w9 / w1; ok = (extra <= maxk && r <= maxr)
          printf "SOAK %s %d kernels: peak RSS without %.1f MiB, with the tool %.1f MiB (extra %.1f MiB, limit %.1f)%s\n", name, n, prss/1024, wrss/1024, extra/1024, maxk/1024, extra <= maxk ? "" : "  FAIL: memory"
          printf "SOAK %s per kernel, first/last tenth: with the tool %.0f/%.0f ns (x%.3f, limit x%.2f; fastest chunks %.0f/%.0f), without %.0f/%.0f ns (x%.3f)%s\n", name, w1, w9, r, maxr, wf1, wf9, p1, p9, p9/p1, r <= maxr ? "" : "  FAIL: slowdown"
          printf "SOAK %s %s\n", name, ok ? "PASS" : "FAIL"
          exit ok ? 0 : 1 }' || status=1
      done ;;
    classes)
      # Who asked for each synchronization (issue 36): framework_syncs.py's
      # lines that say how they wait (PyTorch, CuPy, CuPy from four threads,
      # numba; or those in CLASSES_FRAMEWORKS) under bin/addscope-waits,
      # checked by cuda_programs/check_classes.py.
      W="$B/addscope-waits" C="$HERE/cuda_programs" D="$OUT/classes" rc=0
      mkdir -p "$D"
      for fw in ${CLASSES_FRAMEWORKS:-torch cupy cupy_threads numba}; do
        "$W" --json "$D/$fw.json" -- python3 "$C/framework_syncs.py" "$fw" \
          >"$D/$fw.out" 2>"$D/$fw.err"; wrc=$?
        echo "-- classes $fw: exit $wrc; $(grep -h '^framework_syncs:' "$D/$fw.out")"
        python3 "$C/check_classes.py" "$C/framework_syncs.py" "$D/$fw.json" \
          >"$D/$fw.check" 2>&1 || rc=1
        [[ $wrc -eq 0 ]] || rc=1
        cat "$D/$fw.check"
      done
      echo "classes rc=$rc"; [[ $rc -eq 0 ]] || status=1 ;;
    injection)
      W="$B/addscope-waits" C="$HERE/cuda_programs" D="$OUT/injection" rc=0
      mkdir -p "$D"
      [[ -x "$W" && -f "$C/check_injection.py" ]] || { echo "no addscope-waits or cuda_programs in the bundle"; echo "injection rc=1"; status=1; continue; }
      python3 --version 2>&1 | tee "$D/python.txt"
      drv_major="$(nvidia-smi 2>/dev/null | sed -n 's/.*CUDA Version: *\([0-9]*\).*/\1/p' | head -1)"
      # libcupti.so.MAJOR*: the toolkits, the Python packages, the loader.
      find_cupti() {
        local m="$1" d f
        [[ -n "$m" ]] || return 0
        for d in /usr/local/cuda-"$m"*/extras/CUPTI/lib64 /usr/local/cuda/extras/CUPTI/lib64 \
                 /usr/local/cuda/lib64 /usr/local/cuda/targets/x86_64-linux/lib \
                 $(python3 -c 'import site; print(" ".join(site.getsitepackages()))' 2>/dev/null); do
          [[ -d "$d" ]] || continue
          f="$(find "$d" -maxdepth 5 -name "libcupti.so.$m*" 2>/dev/null | sort | head -1)"
          [[ -n "$f" ]] && { echo "$f"; return 0; }
        done
        ldconfig -p 2>/dev/null | sed -n "s/.*libcupti\.so\.$m[^ ]* .*=> \(.*\)/\1/p" | head -1
      }
      np_fix='import numpy as np; np.row_stack = getattr(np, "row_stack", np.vstack)'
      for c in ${INJECTION_CASES:-seed_numba seed_cupy torch_sleep seed_cuda seed_cuda_streams}; do
        lib="${INJECTION_CUPTI:-}"
        case "$c" in
          seed_numba) probe="$np_fix; import numba.cuda"; major="$drv_major"; prog=(python3 "$C/seed_numba.py") ;;
          seed_cupy) probe="import cupy"; prog=(python3 "$C/seed_cupy.py")
            major="$(python3 -c 'import cupy; print(cupy.cuda.runtime.runtimeGetVersion() // 1000)' 2>/dev/null)" ;;
          torch_sleep) probe="import torch; assert torch.cuda.is_available()"; prog=(python3 "$C/torch_sleep.py")
            major="$(python3 -c 'import torch; print(torch.version.cuda.split(".")[0])' 2>/dev/null)" ;;
          seed_cuda|seed_cuda_streams) probe=""; prog=("$B/addscope-test-seed-cuda")
            [[ $c == seed_cuda_streams ]] && prog+=(--streams 6)
            # built by the bundle's nvcc: its CUPTI (Debian's 11.8 in lib/,
            # or a CUDA 12/13 bundle's: the machine's of that major)
            lib="${INJECTION_CUPTI_SEED_CUDA:-}"
            if [[ -z "$lib" && -f "$HERE/libpath" ]]; then
              major="$(sed -n 's/^cuda\([0-9]*\).*/\1/p' "$HERE/flavour" 2>/dev/null)"
            elif [[ -z "$lib" ]]; then
              lib="$HERE/lib/libcupti.so.11.8"
            fi ;;
          *) echo "-- $c: unknown case (allowed: seed_numba seed_cupy torch_sleep seed_cuda seed_cuda_streams)"; rc=1; continue ;;
        esac
        if [[ -n "$probe" ]] && ! python3 -c "$probe" >"$D/$c.import.txt" 2>&1; then
          echo "-- $c: FAIL (python3 cannot: $probe)"; tail -2 "$D/$c.import.txt"; rc=1; continue
        fi
        [[ -x "${prog[0]}" || "${prog[0]}" == python3 ]] || { echo "-- $c: FAIL (no ${prog[0]})"; rc=1; continue; }
        [[ -n "$lib" ]] || lib="$(find_cupti "${major:-$drv_major}")"
        cl=(); [[ -n "$lib" ]] && cl=(--cupti-lib "$lib")
        "${prog[@]}" >"$D/$c.plain.out" 2>"$D/$c.plain.err"; prc=$?
        "$W" -v "${cl[@]}" --json "$D/$c.json" --trace "$D/$c.trace.json" -- "${prog[@]}" \
          >"$D/$c.out" 2>"$D/$c.err"; wrc=$?
        echo "-- $c (CUPTI: ${lib:-as the tool finds it}): exit $prc without the tool, $wrc with it"
        grep -h "^${c%_streams}:\|^torch_sleep:" "$D/$c.plain.out" | head -1 | sed 's/^/   without the tool: /'
        grep -h "^${c%_streams}:\|^torch_sleep:" "$D/$c.out" | head -1 | sed 's/^/   with the tool:    /'
        python3 "$C/check_injection.py" "$c" "$D/$c.json" "$D/$c.err" "$D/$c.out" \
          --min-wait "${INJECTION_MIN_WAIT:-0.4}" --max-wait "${INJECTION_MAX_WAIT:-1.2}" >"$D/$c.check" 2>&1; crc=$?
        cat "$D/$c.check"
        [[ $prc -eq 0 && $wrc -eq 0 && $crc -eq 0 ]] || { rc=1; echo "   (report: $D/$c.err)"; grep -v "^ *[0-9]* x " "$D/$c.err" | head -30 | sed 's/^/   | /'; }
      done
      # A program that never touches the GPU: the launcher's last line.
      never="addscope-waits: the program loaded no Kokkos Tools library and made no CUDA call: nothing to report"
      "$W" -- python3 -c 'print("no GPU here")' >"$D/no_gpu.out" 2>"$D/no_gpu.err"; r=$?
      last="$(tail -1 "$D/no_gpu.err")"
      if [[ $r -eq 0 && "$last" == "$never" ]]; then echo "SUMMARY no_gpu       last line: $last  PASS"
      else echo "SUMMARY no_gpu       exit $r, last line '$last'  FAIL"; rc=1; fi
      # A Kokkos CUDA program started both ways (Kokkos Tools and CUDA
      # injection): the tool loads once, one report.
      if [[ -x "$B/addscope-test-slow-read" ]]; then
        timeout "${INJECTION_TIMEOUT:-60}" "$W" -v --json "$D/both.json" -- "$B/addscope-test-slow-read" >"$D/both.out" 2>"$D/both.err"; r=$?
        loaded="$(grep -c 'addscope waits: loaded into PID' "$D/both.err")"
        reports="$(grep -c '^  kernels by ' "$D/both.err")"
        started="$(grep -c 'addscope-waits: the tool started in 1 process:' "$D/both.err")"
        if [[ $r -eq 0 && $loaded -eq 1 && $reports -eq 1 && $started -eq 1 && -s "$D/both.json" ]]; then
          echo "SUMMARY both_ways    Kokkos + CUDA injection: loaded once, one report  PASS"
        else
          echo "SUMMARY both_ways    exit $r, 'loaded into' x$loaded, reports x$reports, started line x$started  FAIL"; rc=1
          grep -v "^ *[0-9]* x " "$D/both.err" | head -20 | sed 's/^/   | /'
        fi
      else
        echo "SUMMARY both_ways    no addscope-test-slow-read in the bundle  FAIL"; rc=1
      fi
      # The same Kokkos program with the variables alone and under the
      # launcher (Kokkos Tools only): the same report (issue 24).
      if [[ -x "$B/addscope-test-slow-read" && -f "$C/same_report.py" ]]; then
        tl="$HERE/lib/libaddscope_waits.so"
        env KOKKOS_PROFILE_LIBRARY="$tl" KOKKOS_TOOLS_LIBS="$tl" ADDSCOPE_WAITS_JSON="$D/vars.json" \
          "$B/addscope-test-slow-read" >"$D/vars.out" 2>"$D/vars.err"; r1=$?
        "$W" --load kokkos --json "$D/launcher.json" -- "$B/addscope-test-slow-read" \
          >"$D/launcher.out" 2>"$D/launcher.err"; r2=$?
        python3 "$C/same_report.py" "$D/vars.json" "$D/launcher.json" >"$D/same_report.check" 2>&1; r3=$?
        cat "$D/same_report.check"
        [[ $r1 -eq 0 && $r2 -eq 0 ]] || echo "SUMMARY same_report  exit $r1 with the variables, $r2 under the launcher  FAIL" | tee -a "$D/same_report.check"
        [[ $r1 -eq 0 && $r2 -eq 0 && $r3 -eq 0 ]] || rc=1
        # ... and under the launcher's default (both ways: on Kokkos 3.x CUDA
        # injection comes first, the front door differs), bounded in time
        # (a Kokkos 3.4 program hung there with the tool of 71f5fc9, which
        # asked the CUDA runtime its version inside cuInit; docs/waits-tool.md).
        timeout "${INJECTION_TIMEOUT:-60}" "$W" --json "$D/launcher_default.json" -- "$B/addscope-test-slow-read" \
          >"$D/launcher_default.out" 2>"$D/launcher_default.err"; r2=$?
        python3 "$C/same_report.py" "$D/vars.json" "$D/launcher_default.json" --any-front-door \
          --label same_report_default >"$D/same_report_default.check" 2>&1; r3=$?
        cat "$D/same_report_default.check"
        [[ $r2 -eq 0 ]] || echo "SUMMARY same_report_default  exit $r2 under the launcher's default (124: timed out)  FAIL" | tee -a "$D/same_report_default.check"
        [[ $r2 -eq 0 && $r3 -eq 0 ]] || rc=1
      fi
      # What the injection path costs a CUDA program's back-to-back launches,
      # beside what the Kokkos Tools path costs a Kokkos program's (issue 24):
      # medians of INJECTION_COST_ROUNDS (5) interleaved rounds, 50,000
      # launches; printed, not judged.
      if [[ -x "$B/addscope-test-seed-cuda" && -x "$B/addscope-test-event-overhead" ]]; then
        n="${INJECTION_COST_LAUNCHES:-50000}" tl="$HERE/lib/libaddscope_waits.so"
        cv=(); cvt=(); cvs=(); kv=(); kvt=(); kvs=()
        for r in $(seq "${INJECTION_COST_ROUNDS:-5}"); do
          cv+=("$("$B/addscope-test-seed-cuda" --burst "$n" 2>>"$D/cost.err" | sed -n 's/.*launches, \([0-9.]*\) us per launch.*/\1/p')")
          cvt+=("$("$W" --load cuda -o "$D/cost_report.txt" -- "$B/addscope-test-seed-cuda" --burst "$n" 2>>"$D/cost.err" | sed -n 's/.*launches, \([0-9.]*\) us per launch.*/\1/p')")
          kv+=("$(env -u KOKKOS_TOOLS_LIBS -u KOKKOS_PROFILE_LIBRARY "$B/addscope-test-event-overhead" 10 "$n" 2>>"$D/cost.err" | awk '$1 == "cost:" && $2 == "burst_launch" { print $3 }')")
          kvt+=("$(env KOKKOS_PROFILE_LIBRARY="$tl" KOKKOS_TOOLS_LIBS="$tl" "$B/addscope-test-event-overhead" 10 "$n" 2>>"$D/cost.err" | awk '$1 == "cost:" && $2 == "burst_launch" { print $3 }')")
          # The same two with no stack taken, no symbol looked up (sites off).
          cvs+=("$("$W" --load cuda --sites off -o "$D/cost_report.txt" -- "$B/addscope-test-seed-cuda" --burst "$n" 2>>"$D/cost.err" | sed -n 's/.*launches, \([0-9.]*\) us per launch.*/\1/p')")
          kvs+=("$(env KOKKOS_PROFILE_LIBRARY="$tl" KOKKOS_TOOLS_LIBS="$tl" ADDSCOPE_WAITS_SITES=off "$B/addscope-test-event-overhead" 10 "$n" 2>>"$D/cost.err" | awk '$1 == "cost:" && $2 == "burst_launch" { print $3 }')")
        done
        med() { printf '%s\n' "$@" | grep -v '^$' | sort -g | awk '{ a[NR] = $1 } END { if (NR) printf "%.3f", (NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2) }'; }
        a="$(med "${cv[@]}")" b="$(med "${cvt[@]}")" c="$(med "${kv[@]}")" d="$(med "${kvt[@]}")"
        e="$(med "${cvs[@]}")" f="$(med "${kvs[@]}")"
        if [[ -n "$a" && -n "$b" && -n "$c" && -n "$d" && -n "$e" && -n "$f" ]]; then
          awk -v a="$a" -v b="$b" -v c="$c" -v d="$d" -v e="$e" -v f="$f" -v n="$n" 'BEGIN {
            printf "SUMMARY injection_cost back-to-back launches (%d): CUDA program %.3f us per launch, %.3f under CUDA injection (%+.3f), %.3f with sites off (%+.3f); Kokkos program %.3f, %.3f through Kokkos Tools (%+.3f), %.3f with sites off (%+.3f)\n", n, a, b, b - a, e, e - a, c, d, d - c, f, f - c }' | tee "$D/injection_cost.check"
        else
          echo "SUMMARY injection_cost  a run printed no time ('$a' '$b' '$c' '$d' '$e' '$f'; $D/cost.err)  FAIL" | tee "$D/injection_cost.check"; rc=1
        fi
      fi
      grep -h "^SUMMARY" "$D"/*.check 2>/dev/null >"$OUT/injection_summary.txt"
      echo "injection rc=$rc"; [[ $rc -eq 0 ]] || status=1 ;;
    *) echo "unknown step $step"; status=2 ;;
  esac
done
exit $status
