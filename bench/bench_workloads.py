"""User-level workloads: tinytensor against torch and numpy, with one and with two threads.

- the MLP forward 784-512-256-10 (`x @ w + b`, relu, log_softmax) at batches 8, 256 and 4096;
- a softmax-attention block (`q @ k.T / sqrt(d)`, softmax, `@ v`) at sequence lengths 16 and 512 (d = 64);
- layer-norm written with mean and var over the last dim (`(x - mean) / sqrt(var + eps) * g + b`), 8x512 and 4096x512;
- a channels_last conv-as-matmul: `unfold` twice, permute, reshape (the im2col copy), `@`, reshape back (3x3, 64 -> 64
  channels, 8x28x28 images; numpy: `sliding_window_view`);
- with `--ops`, the single ops on an 8x512 float32 `h`: `h + bias`, `h.relu()`, `h.sum(1)`, `h.log_softmax(1)`,
  `h.t().contiguous()`, `h.mean(1)`, `h.var(1)`, `x @ w` (8x784 @ 784x512).
Every result is checked against torch's (allclose) before timing. The machine is shared, so the three libraries are
timed interleaved in one process: round by round tt, torch, numpy alternate, and each figure is the minimum over
the rounds of the mean time per call. torch, numpy's BLAS (through `large_tensors._blas`, the OpenBLAS
setter tinytensor's products use) and tinytensor get the same thread count, and idle workers do not spin into the
next library's turn (OMP_WAIT_POLICY=PASSIVE for torch, OPENBLAS_THREAD_TIMEOUT=4 for numpy's OpenBLAS).
Run: python bench/bench_workloads.py [--threads 1 2] [--ops] [--quick]
"""
import argparse, math, os, time
os.environ.setdefault('OMP_WAIT_POLICY', 'PASSIVE')     # torch's OpenMP workers must not spin between its calls
os.environ.setdefault('OPENBLAS_THREAD_TIMEOUT', '4')   # nor numpy's OpenBLAS workers (2**4 cycles, not the default 2**28):
                                                       # spinning, they take a core from whichever library runs next
import numpy as np
import torch
import tinytensor as tt
try: from tinytensor.large_tensors import _blas
except ImportError: _blas = {'set': None}                  # a tinytensor without `use_blas_threads`: numpy's BLAS as is

def np_blas(n):
    "numpy's BLAS threads, set as tinytensor's products set them (`use_blas_threads`)."
    if _blas['set'] is not None and _blas['cur'] != n: _blas['set'](n); _blas['cur'] = n

def timeit(fs, rounds, target):
    "Min over `rounds` of the mean seconds per call of each function, the functions interleaved round by round."
    numbers = []
    for f in fs:
        f(); n, t = 1, 0.0
        while True:
            t0 = time.perf_counter()
            for _ in range(n): f()
            t = time.perf_counter() - t0
            if t >= target or n > 1 << 16: break
            n *= 2
        numbers.append(n)
    best = [math.inf] * len(fs)
    for _ in range(rounds):
        for i, f in enumerate(fs):
            t0 = time.perf_counter()
            for _ in range(numbers[i]): f()
            best[i] = min(best[i], (time.perf_counter() - t0) / numbers[i])
    return best

# ---- the workloads, one function per library -------------------------------------------------------------------
def mlp_params(lib, rng):
    ps = [(rng.standard_normal((i, o), dtype=np.float32) * 0.05, rng.standard_normal(o, dtype=np.float32) * 0.05)
          for i, o in ((784, 512), (512, 256), (256, 10))]
    return [(lib(w), lib(b)) for w, b in ps]

def mlp(x, ps):
    (w1, b1), (w2, b2), (w3, b3) = ps
    h = (x @ w1 + b1).relu()
    h = (h @ w2 + b2).relu()
    return (h @ w3 + b3).log_softmax(1)

def np_log_softmax(z):
    m = z.max(1, keepdims=True)
    s = z - m
    return s - np.log(np.exp(s).sum(1, keepdims=True))

