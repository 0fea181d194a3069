"Differential tests of the elementwise ops against torch: random shapes, layouts, dtypes, scalars, forms."
import operator
import numpy as np
import pytest
torch = pytest.importorskip("torch")
import tinytensor as tt
from ttgen import DTYPES, FLOATS, INTS, LAYOUTS, pair, rand_shapes, rand_scalar, run_both, check_results, same

torch.set_num_threads(1)

BINARY = ['add', 'sub', 'mul', 'div', 'div_trunc', 'div_floor', 'floor_divide', 'remainder', 'pow', 'maximum', 'minimum',
          'eq', 'ne', 'lt', 'le', 'gt', 'ge', 'logical_and', 'logical_or', 'logical_xor', 'bitwise_and', 'bitwise_or', 'bitwise_xor']
N_BINARY = 200         # cases per binary op
N_UNARY = 150
N_OPERATOR = 100

def _dtype_for(rng, name):
    if name.startswith('bitwise') and rng.random() < 0.8: return str(rng.choice(['bool'] + ['uint8', 'int8', 'int16', 'int32', 'int64']))
    return str(rng.choice(DTYPES))

def _operand(rng, shape, dt, name, second):
    kind = str(rng.choice(LAYOUTS))
    lo, hi = -9, 10
    if name == 'pow': lo, hi = (-2, 4) if second else (-3, 5)
    if second and name in ('div_trunc', 'div_floor', 'floor_divide', 'remainder') and dt in INTS and rng.random() < 0.9:
        lo = 1                                          # mostly nonzero divisors; sometimes a zero (both must raise)
    return pair(rng, shape, dt, kind, lo=lo, hi=hi)

def binary_case(rng, name):
    (sa, sb), out_shape = rand_shapes(rng, 2)
    da, db = _dtype_for(rng, name), _dtype_for(rng, name)
    a_tt, a_th = _operand(rng, sa, da, name, False)
    if rng.random() < 0.25:
        s = rand_scalar(rng, 'int' if name.startswith('bitwise') and rng.random() < 0.7 else None)
        if name == 'pow' and isinstance(s, float): s = float(rng.choice([2.0, 0.5, 3.0, -1.0, 1.5]))
        b_tt = b_th = s
    else: b_tt, b_th = _operand(rng, sb, db, name, True)
    fname, kw = name, {}
    if name in ('div_trunc', 'div_floor'): fname, kw = 'div', {'rounding_mode': name[4:]}
    if name in ('add', 'sub') and rng.random() < 0.4: kw['alpha'] = rng.choice([2, -1, 0.5, -2.0, True])
    forms = ['func', 'method', 'inplace', 'out']
    form = str(rng.choice(forms))
    if form == 'inplace' and not hasattr(torch.Tensor, fname + '_'): form = 'method'
    ctx = f'{name} {form} a={sa}/{da}/{a_th.stride()} b={b_th if not isinstance(b_th, torch.Tensor) else (sb, db, b_th.stride())} {kw}'
    if form == 'func':
        r = run_both(lambda: getattr(tt, fname)(a_tt, b_tt, **kw), lambda: getattr(torch, fname)(a_th, b_th, **kw))
        return check_results(*r, fname, ctx=ctx)
    if form == 'method':
        r = run_both(lambda: getattr(a_tt, fname)(b_tt, **kw), lambda: getattr(a_th, fname)(b_th, **kw))
        return check_results(*r, fname, ctx=ctx)
    if form == 'inplace':
        v0 = a_tt._version
        r = run_both(lambda: getattr(a_tt, fname + '_')(b_tt, **kw), lambda: getattr(a_th, fname + '_')(b_th, **kw))
        m = check_results(*r, fname, ctx=ctx)
        if m is None and not isinstance(r[0], Exception):
            if r[0] is not a_tt: return ctx + ': in-place did not return self'
            if a_tt._version != v0 + 1: return ctx + f': version {a_tt._version} != {v0 + 1}'
        return m
    # out=
    od = str(rng.choice(DTYPES))
    choice = rng.random()
    oshape = out_shape if choice < 0.7 else ((0,) if choice < 0.85 else (2,))
    o_tt, o_th = pair(rng, oshape, od, str(rng.choice(['contig', 'perm', 'slice', 'transpose', 'cl'])))
    ctx += f' out={oshape}/{od}/{o_th.stride()}'
    r = run_both(lambda: getattr(tt, fname)(a_tt, b_tt, out=o_tt, **kw), lambda: getattr(torch, fname)(a_th, b_th, out=o_th, **kw))
    m = check_results(*r, fname, ctx=ctx)
    if m is None and not isinstance(r[0], Exception):
        if r[0] is not o_tt: return ctx + ': out= did not return out'
        m = check_results(o_tt, o_th, fname, ctx=ctx + ' (out tensor)')
    return m

