#!/usr/bin/env python3
"""Checks what the waits tool said of a CUDA program without Kokkos, loaded
through CUPTI's injection by addscope-waits (cmake/cuda-run.sh step
`injection`), from its JSON (docs/waits-report.md), its text report and the
program's own output:

  check_injection.py CASE JSON ERR OUT [--min-wait S] [--max-wait S]
  check_injection.py --self-test

CASE: seed_numba | seed_cupy | seed_cuda | torch_sleep | seed_cuda_streams.
ERR: the run's stderr (the report, the launcher's lines); OUT: the program's
stdout.

seed_cuda_streams (addscope-test-seed-cuda --streams ROUNDS): each round a
new stream (often at a destroyed one's address), a 1 x 1 add on it, then
cudaStreamSynchronize on it. Every round's synchronize must be reported as
an explicit wait of at least 80% (and at most 102%) of what the program
timed, for the add: a tool that took a new stream for the destroyed one at
its address would see the synchronize wait for a stream with nothing on it.
Whether handles were reused is printed (a note: without reuse the run
proves less).

For each case, the longest wait of the run:
  * is in the program's read (the call CASE names: cuMemcpyDtoH* for numba,
    cudaMemcpy* for CuPy and C++, the copy or the stream synchronization of
    .item() for PyTorch), outside any Kokkos call (kind "runtime");
  * lasted MIN..MAX seconds (default 0.4..1.2: the kernels take 0.5-0.8 s
    on the H200), at least 80% of the kernel's device time, and at most
    the read the program timed itself (and at least 80% of it);
  * waited for the case's kernel, launched as 1 x 1 and flagged starved;
  * where the tool names lines (its JSON has `code`, `launched_at`): is at
    the program's line of the read (SITES) and its kernel at the line of
    its first launch (LAUNCH_SITES);
and the run: device mode (CUPTI records), the report saying it saw a CUDA
program without Kokkos, every launch with its device record, the starved
list naming the kernel as 1 x 1, no "nothing to report" line.
Prints one line per failed check and a SUMMARY line; exits 0 if all
passed, 1 if one failed, 2 on a usage error.
"""
import copy
import json
import os
import re
import sys

# How the report says it saw a CUDA program without Kokkos (the owner's
# wording; change here if it differs): a JSON field and words of the text.
FRONT_DOOR_FIELD = "front_door"
FRONT_DOOR_VALUE = "cuda-injection"
REPORT_WORDS = "any CUDA program (CUDA_INJECTION64_PATH)"
NEVER_STARTED = "nothing to report"

CASES = {
    # read call (regex on the wait's `what`), kernel (regex on its name),
    # wait classes accepted
    "seed_numba": (r"^cuMemcpyDtoH(Async)?\b", r"\badd\b", {"hidden"}),
    "seed_cupy": (r"^(cudaMemcpy(Async)?|cuMemcpyDtoH(Async)?)\b", r"\badd\b",
                  {"hidden"}),
    "seed_cuda": (r"^cudaMemcpy\b", r"\badd\b", {"hidden"}),
    # .item(): cudaMemcpyAsync into pageable memory (it blocks), then
    # cudaStreamSynchronize: whichever waited. Under CUDA's lazy module
    # loading (the default) the first x.sum() launch itself waits for the
    # spin (on the H200, without the tool: launch 460.1 ms, item 1.9 ms;
    # CUDA_MODULE_LOADING=EAGER: launch 6.0 ms, item 448.7 ms).
    "seed_cuda_streams": (r"^cudaStreamSynchronize\b", r"\badd\b",
                          {"explicit"}),
    "torch_sleep": (r"^(cudaMemcpy(Async)?|cudaStreamSynchronize|"
                    r"cuMemcpyDtoH(Async)?|cuStreamSynchronize|"
                    r"cudaLaunchKernel|cuLaunchKernel)\b",
                    r"spin_kernel|sleep", {"hidden", "explicit"}),
}


HERE = os.path.dirname(os.path.abspath(__file__))


