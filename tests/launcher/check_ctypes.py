#!/usr/bin/env python3
"""A Python program driving a Kokkos library through ctypes, under the
launcher (issue 36's CI check: Python lines on a host backend):

  check_ctypes.py run LAUNCHER TOOL LIBRARY DRIVER OUTDIR [no-finalize]
  check_ctypes.py --self-test

`run` starts `LAUNCHER --tool TOOL --json OUTDIR/ctypes.json -o
OUTDIR/ctypes.report.txt -- python3 DRIVER LIBRARY` (ctypes_driver.py and
ctypes_lib.cpp), then checks the tool's JSON against the lines of DRIVER
marked `# calls: WHAT`:
  * a call site (sites[]) at the line marked `step`, read as Python
    (its file the driver, its function `main`);
  * the kernel `ctypes::fill` first launched (kernels[].launched_at) at
    that line;
  * every Python line the JSON names (sites, waits, kernels) is a marked
    line of the driver: never the interpreter's, ctypes' or Kokkos' code;
  * the text report's kernels table says where ctypes::fill was first
    launched.
With `no-finalize` the driver ends without finalizing Kokkos (the
interpreter's own shutdown with the tool loaded): the same checks, from
the report the tool writes at exit.
Prints one line per failed check and a SUMMARY line; exits 0 if all
passed, 1 if one failed, 2 on a usage error.
"""
import json
import os
import re
import subprocess
import sys

MARK = re.compile(r"#\s*calls:\s*(\w+)")


def marked_lines(text):
    """{what: line number} of the lines that call into the library."""
    out = {}
    for n, line in enumerate(text.splitlines(), 1):
        m = MARK.search(line)
        if m:
            out[m.group(1)] = n
    return out


def python_codes(j):
    """(where, code) of every Python line the JSON names."""
    out = []
    for s in j.get("sites") or []:
        out.append(("sites[] " + str(s.get("site")), s.get("code")))
    for w in j.get("waits") or []:
        out.append(("waits[] " + str(w.get("what")), w.get("code")))
    for k in j.get("kernels") or []:
        out.append(("kernels[] " + str(k.get("name")), k.get("launched_at")))
    return [(w, c) for w, c in out
            if isinstance(c, dict) and c.get("language") == "python"]


def at(code, driver, line):
    return (isinstance(code, dict) and code.get("language") == "python" and
            os.path.basename(code.get("file") or "") == driver and
            code.get("line") == line and code.get("function") == "main")


def check(driver, marks, j):
    """The failed checks, one line each."""
    fails = []
    step = marks.get("step")
    if step is None:
        return [f"{driver} has no line marked '# calls: step'"]
    if not any(at(s.get("code"), driver, step) for s in j.get("sites") or []):
        fails.append(f"no call site at {driver}:{step} (main): sites[] codes "
                     f"{[s.get('code') for s in j.get('sites') or []]}")
    fill = [k for k in j.get("kernels") or [] if k.get("name") == "ctypes::fill"]
    if not fill:
        fails.append("no kernel ctypes::fill in kernels[]")
    elif not at(fill[0].get("launched_at"), driver, step):
        fails.append(f"ctypes::fill launched at {fill[0].get('launched_at')}, "
                     f"not {driver}:{step} (main)")
    lines = set(marks.values())
    for where, c in python_codes(j):
        if os.path.basename(c.get("file") or "") != driver or \
                c.get("line") not in lines:
            fails.append(f"{where} at {c.get('file')}:{c.get('line')}: not a "
                         f"marked line of {driver}")
    return fails


