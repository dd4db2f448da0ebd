#!/usr/bin/env python3
"""Checks that two waits JSONs (docs/waits-report.md) of one program tell the
same story: the program run with the variables that load the tool alone
(KOKKOS_PROFILE_LIBRARY / KOKKOS_TOOLS_LIBS) and under the launcher
(addscope-waits; cmake/cuda-run.sh step `injection`, issue 24):

  same_report.py A.json B.json [--rel R] [--abs S] [--any-front-door]
                 [--label NAME]
  same_report.py --self-test

The same: mode and front door; every kernel's name, calls and launches; the
number of hidden waits; the longest wait's call, class and the kernel it
waited for; the hidden and explicit totals within R (default 0.15) of each
other or S seconds (default 0.005) — two runs of a program, not one (how
many short explicit waits there are may differ between runs).
--any-front-door: the front door may differ (the launcher's default loads
the tool both ways; a Kokkos 3.x program initializes CUDA before its tools,
so CUDA injection comes first there), and a kernel one side has with no
Kokkos call (calls 0: launched through CUDA before Kokkos Tools started,
such as Kokkos' own lock-array and architecture-query kernels, seen only
when CUDA injection runs from cuInit) may be missing on the other side, and
so may a hidden wait for such kernels alone (a launch of Kokkos'
initialization that waited for the one before it); both are named in
"note:" lines. Every kernel both sides have, and every kernel
with a Kokkos call, must still agree. --label NAME: the SUMMARY line's name
(default same_report).
Prints one line per difference and a SUMMARY line; exits 0 when none, 1
when one, 2 on a usage error.
"""
import copy
import json
import sys


def hidden_for_only(j, names):
    """Hidden waits of one JSON whose every kernel waited for is in `names`."""
    n = 0
    for w in j.get("waits") or []:
        if not isinstance(w, dict) or w.get("class") != "hidden":
            continue
        ks = [x.get("kernel") for x in w.get("waited_for") or []]
        n += bool(ks) and all(k in names for k in ks)
    return n


def story(j):
    """What must agree, from one JSON."""
    t = j.get("totals", {})
    waits = [w for w in j.get("waits") or [] if isinstance(w, dict)]
    longest = max(waits, key=lambda w: w.get("wait_s") or 0, default={})
    waited = longest.get("waited_for") or [{}]
    return {
        "mode": j.get("mode"),
        "front door": j.get("front_door"),
        "kernels": sorted((k.get("name"), k.get("calls"), k.get("launches"))
                          for k in j.get("kernels", [])
                          if k.get("calls") or k.get("launches")),
        "hidden waits": t.get("hidden_calls"),
        "longest wait": (longest.get("what"), longest.get("class"),
                         waited[0].get("kernel")),
    }


def cuda_only_extras(sa, sb):
    """Kernels with no Kokkos call (calls 0) that one story has and the
    other lacks by name: seen only through CUDA injection."""
    na = {k[0] for k in sa["kernels"]}
    nb = {k[0] for k in sb["kernels"]}
    return ([k for k in sa["kernels"] if not k[1] and k[0] not in nb] +
            [k for k in sb["kernels"] if not k[1] and k[0] not in na])


def compare(a, b, rel=0.15, abs_s=0.005, any_front_door=False, notes=None):
    diffs = []
    sa, sb = story(a), story(b)
    if any_front_door:
        extra = cuda_only_extras(sa, sb)
        if extra and notes is not None:
            notes.append("kernels seen on one side only, with no Kokkos call "
                         "(through CUDA injection before Kokkos Tools "
                         f"started): {extra!r}")
        for s in (sa, sb):
            s["kernels"] = [k for k in s["kernels"] if k not in extra]
        # ... and the hidden waits for those kernels alone (a launch of
        # Kokkos' initialization that waited for the one before it)
        names = {k[0] for k in extra}
        for s, j in ((sa, a), (sb, b)):
            n = hidden_for_only(j, names)
            if n and s["hidden waits"] is not None:
                s["hidden waits"] -= n
                if notes is not None:
                    notes.append(f"{n} hidden wait(s) for those kernels "
                                 "alone, not compared")
    for key in sa:
        if any_front_door and key == "front door":
            continue
        if sa[key] != sb[key]:
            diffs.append(f"{key}: {sa[key]!r} against {sb[key]!r}")
    for key in ("hidden_s", "explicit_s"):
        x = a.get("totals", {}).get(key)
        y = b.get("totals", {}).get(key)
        if x is None or y is None:
            diffs.append(f"totals.{key}: {x!r} against {y!r}")
        elif abs(x - y) > max(abs_s, rel * max(abs(x), abs(y))):
            diffs.append(f"totals.{key}: {x:.6f} s against {y:.6f} s")
    return diffs