def line_of(program, text):
    """The line of the case's program (beside this script) that holds text:
    exactly one, so that an edit of the program moves the check with it."""
    with open(os.path.join(HERE, program), encoding="utf-8") as f:
        hits = [n for n, line in enumerate(f, 1) if text in line]
    if len(hits) != 1:
        raise SystemExit(f"check_injection.py: {program}: {text!r} is on "
                         f"lines {hits}; allowed: exactly one")
    return hits[0]


# Where the read is in the program's own code (the tool's `code` of the
# wait; C++ built with -g): file (regex) and line.
SITES = {
    "seed_cuda": (r"(^|/)seed_cuda\.cpp$",
                  line_of("seed_cuda.cpp", "cudaMemcpy(&v, out + 2")),
    "seed_numba": (r"(^|/)seed_numba\.py$",
                   line_of("seed_numba.py", "v = out[2]")),
    "seed_cupy": (r"(^|/)seed_cupy\.py$",
                  line_of("seed_cupy.py", "v = float(out[2])")),
    "torch_sleep": (r"(^|/)torch_sleep\.py$",
                    line_of("torch_sleep.py", "s = x.sum().item()")),
}
# Where the kernel waited for was first launched (its `launched_at` in
# kernels[]): the C++ seed and torch_sleep launch it once before the
# launch they time (to load its module), and the tool places a kernel by
# its first launch on a thread.
LAUNCH_SITES = {
    "seed_cuda": (r"(^|/)seed_cuda\.cpp$",
                  line_of("seed_cuda.cpp", "the seed's first launch of add")),
    "seed_numba": (r"(^|/)seed_numba\.py$",
                   line_of("seed_numba.py", "add[1, 1](x, y, out)")),
    "seed_cupy": (r"(^|/)seed_cupy\.py$",
                  line_of("seed_cupy.py", "add((1,), (1,), (x, y, out,")),
    "torch_sleep": (r"(^|/)torch_sleep\.py$",
                    line_of("torch_sleep.py", "torch.cuda._sleep(1000)")),
}

# The launch the read waited for, where the tool places each launch
# (x86-64: record/addscope_LaunchPlaces.hpp; in Python at the program's
# Python line): the timed launch, not the first (which loads the module) —
# the C++ seed's, torch_sleep's third spin. Checked where the JSON says the
# tool placed launches (`launch_places`).
WAITED_LAUNCH_SITES = {
    "seed_cuda": (r"(^|/)seed_cuda\.cpp$",
                  line_of("seed_cuda.cpp", "1 block x 1 thread: the seed's "
                          "launch")),
    "torch_sleep": (r"(^|/)torch_sleep\.py$",
                    line_of("torch_sleep.py", "torch.cuda._sleep(cycles)")),
}


def read_ms(out):
    """The read time the program printed ('read of out[2] 735.0 ms',
    'x.sum().item() 500.3 ms'), in seconds; None if absent."""
    m = re.search(r"(?:read of out\[2\]|x\.sum\(\)\.item\(\)) ([0-9.]+) ms",
                  out)
    return float(m.group(1)) * 1e-3 if m else None


STREAM_ROUND = re.compile(
    r"^seed_cuda: stream round (\d+) handle (\S+) synchronize ([0-9.]+) ms",
    re.M)