@pytest.mark.parametrize('name', BINARY)
def test_binary_ops(name):
    rng = np.random.default_rng([ord(c) for c in name])
    bad = [m for m in (binary_case(rng, name) for _ in range(N_BINARY)) if m]
    assert not bad, f'{len(bad)} mismatches, e.g.\n' + '\n'.join(bad[:8])

OPS = {'+': operator.add, '-': operator.sub, '*': operator.mul, '/': operator.truediv, '//': operator.floordiv,
       '%': operator.mod, '**': operator.pow, '&': operator.and_, '|': operator.or_, '^': operator.xor,
       '==': operator.eq, '!=': operator.ne, '<': operator.lt, '<=': operator.le, '>': operator.gt, '>=': operator.ge}
OP_NAMES = {'+': 'add', '-': 'sub', '*': 'mul', '/': 'div', '//': 'floor_divide', '%': 'remainder', '**': 'pow',
            '&': 'bitwise_and', '|': 'bitwise_or', '^': 'bitwise_xor', '==': 'eq', '!=': 'ne', '<': 'lt', '<=': 'le',
            '>': 'gt', '>=': 'ge'}
IOPS = {'+': operator.iadd, '-': operator.isub, '*': operator.imul, '/': operator.itruediv, '//': operator.ifloordiv,
        '%': operator.imod, '**': operator.ipow, '&': operator.iand, '|': operator.ior, '^': operator.ixor}

@pytest.mark.parametrize('sym', list(OPS))
def test_python_operators(sym):
    rng = np.random.default_rng([ord(c) for c in sym] + [7])
    bad = []
    for i in range(N_OPERATOR):
        (sa, sb), _ = rand_shapes(rng, 2)
        bitwise = sym in '&|^'
        da = str(rng.choice(['bool', 'uint8', 'int32', 'int64'])) if bitwise else str(rng.choice(DTYPES))
        db = str(rng.choice(['bool', 'int8', 'int64'])) if bitwise else str(rng.choice(DTYPES))
        lo = 1 if sym in ('//', '%') else -9
        a_tt, a_th = pair(rng, sa, da, str(rng.choice(LAYOUTS)), lo=-3 if sym == '**' else -9, hi=4 if sym == '**' else 10)
        kind = rng.random()
        if kind < 0.3:
            s = rand_scalar(rng, 'int' if bitwise else None)
            if sym == '**': s = abs(s)
            args_tt, args_th = ((a_tt, s), (a_th, s)) if kind < 0.15 else ((s, a_tt), (s, a_th))
        else:
            b_tt, b_th = pair(rng, sb, db, str(rng.choice(LAYOUTS)), lo=lo if sym not in ('**',) else 0, hi=3 if sym == '**' else 10)
            args_tt, args_th = (a_tt, b_tt), (a_th, b_th)
        f = OPS[sym]
        inplace = sym in IOPS and rng.random() < 0.3 and isinstance(args_tt[0], tt.Tensor)
        if inplace: f = IOPS[sym]
        r = run_both(lambda: f(*args_tt), lambda: f(*args_th))
        m = check_results(*r, OP_NAMES[sym], ctx=f'{"i" if inplace else ""}{sym} {args_th[0] if not isinstance(args_th[0], torch.Tensor) else (args_th[0].shape, args_th[0].dtype, args_th[0].stride())} '
                          f'{args_th[1] if not isinstance(args_th[1], torch.Tensor) else (args_th[1].shape, args_th[1].dtype, args_th[1].stride())}')
        if m: bad.append(m)
    assert not bad, f'{len(bad)} mismatches, e.g.\n' + '\n'.join(bad[:8])

UNARY = ['neg', 'abs', 'exp', 'log', 'sqrt', 'sin', 'cos', 'tanh', 'sigmoid', 'relu', 'reciprocal', 'logical_not', 'bitwise_not']

