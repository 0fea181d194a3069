"Every lean path (Note [lean build], chapter 10) equals the full build: values (bit for bit), dtype, shape, strides, errors."
import contextlib, itertools
import numpy as np
import pytest
import torch
import tinytensor as tt
from tinytensor import ops, binary_ops, reductions, scans
from tinytensor.tensor_impl import alias_with_sizes_and_strides
from tinytensor.lean_paths import lean_unary, lean_binary, lean_reduction, LEAN_MAX
from tinytensor.parallel import GRAIN_SIZE
from ttgen import num_threads, same as same_as_torch, sum_scale, product_scale, log_softmax_scale

# every module-level name through which a caller reaches a lean path or a small-op fast path: the hooks of
# chapters 06b and 06c (Note [Fast-path hooks]) that chapters 10 and 11 fill, and the reference chapters' own
_SWITCHES = [(binary_ops, '_fast_binary'), (binary_ops, '_fast_scalar'), (binary_ops, '_fast_compare'),
             (binary_ops, '_fast_divide'), (ops, '_fast_binary'), (ops, '_fast_scalar'), (ops, '_fast_unary'),
             (ops, '_fast_relu'), (ops, '_fast_copy'), (reductions, '_fast_sum'), (reductions, '_fast_mean'),
             (reductions, '_fast_minmax'), (reductions, '_fast_var'), (reductions, '_fast_big_var'),
             (scans, '_lean_softmax'), (scans, 'lean_reduction')]

@contextlib.contextmanager
def plain():
    "Switch every lean path off: each caller then takes the full build."
    saved = [(m, n, getattr(m, n)) for m, n in _SWITCHES]
    for m, n in _SWITCHES: setattr(m, n, lambda *a: None)
    try: yield
    finally:
        for m, n, f in saved: setattr(m, n, f)

def test_plain_takes_the_full_build():
    "`plain()` must reach every caller, or `both` would compare a lean path with itself."
    import cProfile, pstats
    h, bias = tt.randn(8, 512), tt.randn(512)
    def calls(f):
        pr = cProfile.Profile(); pr.enable(); f(); pr.disable()
        return pstats.Stats(pr).total_calls
    # the modules' own functions: a notebook run in this process (the docs tests) may re-hook Tensor's methods
    for f in (lambda: binary_ops.add(h, bias), lambda: ops.relu(h), lambda: ops.exp(h), lambda: reductions.sum(h, 1),
              lambda: binary_ops.div(h, 8.0), lambda: binary_ops.mul(h, 2.0), lambda: scans.log_softmax(h, 1)):
        f(); lean = calls(f)
        with plain(): f(); full = calls(f)
        assert full > 2 * lean, (lean, full)

def same(a, b):
    "Shape, strides, dtype and the bits of every non-NaN value of two results (or tuples of them); NaN where NaN."
    if isinstance(a, tuple):
        assert len(a) == len(b)
        for x, y in zip(a, b): same(x, y)
        return
    assert (a.shape, a.stride(), a.dtype, a.is_contiguous()) == (b.shape, b.stride(), b.dtype, b.is_contiguous())
    x, y = np.ascontiguousarray(a.numpy()), np.ascontiguousarray(b.numpy())
    if x.dtype.kind != 'f': assert x.tobytes() == y.tobytes(); return
    nx, ny = np.isnan(x), np.isnan(y)                # a NaN is a NaN: which of two NaN operands survives (its sign)
    assert (nx == ny).all()                          # depends on numpy's inner loop, as torch's on its vector loop
    assert x[~nx].tobytes() == y[~ny].tobytes()      # every other bit, -0.0 included

def both(f):
    "f() with the lean paths and with the full build: equal results, or the same exception (type and message)."
    try: r, e = f(), None
    except Exception as ex: r, e = None, ex
    with plain():
        try: p, pe = f(), None
        except Exception as ex: p, pe = None, ex
    assert (type(e), str(e)) == (type(pe), str(pe))
    if e is None: same(r, p)
    return r

rng = np.random.default_rng(0)
DTYPES = [np.float32, np.float64, np.float16, np.int32]
SHAPES = [(8, 512), (3, 1, 7), (5,), (1, 9), (2, 3, 4), (4, 1), (1,), (), (0, 3), (2, 0), (1, 1, 6), (300, 120)]

