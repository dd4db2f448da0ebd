#!/usr/bin/env python3
"""The seed's program with CuPy alone (issue 24): a cupy.RawKernel with the
same grid-stride add, launched ((1,), (1,)), no synchronization, then a read
of out[2]. Prints the launch and the read times:
  seed_cupy: N = 10000000, launch 0.14 ms, read of out[2] 575.0 ms (out[2] = 3.0)
  python3 seed_cupy.py [N]
"""
import sys
import time

import cupy as cp

SOURCE = r"""
extern "C" __global__ void add(const float* x, const float* y, float* out,
                               long long n) {
  long long start = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  long long stride = (long long)gridDim.x * blockDim.x;
  for (long long i = start; i < n; i += stride) out[i] = x[i] + y[i];
}
"""


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 10**7
    add = cp.RawKernel(SOURCE, "add")
    add.compile()  # so that the launch timed below is a launch
    x = cp.ones(n, dtype=cp.float32)
    y = cp.full(n, 2.0, dtype=cp.float32)
    out = cp.empty_like(x)
    cp.cuda.Device().synchronize()
    t0 = time.perf_counter()
    add((1,), (1,), (x, y, out, cp.int64(n)))  # 1 block x 1 thread
    t1 = time.perf_counter()
    v = float(out[2])  # a copy of one element to the host
    t2 = time.perf_counter()
    print(f"seed_cupy: N = {n}, launch {(t1 - t0) * 1e3:.2f} ms, "
          f"read of out[2] {(t2 - t1) * 1e3:.1f} ms (out[2] = {v})")
    return 0 if v == 3.0 else 1


if __name__ == "__main__":
    sys.exit(main())
