#!/usr/bin/env python3
"""A forked child's lines are its own: in the child, a library's own C++
thread launches a kernel while the child's main thread waits for it at a
line (as PyTorch's autograd thread does under `loss.backward()`); the tool
reads that line through copies of the main thread's frames — in the child's
memory, not the parent's, whose main thread sits at another line meanwhile
(waiting for the child). The child writes its own JSON (a path with %p).

  python_fork_lines.py LIBADDSCOPE_WAITS JSON_TEMPLATE_WITH_%p NATIVE_THREAD_LIB

Exits 0 when every check passed, 1 otherwise, 2 on a usage error.
"""
import ctypes
import json
import os
import sys
import warnings

import kokkos_tools_ctypes  # beside this script
from program_lines import line_of

if len(sys.argv) != 4 or "%p" not in sys.argv[2]:
    sys.stderr.write(__doc__)
    sys.exit(2)
lib_path, template, native_path = sys.argv[1], sys.argv[2], sys.argv[3]
kokkos_tools_ctypes.report_to(template)
warnings.simplefilter("ignore", DeprecationWarning)  # 3.12: fork, threads

lib = kokkos_tools_ctypes.load(lib_path)
native = ctypes.CDLL(native_path)
native.addscope_test_launch_on_native_thread.argtypes = [
    ctypes.c_void_p, ctypes.c_void_p, ctypes.c_char_p]


LINES = {
    "native": line_of(__file__,
                      "native.addscope_test_launch_on_native_thread(\n"),
    "parent_wait": line_of(__file__,
                           "# the parent's main " + "thread waits here"),
}


def launch(name):
    kid = ctypes.c_uint64()
    lib.kokkosp_begin_parallel_for(name, 0, ctypes.byref(kid))
    lib.kokkosp_end_parallel_for(kid)


def child():
    launch(b"user::child_main")  # a line read on this thread: the last one
    native.addscope_test_launch_on_native_thread(
        ctypes.cast(lib.kokkosp_begin_parallel_for, ctypes.c_void_p),
        ctypes.cast(lib.kokkosp_end_parallel_for, ctypes.c_void_p),
        b"user::child_native")
    lib.kokkosp_finalize_library()  # the child's outputs


lib.kokkosp_init_library(0, 20211015, 0, None)
launch(b"user::parent")
pid = os.fork()
if pid == 0:
    try:
        child()
        os._exit(0)
    except BaseException:
        os._exit(3)
_, status = os.waitpid(pid, 0)  # the parent's main thread waits here
lib.kokkosp_finalize_library()

fails = []
if not (os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0):
    fails.append(f"the child ended with status {status}")
child_json = template.replace("%p", str(pid))
try:
    with open(child_json) as f:
        j = json.load(f)
except (OSError, ValueError) as e:
    j = {"kernels": []}
    fails.append(f"no JSON report from the child ({e})")
me = os.path.abspath(__file__)
k = next((k for k in j.get("kernels") or []
          if k.get("name") == "user::child_native"), None)
if k is None:
    fails.append("user::child_native is not in the child's report")
else:
    at = k.get("launched_at") or {}
    if os.path.abspath(at.get("file") or "") != me or \
            at.get("line") != LINES["native"]:
        fails.append(
            f"the child's kernel launched on its library's thread is at "
            f"{at.get('file')}:{at.get('line')}, not the child's line "
            f"{LINES['native']} (the parent waited at {LINES['parent_wait']})")
for f in fails:
    print("FAIL:", f)
print(f"SUMMARY python_fork_lines {sys.version.split()[0]}: "
      + ("FAIL" if fails else "PASS"))
sys.exit(1 if fails else 0)
