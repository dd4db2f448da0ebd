#!/usr/bin/env python3
"""Spawned workers and interpreter shutdown while threads take sites, as the
waits tool sees a Python program under its launcher: the program (run by
this script as a child, with ADDSCOPE_WAITS_STARTED set to a fresh file as
addscope-waits sets it) loads the tool through ctypes, launches a kernel,
then starts WORKERS workers with multiprocessing's "spawn" (fresh
interpreters that inherit the environment and load the tool themselves).
Each worker starts a daemon thread that launches kernels of new names (a
native stack and the thread's Python line each) and returns while it runs:
the interpreter shuts down with that thread inside the tool's callbacks.
The program then does the same in itself and exits without finalizing the
tool (its report is written at exit).

Checks: the program and its workers exit 0 within DEADLINE_S; the JSON
(ADDSCOPE_WAITS_JSON, no %p) is the program's own — its kernel at its line,
none of the workers' — and each worker says that it leaves that path alone.

  python_exit.py LIBADDSCOPE_WAITS JSON_OUT

Exits 0 when every check passed, 1 otherwise, 2 on a usage error.
"""
import ctypes
import json
import multiprocessing
import os
import subprocess
import sys
import tempfile
import threading
import time

import kokkos_tools_ctypes  # beside this script

WORKERS = 2
DEADLINE_S = 60.0


def launch(lib, name):
    kid = ctypes.c_uint64()
    lib.kokkosp_begin_parallel_for(name, 0, ctypes.byref(kid))
    lib.kokkosp_end_parallel_for(kid)


def keep_launching(lib, tag):
    i = 0
    while True:  # until the interpreter stops the thread at its exit
        launch(lib, b"user::%s_bg%d" % (tag, i))  # a new name: a site each
        i += 1


def busy_then_leave(lib, tag):
    """A daemon thread launching in the tool, left running at exit."""
    lib.kokkosp_init_library(0, 20211015, 0, None)
    threading.Thread(target=keep_launching, args=(lib, tag),
                     daemon=True).start()
    time.sleep(0.05)


def worker(lib_path, k):
    lib = kokkos_tools_ctypes.load(lib_path)
    busy_then_leave(lib, b"worker%d" % k)
    launch(lib, b"user::worker")


def program(lib_path):
    lib = kokkos_tools_ctypes.load(lib_path)
    lib.kokkosp_init_library(0, 20211015, 0, None)
    launch(lib, b"user::parent")  # the program's line
    ctx = multiprocessing.get_context("spawn")
    procs = [ctx.Process(target=worker, args=(lib_path, k))
             for k in range(WORKERS)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(DEADLINE_S / 2)
        if p.exitcode != 0:
            print("python_exit: a worker ended with", p.exitcode, flush=True)
            os._exit(3)
    busy_then_leave(lib, b"parent")
    sys.exit(0)  # no kokkosp_finalize_library: the report at exit


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--program":
        program(sys.argv[2])
        return 0
    if len(sys.argv) != 3:
        sys.stderr.write(__doc__)
        return 2
    lib_path, json_path = sys.argv[1], sys.argv[2]
    if os.path.exists(json_path):
        os.remove(json_path)
    fails = []
    with tempfile.TemporaryDirectory() as d:
        started = os.path.join(d, "started")
        open(started, "w").close()  # the launcher's file, made before
        env = dict(os.environ, ADDSCOPE_WAITS_STARTED=started,
                   ADDSCOPE_WAITS_JSON=json_path,
                   PYTHONPATH=os.path.dirname(os.path.abspath(__file__)))
        for v in ("ADDSCOPE_WAITS_OUTPUT", "ADDSCOPE_WAITS_TRACE",
                  "ADDSCOPE_WAITS_CHILDREN"):
            env.pop(v, None)
        try:
            r = subprocess.run([sys.executable, os.path.abspath(__file__),
                                "--program", lib_path], env=env,
                               capture_output=True, text=True,
                               timeout=DEADLINE_S)
            rc, err = r.returncode, r.stderr
        except subprocess.TimeoutExpired as e:
            rc, err = "hung", (e.stderr or b"").decode(errors="replace")
        with open(started) as f:
            lines = f.read().splitlines()
    if rc != 0:
        fails.append(f"the program exited {rc}: {err[-2000:]}")
    if len(lines) != 1 + WORKERS:
        fails.append(f"the tool started in {len(lines)} processes, not "
                     f"{1 + WORKERS}: {lines}")
    said = err.count(f"ADDSCOPE_WAITS_JSON='{json_path}' has no %p: this "
                     "process")
    if said != WORKERS:
        fails.append(f"{said} workers said they leave the JSON alone, not "
                     f"{WORKERS}")
    try:
        with open(json_path) as f:
            j = json.load(f)
    except (OSError, ValueError) as e:
        fails.append(f"no JSON report ({e})")
        j = {"kernels": []}
    names = {k["name"]: k for k in j["kernels"]}
    if "user::worker" in names:
        fails.append("the program's JSON holds a worker's kernel")
    parent = names.get("user::parent")
    if not parent:
        fails.append(f"no user::parent kernel in the JSON: {sorted(names)[:8]}")
    else:
        code = parent.get("launched_at") or {}
        if not str(code.get("file", "")).endswith("python_exit.py"):
            fails.append(f"user::parent is not at this script's line: {code}")
    for f in fails:
        print("FAIL:", f)
    print(f"SUMMARY python_exit {sys.version.split()[0]}: {WORKERS} spawned "
          f"workers and the program left threads launching at exit, exit "
          f"{rc}  " + ("FAIL" if fails else "PASS"))
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
