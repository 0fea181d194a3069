"Differential tests of chapter 20's math ops against torch: random shapes, layouts, dtypes (complex too), forms, bad inputs."
import math
import numpy as np
import pytest
torch = pytest.importorskip("torch")
import tinytensor as tt
from tinytensor.tensor_impl import alias_with_sizes_and_strides
from tinytensor.factories import _np_write
from hypothesis import given, settings, strategies as st
from ttgen import DTYPES, FLOATS, INTS, LAYOUTS, pair, layout, rand_shapes, rand_scalar, run_both, check_results, same, slope_scale, rule, TRANSCENDENTAL

torch.set_num_threads(1)

ALL = DTYPES + ['complex64']
N = 120                 # cases per op

def cpair(rng, shape, kind='contig'):
    "The same strided complex64 tensor in both libraries."
    sizes, strides, off, nstore = layout(rng, shape, kind)
    base = (np.round(rng.standard_normal(nstore) * 2, 2) + 1j * np.round(rng.standard_normal(nstore) * 2, 2)).astype(np.complex64)
    if nstore and rng.random() < 0.3: base[rng.integers(0, nstore)] = complex(rng.choice([np.nan, np.inf, 0.0]), 1.0)
    th = torch.empty(nstore, dtype=torch.complex64).copy_(torch.from_numpy(base))      # resizable, like pair()
    tb = tt.empty(nstore, dtype=tt.complex64)
    if nstore: _np_write(tb)[...] = base                  # not numpy(): it pins the storage
    return alias_with_sizes_and_strides(tb, sizes, strides, off), torch.as_strided(th, sizes, strides, off)

def operand(rng, shape, dt, kind=None, **kw):
    kind = kind or str(rng.choice(LAYOUTS))
    return cpair(rng, shape, kind) if dt == 'complex64' else pair(rng, shape, dt, kind, **kw)

def _desc(x): return x if not isinstance(x, torch.Tensor) else (tuple(x.shape), str(x.dtype)[6:], x.stride())

def _forms(rng, name, args_tt, args_th, kw, ctx, bad, out_dtypes=ALL, inplace=True, scale=0.):
    "Run one call as function, method, in-place method or with out=, comparing everything (`scale`: Note [one comparison rule])."
    cplx = next((str(a.dtype)[6:] for a in args_th if isinstance(a, torch.Tensor) and a.is_complex()), None)
    comp = cplx
    forms = ['func', 'method'] + (['inplace'] if inplace and hasattr(torch.Tensor, name + '_') else []) + ['out']
    form = str(rng.choice(forms))
    ctx = f'{name} {form} {ctx} {kw}'
    if form == 'func': r = run_both(lambda: getattr(tt, name)(*args_tt, **kw), lambda: getattr(torch, name)(*args_th, **kw))
    elif form == 'method':
        r = run_both(lambda: getattr(args_tt[0], name)(*args_tt[1:], **kw), lambda: getattr(args_th[0], name)(*args_th[1:], **kw))
    elif form == 'inplace':
        a = args_tt[0]
        v0 = a._version
        r = run_both(lambda: getattr(a, name + '_')(*args_tt[1:], **kw), lambda: getattr(args_th[0], name + '_')(*args_th[1:], **kw))
        if not isinstance(r[0], Exception):
            if r[0] is not a: bad.append(ctx + ': in-place did not return self')
            elif a._version != v0 + 1: bad.append(ctx + f': version {a._version} != {v0 + 1}')
    else:
        od = str(rng.choice(list(out_dtypes)))
        ch = rng.random()
        shape = tuple(args_th[0].shape) if ch < 0.7 else ((0,) if ch < 0.85 else (2,))
        o_tt, o_th = operand(rng, shape, od, str(rng.choice(['contig', 'perm', 'slice', 'transpose'])))
        ctx += f' out={_desc(o_th)}'
        try: ran = str(getattr(torch, name)(*args_th, **kw).dtype)[6:]      # compare at the precision the op ran in,
        except Exception: ran = od                                       # or the out's, whichever is looser
        comp = max([ran, od], key=lambda d: {'bfloat16': 4, 'float16': 3, 'float32': 2, 'complex64': 2}.get(d, 0))
        if cplx and not comp.startswith('complex'): comp = cplx
        r = run_both(lambda: getattr(tt, name)(*args_tt, out=o_tt, **kw), lambda: getattr(torch, name)(*args_th, out=o_th, **kw))
        if not isinstance(r[0], Exception):
            if r[0] is not o_tt: bad.append(ctx + ': out= did not return out')
            m = check_results(o_tt, o_th, name, ctx=ctx + ' (out tensor)', scale=scale, computed_in=comp)
            if m: bad.append(m)
    m = check_results(*r, name, ctx=ctx, scale=scale, computed_in=comp)
    if m: bad.append(m)