@pytest.mark.parametrize('name', UNARY)
def test_unary_ops(name):
    rng = np.random.default_rng([ord(c) for c in name] + [3])
    bad = []
    for i in range(N_UNARY):
        _, shape = rand_shapes(rng, 1)
        dt = str(rng.choice(DTYPES))
        a_tt, a_th = pair(rng, shape, dt, str(rng.choice(LAYOUTS)))
        form = str(rng.choice(['func', 'method', 'inplace', 'out', 'unaryop']))
        ctx = f'{name} {form} {shape}/{dt}/{a_th.stride()}'
        if form == 'func': r = run_both(lambda: getattr(tt, name)(a_tt), lambda: getattr(torch, name)(a_th))
        elif form == 'method': r = run_both(lambda: getattr(a_tt, name)(), lambda: getattr(a_th, name)())
        elif form == 'inplace': r = run_both(lambda: getattr(a_tt, name + '_')(), lambda: getattr(a_th, name + '_')())
        elif form == 'unaryop':
            f = {'neg': operator.neg, 'abs': operator.abs, 'bitwise_not': operator.invert}.get(name)
            if f is None: continue
            r = run_both(lambda: f(a_tt), lambda: f(a_th))
        else:
            od = str(rng.choice(DTYPES + [dt] * 4))
            o_tt, o_th = pair(rng, shape if rng.random() < 0.8 else (0,), od, str(rng.choice(['contig', 'perm', 'slice'])))
            ctx += f' out {o_th.shape}/{od}/{o_th.stride()}'
            r = run_both(lambda: getattr(tt, name)(a_tt, out=o_tt), lambda: getattr(torch, name)(a_th, out=o_th))
            comp = dt if dt in ('float16', 'bfloat16', 'float32') else ('float64' if dt == 'float64' else 'float32')
            loose = max([comp, od], key=lambda d: {'float16': 3, 'bfloat16': 4, 'float32': 2}.get(d, 0))
            if not isinstance(r[1], Exception) and not isinstance(r[0], Exception):
                m = check_results(o_tt, o_th, name, ctx=ctx + ' (out)', computed_in=loose)
                if m: bad.append(m)
            m = check_results(*r, name, ctx=ctx, computed_in=loose)
            if m: bad.append(m)
            continue
        m = check_results(*r, name, ctx=ctx)
        if m: bad.append(m)
    assert not bad, f'{len(bad)} mismatches, e.g.\n' + '\n'.join(bad[:8])

def test_clamp():
    rng = np.random.default_rng(11)
    bad = []
    for i in range(250):
        (sa, sl, sh), _ = rand_shapes(rng, 3)
        dt = str(rng.choice([d for d in DTYPES if d != 'bool']))
        a_tt, a_th = pair(rng, sa, dt, str(rng.choice(LAYOUTS)))
        if rng.random() < 0.5:
            lo = rand_scalar(rng, str(rng.choice(['int', 'float']))) if rng.random() < 0.8 else None
            hi = rand_scalar(rng, str(rng.choice(['int', 'float']))) if rng.random() < 0.8 or lo is None else None
            lo_tt = lo_th = lo; hi_tt = hi_th = hi
        else:
            lo_tt, lo_th = pair(rng, sl, str(rng.choice(DTYPES[1:])), 'contig', special=False)
            hi_tt, hi_th = pair(rng, sh, str(rng.choice(DTYPES[1:])), 'perm', special=False) if rng.random() < 0.7 else (None, None)
        form = str(rng.choice(['func', 'method', 'inplace']))
        ctx = f'clamp {form} {sa}/{dt}/{a_th.stride()} lo={lo_th if not isinstance(lo_th, torch.Tensor) else (lo_th.shape, lo_th.dtype)} hi={hi_th if not isinstance(hi_th, torch.Tensor) else (hi_th.shape, hi_th.dtype)}'
        if form == 'func': r = run_both(lambda: tt.clamp(a_tt, lo_tt, hi_tt), lambda: torch.clamp(a_th, lo_th, hi_th))
        elif form == 'method': r = run_both(lambda: a_tt.clamp(min=lo_tt, max=hi_tt), lambda: a_th.clamp(min=lo_th, max=hi_th))
        else: r = run_both(lambda: a_tt.clamp_(lo_tt, hi_tt), lambda: a_th.clamp_(lo_th, hi_th))
        m = check_results(*r, 'clamp', ctx=ctx)
        if m: bad.append(m)
    assert not bad, f'{len(bad)} mismatches, e.g.\n' + '\n'.join(bad[:8])

