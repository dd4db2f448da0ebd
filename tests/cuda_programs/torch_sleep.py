#!/usr/bin/env python3
"""A PyTorch program that waits without asking to: torch.cuda._sleep() spins
one GPU thread (a 1 x 1 kernel) for about MS milliseconds, then
x.sum().item() reads the sum on the host, which waits for the spin. Prints
the launch and the read times:
  torch_sleep: spin 500 ms asked, launch 0.02 ms, x.sum().item() 500.3 ms (= 1000.0)
  python3 torch_sleep.py [MS]
The spin's cycles per millisecond are measured first (a 10^7-cycle spin
timed with CUDA events, synchronized: a short explicit wait), after a
short spin that loads the kernel's module (CUDA loads modules lazily: a
first launch timed with events would count the loading as spinning).
"""
import sys
import time

import torch


def main():
    ms = float(sys.argv[1]) if len(sys.argv) > 1 else 500.0
    x = torch.ones(1000, device="cuda")
    torch.cuda.synchronize()
    begin = torch.cuda.Event(enable_timing=True)
    end = torch.cuda.Event(enable_timing=True)
    torch.cuda._sleep(1000)  # loads spin_kernel's module
    torch.cuda.synchronize()
    probe = 10_000_000
    begin.record()
    torch.cuda._sleep(probe)
    end.record()
    end.synchronize()
    cycles = int(probe * ms / max(begin.elapsed_time(end), 1e-3))
    torch.cuda.synchronize()
    t0 = time.perf_counter()
    torch.cuda._sleep(cycles)  # spin_kernel<<<1, 1>>>
    t1 = time.perf_counter()
    s = x.sum().item()  # copies the sum to the host: waits for the spin
    t2 = time.perf_counter()
    print(f"torch_sleep: spin {ms:.0f} ms asked ({cycles} cycles), launch "
          f"{(t1 - t0) * 1e3:.2f} ms, x.sum().item() {(t2 - t1) * 1e3:.1f} ms "
          f"(= {s})")
    return 0 if s == 1000.0 else 1


if __name__ == "__main__":
    sys.exit(main())
