#!/usr/bin/env python3
"""The seed's own program (issue 24), with numba.cuda: a grid-stride add of
N float32 launched as 1 block x 1 thread, no synchronization, then a read of
out[2]. Prints the launch and the read times as the user saw them:
  seed_numba: N = 10000000, launch 0.39 ms, read of out[2] 735.0 ms (out[2] = 3.0)
Under addscope-waits the report says the read waited for the 1 x 1 kernel.
  python3 seed_numba.py [N]
"""
import sys
import time

import numpy as np

if not hasattr(np, "row_stack"):  # numba-cuda still uses it; numpy 2.5 removed it
    np.row_stack = np.vstack

from numba import cuda  # noqa: E402


# Compiled here (the signature is given), so that the launch timed below
# is a launch, not a compilation.
@cuda.jit("void(float32[:], float32[:], float32[:])")
def add(x, y, out):
    start = cuda.grid(1)
    stride = cuda.gridsize(1)
    for i in range(start, x.shape[0], stride):
        out[i] = x[i] + y[i]


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 10**7
    x = cuda.to_device(np.ones(n, dtype=np.float32))
    y = cuda.to_device(np.full(n, 2.0, dtype=np.float32))
    out = cuda.device_array(n, dtype=np.float32)
    cuda.synchronize()
    t0 = time.perf_counter()
    add[1, 1](x, y, out)  # 1 block x 1 thread: the seed's launch
    t1 = time.perf_counter()
    v = out[2]  # a copy of one element to the host
    t2 = time.perf_counter()
    print(f"seed_numba: N = {n}, launch {(t1 - t0) * 1e3:.2f} ms, "
          f"read of out[2] {(t2 - t1) * 1e3:.1f} ms (out[2] = {v})")
    return 0 if v == 3.0 else 1


if __name__ == "__main__":
    sys.exit(main())
