#!/usr/bin/env python3
"""Synchronizations as Python programs make them, in PyTorch, CuPy and
numba: the ones the program asks for (torch.cuda.synchronize(), an event's
or a stream's synchronize(), cuda.synchronize()) and the ones a framework
makes inside another call (.item(), .cpu(), float(), copy_to_host(),
cupy.asnumpy()). Each line that waits says what the waits tool must call
its wait, in a comment at its end: `waits: explicit` or `waits: hidden`;
check_classes.py reads those comments and the tool's JSON.

Each step gives the device ~20-40 ms of work first (a matrix product, or
a loop kernel), so that every marked line waits well past the tool's 10 us
threshold and takes its stack.
  python3 framework_syncs.py torch|cupy|cupy_threads|numba [STEPS]
(cupy_threads: four threads at once, each on its own stream.)
Prints "framework_syncs: FRAMEWORK STEPS steps, CHECKSUM" and exits 0.
"""
import sys


def with_torch(steps):
    import torch

    torch.manual_seed(0)
    model = torch.nn.Sequential(
        torch.nn.Linear(4096, 4096), torch.nn.ReLU(),
        torch.nn.Linear(4096, 1)).cuda()
    opt = torch.optim.SGD(model.parameters(), lr=1e-6)
    x = torch.randn(8192, 4096, device="cuda")
    y = torch.randn(8192, 1, device="cuda")
    done = torch.cuda.Event()
    total = 0.0
    for step in range(steps):
        opt.zero_grad()
        loss = torch.nn.functional.mse_loss(model(x), y)
        loss.backward()  # launches: on another thread
        opt.step()
        if step % 4 == 0:
            torch.cuda.synchronize()  # waits: explicit
        elif step % 4 == 1:
            done.record()
            done.synchronize()  # waits: explicit
        elif step % 4 == 2:
            total += float(loss.detach().cpu())  # waits: hidden
            continue
        total += loss.item()  # waits: hidden
    return total


def with_cupy(steps):
    import cupy as cp

    a = cp.random.random((4096, 4096), dtype=cp.float32)
    b = cp.random.random((4096, 4096), dtype=cp.float32)
    total = 0.0
    for step in range(steps):
        for _ in range(4):
            a = (a @ b) * (1.0 / 4096)
        if step % 4 == 0:
            cp.cuda.Device().synchronize()  # waits: explicit
        elif step % 4 == 1:
            cp.cuda.get_current_stream().synchronize()  # waits: explicit
        elif step % 4 == 2:
            total += float(cp.asnumpy(a[0, :1])[0])  # waits: hidden
            continue
        total += float(a[1, 1])  # waits: hidden
    return total


def with_cupy_threads(steps):
    """Four threads at once, each on a stream of its own: the same marked
    lines, reached by every thread while the others launch and wait."""
    import threading

    import cupy as cp

    totals = [0.0] * 4
    errors = []

    def work(k):
        try:
            with cp.cuda.Stream(non_blocking=True) as s:
                a = cp.random.random((2048, 2048), dtype=cp.float32)
                b = cp.random.random((2048, 2048), dtype=cp.float32)
                for step in range(steps):
                    for _ in range(8):
                        a = (a @ b) * (1.0 / 2048)
                    if step % 2 == 0:
                        s.synchronize()  # waits: explicit
                        continue
                    totals[k] += float(cp.asnumpy(a[0, :1])[0])  # waits: hidden
        except Exception as e:  # reported, not lost in the thread
            errors.append(e)

    threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if errors:
        raise errors[0]
    return sum(totals)


def with_numba(steps):
    import numpy as np

    if not hasattr(np, "row_stack"):  # numba-cuda still uses it
        np.row_stack = np.vstack
    from numba import cuda

    @cuda.jit("void(float32[:], int32)")
    def spin(v, rounds):  # 256 threads looping: ~10 ms
        i = cuda.grid(1)
        if i < v.shape[0]:
            s = v[i]
            for _ in range(rounds):
                s = s * 0.999999 + 1e-6
            v[i] = s

    v = cuda.to_device(np.ones(256, dtype=np.float32))
    cuda.synchronize()
    total = 0.0
    for step in range(steps):
        spin[1, 256](v, 5_000_000)
        if step % 2 == 0:
            cuda.synchronize()  # waits: explicit
            continue
        total += float(v.copy_to_host()[0])  # waits: hidden
    return total


def main():
    run = {"torch": with_torch, "cupy": with_cupy,
           "cupy_threads": with_cupy_threads, "numba": with_numba}
    if len(sys.argv) not in (2, 3) or sys.argv[1] not in run:
        sys.stderr.write(__doc__)
        return 2
    steps = int(sys.argv[2]) if len(sys.argv) == 3 else 12
    total = run[sys.argv[1]](steps)
    print(f"framework_syncs: {sys.argv[1]} {steps} steps, {total:.6g}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
