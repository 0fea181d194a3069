"Differential tests of chapter 21 (scans, softmax, sorting, topk, median, unique) against torch."
import numpy as np
import pytest
torch = pytest.importorskip("torch")
from hypothesis import given, settings, strategies as st
import tinytensor as tt
from ttgen import DTYPES, FLOATS, INTS, LAYOUTS, pair, rand_shapes, run_both, check_results, same, num_threads, both, log_softmax_scale

torch.set_num_threads(1)
N = 150

def _input(rng, dtypes=DTYPES, maxdim=4, lo=-9, hi=10):
    _, shape = rand_shapes(rng, 1, maxdim=maxdim)
    dt = str(rng.choice(dtypes))
    x_tt, x_th = pair(rng, shape, dt, str(rng.choice(LAYOUTS)), special=rng.random() < 0.5, lo=lo, hi=hi)
    return shape, dt, x_tt, x_th

def _dim(rng, nd):
    return int(rng.integers(-max(nd, 1), max(nd, 1))) if rng.random() < 0.95 else max(nd, 1) + 1

def _call(lib, x, name, args, kw, method):
    k = {key: (getattr(lib, v) if key == 'dtype' else v) for key, v in kw.items()}
    return getattr(x, name)(*args, **k) if method else getattr(lib, name)(x, *args, **k)

def _np(t):
    return t.numpy().astype(np.float64) if t.dtype in (tt.float16, tt.bfloat16) else t.numpy()

def _indices_consistent(x_tt, vals, idx, dim):
    "The tinytensor indices pick the tinytensor values out of the input."
    a = _np(x_tt)
    if a.ndim == 0: return idx.item() == 0
    got = np.take_along_axis(a, idx.numpy().reshape(vals.shape if vals.dim() == a.ndim else np.expand_dims(idx.numpy(), dim).shape), dim)
    v = _np(vals).reshape(got.shape)
    return bool(np.all((got == v) | (np.isnan(got.astype(np.float64)) & np.isnan(v.astype(np.float64)))))

def _unique_rows(x_th, dim):
    "True when no row along `dim` holds two equal values (so every index is determined)."
    a = x_th.double().numpy() if x_th.dtype != torch.bool else x_th.numpy()
    if a.ndim == 0 or a.size == 0: return True
    a = np.moveaxis(a, dim, -1).reshape(-1, a.shape[dim])
    s = np.sort(a, axis=1)
    return not np.any(s[:, 1:] == s[:, :-1])

# --- cumsum, cumprod, softmax, log_softmax ------------------------------------------------------------------

def scan_case(rng, name):
    floats_only = name in ('softmax', 'log_softmax')
    shape, dt, x_tt, x_th = _input(rng, DTYPES if not floats_only or rng.random() < 0.15 else FLOATS, lo=-3, hi=4)
    args, kw = [_dim(rng, len(shape))], {}
    if rng.random() < 0.25: kw['dtype'] = str(rng.choice(['float32', 'float64', 'int64', 'int32', 'float16']))
    if floats_only and kw.get('dtype', 'float') not in FLOATS: kw.pop('dtype', None)
    method = bool(rng.random() < 0.5)
    ctx = f'{name} {shape}/{dt}/{x_th.stride()} {args} {kw} method={method}'
    r = run_both(lambda: _call(tt, x_tt, name, args, kw, method), lambda: _call(torch, x_th, name, args, kw, method))
    scale = log_softmax_scale(x_th, args[0]) if name == 'log_softmax' and not isinstance(r[1], Exception) else 0.
    return check_results(*r, name, ctx=ctx, scale=scale)

@pytest.mark.parametrize('name', ['cumsum', 'cumprod', 'softmax', 'log_softmax'])
def test_scans(name):
    rng = np.random.default_rng([ord(c) for c in name])
    bad = [m for m in (scan_case(rng, name) for _ in range(N)) if m]
    assert not bad, f'{len(bad)} mismatches, e.g.\n' + '\n'.join(bad[:8])

def test_scan_out_and_errors():
    x = tt.tensor([[1, 2], [3, 4]]); o = tt.empty(0, dtype=tt.int64)
    r = tt.cumsum(x, 0, out=o)
    assert r is o and o.tolist() == [[1, 2], [4, 6]]
    o = tt.empty(0, dtype=tt.int32)                              # without dtype=, out='s dtype is the result dtype
    assert tt.cumprod(x.to(tt.float32), 1, out=o) is o and o.tolist() == [[1, 2], [3, 12]] and o.dtype is tt.int32
    with pytest.raises(RuntimeError, match='Expected out tensor to have dtype'): tt.cumsum(x, 0, dtype=tt.int64, out=tt.empty(0))
    for f in (lambda lib, x: lib.softmax(x, None), lambda lib, x: x.softmax(), lambda lib, x: lib.softmax(x.long(), 0),
              lambda lib, x: lib.log_softmax(x, 2), lambda lib, x: lib.cumprod(x, -3), lambda lib, x: lib.cumsum(x, 0, dtype=1)):
        r = run_both(lambda: f(tt, tt.ones(2, 3)), lambda: f(torch, torch.ones(2, 3)))
        assert isinstance(r[0], Exception) and type(r[0]) is type(r[1]), r

def test_softmax_integer_error_names_torchs_kernel():
    "An integer softmax names the kernel torch dispatches to: its own for the last dim (a 0-d input's too)."
    for name in ('softmax', 'log_softmax'):
        for shape, dim in [((2, 3), 1), ((2, 3), -1), ((2, 3), 0), ((), 0), ((4,), 0)]:
            r = run_both(lambda: getattr(tt, name)(tt.ones(shape, dtype=tt.int32), dim),
                         lambda: getattr(torch, name)(torch.ones(shape, dtype=torch.int32), dim))
            assert type(r[0]) is type(r[1]) is NotImplementedError and str(r[0]) == str(r[1]), (name, shape, dim, r)