def test_clamp_fast_path_equals_plain():
    "clamp's one-pass np.clip (speed only) gives the bits of max-then-min wherever it runs; ±0 bounds keep torch's ties."
    from tinytensor.ops import _clamp_np, _clamp_plain
    rng = np.random.default_rng(13)
    for dt in ['float32', 'float64', 'int8', 'int32', 'int64', 'uint8']:
        if dt.startswith('float'):
            x = np.concatenate([rng.standard_normal(997) * 3, [np.nan, -np.nan, np.inf, -np.inf, -0.0, 0.0, 1.0, -1.0]]).astype(dt)
            bounds = [None, -1.0, 1.0, 2.5, -np.inf, np.inf, np.nan]
        else:
            info = np.iinfo(dt)
            x = rng.integers(info.min, info.max, 1000, endpoint=True).astype(dt)
            bounds = [None, 1, 3, 100, int(info.max), int(info.min) if info.min else 7]
        for lo in bounds:
            for hi in bounds:
                if lo is None and hi is None: continue
                l, h = (None if b is None else np.array(b).astype(dt)[()] for b in (lo, hi))
                fast = np.empty_like(x); _clamp_np(x, l, h, fast)
                plain = _clamp_plain(x, l, h, None)
                assert fast.tobytes() == plain.tobytes(), (dt, lo, hi)
    zeros = torch.tensor([-0.0, 0.0, -1.0, 1.0, float('nan')])
    for lo, hi in [(0.0, None), (-0.0, None), (None, 0.0), (None, -0.0), (-0.0, 0.0), (0.0, 1.0)]:
        got = tt.tensor(zeros.tolist()).clamp(lo, hi).numpy()
        assert got.tobytes() == zeros.clamp(lo, hi).numpy().tobytes(), (lo, hi)   # sign of zero included

def test_where():
    rng = np.random.default_rng(12)
    bad = []
    for i in range(250):
        (sc, sx, sy), _ = rand_shapes(rng, 3)
        c_tt, c_th = pair(rng, sc, 'bool' if rng.random() < 0.9 else 'int64', str(rng.choice(LAYOUTS)))
        if rng.random() < 0.3: x_tt = x_th = rand_scalar(rng)
        else: x_tt, x_th = pair(rng, sx, str(rng.choice(DTYPES)), str(rng.choice(LAYOUTS)))
        if rng.random() < 0.3: y_tt = y_th = rand_scalar(rng)
        else: y_tt, y_th = pair(rng, sy, str(rng.choice(DTYPES)), str(rng.choice(LAYOUTS)))
        ctx = f'where c={sc}/{c_th.dtype}/{c_th.stride()} x={x_th if not isinstance(x_th, torch.Tensor) else (sx, x_th.dtype, x_th.stride())} y={y_th if not isinstance(y_th, torch.Tensor) else (sy, y_th.dtype, y_th.stride())}'
        r = run_both(lambda: tt.where(c_tt, x_tt, y_tt), lambda: torch.where(c_th, x_th, y_th))
        m = check_results(*r, 'where', ctx=ctx)
        if m: bad.append(m)
    assert not bad, f'{len(bad)} mismatches, e.g.\n' + '\n'.join(bad[:8])

def test_copy_fill_to():
    rng = np.random.default_rng(13)
    bad = []
    for i in range(400):
        (ss,), shape = rand_shapes(rng, 1)
        dd, sd = str(rng.choice(DTYPES)), str(rng.choice(DTYPES))
        d_tt, d_th = pair(rng, shape, dd, str(rng.choice(LAYOUTS)), special=False)
        what = rng.random()
        if what < 0.5:
            s_tt, s_th = pair(rng, ss if rng.random() < 0.9 else (7,), sd, str(rng.choice(LAYOUTS)), special=False)
            ctx = f'copy_ dst={shape}/{dd}/{d_th.stride()} src={s_th.shape}/{sd}/{s_th.stride()}'
            r = run_both(lambda: d_tt.copy_(s_tt), lambda: d_th.copy_(s_th))
        elif what < 0.75:
            v = rng.choice([rand_scalar(rng), 300, -1, 1e6, 2.7])
            v = v.item() if hasattr(v, 'item') else v
            ctx = f'fill_ dst={shape}/{dd}/{d_th.stride()} value={v!r}'
            r = run_both(lambda: d_tt.fill_(v), lambda: d_th.fill_(v))
        else:
            ctx = f'to dst={shape}/{dd}/{d_th.stride()} -> {sd}'
            r = run_both(lambda: d_tt.to(getattr(tt, sd)), lambda: d_th.to(getattr(torch, sd)))
            if not isinstance(r[0], Exception) and (r[0] is d_tt) != (r[1] is d_th): bad.append(ctx + ': identity differs')
        m = check_results(*r, ctx.split()[0].rstrip('_'), ctx=ctx)
        if m: bad.append(m)
    assert not bad, f'{len(bad)} mismatches, e.g.\n' + '\n'.join(bad[:8])

