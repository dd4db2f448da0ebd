#!/usr/bin/env python3
"""Drives ctypes_lib.cpp's Kokkos library from Python through ctypes, as a
program that wraps its Kokkos code for Python would:

  ctypes_driver.py LIBRARY [no-finalize]

The lines that call into the library say so (`# calls: ...`): the waits
tool must name them (check_ctypes.py). With `no-finalize` the script ends
without finalizing Kokkos: the interpreter exits with the library and the
tool still loaded (the tool reports at exit).
"""
import ctypes
import sys


def main():
    lib = ctypes.CDLL(sys.argv[1])
    lib.addscope_ctypes_step.restype = ctypes.c_double
    lib.addscope_ctypes_step.argtypes = [ctypes.c_long]
    lib.addscope_ctypes_init()  # calls: init
    n = 1 << 22
    total = 0.0
    for _ in range(3):
        total += lib.addscope_ctypes_step(n)  # calls: step
    if sys.argv[2:] != ["no-finalize"]:
        lib.addscope_ctypes_finalize()  # calls: finalize
    want = 3 * 0.5 * (n - 1)
    print(f"ctypes_driver: {total} ({'ok' if total == want else 'WRONG'})")
    return 0 if total == want else 1


if __name__ == "__main__":
    sys.exit(main())