def self_test():
    base = {
        "mode": "device", "front_door": "kokkos",
        "totals": {"hidden_calls": 1, "explicit_calls": 2,
                   "hidden_s": 0.5661, "explicit_s": 0.0001},
        "kernels": [{"name": "user::slow_add[1x1]", "calls": 1},
                    {"name": "user::fill", "calls": 1},
                    {"name": "never launched", "calls": 0}],
        "waits": [{"what": "cudaDeviceSynchronize", "class": "explicit",
                   "wait_s": 1e-5, "waited_for": [{"kernel": "init"}]},
                  {"what": "deep_copy out_mirror<-out", "class": "hidden",
                   "wait_s": 0.5661,
                   "waited_for": [{"kernel": "user::slow_add[1x1]"}]}],
    }
    other = copy.deepcopy(base)
    other["totals"]["hidden_s"] = 0.5702  # another run: a little apart
    other["kernels"].reverse()  # order does not matter
    other["waits"].reverse()
    failed = []
    if compare(base, other):
        failed.append("two runs telling the same story differ: " +
                      "; ".join(compare(base, other)))

    def broken(label, mutate, words):
        b = copy.deepcopy(base)
        mutate(b)
        d = compare(base, b)
        if not any(words in x for x in d):
            failed.append(f"{label}: not caught (got {d})")

    broken("a kernel's calls", lambda b: b["kernels"][0].update(calls=2),
           "kernels")
    broken("a kernel's launches",
           lambda b: b["kernels"][0].update(launches=3), "kernels")
    broken("a kernel missing", lambda b: b["kernels"].pop(1), "kernels")
    broken("hidden waits", lambda b: b["totals"].update(hidden_calls=0),
           "hidden waits")
    broken("hidden time", lambda b: b["totals"].update(hidden_s=0.28),
           "totals.hidden_s")
    broken("the longest wait's call",
           lambda b: b["waits"][1].update(what="fence"),
           "longest wait")
    broken("the kernel waited for",
           lambda b: b["waits"][1]["waited_for"][0].update(
               kernel="user::fill"), "longest wait")
    broken("the mode", lambda b: b.update(mode="kokkos-only"), "mode")
    broken("no totals", lambda b: b.pop("totals"), "totals.hidden_s")
    b = copy.deepcopy(base)
    b["front_door"] = "cuda-injection"
    if not any("front door" in x for x in compare(base, b)):
        failed.append("another front door: not caught")
    if compare(base, b, any_front_door=True):
        failed.append("--any-front-door: still compared the front door")
    # a kernel launched through CUDA before Kokkos Tools started: on one
    # side only, no Kokkos call; allowed with --any-front-door alone
    b = copy.deepcopy(base)
    b["kernels"].append({"name": "Kokkos::init_lock_arrays", "calls": 0,
                         "launches": 1})
    if not any("kernels" in x for x in compare(base, b)):
        failed.append("a CUDA-only kernel on one side: not caught")
    notes = []
    if compare(base, b, any_front_door=True, notes=notes) or not notes:
        failed.append("--any-front-door: a CUDA-only kernel on one side "
                      "not let through with a note")
    if compare(b, base, any_front_door=True):
        failed.append("--any-front-door: a CUDA-only kernel on the first "
                      "side not let through")
    b2 = copy.deepcopy(base)
    b2["kernels"].append({"name": "user::extra", "calls": 1})
    if not any("kernels" in x for x in
               compare(base, b2, any_front_door=True)):
        failed.append("--any-front-door: a kernel with a Kokkos call on "
                      "one side: not caught")
    # ... and a hidden wait for it alone: let through with it
    bw = copy.deepcopy(b)
    bw["totals"]["hidden_calls"] += 1
    bw["waits"].append({"what": "cudaLaunchKernel", "class": "hidden",
                        "wait_s": 8e-7, "waited_for": [
                            {"kernel": "Kokkos::init_lock_arrays"}]})
    if compare(base, bw, any_front_door=True):
        failed.append("--any-front-door: a hidden wait for a CUDA-only "
                      "kernel alone not let through")
    if not any("hidden waits" in x for x in compare(base, bw)):
        failed.append("a hidden wait for a CUDA-only kernel: not caught "
                      "without --any-front-door")
    bw2 = copy.deepcopy(bw)  # one more hidden wait, for a Kokkos kernel
    bw2["totals"]["hidden_calls"] += 1
    bw2["waits"].append({"what": "fence", "class": "hidden", "wait_s": 1e-4,
                         "waited_for": [{"kernel": "user::fill"}]})
    if not any("hidden waits" in x for x in
               compare(base, bw2, any_front_door=True)):
        failed.append("--any-front-door: another hidden wait for a Kokkos "
                      "kernel: not caught")
    b3 = copy.deepcopy(b)  # the CUDA-only kernel on both sides, launches apart
    b3["kernels"][-1]["launches"] = 2
    if not any("kernels" in x for x in compare(b, b3, any_front_door=True)):
        failed.append("--any-front-door: a CUDA-only kernel both sides "
                      "have, launched another number of times: not caught")
    broken("another wait the longest",
           lambda b: b["waits"][0].update(wait_s=0.9), "longest wait")
    for f in failed:
        print("FAIL: " + f)
    print(f"SUMMARY same_report self-test: {'FAIL' if failed else 'PASS'}")
    return 1 if failed else 0