def test_error_messages():
    "The key words of torch's messages for the classic misuses."
    a = tt.ones(2, 3)
    with pytest.raises(RuntimeError, match=r'The size of tensor a \(2\) must match the size of tensor b \(4\) at non-singleton dimension 0'):
        a + tt.ones(4, 3)
    x = tt.zeros(6)
    with pytest.raises(RuntimeError, match='some elements of the input tensor and the written-to tensor refer to a single memory location'):
        tt.add(x[1:] if hasattr(tt.Tensor, '__getitem__') and False else tt.tensor_impl.alias_with_sizes_and_strides(x, (5,), (1,), 1),
               tt.tensor_impl.alias_with_sizes_and_strides(x, (5,), (1,), 0), out=tt.tensor_impl.alias_with_sizes_and_strides(x, (5,), (1,), 1))
    with pytest.raises(RuntimeError, match='more than one element of the written-to tensor refers to a single memory location'):
        tt.tensor_impl.alias_with_sizes_and_strides(x, (2, 3), (0, 1)).add_(1)
    with pytest.raises(RuntimeError, match="result type Float can't be cast to the desired output type Long"):
        tt.ones(3, dtype=tt.int64).add_(1.5)
    with pytest.raises(RuntimeError, match='ZeroDivisionError'):
        tt.tensor([1]) // 0
    with pytest.raises(RuntimeError, match=r"output with shape \[3\] doesn't match the broadcast shape \[2, 3\]"):
        tt.ones(3).add_(tt.ones(2, 3))

def test_versions_and_meta():
    a = tt.ones(3)
    v = a._version
    a.add_(1); a += 1; tt.mul(a, 2, out=a); a.zero_(); a.copy_(tt.ones(3))
    assert a._version == v + 5
    m = tt.empty(3, 4, device='meta')
    r = m + tt.tensor(1.0)
    assert r.device.type == 'meta' and r.shape == (3, 4) and r.stride() == (4, 1)
    e = tt.exp(m.to(tt.int32))
    assert e.dtype is tt.float32 and e.is_meta

def test_case_count():
    "Enough coverage: at least 3,000 random cases over the ops."
    n = len(BINARY) * N_BINARY + len(OPS) * N_OPERATOR + len(UNARY) * N_UNARY + 250 + 250 + 400
    assert n >= 3000, n

def test_ops_on_real_views():
    "Chapter 05's view ops (t, slicing with steps, expand, permute, channels_last) feeding the ops, against torch."
    rng = np.random.default_rng(31)
    bad = []
    for i in range(150):
        base = rng.standard_normal((4, 6, 5, 3)).astype(np.float32)
        x_tt, x_th = tt.from_numpy(base.copy()), torch.from_numpy(base.copy())
        views = [lambda x: x.permute(0, 2, 3, 1), lambda x: x[:, ::2, 1:, :], lambda x: x[0].t() if x.dim() >= 2 else x,
                 lambda x: x[:, :1].expand(4, 6, 5, 3), lambda x: x.contiguous(memory_format=(tt.channels_last if isinstance(x, tt.Tensor) else torch.channels_last)),
                 lambda x: x.transpose(1, 3)]
        f, g = views[int(rng.integers(len(views)))], views[int(rng.integers(len(views)))]
        name, op = [('add', lambda a, b: a + b), ('sub', lambda a, b: a * 2 - b), ('gt', lambda a, b: (a > b) & (b < 0.5)),
                    ('exp', lambda a, b: a.exp() / (b.abs() + 1)),
                    ('sum', lambda a, b: a.sum(-1) + b.amax(-1) if a.dim() == b.dim() else a.sum())][int(rng.integers(5))]
        r = run_both(lambda: op(f(x_tt), g(x_tt)), lambda: op(f(x_th), g(x_th)))
        m = check_results(*r, name, ctx=f'case {i} {name}')
        if m: bad.append(m)
    assert not bad, f'{len(bad)} mismatches, e.g.\n' + '\n'.join(bad[:8])

@pytest.mark.parametrize('dt', ['float32', 'float64', 'float16', 'int8', 'int16', 'int64', 'uint8', 'bool', 'complex64'])
def test_where_bit_select_equals_masked_copy(dt):
    "where's bit select (speed only) gives the plain masked copies' exact bits: NaN payloads, -0.0, strides, broadcasts, aliasing."
    from tinytensor.ops import _where_loop, _SELECT_CHUNK
    rng = np.random.default_rng(len(dt))
    for n in (1, 7, _SELECT_CHUNK - 1, _SELECT_CHUNK + 3, 3 * _SELECT_CHUNK):
        raw = rng.integers(0, 256, size=(3, n * np.dtype(dt).itemsize), dtype=np.uint8)
        a, b = (raw[i].view(dt) for i in (0, 1))                        # every bit pattern, NaNs and -0.0 included
        if dt == 'bool': a, b = a.view(np.uint8) & 1 == 1, b.view(np.uint8) & 1 == 0
        c = rng.random(n) < 0.5
        for aa, bb, cc in [(a, b, c), (a[::-1], b, c), (np.broadcast_to(a[:1], (n,)), b, c),
                           (a, b, c[::-1])]:
            want = np.empty(n, dt); np.copyto(want, bb); np.copyto(want, aa, where=cc)
            got = np.empty(n, dt); _where_loop(got, cc, aa, bb)
            assert got.view(np.uint8).tobytes() == want.view(np.uint8).tobytes()
        o = a.copy(); want = np.where(c, o, b)                           # out aliasing an input exactly
        _where_loop(o, c, o, b)
        assert o.view(np.uint8).tobytes() == want.view(np.uint8).tobytes()
        o = b.copy(); want = np.where(c, a, o)                           # ... the other one
        _where_loop(o, c, a, o)
        assert o.view(np.uint8).tobytes() == want.view(np.uint8).tobytes()