def run(launcher, tool, library, driver, outdir, *how):
    os.makedirs(outdir, exist_ok=True)
    name = "ctypes" + "".join("_" + h for h in how)
    js = os.path.join(outdir, name + ".json")
    report = os.path.join(outdir, name + ".report.txt")
    for f in (js, report):
        if os.path.exists(f):
            os.remove(f)
    cmd = [launcher, "--tool", tool, "--json", js, "-o", report, "--",
           sys.executable, driver, library, *how]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    fails = []
    if p.returncode != 0 or "(ok)" not in p.stdout:
        fails.append(f"the driver under the launcher: exit {p.returncode}, "
                     f"stdout {p.stdout.strip()!r}, stderr "
                     f"{p.stderr.strip()[-2000:]!r}")
    try:
        with open(js) as f:
            j = json.load(f)
    except (OSError, ValueError) as e:
        fails.append(f"no JSON from the tool ({e})")
        j = None
    if j is not None:
        with open(driver) as f:
            marks = marked_lines(f.read())
        fails += check(os.path.basename(driver), marks, j)
        # The text names it too: the kernels table's row.
        row = (f"ctypes::fill  [first launched at "
               f"{os.path.basename(os.path.dirname(driver))}/"
               f"{os.path.basename(driver)}:{marks.get('step')} (main)]")
        try:
            with open(report) as f:
                text = f.read()
        except OSError as e:
            text = ""
            fails.append(f"no text report ({e})")
        if text and row not in text:
            fails.append(f"the report has no row ending '{row}'")
        # Without finalize the report is the one written at exit.
        at_exit = "the program ended without Kokkos::finalize()"
        if text and ("no-finalize" in how) != (at_exit in text):
            fails.append(f"'{at_exit}' {'missing' if how else 'said'}")
    for f in fails:
        print(f"FAIL: {f}")
    if fails and os.path.exists(report):
        with open(report) as f:
            print(f.read())
    print(f"SUMMARY: {'PASS' if not fails else 'FAIL'} ({len(fails)} failed)")
    return 1 if fails else 0


def self_test():
    prog = ("import ctypes\n"
            "def main():\n"
            "    lib.init()  # calls: init\n"
            "    lib.step(1)  # calls: step\n")
    marks = marked_lines(prog)
    bad = 0
    if marks != {"init": 3, "step": 4}:
        print(f"self-test: FAIL: marks {marks}")
        bad += 1

    def code(line, file="/x/d.py", function="main"):
        return {"file": file, "line": line, "function": function,
                "language": "python"}

    def run_json(site=code(4), launched=code(4), extra=None):
        j = {"sites": [{"site": "deep_copy h<-x", "code": site}],
             "kernels": [{"name": "ctypes::fill", "launched_at": launched}],
             "waits": []}
        if extra:
            j["sites"].append({"site": "fence", "code": extra})
        return j

    if check("d.py", marks, run_json()):
        print(f"self-test: FAIL: a good run fails: "
              f"{check('d.py', marks, run_json())}")
        bad += 1
    for label, j, words in [
            ("site at another line", run_json(site=code(3)),
             "no call site at d.py:4"),
            ("site in ctypes", run_json(site=code(
                4, "/usr/lib/python3.11/ctypes/__init__.py", "__call__")),
             "no call site at d.py:4"),
            ("site without a line", run_json(site=None),
             "no call site at d.py:4"),
            ("kernel launched elsewhere", run_json(launched=code(3)),
             "ctypes::fill launched at"),
            ("an unmarked line", run_json(extra=code(2)),
             "not a marked line"),
            ("no kernel", {"sites": [{"site": "s", "code": code(4)}]},
             "no kernel ctypes::fill")]:
        fails = check("d.py", marks, j)
        if not any(words in f for f in fails):
            print(f"self-test: FAIL: {label}: not caught ({fails})")
            bad += 1
    print(f"self-test: {'PASS' if bad == 0 else 'FAIL'}")
    return 1 if bad else 0


if __name__ == "__main__":
    a = sys.argv[1:]
    if a == ["--self-test"]:
        sys.exit(self_test())
    if a[:1] == ["run"] and (len(a) == 6 or
                             (len(a) == 7 and a[6] == "no-finalize")):
        sys.exit(run(*a[1:]))
    print(__doc__, file=sys.stderr)
    sys.exit(2)