def _finish(bad):
    assert not bad, f'{len(bad)} mismatches, e.g.\n' + '\n'.join(bad[:8])

# ---- unary ops -----------------------------------------------------------------------------------------------------

EXACT_UNARY = ['floor', 'ceil', 'trunc', 'fix', 'round', 'frac', 'sign', 'sgn', 'square', 'nan_to_num', 'signbit',
               'isnan', 'isinf', 'isfinite', 'isposinf', 'isneginf', 'isreal', 'abs', 'deg2rad', 'rad2deg', 'positive',
               'conj_physical']
FLOAT_UNARY = ['rsqrt', 'exp2', 'expm1', 'log1p', 'log2', 'log10', 'tan', 'asin', 'acos', 'atan', 'arcsin', 'arccos',
               'arctan', 'sinh', 'cosh', 'asinh', 'acosh', 'atanh', 'arcsinh', 'arccosh', 'arctanh', 'erf', 'erfc', 'logit',
               'sinc', 'angle']
NO_OUT = {'isnan', 'isinf', 'isfinite', 'isreal', 'positive'}

def _unary_kw(rng, name):
    if name == 'round' and rng.random() < 0.5: return {'decimals': int(rng.choice([-2, -1, 0, 1, 2, 3]))}
    if name == 'nan_to_num' and rng.random() < 0.6:
        return {k: v for k, v in dict(nan=float(rng.choice([0., -1., 2.5])), posinf=float(rng.choice([1e3, 7.])),
                                      neginf=float(rng.choice([-1e3, -7.]))).items() if rng.random() < 0.7}
    if name == 'logit' and rng.random() < 0.6: return {'eps': float(rng.choice([0.0, 0.1, 0.25, 0.5, -1.0]))}
    return {}

@pytest.mark.parametrize('name', EXACT_UNARY + FLOAT_UNARY)
def test_unary(name):
    rng = np.random.default_rng([ord(c) for c in name] + [61])
    bad = []
    # a complex tensor's transcendental values and a reduced float's are compared with tolerance
    for _ in range(N):
        _, shape = rand_shapes(rng, 1)
        dt = str(rng.choice(ALL))
        # torch and ml_dtypes write different NaN bits for bfloat16 (torch sets the sign bit): no NaNs for signbit
        a_tt, a_th = operand(rng, shape, dt, **({'special': False} if name == 'signbit' and dt != 'complex64' else {}))
        kw = _unary_kw(rng, name)
        if name == 'isreal' and dt == 'complex64' and 0 in shape: continue     # Note in test_isreal_empty_complex
        if name in NO_OUT:
            r = run_both(lambda: getattr(tt, name)(a_tt), lambda: getattr(torch, name)(a_th))
            m = check_results(*r, name, ctx=f'{name} {_desc(a_th)}')
            if m: bad.append(m)
            r = run_both(lambda: getattr(a_tt, name)(), lambda: getattr(a_th, name)())
            m = check_results(*r, name, ctx=f'{name} method {_desc(a_th)}')
            if m: bad.append(m)
            if name == 'positive' and not isinstance(r[1], Exception) and (r[0] is not a_tt) != (r[1] is not a_th):
                bad.append(f'positive {_desc(a_th)}: returns self in one library only')
            continue
        scale = slope_scale(lambda x: getattr(torch, name)(x, **kw), a_th) if rule(name) == TRANSCENDENTAL else 0.
        _forms(rng, name, (a_tt,), (a_th,), kw, f'{_desc(a_th)}', bad, scale=scale)
    _finish(bad)