def values(shape, dt):
    a = rng.standard_normal(shape) * 3
    if a.size: a.flat[rng.integers(0, a.size, builtins_min(3, a.size))] = [np.nan, -0.0, np.inf][:builtins_min(3, a.size)]
    return a.astype(dt) if dt != np.int32 else (a * 10).astype(np.int32)

def builtins_min(a, b): return a if a < b else b

def layouts(shape, dt):
    "The same values in several layouts: contiguous, offset, permuted (dense), sliced (not dense), odd size-1 strides."
    a = values(shape, dt)
    out = {'contig': tt.tensor(a)}
    flat = tt.tensor(np.concatenate([np.zeros(3, dt), a.reshape(-1)]))
    out['offset'] = flat[3:].view(*shape) if shape else flat[3:].view(())
    if len(shape) >= 2:
        perm = list(range(len(shape)))[::-1]
        out['perm'] = tt.tensor(np.ascontiguousarray(a.transpose(perm))).permute(*perm)
        big = tt.tensor(np.repeat(a, 2, axis=-1))
        out['slice'] = big[..., ::2]
    if 1 in shape:
        c = out['contig']
        odd = tuple(97 if s == 1 else st for s, st in zip(shape, c.stride()))
        out['odd1'] = alias_with_sizes_and_strides(c, tuple(shape), odd, 0)
    return out

def cases():
    for shape, dt in itertools.product(SHAPES, DTYPES):
        for name, t in layouts(shape, dt).items(): yield shape, dt, name, t

@pytest.mark.parametrize('op', ['add', 'sub', 'mul', 'div', '+', '*', '/', '-'])
def test_binary_broadcast_equals_full_build(op):
    f = {'+': lambda a, b: a + b, '*': lambda a, b: a * b, '/': lambda a, b: a / b, '-': lambda a, b: a - b}.get(op) or getattr(tt, op)
    for shape, dt, name, t in cases():
        others = [t, tt.tensor(values(shape[-1:], dt)), tt.tensor(values((), dt)),
                  tt.tensor(values((1,) + tuple(shape), dt)), tt.tensor(values((3,), dt)),
                  tt.tensor(values(shape[-1:], np.float64)), 2.5, 3, 1e-300, float('nan')]
        if len(shape) >= 2: others.append(tt.tensor(values(shape[:-1] + (1,), dt)))
        for o in others:
            both(lambda: f(t, o))
            if isinstance(o, tt.Tensor): both(lambda: f(o, t))

def test_binary_matches_torch_layout():
    for shape in [(8, 512), (3, 1, 7), (4, 1), (1, 9)]:
        a = values(shape, np.float32); b = values(shape[-1:], np.float32); c = values(shape[:-1] + (1,), np.float32)
        for x, y in [(a, b), (b, a), (a, c), (c, b)]:
            r, t = tt.tensor(x) + tt.tensor(y), torch.tensor(x) + torch.tensor(y)
            assert (tuple(r.shape), r.stride()) == (tuple(t.shape), t.stride())
            np.testing.assert_array_equal(r.numpy(), t.numpy())

def test_binary_shape_mismatch_raises_as_full_build():
    a, b = tt.randn(8, 512), tt.randn(3)
    with pytest.raises(RuntimeError, match='must match the size'): a + b
    both(lambda: a + b)
    both(lambda: tt.randn(2, 1, 3) * tt.randn(4, 2))

@pytest.mark.parametrize('fn', ['relu', 'exp', 'log', 'sqrt', 'tanh', 'sin'])
def test_unary_any_layout_equals_full_build(fn):
    for shape, dt, name, t in cases():
        if dt == np.int32 and fn == 'relu': pass
        both(lambda: getattr(t, fn)())

def test_unary_layouts_match_torch():
    x = np.random.default_rng(1).standard_normal((2, 3, 4, 5)).astype(np.float32)
    for perm in [(0, 2, 3, 1), (3, 2, 1, 0), (1, 0, 2, 3)]:
        a = tt.tensor(np.ascontiguousarray(x.transpose(perm)))
        ta = torch.tensor(np.ascontiguousarray(x.transpose(perm)))
        inv = tuple(np.argsort(perm))
        r, t = a.permute(*inv).relu(), ta.permute(*inv).relu()
        assert r.stride() == t.stride()
        np.testing.assert_array_equal(r.numpy(), t.numpy())
    cl = tt.tensor(x).contiguous(memory_format=tt.channels_last)
    assert cl.exp().stride() == torch.tensor(x).contiguous(memory_format=torch.channels_last).exp().stride()

