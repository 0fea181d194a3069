"Differential tests of reductions and matmul against torch."
import numpy as np
import pytest
torch = pytest.importorskip("torch")
from hypothesis import given, settings, strategies as st
import tinytensor as tt
from ttgen import DTYPES, FLOATS, INTS, LAYOUTS, pair, rand_shapes, run_both, check_results, same, sum_scale, product_scale, num_threads

torch.set_num_threads(1)
REDUCTIONS = ['sum', 'mean', 'prod', 'amax', 'amin', 'all', 'any', 'max', 'min', 'argmax', 'argmin']
N_RED = 130

def _dim_arg(rng, nd, name):
    r = rng.random()
    if name in ('max', 'min', 'argmax', 'argmin', 'prod'):
        if r < 0.25 and name != 'max' and name != 'min': return None
        if r < 0.25: return None
        return int(rng.integers(-max(nd, 1), max(nd, 1))) if rng.random() < 0.95 else nd + 1
    if r < 0.2: return None
    if r < 0.6 or nd == 0: return int(rng.integers(-max(nd, 1), max(nd, 1)))
    k = int(rng.integers(1, nd + 1))
    dims = [int(d) for d in rng.choice(nd, k, replace=False)]
    dims = [d - nd if rng.random() < 0.3 else d for d in dims]
    if rng.random() < 0.05: dims = dims + dims[:1]                   # duplicate: both must raise
    return tuple(dims)