def test_unary_non_tensor_arguments():
    for name in EXACT_UNARY + FLOAT_UNARY + ['exp', 'neg', 'abs', 'clamp', 'frexp']:
        r = run_both(lambda: getattr(tt, name)([1, 2]), lambda: getattr(torch, name)([1, 2]))
        assert isinstance(r[0], TypeError) and isinstance(r[1], TypeError), (name, r)

# ---- erf against math.erf ------------------------------------------------------------------------------------------

@settings(max_examples=200, deadline=None)
@given(st.lists(st.floats(allow_nan=True, allow_infinity=True, width=64), min_size=1, max_size=20))
def test_erf_matches_math(xs):
    t = tt.tensor(xs, dtype=tt.float64)
    e, c = tt.erf(t).numpy(), tt.erfc(t).numpy()
    for x, a, b in zip(xs, e, c):
        if math.isnan(x): assert math.isnan(a) and math.isnan(b); continue
        assert math.isclose(a, math.erf(x), rel_tol=1e-14, abs_tol=1e-300), (x, a, math.erf(x))
        assert math.isclose(b, math.erfc(x), rel_tol=2e-13, abs_tol=1e-300), (x, b, math.erfc(x))

@pytest.mark.parametrize('dt', ['float16', 'bfloat16', 'float32'])
def test_erf_reduced_is_rounded_double(dt):
    "In float32 and below our erf is the correctly rounded double result; torch's is within an ulp."
    rng = np.random.default_rng(5)
    a_tt, a_th = pair(rng, (4000,), dt, 'contig', special=False)
    m = check_results(tt.erf(a_tt), torch.erf(a_th), 'erf')
    assert m is None, m

# ---- binary ops ----------------------------------------------------------------------------------------------------

BINARY = ['atan2', 'arctan2', 'fmod', 'hypot']

@pytest.mark.parametrize('name', BINARY)
def test_binary(name):
    rng = np.random.default_rng([ord(c) for c in name] + [62])
    bad = []
    for _ in range(N * 2):
        (sa, sb), _ = rand_shapes(rng, 2)
        da, db = str(rng.choice(ALL)), str(rng.choice(ALL))
        a_tt, a_th = operand(rng, sa, da)
        if rng.random() < 0.2:
            s = rand_scalar(rng)
            if name == 'fmod' and s == 0 and rng.random() < 0.5: s = 3
            b_tt = b_th = s
        else:
            lo = 1 if name == 'fmod' and db in INTS and rng.random() < 0.9 else -9
            b_tt, b_th = operand(rng, sb, db, lo=lo) if db != 'complex64' else operand(rng, sb, db)
        _forms(rng, name, (a_tt, b_tt), (a_th, b_th), {}, f'a={_desc(a_th)} b={_desc(b_th)}', bad)
    # a number first is refused by all three
    for s in (2, 2.5):
        r = run_both(lambda: getattr(tt, name)(s, tt.tensor([1., 2.])), lambda: getattr(torch, name)(s, torch.tensor([1., 2.])))
        if not (isinstance(r[0], TypeError) and isinstance(r[1], TypeError)): bad.append(f'{name}({s}, t): {r}')
    _finish(bad)

# ---- lerp, addcmul, addcdiv ----------------------------------------------------------------------------------------

