"Shared helpers for the differential tests: the same random tensor (values *and* layout) in tinytensor and torch."
import contextlib, math, warnings
import numpy as np
import ml_dtypes
import torch
import tinytensor as tt
from tinytensor.tensor_impl import alias_with_sizes_and_strides
from tinytensor.factories import _np_write

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
    # written through the kernel view: `numpy()` would pin the storage, as torch's does
    if nstore: _np_write(tt_base)[...] = base
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
        # bfloat16 and complex32 have no numpy(), as in torch: both sides read them through
        # a float64 (a complex64) cast, exactly
        v = (None if x.is_meta else x.double().numpy() if name in ('bfloat16', 'float16')
             else x.to(tt.complex64).numpy() if name == 'complex32' else x.numpy())
        return tuple(x.shape), tuple(x.stride()), x.storage_offset(), name, v
    name = str(x.dtype).replace('torch.', '')
    v = None if x.device.type == 'meta' else (x.detach().double().numpy() if name in ('bfloat16', 'float16')
                                               else x.detach().to(torch.complex64).numpy() if name == 'complex32'
                                               else x.detach().numpy())
    return tuple(x.shape), tuple(x.stride()), x.storage_offset(), name, v

# Note [one comparison rule] (chapter 04e, tinytensor.testing): every differential test compares a tinytensor result
# with torch's through `same` (or `check_results`), naming the op it ran: `same(a, b, 'exp')`. The op's kind in
# `COMPARISON_RULES` alone decides how values compare: bit for bit for EXACT, LIBM and real COMPLEX results, within
# torch.testing's default tolerances for PRODUCT, ORDER and TRANSCENDENTAL ones. An op without a rule stops the test
# (KeyError), so a new test cannot forget it. Shapes, strides, offsets and dtypes always match exactly. `scale` is the
# size of what the op added up: sum |x| for a sum, |A| @ |B| for a matrix product, (n - 1) |b| for the product of n
# factors (`prod`, which ATen rounds to float16/bfloat16 at every step, in its vector lanes' order), |x f'(x)| for a
# transcendental f (`slope_scale`); 0 unless the caller passes it. `computed_in` names the dtype an op computed in where
# it differs from the result's; `gpu=True` says `a` ran on a GPU, whose scans are parallel.
from tinytensor.testing import (EXACT, LIBM, COMPLEX, ORDER, PRODUCT, TRANSCENDENTAL, COMPARISON_RULES as RULES,
                                TOLERANCES, comparison_rule as rule, tolerance, close_mask)

def same(a, b, op:str, strides=True, scale=0., computed_in=None, gpu=False):
    "None if tinytensor tensor `a` matches torch tensor `b` (shape, strides, offset, dtype, values) under `op`'s rule, else a reason."
    sa, sb = describe(a), describe(b)
    if sa[0] != sb[0]: return f'shape {sa[0]} != {sb[0]}'
    if strides and sa[1] != sb[1]: return f'strides {sa[1]} != {sb[1]}'
    if strides and sa[2] != sb[2]: return f'offset {sa[2]} != {sb[2]}'
    if sa[3] != sb[3]: return f'dtype {sa[3]} != {sb[3]}'
    tol = tolerance(op, sa[3], computed_in, gpu)
    if sa[4] is None or sb[4] is None: return None
    ok = close_mask(sa[4], sb[4], tol, scale)
    if not ok.all():
        x, y = np.asarray(sa[4]), np.asarray(sb[4])
        if ok.shape != x.shape: x, y = np.stack([x.real, x.imag]), np.stack([y.real, y.imag])
        return f'values differ ({op}: {rule(op)}): {x[~ok][:5]} vs {y[~ok][:5]}'
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

def check_results(r_tt, r_th, op:str, ctx='', scale=0., computed_in=None):
    "None if both raised the same exception type or returned matching results (tensors or tuples of them) under `op`'s rule."
    rule(op)                                                     # an op without a rule stops the test, whatever happened
    if isinstance(r_th, Exception):
        if not isinstance(r_tt, Exception): return f'{ctx}: torch raised {type(r_th).__name__}: {r_th} but tinytensor returned'
        if type(r_tt) is not type(r_th): return f'{ctx}: exception type {type(r_tt).__name__}({r_tt}) != {type(r_th).__name__}({r_th})'
        return None
    if isinstance(r_tt, Exception): return f'{ctx}: tinytensor raised {type(r_tt).__name__}: {r_tt}; torch returned'
    if isinstance(r_th, (tuple, list)):
        for a, b in zip(r_tt, r_th):
            m = same(a, b, op, scale=scale, computed_in=computed_in)
            if m: return f'{ctx}: {m}'
        return None
    m = same(r_tt, r_th, op, scale=scale, computed_in=computed_in)
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
