#!/usr/bin/env python3
"""fork() in a Python program while its other threads take sites: two
threads launch kernels of new names through the tool's Kokkos Tools entry
points (each a first use: a native stack taken, the thread's Python frames
read), while the main thread forks FORKS times. Each child launches a kernel
of its own (a stack and a Python line again, in the child) and exits; a
child that has not ended within 10 s is killed and counted hung. The
parent's report must hold its threads' kernels and none of its children's.

  python_fork.py LIBADDSCOPE_WAITS JSON_OUT

Exits 0 when every check passed, 1 otherwise, 2 on a usage error.
"""
import ctypes
import json
import os
import signal
import sys
import threading
import time
import warnings

import kokkos_tools_ctypes  # beside this script

if len(sys.argv) != 3:
    sys.stderr.write(__doc__)
    sys.exit(2)
lib_path, json_path = sys.argv[1], sys.argv[2]
kokkos_tools_ctypes.report_to(json_path)
# 3.12 warns that a fork with threads may deadlock the child: that is what
# is tested.
warnings.simplefilter("ignore", DeprecationWarning)

lib = kokkos_tools_ctypes.load(lib_path)

FORKS = 200
DEADLINE_S = 10.0


def launch(name):
    kid = ctypes.c_uint64()
    lib.kokkosp_begin_parallel_for(name, 0, ctypes.byref(kid))
    lib.kokkosp_end_parallel_for(kid)


def deep(n, name):
    """A few Python frames under the launch, for the read to walk."""
    if n:
        return deep(n - 1, name)
    launch(name)


stop = threading.Event()
launched = [0, 0]


def launcher(t):
    i = 0
    while not stop.is_set():
        deep(8, b"user::t%d_%d" % (t, i))  # a new name: a site each time
        i += 1
        time.sleep(0.00005)  # paced: new names all along the forks
    launched[t] = i


lib.kokkosp_init_library(0, 20211015, 0, None)
threads = [threading.Thread(target=launcher, args=(t,)) for t in (0, 1)]
for th in threads:
    th.start()
hung = failed = 0
for k in range(FORKS):
    pid = os.fork()
    if pid == 0:
        try:
            deep(4, b"user::child")
            os._exit(0)
        except BaseException:
            os._exit(3)
    deadline = time.monotonic() + DEADLINE_S
    while True:
        got, status = os.waitpid(pid, os.WNOHANG)
        if got == pid:
            break
        if time.monotonic() > deadline:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            hung += 1
            status = None
            break
        time.sleep(0.001)
    if status is not None and not (os.WIFEXITED(status) and
                                   os.WEXITSTATUS(status) == 0):
        failed += 1
    if hung:
        break
stop.set()
for th in threads:
    th.join()
lib.kokkosp_finalize_library()

fails = []
if hung:
    fails.append(f"a child hung (killed after {DEADLINE_S:.0f} s) at fork {k}")
if failed:
    fails.append(f"{failed} of {k + 1} children did not exit 0")
if min(launched) == 0:
    fails.append(f"a thread launched nothing: {launched}")
try:
    with open(json_path) as f:
        j = json.load(f)
except (OSError, ValueError) as e:
    fails.append(f"no JSON report ({e})")
    j = {"kernels": [], "totals": {}}
names = [k["name"] for k in j["kernels"]]
if "user::child" in names:
    fails.append("the parent's report holds a child's kernel")
calls = sum(k["calls"] for k in j["kernels"] if k["name"].startswith("user::t")
            or k["name"] in ("(other kernels)", "(name table full)"))
if calls != sum(launched):
    fails.append(f"the report counts {calls} of the threads' "
                 f"{sum(launched)} kernels")
for f in fails:
    print("FAIL:", f)
print(f"SUMMARY python_fork {sys.version.split()[0]}: {k + 1} forks while two "
      f"threads took {sum(launched)} sites, {hung} hung, {failed} failed  "
      + ("FAIL" if fails else "PASS"))
sys.exit(1 if fails else 0)