@pytest.mark.parametrize('name', ['lerp', 'addcmul', 'addcdiv'])
def test_ternary(name):
    rng = np.random.default_rng([ord(c) for c in name] + [63])
    bad = []
    for _ in range(N * 2):
        shapes, _ = rand_shapes(rng, 3)
        if name == 'lerp':
            d = str(rng.choice(ALL))
            ds = [d, d if rng.random() < 0.85 else str(rng.choice(ALL)), d if rng.random() < 0.85 else str(rng.choice(ALL))]
        else: ds = [str(rng.choice(ALL)) for _ in range(3)]
        ops = [operand(rng, s, dt, special=name != 'addcdiv') if dt != 'complex64' else operand(rng, s, dt) for s, dt in zip(shapes, ds)]
        a_tt, a_th = [o[0] for o in ops], [o[1] for o in ops]
        kw = {}
        if name == 'lerp' and rng.random() < 0.5:
            w = float(rng.choice([0.25, 0.5, 0.75, -1.0, 2.0, 0.1]))
            a_tt[2] = a_th[2] = w
        if name != 'lerp' and rng.random() < 0.5: kw['value'] = rand_scalar(rng)
        _forms(rng, name, tuple(a_tt), tuple(a_th), kw, ' '.join(str(_desc(x)) for x in a_th), bad)
    _finish(bad)

# ---- isclose, allclose, equal --------------------------------------------------------------------------------------

@pytest.mark.parametrize('name', ['isclose', 'allclose', 'equal'])
def test_closeness(name):
    rng = np.random.default_rng([ord(c) for c in name] + [64])
    bad = []
    for _ in range(N * 2):
        (sa, sb), _ = rand_shapes(rng, 2)
        da = str(rng.choice(ALL))
        db = da if rng.random() < 0.8 else str(rng.choice(ALL))
        a_tt, a_th = operand(rng, sa, da)
        if rng.random() < 0.4:              # nearly the same values
            b_tt, b_th = a_tt.clone(), a_th.clone()
            if da in FLOATS and b_tt.numel():
                noise = np.asarray(np.random.default_rng(1).standard_normal(b_tt.shape) * 1e-6, dtype=np.float32)
                b_tt = tt.add(b_tt, tt.tensor(noise).to(b_tt.dtype)); b_th = b_th + torch.from_numpy(noise).to(b_th.dtype)
        else: b_tt, b_th = operand(rng, sb, db)
        kw = {}
        if name != 'equal':
            if rng.random() < 0.5: kw['rtol'] = float(rng.choice([0., 1e-3, 0.1, -1.]))
            if rng.random() < 0.5: kw['atol'] = float(rng.choice([0., 1e-5, 1., 2.]))
            if rng.random() < 0.3: kw['equal_nan'] = True
        ctx = f'{name} a={_desc(a_th)} b={_desc(b_th)} {kw}'
        r = run_both(lambda: getattr(tt, name)(a_tt, b_tt, **kw), lambda: getattr(torch, name)(a_th, b_th, **kw))
        if name == 'isclose': m = check_results(*r, name, ctx=ctx)
        elif isinstance(r[1], Exception) or isinstance(r[0], Exception):
            m = None if type(r[0]) is type(r[1]) else f'{ctx}: {r}'
        else: m = None if (type(r[0]) is bool and r[0] == r[1]) else f'{ctx}: {r}'
        if m: bad.append(m)
    r = run_both(lambda: tt.isclose(tt.tensor([1.]), 1.), lambda: torch.isclose(torch.tensor([1.]), 1.))
    if not (isinstance(r[0], TypeError) and isinstance(r[1], TypeError)): bad.append(f'isclose with a number: {r}')
    _finish(bad)