def check_streams(j, err, out):
    """seed_cuda_streams: the failed checks (empty: all passed)."""
    fails = []
    read_re, kernel_re, classes = CASES["seed_cuda_streams"]
    rounds = [(int(r), h, float(ms) * 1e-3)
              for r, h, ms in STREAM_ROUND.findall(out)]
    if not rounds:
        return ["the program printed no stream round"]
    if j.get("mode") != "device":
        fails.append(f"mode {j.get('mode')!r}, not 'device'")
    if j.get(FRONT_DOOR_FIELD) != FRONT_DOOR_VALUE:
        fails.append(f"{FRONT_DOOR_FIELD} = {j.get(FRONT_DOOR_FIELD)!r}")
    if (j.get("totals") or {}).get("kernels_without_device_record") != 0:
        fails.append("launches without a device record")
    syncs = [w for w in j.get("waits") or []
             if re.search(read_re, w.get("what") or "")]
    # Each round's synchronize, matched to the closest unused wait.
    unused = sorted(syncs, key=lambda w: w.get("wait_s") or 0)
    for r, handle, s in sorted(rounds, key=lambda x: -x[2]):
        w = next((w for w in reversed(unused)
                  if 0.8 * s <= (w.get("wait_s") or 0) <= 1.02 * s + 1e-3),
                 None)
        if w is None:
            fails.append(f"round {r} (handle {handle}): no "
                         f"cudaStreamSynchronize waited 80..100% of its "
                         f"{s * 1e3:.1f} ms")
            continue
        unused.remove(w)
        first = (w.get("waited_for") or [{}])[0]
        if w.get("class") not in classes:
            fails.append(f"round {r}: its wait is {w.get('class')!r}, not "
                         f"{sorted(classes)}")
        if w.get("wait_is_bound") is not False:
            fails.append(f"round {r}: its wait is a bound, not measured")
        if not re.search(kernel_re, first.get("kernel") or ""):
            fails.append(f"round {r}: it waited for "
                         f"{first.get('kernel')!r}, not the add")
    return fails


def streams_note(out):
    handles = [h for _, h, _ in STREAM_ROUND.findall(out)]
    reused = len(handles) - len(set(handles))
    return (f"{len(handles)} rounds, {len(set(handles))} stream handles"
            f" ({reused} reused)")


def check(case, j, err, out, min_wait=0.4, max_wait=1.2):
    """The failed checks, as sentences (empty: all passed)."""
    if case == "seed_cuda_streams":
        return check_streams(j, err, out)
    fails = []

    def need(ok, what):
        if not ok:
            fails.append(what)

    read_re, kernel_re, classes = CASES[case]
    need(str(j.get("schema", "")).startswith("addscope-waits/"),
         f"schema {j.get('schema')!r}")
    need(j.get("mode") == "device", f"mode {j.get('mode')!r}, not 'device'")
    need(j.get(FRONT_DOOR_FIELD) == FRONT_DOOR_VALUE,
         f"{FRONT_DOOR_FIELD} = {j.get(FRONT_DOOR_FIELD)!r}, not "
         f"{FRONT_DOOR_VALUE!r} (a CUDA program without Kokkos)")
    need(REPORT_WORDS in err,
         f"the report does not say it saw {REPORT_WORDS}")
    need(NEVER_STARTED not in err, "the launcher says the tool never started")
    totals = j.get("totals") or {}
    need(totals.get("kernels_without_device_record") == 0,
         "launches without a device record: "
         f"{totals.get('kernels_without_device_record')!r}")
    waits = j.get("waits") or []
    if not waits:
        fails.append("no call waited")
        return fails
    w = max(waits, key=lambda x: x.get("wait_s") or 0)
    what = w.get("what") or ""
    need(re.search(read_re, what) is not None,
         f"the longest wait is in {what!r}, not the read ({read_re})")
    need(w.get("kind") == "runtime",
         f"the read's kind is {w.get('kind')!r}, not 'runtime'")
    need(w.get("class") in classes,
         f"the read's wait is {w.get('class')!r}, not {sorted(classes)}")
    wait_s = w.get("wait_s") or 0
    need(min_wait <= wait_s <= max_wait,
         f"the read waited {wait_s:.4f} s, not {min_wait}..{max_wait} s")
    need(w.get("wait_is_bound") is False,
         "the wait is a bound, not measured from device records")
    def at_line(what, site, table):
        """The JSON code site `site` is at the case's line in `table`."""
        file_re, line = table[case]
        site = site or {}
        need(re.search(file_re, site.get("file") or "") is not None and
             site.get("line") == line,
             f"{what} {site.get('file')!r}:{site.get('line')!r}, "
             f"not the program's line {line} ({file_re})")

    if case in SITES and "code" in w:  # a tool that names lines
        at_line("the read is at", w.get("code"), SITES)
    shares = w.get("waited_for") or []
    first = shares[0] if shares else {}
    kname = first.get("kernel") or ""
    need(re.search(kernel_re, kname) is not None,
         f"the read waited for {kname!r}, not the case's kernel "
         f"({kernel_re})")
    need(first.get("launched_as") == "1 x 1",
         f"its kernel was launched as {first.get('launched_as')!r}, not "
         "'1 x 1'")
    need(first.get("starved") is True, "its kernel is not flagged starved")
    if case in WAITED_LAUNCH_SITES and j.get("launch_places") is True:
        at_line("the read waited for the launch at", first.get("launched_at"),
                WAITED_LAUNCH_SITES)
    kernel = next((k for k in j.get("kernels") or [] if k.get("name") == kname),
                  None)
    if kernel is None:
        fails.append(f"kernel {kname!r} not in kernels[]")
    else:
        dev = kernel.get("device_max_s") or 0
        need(wait_s >= 0.8 * dev,
             f"waited {wait_s:.4f} s, under 80% of the kernel's "
             f"{dev:.4f} s")
        if case in LAUNCH_SITES and "launched_at" in kernel:
            at_line(f"{kname!r} was launched at", kernel.get("launched_at"),
                    LAUNCH_SITES)
    need(any(s.get("kernel") == kname and s.get("shape") == "1 x 1"
             for s in j.get("starved") or []),
         f"starved[] does not list {kname!r} as 1 x 1")
    ms = read_ms(out)
    if ms is None:
        fails.append("the program printed no read time")
    else:
        need(0.8 * ms <= wait_s <= ms * 1.02 + 1e-3,
             f"the tool's wait {wait_s:.4f} s is not 80..100% of the "
             f"read the program timed ({ms:.4f} s)")
    return fails


