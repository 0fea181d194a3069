"Differential tests of the shape and structure helpers, predicates, protocols and matmul-based products against torch."
import operator, warnings
import numpy as np
import pytest
torch = pytest.importorskip("torch")
import tinytensor as tt
from ttgen import DTYPES, FLOATS, INTS, LAYOUTS, pair, rand_shapes, run_both, check_results, same, num_threads, both, product_scale

torch.set_num_threads(1)
N = 60

def _shape(rng, lo=0, hi=4, sizes=(0, 1, 2, 3, 4, 5)):
    nd = int(rng.integers(lo, hi + 1))
    return tuple(int(rng.choice(sizes)) if rng.random() > 0.1 else 0 for _ in range(nd))

def _input(rng, shape=None, dts=DTYPES, lo=0, hi=4, special=None):
    shape = _shape(rng, lo, hi) if shape is None else shape
    dt = str(rng.choice(dts))
    kind = str(rng.choice(LAYOUTS))
    a, b = pair(rng, shape, dt, kind, special=rng.random() < 0.5 if special is None else special)
    return a, b, f'{shape}/{dt}/{kind}/{b.stride()}'

def _fuzz(name, case, n=N):
    "Run `case` n times; `name` (an in-place form's too) picks the comparison rule (Note [one comparison rule])."
    rng = np.random.default_rng([ord(c) for c in name] + [11])
    bad = []
    for _ in range(n):
        ctx, f_tt, f_th, *scale = case(rng)                 # a product's case may add what it sums (a thunk)
        r = run_both(f_tt, f_th)
        m = check_results(*r, name.rstrip('_'), ctx=f'{name} {ctx}', scale=scale[0]() if scale and not isinstance(r[1], Exception) else 0.)
        if m: bad.append(m)
    assert not bad, '\n'.join(bad[:8])

def _dim(rng, nd): return int(rng.integers(-max(nd, 1), max(nd, 1))) if rng.random() < 0.95 else nd + 1

# ---------------------------------------------------------------- triangles and diagonals
@pytest.mark.parametrize('name', ['tril', 'triu'])
def test_tril_triu(name):
    def case(rng):
        a, b, ctx = _input(rng, lo=1, hi=4)
        k = int(rng.integers(-3, 4))
        return f'{ctx} k={k}', lambda: getattr(tt, name)(a, k), lambda: getattr(torch, name)(b, k)
    _fuzz(name, case)

@pytest.mark.parametrize('lower', [True, False])
def test_tril_triu_bands(lower):
    "Note [triangle bands]: shapes over several bands, every diagonal that cuts them, in place and out=, bit for bit as torch."
    from tinytensor.shape_ops import _TRI_ROWS
    rng = np.random.default_rng(int(lower))
    f = 'tril' if lower else 'triu'
    for shape in [(2 * _TRI_ROWS + 5, 70), (70, 3 * _TRI_ROWS + 1), (3, _TRI_ROWS + 1, 2 * _TRI_ROWS), (200, 1), (1, 300), (0, 4)]:
        x = rng.standard_normal(shape).astype(np.float32)
        x[..., ::3, ::5] = -0.0                                           # copies, not arithmetic: the sign survives
        r, c = shape[-2:]
        for k in sorted({-r - 2, -r, -_TRI_ROWS - 1, -1, 0, 1, _TRI_ROWS, _TRI_ROWS + 1, c, c + 3}):
            for transposed in (False, True):
                base = np.ascontiguousarray(np.swapaxes(x, -1, -2)) if transposed else x.copy()
                a, b = tt.from_numpy(base.copy()), torch.from_numpy(base.copy())
                if transposed: a, b = a.transpose(-1, -2), b.transpose(-1, -2)
                ra, rb = getattr(a, f)(k), getattr(b, f)(k)
                assert same(ra, rb, f) is None and np.array_equal(np.signbit(ra.numpy()), np.signbit(rb.numpy()))
                ai, bi = a.clone(), b.clone()
                getattr(ai, f + '_')(k); getattr(bi, f + '_')(k)
                assert same(ai, bi, f) is None
                assert np.array_equal(np.signbit(ai.numpy()), np.signbit(bi.numpy()))
                o, ot = tt.empty(0), torch.empty(0)
                getattr(tt.shape_ops, f)(a, k, out=o); getattr(torch, f)(b, k, out=ot)
                assert same(o, ot, f) is None
                getattr(tt.shape_ops, f)(ai, k, out=ai); getattr(torch, f)(bi, k, out=bi)      # out= the input itself
                assert same(ai, bi, f) is None

