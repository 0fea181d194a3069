"""Chapter 15's short paths against the plain paths of chapters 05a and 05d: for seeded random calls (plain ints,
numpy ints, out-of-range dims and indices, bad shapes, several layouts), the call with the hooks filled and the same call
with them emptied (`plain_paths`) give the same tensor (sizes, strides, offset, base, flags, values) or the same error
(type and message); and each hook is reached through its method."""
import numpy as np
import pytest
import tinytensor as tt
from tinytensor import fast_views as fv, views, basic_indexing, indexing
torch = pytest.importorskip("torch")

SEED, N = 15, 400

def _outcome(f):
    "What `f()` gives: ('ok', result) or ('err', type, message)."
    try: return ('ok', f())
    except Exception as e: return ('err', type(e), str(e))

def _same(r, p):
    assert r[0] == p[0], (r, p)
    if r[0] == 'err': assert r[1:] == p[1:], (r, p); return
    a, b = r[1], p[1]
    if isinstance(a, tuple): assert len(a) == len(b); [_same(('ok', x), ('ok', y)) for x, y in zip(a, b)]; return
    ai, bi = a._impl, b._impl
    assert (a.shape, a.stride(), a.storage_offset(), a.dtype) == (b.shape, b.stride(), b.storage_offset(), b.dtype)
    assert (a._base is None) == (b._base is None) and (a._base is None or a._base is b._base)
    assert ai.storage_.get() is bi.storage_.get() or a._base is None
    for f in ('is_contiguous_', 'is_non_overlapping_and_dense_', 'is_channels_last_contiguous_', 'is_channels_last_'):
        assert getattr(ai, f) == getattr(bi, f), f
    assert a.tolist() == b.tolist()

def _both(f):
    "`f()` with the short paths, and again on the plain paths: they must agree."
    fast = _outcome(f)
    with fv.plain_paths(): plain = _outcome(f)
    _same(fast, plain)
    return fast

def _tensor(rng):
    "A tensor of 0-4 dims (sizes 0-4), sometimes transposed, sliced or expanded, sometimes a view of a view."
    shape = tuple(int(s) for s in rng.integers(0, 5, size=int(rng.integers(0, 5))))
    t = tt.arange(float(int(np.prod(shape)))).reshape(shape) if shape else tt.tensor(3.)
    k = rng.random()
    if len(shape) >= 2 and k < 0.25: t = t.transpose(0, -1)
    elif shape and shape[0] > 1 and k < 0.4: t = t[1:]
    elif len(shape) >= 1 and k < 0.5: t = t.unsqueeze(0).expand(2, *shape)
    return t

def _int(rng, lo, hi):
    v = int(rng.integers(lo, hi))
    return np.int64(v) if rng.random() < 0.15 else v               # a numpy int takes the plain path

def test_hooks_filled_and_emptied():
    assert views._fast_view is fv._view and basic_indexing._fast_getitem is fv._short_getitem
    assert indexing._fast_gather is fv._gather
    with fv.plain_paths():
        assert all(getattr(m, n) is None for m, n in fv.HOOKS)
    assert all(getattr(m, n) is f for (m, n), f in fv.HOOKS.items())

def test_each_hook_is_reached_through_its_method(monkeypatch):
    "Every short path answers the common call of the method whose hook it fills."
    t = tt.arange(24.).view(2, 3, 4)
    calls = {'_fast_view': lambda: t.view(6, 4), '_fast_reshape': lambda: t.reshape(-1),
             '_fast_transpose': lambda: t.transpose(0, 2), '_fast_t': lambda: t[0].t(),
             '_fast_permute': lambda: t.permute(2, 0, 1), '_fast_unsqueeze': lambda: t.unsqueeze(1),
             '_fast_expand': lambda: t[:, :1].expand(2, 3, 4), '_fast_select': lambda: t.select(1, 2),
             '_fast_getitem': lambda: t[1], '_fast_mask_select': lambda: t[t > 3],
             '_fast_gather': lambda: t.gather(1, tt.zeros(2, 3, 4, dtype=tt.int64))}
    for (mod, name), f in fv.HOOKS.items():
        hits = []
        monkeypatch.setattr(mod, name, lambda *a, f=f: (lambda r: (hits.append(r is not None and r is not False), r)[1])(f(*a)))
        calls[name]()
        assert hits and hits[0], name
        monkeypatch.setattr(mod, name, f)