# --- sort, argsort, msort, topk ------------------------------------------------------------------------------

def sort_case(rng, name):
    shape, dt, x_tt, x_th = _input(rng, DTYPES, lo=-3, hi=4)
    nd = len(shape)
    dim = _dim(rng, nd)
    method = bool(rng.random() < 0.5)
    if name == 'msort': args, kw, dim = [], {}, 0
    else:
        args, kw = [dim], {}
        if rng.random() < 0.5: kw['descending'] = bool(rng.random() < 0.5)
        if rng.random() < 0.5: kw['stable'] = bool(rng.random() < 0.5); kw['dim'] = args.pop()   # torch: stable= only with keyword dim
    ctx = f'{name} {shape}/{dt}/{x_th.stride()} {args} {kw}'
    r = run_both(lambda: _call(tt, x_tt, name, args, kw, method), lambda: _call(torch, x_th, name, args, kw, method))
    if isinstance(r[0], Exception) or isinstance(r[1], Exception): return check_results(*r, name, ctx=ctx)
    determined = True                      # ties too: stable sorts, and libstdc++'s std::sort replayed for non-stable ones
    if name == 'sort':
        if type(r[0]).__name__ != 'sort' or r[0].values is not r[0][0]: return ctx + ': not a sort named tuple'
        if determined: return check_results(tuple(r[0]), tuple(r[1]), name, ctx=ctx)
        m = check_results(r[0].values, r[1].values, name, ctx=ctx) or check_results(r[0].indices.sort(dim).values, r[1].indices.sort(dim).values, name, ctx=ctx)
        if not m and not _indices_consistent(x_tt, r[0].values, r[0].indices, dim): m = ctx + ': indices do not pick the values'
        return m
    if name == 'argsort' and not determined:                    # ties: both index lists must pick the same values
        picked_tt = torch.gather(x_th, dim, torch.from_numpy(r[0].numpy())).double().nan_to_num(1e9)
        picked_th = torch.gather(x_th, dim, r[1]).double().nan_to_num(1e9)
        return None if torch.equal(picked_tt, picked_th) else ctx + ': argsort picks different values'
    return check_results(r[0], r[1], name, ctx=ctx)

@pytest.mark.parametrize('name', ['sort', 'argsort', 'msort'])
def test_sort(name):
    rng = np.random.default_rng([ord(c) for c in name] + [3])
    bad = [m for m in (sort_case(rng, name) for _ in range(N)) if m]
    assert not bad, f'{len(bad)} mismatches, e.g.\n' + '\n'.join(bad[:8])

def topk_case(rng):
    shape, dt, x_tt, x_th = _input(rng, [d for d in DTYPES if d != 'bool'] + ['bool'] * (rng.random() < 0.05), lo=-20, hi=20)
    nd = len(shape)
    dim = _dim(rng, nd)
    n = shape[dim] if nd and -nd <= dim < nd else 1
    k = int(rng.integers(-1 if rng.random() < 0.05 else 0, n + 1 + (rng.random() < 0.05)))
    kw = {}
    if rng.random() < 0.5: kw['largest'] = bool(rng.random() < 0.5)
    args = [k, dim]
    ctx = f'topk {shape}/{dt}/{x_th.stride()} {args} {kw}'
    method = bool(rng.random() < 0.5)
    r = run_both(lambda: _call(tt, x_tt, 'topk', args, kw, method), lambda: _call(torch, x_th, 'topk', args, kw, method))
    if isinstance(r[0], Exception) or isinstance(r[1], Exception): return check_results(*r, 'topk', ctx=ctx)
    if type(r[0]).__name__ != 'topk': return ctx + ': not a topk named tuple'
    return check_results(tuple(r[0]), tuple(r[1]), 'topk', ctx=ctx)          # indices of ties too (libstdc++ replayed)
    m = check_results(r[0].values, r[1].values, 'topk', ctx=ctx)
    if not m and not _indices_consistent(x_tt, r[0].values, r[0].indices, dim if nd else 0): m = ctx + ': indices do not pick the values'
    return m

def test_topk():
    rng = np.random.default_rng(42)
    bad = [m for m in (topk_case(rng) for _ in range(2 * N)) if m]
    assert not bad, f'{len(bad)} mismatches, e.g.\n' + '\n'.join(bad[:8])

def long_row_case(rng, name):
    "A long dim (17..300 elements) of few distinct values: the tie order of std::sort / nth_element / partial_sort matters."
    n = int(rng.integers(17, 300))
    shape = [int(rng.integers(1, 4)) for _ in range(int(rng.integers(0, 3)))]
    pos = int(rng.integers(0, len(shape) + 1)); shape.insert(pos, n)
    dt = str(rng.choice(['int64', 'int32', 'int8', 'uint8', 'float32', 'float64', 'float16', 'bfloat16'] + ['bool'] * (name == 'sort')))
    x_tt, x_th = pair(rng, tuple(shape), dt, str(rng.choice(LAYOUTS)), special=rng.random() < 0.3, lo=-2, hi=3)
    if name == 'sort': kw = dict(dim=pos, descending=bool(rng.random() < 0.5), stable=bool(rng.random() < 0.3)); args = []
    else: args, kw = [int(rng.integers(0, n + 1)), pos], dict(largest=bool(rng.random() < 0.5), sorted=bool(rng.random() < 0.7))
    r = run_both(lambda: getattr(tt, name)(x_tt, *args, **kw), lambda: getattr(torch, name)(x_th, *args, **kw))
    return check_results(tuple(r[0]), tuple(r[1]), name, ctx=f'{name} {tuple(shape)}/{dt}/{x_th.stride()} {args} {kw}')

