"Differential tests of the order statistics and selections (mode, kthvalue, aminmax, quantile/nanquantile, isin) against torch."
import itertools
import numpy as np
import pytest
torch = pytest.importorskip("torch")
import tinytensor as tt
from ttgen import DTYPES, FLOATS, INTS, LAYOUTS, pair, rand_shapes, run_both, check_results

torch.set_num_threads(1)

def _key(x, torch_side):
    "Shape, strides, dtype name and values as float64 bits (signed zeros told apart; every NaN one NaN)."
    v = x.float().tolist() if torch_side and x.dtype is torch.bfloat16 else x.tolist()
    a = np.asarray(np.array(v), dtype=np.float64)
    a = np.where(np.isnan(a), np.nan, a)
    return (tuple(x.shape), tuple(x.stride()), str(x.dtype).split('.')[-1]), a

def _same_bits(a, b):
    "None if tinytensor tensor `a` and torch tensor `b` agree bit for bit (values via float64), shape, strides, dtype (or raised the same class)."
    if isinstance(a, Exception) or isinstance(b, Exception):
        return None if type(a) is type(b) else f'{a!r} vs {b!r}'
    (ma, va), (mb, vb) = _key(a, False), _key(b, True)
    if ma != mb: return f'{ma} vs {mb}'
    return None if va.tobytes() == vb.tobytes() else f'{va.reshape(-1)[:40]} vs {vb.reshape(-1)[:40]}'

def _check_tuple(r, ctx, fields):
    ra, rb = r
    if isinstance(rb, Exception):
        assert isinstance(ra, Exception) and type(ra) is type(rb), (ctx, ra, rb)
        return
    assert not isinstance(ra, Exception), (ctx, ra, rb)
    assert type(ra).__name__ == type(rb).__name__ and ra._fields == tuple(fields), (ctx, type(ra), ra)
    for x, y in zip(ra, rb):
        m = _same_bits(x, y)
        assert m is None, (ctx, m)

TIE_DTYPES = ['bool', 'uint8', 'int8', 'int16', 'int32', 'int64', 'float16', 'bfloat16', 'float32', 'float64']

def _tied(rng, shape, dt, kind):
    "A tensor pair with many ties (few distinct values; floats with NaN, ±0, inf; an expanded float layout is sliced instead)."
    if dt in FLOATS and kind == 'expand': kind = 'slice'
    x_tt, x_th = pair(rng, shape, dt, kind, special=True, lo=-2, hi=3)
    if dt in FLOATS and x_th.numel():
        pool = np.array([0., -0., 1., -1., np.nan, 2., np.inf, 1.])
        v = rng.choice(pool, x_th.numel())
        if rng.random() < 0.5: v[np.isnan(v)] = 1.     # half the cases without NaN
        x_th.copy_(torch.tensor(v.reshape(tuple(x_th.shape))).to(x_th.dtype))
        x_tt.copy_(tt.tensor(v.reshape(tuple(x_th.shape))).to(x_tt.dtype))
    return x_tt, x_th

@pytest.mark.parametrize('dt', TIE_DTYPES)
def test_mode_ties_and_layouts(dt):
    "mode's value and index (the index torch's std::sort leaves last in the most frequent run) over layouts, dims, keepdim."
    rng = np.random.default_rng(TIE_DTYPES.index(dt))
    for case in range(40):
        _, shape = rand_shapes(rng, 1, maxdim=3)
        if case % 5 == 0: shape = (int(rng.integers(17, 80)),) + tuple(shape[:1])    # rows past insertion sort
        kind = LAYOUTS[case % len(LAYOUTS)]
        x_tt, x_th = _tied(rng, shape, dt, kind)
        nd = max(x_th.dim(), 1)
        for dim in range(-nd, nd):
            for keepdim in (False, True):
                r = run_both(lambda: tt.mode(x_tt, dim, keepdim), lambda: torch.mode(x_th, dim, keepdim))
                _check_tuple(r, (dt, shape, kind, dim, keepdim, x_th.tolist()), ('values', 'indices'))

def test_mode_many_ties_long_rows():
    "Long rows of few values (introsort's partitions, not only its insertion sort), with and without NaN."
    rng = np.random.default_rng(5)
    for n in (17, 33, 100, 257, 1000):
        for nan in (False, True):
            v = rng.choice([0., -0., 1., 2., 3.] + ([np.nan] if nan else []), (4, n))
            for dt in ('float32', 'float64', 'int64'):
                a = torch.tensor(v).to(getattr(torch, dt)) if dt != 'int64' else torch.tensor(np.nan_to_num(v) * 3).long()
                b = tt.tensor(a.tolist(), dtype=getattr(tt, dt))
                _check_tuple(run_both(lambda: tt.mode(b, 1), lambda: torch.mode(a, 1)), (n, nan, dt), ('values', 'indices'))
                _check_tuple(run_both(lambda: b.mode(0), lambda: a.mode(0)), (n, nan, dt), ('values', 'indices'))