def main(argv):
    if argv[1:] == ["--self-test"]:
        return self_test()
    args = argv[1:]
    rel, abs_s, files = 0.15, 0.005, []
    any_front_door, label = False, "same_report"
    i = 0
    while i < len(args):
        if args[i] == "--any-front-door":
            any_front_door = True
            i += 1
        elif args[i] == "--label" and i + 1 < len(args):
            label = args[i + 1]
            if not label.replace("_", "").isalnum():
                print(f"same_report.py: --label = '{label}' is invalid; "
                      "allowed: letters, digits and _", file=sys.stderr)
                return 2
            i += 2
        elif args[i] in ("--rel", "--abs") and i + 1 < len(args):
            try:
                v = float(args[i + 1])
            except ValueError:
                v = -1
            if v < 0:
                print(f"same_report.py: {args[i]} = '{args[i + 1]}' is "
                      "invalid; allowed: a number >= 0", file=sys.stderr)
                return 2
            rel, abs_s = (v, abs_s) if args[i] == "--rel" else (rel, v)
            i += 2
        else:
            files.append(args[i])
            i += 1
    if len(files) != 2:
        print("usage: same_report.py A.json B.json [--rel R] [--abs S] | "
              "--self-test", file=sys.stderr)
        return 2
    js = []
    for f in files:
        try:
            with open(f) as fh:
                js.append(json.load(fh))
        except (OSError, ValueError) as e:
            print(f"FAIL: {f}: {e}")
            print(f"SUMMARY {label}  FAIL")
            return 1
    notes = []
    diffs = compare(js[0], js[1], rel, abs_s, any_front_door, notes)
    for n in notes:
        print("note: " + n)
    for d in diffs:
        print("FAIL: " + d)
    s = story(js[0])
    print(f"SUMMARY {label}  {s['hidden waits']} hidden waits, longest "
          f"{s['longest wait'][0]!r} for {s['longest wait'][2]!r}  "
          f"{'FAIL' if diffs else 'PASS'}")
    return 1 if diffs else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