@pytest.mark.parametrize('name', ['tril_', 'triu_'])
def test_tril_triu_inplace(name):
    def case(rng):
        a, b, ctx = _input(rng, lo=1, hi=4)
        if b.stride() and 0 in b.stride(): a, b = a.contiguous(), b.contiguous()   # no writes into expanded memory
        k = int(rng.integers(-3, 4))
        def f(x): r = getattr(x, name)(k); assert r is x; return x
        return f'{ctx} k={k}', lambda: f(a), lambda: f(b)
    _fuzz(name, case)

def test_tri_indices():
    for r in range(-1, 5):
        for c in range(0, 5):
            for off in range(-5, 6):
                for name in ('tril_indices', 'triu_indices'):
                    m = check_results(*run_both(lambda: getattr(tt, name)(r, c, off), lambda: getattr(torch, name)(r, c, off)), name, ctx=f'{name}({r},{c},{off})')
                    assert not m, m

def test_diag():
    def case(rng):
        a, b, ctx = _input(rng, lo=0, hi=3)
        k = int(rng.integers(-3, 4))
        return f'{ctx} k={k}', lambda: tt.diag(a, k), lambda: torch.diag(b, k)
    _fuzz('diag', case)

def test_diag_embed_diagflat():
    def case(rng):
        a, b, ctx = _input(rng, lo=0, hi=3)
        k = int(rng.integers(-2, 3))
        nd = a.dim() + 1
        d1, d2 = _dim(rng, nd), _dim(rng, nd)
        if rng.random() < 0.5: return f'diagflat {ctx} k={k}', lambda: tt.diagflat(a, k), lambda: torch.diagflat(b, k)
        return f'{ctx} k={k} dims={d1},{d2}', lambda: tt.diag_embed(a, k, d1, d2), lambda: torch.diag_embed(b, k, d1, d2)
    _fuzz('diag_embed', case)

def test_trace():
    def case(rng):
        a, b, ctx = _input(rng, lo=1, hi=3, special=False)
        return ctx, lambda: tt.trace(a), lambda: torch.trace(b)
    _fuzz('trace', case)

# ---------------------------------------------------------------- moving elements
def test_roll():
    def case(rng):
        a, b, ctx = _input(rng, lo=0, hi=4)
        nd = a.dim()
        k = int(rng.integers(0, 3))
        shifts = tuple(int(s) for s in rng.integers(-7, 8, k)) if k != 1 else int(rng.integers(-7, 8))
        dims = None if rng.random() < 0.3 else (tuple(_dim(rng, nd) for _ in range(k if rng.random() < 0.9 else k + 1)) if k != 1 else _dim(rng, nd))
        return f'{ctx} shifts={shifts} dims={dims}', lambda: tt.roll(a, shifts, dims), lambda: torch.roll(b, shifts, dims)
    _fuzz('roll', case)

def test_rot90_flips():
    def case(rng):
        a, b, ctx = _input(rng, lo=0, hi=4)
        r = rng.random()
        if r < 0.2: return 'fliplr ' + ctx, lambda: tt.fliplr(a), lambda: torch.fliplr(b)
        if r < 0.4: return 'flipud ' + ctx, lambda: tt.flipud(a), lambda: torch.flipud(b)
        if r < 0.5: return 'reversed ' + ctx, lambda: reversed(a), lambda: reversed(b)
        k = int(rng.integers(-5, 6))
        nd = a.dim()
        dims = [_dim(rng, nd), _dim(rng, nd)] if rng.random() < 0.9 else [0]
        return f'{ctx} k={k} dims={dims}', lambda: tt.rot90(a, k, dims), lambda: torch.rot90(b, k, dims)
    _fuzz('rot90', case, n=100)

def test_reversed_zero_dim_is_self():
    x = tt.tensor(3.)
    assert reversed(x) is x

# ---------------------------------------------------------------- views
@pytest.mark.parametrize('name', ['atleast_1d', 'atleast_2d', 'atleast_3d'])
def test_atleast(name):
    rng = np.random.default_rng(3)
    for _ in range(30):
        a, b, ctx = _input(rng, lo=0, hi=4)
        m = check_results(*run_both(lambda: getattr(tt, name)(a), lambda: getattr(torch, name)(b)), name, ctx=ctx)
        assert not m, m
        r = getattr(tt, name)(a)
        assert r.untyped_storage().data_ptr() == a.untyped_storage().data_ptr()     # a view, never a copy
        assert (r is a) == (getattr(torch, name)(b) is b)
        rs = getattr(tt, name)(a, a)
        assert isinstance(rs, tuple) and len(rs) == 2
        assert isinstance(getattr(tt, name)([a]), tuple)