def np_mlp(x, ps):
    (w1, b1), (w2, b2), (w3, b3) = ps
    h = np.maximum(x @ w1 + b1, 0)
    h = np.maximum(h @ w2 + b2, 0)
    return np_log_softmax(h @ w3 + b3)

def attention(q, k, v):
    s = (q @ k.transpose(-2, -1)) / math.sqrt(q.shape[-1])
    return s.softmax(-1) @ v

def np_attention(q, k, v):
    s = (q @ k.swapaxes(-2, -1)) / math.sqrt(q.shape[-1])
    s = np.exp(s - s.max(-1, keepdims=True))
    return (s / s.sum(-1, keepdims=True)) @ v

def layer_norm(x, g, b, eps=1e-5):
    m = x.mean(-1, keepdim=True)
    v = x.var(-1, keepdim=True, correction=0)
    return (x - m) / (v + eps).sqrt() * g + b

def np_layer_norm(x, g, b, eps=1e-5):
    m = x.mean(-1, keepdims=True)
    v = x.var(-1, keepdims=True)
    return (x - m) / np.sqrt(v + eps) * g + b

def conv(x, w):
    "x: (N, C, H, W) channels_last; w: (C*3*3, O). Valid 3x3 convolution as im2col + matmul, result channels_last."
    n, c, h, wd = x.shape
    cols = x.unfold(2, 3, 1).unfold(3, 3, 1).permute(0, 2, 3, 1, 4, 5).reshape(n * (h - 2) * (wd - 2), c * 9)
    return (cols @ w).reshape(n, h - 2, wd - 2, -1).permute(0, 3, 1, 2)

def np_conv(x, w):
    "x: (N, H, W, C) (numpy's channels_last)."
    n, h, wd, c = x.shape
    cols = np.lib.stride_tricks.sliding_window_view(x, (3, 3), axis=(1, 2)).reshape(n * (h - 2) * (wd - 2), c * 9)
    return (cols @ w).reshape(n, h - 2, wd - 2, -1).transpose(0, 3, 1, 2)

def workloads(quick):
    rng = np.random.default_rng(0)
    out = []
    P = [mlp_params(f, np.random.default_rng(1)) for f in (tt.from_numpy, torch.from_numpy, lambda a: a)]
    for batch in (8, 256) if quick else (8, 256, 4096):
        x = rng.standard_normal((batch, 784), dtype=np.float32)
        out.append((f'MLP forward, batch {batch}', lambda x=tt.from_numpy(x): mlp(x, P[0]),
                    lambda x=torch.from_numpy(x): mlp(x, P[1]), lambda x=x: np_mlp(x, P[2])))
    for seq in (16, 512):
        q, k, v = (rng.standard_normal((4, seq, 64), dtype=np.float32) for _ in range(3))
        out.append((f'attention, 4 heads, seq {seq}, d 64', lambda a=[tt.from_numpy(t) for t in (q, k, v)]: attention(*a),
                    lambda a=[torch.from_numpy(t) for t in (q, k, v)]: attention(*a), lambda a=(q, k, v): np_attention(*a)))
    for rows in (8, 4096):
        x, g, b = rng.standard_normal((rows, 512), dtype=np.float32), rng.standard_normal(512, dtype=np.float32), rng.standard_normal(512, dtype=np.float32)
        out.append((f'layer-norm (mean/var), {rows}x512', lambda a=[tt.from_numpy(t) for t in (x, g, b)]: layer_norm(*a),
                    lambda a=[torch.from_numpy(t) for t in (x, g, b)]: layer_norm(*a), lambda a=(x, g, b): np_layer_norm(*a)))
    xi = rng.standard_normal((8, 28, 28, 64), dtype=np.float32)            # NHWC memory
    w = rng.standard_normal((64 * 9, 64), dtype=np.float32) * 0.05
    tx, px = tt.from_numpy(xi).permute(0, 3, 1, 2), torch.from_numpy(xi).permute(0, 3, 1, 2)   # channels_last views
    out.append(('conv 3x3 as unfold+@, channels_last 8x64x28x28', lambda: conv(tx, tt.from_numpy(w)),
                lambda: conv(px, torch.from_numpy(w)), lambda: np_conv(xi, w)))
    return out

