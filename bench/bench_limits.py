"""How close does tinytensor's CPU path come to this machine's limits? One run measures the limits and the cases.

Limits, measured first with numpy split over the same thread count as tinytensor, on row blocks with a thread pool:
- elementwise limit: `np.add(a, b, out=o)` into a warm, preallocated output (2 reads + 1 write per element);
- read limit: numpy's contiguous `sum` over the blocks (1 read per element);
- exp limit: `np.exp(a, out=o)` into a warm output (exp is compute-bound on one core, so it has its own limit).
Then each case is timed for tinytensor interleaved round by round with its limit (so load drifts and other libraries'
page-fault churn hit both alike), then for numpy and torch (interleaved rounds, median of the rounds; torch gets the
same number of threads), and printed with tinytensor's throughput as a fraction of that limit (bytes = reads + writes;
elementwise cases against the elementwise limit, reductions against the read limit) beside the tt/numpy and
tt/torch time ratios (exp against the exp limit). A fraction above 100% means the limit itself is not bandwidth-bound there (numpy's
pairwise sum does arithmetic per element that `amax` does not). Tiny cases (views, item, 4x4 add) have no meaningful byte count: only the ratios are printed,
and their three libraries are timed in the same interleaved rounds (they allocate nothing big, and a slow phase of this
shared machine lasting seconds would otherwise land on one library's rounds only: 4x4 add measured 2.7x and 3.8x torch in
two runs timed apart).
tinytensor's inputs live in tinytensor's own memory (`clone()`), numpy's and torch's in theirs: where an output
starts a few bytes past an input modulo 4 KiB, every load waits on a recent store (4K aliasing, about 15% on exp),
and numpy's allocations sit at another page offset than ours.
Last, memory: RSS before and after 1000 rounds of `c = a + b` on the big vectors (growth against one result), and
before and after the CPU allocator's `empty_cache()`.
Run: python bench/bench_limits.py [--quick] [--threads N] [--plain]
"""
import argparse, os, statistics, time
# torch's OpenMP workers spin after each parallel region; with as many threads as cores they would take the cores
# from whichever library is timed next. Passive waiting costs torch nothing measurable on these millisecond cases.
os.environ.setdefault('OMP_WAIT_POLICY', 'PASSIVE')
from concurrent.futures import ThreadPoolExecutor
import numpy as np
import tinytensor as tt
try: import torch
except ImportError: torch = None

def calls_for(f, target=0.05):
    "How many calls of `f` take about `target` seconds (at least 1)."
    f(); number, t = 1, 0.0
    while True:
        t0 = time.perf_counter()
        for _ in range(number): f()
        t = time.perf_counter() - t0
        if t >= target or number > 1 << 20: return number
        number *= 2

def interleaved(fs, repeat, target):
    "Median seconds per call of each function in `fs`, timing them round-robin so load drifts hit all alike."
    numbers = [calls_for(f, target) if f else 0 for f in fs]
    runs = [[] for _ in fs]
    for _ in range(repeat):
        for i, f in enumerate(fs):
            if f is None: continue
            t0 = time.perf_counter()
            for _ in range(numbers[i]): f()
            runs[i].append((time.perf_counter() - t0) / numbers[i])
    return [statistics.median(r) if r else float('nan') for r in runs]