@pytest.mark.parametrize('name', ['sort', 'topk'])
def test_tie_order_long_rows(name):
    rng = np.random.default_rng([ord(c) for c in name] + [17])
    bad = [m for m in (long_row_case(rng, name) for _ in range(N)) if m]
    assert not bad, f'{len(bad)} mismatches, e.g.\n' + '\n'.join(bad[:8])

def test_sort_radix_and_long_rows():
    "1-D ascending integer sorts of >= 32768 elements are stable (fbgemm's radix sort); every other row with ties, however long, is replayed."
    x = np.random.default_rng(0).integers(0, 5, 40000)
    a, b = tt.sort(tt.from_numpy(x)), torch.sort(torch.from_numpy(x))
    assert same(a.indices, b.indices, 'sort') is None
    rng = np.random.default_rng(1)
    for x, desc in ((rng.integers(0, 5, (2, 3000)).astype(np.float32), True), (rng.integers(0, 9, (3, 20000)).astype(np.int16), False),
                    (rng.integers(0, 300, 100000).astype(np.float32), True), (rng.integers(0, 9, 50000), True)):
        a, b = tt.sort(tt.from_numpy(x), descending=desc), torch.sort(torch.from_numpy(x), descending=desc)
        assert same(a.indices, b.indices, 'sort') is None, (x.shape, x.dtype, desc)

def _tied_rows(seed, rows, dt, nan_frac):
    "The same wide rows of few distinct values (float dtypes: with NaN and -0.0 too) in tinytensor and torch."
    rng = np.random.default_rng(seed)
    x = rng.integers(-20, 20, (rows, 1024)).astype(np.float64) / 4
    if dt != 'int32': x[rng.random(x.shape) < nan_frac] = np.nan; x[rng.random(x.shape) < 0.05] = -0.0
    return tt.from_numpy(x).to(getattr(tt, dt)), torch.from_numpy(x).to(getattr(torch, dt))

@pytest.mark.parametrize('dt', ['int32', 'float32', 'bfloat16', 'float64'])
def test_sort_many_tied_rows(dt):
    "Hundreds of wide rows with ties, NaN and ±0, along either dim and both ways: torch's std::sort tie order (Note [introsort in bulk])."
    x_tt, x_th = _tied_rows(7, 256, dt, 0.02)
    for dim, desc in ((1, False), (1, True), (0, True), (0, False)):
        a, b = tt.sort(x_tt, dim, desc), torch.sort(x_th, dim, desc)
        assert same(a.indices, b.indices, 'sort') is None and same(a.values, b.values, 'sort') is None, (dim, desc)

@pytest.mark.parametrize('dt', ['int32', 'float32', 'bfloat16', 'float64'])
def test_topk_many_tied_rows(dt):
    "topk over hundreds of wide tied rows: partial_sort (k * 64 <= n) and nth_element (+ std::sort) replayed in bulk, as torch."
    x_tt, x_th = _tied_rows(8, 200, dt, 0.01)
    for k, dim, largest, srt in ((1, 1, True, True), (5, 1, True, True), (16, 1, False, True), (100, 1, True, True),
                                 (700, 1, False, True), (300, 1, True, False), (3, 0, True, True), (60, 0, False, False)):
        a, b = tt.topk(x_tt, k, dim, largest, srt), torch.topk(x_th, k, dim, largest, srt)
        assert same(a.indices, b.indices, 'topk') is None and same(a.values, b.values, 'topk') is None, (k, dim, largest, srt)

def test_median_all_large_zero_ties():
    "median() of all elements past 65536 elements: nth_element's pick among ±0 (and all-NaN payloads) is torch's, bit for bit."
    rng = np.random.default_rng(5)
    for t in range(6):
        x = rng.choice(np.array([0.0, -0.0, 1.0, -1.0, 2.0], np.float32), int(rng.choice([70001, 150000])))
        if t == 5: x[:] = np.nan; x[::3] = -np.nan
        for f in ('median', 'nanmedian'):
            a, b = getattr(tt.from_numpy(x), f)(), getattr(torch.from_numpy(x), f)()
            assert a.numpy().view(np.uint32) == b.numpy().view(np.uint32), (t, f)

def test_bulk_replay_equals_plain_replay():
    "`_std_sort_rows` (all rows, one recursion level per numpy step) equals `_std_sort` (one row, one element at a time), heap fallback included."
    from tinytensor.scans import _std_sort_rows, _std_sort, _order_keys, _key_comp
    rng = np.random.default_rng(3)
    for t in range(120):
        n = int(rng.integers(17, 700))
        rows = rng.integers(0, int(rng.integers(1, 30)), (4, n)).astype(np.int32) if t % 2 else \
            rng.choice(np.array([0.0, -0.0, np.nan, 1.0, -1.0, np.inf, 2.0, 3.0]), (4, n)).astype(np.float32)
        if t % 5 == 0: rows = np.sort(rows, axis=1)                         # already sorted: unbalanced partitions
        desc, depth = bool(t % 3 == 0), (None if t % 4 else int(rng.integers(0, 6)))
        K, I = _order_keys(rows, desc), np.tile(np.arange(n), (4, 1))
        _std_sort_rows(K, I, depth)
        for r, row in enumerate(rows):
            q = list(zip(row.tolist(), range(n)))
            _std_sort(q, 0, n, _key_comp(desc), depth)
            assert I[r].tolist() == [j for _, j in q], (t, r, n, desc, depth)

