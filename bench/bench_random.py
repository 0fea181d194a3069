"""Random generation throughput: tinytensor vs torch, seed for seed, measured in the same run (interleaved).

Run: `python bench/bench_random.py [--n 10000000] [--repeat 7]`. Each case seeds both generators alike, draws
`n` values, checks that tinytensor's numbers are torch's (bit for bit where chapter 25 says so), and reports
the median time of each library and the speed ratio (>1: tinytensor is faster). Target: `rand` of 10M float32
at >= 0.5x torch's speed.
"""
import argparse, statistics, time
import torch
import tinytensor as tt

CASES = [
    ('rand float32', lambda L, n: L.rand(n)),
    ('rand float64', lambda L, n: L.rand(n, dtype=L.float64)),
    ('uniform_(-1, 1) float32', lambda L, n: L.empty(n).uniform_(-1, 1)),
    ('randint(0, 1000) int64', lambda L, n: L.randint(0, 1000, (n,))),
    ('randn float32', lambda L, n: L.randn(n)),
    ('randperm', lambda L, n: L.randperm(n // 10)),
]

def timed(L, f, n, seed):
    L.manual_seed(seed)
    t = time.perf_counter(); r = f(L, n); return time.perf_counter() - t, r

def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument('--n', type=int, default=10_000_000)
    ap.add_argument('--repeat', type=int, default=7)
    a = ap.parse_args(argv)
    print(f"{'case':26s} {'tinytensor ms':>14s} {'torch ms':>10s} {'speed':>7s}  same numbers")
    for name, f in CASES:
        ta, tb = [], []
        for i in range(a.repeat):                 # interleave the two libraries
            da, ra = timed(tt, f, a.n, i); db, rb = timed(torch, f, a.n, i)
            ta.append(da); tb.append(db)
        ma, mb = statistics.median(ta), statistics.median(tb)
        x, y = ra.numpy(), rb.numpy()
        same = 'bits' if (x == y).all() else f'max |diff| {abs(x.astype(float) - y.astype(float)).max():.2g}'
        print(f"{name:26s} {ma * 1e3:14.1f} {mb * 1e3:10.1f} {mb / ma:6.2f}x  {same}")

if __name__ == '__main__': main()
