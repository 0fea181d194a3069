"Shared helpers for the differential tests: the same random tensor (values *and* layout) in tinytensor and torch."
import contextlib, math, warnings
import numpy as np
import ml_dtypes
import torch
import tinytensor as tt
from tinytensor.tensor_impl import alias_with_sizes_and_strides

DTYPES = ['bool', 'uint8', 'int8', 'int16', 'int32', 'int64', 'float16', 'bfloat16', 'float32', 'float64']
FLOATS = ['float16', 'bfloat16', 'float32', 'float64']
INTS = ['uint8', 'int8', 'int16', 'int32', 'int64']
LAYOUTS = ['contig', 'contig', 'perm', 'transpose', 'slice', 'perm_slice', 'expand', 'cl', 'offset']

def np_dtype(name): return ml_dtypes.bfloat16 if name == 'bfloat16' else np.dtype(name)

def values(rng, n, dt, special=True, lo=-9, hi=10):
    "Random values of dtype `dt` (floats: normal*3 with some nan/inf/0 sprinkled in)."
    if dt == 'bool': return rng.random(n) < 0.5
    if dt == 'uint8': return rng.integers(0, builtins_max(hi, 1) + 3, n).astype(np.uint8)
    if dt in INTS: return rng.integers(lo, hi, n).astype(dt)
    v = np.round(rng.standard_normal(n) * 3, 2)
    if special and n:
        k = rng.integers(0, 3)
        for _ in range(k): v[rng.integers(0, n)] = rng.choice([np.nan, np.inf, -np.inf, 0.0, -0.0, 0.5])
    return v.astype(np.float32).astype(np_dtype(dt)) if dt == 'bfloat16' else v.astype(dt)

def builtins_max(a, b): return a if a > b else b

def contiguous_strides(shape):
    st, acc = [0] * len(shape), 1
    for d in range(len(shape) - 1, -1, -1): st[d] = acc; acc *= builtins_max(shape[d], 1)
    return st

def layout(rng, shape, kind):
    "(sizes, strides, offset, storage elements) for `shape` in layout `kind`."
    n = len(shape)
    perm, steps, exp, pad = list(range(n)), [1] * n, [False] * n, [0] * n
    if kind == 'perm' or kind == 'perm_slice': perm = list(rng.permutation(n))
    if kind == 'transpose' and n >= 2: perm[-1], perm[-2] = perm[-2], perm[-1]
    if kind == 'cl' and n == 4: perm = [0, 2, 3, 1]
    if kind in ('slice', 'perm_slice'):
        steps = [int(rng.integers(1, 4)) for _ in range(n)]
        pad = [int(rng.integers(0, 2)) for _ in range(n)]
    if kind == 'expand': exp = [bool(rng.random() < 0.6) and shape[d] > 1 for d in range(n)]
    phys = [(1 if exp[d] else shape[d] * steps[d] + pad[d]) for d in perm]
    cst = contiguous_strides(phys)
    strides = [0] * n
    for i, d in enumerate(perm): strides[d] = 0 if exp[d] else cst[i] * steps[d]
    offset = int(rng.integers(0, 4)) if kind in ('offset', 'slice', 'perm_slice') else 0
    extent = 1 + sum((s - 1) * st for s, st in zip(shape, strides)) if all(s > 0 for s in shape) else 0
    return tuple(shape), tuple(strides), offset, offset + extent + 2

def pair(rng, shape, dt, kind='contig', special=True, lo=-9, hi=10):
    "The same strided tensor in tinytensor and torch."
    sizes, strides, off, nstore = layout(rng, shape, kind)
    base = values(rng, nstore, dt, special, lo, hi)
    # resizable storages on both sides (from_numpy storages are not), filled with the same values
    th_base = torch.empty(nstore, dtype=getattr(torch, dt))
    th_base.copy_(torch.from_numpy(base.astype(np.float32) if dt == 'bfloat16' else base))
    tt_base = tt.empty(nstore, dtype=getattr(tt, dt))
    if nstore: tt_base.numpy()[...] = base
    return (alias_with_sizes_and_strides(tt_base, sizes, strides, off), torch.as_strided(th_base, sizes, strides, off))

def rand_shapes(rng, k, maxdim=4, allow_zero=True):
    "`k` shapes that broadcast together."
    nd = int(rng.integers(0, maxdim + 1))
    out = [int(rng.choice([1, 2, 3, 4, 5] + ([0] if allow_zero and rng.random() < 0.1 else []))) for _ in range(nd)]
    shapes = []
    for _ in range(k):
        m = int(rng.integers(0, nd + 1)) if rng.random() < 0.3 else nd
        s = [1 if rng.random() < 0.25 else out[nd - m + i] for i in range(m)]
        shapes.append(tuple(s))
    return shapes, tuple(out)

