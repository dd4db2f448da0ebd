"""The waits tool's Kokkos Tools entry points through ctypes, typed as Kokkos
calls them: what a Kokkos library a Python program loaded would call."""
import ctypes
import json
import os
import sys


def load(path):
    """The tool's library at `path`, its entry points typed."""
    lib = ctypes.CDLL(path)
    handle = ctypes.POINTER(ctypes.c_uint64)
    lib.kokkosp_init_library.argtypes = [ctypes.c_int, ctypes.c_uint64,
                                         ctypes.c_uint32, ctypes.c_void_p]
    for what in ("parallel_for", "fence"):
        getattr(lib, "kokkosp_begin_" + what).argtypes = [
            ctypes.c_char_p, ctypes.c_uint32, handle]
        getattr(lib, "kokkosp_end_" + what).argtypes = [ctypes.c_uint64]
    return lib


def report_to(json_path):
    """Asks the tool for its JSON report at `json_path` (read when the tool
    starts: call before it does), with no file left there from before (a
    path with %p: each process's own, none removed)."""
    os.environ["ADDSCOPE_WAITS_JSON"] = json_path
    if "%p" not in json_path and os.path.exists(json_path):
        os.remove(json_path)


def read_report(json_path):
    """The tool's JSON report at `json_path`; without one, says so (FAIL)
    and exits 1."""
    try:
        with open(json_path) as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        print(f"FAIL: no JSON report ({e})")
        sys.exit(1)