def test_topk_ties_and_errors():
    with pytest.raises(RuntimeError, match='selected index k out of range'): tt.ones(3).topk(4)
    with pytest.raises(RuntimeError, match='selected index k out of range'): tt.ones(3).topk(-1)
    with pytest.raises(RuntimeError, match='topk does not support complex dtypes on CPU'): tt.ones(3, dtype=tt.complex64).topk(1)
    with pytest.raises(RuntimeError, match='Sort does not support complex dtypes on CPU'): tt.ones(3, dtype=tt.complex64).sort()
    with pytest.raises(IndexError, match='Dimension out of range'): tt.ones(3).topk(1, 1)
    r = tt.topk(tt.tensor([1, 1, 1, 1, 2, 2]), 3)          # nth_element, then std::sort of the first two: torch's [5, 4, 3]
    assert r.values.tolist() == [2, 2, 1] and r.indices.tolist() == [5, 4, 3]
    r = tt.tensor([[3., 1.]]).topk(0)
    assert r.values.shape == (1, 0) and r.values.stride() == torch.ones(1, 2).topk(0).values.stride()

# --- median, nanmedian -----------------------------------------------------------------------------------------

def median_case(rng, name):
    shape, dt, x_tt, x_th = _input(rng, [d for d in DTYPES if d != 'bool'] + ['bool', 'complex64'][:int(rng.random() < 0.05)], lo=-20, hi=20)
    nd = len(shape)
    with_dim = rng.random() < 0.7
    args = [_dim(rng, nd), bool(rng.random() < 0.4)] if with_dim else []
    if not with_dim and x_th.numel() == 0 and dt not in FLOATS: return None      # torch returns a NaN cast to an integer
    ctx = f'{name} {shape}/{dt}/{x_th.stride()} {args}'
    method = bool(rng.random() < 0.5)
    r = run_both(lambda: _call(tt, x_tt, name, args, {}, method), lambda: _call(torch, x_th, name, args, {}, method))
    if isinstance(r[0], Exception) or isinstance(r[1], Exception) or not with_dim: return check_results(*r, name, ctx=ctx)
    if type(r[0]).__name__ != name: return ctx + ': not a named tuple'
    d = args[0] % max(nd, 1)
    if nd and x_th.stride(d) == 0 and x_th.shape[d] > 1: return None     # torch 2.13 reads wrong elements along a stride-0 dim (see test_median_expanded)
    return check_results(tuple(r[0]), tuple(r[1]), name, ctx=ctx)          # ATen breaks ties by index: determined
    m = check_results(r[0].values, r[1].values, name, ctx=ctx)
    vals = r[0].values if args[1] or nd == 0 else r[0].values.unsqueeze(d)
    idx = r[0].indices if args[1] or nd == 0 else r[0].indices.unsqueeze(d)
    if not m and not _indices_consistent(x_tt, vals, idx, d): m = ctx + ': indices do not pick the values'
    return m

@pytest.mark.parametrize('name', ['median', 'nanmedian'])
def test_median(name):
    rng = np.random.default_rng([ord(c) for c in name])
    bad = [m for m in (median_case(rng, name) for _ in range(N)) if m]
    assert not bad, f'{len(bad)} mismatches, e.g.\n' + '\n'.join(bad[:8])

def test_median_expanded():
    "Along an expanded (stride-0) dim every element is the same, so that element is the median; torch 2.13 reads past it."
    x = tt.arange(-20, 0, dtype=tt.int8).as_strided((4, 3), (0, 0), 2)
    assert tt.median(x, 0).values.tolist() == [-18] * 3 and tt.nanmedian(x, 0, True).values.tolist() == [[-18] * 3]

def test_median_errors():
    for f in (lambda lib, x: x.median(0), lambda lib, x: lib.median(x.bool(), 1), lambda lib, x: x.to(lib.complex64).median(1), lambda lib, x: x.median(3)):
        r = run_both(lambda: f(tt, tt.ones(0, 3)), lambda: f(torch, torch.ones(0, 3)))
        assert isinstance(r[0], Exception) and type(r[0]) is type(r[1]), r

# --- unique, unique_consecutive ---------------------------------------------------------------------------------

def unique_case(rng, name):
    shape, dt, x_tt, x_th = _input(rng, DTYPES, maxdim=3, lo=-2, hi=3)
    nd = len(shape)
    kw = {}
    if rng.random() < 0.5: kw['return_inverse'] = bool(rng.random() < 0.6)
    if rng.random() < 0.5: kw['return_counts'] = bool(rng.random() < 0.6)
    if rng.random() < 0.4: kw['dim'] = _dim(rng, nd) if nd else 0
    ctx = f'{name} {shape}/{dt}/{x_th.stride()} {kw}'
    method = bool(rng.random() < 0.5)
    r = run_both(lambda: _call(tt, x_tt, name, [], kw, method), lambda: _call(torch, x_th, name, [], kw, method))
    if isinstance(r[1], tuple) and not isinstance(r[0], tuple): return ctx + ': not a tuple'
    return check_results(*r, name, ctx=ctx)

@pytest.mark.parametrize('name', ['unique', 'unique_consecutive'])
def test_unique(name):
    rng = np.random.default_rng([ord(c) for c in name] + [1])
    bad = [m for m in (unique_case(rng, name) for _ in range(N)) if m]
    assert not bad, f'{len(bad)} mismatches, e.g.\n' + '\n'.join(bad[:8])

# --- properties ---------------------------------------------------------------------------------------------------