def rand_scalar(rng, kind=None):
    kind = kind or rng.choice(['int', 'float', 'bool'])
    if kind == 'int': return int(rng.integers(-4, 6))
    if kind == 'bool': return bool(rng.random() < 0.5)
    return float(rng.choice([1.5, -0.25, 2.0, 0.5, 3.0, -2.0, 0.0, 1.0001, 0.1]))

def describe(x):
    "Shape, strides, dtype name and float64/bool numpy values of a tinytensor or torch tensor."
    if isinstance(x, tt.Tensor):
        name = x.dtype.name
        v = x.numpy() if not x.is_meta else None
        if v is not None and name in ('bfloat16', 'float16'): v = v.astype(np.float64)
        return tuple(x.shape), tuple(x.stride()), x.storage_offset(), name, v
    name = str(x.dtype).replace('torch.', '')
    v = None if x.device.type == 'meta' else (x.detach().double().numpy() if name in ('bfloat16', 'float16') else x.detach().numpy())
    return tuple(x.shape), tuple(x.stride()), x.storage_offset(), name, v

# Note [one comparison rule]: every differential test compares a tinytensor result with torch's through `same`.
# Shapes, strides, offsets and dtypes always match exactly, and so do values, bit for bit, unless the value depends on a
# choice that torch itself leaves to the implementation:
#   - products (mm, matmul, tensordot, einsum, dot, ...): the BLAS library and its kernel for this CPU pick the order
#     of the sums (OpenBLAS picks by core type, thread count and shape);
#   - reductions over many elements (sum, mean, var, std, norm, prod, cumsum, logsumexp, softmax, ...): the vector
#     width and the thread split pick the order of the additions;
#   - transcendental functions (exp, log, sin, pow with a float exponent, erf, ...): libm, SLEEF and numpy's own
#     loops round differently in the last bit.
# Those compare with torch.testing.assert_close's default tolerances for the result's dtype (`TOLERANCES`):
# |a - b| <= atol + rtol * (|b| + scale). `scale` is the size of what was summed (sum |x| for a sum, |A| @ |B| for a
# matrix product), which bounds the rounding error of any order of the sums even where the terms cancel; for the
# product of n factors (`prod`, which ATen rounds to float16/bfloat16 at every step, in its vector lanes' order) it is
# (n - 1) |b|; for a transcendental function f it is |x f'(x)|, the rounding of its input amplified by its slope
# (logit near 1, tan near pi/2). It is 0 unless the caller passes it. A test says which side of the rule a call is on with `tol=True` (or a dtype name: the dtype the
# computation ran in, when it is wider than the result's), and nothing else decides a tolerance.
TOLERANCES = {'float16': (1e-3, 1e-5), 'bfloat16': (1.6e-2, 1e-5), 'float32': (1.3e-6, 1e-5), 'float64': (1e-7, 1e-7),
              'complex64': (1.3e-6, 1e-5), 'complex128': (1e-7, 1e-7)}    # torch/testing/_comparison.py's defaults

def close_mask(x, y, dtype_name, tol=True, scale=0.):
    "Elementwise: do values `x` (tinytensor's) and `y` (torch's) agree under Note [one comparison rule]?"
    x, y, scale = np.asarray(x), np.asarray(y), np.abs(np.asarray(scale, dtype=np.float64))
    if scale.ndim and scale.shape != x.shape:
        try: scale = np.broadcast_to(scale, x.shape)
        except ValueError: scale = np.float64(0.)                  # a scale for another shape (an error path): none
    if x.dtype.kind == 'c' or y.dtype.kind == 'c':                   # complex: real and imaginary parts separately
        x, y = np.stack([x.real, x.imag]), np.stack([y.real, y.imag])
        scale = np.stack([np.broadcast_to(scale, x.shape[1:])] * 2)
    if x.dtype.kind not in 'fc' and y.dtype.kind not in 'fc': return np.asarray(x == y)
    x64, y64 = x.astype(np.float64), y.astype(np.float64)
    key = tol if isinstance(tol, str) else dtype_name
    if tol and key in TOLERANCES:
        rtol, atol = TOLERANCES[key]
        with np.errstate(invalid='ignore', over='ignore'):
            ok = np.abs(x64 - y64) <= atol + rtol * (np.abs(y64) + np.abs(scale))
        return ok | (x64 == y64) | (np.isnan(x64) & np.isnan(y64))      # equal infinities too
    return (x64 == y64) | (np.isnan(x64) & np.isnan(y64))