def test_meshgrid():
    def case(rng):
        k = int(rng.integers(1, 4))
        dt = str(rng.choice(DTYPES))
        ins = [pair(rng, tuple(int(rng.integers(0, 4)) for _ in range(int(rng.integers(0, 2)))), dt, 'slice') for _ in range(k)]
        if rng.random() < 0.05: ins.append(pair(rng, (2, 2), dt))
        ix = str(rng.choice(['ij', 'xy', 'xy', 'bad']))
        return f'{[tuple(b.shape) for _, b in ins]} {dt} {ix}', lambda: tt.meshgrid(*[a for a, _ in ins], indexing=ix), \
            lambda: torch.meshgrid(*[b for _, b in ins], indexing=ix)
    _fuzz('meshgrid', case)

def test_meshgrid_is_view_and_warns():
    a = tt.arange(3)
    with pytest.warns(UserWarning, match='indexing'): g = tt.meshgrid(a, a)
    assert g[0]._base is not None and g[0].stride() == (1, 0)

# ---------------------------------------------------------------- building matrices
def test_block_diag():
    def case(rng):
        dt = [str(rng.choice(DTYPES)) for _ in range(3)]
        ins = [pair(rng, _shape(rng, 0, 3 if rng.random() < 0.9 else 3), dt[i], str(rng.choice(LAYOUTS))) for i in range(int(rng.integers(0, 4)))]
        return f'{[(tuple(b.shape), b.dtype) for _, b in ins]}', lambda: tt.block_diag(*[a for a, _ in ins]), lambda: torch.block_diag(*[b for _, b in ins])
    _fuzz('block_diag', case)

def test_kron():
    def case(rng):
        a, b, ctx = _input(rng, lo=0, hi=3, special=False)
        c, d, ctx2 = _input(rng, lo=0, hi=3, special=False)
        return f'{ctx} x {ctx2}', lambda: tt.kron(a, c), lambda: torch.kron(b, d)
    _fuzz('kron', case)

def test_tensordot():
    def case(rng):
        shape = _shape(rng, 0, 3, (1, 2, 3))
        a, b, ctx = _input(rng, shape, dts=['float64', 'int64', 'int32'], special=False)
        k = int(rng.integers(0, len(shape) + 1)) if len(shape) else 0
        other = shape[len(shape) - k:] + _shape(rng, 0, 2, (1, 2, 3))
        c, d = pair(rng, other, a.dtype.name if rng.random() < 0.9 else 'float32', 'perm', special=False)
        dims = k if rng.random() < 0.6 else (list(range(len(shape) - k, len(shape))), list(range(k)))
        if rng.random() < 0.05: dims = -1
        return f'{ctx} x {tuple(d.shape)} dims={dims}', lambda: tt.tensordot(a, c, dims), lambda: torch.tensordot(b, d, dims), \
            lambda: product_scale(lambda x, y: torch.tensordot(x, y, dims), b, d)
    _fuzz('tensordot', case)              # the BLAS picks the order of the sums: Note [one comparison rule]

def test_cartesian_prod():
    rng = np.random.default_rng(5)
    for k in (1, 2, 3):
        ins = [pair(rng, (int(rng.integers(0, 4)),), 'int64', 'slice') for _ in range(k)]
        m = check_results(*run_both(lambda: tt.cartesian_prod(*[a for a, _ in ins]), lambda: torch.cartesian_prod(*[b for _, b in ins])), 'cartesian_prod', ctx=str(k))
        assert not m, m

# ---------------------------------------------------------------- repeat, diff
def test_repeat_interleave():
    def case(rng):
        a, b, ctx = _input(rng, lo=0, hi=3)
        nd = a.dim()
        dim = None if rng.random() < 0.3 else _dim(rng, nd)
        n = (a.numel() if dim is None else (a.shape[dim] if nd and -nd <= dim < nd else 1))
        r = rng.random()
        if r < 0.4: reps_tt = reps_th = int(rng.integers(-1 if rng.random() < 0.05 else 0, 4))
        else:
            vals = rng.integers(-1 if rng.random() < 0.05 else 0, 4, n if rng.random() < 0.9 else n + 1)
            rd = str(rng.choice(['int64', 'int32', 'float32'] if rng.random() < 0.1 else ['int64', 'int32']))
            reps_tt, reps_th = tt.tensor(vals.tolist(), dtype=getattr(tt, rd)), torch.tensor(vals.tolist(), dtype=getattr(torch, rd))
        osz = None if rng.random() < 0.8 else int(rng.integers(0, 10))
        return f'{ctx} reps={reps_th} dim={dim} output_size={osz}', lambda: tt.repeat_interleave(a, reps_tt, dim, output_size=osz), \
            lambda: torch.repeat_interleave(b, reps_th, dim, output_size=osz)
    _fuzz('repeat_interleave', case)
    m = check_results(*run_both(lambda: tt.repeat_interleave(tt.tensor([2, 0, 1])), lambda: torch.repeat_interleave(torch.tensor([2, 0, 1]))), 'repeat_interleave')
    assert not m, m

