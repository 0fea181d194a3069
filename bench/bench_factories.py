"""Chapter 04 benchmark: tensor creation and metadata access, tinytensor vs numpy vs torch in one run.

Prints median times and the ratio tinytensor/torch. Target: `tt.empty(1024)` within 8x of torch.
Run: python bench/bench_factories.py
"""
import statistics, time
import numpy as np
import tinytensor as tt
try:
    import torch
    torch.set_num_threads(2)
except ImportError: torch = None

def _calibrate(f, target=0.02):
    "How many calls of `f` take about `target` seconds."
    n = 1
    while True:
        t0 = time.perf_counter()
        for _ in range(n): f()
        if time.perf_counter() - t0 > target: return n
        n *= 2

def interleaved(fs, rounds=15):
    "Median seconds per call of each function in `fs`, measured in alternating rounds (fair under load)."
    ns = [_calibrate(f) if f else 0 for f in fs]
    times = [[] for _ in fs]
    for _ in range(rounds):
        for i, (f, n) in enumerate(zip(fs, ns)):
            if not f: continue
            t0 = time.perf_counter()
            for _ in range(n): f()
            times[i].append((time.perf_counter() - t0) / n)
    return [statistics.median(t) if t else float('nan') for t in times]

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
        ttt, tnp, tto = interleaved([ftt, fnp, ftorch])
        print(f'{name:28s} {fmt(ttt):>13s} {fmt(tnp):>13s} {fmt(tto):>13s} {ttt / tto:9.2f}x')

if __name__ == '__main__': main()