def test_to_memory_format_aliases_like_torch():
    "to(memory_format=f) with nothing else changing returns self when `suggest_memory_format()` is f (ATen's to_will_alias)."
    def cases(m):
        x = m.arange(120.).reshape(2, 3, 4, 5)
        return [x.transpose(0, 3), x[:, :, ::2], x.permute(0, 2, 3, 1), x, x.contiguous(memory_format=m.channels_last),
                m.arange(12.).reshape(4, 3).t()]
    for a, b in zip(cases(tt), cases(torch)):
        for fa, fb in ((tt.contiguous_format, torch.contiguous_format), (tt.channels_last, torch.channels_last),
                       (tt.preserve_format, torch.preserve_format)):
            if a.dim() != 4 and fa is tt.channels_last: continue
            ra, rb = a.to(memory_format=fa), b.to(memory_format=fb)
            assert (ra is a) == (rb is b) and ra.stride() == rb.stride(), (a.shape, a.stride(), fa)
            ra, rb = a.to(tt.float64, memory_format=fa), b.to(torch.float64, memory_format=fb)
            assert ra.stride() == rb.stride()

def test_pow_of_python_bool_base_like_torch():
    "pow(True, t): c10's Scalar::equal never takes a bool for 1, so a bool result refuses like torch; other dtypes compute."
    for exp in ([True, False], [0, 3, 5], [0.5, -1.0]):
        a, b = tt.tensor(exp), torch.tensor(exp)
        for base in (True, False, 1, 1.0, 2):
            try: rb = base ** b
            except Exception as e: rb = e
            try: ra = base ** a
            except Exception as e: ra = e
            if isinstance(rb, Exception):
                assert type(ra) is type(rb), (base, exp, ra); continue
            assert not isinstance(ra, Exception), (base, exp, ra)
            assert same(ra, rb, 'pow') is None, (base, exp, same(ra, rb, 'pow'))


def test_big_float16_against_torch():
    "Tensors of every float16 value, long enough for the widened path (Note [half casts in bulk]), bit for bit as torch."
    bits = np.tile(np.arange(1 << 16, dtype=np.uint16), 5)
    np.random.default_rng(7).shuffle(bits)
    special = (bits & 0x7c00) == 0x7c00                                      # inf and NaN: first 4000 only, so that
    bits = np.concatenate([bits[special][:4000], bits[~special]])[:312 * 1024]   # the later rounds widen by the passes
    a, b = bits.view(np.float16), np.ascontiguousarray(bits[::-1]).view(np.float16)
    x, y = tt.from_numpy(a).view(-1, 512), tt.from_numpy(b).view(-1, 512)
    tx, ty = torch.from_numpy(a).view(-1, 512), torch.from_numpy(b).view(-1, 512)
    cases = [lambda m, p, q: p + q, lambda m, p, q: p - q, lambda m, p, q: p * q, lambda m, p, q: p / q,
             lambda m, p, q: p * 1.7, lambda m, p, q: p + 3, lambda m, p, q: m.maximum(p, q), lambda m, p, q: p.float(),
             lambda m, p, q: p.to(m.float32), lambda m, p, q: p.clone().mul_(q), lambda m, p, q: p.t() + q.t()]
    for f in cases:
        r, e = f(tt, x, y), f(torch, tx, ty)
        assert r.dtype.name == str(e.dtype).split('.')[1] and r.shape == tuple(e.shape) and r.stride() == e.stride()
        rv, ev = np.ascontiguousarray(r.numpy()), np.ascontiguousarray(e.numpy())
        nan = np.isnan(ev)
        np.testing.assert_array_equal(np.isnan(rv), nan)                        # NaN where torch has NaN; payloads aside
        np.testing.assert_array_equal(rv[~nan].view(f'u{rv.itemsize}'), ev[~nan].view(f'u{ev.itemsize}'))


