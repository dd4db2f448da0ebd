#!/usr/bin/env python3
"""A Python program driving Kokkos through ctypes, as the waits tool sees it:
it calls the tool's Kokkos Tools entry points the way Kokkos would from a
Kokkos library a Python program loaded (the calling thread releases the GIL
inside ctypes, as it does inside CuPy, PyTorch and numba). Then it checks
that the tool named the program's own Python lines: the kernel's launch at
launch()'s line, the fence at fence()'s line — not the line inside the
package (a site-packages folder) through which both are called — and the
package function each line called (`call`, `synchronize`: a synchronize
the program asked for, past the decorator's wrapper it is called through).
A kernel a library launches on a C++ thread of its own (PyTorch's autograd
thread) while the program's line waits for the library: at that line (read
through copies of that thread's frames and line table: a function whose line
table is too long to copy gives no line, never a wrong one). A launch in a
module of the program's deleted before the report: its file and line, no
text.

  python_sites.py LIBADDSCOPE_WAITS JSON_OUT NATIVE_THREAD_LIB

Exits 0 when every check passed, 1 otherwise, 2 on a usage error.
"""
import ctypes
import os
import sys
import tempfile
import threading
import time

import kokkos_tools_ctypes  # beside this script
from program_lines import line_after

if len(sys.argv) != 4:
    sys.stderr.write(__doc__)
    sys.exit(2)
lib_path, json_path, native_path = sys.argv[1], sys.argv[2], sys.argv[3]
kokkos_tools_ctypes.report_to(json_path)

lib = kokkos_tools_ctypes.load(lib_path)
native = ctypes.CDLL(native_path)
native.addscope_test_launch_on_native_thread.argtypes = [
    ctypes.c_void_p, ctypes.c_void_p, ctypes.c_char_p]
native.addscope_test_launch_many_on_native_thread.argtypes = [
    ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int]

# A package between the program and the library, as CuPy or PyTorch is:
# its frame is the innermost Python frame, and not the program's own.
pkg_dir = os.path.join(tempfile.mkdtemp(), "site-packages")
os.makedirs(pkg_dir)
with open(os.path.join(pkg_dir, "fakepkg.py"), "w") as f:
    # synchronize behind a decorator's wrapper (a closure), as numba's
    # require_context: the line called synchronize, not the wrapper.
    f.write("def call(fn, *args):\n    return fn(*args)\n\n\n"
            "def wraps_it(fn):\n"
            "    def wrapper(*args):\n        return fn(*args)\n"
            "    return wrapper\n\n\n"
            "@wraps_it\n"
            "def synchronize(fn, *args):\n    return call(fn, *args)\n")
sys.path.insert(0, pkg_dir)
import fakepkg  # noqa: E402

# The program's own module (not a package's) with a function whose line
# table is longer than the tool copies (16 KB; 10,000 lines take 20 KB in
# 3.9's co_lnotab and more after): the library's thread launches from its
# last line.
LONG_STEPS = 10000
long_path = os.path.join(os.path.dirname(pkg_dir), "longmod.py")
with open(long_path, "w") as f:
    f.write("def long_function(launch, *args):\n    x = 0\n")
    f.writelines("    x = x + 1\n" for _ in range(LONG_STEPS))
    f.write("    launch(*args)\n    return x\n")
LONG_LINE = LONG_STEPS + 3
sys.path.insert(0, os.path.dirname(long_path))
import longmod  # noqa: E402

# The program's own module whose file is deleted before the report is
# written (bad input): its launch at its file and line, with no text.
gone_path = os.path.join(os.path.dirname(pkg_dir), "gonemod.py")
with open(gone_path, "w") as f:
    f.write("def launch_gone(begin, end, kid_ref, kid):\n"
            "    begin(b'user::gone_kernel', 0, kid_ref)\n"
            "    end(kid)\n")
GONE_LINE = 2
import gonemod  # noqa: E402  (beside longmod)

LINES = {}


def launch():
    kid = ctypes.c_uint64()
    LINES["launch"] = line_after()
    fakepkg.call(lib.kokkosp_begin_parallel_for, b"user::py_kernel", 0,
                 ctypes.byref(kid))
    lib.kokkosp_end_parallel_for(kid)


def fence():
    handle = ctypes.c_uint64()
    lib.kokkosp_begin_fence(b"user::py_fence", 0, ctypes.byref(handle))
    time.sleep(0.002)  # long enough for its site to be taken
    LINES["fence"] = line_after()
    fakepkg.synchronize(lib.kokkosp_end_fence, handle)


def backward():
    """As `loss.backward()`: the library launches on its own thread."""
    LINES["native"] = line_after()
    fakepkg.call(native.addscope_test_launch_on_native_thread,
                 ctypes.cast(lib.kokkosp_begin_parallel_for, ctypes.c_void_p),
                 ctypes.cast(lib.kokkosp_end_parallel_for, ctypes.c_void_p),
                 b"user::native_thread_kernel")


def from_a_long_function():
    """As backward(), the program's line in a function whose line table is
    too long to copy."""
    longmod.long_function(native.addscope_test_launch_on_native_thread,
                          ctypes.cast(lib.kokkosp_begin_parallel_for,
                                      ctypes.c_void_p),
                          ctypes.cast(lib.kokkosp_end_parallel_for,
                                      ctypes.c_void_p),
                          b"user::from_a_long_function")