def same(a, b, tol=False, strides=True, scale=0.):
    "None if tinytensor tensor `a` matches torch tensor `b` (shape, strides, offset, dtype, values), else a reason."
    sa, sb = describe(a), describe(b)
    if sa[0] != sb[0]: return f'shape {sa[0]} != {sb[0]}'
    if strides and sa[1] != sb[1]: return f'strides {sa[1]} != {sb[1]}'
    if strides and sa[2] != sb[2]: return f'offset {sa[2]} != {sb[2]}'
    if sa[3] != sb[3]: return f'dtype {sa[3]} != {sb[3]}'
    if sa[4] is None or sb[4] is None: return None
    ok = close_mask(sa[4], sb[4], sa[3], tol, scale)
    if not ok.all():
        x, y = np.asarray(sa[4]), np.asarray(sb[4])
        if ok.shape != x.shape: x, y = np.stack([x.real, x.imag]), np.stack([y.real, y.imag])
        return f'values differ: {x[~ok][:5]} vs {y[~ok][:5]}'
    return None

def run_both(f_tt, f_th):
    "Run both; return (tt result or exception, torch result or exception)."
    out = []
    for f in (f_tt, f_th):
        try:
            with warnings.catch_warnings():
                warnings.simplefilter('ignore')
                out.append(f())
        except Exception as e: out.append(e)
    return out

def check_results(r_tt, r_th, tol=False, ctx='', scale=0.):
    "None if both raised the same exception type or returned matching results (tensors or tuples of them)."
    if isinstance(r_th, Exception):
        if not isinstance(r_tt, Exception): return f'{ctx}: torch raised {type(r_th).__name__}: {r_th} but tinytensor returned'
        if type(r_tt) is not type(r_th): return f'{ctx}: exception type {type(r_tt).__name__}({r_tt}) != {type(r_th).__name__}({r_th})'
        return None
    if isinstance(r_tt, Exception): return f'{ctx}: tinytensor raised {type(r_tt).__name__}: {r_tt}; torch returned'
    if isinstance(r_th, (tuple, list)):
        for a, b in zip(r_tt, r_th):
            m = same(a, b, tol, scale=scale)
            if m: return f'{ctx}: {m}'
        return None
    m = same(r_tt, r_th, tol, scale=scale)
    return f'{ctx}: {m}' if m else None

@contextlib.contextmanager
def num_threads(n:int):
    "Run the block with tinytensor's thread count set to `n`, restored afterwards."
    old = tt.get_num_threads(); tt.set_num_threads(n)
    try: yield
    finally: tt.set_num_threads(old)

def both(x_np, transposed:bool=False):
    "`x_np` as a tinytensor and a torch tensor; `transposed`: the same values held column-major (a `.t()` view)."
    if not transposed: return tt.from_numpy(x_np), torch.from_numpy(x_np)
    c = np.ascontiguousarray(x_np.T)
    return tt.from_numpy(c).t(), torch.from_numpy(c).t()

def sum_scale(x_th, dim=None, keepdim=False):
    "The size of what a sum over `dim` of torch tensor `x_th` adds up: sum |x| (Note [one comparison rule])."
    a = x_th.detach().double().abs() if not x_th.is_complex() else x_th.detach().abs().double()
    a = a.nan_to_num(posinf=0., neginf=0.)
    return (a.sum() if dim is None else a.sum(dim, keepdim=keepdim)).numpy()

def product_scale(fn, *ts):
    "The size of what a product `fn(a, b, ...)` of torch tensors adds up: `fn(|a|, |b|, ...)` in float64 (Note [one comparison rule])."
    f = lambda t: t.detach().double().abs().nan_to_num(posinf=0., neginf=0.)
    return fn(*map(f, ts)).numpy()

def log_softmax_scale(x_th, dim):
    "The size of the terms `log_softmax` adds, x - (max + log(sum(exp(x - max)))), along `dim` (Note [one comparison rule])."
    x = x_th.detach().double().nan_to_num(posinf=0., neginf=0.)
    if not x.numel(): return 0.
    m = x.amax(dim, keepdim=True) if x.dim() else x
    return (x.abs() + m.abs() + (x - m).exp().sum(dim, keepdim=True).log()).numpy()

def slope_scale(fn, x_th):
    "|x f'(x)| for an elementwise `fn` of a real torch tensor, in float64 (Note [one comparison rule]); 0 where not defined."
    if not (x_th.is_floating_point() and x_th.numel()): return 0.
    try:
        x = x_th.detach().double().requires_grad_()
        (g,) = torch.autograd.grad(fn(x).sum(), x)
        return (x.detach() * g).abs().nan_to_num(nan=0., posinf=0., neginf=0.).numpy()
    except Exception: return 0.