def summary_line(case, j, out, fails):
    if case == "seed_cuda_streams":
        return (f"SUMMARY {case:<12} {streams_note(out)}, each synchronize "
                f"waited for its own stream's add  "
                f"{'FAIL' if fails else 'PASS'}")
    w = max(j.get("waits") or [{}], key=lambda x: x.get("wait_s") or 0)
    ms = read_ms(out)
    first = (w.get("waited_for") or [{}])[0]
    return (f"SUMMARY {case:<12} read {('%.1f ms' % (ms * 1e3)) if ms else '?'}"
            f": {w.get('what')!r} waited {(w.get('wait_s') or 0) * 1e3:.1f} ms"
            f" for {first.get('kernel')!r} launched as "
            f"{first.get('launched_as')!r}"
            f"{' (starved)' if first.get('starved') else ''}  "
            f"{'FAIL' if fails else 'PASS'}")


def self_test():
    """The checker on made-up runs: a good one passes, each broken one
    fails with the check that should catch it."""
    good = {
        "schema": "addscope-waits/4", "mode": "device",
        FRONT_DOOR_FIELD: FRONT_DOOR_VALUE,
        "totals": {"kernels_without_device_record": 0},
        "waits": [
            {"what": "cuMemcpyHtoD 40 MB", "kind": "runtime",
             "class": "hidden", "wait_s": 0.001, "wait_is_bound": False,
             "waited_for": []},
            {"what": "cuMemcpyDtoHAsync D2H 4 B", "kind": "runtime",
             "class": "hidden", "wait_s": 0.7349, "wait_is_bound": False,
             "waited_for": [{"kernel": "__main__::add", "launched_as": "1 x 1",
                             "starved": True, "wait_s": 0.7349}]}],
        "kernels": [{"name": "__main__::add", "device_max_s": 0.7350}],
        "starved": [{"kernel": "__main__::add", "shape": "1 x 1"}],
    }
    err = ("addscope waits: device timestamps from CUPTI (...); any CUDA "
           "program (CUDA_INJECTION64_PATH): its CUDA runtime and driver "
           "calls\n")
    out = "seed_numba: N = 10000000, launch 0.39 ms, read of out[2] 735.0 ms\n"
    failures = 0
    if check("seed_numba", good, err, out):
        print("self-test: FAIL: the good run fails:",
              check("seed_numba", good, err, out))
        failures += 1

    def passes(label, mutate, case, o):
        nonlocal failures
        j = json.loads(json.dumps(good))
        mutate(j)
        fails = check(case, j, err, o)
        if fails:
            print(f"self-test: FAIL: {label} fails: {fails}")
            failures += 1

    def broken(label, mutate, expect, case="seed_numba", e=err, o=out):
        nonlocal failures
        j = json.loads(json.dumps(good))
        mutate(j)
        fails = check(case, j, e, o)
        if not any(expect in f for f in fails):
            print(f"self-test: FAIL: {label}: not caught ({fails})")
            failures += 1

    def wait(j):
        return j["waits"][1]

    # The C++ seed: its read at its line.
    cpp_read = SITES["seed_cuda"][1]

    cpp_launch = WAITED_LAUNCH_SITES["seed_cuda"][1]

    def as_cpp(j):
        wait(j).update(what="cudaMemcpy D2H 4 B", code={
            "file": "/w/tests/cuda_programs/seed_cuda.cpp", "line": cpp_read,
            "function": "main", "language": "c++"})
        wait(j)["waited_for"][0]["launched_at"] = {
            "file": "/w/tests/cuda_programs/seed_cuda.cpp",
            "line": cpp_launch, "function": "main", "language": "c++"}
        j["launch_places"] = True
    cpp_out = "seed_cuda: launch 0.01 ms, read of out[2] 735.0 ms\n"
    passes("a good C++ run", as_cpp, case="seed_cuda", o=cpp_out)
    broken("the C++ read at another line",
           lambda j: (as_cpp(j), wait(j)["code"].update(line=cpp_read - 3)),
           "not the program's line", case="seed_cuda", o=cpp_out)
    broken("the C++ read at no line",
           lambda j: (as_cpp(j), wait(j).update(code=None)),
           "not the program's line", case="seed_cuda", o=cpp_out)
    broken("the C++ read waited for the first launch, not the timed one",
           lambda j: (as_cpp(j), wait(j)["waited_for"][0]["launched_at"].update(
               line=LAUNCH_SITES["seed_cuda"][1])),
           "waited for the launch at", case="seed_cuda", o=cpp_out)

    # torch_sleep's read waited for its timed spin, not the first.
    def as_torch(j):
        wait(j).update(what="cudaMemcpyAsync D2H 4 B", code={
            "file": "/w/tests/cuda_programs/torch_sleep.py",
            "line": SITES["torch_sleep"][1], "function": "main",
            "language": "python"})
        wait(j)["waited_for"][0].update(
            kernel="void at::native::(anonymous namespace)::spin_kernel(long)",
            launched_at={"file": "/w/tests/cuda_programs/torch_sleep.py",
                         "line": WAITED_LAUNCH_SITES["torch_sleep"][1],
                         "function": "main", "language": "python"})
        j["kernels"][0]["name"] = wait(j)["waited_for"][0]["kernel"]
        j["starved"][0]["kernel"] = wait(j)["waited_for"][0]["kernel"]
        j["launch_places"] = True
    torch_out = ("torch_sleep: spin 500 ms asked (1 cycles), launch 0.02 ms, "
                 "x.sum().item() 735.0 ms (= 1000.0)\n")
    passes("a good torch_sleep run", as_torch, case="torch_sleep",
           o=torch_out)
    broken("torch_sleep's read waited for the first spin, not the timed one",
           lambda j: (as_torch(j), wait(j)["waited_for"][0]["launched_at"]
                      .update(line=LAUNCH_SITES["torch_sleep"][1])),
           "waited for the launch at", case="torch_sleep", o=torch_out)

    # numba's seed named at its lines: the read, the launch.
    read_at, launch_at = SITES["seed_numba"][1], LAUNCH_SITES["seed_numba"][1]

    def with_lines(j):
        wait(j)["code"] = {"file": "/w/cuda_programs/seed_numba.py",
                           "line": read_at, "language": "python"}
        j["kernels"][0]["launched_at"] = {
            "file": "/w/cuda_programs/seed_numba.py", "line": launch_at,
            "language": "python"}
    lines = json.loads(json.dumps(good))
    with_lines(lines)
    if check("seed_numba", lines, err, out):
        print("self-test: FAIL: a good run with lines fails:",
              check("seed_numba", lines, err, out))
        failures += 1
    broken("the Python read at another line",
           lambda j: (with_lines(j), wait(j)["code"].update(line=launch_at)),
           f"not the program's line {read_at}")
    broken("the launch at another line",
           lambda j: (with_lines(j),
                      j["kernels"][0]["launched_at"].update(line=read_at)),
           f"not the program's line {launch_at}")
    broken("the launch at no line",
           lambda j: (with_lines(j), j["kernels"][0].update(launched_at=None)),
           f"not the program's line {launch_at}")

    broken("kokkos-only mode", lambda j: j.update(mode="kokkos-only"), "mode")
    broken("seen as a Kokkos program",
           lambda j: j.update({FRONT_DOOR_FIELD: "kokkos"}), FRONT_DOOR_FIELD)
    broken("the wait in another call",
           lambda j: wait(j).update(what="cuCtxSynchronize"), "not the read")
    broken("too short", lambda j: wait(j).update(wait_s=0.1), "waited 0.1")
    broken("too long", lambda j: wait(j).update(wait_s=2.0), "not 0.4..1.2")
    broken("a bound", lambda j: wait(j).update(wait_is_bound=True), "bound")
    broken("another kernel",
           lambda j: wait(j)["waited_for"][0].update(kernel="fill"),
           "not the case's kernel")
    broken("a healthy launch",
           lambda j: wait(j)["waited_for"][0].update(launched_as="78,125 x 128"),
           "launched as")
    broken("not starved",
           lambda j: wait(j)["waited_for"][0].update(starved=False),
           "not flagged starved")
    broken("starved[] empty", lambda j: j.update(starved=[]), "starved[]")
    broken("records lost",
           lambda j: j["totals"].update(kernels_without_device_record=1),
           "without a device record")
    broken("under the kernel's time",
           lambda j: j["kernels"][0].update(device_max_s=1.1), "80%")
    broken("an explicit wait in the seed",
           lambda j: wait(j).update(**{"class": "explicit"}), "'explicit'")
    broken("inside a Kokkos call",
           lambda j: wait(j).update(kind="deep_copy"), "kind")
    broken("no waits", lambda j: j.update(waits=[]), "no call waited")
    broken("the report's words", lambda j: None, REPORT_WORDS,
           e="addscope waits: device timestamps\n")
    broken("never started", lambda j: None, "never started",
           e=err + "addscope-waits: ... nothing to report\n")
    broken("no read time", lambda j: None, "no read time", o="seed_numba: ?\n")
    broken("more than the program's read", lambda j: None, "timed",
           o="seed_numba: launch 0.3 ms, read of out[2] 500.0 ms\n")
    # The other cases' calls.
    broken("CuPy: a driver DtoD is not its read",
           lambda j: wait(j).update(what="cuMemcpyDtoD 4 B"), "not the read",
           case="seed_cupy")
    broken("C++: cudaMemcpyAsync is not its read",
           lambda j: wait(j).update(what="cudaMemcpyAsync D2H 4 B"),
           "not the read", case="seed_cuda")
    torch = json.loads(json.dumps(good))
    wait(torch).update(what="cudaStreamSynchronize", **{"class": "explicit"})
    wait(torch)["waited_for"][0]["kernel"] = \
        "at::cuda::(anonymous namespace)::spin_kernel(long)"
    torch["kernels"][0]["name"] = wait(torch)["waited_for"][0]["kernel"]
    torch["starved"][0]["kernel"] = torch["kernels"][0]["name"]
    tout = "torch_sleep: spin 500 ms asked, x.sum().item() 735.0 ms (= 1000.0)\n"
    if check("torch_sleep", torch, err, tout):
        print("self-test: FAIL: a good torch run fails:",
              check("torch_sleep", torch, err, tout))
        failures += 1
    # (lazy module loading: the first x.sum() launch waited, not the read)
    wait(torch).update(what="cudaLaunchKernel", **{"class": "hidden"})
    if check("torch_sleep", torch, err, tout):
        print("self-test: FAIL: a torch run whose launch waited fails:",
              check("torch_sleep", torch, err, tout))
        failures += 1
    # seed_cuda_streams: three rounds, two at one handle, each waited for.
    sout = "".join(
        f"seed_cuda: stream round {r} handle {h} synchronize {ms} ms\n"
        for r, h, ms in ((1, "0xa0", 118.0), (2, "0xa0", 117.5),
                         (3, "0xb0", 118.4)))

    def sync(wait_s):
        return {"what": "cudaStreamSynchronize", "kind": "runtime",
                "class": "explicit", "wait_s": wait_s,
                "wait_is_bound": False,
                "waited_for": [{"kernel": "add(float const*, float const*, "
                                "float*, long long)", "launched_as": "1 x 1",
                                "wait_s": wait_s}]}
    sgood = {"schema": "addscope-waits/4", "mode": "device",
             FRONT_DOOR_FIELD: FRONT_DOOR_VALUE,
             "totals": {"kernels_without_device_record": 0},
             "waits": [sync(0.1179), sync(0.1174), sync(0.1183)]}
    if check("seed_cuda_streams", sgood, err, sout):
        print("self-test: FAIL: a good streams run fails:",
              check("seed_cuda_streams", sgood, err, sout))
        failures += 1
    # What a stale stream id gives: the second round's synchronize waits
    # for nothing (a stream with no kernel), so the report lists no wait.
    for label, mutate, expect in (
            ("stale stream id", lambda j: j["waits"].pop(1), "round 2"),
            ("wait for another kernel",
             lambda j: j["waits"][2]["waited_for"][0].update(kernel="fill"),
             "not the add"),
            ("hidden, not explicit",
             lambda j: j["waits"][0].update(**{"class": "hidden"}),
             "not ['explicit']")):
        bj = copy.deepcopy(sgood)
        mutate(bj)
        got = check("seed_cuda_streams", bj, err, sout)
        if not any(expect in g for g in got):
            print(f"self-test: FAIL: {label} not caught ({got})")
            failures += 1
    print(f"SUMMARY check_injection self-test  {'FAIL' if failures else 'PASS'}")
    return 1 if failures else 0