@pytest.mark.parametrize('dt', ['complex128', 'complex64'])
def test_isclose_complex_at_the_tolerance_boundary(dt):
    "|a - b| is torch's hypot, not numpy's complex abs (Note [Complex magnitude as hypot]): pairs placed at distance "
    "atol + rtol * |b| (a few ulps either side, along a random direction) are close exactly where torch says so."
    rng = np.random.default_rng(48)
    s2, h = math.sqrt(2), math.sqrt(.5)
    a, b = [complex(-s2, s2)], [complex(-h, h)]                  # the case torch's test_torch.py found
    tols = [(.5, .5)]
    for _ in range(400):
        bb = complex(*np.round(rng.standard_normal(2) * 4, int(rng.integers(0, 4))))
        rtol, atol = float(rng.choice([0., .5, .25, 1e-3])), float(rng.choice([0., .5, 1., 1e-5]))
        if rtol == atol == 0: atol = .5
        r = (atol + rtol * abs(bb)) * (1 + float(rng.integers(-4, 5)) * 2.**-52)
        u = complex(*rng.choice([[1, 1], [-1, 1], [3, 4], [1, 0], [0, -1], [5, -12]], 1)[0])
        a.append(bb + r * u / abs(u)); b.append(bb); tols.append((rtol, atol))
    bad = []
    for i, (x, y, (rtol, atol)) in enumerate(zip(a, b, tols)):
        r = run_both(lambda: tt.isclose(tt.tensor([x], dtype=getattr(tt, dt)), tt.tensor([y], dtype=getattr(tt, dt)),
                                        rtol=rtol, atol=atol),
                     lambda: torch.isclose(torch.tensor([x], dtype=getattr(torch, dt)),
                                           torch.tensor([y], dtype=getattr(torch, dt)), rtol=rtol, atol=atol))
        if m := check_results(*r, 'isclose', ctx=f'{i}: {x} {y} rtol={rtol} atol={atol}'): bad.append(m)
    A, B = (tt.tensor(a, dtype=getattr(tt, dt)), tt.tensor(b, dtype=getattr(tt, dt)))
    TA, TB = (torch.tensor(a, dtype=getattr(torch, dt)), torch.tensor(b, dtype=getattr(torch, dt)))
    for rtol, atol in [(.5, .5), (.25, 1.)] if dt == 'complex128' else []:   # complex64: Sleef's vector hypot
        if m := check_results(tt.isclose(A, B, rtol, atol), torch.isclose(TA, TB, rtol, atol), 'isclose', 'vector'):
            bad.append(m)
        if tt.allclose(A[:1], B[:1], rtol, atol) != torch.allclose(TA[:1], TB[:1], rtol, atol): bad.append('allclose')
    _finish(bad)

def test_methods_exist_like_torch():
    "Every op that torch has as a Tensor method (and in-place method) we have too."
    names = EXACT_UNARY + FLOAT_UNARY + BINARY + MORE_BINARY + ALIASES + ['lerp', 'addcmul', 'addcdiv', 'isclose', 'allclose',
                                                                        'equal', 'frexp']
    for n in names:
        for m in (n, n + '_'):
            if hasattr(torch.Tensor, m): assert hasattr(tt.Tensor, m), m

def test_isreal_empty_complex():
    "Known difference: torch takes an empty complex tensor's isreal layout from its imag view; we lay it out contiguously."
    t, th = tt.zeros(0, 3, dtype=tt.complex64), torch.zeros(0, 3, dtype=torch.complex64)
    assert tuple(tt.isreal(t).shape) == tuple(torch.isreal(th).shape) == (0, 3)

# ---- more binary ops and the comparison aliases ---------------------------------------------------------------------

MORE_BINARY = ['copysign', 'xlogy', 'logaddexp', 'logaddexp2', 'nextafter', 'fmax', 'fmin', 'ldexp', 'float_power']
ALIASES = ['greater', 'greater_equal', 'less', 'less_equal', 'not_equal']