def after_a_thread_is_gone():
    """The last thread a line was read on has exited (its thread state
    freed): a kernel on the library's thread then reads nothing it trusts,
    and never crashes."""
    def in_a_thread():
        kid = ctypes.c_uint64()
        lib.kokkosp_begin_parallel_for(b"user::in_a_thread", 0,
                                       ctypes.byref(kid))
        lib.kokkosp_end_parallel_for(kid)

    t = threading.Thread(target=in_a_thread)
    t.start()
    t.join()
    native.addscope_test_launch_on_native_thread(
        ctypes.cast(lib.kokkosp_begin_parallel_for, ctypes.c_void_p),
        ctypes.cast(lib.kokkosp_end_parallel_for, ctypes.c_void_p),
        b"user::after_a_thread")


SPINS = 300


def while_a_thread_runs():
    """The last thread a line was read on runs Python code (its frames
    change under the read) while the library's thread launches SPINS kernels
    of new names: each reads that thread's frames; none may crash."""
    stop = threading.Event()

    LINES["spin_first"] = line_after()
    def spin(depth=0):
        if depth < 20:
            return spin(depth + 1)
        total = 0
        for i in range(1000):
            total += i
        return total

    def spinner():
        kid = ctypes.c_uint64()
        lib.kokkosp_begin_parallel_for(b"user::spinner", 0, ctypes.byref(kid))
        lib.kokkosp_end_parallel_for(kid)
        while not stop.is_set():
            spin()

    LINES["spin_last"] = line_after()
    t = threading.Thread(target=spinner)
    t.start()
    time.sleep(0.05)
    native.addscope_test_launch_many_on_native_thread(
        ctypes.cast(lib.kokkosp_begin_parallel_for, ctypes.c_void_p),
        ctypes.cast(lib.kokkosp_end_parallel_for, ctypes.c_void_p), SPINS)
    stop.set()
    t.join()


def launch_in_a_deleted_file():
    kid = ctypes.c_uint64()
    gonemod.launch_gone(lib.kokkosp_begin_parallel_for,
                        lib.kokkosp_end_parallel_for, ctypes.byref(kid), kid)
    os.remove(gone_path)


lib.kokkosp_init_library(0, 20211015, 0, None)
launch_in_a_deleted_file()
launch()
launch()
fence()
backward()
from_a_long_function()
after_a_thread_is_gone()
while_a_thread_runs()
lib.kokkosp_finalize_library()

fails = []
j = kokkos_tools_ctypes.read_report(json_path)
me = os.path.abspath(__file__)


with open(me) as f:
    my_lines = f.read().splitlines()


def check_code(code, line, function, called, what):
    ok = (isinstance(code, dict) and code.get("language") == "python"
          and os.path.abspath(code.get("file") or "") == me
          and code.get("line") == line and code.get("function") == function
          and code.get("text") == my_lines[line - 1].strip()
          and code.get("called") == called)
    if not ok:
        fails.append(f"{what} at {code!r}, not {me}:{line} ({function}) "
                     f"calling {called}")


def kernel_named(name):
    """The JSON's kernel of that name; None (a failure said) if none."""
    k = next((k for k in j.get("kernels") or [] if k.get("raw_name") == name),
             None)
    if k is None:
        fails.append(f"{name} not in kernels[]")
    return k


kernel = kernel_named("user::py_kernel")
if kernel is not None:
    check_code(kernel.get("launched_at"), LINES["launch"], "launch", "call",
               "the kernel's launch")
kernel = kernel_named("user::native_thread_kernel")
if kernel is not None:
    check_code(kernel.get("launched_at"), LINES["native"], "backward", "call",
               "the kernel launched on the library's own thread")
kernel = kernel_named("user::from_a_long_function")
if kernel is not None:
    at = kernel.get("launched_at") or {}
    if at.get("language") == "python" and (
            os.path.abspath(at.get("file") or "") != long_path
            or at.get("line") != LONG_LINE):
        fails.append(f"user::from_a_long_function read at {at!r}, not "
                     f"{long_path}:{LONG_LINE} nor a native frame")
kernel = kernel_named("user::gone_kernel")
at = (kernel or {}).get("launched_at") or {}
if kernel is not None and not (
        at.get("language") == "python"
        and os.path.abspath(at.get("file") or "") == gone_path
        and at.get("line") == GONE_LINE
        and at.get("function") == "launch_gone" and at.get("text") is None):
    fails.append(f"user::gone_kernel launched at {at!r}, not {gone_path}:"
                 f"{GONE_LINE} (launch_gone) with no text")
kernel_named("user::after_a_thread")
# Read while that thread ran: a line of spin() or spinner() where Python
# read one (else the library's native frame), never another or nonsense.
spun = [k for k in j.get("kernels") or []
        if (k.get("raw_name") or "").startswith("user::native_")
        and k["raw_name"][len("user::native_"):].isdigit()]
if len(spun) != SPINS:
    fails.append(f"{len(spun)} of the {SPINS} kernels on the library's thread")
for k in spun:
    at = k.get("launched_at") or {}
    if at.get("language") == "python" and (
            os.path.abspath(at.get("file") or "") != me
            or not LINES["spin_first"] <= (at.get("line") or 0)
            < LINES["spin_last"]):
        fails.append(f"{k.get('raw_name')} read at {at!r}")
site = next((s for s in j.get("sites") or []
             if "user::py_fence" in (s.get("site") or "")), None)
if site is None:
    fails.append("user::py_fence not in sites[]")
else:
    check_code(site.get("code"), LINES["fence"], "fence", "synchronize",
               "the fence")
for f in fails:
    print("FAIL:", f)
v = sys.version.split()[0]
print(f"SUMMARY python_sites {v} {'FAIL' if fails else 'PASS'}")
sys.exit(1 if fails else 0)