@pytest.mark.parametrize('fn', ['sum', 'mean', 'amax', 'amin', 'var', 'std', 'var_mean', 'std_mean', 'softmax', 'log_softmax'])
def test_last_dim_reduction_equals_full_build(fn):
    f = getattr(tt, fn)
    for shape, dt, name, t in cases():
        nd = len(shape)
        dims = [-1, nd - 1, 0, (nd - 1,), (-1,), None, nd, True] if nd else [0, -1, None]
        for d in dims:
            for kd in ([False, True] if fn not in ('softmax', 'log_softmax') else [None]):
                if fn in ('softmax', 'log_softmax'): both(lambda: f(t, d))
                elif fn in ('amax', 'amin') and d is None: both(lambda: f(t, (), kd))
                else: both(lambda: f(t, d, keepdim=kd))

def test_reductions_match_torch():
    x = np.random.default_rng(2).standard_normal((8, 512)).astype(np.float32)
    a, ta = tt.tensor(x), torch.tensor(x)
    for fn in ['sum', 'mean', 'amax', 'var', 'std']:
        for kd in (False, True):
            r, t = getattr(tt, fn)(a, 1, keepdim=kd), getattr(torch, fn)(ta, 1, keepdim=kd)
            assert (tuple(r.shape), r.stride(), r.dtype.name) == (tuple(t.shape), t.stride(), str(t.dtype)[6:])
            scale = sum_scale(ta, 1, kd) / (512 if fn != 'sum' else 1) if fn in ('sum', 'mean') else 0.
            assert same_as_torch(r, t, fn, scale=scale) is None, (fn, kd, same_as_torch(r, t, fn, scale=scale))
    assert same_as_torch(a.log_softmax(1), ta.log_softmax(1), 'log_softmax', scale=log_softmax_scale(ta, 1)) is None

def test_copy_and_contiguous_equal_full_build():
    for shape, dt, name, t in cases():
        both(lambda: t.contiguous())
        both(lambda: t.clone())
        both(lambda: t.t().contiguous() if t.dim() == 2 else t.contiguous())
        dst = tt.empty(*shape, dtype=t.dtype) if shape else tt.empty((), dtype=t.dtype)
        both(lambda: dst.copy_(t))
    x = tt.randn(8, 512)
    v0 = x._version
    y = tt.empty(8, 512); y.copy_(x.t().t()); assert y._version == 1 and x._version == v0
    assert x.t().contiguous()._version == 0

def test_copy_overlap_still_checked():
    x = tt.arange(10.)
    with pytest.raises(RuntimeError, match='unsupported operation'): x[1:].copy_(x[:-1])   # one storage: the full build
    e = tt.zeros(3).expand(4, 3)
    with pytest.raises(RuntimeError, match='unsupported operation'): e.copy_(tt.ones(4, 3))

def test_lean_refuses_what_it_cannot_prove():
    h = tt.randn(8, 512)
    assert lean_unary(h[:, ::2]) is None                                # not dense
    assert lean_binary(h, tt.randn(512, dtype=tt.float64)) is None      # two dtypes
    assert lean_binary(h.t(), tt.randn(8)) is None                      # a transposed input
    assert lean_binary(tt.randn(8, 1, 4).transpose(1, 2), tt.randn(4, 1)) is None   # odd strides at a size-1 dim
    assert lean_unary(tt.randn(LEAN_MAX)) is None                        # large: the full build's threads
    assert lean_binary(tt.randn(LEAN_MAX), tt.randn(1)) is None
    assert lean_unary(tt.randn(GRAIN_SIZE)) is not None                  # mid-size: one serial call (Note [lean build])
    assert lean_unary(h.half()) is None and lean_unary(h.int()) is None
    assert lean_reduction(h, 0, False, tt.float32) is None              # not the last dim
    assert lean_reduction(h, 1, False, tt.float64) is None              # a dtype change
    assert lean_reduction(tt.randn(4, 1), 1, False, tt.float32) is None  # a size-1 reduced dim