def test_diff():
    def case(rng):
        a, b, ctx = _input(rng, lo=0, hi=3)
        nd = a.dim()
        n, dim = int(rng.integers(-1 if rng.random() < 0.05 else 0, 4)), _dim(rng, nd)
        kw_tt, kw_th = {}, {}
        for key in ('prepend', 'append'):
            if rng.random() < 0.3 and nd:
                sh = list(a.shape); d = dim % nd if -nd <= dim < nd else 0
                sh[d] = int(rng.integers(0, 3))
                p_tt, p_th = pair(rng, tuple(sh), str(rng.choice(DTYPES)), 'contig')
                kw_tt[key], kw_th[key] = p_tt, p_th
        return f'{ctx} n={n} dim={dim} {[(k, tuple(v.shape), v.dtype) for k, v in kw_th.items()]}', \
            lambda: tt.diff(a, n, dim, **kw_tt), lambda: torch.diff(b, n, dim, **kw_th)
    _fuzz('diff', case, n=100)

# ---------------------------------------------------------------- search
def test_searchsorted():
    def case(rng):
        dt = str(rng.choice(['int64', 'int32', 'float32', 'float64', 'float16', 'uint8']))
        nd = int(rng.integers(1, 3)) if rng.random() < 0.95 else 0
        lead = tuple(int(rng.integers(1, 3)) for _ in range(nd - 1))
        n = int(rng.integers(0, 6))
        bs_tt, bs_th = pair(rng, lead + (n,), dt, 'contig', special=rng.random() < 0.3)
        srt = np.sort(bs_th.numpy(), -1, kind='stable') if dt != 'float16' else np.sort(bs_th.numpy(), -1)
        bs_th = torch.from_numpy(srt.copy()); bs_tt = tt.tensor(srt.copy())
        vshape = lead + (int(rng.integers(0, 4)),) if nd > 1 or rng.random() < 0.5 else _shape(rng, 0, 2)
        vd = dt if rng.random() < 0.8 else str(rng.choice(['int64', 'float32']))
        v_tt, v_th = pair(rng, vshape, vd, str(rng.choice(LAYOUTS)), special=rng.random() < 0.3)
        if rng.random() < 0.1: v_tt = v_th = float(rng.integers(-3, 4))
        kw = {}
        if rng.random() < 0.3: kw['right'] = True
        if rng.random() < 0.3: kw['side'] = str(rng.choice(['left', 'right', 'bad']))
        if rng.random() < 0.2: kw['out_int32'] = True
        srt_tt = srt_th = None
        if rng.random() < 0.2:
            perm = np.argsort(rng.random(lead + (n,)), -1)
            unsorted = np.take_along_axis(srt, np.argsort(perm, -1), -1)
            bs_th, bs_tt = torch.from_numpy(unsorted.copy()), tt.tensor(unsorted.copy())
            srt_th, srt_tt = torch.from_numpy(np.argsort(unsorted, -1, kind='stable')), tt.tensor(np.argsort(unsorted, -1, kind='stable'))
        return f'{tuple(bs_th.shape)}/{dt} {vshape}/{vd} {kw} sorter={srt_th is not None}', \
            lambda: tt.searchsorted(bs_tt, v_tt, sorter=srt_tt, **kw), lambda: torch.searchsorted(bs_th, v_th, sorter=srt_th, **kw)
    _fuzz('searchsorted', case, n=150)

def test_bucketize():
    def case(rng):
        bd = np.sort(np.round(rng.standard_normal(int(rng.integers(0, 6))) * 3, 1))
        if rng.random() < 0.2: bd = np.append(bd, np.nan)
        a, b, ctx = _input(rng, dts=['float32', 'float64'])
        right, i32 = bool(rng.random() < 0.5), bool(rng.random() < 0.3)
        btt, bth = tt.tensor(bd.tolist()), torch.tensor(bd.tolist())
        if rng.random() < 0.05: btt, bth = btt.reshape(1, -1), bth.reshape(1, -1)
        return f'{ctx} {bd} right={right}', lambda: tt.bucketize(a, btt, right=right, out_int32=i32), lambda: torch.bucketize(b, bth, right=right, out_int32=i32)
    _fuzz('bucketize', case)