def _half_ties(n=600):
    "Doubles just off a float16 tie that float32 rounds onto the tie (Note [double to half through float]), and normal ones."
    rng = np.random.default_rng(11)
    h = rng.integers(0, 0x7bff, n, dtype=np.uint16).view(np.float16).astype(np.float64)
    ulp = np.spacing(h.astype(np.float16)).astype(np.float64)
    v = np.concatenate([h + ulp / 2 + ulp * 2**-30, -(h + ulp / 2 - ulp * 2**-30), rng.standard_normal(n)])
    assert (v.astype(np.float16) != v.astype(np.float32).astype(np.float16)).sum() >= n     # numpy alone would differ
    return v

DOUBLE_TO_HALF = {
    'to': lambda m, v: m.tensor(v, dtype=m.float64).to(m.float16),
    'tensor(list)': lambda m, v: m.tensor(v.tolist(), dtype=m.float16),
    'tensor(ndarray)': lambda m, v: m.tensor(v, dtype=m.float16),
    'copy_': lambda m, v: m.zeros(len(v), dtype=m.float16).copy_(m.tensor(v, dtype=m.float64)),
    'complex to': lambda m, v: m.tensor(v.astype(np.complex128)).real.half(),
    'sum(dtype)': lambda m, v: m.tensor(v, dtype=m.float64).view(-1, 1).sum(1, dtype=m.float16),
    'add scalar': lambda m, v: m.stack([m.zeros(2, dtype=m.float16) + s for s in v[::9].tolist()]),
    'full': lambda m, v: m.stack([m.full((2,), s, dtype=m.float16) for s in v[::9].tolist()]),
    'fill_': lambda m, v: m.stack([m.empty(3, dtype=m.float16).fill_(s) for s in v[::9].tolist()]),
    'setitem': lambda m, v: m.stack([(lambda t: (t.__setitem__(0, s), t)[1])(m.zeros(2, dtype=m.float16)) for s in v[::9].tolist()]),
    'where': lambda m, v: m.stack([m.where(m.tensor([True, False]), s, m.zeros(2, dtype=m.float16)) for s in v[::9].tolist()]),
    'clamp': lambda m, v: m.stack([m.full((1,), 7e4).half().clamp(max=s) for s in v[::9].tolist()]),
    'nan_to_num': lambda m, v: m.stack([m.tensor([float('nan')], dtype=m.float16).nan_to_num(nan=s) for s in v[::9].tolist()]),
    'linspace': lambda m, v: m.stack([m.linspace(s, s + 1, 3, dtype=m.float16) for s in v[::9].tolist()]),
}

@pytest.mark.parametrize('name', list(DOUBLE_TO_HALF))
def test_double_to_half_through_float(name):
    "Every double that becomes a float16 is rounded to float32 first, as c10::Half(float) does."
    v = _half_ties()
    r, e = DOUBLE_TO_HALF[name](tt, v), DOUBLE_TO_HALF[name](torch, v)
    np.testing.assert_array_equal(np.asarray(r.tolist()), np.asarray(e.tolist()))


REDUCED_KERNELS = {
    'floor_divide': lambda m, a, b: a // b,
    'floor_divide strided': lambda m, a, b: a[::2] // b[::2],
    'floor_divide by zero': lambda m, a, b: a // (b * 0),
    'round(decimals=2)': lambda m, a, b: a.round(decimals=2),
    'round(decimals=-2)': lambda m, a, b: a.round(decimals=-2),
    'pow 3': lambda m, a, b: a ** 3,
    'pow -2': lambda m, a, b: a ** -2,
    'pow 1.2345678': lambda m, a, b: a.abs() ** 1.2345678,
    'add alpha': lambda m, a, b: m.add(a, b, alpha=0.3),
}

@pytest.mark.parametrize('dt', ['float16', 'bfloat16'])
@pytest.mark.parametrize('name', list(REDUCED_KERNELS))
def test_reduced_float_kernels_against_torch(name, dt):
    "ATen's kernels for float16/bfloat16 round where they round: in scalar_t, in float, or scalars converted to scalar_t."
    rng = np.random.default_rng(3)
    a64, b64 = rng.standard_normal(4096) * rng.choice([1e-2, 1, 3e2, 3e4], 4096), rng.standard_normal(4096) * 10
    a64[:8] = [0, -0.0, 1, -1, 650, 655.3, np.inf, np.nan]
    x, y = (tt.tensor(v, dtype=getattr(tt, dt)) for v in (a64, b64))
    tx, ty = (torch.tensor(v, dtype=getattr(torch, dt)) for v in (a64, b64))
    r, e = REDUCED_KERNELS[name](tt, x, y), REDUCED_KERNELS[name](torch, tx, ty)
    np.testing.assert_array_equal(np.asarray(r.float().tolist()), np.asarray(e.float().tolist()))


