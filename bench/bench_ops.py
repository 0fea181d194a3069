"""Chapter 06 benchmark: elementwise ops and reductions, tinytensor vs numpy vs torch (2 threads) in one run.

Targets: large elementwise ops no slower than numpy (tt/np <= 1.05); `A + B.T` at least 2x faster than
numpy and torch (tiling); `a + b` on 4x4 within 8x of torch. Prints median times and the ratios.
Run: python bench/bench_ops.py
"""
import statistics, time
import numpy as np
import tinytensor as tt
try:
    import torch
    torch.set_num_threads(2)
except ImportError: torch = None

def median_time(f, repeat=7, number=None):
    "Median seconds per call of `f` over `repeat` runs of `number` calls."
    f()
    if number is None:
        number, t = 1, 0.0
        while t < 0.2:
            t0 = time.perf_counter()
            for _ in range(number): f()
            t = time.perf_counter() - t0
            if t < 0.2: number *= 2
    runs = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        for _ in range(number): f()
        runs.append((time.perf_counter() - t0) / number)
    return statistics.median(runs)

def fmt(s): return f'{s * 1e6:9.2f} us' if s < 1e-3 else f'{s * 1e3:9.2f} ms'

def main():
    tt.set_num_threads(2)
    rng = np.random.default_rng(0)
    n = 1 << 24
    a_np, b_np = rng.standard_normal(n, dtype=np.float32), rng.standard_normal(n, dtype=np.float32)
    A_np, B_np = rng.standard_normal((4096, 4096), dtype=np.float32), rng.standard_normal((4096, 4096), dtype=np.float32)
    row_np = rng.standard_normal(4096, dtype=np.float32)
    s_np, s2_np = rng.standard_normal((4, 4), dtype=np.float32), rng.standard_normal((4, 4), dtype=np.float32)
    # every library gets its own copy of the same numpy-allocated inputs (torch.from_numpy / tt.from_numpy)
    a, b, A, B, row, s, s2 = (tt.from_numpy(x.copy()) for x in (a_np, b_np, A_np, B_np, row_np, s_np, s2_np))
    Bt = B.t() if hasattr(tt.Tensor, 't') else tt.tensor_impl.alias_with_sizes_and_strides(B, (4096, 4096), (1, 4096))
    if torch:
        a_t, b_t, A_t, B_t, row_t, s_t, s2_t = (torch.from_numpy(x.copy()) for x in (a_np, b_np, A_np, B_np, row_np, s_np, s2_np))
    cases = [
        ('add 16M float32', lambda: a + b, lambda: a_np + b_np, (lambda: a_t + b_t) if torch else None),
        ('exp 16M float32', lambda: tt.exp(a), lambda: np.exp(a_np), (lambda: torch.exp(a_t)) if torch else None),
        ('A + B.T 4096x4096', lambda: A + Bt, lambda: A_np + B_np.T, (lambda: A_t + B_t.T) if torch else None),
        ('A + row 4096x4096', lambda: A + row, lambda: A_np + row_np, (lambda: A_t + row_t) if torch else None),
        ('sum(dim=0) 4096x4096', lambda: A.sum(0), lambda: A_np.sum(0), (lambda: A_t.sum(0)) if torch else None),
        ('a + b on 4x4', lambda: s + s2, lambda: s_np + s2_np, (lambda: s_t + s2_t) if torch else None),
    ]
    print(f"tinytensor threads={tt.get_num_threads()}, torch threads={torch.get_num_threads() if torch else '-'}, numpy single-threaded")
    print(f"{'operation':24s} {'tinytensor':>12s} {'numpy':>12s} {'torch':>12s} {'tt/numpy':>9s} {'tt/torch':>9s}")
    for name, ftt, fnp, fto in cases:
        ttt, tnp = median_time(ftt), median_time(fnp)
        tto = median_time(fto) if fto else float('nan')
        print(f'{name:24s} {fmt(ttt):>12s} {fmt(tnp):>12s} {fmt(tto):>12s} {ttt / tnp:8.2f}x {ttt / tto:8.2f}x')

if __name__ == '__main__': main()
