"""Chapter 04 benchmark: tensor creation and metadata access, tinytensor vs numpy vs torch in one run.

Prints median times and the ratio tinytensor/torch. Target (issue #2): `tt.empty(1024)` within 8x of torch.
Run: python bench/bench_factories.py
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
    if number is None:
        number, t = 1, 0.0
        while t < 0.05:
            number *= 2
            t0 = time.perf_counter()
            for _ in range(number): f()
            t = time.perf_counter() - t0
    runs = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        for _ in range(number): f()
        runs.append((time.perf_counter() - t0) / number)
    return statistics.median(runs)

def fmt(s): return f'{s * 1e6:10.2f} us' if s < 1e-2 else f'{s * 1e3:10.2f} ms'

def main():
    data = [[float(i * 10 + j) for j in range(10)] for i in range(100)]
    a_tt, a_np = tt.empty(32, 64), np.empty((32, 64), np.float32)
    a_t = torch.empty(32, 64) if torch else None
    cases = [
        ('tensor from a 100x10 list', lambda: tt.tensor(data), lambda: np.array(data, dtype=np.float32), (lambda: torch.tensor(data)) if torch else None),
        ('empty(1024)', lambda: tt.empty(1024), lambda: np.empty(1024, np.float32), (lambda: torch.empty(1024)) if torch else None),
        ('zeros(1000, 1000)', lambda: tt.zeros(1000, 1000), lambda: np.zeros((1000, 1000), np.float32), (lambda: torch.zeros(1000, 1000)) if torch else None),
        ('t.stride()', lambda: a_tt.stride(), lambda: a_np.strides, (lambda: a_t.stride()) if torch else None),
    ]
    print(f"{'operation':28s} {'tinytensor':>13s} {'numpy':>13s} {'torch':>13s} {'tt/torch':>9s}")
    for name, ftt, fnp, ftorch in cases:
        ttt, tnp = median_time(ftt), median_time(fnp)
        tto = median_time(ftorch) if ftorch else float('nan')
        print(f'{name:28s} {fmt(ttt):>13s} {fmt(tnp):>13s} {fmt(tto):>13s} {ttt / tto:9.2f}x')

if __name__ == '__main__': main()