# ---------------------------------------------------------------- scans
@pytest.mark.parametrize('name', ['cummax', 'cummin'])
def test_cummax_cummin(name):
    def case(rng):
        a, b, ctx = _input(rng, lo=0, hi=3)
        if rng.random() < 0.5 and a.dtype.name in INTS:
            a, b = pair(rng, tuple(b.shape), a.dtype.name, 'perm', lo=0, hi=3)             # many ties
        d = _dim(rng, a.dim())
        def f_tt():
            r = getattr(tt, name)(a, d); assert r.values is r[0] and type(r).__name__ == name
            return tuple(r)
        return f'{ctx} dim={d}', f_tt, lambda: tuple(getattr(torch, name)(b, d))
    _fuzz(name, case, n=100)

def test_logcumsumexp():
    def case(rng):
        a, b, ctx = _input(rng, lo=0, hi=3)
        d = _dim(rng, a.dim())
        return f'{ctx} dim={d}', lambda: tt.logcumsumexp(a, d), lambda: torch.logcumsumexp(b, d)
    _fuzz('logcumsumexp', case)

# ---------------------------------------------------------------- integer ops, shifts
@pytest.mark.parametrize('name', ['gcd', 'lcm', 'bitwise_left_shift', 'bitwise_right_shift'])
def test_integer_binary(name):
    def case(rng):
        shapes, _ = rand_shapes(rng, 2, maxdim=3)
        dts = INTS if rng.random() < 0.9 else DTYPES
        a, b = pair(rng, shapes[0], str(rng.choice(dts)), str(rng.choice(LAYOUTS)), lo=-20, hi=20)
        c, d = pair(rng, shapes[1], str(rng.choice(dts)), str(rng.choice(LAYOUTS)), lo=-10, hi=70)
        if 'shift' in name and rng.random() < 0.2: c = d = int(rng.integers(-3, 70))
        return f'{tuple(b.shape)}/{b.dtype} {d}', lambda: getattr(tt, name)(a, c), lambda: getattr(torch, name)(b, d)
    _fuzz(name, case, n=80)

_SHIFT = {'lshift': 'bitwise_left_shift', 'rshift': 'bitwise_right_shift'}

@pytest.mark.parametrize('op', ['lshift', 'rshift'])
def test_shift_operators(op):
    rng = np.random.default_rng(9)
    for dt in INTS:
        a, b = pair(rng, (3, 4), dt, 'contig', lo=-20, hi=20)
        for other in (1, 3, torch.tensor(2)):
            o_tt = tt.tensor(other.item()) if isinstance(other, torch.Tensor) else other
            f = getattr(operator, op)
            m = check_results(*run_both(lambda: f(a, o_tt), lambda: f(b, other)), _SHIFT[op], ctx=f'{op} {dt} {other}')
            assert not m, m
            m = check_results(*run_both(lambda: f(5, a), lambda: f(5, b)), _SHIFT[op], ctx=f'r{op} {dt}')
            assert not m, m
        x_tt, x_th = a.clone(), b.clone()
        fi = getattr(operator, 'i' + op)
        y_tt, y_th = fi(x_tt, 2), fi(x_th, 2)
        assert y_tt is x_tt and not same(x_tt, x_th, _SHIFT[op])

@pytest.mark.parametrize('name', ['gcd_', 'lcm_', 'bitwise_left_shift_', 'bitwise_right_shift_'])
def test_integer_inplace(name):
    rng = np.random.default_rng(2)
    a, b = pair(rng, (3, 4), 'int32', 'transpose', lo=-20, hi=20)
    c, d = pair(rng, (4,), 'int32', 'contig', lo=0, hi=9)
    assert getattr(a, name)(c) is a and getattr(b, name)(d) is b
    assert not same(a, b, name.rstrip('_'))

# ---------------------------------------------------------------- cross
def test_cross():
    def case(rng):
        nd = int(rng.integers(1, 4))
        shape = [int(rng.choice([1, 2, 3, 3, 4])) for _ in range(nd)]
        dt = str(rng.choice(['float32', 'float64', 'int64', 'int32']))
        a, b = pair(rng, tuple(shape), dt, str(rng.choice(LAYOUTS)), special=False)
        sh2 = [s if rng.random() < 0.8 else 1 for s in shape]
        c, d = pair(rng, tuple(sh2), dt if rng.random() < 0.95 else 'float64', 'contig', special=False)
        dim = None if rng.random() < 0.3 else _dim(rng, nd)
        return f'{shape}/{dt} x {sh2} dim={dim}', lambda: tt.cross(a, c, dim=dim), lambda: torch.cross(b, d, dim=dim)
    _fuzz('cross', case)