@settings(max_examples=40, deadline=None)
@given(shape=st.lists(st.integers(0, 4), min_size=1, max_size=3), data=st.data())
def test_sort_property(shape, data):
    "sort along any dim of any permuted layout: torch's values, indices and strides."
    nd = len(shape)
    dim = data.draw(st.integers(-nd, nd - 1))
    perm = data.draw(st.permutations(range(nd)))
    desc = data.draw(st.booleans())
    rng = np.random.default_rng(sum(shape) + nd)
    base = rng.integers(-3, 4, [shape[p] for p in perm]).astype(np.float32)
    inv = list(np.argsort(perm))
    x_th = torch.from_numpy(base).permute(inv)
    x_tt = tt.from_numpy(base.copy()).permute(*inv)
    a, b = tt.sort(x_tt, dim, descending=desc, stable=True), torch.sort(x_th, dim=dim, descending=desc, stable=True)
    assert same(a.values, b.values, 'sort') is None and same(a.indices, b.indices, 'sort') is None
    c = tt.cumsum(x_tt, dim)
    assert same(c, torch.cumsum(x_th, dim), 'cumsum') is None

# --- out= ---------------------------------------------------------------------------------------------------------

def test_out_variants():
    "out= tensors are resized, filled and returned, as torch does."
    x_th = torch.tensor([[3., 1., 2.], [0., 5., 4.]]); x_tt = tt.tensor(x_th.tolist())
    calls = [('sort', lambda lib, x, o: lib.sort(x, 1, out=(o(lib), o(lib, 'int64')))),
             ('topk', lambda lib, x, o: lib.topk(x, 2, out=(o(lib), o(lib, 'int64')))),
             ('median', lambda lib, x, o: lib.median(x, 0, out=(o(lib), o(lib, 'int64')))),
             ('cumprod', lambda lib, x, o: lib.cumprod(x, 1, out=o(lib))),
             ('msort', lambda lib, x, o: lib.msort(x, out=o(lib)))]
    for name, f in calls:
        outs = {}
        def o(lib, dt='float32'):
            t = lib.empty(0, dtype=getattr(lib, dt)); outs.setdefault(lib.__name__, []).append(t); return t
        a, b = f(tt, x_tt, o), f(torch, x_th, o)
        a = a if isinstance(a, tuple) else (a,); b = b if isinstance(b, tuple) else (b,)
        for p, q, ot in zip(a, b, outs['tinytensor']):
            assert p is ot and same(p, q, name) is None, (p, q)

def test_fast_paths_equal_plain_paths():
    "topk's partition path and sort's numpy path give what replaying libstdc++ on every row gives."
    from tinytensor.scans import _topk_indices, _topk_row, _sort_indices, _std_sort, _key_comp
    rng = np.random.default_rng(5)
    for _ in range(60):
        n = int(rng.integers(1, 200))
        rows = rng.standard_normal((3, n)).astype(np.float32) if rng.random() < 0.5 else rng.integers(-50, 50, (3, n))
        if rng.random() < 0.3: rows[0, rng.integers(0, n)] = rows[0, 0]
        k, largest, srt = int(rng.integers(0, n + 1)), bool(rng.random() < 0.5), bool(rng.random() < 0.7)
        plain = np.array([[j for _, j in _topk_row(r.tolist(), k, largest, srt)] for r in rows]).reshape(3, k)
        assert np.array_equal(_topk_indices(rows, k, 1, largest, srt), plain)
        desc = bool(rng.random() < 0.5)
        plain = []
        for r in rows:
            q = list(zip(r.tolist(), range(n))); _std_sort(q, 0, n, _key_comp(desc)); plain.append([j for _, j in q])
        assert np.array_equal(_sort_indices(rows, 1, desc, False), np.array(plain))

def test_meta_device():
    "On the meta device every op of chapters 06c-06f computes only shapes, strides and dtypes — torch's."
    x_th, x_tt = torch.empty(2, 3, device='meta'), tt.empty(2, 3, device='meta')
    calls = [lambda lib, x: x.std(1), lambda lib, x: x.var(0), lambda lib, x: x.norm(), lambda lib, x: x.logsumexp(1),
             lambda lib, x: x.count_nonzero(0), lambda lib, x: x.nansum(0), lambda lib, x: x.nanmean(), lambda lib, x: lib.std_mean(x, 0)[1],
             lambda lib, x: x.cumsum(1), lambda lib, x: x.softmax(1), lambda lib, x: x.log_softmax(0), lambda lib, x: x.sort(1)[0],
             lambda lib, x: x.argsort(1), lambda lib, x: x.topk(2)[1], lambda lib, x: x.median(1)[0], lambda lib, x: x.msort(),
             lambda lib, x: x.mm(x.T), lambda lib, x: x[0].outer(x[0]), lambda lib, x: lib.einsum('ij,kj->ik', x, x), lambda lib, x: x.mv(x[0])]
    for f in calls:
        a, b = f(tt, x_tt), f(torch, x_th)
        assert (tuple(a.shape), a.stride(), a.dtype.name, a.device.type) == (tuple(b.shape), b.stride(), str(b.dtype)[6:], 'meta')

@settings(max_examples=40, deadline=None)
@given(shape=st.lists(st.integers(0, 5), min_size=1, max_size=3), data=st.data())
def test_along_dim_property(shape, data):
    "softmax, log_softmax, cumprod, topk, median, argsort along any dim of a permuted int-valued float tensor: torch's results."
    nd = len(shape)
    dim = data.draw(st.integers(-nd, nd - 1))
    perm = data.draw(st.permutations(range(nd)))
    rng = np.random.default_rng(sum(shape) * 7 + nd)
    base = rng.integers(-2, 3, [shape[p] for p in perm]).astype(np.float32)
    inv = [int(i) for i in np.argsort(perm)]
    x_th, x_tt = torch.from_numpy(base).permute(inv), tt.from_numpy(base.copy()).permute(*inv)
    k = data.draw(st.integers(0, shape[dim]))
    largest = data.draw(st.booleans())
    for name, f in [('softmax', lambda lib, x: lib.softmax(x, dim)), ('log_softmax', lambda lib, x: lib.log_softmax(x, dim)),
                    ('cumprod', lambda lib, x: lib.cumprod(x, dim)), ('topk', lambda lib, x: tuple(lib.topk(x, k, dim, largest))),
                    ('median', lambda lib, x: tuple(lib.median(x, dim))), ('argsort', lambda lib, x: lib.argsort(x, dim))]:
        r = run_both(lambda: f(tt, x_tt), lambda: f(torch, x_th))
        assert check_results(*r, name) is None, (name, shape, perm, dim, k, check_results(*r, name))