def blocks(n, nt): return [(i * n // nt, (i + 1) * n // nt) for i in range(nt)]

def limit_fns(n, nt):
    "The limit measurements over `nt` threads, as {kind: (function, bytes moved per call)}."
    rng = np.random.default_rng(1)
    a, b = rng.standard_normal(n, dtype=np.float32), rng.standard_normal(n, dtype=np.float32)
    o = np.empty_like(a); o[:] = 0                       # warm: every page already faulted in
    pool = ThreadPoolExecutor(nt)
    bl = blocks(n, nt)
    def add(): list(pool.map(lambda r: np.add(a[r[0]:r[1]], b[r[0]:r[1]], out=o[r[0]:r[1]]), bl))
    def read(): return sum(pool.map(lambda r: a[r[0]:r[1]].sum(), bl))
    def exp(): list(pool.map(lambda r: np.exp(a[r[0]:r[1]], out=o[r[0]:r[1]]), bl))
    return {'e': (add, 3 * a.nbytes), 'r': (read, a.nbytes), 'x': (exp, 2 * a.nbytes)}

def rss() -> int:
    "Resident set size of this process in bytes (Linux /proc; else the peak from getrusage)."
    try:
        with open('/proc/self/statm') as f: return int(f.read().split()[1]) * os.sysconf('SC_PAGE_SIZE')
    except OSError:
        import resource
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024

def memory(a, b, rounds):
    "RSS growth over `rounds` of `c = a + b`, then what `empty_cache()` gives back."
    mib = lambda x: f'{x / 2**20:8.1f} MiB'
    one = a.numel() * a.element_size()
    c = a + b; del c                                     # the first result: the cache's block for this size
    before = rss()
    for _ in range(rounds): c = a + b
    del c
    after = rss()
    al = tt.allocator.get_allocator()
    print(f'memory: {rounds} x c = a + b ({mib(one).strip()} each): RSS {mib(before)} -> {mib(after)}, grew {mib(after - before)} '
          f'(bound: 2 results = {mib(2 * one).strip()})')
    if hasattr(al, 'empty_cache'):
        cached = al.memory_stats()['cached_bytes.current']
        al.empty_cache()
        print(f'memory: empty_cache() with {mib(cached).strip()} cached: RSS {mib(after)} -> {mib(rss())}')

def fmt(s): return f'{s * 1e6:9.2f} us' if s < 1e-3 else f'{s * 1e3:9.2f} ms'

def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument('--quick', action='store_true', help='smaller sizes and fewer repeats')
    p.add_argument('--threads', type=int, default=None, help='threads for tinytensor, torch and the limits')
    p.add_argument('--plain', action='store_true', help="register the plain DefaultCPUAllocator instead of the default bounded cache")
    o = p.parse_args(argv)
    if o.plain: tt.allocator.set_allocator(tt.allocator.DeviceType.CPU, tt.allocator.DefaultCPUAllocator())
    nt = o.threads or tt.get_num_threads() or os.cpu_count() or 1
    tt.set_num_threads(nt)
    if torch: torch.set_num_threads(nt)
    n, m = (1 << 22, 2048) if o.quick else (1 << 24, 4096)
    repeat, target = (3, 0.02) if o.quick else (7, 0.1)
    lims = limit_fns(n, nt)
    elim, rlim, xlim = (nb / t for (f, nb), t in zip(lims.values(), interleaved([f for f, _ in lims.values()], repeat, target)))
    load = os.getloadavg() if hasattr(os, 'getloadavg') else (float('nan'),) * 3
    print(f'threads={nt} (tinytensor, torch, limits); CPU allocator {type(tt.allocator.get_allocator()).__name__}; load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}')
    print(f'elementwise limit (np.add into warm output, {nt} threads): {elim / 1e9:6.2f} GB/s')
    print(f'read limit (np sum over blocks, {nt} threads):           {rlim / 1e9:6.2f} GB/s')
    print(f'exp limit (np.exp into warm output, {nt} threads):       {xlim / 1e9:6.2f} GB/s')

    rng = np.random.default_rng(0)
    f32 = lambda *s: rng.standard_normal(s, dtype=np.float32)
    a_np, b_np, A_np, B_np, row_np = f32(n), f32(n), f32(m, m), f32(m, m), f32(m)
    s_np, s2_np = f32(4, 4), f32(4, 4)
    mask_np = a_np > 0
    cats_np = [f32(n // 8) for _ in range(8)]
    h_np, h2_np = a_np.astype(np.float16), b_np.astype(np.float16)
    T = lambda x: tt.from_numpy(x).clone()              # tinytensor memory, as a program of tensors has (Note in the docstring)
    a, b, A, B, row, s, s2, mask = (T(x) for x in (a_np, b_np, A_np, B_np, row_np, s_np, s2_np, mask_np))
    cats = [T(x) for x in cats_np]
    h, h2 = T(h_np), T(h2_np)
    bf, bf2 = a.to(tt.bfloat16), b.to(tt.bfloat16)
    if torch:
        P = lambda x: torch.from_numpy(x.copy())
        a_t, b_t, A_t, B_t, row_t, s_t, s2_t, mask_t = (P(x) for x in (a_np, b_np, A_np, B_np, row_np, s_np, s2_np, mask_np))
        cats_t = [P(x) for x in cats_np]
        h_t, h2_t = P(h_np), P(h2_np)
        bf_t, bf2_t = a_t.to(torch.bfloat16), b_t.to(torch.bfloat16)
    else: a_t = b_t = A_t = B_t = row_t = s_t = s2_t = mask_t = cats_t = h_t = h2_t = bf_t = bf2_t = None
    tor = (lambda f: f) if torch else (lambda f: None)
    E, R, X = 'e', 'r', 'x'                              # which limit a case is measured against
    nb, mb = 4 * n, 4 * m * m
    cases = [  # name, bytes moved (reads + writes), limit kind, tinytensor, numpy, torch
        (f'add {n >> 20}M f32', 3 * nb, E, lambda: a + b, lambda: a_np + b_np, tor(lambda: a_t + b_t)),
        (f'mul {n >> 20}M f32', 3 * nb, E, lambda: a * b, lambda: a_np * b_np, tor(lambda: a_t * b_t)),
        (f'exp {n >> 20}M f32', 2 * nb, X, lambda: tt.exp(a), lambda: np.exp(a_np), tor(lambda: torch.exp(a_t))),
        (f'where {n >> 20}M f32', 3 * nb + n, E, lambda: tt.where(mask, a, b), lambda: np.where(mask_np, a_np, b_np),
         tor(lambda: torch.where(mask_t, a_t, b_t))),
        (f'add {n >> 20}M f16', 3 * nb // 2, E, lambda: h + h2, lambda: h_np + h2_np, tor(lambda: h_t + h2_t)),
        (f'add {n >> 20}M bf16', 3 * nb // 2, E, lambda: bf + bf2, None, tor(lambda: bf_t + bf2_t)),
        (f'a + row {m}^2', 2 * mb + 4 * m, E, lambda: A + row, lambda: A_np + row_np, tor(lambda: A_t + row_t)),
        (f'A + B.T {m}^2', 3 * mb, E, lambda: A + B.t(), lambda: A_np + B_np.T, tor(lambda: A_t + B_t.T)),
        (f'A.T.contiguous() {m}^2', 2 * mb, E, lambda: A.t().contiguous(), lambda: np.ascontiguousarray(A_np.T),
         tor(lambda: A_t.T.contiguous())),
        (f'sum(0) {m}^2', mb + 4 * m, R, lambda: A.sum(0), lambda: A_np.sum(0), tor(lambda: A_t.sum(0))),
        (f'sum(1) {m}^2', mb + 4 * m, R, lambda: A.sum(1), lambda: A_np.sum(1), tor(lambda: A_t.sum(1))),
        (f'mean {m}^2', mb, R, lambda: A.mean(), lambda: A_np.mean(), tor(lambda: A_t.mean())),
        (f'amax {m}^2', mb, R, lambda: A.amax(), lambda: A_np.max(), tor(lambda: A_t.amax())),
        (f'cat 8x{n >> 3} f32', 2 * nb, E, lambda: tt.cat(cats), lambda: np.concatenate(cats_np),
         tor(lambda: torch.cat(cats_t))),
        ('add 4x4', 0, None, lambda: s + s2, lambda: s_np + s2_np, tor(lambda: s_t + s2_t)),
        ('4x4 + python scalar', 0, None, lambda: s + 1.5, lambda: s_np + 1.5, tor(lambda: s_t + 1.5)),
        ('view t()', 0, None, lambda: A.t(), lambda: A_np.T, tor(lambda: A_t.t())),
        ('view view(-1)', 0, None, lambda: A.view(-1), lambda: A_np.reshape(-1), tor(lambda: A_t.view(-1))),
        ('view slice [1:-1]', 0, None, lambda: A[1:-1], lambda: A_np[1:-1], tor(lambda: A_t[1:-1])),
        ('view transpose(0,1)', 0, None, lambda: A.transpose(0, 1), lambda: A_np.swapaxes(0, 1),
         tor(lambda: A_t.transpose(0, 1))),
        ('view select(0, 1)', 0, None, lambda: A.select(0, 1), lambda: A_np[1], tor(lambda: A_t.select(0, 1))),
        ('view unsqueeze(0)', 0, None, lambda: A.unsqueeze(0), lambda: A_np[None], tor(lambda: A_t.unsqueeze(0))),
        ('item()', 0, None, lambda: s[0, 0].item(), lambda: s_np[0, 0].item(), tor(lambda: s_t[0, 0].item())),
        ('empty(16)', 0, None, lambda: tt.empty(16), lambda: np.empty(16, np.float32), tor(lambda: torch.empty(16))),
        ('ones(16)', 0, None, lambda: tt.ones(16), lambda: np.ones(16, np.float32), tor(lambda: torch.ones(16))),
    ]
    print(f"{'case':24s} {'tinytensor':>12s} {'numpy':>12s} {'torch':>12s} {'tt GB/s':>8s} {'of limit':>8s} "
          f"{'tt/numpy':>9s} {'tt/torch':>9s}")
    for name, nbytes, kind, ftt, fnp, fto in cases:
        if nbytes:                                       # tinytensor interleaved with its own limit, then the others
            flim, lim_bytes = lims[kind]
            tlim, ttt = interleaved([flim, ftt], repeat, target)
            tnp, tto = interleaved([fnp, fto], repeat, target)
        else: ttt, tnp, tto = interleaved([ftt, fnp, fto], repeat, target)   # microseconds: all three in the same rounds
        if nbytes:
            gbs = nbytes / ttt
            frac = f'{gbs / (lim_bytes / tlim):7.0%}'
            gbs = f'{gbs / 1e9:8.2f}'
        else: gbs, frac = f"{'-':>8s}", f"{'-':>8s}"
        print(f'{name:24s} {fmt(ttt):>12s} {fmt(tnp) if fnp else "-":>12s} {fmt(tto) if fto else "-":>12s} '
              f'{gbs} {frac:>8s} {ttt / tnp:8.2f}x {ttt / tto:8.2f}x', flush=True)
    del cases
    memory(a, b, 100 if o.quick else 1000)
    print(f'load average after: {" ".join(f"{x:.2f}" for x in os.getloadavg())}')

if __name__ == '__main__': main()