# ---------------------------------------------------------------- products
def _mat(rng, shape, dt):
    return pair(rng, shape, dt, str(rng.choice(LAYOUTS)), special=False, lo=-3, hi=4)

@pytest.mark.parametrize('name', ['addmm', 'addmv', 'addr', 'baddbmm', 'addbmm'])
def test_blas_updates(name):
    def case(rng):
        n, k, p, bt = (int(rng.integers(0, 4)) for _ in range(4))
        dt = str(rng.choice(['float32', 'float64', 'int64']))
        shapes = dict(addmm=((n, k), (k, p), (n, p)), addmv=((n, k), (k,), (n,)), addr=((n,), (p,), (n, p)),
                      baddbmm=((bt, n, k), (bt, k, p), (bt, n, p)), addbmm=((bt, n, k), (bt, k, p), (n, p)))[name]
        s1, s2, so = shapes
        if rng.random() < 0.1: s2 = tuple(x + 1 for x in s2)                                # shape errors
        if rng.random() < 0.3: so = so[1:]                                                     # broadcast input
        m1, m1t = _mat(rng, s1, dt); m2, m2t = _mat(rng, s2, dt)
        x, xt = pair(rng, so, dt, 'contig', special=rng.random() < 0.3, lo=-3, hi=4)
        beta = float(rng.choice([1, 0, 0.5, 2])) if dt != 'int64' else int(rng.choice([1, 0, 2]))
        alpha = float(rng.choice([1, 0.5, -2])) if dt != 'int64' else int(rng.choice([1, -2]))
        return f'{s1},{s2},{so}/{dt} beta={beta} alpha={alpha}', lambda: getattr(tt, name)(x, m1, m2, beta=beta, alpha=alpha), \
            lambda: getattr(torch, name)(xt, m1t, m2t, beta=beta, alpha=alpha)
    _fuzz(name, case)

def test_beta_zero_ignores_nan():
    x = tt.full((2, 2), float('nan'))
    for f, a, b in ((tt.addmm, tt.ones(2, 3), tt.ones(3, 2)), (tt.baddbmm, tt.ones(1, 2, 3), tt.ones(1, 3, 2))):
        assert f(x, a, b, beta=0).reshape(-1).tolist() == [3.] * 4
    assert tt.addr(x, tt.ones(2), tt.ones(2), beta=0).reshape(-1).tolist() == [1.] * 4
    assert tt.addmv(x[0], tt.ones(2, 3), tt.ones(3), beta=0).tolist() == [3., 3.]

def test_inner_vdot_matrix_power_chain():
    rng = np.random.default_rng(4)
    for _ in range(40):
        dt = str(rng.choice(['float64', 'int64']))
        a, b, ctx = _input(rng, _shape(rng, 0, 3, (1, 2, 3)), dts=[dt], special=False)
        c, d = pair(rng, _shape(rng, 0, 2, (1, 2, 3)) + (tuple(b.shape[-1:]) if rng.random() < 0.8 else (2,)), dt, 'transpose', special=False)
        for f in ('inner', 'vdot'):
            m = check_results(*run_both(lambda: getattr(tt, f)(a, c), lambda: getattr(torch, f)(b, d)), f, ctx=f'{f} {ctx} {tuple(d.shape)}')
            assert not m, m
        sq = int(rng.integers(0, 4))
        e, g = pair(rng, _shape(rng, 0, 1, (0, 1, 2)) + (sq, sq if rng.random() < 0.9 else sq + 1), dt, 'transpose', special=False, lo=-2, hi=3)
        for k in range(0, 7):
            m = check_results(*run_both(lambda: tt.matrix_power(e, k), lambda: torch.matrix_power(g, k)), 'matrix_power', ctx=f'matrix_power {tuple(g.shape)} {k}')
            assert not m, m
    mats = [pair(rng, s, 'int64', 'transpose') for s in [(2, 3), (3, 4), (4, 1)]]
    for k in (1, 2, 3):
        m = check_results(*run_both(lambda: tt.chain_matmul(*[a for a, _ in mats[:k]]), lambda: torch.chain_matmul(*[b for _, b in mats[:k]])), 'chain_matmul', ctx=str(k))
        assert not m, m