@pytest.mark.parametrize('name', ['cumsum_', 'cumprod_'])
def test_inplace_scans(name):
    "cumsum_/cumprod_ on random dtypes and layouts (writes into self; dtype= must equal self's; aliasing layouts refused)."
    for seed in range(N):
        rng = np.random.default_rng(seed)
        shape, dt, a, b = _input(rng, lo=-3, hi=4)
        d = _dim(rng, len(shape))
        kw = {} if rng.random() < 0.7 else {'dtype': str(rng.choice(['float32', 'float64', 'int64', dt]))}
        ra, rb = run_both(lambda: _call(tt, a, name, (d,), kw, True),
                          lambda: _call(torch, b, name, (d,), kw, True))
        msg = check_results(ra, rb, name.rstrip('_'), ctx=f'seed {seed} {name} {dt}{shape} {d} {kw}')
        assert msg is None, msg
        if isinstance(rb, torch.Tensor): assert ra is a and rb is b


@pytest.mark.parametrize('threads', [1, 2])
@pytest.mark.parametrize('dt', ['float32', 'float16', 'int32', 'complex64', 'float64'])
def test_scans_by_slices_and_rows(threads, dt):
    "Note [scan by slices]: the slice-stepping and thread-split scans equal one numpy accumulate, bit for bit, and torch."
    from tinytensor.scans import SCAN_SLICE_MIN, _cpu_acc
    rng = np.random.default_rng(threads)
    with num_threads(threads):
        for shape in [(300, SCAN_SLICE_MIN + 5), (40, 50, 60), (3000, 40), (5, 7)]:
            x = rng.standard_normal(shape) * 3
            if dt == 'complex64': x = x + 1j * rng.standard_normal(shape)
            x = x.astype(dt)
            for name, uf in (('cumsum', np.add), ('cumprod', np.multiply)):
                xx = (1 + x / 50).astype(dt) if name == 'cumprod' else x     # products that neither vanish nor blow up
                for d in range(len(shape)):
                    for layout in ('c', 'f'):
                        a_np = np.ascontiguousarray(xx) if layout == 'c' else np.asfortranarray(xx)
                        a = tt.from_numpy(a_np)
                        od = np.dtype('int64' if dt == 'int32' else dt)
                        got = getattr(a, name)(d)
                        plain = uf.accumulate(a_np.astype(od), axis=d, dtype=_cpu_acc(getattr(tt, str(od)))).astype(od)
                        assert got.numpy().tobytes() == np.ascontiguousarray(plain).tobytes(), (name, shape, d, layout)
                        ref = getattr(torch.from_numpy(a_np), name)(d)
                        assert same(got, ref, name, strides=False) is None, (name, shape, d, layout)   # complex cumprod: ATen's rounding
                        if dt != 'int32':                                  # in place: int32 would need an int64 result
                            inp = a.clone(); getattr(inp, name + '_')(d)
                            assert np.array_equal(inp.numpy(), plain) and inp.stride() == a.stride()


def test_sort_fast_path_equals_stable_plain_on_tie_free_rows():
    "Unstable sorts take numpy's vectorised argsort (speed only): rows without ties match the stable sort, rows with ties torch."
    from tinytensor.scans import _sort_indices, _argsort
    rng = np.random.default_rng(9)
    for shape, axis in [((300, 500), 1), ((500, 300), 0), ((4, 60, 70), 1), ((2000,), 0)]:
        x = rng.permutation(np.prod(shape)).reshape(shape).astype(np.float32)      # no ties at all
        np.moveaxis(x, axis, -1)[..., 0] = np.nan                                  # one NaN per sorted line: still no tie
        for desc in (False, True):
            assert np.array_equal(_sort_indices(x, axis, desc, False), _argsort(x, axis, desc))
        y = x.copy(); y.reshape(-1)[::97] = 0.0; y.reshape(-1)[1::97] = -0.0          # ties (±0 compare equal) in many rows
        y.reshape(-1)[5::89] = np.nan
        for desc in (False, True):
            v, i = tt.from_numpy(y).sort(axis, descending=desc)
            vt, it = torch.from_numpy(y).sort(axis, descending=desc)
            assert np.array_equal(i.numpy(), it.numpy()) and same(v, vt, 'sort') is None


@pytest.mark.parametrize('threads', [1, 2])
def test_topk_rows_threaded(threads):
    "topk's partition runs over row blocks shared among threads: values and indices as torch's, ties and NaNs included."
    rng = np.random.default_rng(threads)
    x = rng.standard_normal((400, 700)).astype(np.float32)
    x[::7, ::11] = 0.5; x[::13, 3] = np.nan                                # ties and NaNs in some rows: the replayed path
    with num_threads(threads):
        for k, largest, dim in [(5, True, 1), (40, False, 1), (3, True, 0), (700, True, 1)]:
            v, i = tt.from_numpy(x).topk(k, dim, largest)
            vt, it = torch.from_numpy(x).topk(k, dim, largest)
            assert np.array_equal(i.numpy(), it.numpy()) and same(v, vt, 'topk') is None


