#!/usr/bin/env python3
"""Each device launch of a Python program at its own line: one kernel
launched at two lines in turn, hundreds of times, through a package (as
CuPy or PyTorch launches for the program), then a fence. The native stack
above each launch is the same at both lines (the interpreter's frames): the
tool tells them apart by the program's own Python frame, without a stack
per launch. Checks that the fence waited for the kernel launched at the
second line (the last launch), not at its first launch's line, that the
launches took a stack per place, not one each — their Python line alone, no
native stack — and that the sites' cost says how much of it was reading
Python lines.

  python_places.py LIBADDSCOPE_WAITS JSON_OUT

Exits 0 when every check passed, 1 otherwise, 2 on a usage error.
"""
import ctypes
import os
import sys
import tempfile
import time

import kokkos_tools_ctypes  # beside this script
from program_lines import line_after

if len(sys.argv) != 3:
    sys.stderr.write(__doc__)
    sys.exit(2)
lib_path, json_path = sys.argv[1], sys.argv[2]
kokkos_tools_ctypes.report_to(json_path)
lib = kokkos_tools_ctypes.load(lib_path)

# The package between the program and the library (its frame is the
# innermost Python frame at each launch, and not the program's own).
pkg_dir = os.path.join(tempfile.mkdtemp(), "site-packages")
os.makedirs(pkg_dir)
with open(os.path.join(pkg_dir, "fakelaunch.py"), "w") as f:
    f.write("def call(fn, *args):\n    return fn(*args)\n")
sys.path.insert(0, pkg_dir)
import fakelaunch  # noqa: E402

CUDA = 2 << 24  # Kokkos Tools' device id of the Cuda space: an async launch
LAUNCHES = 200
LINES = {}


def launch_at_a():
    kid = ctypes.c_uint64()
    LINES["a"] = line_after()
    fakelaunch.call(lib.kokkosp_begin_parallel_for, b"user::k", CUDA,
                    ctypes.byref(kid))
    lib.kokkosp_end_parallel_for(kid)


def launch_at_b():
    kid = ctypes.c_uint64()
    LINES["b"] = line_after()
    fakelaunch.call(lib.kokkosp_begin_parallel_for, b"user::k", CUDA,
                    ctypes.byref(kid))
    lib.kokkosp_end_parallel_for(kid)


lib.kokkosp_init_library(0, 20211015, 0, None)
for _ in range(LAUNCHES):
    launch_at_a()
    launch_at_b()
handle = ctypes.c_uint64()
lib.kokkosp_begin_fence(b"user::fence", CUDA, ctypes.byref(handle))
time.sleep(0.002)  # long enough for its site to be taken
lib.kokkosp_end_fence(handle)
lib.kokkosp_finalize_library()

fails = []
j = kokkos_tools_ctypes.read_report(json_path)
me = os.path.abspath(__file__)


def at(code):
    """file:line (function) of a JSON code site."""
    if not isinstance(code, dict):
        return repr(code)
    return "%s:%s (%s)" % (code.get("file"), code.get("line"),
                           code.get("function"))


if j.get("launch_places") is not True:
    fails.append("launch_places is %r, not true" % j.get("launch_places"))
waits = [w for w in j.get("waits") or [] if w.get("what") == "user::fence"]
if len(waits) != 1:
    fails.append("%d waits of user::fence, not 1" % len(waits))
else:
    shares = waits[0].get("waited_for") or []
    code = shares[0].get("launched_at") if shares else None
    want = "%s:%d (launch_at_b)" % (me, LINES["b"])
    if not shares or shares[0].get("kernel") != "user::k":
        fails.append("the fence waited for %r, not user::k" % shares)
    elif not isinstance(code, dict) or os.path.abspath(
            code.get("file") or "") != me or code.get("line") != LINES["b"] \
            or code.get("function") != "launch_at_b":
        fails.append("the fence waited for a launch at %s, not the last one "
                     "at %s" % (at(code), want))
# A stack at each place (a line; again where the interpreter's call path
# changed once, as 3.13's specialized calls do) and the fence's: a few, not
# one a launch of 2 x LAUNCHES.
cost = j.get("sites_cost") or {}
taken = cost.get("taken")
if not isinstance(taken, int) or not 2 <= taken <= 8:
    fails.append("%r stacks taken for %d launches at two lines and a fence "
                 "(2 to 8 expected)" % (taken, 2 * LAUNCHES))
# The launches' sites are their Python lines alone (no native stack read):
# all but the fence's.
alone = cost.get("python_alone")
if isinstance(taken, int) and alone != taken - 1:
    fails.append("%r of %r sites a Python line alone, not all but the fence's"
                 % (alone, taken))
# Of their time, reading the program's Python lines: some, not more than all.
py_s, all_s = cost.get("python_seconds"), cost.get("seconds")
if not (isinstance(py_s, float) and isinstance(all_s, float)
        and 0 < py_s <= all_s):
    fails.append("sites_cost: python_seconds %r of seconds %r (more than 0, "
                 "at most all expected)" % (py_s, all_s))

for f in fails:
    print("FAIL: " + f)
if not fails:
    print("PASS: %d launches at two lines in turn; the fence waited for the "
          "last, at line %d; %d stacks taken (Python %d.%d)"
          % (2 * LAUNCHES, LINES["b"], taken, *sys.version_info[:2]))
sys.exit(1 if fails else 0)