def test_view_and_reshape_equal_plain():
    rng = np.random.default_rng(SEED)
    for _ in range(N):
        t = _tensor(rng)
        n = t.numel()
        shapes = [(-1,), (n,), (n, 1), (1, -1), (-1, 1, 1), (2, -1), (n + 1,), (-1, -1), (0, -1), ((n,),), ()]
        if t.dim(): shapes += [tuple(t.shape)[::-1], (t.shape[0], -1)]
        shapes.append((2.0,))
        for s in shapes:
            _both(lambda: t.view(*s)); _both(lambda: t.reshape(*s))

def test_select_getitem_transpose_permute_unsqueeze_equal_plain():
    rng = np.random.default_rng(SEED + 1)
    for _ in range(N):
        t = _tensor(rng)
        n = t.dim()
        d, e = _int(rng, -n - 1, n + 1), _int(rng, -n - 1, n + 1)
        size = t.shape[int(d) % n] if n and -n <= d < n else 3
        i = _int(rng, -size - 1, size + 1)
        _both(lambda: t.select(d, i))
        _both(lambda: t.transpose(d, e)); _both(lambda: t.t()); _both(lambda: t.unsqueeze(d))
        perm = [int(x) for x in rng.permutation(n)]
        if perm and rng.random() < 0.2: perm[0] = perm[-1]                   # a repeated dim
        _both(lambda: t.permute(*perm)); _both(lambda: t.permute(tuple(perm)))
        lo, hi = (int(x) for x in rng.integers(-6, 7, size=2))
        step = int(rng.integers(1, 4))
        for idx in (lo, slice(lo, hi), slice(None, hi), slice(lo, None), slice(lo, hi, step), np.int64(lo),
                    (lo, slice(hi, None)), (Ellipsis, lo), (None, slice(lo, hi, step)), (slice(None), None, Ellipsis),
                    (Ellipsis, None, Ellipsis), (Ellipsis, Ellipsis, lo), (slice(lo, hi), lo, hi), (), (None,),
                    (slice(None, None, 2**40),), (lo, True), (slice(np.int64(lo), None),)):
            _both(lambda: t[idx])

def test_expand_equal_plain_hits_and_misses():
    rng = np.random.default_rng(SEED + 2)
    for _ in range(N):
        t = _tensor(rng)
        req = tuple(int(s) if rng.random() < 0.7 else -1 for s in rng.integers(1, 5, size=t.dim() + int(rng.integers(0, 2))))
        req = tuple(t.shape[i - (len(req) - t.dim())] if i >= len(req) - t.dim() and rng.random() < 0.5 else r
                    for i, r in enumerate(req))
        if rng.random() < 0.5: fv._expand_geoms.clear()
        _both(lambda: t.expand(*req)); _both(lambda: t.expand(*req))       # computed, then cached
    _both(lambda: tt.zeros(2, 1).expand()); _both(lambda: tt.zeros(1).expand(2.5))

def test_indexing_kernels_equal_plain():
    rng = np.random.default_rng(SEED + 3)
    for _ in range(60):
        shape = tuple(int(s) for s in rng.integers(1, 6, size=int(rng.integers(1, 4))))
        x = tt.from_numpy(rng.standard_normal(shape).astype(np.float32))
        if x.dim() >= 2 and rng.random() < 0.3: x = x.transpose(0, -1)
        m = tt.from_numpy(rng.random(tuple(x.shape)) < 0.5)
        _both(lambda: x[m]); _both(lambda: x[(m,)])
        d = int(rng.integers(0, x.dim()))
        ishape = tuple(int(rng.integers(1, s + 1)) if k != d else int(rng.integers(1, 6)) for k, s in enumerate(x.shape))
        idx = tt.from_numpy(rng.integers(-1 if rng.random() < 0.1 else 0, x.shape[d], ishape))
        _both(lambda: x.gather(d, idx))
        xt = torch.from_numpy(x.numpy().copy())
        if idx.numpy().min() >= 0:
            assert x.gather(d, idx).tolist() == xt.gather(d, torch.from_numpy(idx.numpy())).tolist()