def test_matmul_out_path_equals_copy_path():
    r = np.random.default_rng(3)
    for m, k, n in [(8, 784, 512), (1, 3, 2), (5, 1, 7), (64, 33, 17)]:
        for dt in (np.float32, np.float64):
            a, b = r.standard_normal((m, k)).astype(dt), r.standard_normal((k, n)).astype(dt)
            res = tt.tensor(a) @ tt.tensor(b)
            assert res.numpy().tobytes() == np.matmul(a, b).tobytes()
            t = torch.tensor(a) @ torch.tensor(b)
            assert res.stride() == t.stride()
            out = tt.empty(m, n, dtype=res.dtype)
            tt.matmul(tt.tensor(a), tt.tensor(b), out=out)
            assert out.numpy().tobytes() == res.numpy().tobytes()

def test_products_follow_get_num_threads():
    "numpy's BLAS is pinned to one thread; a large product is split over get_num_threads() threads, deterministically."
    from tinytensor.large_tensors import _blas, BLAS_MIN_WORK
    n0 = tt.get_num_threads()
    r = np.random.default_rng(4)
    try:
        for nt in (1, 2):
            tt.set_num_threads(nt)
            for m, k, n in [(256, 784, 512), (8, 2048, 1024), (3, 40, 5)]:
                a, b = r.standard_normal((m, k)).astype(np.float32), r.standard_normal((k, n)).astype(np.float32)
                x, y = tt.tensor(a), tt.tensor(b)
                res = x @ y
                if _blas['set'] is not None: assert _blas['cur'] == 1
                ta, tb = torch.tensor(a), torch.tensor(b)
                assert same_as_torch(res, ta @ tb, 'matmul', scale=product_scale(torch.matmul, ta, tb)) is None
                assert (x @ y).numpy().tobytes() == res.numpy().tobytes()          # the same bits on every run
                if m * n * k < BLAS_MIN_WORK or nt == 1: assert res.numpy().tobytes() == (a @ b).tobytes()
                bt = tt.tensor(r.standard_normal((2, m, k)).astype(np.float32))
                np.testing.assert_allclose(tt.bmm(bt, y.expand(2, k, n)).numpy(), bt.numpy() @ b, rtol=1e-4, atol=1e-4)
                out = tt.empty(m, n, dtype=tt.float64)
                with pytest.raises(RuntimeError, match='dtype'): tt.matmul(x, y, out=out)
    finally: tt.set_num_threads(n0)

@pytest.mark.parametrize('threads', [1, 2])
def test_mid_size_elementwise_equals_full_build(threads):
    "Between GRAIN_SIZE and LEAN_MAX the lean path makes one serial call where the full build may split over threads."
    saved = tt.get_num_threads(); tt.set_num_threads(threads)
    try:
        for dt in (np.float32, np.float64):
            a, b, c = tt.tensor(values((256, 512), dt)), tt.tensor(values((512,), dt)), tt.tensor(values((2, 256, 256), dt))
            assert lean_binary(a, b) is not None and lean_unary(a) is not None
            for f in (lambda: a + b, lambda: a * a, lambda: a.relu(), lambda: a.exp(), lambda: tt.add(a, b), lambda: tt.div(a, b),
                      lambda: a.permute(1, 0).relu(), lambda: c - b[:256]):
                both(f)
    finally: tt.set_num_threads(saved)


@pytest.mark.parametrize('fn', ['var', 'std', 'var_mean', 'std_mean'])
def test_blocked_var_equals_full_build(fn):
    "Note [blocked var]: blocks of rows in threads give every row the op-by-op path's bits, for any row length and thread count."
    f = getattr(tt, fn)
    r = np.random.default_rng(3)
    for shape in [(4096, 512), (700, 1000), (20000, 3), (3, 40, 600), (2, 65536), (1, 1 << 17), (70000, 1)]:
        x = r.standard_normal(shape) * 3 + 1
        x.flat[r.integers(0, x.size, 3)] = [np.nan, np.inf, -0.0]
        for dt in (np.float32, np.float64):
            t = tt.tensor(x.astype(dt))
            for threads in (1, 2, 3):
                with num_threads(threads):
                    for d, kd, c in [(-1, False, 1), (len(shape) - 1, True, 0), ((-1,), True, 2)]:
                        both(lambda: f(t, d, keepdim=kd, correction=c))