@pytest.mark.parametrize('name', MORE_BINARY + ALIASES)
def test_binary_more(name):
    rng = np.random.default_rng([ord(c) for c in name] + [65])
    bad = []
    for _ in range(N * 2):
        (sa, sb), _ = rand_shapes(rng, 2)
        da = str(rng.choice(ALL))
        db = da if rng.random() < 0.5 else str(rng.choice(ALL))        # same dtype half the time: kernels, not only errors
        # torch and ml_dtypes write different NaN bits for bfloat16 (torch sets the sign bit): copysign would see them
        kw = lambda d: {'special': False} if name == 'copysign' and d == 'bfloat16' else {}
        a_tt, a_th = operand(rng, sa, da, **kw(da))
        if rng.random() < 0.2: b_tt = b_th = rand_scalar(rng)
        else: b_tt, b_th = operand(rng, sb, db, **kw(db))
        if name == 'float_power' and _complex_zero_base(a_th, b_th): continue
        if name == 'ldexp' and isinstance(b_th, torch.Tensor) and not b_th.is_complex():   # keep 2**other in range
            b_tt, b_th = tt.clamp(b_tt, -20, 20) if db != 'bool' else b_tt, torch.clamp(b_th, -20, 20) if db != 'bool' else b_th
        _forms(rng, name, (a_tt, b_tt), (a_th, b_th), {}, f'a={_desc(a_th)} b={_desc(b_th)}', bad)
        if rng.random() < 0.15:                 # a number first: accepted by xlogy and float_power only
            s = rand_scalar(rng)
            if name == 'float_power' and _complex_zero_base(s, a_th): continue
            r = run_both(lambda: getattr(tt, name)(s, a_tt), lambda: getattr(torch, name)(s, a_th))
            m = check_results(*r, name, ctx=f'{name}({s}, {_desc(a_th)})')
            if m: bad.append(m)
    _finish(bad)

def _complex_zero_base(a, b):
    "Known difference of chapter 06b's pow: complex `0 ** z` with Re z < 0 is inf+nanj in torch, nan+nanj here."
    cplx = any(isinstance(v, complex) or (isinstance(v, torch.Tensor) and v.is_complex()) for v in (a, b))
    zero = (a == 0) if not isinstance(a, torch.Tensor) else bool((a == 0).any())
    return cplx and zero

def test_aliases_are_the_comparisons():
    for alias, op in zip(ALIASES, ['gt', 'ge', 'lt', 'le', 'ne']):
        assert getattr(tt, alias) is getattr(tt, op) and getattr(torch, alias)(torch.tensor([1, 2]), 1).tolist() == \
            getattr(tt, alias)(tt.tensor([1, 2]), 1).tolist()

def test_binary_more_special_values():
    "Every pair of special values, float32 and float64, exact where the op is exact."
    sp = [0.0, -0.0, 1.0, -1.0, 0.5, 2.0, float('inf'), -float('inf'), float('nan'), 1e-30, -3.5]
    a, b = np.meshgrid(sp, sp)
    bad = []
    for dt in ['float32', 'float64', 'float16', 'bfloat16']:
        x_th, y_th = (torch.tensor(v.ravel(), dtype=getattr(torch, dt)) for v in (a, b))
        x_tt, y_tt = (tt.tensor(v.ravel().tolist(), dtype=getattr(tt, dt)) for v in (a, b))
        for name in MORE_BINARY:
            if name == 'copysign' and dt == 'bfloat16': continue          # NaN sign bits differ (see test_binary_more)
            r = run_both(lambda: getattr(tt, name)(x_tt, y_tt), lambda: getattr(torch, name)(x_th, y_th))
            m = check_results(*r, name, ctx=f'{name} {dt}')
            if m: bad.append(m)
    _finish(bad)

