#!/usr/bin/env python3
"""Checks the classes the waits tool gave a program's waits against what
the program says of its own lines: a line ending in a comment
`waits: explicit` (a synchronize the program asked for) or `waits: hidden`
(a framework's synchronization inside another call), as in
framework_syncs.py. From the tool's JSON (docs/waits-report.md):

  check_classes.py PROGRAM JSON
  check_classes.py --self-test

Every wait in waits[] whose `code` is at a marked line of PROGRAM must have
that line's class; marked lines of both classes must be among them, at
least MIN_MARKED waits in all (a tool that named no line passes nothing).
A line ending in `launches: on another thread` (PyTorch's `loss.backward()`:
its kernels are launched on autograd's C++ thread) must be the launch line
of some kernel in kernels[], when the JSON names its function at all.
Prints one line per failed check and a SUMMARY line; exits 0 if all
passed, 1 if one failed, 2 on a usage error.
"""
import json
import os
import re
import sys

MARK = re.compile(r"#\s*waits:\s*(explicit|hidden)\b")
LAUNCH_MARK = re.compile(r"#\s*launches:\s*on another thread\b")
DEF = re.compile(r"^def\s+(\w+)\(")
MIN_MARKED = 3


def launch_lines(text):
    """{line number: its function} of the lines whose kernels another
    thread launches."""
    out, function = {}, None
    for n, line in enumerate(text.splitlines(), 1):
        d = DEF.match(line)
        if d:
            function = d.group(1)
        if LAUNCH_MARK.search(line):
            out[n] = function
    return out


def check_launches(program_name, launches, j):
    """The failed checks of the lines marked `launches: on another thread`
    whose function the JSON names (a wait's or a kernel's line in it)."""
    def at(code):
        code = code or {}
        if os.path.basename(code.get("file") or "") != program_name:
            return None, None
        return code.get("line"), code.get("function")
    named = {at(w.get("code"))[1] for w in j.get("waits") or []}
    launched = [at(k.get("launched_at")) for k in j.get("kernels") or []]
    named |= {f for _, f in launched}
    fails = []
    for line, function in sorted(launches.items()):
        if function not in named:
            continue
        if not any(l == line for l, _ in launched):
            fails.append(f"no kernel launched at line {line} ({function}; "
                         f"launch lines: {sorted({l for l, _ in launched if l})})")
    return fails


def marked_lines(text):
    """{line number: class} of the lines that say how they wait."""
    out = {}
    for n, line in enumerate(text.splitlines(), 1):
        m = MARK.search(line)
        if m:
            out[n] = m.group(1)
    return out


def check(program_name, marks, j):
    """The failed checks, as sentences (empty: all passed), and what was
    seen: {line: [classes]}."""
    fails, seen = [], {}
    for w in j.get("waits") or []:
        code = w.get("code") or {}
        if os.path.basename(code.get("file") or "") != program_name:
            continue
        line = code.get("line")
        if line not in marks:
            continue
        seen.setdefault(line, []).append(w.get("class"))
        if w.get("class") != marks[line]:
            fails.append(f"line {line} waited {w.get('wait_s', 0):.4f} s in "
                         f"{w.get('what')!r}, called {w.get('class')!r}, "
                         f"not {marks[line]!r} (`{code.get('text')}`)")
    classes = {marks[line] for line in seen}
    for cls in ("explicit", "hidden"):
        if cls not in classes:
            fails.append(f"no wait at a line marked {cls!r} "
                         f"(marked: {sorted(l for l in marks if marks[l] == cls)})")
    n = sum(len(v) for v in seen.values())
    if n < MIN_MARKED:
        fails.append(f"{n} waits at marked lines, under {MIN_MARKED}")
    return fails, seen


def self_test():
    prog = ("x = 1\n"
            "sync()  # waits: explicit\n"
            "v.item()  # waits: hidden\n")
    marks = marked_lines(prog)
    bad = 0
    if marks != {2: "explicit", 3: "hidden"}:
        print(f"self-test: FAIL: marks {marks}")
        bad += 1

    def run(classes_at):
        return {"waits": [{"what": "cudaStreamSynchronize", "wait_s": 0.02,
                           "class": c, "code": {"file": f"/x/{f}", "line": l}}
                          for f, l, c in classes_at]}

    good = run([("p.py", 2, "explicit"), ("p.py", 3, "hidden"),
                ("p.py", 3, "hidden"), ("p.py", 1, "explicit"),
                ("q.py", 2, "hidden")])
    fails, _ = check("p.py", marks, good)
    if fails:
        print(f"self-test: FAIL: a good run fails: {fails}")
        bad += 1
    for label, j, words in [
            ("item() called explicit",
             run([("p.py", 2, "explicit"), ("p.py", 3, "explicit"),
                  ("p.py", 3, "hidden")]), "not 'hidden'"),
            ("no explicit line", run([("p.py", 3, "hidden")] * 3),
             "no wait at a line marked 'explicit'"),
            ("no line named", {"waits": [{"class": "hidden"}] * 5},
             "0 waits at marked lines"),
            ("no JSON waits", {}, "under 3")]:
        fails, _ = check("p.py", marks, j)
        if not any(words in f for f in fails):
            print(f"self-test: FAIL: {label}: not caught ({fails})")
            bad += 1
    # A line whose kernels another thread launches.
    prog = ("def f():\n"
            "    loss.backward()  # launches: on another thread\n"
            "def g():\n"
            "    pass\n")
    lines = launch_lines(prog)
    if lines != {2: "f"}:
        print(f"self-test: FAIL: launch lines {lines}")
        bad += 1

    def kernels(*at):
        return {"kernels": [{"launched_at": {"file": "/x/p.py", "line": l,
                                             "function": fn}}
                            for l, fn in at]}
    for label, j, want in [
            ("launched there", kernels((1, "f"), (2, "f")), False),
            ("not launched there", kernels((1, "f")), True),
            ("another function's run", kernels((4, "g")), False)]:
        fails = check_launches("p.py", lines, j)
        if bool(fails) != want:
            print(f"self-test: FAIL: {label}: {fails}")
            bad += 1
    print(f"SUMMARY check_classes self-test {'FAIL' if bad else 'PASS'}")
    return 1 if bad else 0


def main(argv):
    if argv[1:] == ["--self-test"]:
        return self_test()
    if len(argv) != 3:
        sys.stderr.write(__doc__)
        return 2
    program, json_path = argv[1], argv[2]
    try:
        with open(program) as f:
            text = f.read()
        marks = marked_lines(text)
        with open(json_path) as f:
            j = json.load(f)
    except (OSError, ValueError) as e:
        print(f"FAIL: {e}")
        print(f"SUMMARY classes {os.path.basename(program)} FAIL")
        return 1
    fails, seen = check(os.path.basename(program), marks, j)
    fails += check_launches(os.path.basename(program), launch_lines(text), j)
    for f in fails:
        print("FAIL:", f)
    said = ", ".join(f"{l}: {'/'.join(sorted(set(c)))} x{len(c)}"
                     for l, c in sorted(seen.items()))
    print(f"SUMMARY classes {os.path.basename(program)} (lines {said}) "
          f"{'FAIL' if fails else 'PASS'}")
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