def main(argv):
    if len(argv) == 2 and argv[1] == "--self-test":
        return self_test()
    args = argv[1:]
    opts = {"--min-wait": 0.4, "--max-wait": 1.2}
    pos = []
    i = 0
    while i < len(args):
        if args[i] in opts and i + 1 < len(args):
            try:
                opts[args[i]] = float(args[i + 1])
            except ValueError:
                print(f"{args[i]} = '{args[i + 1]}' is invalid; allowed: "
                      "seconds", file=sys.stderr)
                return 2
            i += 2
        else:
            pos.append(args[i])
            i += 1
    if len(pos) != 4 or pos[0] not in CASES:
        print("usage: check_injection.py CASE JSON ERR OUT [--min-wait S] "
              "[--max-wait S]; CASE: " + ", ".join(CASES), file=sys.stderr)
        return 2
    case, json_path, err_path, out_path = pos
    try:
        with open(err_path) as f:
            err = f.read()
        with open(out_path) as f:
            out = f.read()
    except OSError as e:
        print(f"SUMMARY {case}: cannot read the run's output ({e})  FAIL")
        return 1
    try:
        with open(json_path) as f:
            j = json.load(f)
    except (OSError, ValueError) as e:
        print(f"  FAIL: no JSON report {json_path}: {e}")
        print(f"SUMMARY {case:<12} no JSON  FAIL")
        return 1
    fails = check(case, j, err, out, opts["--min-wait"], opts["--max-wait"])
    for f in fails:
        print("  FAIL:", f)
    print(summary_line(case, j, out, fails))
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