def reduction_case(rng, name):
    _, shape = rand_shapes(rng, 1, maxdim=4)
    dt = str(rng.choice(DTYPES))
    x_tt, x_th = pair(rng, shape, dt, str(rng.choice(LAYOUTS)), special=rng.random() < 0.5)
    dim = _dim_arg(rng, len(shape), name)
    keepdim = bool(rng.random() < 0.4)
    kw = {}
    if name in ('sum', 'mean', 'prod') and rng.random() < 0.2: kw['dtype'] = str(rng.choice(['float32', 'float64', 'int64']))
    ctx = f'{name} {shape}/{dt}/{x_th.stride()} dim={dim} keepdim={keepdim} {kw}'
    def call(lib, x):
        k = {key: getattr(lib, v) for key, v in kw.items()}
        f = getattr(x, name)
        if dim is None:
            return f(**k)
        return f(dim, keepdim, **k) if name not in ('sum', 'mean', 'prod') else f(dim, keepdim=keepdim, **k)
    r = run_both(lambda: call(tt, x_tt), lambda: call(torch, x_th))
    tol = dt in FLOATS or kw.get('dtype') in FLOATS
    if name in ('sum', 'mean', 'prod') and tol and not isinstance(r[1], Exception) and not isinstance(r[0], Exception):
        n = max(x_th.numel() // max(r[1].numel(), 1), 1)                 # elements reduced into each result
        if name == 'prod': scale = (n - 1) * np.abs(r[1].detach().double().numpy())   # Note [one comparison rule]
        else: scale = sum_scale(x_th, dim, keepdim) / (n if name == 'mean' else 1)
        m = same(r[0], r[1], name, strides=True, scale=scale)
        return ctx + ': ' + m if m else None
    if isinstance(r[1], tuple) and not isinstance(r[0], Exception):
        if not hasattr(r[0], 'values') or r[0].values is not r[0][0]: return ctx + ': not a (values, indices) tuple'
    return check_results(*r, name, ctx=ctx)

@pytest.mark.parametrize('name', REDUCTIONS)
def test_reductions(name):
    rng = np.random.default_rng([ord(c) for c in name] + [5])
    bad = [m for m in (reduction_case(rng, name) for _ in range(N_RED)) if m]
    assert not bad, f'{len(bad)} mismatches, e.g.\n' + '\n'.join(bad[:8])

def test_reduction_big_threads():
    "Large reductions split across threads (output split and reduced-axis split) give torch's values."
    rng = np.random.default_rng(1)
    for shape, dim in [((300, 400), 0), ((300, 400), 1), ((70000,), 0), ((2, 40000), 1), ((40000, 3), 0), ((64, 64, 32), (0, 2))]:
        for dt in ('float32', 'int32', 'bool'):
            x_tt, x_th = pair(rng, shape, dt, 'contig', special=False)
            for name in ('sum', 'amax', 'any'):
                a, b = getattr(x_tt, name)(dim), getattr(x_th, name)(dim)
                m = same(a, b, name, scale=sum_scale(x_th, dim))
                assert m is None, (shape, dim, dt, name, m)

def test_reduction_errors():
    with pytest.raises(RuntimeError, match='mean\\(\\): could not infer output dtype. Input dtype must be either a floating point or complex dtype. Got: Int'):
        tt.ones(2, dtype=tt.int32).mean()
    with pytest.raises(IndexError, match='amax\\(\\): Expected reduction dim 1 to have non-zero size.'):
        tt.ones(2, 0).amax(1)
    with pytest.raises(RuntimeError, match='dim 0 appears multiple times in the list of dims'):
        tt.ones(2, 3).sum((0, 0))
    r = tt.tensor([[1., 3., 3.]]).max(1)
    assert r.values.tolist() == [3.] and r.indices.tolist() == [1]

def matmul_case(rng):
    kinds = [((3,), (3,)), ((2, 3), (3,)), ((3,), (3, 4)), ((2, 3), (3, 4)), ((2, 2, 3), (3, 4)), ((2, 2, 3), (2, 3, 4)),
             ((5, 2, 3), (1, 3, 2)), ((3,), (2, 3, 4)), ((2, 3), (4, 3, 5)), ((2, 1, 2, 3), (3, 1, 3, 2)), ((2, 2, 3), (3,)),
             ((3, 4), (2, 4, 5)), ((2, 3), (0, 3, 4)), ((0, 3), (3, 2))]
    sa, sb = kinds[int(rng.integers(len(kinds)))]
    if rng.random() < 0.15:                                   # a shape mismatch
        sb = tuple(s + 1 if i == (len(sb) - 2 if len(sb) > 1 else 0) else s for i, s in enumerate(sb))
    da = str(rng.choice(['float32', 'float64', 'int64', 'int32', 'float16', 'bfloat16', 'bool', 'uint8']))
    db = da if rng.random() < 0.9 else str(rng.choice(['float32', 'float64', 'int64']))
    a_tt, a_th = pair(rng, sa, da, str(rng.choice(LAYOUTS)), special=False, lo=-3, hi=4)
    b_tt, b_th = pair(rng, sb, db, str(rng.choice(LAYOUTS)), special=False, lo=-3, hi=4)
    ctx = f'matmul {sa}/{da}/{a_th.stride()} @ {sb}/{db}/{b_th.stride()}'
    r = run_both(lambda: a_tt @ b_tt, lambda: a_th @ b_th)
    if isinstance(r[0], Exception) or isinstance(r[1], Exception): return check_results(*r, 'matmul', ctx=ctx)
    m = same(r[0], r[1], 'matmul', scale=product_scale(torch.matmul, a_th, b_th) if da in FLOATS else 0.)
    return ctx + ': ' + m if m else None

def test_matmul():
    rng = np.random.default_rng(21)
    bad = [m for m in (matmul_case(rng) for _ in range(300)) if m]
    assert not bad, f'{len(bad)} mismatches, e.g.\n' + '\n'.join(bad[:8])

def test_case_count():
    assert len(REDUCTIONS) * N_RED >= 1000

# --- std/var, norm, logsumexp, count_nonzero, nansum, nanmean -------------------------------------------------

NEW_REDUCTIONS = ['std', 'var', 'std_mean', 'var_mean', 'norm', 'vector_norm', 'logsumexp', 'count_nonzero', 'nansum', 'nanmean']

def _new_red_args(rng, name, nd):
    "Positional args and kwargs (as strings naming tt/torch attributes where needed) for one call."
    dim = _dim_arg(rng, nd, 'sum')
    keep = bool(rng.random() < 0.4)
    if name in ('std', 'var', 'std_mean', 'var_mean'):
        r = rng.random()
        if r < 0.15: return ([bool(rng.random() < 0.5)], {})                          # legacy std(unbiased)
        if r < 0.35: return ([dim, bool(rng.random() < 0.5), keep], {})               # std(dim, unbiased, keepdim)
        kw = {'keepdim': keep}
        if rng.random() < 0.7: kw['correction'] = [0, 1, 2, 1.5][int(rng.integers(4))]
        return ([dim], kw)
    if name in ('norm', 'vector_norm'):
        p = [2, 1, float('inf'), float('-inf'), 0, 3, 0.5, -1, 'fro'][int(rng.integers(9 if name == 'norm' else 8))]
        kw = {'keepdim': keep}
        if rng.random() < 0.15: kw['dtype'] = 'float64'
        d = dim if dim is None or isinstance(dim, tuple) or name == 'vector_norm' else dim
        return ([p, d], kw)
    if name == 'logsumexp':
        if dim is None: dim = int(rng.integers(-max(nd, 1), max(nd, 1)))
        return ([dim, keep], {})
    if name == 'count_nonzero': return ([dim], {})
    kw = {'keepdim': keep}
    if name == 'nansum' and rng.random() < 0.2: kw['dtype'] = str(rng.choice(['float32', 'float64', 'int64']))
    return ([dim], kw)

def _new_red_scale(name, x_th, args, kw, res):
    "What the reduction adds up, for Note [one comparison rule]: sum |x| for sums, mean |x| or mean x^2 for means and variances."
    if isinstance(res, Exception) or name not in ('std', 'var', 'std_mean', 'var_mean', 'nansum', 'nanmean'): return 0.
    dim = args[0] if args and not isinstance(args[0], bool) else None
    keep = kw.get('keepdim', args[2] if len(args) > 2 else False)
    out = res[0] if isinstance(res, tuple) else res
    n = max(x_th.numel() // max(out.numel(), 1), 1)
    try:
        if name in ('nansum', 'nanmean'): return sum_scale(x_th, dim, keep) / (n if name == 'nanmean' else 1)
        sq = sum_scale(x_th.detach().double().abs() ** 2, dim, keep) / n      # the mean of the squares
    except Exception: return 0.
    return np.sqrt(sq) if name == 'std' else sq + np.sqrt(sq) if name in ('std_mean', 'var_mean') else sq

def new_reduction_case(rng, name):
    _, shape = rand_shapes(rng, 1, maxdim=4)
    dt = str(rng.choice(DTYPES + ['complex64'] if name in ('std', 'var', 'norm', 'count_nonzero', 'logsumexp') else DTYPES))
    if dt == 'complex64':
        x_th = torch.randn(shape, dtype=torch.complex64); x_tt = tt.from_numpy(x_th.numpy().copy())
    else: x_tt, x_th = pair(rng, shape, dt, str(rng.choice(LAYOUTS)), special=rng.random() < 0.5)
    args, kw = _new_red_args(rng, name, len(shape))
    ctx = f'{name} {shape}/{dt}/{x_th.stride()} args={args} {kw}'
    def call(lib, x):
        k = {key: (getattr(lib, v) if key == 'dtype' else v) for key, v in kw.items()}
        if name == 'vector_norm': return lib.linalg.vector_norm(x, *args, **k)
        if name in ('std_mean', 'var_mean') or rng_method is False: return getattr(lib, name)(x, *args, **k)
        return getattr(x, name)(*args, **k)
    rng_method = bool(rng.random() < 0.5)
    r = run_both(lambda: call(tt, x_tt), lambda: call(torch, x_th))
    if isinstance(r[1], tuple) and not isinstance(r[0], Exception) and type(r[0]) is not tuple: return ctx + ': not a plain tuple'
    bad = check_results(*r, name, ctx=ctx, scale=_new_red_scale(name, x_th, args, kw, r[1]))
    if bad and isinstance(r[1], tuple) and x_th.numel() and x_th.double().isinf().any() and check_results(r[0][0], r[1][0], name) is None:
        return None        # the mean of var_mean next to an inf: torch's sequential Welford update gives NaN or inf by position
    return bad

@pytest.mark.parametrize('name', NEW_REDUCTIONS)
def test_new_reductions(name):
    rng = np.random.default_rng([ord(c) for c in name] + [7])
    bad = [m for m in (new_reduction_case(rng, name) for _ in range(150)) if m]
    assert not bad, f'{len(bad)} mismatches, e.g.\n' + '\n'.join(bad[:8])

def test_new_reduction_errors():
    with pytest.raises(RuntimeError, match='std and var only support floating point and complex dtypes'): tt.ones(2, dtype=tt.int64).std()
    with pytest.raises(RuntimeError, match='dim 0 appears multiple times in the list of dims'): tt.ones(2, 3).var((0, 0))
    with pytest.raises(IndexError, match='Dimension out of range'): tt.ones(2, 3).std(2)
    with pytest.raises(RuntimeError, match='linalg.vector_norm: Expected a floating point or complex tensor as input. Got Long'): tt.ones(2, dtype=tt.int64).norm()
    with pytest.raises(RuntimeError, match='cannot compute the inf norm on the dimension 0because this dimension is empty'): tt.ones(0, 3).norm(float('inf'), 0)
    with pytest.raises(TypeError, match="logsumexp\\(\\): argument 'dim'"): tt.ones(2).logsumexp(None)
    with pytest.raises(RuntimeError, match='nanmean\\(\\): expected input to have floating point or complex dtype but got Int'): tt.ones(2, dtype=tt.int32).nanmean()
    with pytest.raises(RuntimeError, match='nansum on CPU does not support complex inputs'): tt.ones(2, dtype=tt.complex64).nansum()
    for f, exc in [(lambda x: x.amax(), NotImplementedError), (lambda x: x.amin(0), NotImplementedError), (lambda x: x.max(), NotImplementedError),
                   (lambda x: x.min(), NotImplementedError), (lambda x: x.max(0), RuntimeError), (lambda x: x.argmin(), RuntimeError)]:
        r = run_both(lambda: f(tt.ones(2, dtype=tt.complex64)), lambda: f(torch.ones(2, dtype=torch.complex64)))
        assert type(r[0]) is type(r[1]) is exc, r
    r = tt.std_mean(tt.tensor([1., 2., 3., 4.]), 0)
    assert type(r) is tuple and r[0].dtype is tt.float32 and r[1].tolist() == 2.5

def test_new_reduction_out():
    x_th = torch.tensor([[3., 1., 2.], [0., 5., 4.]]); x_tt = tt.tensor(x_th.tolist())
    for name, args in [('std', (1,)), ('var', (0,)), ('norm', (2, 1)), ('logsumexp', (1,)), ('nansum', (0,)), ('nanmean', (1,))]:
        o_tt, o_th = tt.empty(0), torch.empty(0)
        a, b = getattr(tt, name)(x_tt, *args, out=o_tt), getattr(torch, name)(x_th, *args, out=o_th)
        assert a is o_tt and same(o_tt, o_th, name) is None, name
    # out= of another dtype: torch computes into it where it can (float), refuses it otherwise, with these exception types
    for name, args in [('std', (1,)), ('var', (0,)), ('norm', (2, 1)), ('logsumexp', (1,)), ('nansum', (0,)), ('nanmean', (1,))]:
        for od in ['float64', 'float16', 'bfloat16', 'int64', 'bool']:
            for dt in ['float32', 'float16', 'int64']:
                r = run_both(lambda: getattr(tt, name)(x_tt.to(getattr(tt, dt)), *args, out=tt.empty(0, dtype=getattr(tt, od))),
                             lambda: getattr(torch, name)(x_th.to(getattr(torch, dt)), *args, out=torch.empty(0, dtype=getattr(torch, od))))
                comp = od if od in ('float16', 'bfloat16') else 'float32'          # float32 transcendentals inside
                assert check_results(*r, name, computed_in=comp) is None, (name, od, dt, r)

@settings(max_examples=40, deadline=None)
@given(shape=st.lists(st.integers(0, 4), min_size=0, max_size=4), data=st.data())
def test_var_norm_property(shape, data):
    "var/std/norm over any set of dims of any shape (size-0 and size-1 dims included) agree with torch."
    nd = len(shape)
    dims = tuple(data.draw(st.lists(st.integers(0, max(nd - 1, 0)), unique=True, max_size=nd))) if nd else ()
    keep, corr = data.draw(st.booleans()), data.draw(st.sampled_from([0, 1, 2]))
    a = np.random.default_rng(len(shape) + sum(shape)).standard_normal(shape)
    x_tt, x_th = tt.from_numpy(a.copy()), torch.from_numpy(a)
    for name, f in [('var', lambda lib, x: lib.var(x, dims or None, correction=corr, keepdim=keep)),
                    ('std', lambda lib, x: lib.std(x, dims or None, keepdim=keep)),
                    ('norm', lambda lib, x: lib.norm(x, 2, dims or None, keep)), ('norm', lambda lib, x: lib.norm(x, 1, dims or None, keep)),
                    ('logsumexp', lambda lib, x: lib.logsumexp(x, dims or None, keep)),
                    ('nanmean', lambda lib, x: lib.nanmean(x, dims or None, keep)),
                    ('count_nonzero', lambda lib, x: lib.count_nonzero(x, dims or None)),
                    ('var_mean', lambda lib, x: lib.var_mean(x, dims or None, keepdim=keep))]:
        r = run_both(lambda: f(tt, x_tt), lambda: f(torch, x_th))
        assert check_results(*r, name) is None, (name, shape, dims, keep, corr, r)

@pytest.mark.parametrize('name', ['all', 'any'])
def test_all_any_empty_dim_list_reduces_nothing(name):
    "all/any take `allow_empty_dims`: dim=() or [] keeps every dim (a bool copy), unlike sum's empty list."
    for seed in range(40):
        rng = np.random.default_rng(seed)
        shape = tuple(int(v) for v in rng.integers(0, 4, int(rng.integers(0, 4))))
        dt = str(rng.choice(['float32', 'int64', 'uint8', 'bool']))
        a, b = pair(rng, shape, dt, str(rng.choice(['contig', 'transpose', 'expand'])) if shape else 'contig', lo=-1, hi=2)
        dims, keep = ([] if rng.random() < 0.5 else ()), bool(rng.random() < 0.5)
        ra, rb = run_both(lambda: getattr(tt, name)(a, dims, keep), lambda: getattr(torch, name)(b, dims, keep))
        msg = check_results(ra, rb, name, ctx=f'seed {seed} {name} {dt}{shape} {dims} {keep}')
        assert msg is None, msg

# --- prod of float16/bfloat16 rounds every partial product (Note [half products round at every step]) -------------

def _torch_bits_to_tt(t):
    "The tinytensor tensor holding torch tensor `t`'s bits (bfloat16 NaNs and all), contiguous."
    ib = {2: torch.int16, 4: torch.int32, 8: torch.int64}[t.element_size()]
    return tt.from_numpy(t.contiguous().view(ib).numpy().copy()).view(getattr(tt, str(t.dtype)[6:]))

def _same_product(a, b, n):
    "Note [one comparison rule] for a product of `n` factors, and the same infinities, NaNs and zeros as torch's."
    m = same(a, b, 'prod', scale=(n - 1) * np.abs(b.detach().double().numpy()))
    if m: return m
    x, y = a.to(tt.float64).numpy(), b.detach().double().numpy()
    for what, f in (('inf', np.isposinf), ('-inf', np.isneginf), ('nan', np.isnan), ('zero', lambda v: v == 0)):
        if not np.array_equal(f(x), f(y)):
            return f'{what} at {np.flatnonzero(f(x) != f(y))[:5]}: {x.ravel()[:4]} vs {y.ravel()[:4]}'
    return None

# Each overflows (or underflows to 0) when every partial product is rounded to 16 bits, not when they are kept in float32.
_P300 = [300.] * 256 + [1 / 300] * 256                     # every lane of any width meets 300 * 300 before a 1/300
PROD_CASES = {
    'float16': [[300., 300., 1 / 300, 1 / 300], [1e-4, 1e-4, 1e4, 1e4], [-300., 300., 1 / 300, -1 / 300],
                [300.] * 64 + [1 / 300] * 64,               # lanes pair each 300 with a 1/300: finite with 16 lanes
                _P300 * 80],                                # 40960 elements: a split across threads too
    'bfloat16': [[1.75 * 2.**64, 1.140625 * 2.**63, 2.**-64, 2.**-63],   # 1.99609375 * 2**127 rounds up to inf
                 [2.**-70, 2.**-70, 2.**70, 2.**70], [1.75 * 2.**64, 1.140625 * 2.**63, 2.**-64, 2.**-63] * 40]}

@pytest.mark.parametrize('threads', [1, 2])
@pytest.mark.parametrize('dt', ['float16', 'bfloat16'])
def test_prod_rounds_every_step_like_torch(dt, threads):
    "A float16/bfloat16 product that overflows in torch is inf here too: whole or along a dim, any layout, dtype=, out=."
    old = torch.get_num_threads()
    torch.set_num_threads(threads)
    try:
        with num_threads(threads):
            for v in PROD_CASES[dt]:
                b = torch.tensor(v, dtype=torch.float64).to(getattr(torch, dt))
                a, n = _torch_bits_to_tt(b), len(v)
                k = 4 if n % 4 == 0 else 1                     # rows of k, or k columns
                calls = [('all', lambda lib, x: x.prod(), n), ('dim 0', lambda lib, x: lib.prod(x, 0), n),
                         ('strided', lambda lib, x: x.repeat_interleave(2)[::2].prod(0), n),
                         ('dtype=', lambda lib, x: x.float().prod(dtype=getattr(lib, dt)), n),
                         ('out=', lambda lib, x: lib.prod(x, 0, out=lib.empty(0, dtype=x.dtype)), n),
                         ('rows', lambda lib, x: x.reshape(k, -1).prod(1), n // k),
                         ('rows keepdim', lambda lib, x: x.reshape(k, -1).prod(-1, keepdim=True), n // k),
                         ('columns', lambda lib, x: x.reshape(-1, k).prod(0), n // k),
                         ('column-major rows', lambda lib, x: x.reshape(-1, k).t().contiguous().t().prod(0), n // k),
                         ('column-major columns', lambda lib, x: x.reshape(k, -1).t().contiguous().t().prod(1), n // k)]
                for what, f, m in calls:
                    r = run_both(lambda: f(tt, a), lambda: f(torch, b))
                    assert not isinstance(r[0], Exception) and not isinstance(r[1], Exception), (dt, what, r)
                    msg = _same_product(r[0], r[1], m)
                    assert msg is None, (dt, threads, what, n, msg)
    finally: torch.set_num_threads(old)

BIG = [1] * 65

@pytest.mark.parametrize('call', [
    lambda L, x: L.sum(x, 0), lambda L, x: L.sum(x, (0, 1)), lambda L, x: L.prod(x, 0), lambda L, x: L.mean(x, -1),
    lambda L, x: L.amax(x, 0), lambda L, x: L.amin(x, (0, 2)), lambda L, x: L.all(x), lambda L, x: L.any(x, 0),
    lambda L, x: L.argmax(x, 0), lambda L, x: L.max(x, 0), lambda L, x: L.min(x, 1), lambda L, x: L.std(x, 0),
    lambda L, x: L.var(x, (0,)), lambda L, x: L.nansum(x, 0), lambda L, x: L.nanmean(x), lambda L, x: L.logsumexp(x, 0),
    lambda L, x: L.count_nonzero(x, 0), lambda L, x: L.norm(x), lambda L, x: L.std_mean(x, 0),
    lambda L, x: L.sum(x), lambda L, x: L.prod(x), lambda L, x: L.mean(x), lambda L, x: L.amax(x), lambda L, x: L.max(x),
    lambda L, x: L.nansum(x)])
def test_reductions_of_more_than_64_dims(call):
    "A 65-dim tensor: torch's RuntimeError 'only tensors with up to 64 dims are supported' where a reduction names dims (and for all/any/nanmean/norm always); the value where it runs."
    r = run_both(lambda: call(tt, tt.zeros(BIG)), lambda: call(torch, torch.zeros(BIG)))
    if isinstance(r[1], Exception):
        assert type(r[0]) is type(r[1]) and str(r[0]) == str(r[1]), r
    else:
        assert not isinstance(r[0], Exception), r
        assert tuple(r[0].shape) == tuple(r[1].shape) and r[0].tolist() == r[1].tolist(), r

@pytest.mark.parametrize('call', [
    lambda L, x: L.prod(x, dim=None), lambda L, x: L.prod(x, None), lambda L, x: x.prod(dim=None), lambda L, x: x.prod(None, True),
    lambda L, x: L.sum(x, keepdim=True), lambda L, x: x.sum(keepdim=False), lambda L, x: L.prod(x, keepdim=True),
    lambda L, x: L.mean(x, keepdim=True), lambda L, x: L.sum(x, out=L.empty(())), lambda L, x: L.prod(x, out=L.empty(())),
    lambda L, x: L.sum(x, dtype=L.float64, keepdim=True),
    # the forms that fit an overload
    lambda L, x: L.sum(x, None, True), lambda L, x: L.sum(x, dim=None, keepdim=True), lambda L, x: L.mean(x, out=L.empty(())),
    lambda L, x: L.prod(x, 1, keepdim=True), lambda L, x: L.sum(x, dtype=L.float64), lambda L, x: x.prod(),
    lambda L, x: L.mean(x, None, keepdim=True), lambda L, x: L.prod(x, dtype=L.int64)])
def test_overloads_torch_refuses(call):
    "keepdim (or out) without dim, and prod's dim=None, fit none of torch's overloads: TypeError, worded as its parser; the forms that fit give torch's result."
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    r = run_both(lambda: call(tt, tt.tensor(x)), lambda: call(torch, torch.tensor(x)))
    if isinstance(r[1], Exception):
        assert type(r[0]) is type(r[1]) is TypeError, r
        assert str(r[0]).split('(')[0] == str(r[1]).split('(')[0], r
    else: assert check_results(*r, 'prod') is None, r