def test_float_power_dtypes():
    "float_power's result, out= and in-place accept only float64 (complex128 with a complex operand)."
    bad = []
    for da in ALL + ['float64', 'complex128']:
        for od in ['float32', 'float64', 'complex128']:
            a_th = torch.tensor([1, 2], dtype=getattr(torch, da)); a_tt = tt.tensor([1, 2], dtype=getattr(tt, da))
            o_th, o_tt = torch.empty(2, dtype=getattr(torch, od)), tt.empty(2, dtype=getattr(tt, od))
            r = run_both(lambda: tt.float_power(a_tt, 2, out=o_tt), lambda: torch.float_power(a_th, 2, out=o_th))
            m = check_results(*r, 'float_power', ctx=f'float_power {da} out={od}')
            if m: bad.append(m)
            r = run_both(lambda: a_tt.float_power_(2.5), lambda: a_th.float_power_(2.5))
            m = check_results(*r, 'float_power', ctx=f'float_power_ {da}')
            if m: bad.append(m)
    _finish(bad)

# ---- frexp: two outputs --------------------------------------------------------------------------------------------

def test_frexp():
    rng = np.random.default_rng(66)
    bad = []
    for _ in range(N):
        _, shape = rand_shapes(rng, 1)
        dt = str(rng.choice(ALL))
        a_tt, a_th = operand(rng, shape, dt)
        ctx = f'frexp {_desc(a_th)}'
        form = rng.random()
        if form < 0.4: r = run_both(lambda: tt.frexp(a_tt), lambda: torch.frexp(a_th))
        elif form < 0.7: r = run_both(lambda: a_tt.frexp(), lambda: a_th.frexp())
        else:
            md, ed = (dt, 'int32') if rng.random() < 0.7 else (str(rng.choice(FLOATS)), str(rng.choice(['int32', 'int64', 'float32'])))
            oshape = tuple(a_th.shape) if rng.random() < 0.8 else (0,)
            m_tt, m_th = operand(rng, oshape, md, 'contig') if md != 'complex64' else operand(rng, oshape, 'float32', 'contig')
            e_tt, e_th = operand(rng, oshape, ed, str(rng.choice(['contig', 'transpose'])))
            ctx += f' out=({md}, {ed})'
            r = run_both(lambda: tt.frexp(a_tt, out=(m_tt, e_tt)), lambda: torch.frexp(a_th, out=(m_th, e_th)))
            if not isinstance(r[0], Exception) and (r[0][0] is not m_tt or r[0][1] is not e_tt): bad.append(ctx + ': out not returned')
        if not isinstance(r[0], Exception):
            if tuple(r[0]._fields) != ('mantissa', 'exponent'): bad.append(ctx + f': fields {r[0]._fields}')
            r = (tuple(r[0]), tuple(r[1]))
        m = check_results(*r, 'frexp', ctx=ctx)
        if m: bad.append(m)
    _finish(bad)

def test_new_unary_special_values():
    "nan, +-inf, +-0.0, subnormals and the ends of logit's domain, in every floating dtype, exact where the op is."
    sp = [0.0, -0.0, 1.0, -1.0, 0.5, 0.25, 0.999, 2.0, -3.5, 180.0, float('inf'), -float('inf'), float('nan'), 1e-40, 1e-30]
    bad = []
    for dt in FLOATS:
        x_th, x_tt = torch.tensor(sp, dtype=getattr(torch, dt)), tt.tensor(sp, dtype=getattr(tt, dt))
        for name, kw in [('deg2rad', {}), ('rad2deg', {}), ('logit', {}), ('logit', {'eps': 0.1}), ('sinc', {}), ('angle', {}),
                         ('conj_physical', {}), ('frexp', {})]:
            r = run_both(lambda: getattr(tt, name)(x_tt, **kw), lambda: getattr(torch, name)(x_th, **kw))
            if name == 'frexp': r = tuple(r[0]), tuple(r[1])
            m = check_results(*r, name, ctx=f'{name} {dt} {kw}')
            if m: bad.append(m)
    _finish(bad)