# ---------------------------------------------------------------- predicates and protocols
def test_predicates():
    rng = np.random.default_rng(8)
    for dt in DTYPES:
        a, b = pair(rng, (2, 3), dt, 'transpose')
        for f in ('is_complex', 'is_floating_point', 'numel', 'is_conj', 'is_tensor'):
            assert getattr(tt, f)(a) == getattr(torch, f)(b), (f, dt)
        for m in ('is_signed', 'get_device', 'is_conj', 'is_neg', 'type', 'dim_order'):
            assert getattr(a, m)() == getattr(b, m)(), (m, dt)
        assert tt.resolve_conj(a) is a and a.resolve_neg() is a
        assert a.const_data_ptr() == a.data_ptr()
        one_tt, one_th = pair(rng, (1,) * int(rng.integers(0, 3)), dt, 'contig')
        assert tt.is_nonzero(one_tt) == torch.is_nonzero(one_th)
    for f in ('is_complex', 'is_floating_point', 'numel', 'is_nonzero', 'is_conj', 'resolve_conj', 'resolve_neg'):
        m = check_results(*run_both(lambda: getattr(tt, f)(3), lambda: getattr(torch, f)(3)), 'metadata', ctx=f)
        assert not m, m
    for shape in [(0,), (2,), (2, 2)]:
        m = check_results(*run_both(lambda: tt.is_nonzero(tt.zeros(shape)), lambda: torch.is_nonzero(torch.zeros(shape))), 'metadata')
        assert not m, m
    assert tt.is_storage(tt.ones(2).untyped_storage()) and not tt.is_storage(tt.ones(2))
    assert tt.get_default_device() == tt.device('cpu')
    with pytest.raises(RuntimeError): tt.set_default_device('meta')

def test_dim_order_layouts():
    rng = np.random.default_rng(12)
    for _ in range(60):
        a, b, ctx = _input(rng, lo=0, hi=4)
        assert a.dim_order() == b.dim_order(), ctx

def test_type_conversions():
    x_tt, x_th = tt.ones(2, 3).t(), torch.ones(2, 3).t()
    for arg in ('torch.IntTensor', 'torch.DoubleTensor', 'torch.BoolTensor', torch.int64):
        a = getattr(tt, str(arg).split('.')[-1]) if not isinstance(arg, str) else arg
        m = check_results(*run_both(lambda: x_tt.type(a), lambda: x_th.type(arg)), 'to', ctx=str(arg))
        assert not m, m
    m = check_results(*run_both(lambda: x_tt.type('torch.Foo'), lambda: x_th.type('torch.Foo')), 'to')
    assert not m, m

@pytest.mark.parametrize('shape', [(), (1,), (1, 1), (2,), (0,), (2, 3)])
@pytest.mark.parametrize('conv', ['__int__', '__float__', '__complex__', '__index__', '__bool__'])
def test_scalar_conversions(shape, conv):
    for dt in ('float32', 'int64', 'bool'):
        a, b = pair(np.random.default_rng(1), shape, dt, 'contig')
        r = run_both(lambda: getattr(a, conv)(), lambda: getattr(b, conv)())
        if isinstance(r[1], Exception):
            assert type(r[0]) is type(r[1]) and str(r[0]) == str(r[1]), (conv, shape, dt, r)
        else: assert r[0] == r[1] and type(r[0]) is type(r[1]), (conv, shape, dt, r)

@pytest.mark.parametrize('spec', ['', '.2f', '05d', '>8', 'e'])
def test_format(spec):
    for v in (1.5, 3, True):
        for x_tt, x_th in ((tt.tensor(v), torch.tensor(v)), (tt.tensor([v]), torch.tensor([v]))):
            r = run_both(lambda: format(x_tt, spec), lambda: format(x_th, spec))
            if isinstance(r[1], Exception): assert type(r[0]) is type(r[1]), (v, spec, r)
            elif x_th.dim() == 0: assert r[0] == r[1], (v, spec, r)

def test_contains():
    t_tt, t_th = tt.tensor([[1, 2], [3, 4]]), torch.tensor([[1, 2], [3, 4]])
    for el in (2, 5, 2.0, True, tt.tensor(3), tt.tensor([1, 2]), tt.tensor([9, 9]), 'a', None, [1]):
        el_th = torch.tensor(el.tolist()) if isinstance(el, tt.Tensor) else el
        r = run_both(lambda: el in t_tt, lambda: el_th in t_th)
        if isinstance(r[1], Exception): assert type(r[0]) is type(r[1]), (el, r)
        else: assert r[0] == r[1], (el, r)

