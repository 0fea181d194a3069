"""CUDA benchmark: tinytensor vs torch vs CuPy on one GPU, with effective bandwidth (GB/s).

Cases: add of two 256M float32 vectors; `A + B.T` at 16384^2 float32 (the tiled kernel of chapter 07c); sum(0) and
sum(1) at 16384^2; allocation + free of 1 MiB tensors per second (the caching allocator) vs torch.empty and cupy.empty.
Run: python bench/bench_cuda.py   (exits with a message when there is no GPU)
"""
import gc, statistics, sys, time

def _gpu():
    try:
        import cupy
        return cupy if cupy.cuda.runtime.getDeviceCount() > 0 else None
    except Exception: return None

def timed(f, sync, repeat=7, number=None):
    "Median seconds per call of `f`, synchronising the device around each run."
    f(); sync()
    if number is None:
        number, t = 1, 0.0
        while t < 0.2:
            t0 = time.perf_counter()
            for _ in range(number): f()
            sync(); t = time.perf_counter() - t0
            if t < 0.2: number *= 2
    runs = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        for _ in range(number): f()
        sync(); runs.append((time.perf_counter() - t0) / number)
    return statistics.median(runs)

def main():
    cp = _gpu()
    if cp is None:
        print("bench_cuda: no CUDA GPU with CuPy here; nothing to measure.")
        return 0
    import numpy as np
    import tinytensor as tt
    try:
        import torch
        if not torch.cuda.is_available(): torch = None
    except ImportError: torch = None
    sync = lambda: (cp.cuda.runtime.deviceSynchronize(), torch.cuda.synchronize() if torch else None)
    print(f"device: {cp.cuda.runtime.getDeviceProperties(0)['name'].decode()}, torch: {torch.__version__ if torch else 'no CUDA torch'}")
    n, m = 256 << 20, 16384
    rows = []
    def case(name, nbytes, ftt, ftorch, fcp):
        r = [name]
        for f in (ftt, ftorch, fcp):
            if f is None: r.append(None); continue
            r.append(timed(f, sync))
        rows.append((r, nbytes))
    a, b = tt.empty(n, device='cuda'), tt.empty(n, device='cuda')
    a.fill_(1.0); b.fill_(2.0)
    ca, cb = cp.ones(n, cp.float32), cp.ones(n, cp.float32)
    ta, tb = (torch.ones(n, device='cuda'), torch.ones(n, device='cuda')) if torch else (None, None)
    case('add 256M float32', 3 * 4 * n, lambda: a + b, (lambda: ta + tb) if torch else None, lambda: ca + cb)
    del a, b, ca, cb, ta, tb; gc.collect(); tt.cuda.empty_cache()
    A, B = tt.empty(m, m, device='cuda').fill_(1.0), tt.empty(m, m, device='cuda').fill_(2.0)
    cA, cB = cp.ones((m, m), cp.float32), cp.ones((m, m), cp.float32)
    tA, tB = (torch.ones(m, m, device='cuda'), torch.ones(m, m, device='cuda')) if torch else (None, None)
    case('A + B.T 16384^2 float32', 3 * 4 * m * m, lambda: A + B.T, (lambda: tA + tB.T) if torch else None, lambda: cA + cB.T)
    case('sum(0) 16384^2', 4 * m * m, lambda: A.sum(0), (lambda: tA.sum(0)) if torch else None, lambda: cA.sum(0))
    case('sum(1) 16384^2', 4 * m * m, lambda: A.sum(1), (lambda: tA.sum(1)) if torch else None, lambda: cA.sum(1))
    del A, B, cA, cB, tA, tB; gc.collect()
    k = 1 << 18                                                       # 1 MiB of float32
    def churn(make):
        def f():
            for _ in range(100): x = make(); del x
        return f
    case('alloc+free 1 MiB (x100)', 0, churn(lambda: tt.empty(k, device='cuda')),
         churn(lambda: torch.empty(k, device='cuda')) if torch else None, churn(lambda: cp.empty(k, cp.float32)))
    fmt = lambda s: '-' if s is None else (f'{s * 1e6:9.1f} us' if s < 1e-3 else f'{s * 1e3:9.2f} ms')
    gbs = lambda s, nb: '-' if s is None or not nb else f'{nb / s / 1e9:7.0f}'
    print(f"{'case':26s} {'tinytensor':>12s} {'torch':>12s} {'cupy':>12s} {'tt GB/s':>8s} {'torch GB/s':>10s} {'cupy GB/s':>9s}")
    for (name, t1, t2, t3), nb in rows:
        if not nb:
            per = lambda s: '-' if s is None else f'{100 / s:,.0f}/s'
            print(f"{name:26s} {per(t1):>12s} {per(t2):>12s} {per(t3):>12s}")
            continue
        print(f"{name:26s} {fmt(t1):>12s} {fmt(t2):>12s} {fmt(t3):>12s} {gbs(t1, nb):>8s} {gbs(t2, nb):>10s} {gbs(t3, nb):>9s}")
    return 0

if __name__ == '__main__': sys.exit(main())