@pytest.mark.parametrize('dt', ['float32', 'float64', 'float16', 'bfloat16', 'int32', 'int8', 'uint8'])
@pytest.mark.parametrize('n', [9, 72000])                    # one serial loop, and threads
def test_sign_bits_match_torch(dt, n):
    "`(0 < x) - (x < 0)`: NaN gives 0, -0.0 and the negative subnormals give +0.0 (ml_dtypes' own sign keeps -0.0)."
    v = np.resize(np.array([-2, -0.0, 0.0, 3, np.nan, np.inf, -np.inf, 1e-45, -1e-45]), n)
    if dt in ('int32', 'int8', 'uint8'): v = np.resize(np.arange(-50, 50) if dt != 'uint8' else np.arange(200), n)
    a, b = tt.tensor(v).to(getattr(tt, dt)).sign(), torch.tensor(v).to(getattr(torch, dt)).sign()
    x, y = (r.float().numpy() if dt == 'bfloat16' else r.numpy() for r in (a, b))
    assert a.dtype.name == str(b.dtype)[6:] and x.tobytes() == y.tobytes()


@pytest.mark.parametrize('dt', ['float32', 'float64', 'float16', 'bfloat16', 'complex64', 'int32'])
@pytest.mark.parametrize('n', [9, 72000])
@pytest.mark.parametrize('form', ['default', 'values', 'inf values', 'in place', 'out='])
def test_nan_to_num_bits_match_torch(dt, n, form):
    "Each element mapped once: replacement values that are themselves inf or NaN are not mapped again, in place too."
    v = np.resize(np.array([np.nan, np.inf, -np.inf, -0.0, 1.5, -3e38, 1e-45, 7.0]), n)
    if dt == 'complex64': v = v + 1j * np.roll(v, 3)
    if dt == 'int32': v = np.resize(np.arange(-40, 40), n)
    kw = {'default': {}, 'values': dict(nan=2.5, posinf=100.0, neginf=-7.0), 'inf values': dict(nan=float('inf'), posinf=float('nan'), neginf=-1.0),
          'in place': dict(nan=float('-inf'), posinf=float('-inf')), 'out=': dict(neginf=float('nan'))}[form]
    def run(m):
        t = m.tensor(v).to(getattr(m, dt))
        if form == 'in place': return t.nan_to_num_(**kw)
        if form == 'out=': o = m.empty_like(t); m.nan_to_num(t, out=o, **kw); return o
        return m.nan_to_num(t, **kw)
    a, b = run(tt), run(torch)
    x, y = (r.float().numpy() if dt == 'bfloat16' else r.numpy() for r in (a, b))
    assert a.dtype.name == str(b.dtype)[6:]
    nx, ny = np.isnan(x), np.isnan(y)
    assert (nx == ny).all() and x[~nx].tobytes() == y[~ny].tobytes()


@pytest.mark.parametrize('dt', ['float32', 'float64', 'float16'])
@pytest.mark.parametrize('w', [0.25, 0.5, 0.75, -0.3, 2.0])
@pytest.mark.parametrize('n', [7, 72000])
def test_lerp_scalar_weight_is_aten_formula(dt, w, n):
    "One weight picks one of ATen's two formulas for every element (`|w| < 0.5`), computed in opmath, rounded once; in place too."
    r = np.random.default_rng(4)
    x, y = (r.standard_normal(n).astype(dt) for _ in range(2))
    cd = np.float32 if dt == 'float16' else np.dtype(dt).type
    xw, yw, ww = x.astype(cd), y.astype(cd), cd(w)
    want = (xw + ww * (yw - xw) if abs(w) < 0.5 else yw - (yw - xw) * (cd(1) - ww)).astype(dt)
    a = tt.lerp(tt.tensor(x), tt.tensor(y), w)
    b = tt.tensor(x); b.lerp_(tt.tensor(y), w)
    c = tt.tensor(y); tt.lerp(tt.tensor(x), c, w, out=c)     # `out` is `end`
    for t in (a, b, c): assert t.numpy().tobytes() == want.tobytes()
    t = torch.lerp(torch.tensor(x), torch.tensor(y), w)
    assert same(a, t, 'lerp') is None
