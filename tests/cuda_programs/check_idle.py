#!/usr/bin/env python3
"""What a program's device idle time was, by cause, from the waits tool's
JSON (docs/waits-idle.md, the object `idle`), and the issue-36 check that
"other/unknown" is at most a share of the idle time:

  check_idle.py [--max-unknown SHARE] NAME=JSON [NAME=JSON ...]
  check_idle.py --self-test

One line per program: its device run, busy and idle share, start-up (paid
once: before the device's first kernel and each kernel's first run) and
every other cause with idle time, each as a share of the idle time. With
--max-unknown (a fraction, e.g. 0.05), a program whose other/unknown is
more than that share of its idle time FAILs. A program with no idle time
passes. A SUMMARY line last; exits 0 if all passed, 1 if one failed, 2 on
a usage error (a bad argument, a JSON that cannot be read or has no
`idle`).
"""
import json
import sys

ORDER = ["sync_round_trip", "host_code", "launch_latency", "communication",
         "submitted", "unknown", "start_up"]
WORDS = {"sync_round_trip": "round trip", "host_code": "host code",
         "launch_latency": "launch", "communication": "MPI",
         "submitted": "submitted", "unknown": "other/unknown",
         "start_up": "start-up"}


def seconds(s):
    if s >= 1:
        return f"{s:.3f} s"
    if s >= 1e-3:
        return f"{s * 1e3:.1f} ms"
    return f"{s * 1e6:.1f} us"


def judge(name, idle, max_unknown):
    """(line, failed) for one program's `idle` object."""
    span = float(idle.get("span_s") or 0)
    busy = float(idle.get("busy_s") or 0)
    total = float(idle.get("idle_s") or 0)
    causes = idle.get("causes") or {}
    if span <= 0:
        return f"{name}: no device run", False
    parts = []
    for k in ORDER:
        c = causes.get(k) or {}
        s = float(c.get("idle_s") or 0)
        if s > 0 and total > 0:
            parts.append(f"{WORDS[k]} {seconds(s)} ({100 * s / total:.1f}%)")
    line = (f"{name}: busy {seconds(busy)} of a {seconds(span)} device run, "
            f"idle {seconds(total)} ({100 * total / span:.1f}%)")
    if parts:
        line += "; of the idle: " + ", ".join(parts)
    unknown = float((causes.get("unknown") or {}).get("idle_s") or 0)
    share = unknown / total if total > 0 else 0.0
    failed = max_unknown is not None and share > max_unknown
    if max_unknown is not None:
        line += (f" -- other/unknown {100 * share:.1f}% of the idle "
                 f"{'>' if failed else '<='} {100 * max_unknown:.1f}%: "
                 f"{'FAIL' if failed else 'PASS'}")
    return line, failed


def main(argv):
    max_unknown = None
    runs = []
    it = iter(argv)
    for a in it:
        if a == "--max-unknown":
            v = next(it, None)
            try:
                max_unknown = float(v)
            except (TypeError, ValueError):
                print(f"check_idle.py: --max-unknown: '{v}' is not a fraction "
                      "(allowed: 0 to 1)", file=sys.stderr)
                return 2
            if not 0 <= max_unknown <= 1:
                print(f"check_idle.py: --max-unknown: {v} is out of range "
                      "(allowed: 0 to 1)", file=sys.stderr)
                return 2
        elif "=" in a:
            runs.append(a.split("=", 1))
        else:
            print(f"check_idle.py: '{a}' is not NAME=JSON", file=sys.stderr)
            return 2
    if not runs:
        print(__doc__, file=sys.stderr)
        return 2
    failed = 0
    for name, path in runs:
        try:
            with open(path) as f:
                idle = json.load(f)["idle"]
        except (OSError, ValueError, KeyError, TypeError) as e:
            print(f"check_idle.py: {name}: cannot read the idle object of "
                  f"{path}: {e}", file=sys.stderr)
            return 2
        line, bad = judge(name, idle, max_unknown)
        print(line)
        failed += bad
    print(f"SUMMARY: {len(runs) - failed} of {len(runs)} passed")
    return 1 if failed else 0


def self_test():
    def idle(unknown, start_up, rest=0.5):
        total = unknown + start_up + rest
        return {"span_s": 2.0, "busy_s": 2.0 - total, "idle_s": total,
                "causes": {"unknown": {"idle_s": unknown},
                           "start_up": {"idle_s": start_up},
                           "sync_round_trip": {"idle_s": rest}}}
    bad = 0
    line, f = judge("ok", idle(0.01, 0.4), 0.05)
    if f or "start-up 400.0 ms" not in line or "PASS" not in line:
        print(f"self-test: FAIL: a good run: {line}")
        bad += 1
    line, f = judge("unknown", idle(0.2, 0.0), 0.05)
    if not f or "FAIL" not in line:
        print(f"self-test: FAIL: 29% other/unknown passed: {line}")
        bad += 1
    line, f = judge("no check", idle(0.2, 0.0), None)
    if f or "PASS" in line or "FAIL" in line:
        print(f"self-test: FAIL: judged without --max-unknown: {line}")
        bad += 1
    line, f = judge("idle-free", {"span_s": 1.0, "busy_s": 1.0, "idle_s": 0,
                                  "causes": {}}, 0.05)
    if f:
        print(f"self-test: FAIL: no idle time failed: {line}")
        bad += 1
    print(f"self-test: {'PASS' if bad == 0 else 'FAIL'}")
    return 1 if bad else 0


if __name__ == "__main__":
    if sys.argv[1:] == ["--self-test"]:
        sys.exit(self_test())
    sys.exit(main(sys.argv[1:]))