@pytest.mark.parametrize('dt', TIE_DTYPES + ['complex64'])
def test_kthvalue_ties_and_layouts(dt):
    "kthvalue's value and index (torch's quick select among ties; NaN the largest) for every k, dims, keepdim, layouts."
    rng = np.random.default_rng(100 + (TIE_DTYPES + ['complex64']).index(dt))
    for case in range(25):
        _, shape = rand_shapes(rng, 1, maxdim=3)
        if case % 5 == 0: shape = (int(rng.integers(10, 60)), 2)
        kind = LAYOUTS[case % len(LAYOUTS)]
        if dt == 'complex64':
            x_th = torch.randn(shape, dtype=torch.complex64); x_tt = tt.tensor(x_th.numpy())
        else: x_tt, x_th = _tied(rng, shape, dt, kind)
        nd = max(x_th.dim(), 1)
        for dim in range(-nd, nd):
            n = x_th.shape[dim] if x_th.dim() else 1
            for k in sorted({0, 1, max(n // 2, 1), n, n + 1}):
                keepdim = bool(k % 2)
                r = run_both(lambda: tt.kthvalue(x_tt, k, dim, keepdim), lambda: torch.kthvalue(x_th, k, dim, keepdim))
                _check_tuple(r, (dt, shape, kind, k, dim, keepdim, x_th.tolist()), ('values', 'indices'))

@pytest.mark.parametrize('dt', TIE_DTYPES + ['complex64'])
def test_aminmax(dt):
    "aminmax over all elements or one dim, keepdim, layouts, NaN, empty tensors: values, shapes, strides, errors."
    rng = np.random.default_rng(200 + (TIE_DTYPES + ['complex64']).index(dt))
    for case in range(30):
        _, shape = rand_shapes(rng, 1, maxdim=3)
        kind = LAYOUTS[case % len(LAYOUTS)]
        if dt == 'complex64':
            x_th = torch.randn(shape, dtype=torch.complex64); x_tt = tt.tensor(x_th.numpy())
        else: x_tt, x_th = _tied(rng, shape, dt, kind)
        nd = max(x_th.dim(), 1)
        for dim in [None] + list(range(-nd, nd)):
            for keepdim in (False, True):
                kw = dict(keepdim=keepdim) if dim is None else dict(dim=dim, keepdim=keepdim)
                for r in (run_both(lambda: tt.aminmax(x_tt, **kw), lambda: torch.aminmax(x_th, **kw)),
                          run_both(lambda: x_tt.aminmax(**kw), lambda: x_th.aminmax(**kw))):
                    if dim is None and not x_th.is_contiguous() and not isinstance(r[1], Exception):
                        # which of -0.0 and 0.0 a strided all-reduce keeps is its vector loop's: values only
                        assert type(r[0]).__name__ == 'aminmax' and r[0]._fields == ('min', 'max'), r
                        zero = (lambda t: t) if dt == 'bool' else (lambda t: t + 0)      # -0.0 + 0 is 0.0
                        for a, b in zip(*r): assert _same_bits(zero(a), zero(b)) is None, (dt, shape, kind, r)
                    else: _check_tuple(r, (dt, shape, kind, dim, keepdim), ('min', 'max'))

@pytest.mark.parametrize('name', ['mode', 'kthvalue', 'aminmax'])
def test_empty_and_scalar_inputs(name):
    "0-d tensors, empty reduced dims (IndexError), empty kept dims (empty results), dims out of range, bad dim types."
    for shape in [(), (0,), (2, 0), (0, 2), (0, 0)]:
        for dim in [0, 1, -1, 2, (0,)]:
            for dt in ('float32', 'int64', 'bool', 'complex64'):
                a, b = tt.zeros(shape, dtype=getattr(tt, dt)), torch.zeros(shape, dtype=getattr(torch, dt))
                if name == 'kthvalue': f = lambda L, x: L.kthvalue(x, 1, dim)
                elif name == 'aminmax': f = lambda L, x: L.aminmax(x, dim=dim)
                else: f = lambda L, x: L.mode(x, dim)
                _check_tuple(run_both(lambda: f(tt, a), lambda: f(torch, b)), (name, shape, dim, dt),
                             ('min', 'max') if name == 'aminmax' else ('values', 'indices'))
    if name == 'aminmax':
        for dt in ('float32', 'complex64'):
            r = run_both(lambda: tt.aminmax(tt.zeros(0, 3, dtype=getattr(tt, dt))), lambda: torch.aminmax(torch.zeros(0, 3, dtype=getattr(torch, dt))))
            assert type(r[0]) is type(r[1]) is RuntimeError, r

@pytest.mark.parametrize('name', ['mode', 'kthvalue', 'aminmax'])
def test_out_tuples(name):
    "out= takes two tensors, resized; a wrong count or dtype raises torch's class."
    x = np.arange(12, dtype=np.float32).reshape(3, 4) % 5
    args = {'mode': (1,), 'kthvalue': (2, 1), 'aminmax': ()}[name]
    kw = dict(dim=1) if name == 'aminmax' else {}
    for outs in [lambda L: (L.empty(0), L.empty(0, dtype=L.int64 if name != 'aminmax' else L.float32)),
                 lambda L: (L.empty(0),), lambda L: (L.empty(0, dtype=L.float64), L.empty(0, dtype=L.int64))]:
        a, b = tt.tensor(x), torch.tensor(x)
        r = run_both(lambda: getattr(tt, name)(a, *args, **kw, out=outs(tt)), lambda: getattr(torch, name)(b, *args, **kw, out=outs(torch)))
        _check_tuple(r, (name,), ('min', 'max') if name == 'aminmax' else ('values', 'indices'))

QS = [0.0, 0.1, 0.25, 1 / 3, 0.5, 0.6, 0.75, 0.9, 1.0]

@pytest.mark.parametrize('interpolation', ['linear', 'lower', 'higher', 'midpoint', 'nearest'])
@pytest.mark.parametrize('name', ['quantile', 'nanquantile'])
def test_quantile_bits(name, interpolation):
    "quantile/nanquantile bit for bit: q as a float, a 0-d or 1-d tensor; dim None or each dim; keepdim; NaN rows; layouts; float32 and float64."
    rng = np.random.default_rng(['quantile', 'nanquantile'].index(name) * 10 + len(interpolation))
    for case in range(24):
        dt = ('float32', 'float64')[case % 2]
        _, shape = rand_shapes(rng, 1, maxdim=3, allow_zero=False)
        kind = LAYOUTS[case % len(LAYOUTS)]
        x_tt, x_th = pair(rng, shape, dt, kind, special=case % 3 == 0)
        nd = max(x_th.dim(), 1)
        qs = [float(rng.choice(QS)), torch.tensor(QS[::3], dtype=getattr(torch, dt)),
              torch.tensor(float(rng.random()), dtype=getattr(torch, dt)), torch.tensor(rng.random(5), dtype=getattr(torch, dt))]
        for q in qs:
            q_tt = tt.tensor(q.tolist(), dtype=getattr(tt, dt)) if isinstance(q, torch.Tensor) else q
            for dim in [None] + list(range(-nd, nd)):
                for keepdim in (False, True):
                    r = run_both(lambda: getattr(tt, name)(x_tt, q_tt, dim, keepdim, interpolation=interpolation),
                                 lambda: getattr(torch, name)(x_th, q, dim, keepdim, interpolation=interpolation))
                    m = _same_bits(*r)
                    assert m is None, (name, interpolation, dt, shape, kind, q, dim, keepdim, x_th.tolist(), m)

def test_quantile_nan_rows():
    "Rows with one NaN, all NaN, none: quantile gives NaN for any NaN, nanquantile ignores them (NaN only when all are)."
    nan = float('nan')
    v = [[1., nan, 3., 2.], [nan, nan, nan, nan], [4., 1., 3., 2.], [nan, 5., nan, -0.]]
    for name, interp, q in itertools.product(['quantile', 'nanquantile'], ['linear', 'nearest', 'midpoint'], [0., 0.3, 0.5, 1., [0.2, 0.9]]):
        a, b = tt.tensor(v), torch.tensor(v)
        qa, qb = (tt.tensor(q), torch.tensor(q)) if isinstance(q, list) else (q, q)
        for dim in (None, 0, 1):
            r = run_both(lambda: getattr(tt, name)(a, qa, dim, interpolation=interp), lambda: getattr(torch, name)(b, qb, dim, interpolation=interp))
            assert _same_bits(*r) is None, (name, interp, q, dim, r)

@pytest.mark.parametrize('call', [
    lambda L, x: L.quantile(x, 1.5), lambda L, x: L.quantile(x, -0.1), lambda L, x: L.quantile(x, float('nan')),
    lambda L, x: L.quantile(x, L.tensor([0.5, 1.5])), lambda L, x: L.quantile(x, L.tensor([[0.5]])),
    lambda L, x: L.quantile(x, L.tensor([0.5], dtype=L.float64)), lambda L, x: L.quantile(x.long(), 0.5),
    lambda L, x: L.quantile(x.half(), 0.5), lambda L, x: L.quantile(L.zeros(0), 0.5), lambda L, x: L.quantile(x, 0.5, interpolation='x'),
    lambda L, x: L.quantile(x, 0.5, dim=2), lambda L, x: L.quantile(x, 0.5, dim=(0,)), lambda L, x: L.quantile(x, True),
    lambda L, x: L.quantile(x, 1), lambda L, x: L.quantile(x, L.tensor([])), lambda L, x: L.quantile(x, 0.5, out=L.empty(3, dtype=L.float64)),
    lambda L, x: L.quantile(x, 0.5, 1, out=L.empty(3)), lambda L, x: L.nanquantile(x, 0.2, 0, True),
    lambda L, x: x.quantile(0.3), lambda L, x: x.nanquantile(L.tensor([0.1, 0.4]), dim=-1), lambda L, x: L.quantile(L.tensor(3.), 0.5, 0, True),
    lambda L, x: L.quantile(x, 'a'), lambda L, x: L.quantile(x.double(), 0.7, -1, interpolation='nearest')])
def test_quantile_forms_and_errors(call):
    "Arguments torch accepts and those it refuses (with its exception class)."
    x = np.array([[3., 1., 2.], [0.5, -1., 4.]], np.float32)
    r = run_both(lambda: call(tt, tt.tensor(x)), lambda: call(torch, torch.tensor(x)))
    assert _same_bits(*r) is None, r

@pytest.mark.parametrize('dt', ['uint8', 'int8', 'int16', 'int32', 'int64', 'float16', 'bfloat16', 'float32', 'float64'])
def test_isin(dt):
    "isin over dtypes (promoted as torch), layouts, scalar elements or tests, invert, assume_unique with unique inputs, NaN and ±0."
    rng = np.random.default_rng(300 + len(dt))
    others = ['int64', 'uint8', 'float32', 'float16', 'bfloat16', 'int8', 'float64']
    for case in range(20):
        _, shape = rand_shapes(rng, 1, maxdim=3)
        kind = LAYOUTS[case % len(LAYOUTS)]
        x_tt, x_th = _tied(rng, shape, dt, kind)
        od = others[case % len(others)]
        t_tt, t_th = _tied(rng, (int(rng.integers(0, 6)),), od, 'contig')
        for invert in (False, True):
            r = run_both(lambda: tt.isin(x_tt, t_tt, invert=invert), lambda: torch.isin(x_th, t_th, invert=invert))
            assert _same_bits(*r) is None, (dt, od, shape, kind, invert, x_th.tolist(), t_th.tolist(), r)
            for s in (1, 2.5, -1, 257, 0.0):
                r = run_both(lambda: tt.isin(x_tt, s, invert=invert), lambda: torch.isin(x_th, s, invert=invert))
                assert _same_bits(*r) is None, (dt, s, invert, r)
                r = run_both(lambda: tt.isin(s, t_tt, invert=invert), lambda: torch.isin(s, t_th, invert=invert))
                assert _same_bits(*r) is None, (dt, s, invert, r)
        u = np.unique(np.array(x_th.float().tolist()).reshape(-1))
        ua, ub = tt.tensor(u, dtype=getattr(tt, dt)), torch.tensor(u).to(getattr(torch, dt))
        r = run_both(lambda: tt.isin(ua, t_tt.unique(), assume_unique=True), lambda: torch.isin(ub, t_th.unique(), assume_unique=True))
        assert _same_bits(*r) is None, (dt, r)

@pytest.mark.parametrize('call', [
    lambda L: L.isin(L.tensor([True]), L.tensor([1])), lambda L: L.isin(L.tensor([1]), L.tensor([True])),
    lambda L: L.isin(L.tensor([1j]), L.tensor([1j])), lambda L: L.isin(L.tensor([1]), True), lambda L: L.isin(L.tensor([1]), 1j),
    lambda L: L.isin(2, 2), lambda L: L.isin(L.tensor([1., float('nan')]), L.tensor([float('nan')])),
    lambda L: L.isin(L.tensor([0.]), L.tensor([-0.])), lambda L: L.isin(L.tensor([1, 2]), L.tensor([[1], [2]]), invert=True),
    lambda L: L.isin(L.tensor(2), L.tensor([2])), lambda L: L.isin(L.zeros(2, 3).t(), L.zeros(0)),
    lambda L: L.isin(L.tensor([1], dtype=L.int8), 257), lambda L: L.isin(L.tensor([1], dtype=L.uint8), L.tensor([-255])),
    lambda L: L.isin(L.tensor([1, 2]), L.tensor([2]), out=L.empty(5, dtype=L.bool)),
    lambda L: L.isin(L.tensor([1, 2]), L.tensor([2]), out=L.empty(2))])
def test_isin_forms(call):
    "Errors (bool and complex refused, two scalars a TypeError), NaN never in, -0.0 in [0.0], shapes and strides, out=."
    assert _same_bits(*run_both(lambda: call(tt), lambda: call(torch))) is None