@pytest.mark.parametrize('kw', ['min', 'max'])
def test_clamp_bool_one_tensor_bound(kw):
    "One tensor bound on bool runs (ATen's clamp_min / clamp_max take bool); two refuse (test_errors)."
    a, b = [True, False, True, False], [False, True, True, False]
    r = tt.clamp(tt.tensor(a), **{kw: tt.tensor(b)})
    e = torch.clamp(torch.tensor(a), **{kw: torch.tensor(b)})
    assert r.dtype is tt.bool and r.tolist() == e.tolist()


# Note [Subtraction is add with -alpha] (chapter 06b): add and sub compute `a + alpha * b` as ATen's add kernel does,
# so a real subtraction is numpy's subtract and a complex one multiplies by alpha (inf operands give a NaN part).
_SPECIAL = [0.0, -0.0, 1.0, -1.5, 2.0 ** -140, 3.0e38, -3.0e38, float('inf'), float('-inf'), float('nan')]

def _special_pair(dt, n):
    "Two tensors (tinytensor and torch each) of `n` elements covering every pair of special values of `dt`."
    rng = np.random.default_rng(n)
    if dt in ('int32', 'uint8'):
        lo, hi = (0, 256) if dt == 'uint8' else (-2 ** 31, 2 ** 31)
        x, y = (rng.integers(lo, hi, n).astype(dt) for _ in range(2))
    else:
        v = np.array(_SPECIAL)
        if dt.startswith('complex'): v = np.array([complex(a, b) for a in v[[0, 1, 3, 7, 8, 9]] for b in v[[0, 1, 3, 7, 9]]])
        x, y = np.resize(np.repeat(v, len(v)), n), np.resize(np.tile(v, len(v)), n)
    make = lambda a: (tt.tensor(a).to(getattr(tt, dt)), torch.tensor(a).to(getattr(torch, dt)))
    return make(x), make(y)

@pytest.mark.parametrize('dt', ['float32', 'float64', 'float16', 'bfloat16', 'int32', 'uint8', 'complex64', 'complex128'])
@pytest.mark.parametrize('n', [10, 1 << 16])                 # the small-op fast path, and the full build over threads
@pytest.mark.parametrize('form', ['a - b', 'sub', 'sub alpha=2', 'add alpha=-1', 'a + b', 'a - 2.5', 'sub_'])
def test_add_sub_as_a_plus_alpha_b_match_torch(dt, n, form):
    (a, at), (b, bt) = _special_pair(dt, n)
    f = {'a - b': lambda m, x, y: x - y, 'sub': lambda m, x, y: m.sub(x, y), 'sub alpha=2': lambda m, x, y: m.sub(x, y, alpha=2),
         'add alpha=-1': lambda m, x, y: m.add(x, y, alpha=-1), 'a + b': lambda m, x, y: x + y, 'a - 2.5': lambda m, x, y: x - 2.5,
         'sub_': lambda m, x, y: x.clone().sub_(y)}[form]
    r_tt, r_th = run_both(lambda: f(tt, a, b), lambda: f(torch, at, bt))
    msg = check_results(r_tt, r_th, 'sub' if 'sub' in form or '-' in form else 'add', ctx=f'{form} {dt} n={n}')
    assert msg is None, msg

@pytest.mark.parametrize('dt', ['float32', 'float16', 'bfloat16', 'float64'])
@pytest.mark.parametrize('alpha', [0.3, -1.7])
@pytest.mark.parametrize('op', ['add', 'sub'])
def test_inexact_alpha_matches_torch(dt, alpha, op):
    "alpha is rounded to the dtype first (`alpha.to<scalar_t>()`), then `a + alpha*b` is rounded once, as the fused vector loop."
    rng = np.random.default_rng(7)
    n = 1 << 16                                            # past GRAIN_SIZE: torch's vector loop, tinytensor's full build
    x, y = (rng.standard_normal(n) * rng.choice([1, 1e3, 1e-3, 6e4], n) for _ in range(2))
    (a, at), (b, bt) = ((tt.tensor(v).to(getattr(tt, dt)), torch.tensor(v).to(getattr(torch, dt))) for v in (x, y))
    r_tt, r_th = getattr(tt, op)(a, b, alpha=alpha), getattr(torch, op)(at, bt, alpha=alpha)
    # float64 has no wider type to emulate the fused multiply-add in: the product is rounded first (1 ulp of it)
    scale = (at.double().abs() + alpha * bt.double().abs()).numpy() if dt == 'float64' else 0.
    m = same(r_tt, r_th, 'fma' if dt == 'float64' else op, scale=scale)
    assert m is None, m