@pytest.mark.parametrize('dt', ['float32', 'float64', 'float16', 'bfloat16'])
def test_median_all_elements_bits(dt):
    "median()/nanmedian() of all elements: nth_element's pick among ±0 (and all-NaN) replayed, torch's quiet NaN, bit for bit."
    rng = np.random.default_rng(len(dt))
    bf = dt == 'bfloat16'                                                 # torch has no numpy bfloat16
    for n in (1, 2, 3, 5, 8, 17, 100, 1000):
        for trial in range(30):
            x = rng.integers(-1, 2, n).astype(np.float32)
            z = x == 0; x[z] = np.where(rng.random(z.sum()) < 0.5, -0.0, 0.0)
            if trial % 4 == 0: x.view(np.uint32)[rng.integers(0, n)] = 0xffc00123   # a NaN with a sign and payload
            if trial % 10 == 1: x[:] = np.nan
            for transposed in ((False, True) if n % 4 == 0 else (False,)):
                m = x.reshape(-1, 4) if transposed else x
                if bf:                                                   # the same bits on both sides (torch's own
                    bits = tt.from_numpy(np.ascontiguousarray(m)).to(tt.bfloat16).view(tt.int16).numpy()  # NaN cast differs)
                    a, b = both(bits, transposed)
                    a, b = a.view(tt.bfloat16), b.view(torch.bfloat16)
                else: a, b = both(m.astype(dt), transposed)
                for f in ('median', 'nanmedian'):
                    got, want = getattr(a, f)(), getattr(b, f)()
                    wb = want.view(torch.int16).numpy().tobytes() if bf else want.numpy().tobytes()   # the raw bits
                    gb = got.view(tt.int16).numpy().tobytes() if bf else got.numpy().tobytes()
                    assert gb == wb, (dt, n, trial, transposed, f, x)