def test_meta_shapes():
    "On the meta device the ops that support it give torch's shapes, strides and dtypes and touch no data."
    for shape in [(3, 4), (2, 0, 3), (4, 3)]:
        a, b = tt.empty(*shape, device='meta').transpose(0, 1), torch.empty(*shape, device='meta').transpose(0, 1)
        calls = [('tril', lambda L, x: L.tril(x, 1)), ('triu', lambda L, x: L.triu(x)), ('roll', lambda L, x: L.roll(x, 1)),
                 ('roll', lambda L, x: L.roll(x, 1, 0)), ('fliplr', lambda L, x: L.fliplr(x)), ('flipud', lambda L, x: L.flipud(x)),
                 ('rot90', lambda L, x: L.rot90(x)), ('rot90', lambda L, x: L.rot90(x, 2)),
                 ('logcumsumexp', lambda L, x: L.logcumsumexp(x, 0)), ('cummax', lambda L, x: tuple(L.cummax(x, 1))),
                 ('atleast_3d', lambda L, x: L.atleast_3d(x))]
        for i, (name, f) in enumerate(calls):
            if 0 in shape and 4 <= i <= 7: continue          # torch's meta flip of an empty tensor is contiguous, its CPU flip keeps the layout
            m = check_results(*run_both(lambda: f(tt, a), lambda: f(torch, b)), name, ctx=f'meta call {i} {shape}')
            assert not m, m

def test_out_and_inplace_variants():
    "`out=` results (resized, dtype-checked) and in-place BLAS updates return the given tensor, as torch's."
    rng = np.random.default_rng(21)
    x_tt, x_th = pair(rng, (3, 4), 'float32', 'transpose', special=False)
    v_tt, v_th = pair(rng, (3, 3), 'float32', 'contig', special=False)
    cases = [('tril', lambda L, x, o: L.tril(x, 1, out=o), 'float32'), ('triu', lambda L, x, o: L.triu(x, out=o), 'int32'),
             ('searchsorted', lambda L, x, o: L.searchsorted(L.tensor([0., 1.]), x, out=o), 'int64'),
             ('logcumsumexp', lambda L, x, o: L.logcumsumexp(x, 1, out=o), 'float32'),
             ('cross', lambda L, x, o: L.cross(x[:3, :3] if x.shape[0] > 2 else x, x[:3, :3], dim=0, out=o), 'float32'),
             ('kron', lambda L, x, o: L.kron(L.ones(2, 1), L.ones(1, 2), out=o), 'float32'),
             ('diag', lambda L, x, o: L.diag(x, out=o), 'float32')]
    for name, f, odt in cases:
        for shape in [(0,), (3, 4), (2,)]:
            o_tt, o_th = tt.empty(*shape, dtype=getattr(tt, odt)), torch.empty(*shape, dtype=getattr(torch, odt))
            r = run_both(lambda: f(tt, x_tt, o_tt), lambda: f(torch, x_th, o_th))
            m = check_results(*r, name, ctx=f'{name} out{shape}/{odt}')
            assert not m, m
            if not isinstance(r[1], Exception): assert r[0] is o_tt and r[1] is o_th
    for name, args in [('addmm_', lambda L: (L.ones(3, 2), L.ones(2, 3))), ('addr_', lambda L: (L.ones(3), L.ones(3))),
                       ('baddbmm_', lambda L: (L.ones(1, 3, 2), L.ones(1, 2, 3)))]:
        s_tt, s_th = (v_tt.clone(), v_th.clone()) if name != 'baddbmm_' else (v_tt.clone().unsqueeze(0), v_th.clone().unsqueeze(0))
        r_tt, r_th = getattr(s_tt, name)(*args(tt), beta=0.5, alpha=2), getattr(s_th, name)(*args(torch), beta=0.5, alpha=2)
        assert r_tt is s_tt and not same(s_tt, s_th, name.rstrip('_')), name
    b_tt, b_th = tt.ones(5), torch.ones(5)
    m = check_results(*run_both(lambda: b_tt.addmm_(tt.ones(3, 4), tt.ones(4, 5)), lambda: b_th.addmm_(torch.ones(3, 4), torch.ones(4, 5))), 'addmm')
    assert not m, m


@pytest.mark.parametrize('threads', [1, 2])
def test_roll_large_threaded(threads):
    "roll copies its two pieces straight into the result, rows split among threads: every shift and dim as torch's."
    x_np = np.random.default_rng(threads).standard_normal((300, 400)).astype(np.float32)
    with num_threads(threads):
        for transposed in (False, True):
            x, xt = both(x_np, transposed)
            for shifts, dims in [(1, 1), (-7, 0), (400, 1), (123457, None), (0, 1), ((3, -2), (0, 1)), (-1, -1)]:
                assert same(x.roll(shifts, dims), xt.roll(shifts, dims), 'roll') is None