def single_ops():
    rng = np.random.default_rng(2)
    H, B = rng.standard_normal((8, 512), dtype=np.float32), rng.standard_normal(512, dtype=np.float32)
    X, W = rng.standard_normal((8, 784), dtype=np.float32), rng.standard_normal((784, 512), dtype=np.float32)
    h, b, x, w = map(tt.from_numpy, (H, B, X, W)); th, tb, tx, tw = map(torch.from_numpy, (H, B, X, W))
    nls = lambda z: np_log_softmax(z)
    return [('h + bias', lambda: h + b, lambda: th + tb, lambda: H + B),
            ('h.relu()', lambda: h.relu(), lambda: th.relu(), lambda: np.maximum(H, 0)),
            ('h.sum(1)', lambda: h.sum(1), lambda: th.sum(1), lambda: H.sum(1)),
            ('h.log_softmax(1)', lambda: h.log_softmax(1), lambda: th.log_softmax(1), lambda: nls(H)),
            ('h.t().contiguous()', lambda: h.t().contiguous(), lambda: th.t().contiguous(), lambda: np.ascontiguousarray(H.T)),
            ('h.mean(1)', lambda: h.mean(1), lambda: th.mean(1), lambda: H.mean(1)),
            ('h.var(1)', lambda: h.var(1), lambda: th.var(1), lambda: H.var(1, ddof=1)),
            ('x @ w (8x784 @ 784x512)', lambda: x @ w, lambda: tx @ tw, lambda: X @ W)]

def as_np(r): return r.numpy() if hasattr(r, 'numpy') else np.asarray(r)

def check(name, ft, fp, fn):
    a, b, c = as_np(ft()), as_np(fp()), as_np(fn())
    assert a.shape == b.shape == c.shape, (name, a.shape, b.shape, c.shape)
    np.testing.assert_allclose(a, b, rtol=2e-4, atol=2e-4, err_msg=name)
    np.testing.assert_allclose(c, b, rtol=2e-4, atol=2e-4, err_msg=name)

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--threads', type=int, nargs='+', default=[1, 2])
    ap.add_argument('--ops', action='store_true', help='also the single ops on an 8x512 tensor')
    ap.add_argument('--quick', action='store_true')
    ap.add_argument('--rounds', type=int, default=None)
    a = ap.parse_args()
    rounds, target = (a.rounds or (5 if a.quick else 9)), (0.01 if a.quick else 0.03)
    cases = workloads(a.quick) + (single_ops() if a.ops else [])
    for name, ft, fp, fn in cases: check(name, ft, fp, fn)
    print(f'all {len(cases)} results equal torch\'s (allclose rtol=atol=2e-4). Interleaved rounds, min of {rounds}; '
          f'numpy {np.__version__}, torch {torch.__version__}, {os.cpu_count()} cores\n')
    print(f"{'workload':48s} {'thr':>3s} {'tinytensor':>12s} {'torch':>12s} {'numpy':>12s} {'tt/torch':>9s} {'tt/numpy':>9s}")
    for nt in a.threads:
        tt.set_num_threads(nt); torch.set_num_threads(nt)
        for name, ft, fp, fn in cases:
            def fnp(fn=fn, nt=nt):                          # numpy's BLAS gets nt threads where tinytensor's would
                np_blas(nt); return fn()
            t, p, n = timeit([ft, fp, fnp], rounds, target)
            us = lambda s: f'{s * 1e6:10.1f}us' if s < 1e-3 else f'{s * 1e3:10.3f}ms'
            print(f'{name:48s} {nt:3d} {us(t):>12s} {us(p):>12s} {us(n):>12s} {t / p:8.2f}x {t / n:8.2f}x', flush=True)

if __name__ == '__main__': main()