@pytest.mark.parametrize('dt', ['float32', 'float64', 'float16', 'int32', 'int64', 'complex64', 'bool'])
@pytest.mark.parametrize('n', [65537, 131072, 3 * 65536 + 5])   # just past one block, two whole blocks, a short last one
@pytest.mark.parametrize('name', ['cumsum', 'cumprod'])
def test_long_1d_scan_matches_torch_bits(dt, n, name):
    "Note [a long scan in blocks]: the running value carried from block to block keeps torch's one chain, bit for bit."
    if name == 'cumprod' and dt == 'complex64': pytest.skip("c10::complex's product may fuse a multiply-add (last bit)")
    r = np.random.default_rng(n)
    v = r.standard_normal(n) * (0.01 if name == 'cumprod' else 1) + (1 if name == 'cumprod' else 0)
    if dt.startswith('float'): v[:4] = [-0.0, -0.0, 1.5, -1.5]; v[n // 2] = np.nan   # Note [sums start from +0.0]
    if dt == 'complex64': v = v + 1j * r.standard_normal(n) * 0.01
    if dt in ('int32', 'int64', 'bool'): v = r.integers(0, 3 if name == 'cumprod' else 100, n)
    a, t = getattr(tt, name)(tt.tensor(v).to(getattr(tt, dt)), 0), getattr(torch, name)(torch.tensor(v).to(getattr(torch, dt)), 0)
    x, y = a.numpy(), t.numpy()
    assert a.dtype.name == str(t.dtype)[6:] and x.shape == y.shape
    if x.dtype.kind in 'fc':
        nx, ny = np.isnan(x), np.isnan(y)
        assert (nx == ny).all() and x[~nx].tobytes() == y[~ny].tobytes()
    else: assert x.tobytes() == y.tobytes()


@pytest.mark.parametrize('shape, dim', [((5,), 0), ((4, 6), 1), ((6, 2000), 0), ((3, 70000), 1), ((2, 3), 0)])
def test_cumsum_starts_from_positive_zero(shape, dim):
    "Note [sums start from +0.0]: leading -0.0s sum to +0.0 in every path (slices, rows, one chain), as torch."
    v = np.full(shape, -0.0); idx = [slice(None)] * len(shape); idx[dim] = slice(shape[dim] // 2, None); v[tuple(idx)] = 1.25
    for dt in ('float32', 'float64', 'complex64'):
        a, t = tt.cumsum(tt.tensor(v).to(getattr(tt, dt)), dim), torch.cumsum(torch.tensor(v).to(getattr(torch, dt)), dim)
        assert a.numpy().tobytes() == t.numpy().tobytes(), dt


# --- unique with NaN and signed zeros: Note [unique with NaN and signed zeros] ---------------------------------------

_INT = {2: (torch.int16, tt.int16), 4: (torch.int32, tt.int32), 8: (torch.int64, tt.int64)}

def _bits_both(b):
    "torch tensor `b` and a tinytensor tensor holding the same bits (bfloat16 NaNs included)."
    ti, ii = _INT[b.element_size()]
    return tt.from_numpy(b.contiguous().view(ti).numpy().copy()).view(getattr(tt, str(b.dtype)[6:])), b

def _same_bits(a, b):
    "None if tinytensor `a` and torch `b` have the same shape, strides, dtype and bits, else a reason."
    if a.dtype.name != str(b.dtype)[6:]: return f'dtype {a.dtype.name} != {b.dtype}'
    if tuple(a.shape) != tuple(b.shape) or tuple(a.stride()) != tuple(b.stride()):
        return f'layout {a.shape}/{a.stride()} != {tuple(b.shape)}/{b.stride()}'
    if b.is_floating_point():
        a, b = a.contiguous().view(_INT[b.element_size()][1]), b.contiguous().view(_INT[b.element_size()][0])
    return None if np.array_equal(a.numpy(), b.numpy()) else f'values {a.numpy().ravel()[:8]} != {b.numpy().ravel()[:8]}'

NAN = float('nan')
UNIQUE_NAN_CASES = [
    [[1., NAN], [0., 1.], [NAN, 0.], [1., NAN], [-0., 1.]],               # NaN in either column, a ±0 tie
    [[NAN, NAN], [NAN, NAN], [1., 2.], [NAN, NAN], [1., 2.]],               # identical NaN rows stay apart
    [[0., 1.], [-0., 1.], [0., 1.], [-0., 1.], [-0., -0.], [0., 0.]],       # no NaN: which zero is kept
    [[-0., 2.], [0., 2.]] * 12,                                             # past 16 rows: introsort's partitions
    [NAN, 1., NAN, -0., 0., NAN, 2., 1., -0.],                              # 1-d
    [[[1., NAN], [2., 3.]], [[1., NAN], [2., 3.]], [[0., 0.], [-0., 0.]]],  # 3-d
    [[NAN, 0.], [1., 5.], [2., -1.]] * 7,                                   # a cycle: [NaN, 0] < [1, 5] < [2, -1] < [NaN, 0]
]
_rng = np.random.default_rng(2024)
_pool = np.array([-1., -0., 0., 1., 2., NAN])
UNIQUE_NAN_CASES += [_rng.choice(_pool, s).tolist() for s in [(40, 2), (200, 3), (33, 1), (300,), (6, 5, 2)]]
UNIQUE_NAN_CASES += [_rng.choice(_pool[:5], s).tolist() for s in [(60, 2), (500,)]]   # zeros of both signs, no NaN

@pytest.mark.parametrize('dt', FLOATS)
@pytest.mark.parametrize('name', ['unique', 'unique_consecutive'])
def test_unique_nan_rows_bits(name, dt):
    "Values (bit for bit: NaNs, -0.0), inverse and counts as torch's, for every dim of inputs with NaNs and signed zeros."
    for case, v in enumerate(UNIQUE_NAN_CASES):
        a0, b0 = _bits_both(torch.tensor(v, dtype=torch.float64).to(getattr(torch, dt)))
        nd = b0.dim()
        flip = lambda t: t.transpose(0, -1).contiguous().transpose(0, -1)      # the same values, column-major
        layouts = [(a0, b0)] + ([(flip(a0), flip(b0))] if nd > 1 else [])
        for a, b in layouts:
            for dim in [None] + list(range(-nd, nd)):
                for kw in (dict(return_inverse=True, return_counts=True), dict(return_counts=True), {}):
                    r = run_both(lambda: getattr(tt, name)(a, dim=dim, **kw),
                                 lambda: getattr(torch, name)(b, dim=dim, **kw))
                    ra, rb = [q if isinstance(q, tuple) else (q,) for q in r]
                    assert len(ra) == len(rb), (case, dim, kw, r)
                    for x, y in zip(ra, rb):
                        m = _same_bits(x, y)
                        assert m is None, (name, dt, case, b.stride(), dim, kw, m)

@pytest.mark.parametrize('shape, dim', [((0,), None), ((0,), 0), ((0, 3), 0), ((3, 0), 1), ((0, 3), 1), ((2, 0, 3), 1),
                                         ((0, 0), 0), ((0, 0), 1), ((0, 0), -1), ((0, 0, 2), 0), ((0, 0, 2), 2), ((0, 2, 0), 1)])
def test_unique_empty(shape, dim):
    "Empty inputs: the same values, inverse, counts (or the same error) as torch."
    for name in ('unique', 'unique_consecutive'):
        kw = dict(return_inverse=True, return_counts=True, dim=dim)
        r = run_both(lambda: getattr(tt, name)(tt.empty(shape), **kw),
                     lambda: getattr(torch, name)(torch.empty(shape), **kw))
        assert check_results(*r, name, ctx=f'{name} {shape} {dim}') is None, r

@pytest.mark.parametrize('dt', ['float16', 'bfloat16'])
def test_cumprod_half_keeps_a_float_running_product(dt):
    "cumprod's kernel keeps its running product in float (acc_type): past an overflow it comes back, bit for bit as torch."
    v = [300., 300., 1 / 300, 1 / 300, 2.**-20, 2.**-20, 2.**20, 2.**20] if dt == 'float16' else \
        [1.75 * 2.**64, 1.140625 * 2.**63, 2.**-64, 2.**-63]
    a, b = _bits_both(torch.tensor(v * 3, dtype=torch.float64).to(getattr(torch, dt)).reshape(3, -1))
    for f in (lambda x: x.cumprod(1), lambda x: x.t().contiguous().cumprod(0), lambda x: x.reshape(-1).cumprod(0)):
        assert _same_bits(f(a), f(b)) is None

def test_unique_empty_dims_error_class():
    "A (0, 0) input along either dim: torch's RuntimeError, for unique and unique_consecutive (not an empty result)."
    for name in ('unique', 'unique_consecutive'):
        for dim in (0, 1):
            r = run_both(lambda: getattr(tt, name)(tt.empty(0, 0), dim=dim), lambda: getattr(torch, name)(torch.empty(0, 0), dim=dim))
            assert isinstance(r[1], RuntimeError) and type(r[0]) is RuntimeError, (name, dim, r)
            assert str(r[0]) == str(r[1]), (r[0], r[1])

@pytest.mark.parametrize('dim', [0, 30, 61, -1])
@pytest.mark.parametrize('name', ['softmax', 'log_softmax'])
def test_softmax_more_than_64_dims(name, dim):
    "softmax of a 67-dim tensor runs, as torch's (its reductions over one dim would refuse it)."
    s = [1] * 30 + [3] + [1] * 30 + [2] + [1] * 5
    v = np.random.default_rng(0).standard_normal(6).astype(np.float32)
    a, b = tt.tensor(v).reshape(s), torch.tensor(v).reshape(s)
    r = run_both(lambda: getattr(tt, name)(a, dim).reshape(6), lambda: getattr(torch, name)(b, dim).reshape(6))
    assert check_results(*r, name) is None, r
    assert getattr(tt, name)(a, dim).stride() == getattr(torch, name)(b, dim).stride()
