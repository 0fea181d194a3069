"""The everyday names a script reaches for, against torch: the constants and `strided`, the long-tail factories,
the tensor odds (`resize_`, `fill_diagonal_`, `storage()`, ...), the legacy constructors and the grad-mode switches."""
import copy, pickle, warnings
import numpy as np
import pytest
torch = pytest.importorskip("torch")
import tinytensor as tt
from ttgen import run_both, check_results, same


def _agree(f_tt, f_th, op='tensor', ctx=''):
    "Both results (or both exception types) agree, under `op`'s comparison rule."
    m = check_results(*run_both(f_tt, f_th), op, ctx=ctx)
    assert m is None, m


# 1. constants and the layout object

def test_constants_are_torchs_floats():
    for n in ('inf', 'nan', 'pi', 'e'):
        a, b = getattr(tt, n), getattr(torch, n)
        assert type(a) is type(b) is float and (a == b or (a != a and b != b)), n


def test_strided_layout():
    assert repr(tt.strided) == str(tt.strided) == 'tinytensor.strided'
    assert repr(torch.strided) == 'torch.strided'
    assert isinstance(tt.strided, tt.layout) and type(tt.strided).__name__ == type(torch.strided).__name__
    x = tt.ones(2, 3)
    for t in (x, x.t(), x[0], tt.tensor(1.)):
        assert t.layout is tt.strided
    assert copy.copy(tt.strided) is tt.strided and copy.deepcopy(tt.strided) is tt.strided
    assert tt.strided == tt.strided and hash(tt.strided) == hash(tt.strided)
    assert pickle.loads(pickle.dumps(tt.strided)) is tt.strided
    assert pickle.loads(pickle.dumps(torch.strided)) is torch.strided
    for f, g in ((lambda: tt.layout(), lambda: torch.layout()),
                 (lambda: setattr(tt.strided, 'x', 1), lambda: setattr(torch.strided, 'x', 1))):
        a, b = run_both(f, g)
        assert type(a) is type(b) and isinstance(b, Exception) and str(a) == str(b), (a, b)


# 2. factories

def _dt_pairs(names):
    return [(getattr(tt, n), getattr(torch, n)) for n in names]

FLOAT_PAIRS = _dt_pairs(['float32', 'float64'])


@pytest.mark.parametrize('case', ['list', 'float', 'ndarray', 'ndarray_f32', 'ndarray_strided', 'np_scalar',
                                  'ndarray_neg', 'tensor', 'tensor_dtype', 'tensor_t'])
def test_as_tensor(case):
    a = np.arange(6.).reshape(2, 3)
    make = {'list': lambda m: ([[1, 2], [3, 4]], {}), 'float': lambda m: (2.5, {}),
            'ndarray': lambda m: (a, {}), 'ndarray_f32': lambda m: (a, {'dtype': m.float32}),
            'ndarray_strided': lambda m: (a[:, ::2], {}), 'np_scalar': lambda m: (np.float64(2.), {}),
            'ndarray_neg': lambda m: (a[:, ::-1], {}),
            'tensor': lambda m: (m.ones(2, 3), {}), 'tensor_dtype': lambda m: (m.ones(2, 3), {'dtype': m.int64}),
            'tensor_t': lambda m: (m.ones(2, 3).t(), {'dtype': m.float32})}[case]
    res = []
    for m in (tt, torch):
        data, kw = make(m)
        try: r = m.as_tensor(data, **kw)
        except Exception as e: res.append((e, None)); continue
        shares = (r is data if isinstance(data, m.Tensor) else
                  np.shares_memory(r.numpy(), data) if isinstance(data, np.ndarray) else None)
        res.append((r, shares))
    assert check_results(res[0][0], res[1][0], 'as_tensor', ctx=case) is None
    assert res[0][1] == res[1][1], (case, res)


ASARRAY_CASES = [('ndarray', {}), ('ndarray', {'copy': True}), ('ndarray', {'copy': False}),
                 ('ndarray', {'dtype': 'float32'}), ('ndarray', {'dtype': 'float32', 'copy': False}),
                 ('np_scalar', {}), ('np_scalar', {'copy': False}), ('list', {}), ('list', {'copy': False}),
                 ('list', {'dtype': 'int32'}), ('int', {}), ('tensor', {}), ('tensor', {'copy': True}),
                 ('tensor', {'dtype': 'float64'}), ('tensor', {'dtype': 'float64', 'copy': False}),
                 ('tensor', {'dtype': 'float64', 'copy': True}), ('tensor', {'device': 'cpu', 'copy': False}),
                 ('bytearray', {}), ('bytearray', {'dtype': 'int16'}), ('bytearray', {'copy': True}),
                 ('bytearray', {'dtype': 'int16', 'copy': False})]

@pytest.mark.parametrize('case,kw', ASARRAY_CASES, ids=[f'{c}-{k}' for c, k in ASARRAY_CASES])
def test_asarray(case, kw):
    res = []
    for m in (tt, torch):
        data = {'ndarray': lambda: np.arange(4.), 'np_scalar': lambda: np.float32(1.5),
                'list': lambda: [1, 2.5], 'int': lambda: 3, 'tensor': lambda: m.arange(4.).view(2, 2).t(),
                'bytearray': lambda: bytearray(b'\x00\x01\x02\x03\x04\x05\x06\x07')}[case]()
        k = {n: (getattr(m, v) if n == 'dtype' else v) for n, v in kw.items()}
        try: r = m.asarray(data, **k)
        except Exception as e: res.append((e, None)); continue
        if isinstance(data, m.Tensor): shares = r is data
        elif isinstance(data, (np.ndarray, bytearray)):
            before = r.clone(); raw = np.frombuffer(data, np.uint8) if isinstance(data, bytearray) else data
            raw[0] += 1; shares = not bool((r == before).all())
        else: shares = None
        res.append((r, shares))
    m = check_results(res[0][0], res[1][0], 'asarray', ctx=case)
    assert m is None, m
    assert res[0][1] == res[1][1], res


FROMBUFFER_CASES = [(8, 'int32', -1, 0), (8, 'int32', 1, 4), (8, 'int16', -1, 2), (8, 'float64', -1, 0),
                    (8, 'uint8', 3, 5), (0, 'int8', -1, 0), (8, 'int32', 0, 0), (8, 'int32', -1, 8),
                    (8, 'int32', -1, 3), (8, 'int32', 3, 0), (8, 'int32', -1, -1), (8, 'bool', -1, 0),
                    (8, 'bfloat16', 2, 2), (6, 'int32', 1, 2)]

@pytest.mark.parametrize('n,dt,count,offset', FROMBUFFER_CASES)
def test_frombuffer(n, dt, count, offset):
    src = bytes([0, 1, 2, 3, 4, 5, 6, 7])[:n]
    bufs = [bytearray(src), bytearray(src)]
    r = run_both(lambda: tt.frombuffer(bufs[0], dtype=getattr(tt, dt), count=count, offset=offset),
                 lambda: torch.frombuffer(bufs[1], dtype=getattr(torch, dt), count=count, offset=offset))
    assert check_results(*r, 'frombuffer') is None, r
    if not isinstance(r[1], Exception) and r[1].numel():
        r[0].fill_(1); r[1].fill_(1)
        assert bufs[0] == bufs[1]                       # both wrote into their buffers


def test_frombuffer_errors_and_readonly_warning():
    for bad in ([1, 2], 3, 'ab'):
        a, b = run_both(lambda: tt.frombuffer(bad, dtype=tt.int8), lambda: torch.frombuffer(bad, dtype=torch.int8))
        assert type(a) is type(b) is ValueError and str(a) == str(b)
    with pytest.raises(TypeError): tt.frombuffer(bytearray(4))
    from tinytensor import more_factories as mf
    mf._warned.discard(mf._READONLY_WARNING)
    with pytest.warns(UserWarning, match='The given buffer is not writable'):
        t = tt.frombuffer(b'\x01\x00', dtype=tt.int16)
    assert t.tolist() == [1]
    with warnings.catch_warnings():
        warnings.simplefilter('error')
        tt.frombuffer(b'\x01\x00', dtype=tt.int16)           # once per process, as TORCH_WARN_ONCE


@pytest.mark.parametrize('s,dt', [(3, None), (True, None), (2.5, 'int32'), (1 + 2j, None), (1 + 2j, 'complex64'),
                                  ('a', None), (7, 'int8'), (300, 'int8')])
def test_scalar_tensor(s, dt):
    _agree(lambda: tt.scalar_tensor(s, **({'dtype': getattr(tt, dt)} if dt else {})),
           lambda: torch.scalar_tensor(s, **({'dtype': getattr(torch, dt)} if dt else {})), 'scalar_tensor')


@pytest.mark.parametrize('fn', ['complex', 'polar'])
@pytest.mark.parametrize('da,db,sa,sb,t', [('float32', 'float32', (3,), (3,), False),
                                            ('float64', 'float64', (2, 3), (2, 3), True),
                                            ('float32', 'float32', (2, 1), (3,), False),
                                            ('float32', 'float64', (2,), (2,), False),
                                            ('int64', 'int64', (2,), (2,), False),
                                            ('float32', 'float32', (2,), (3,), False),
                                            ('float64', 'float64', (0, 2), (2,), False)])
def test_complex_polar(fn, da, db, sa, sb, t):
    rng = np.random.default_rng(0)
    a, b = rng.normal(size=sa) * 3, rng.normal(size=sb) * 3
    def run(m):
        x, y = m.tensor(a, dtype=getattr(m, da)), m.tensor(b, dtype=getattr(m, db))
        if t: x, y = x.t().contiguous().t(), y.t().contiguous().t()
        return getattr(m, fn)(x, y)
    _agree(lambda: run(tt), lambda: run(torch), fn)


def test_complex_takes_tensors_only():
    _agree(lambda: tt.complex(1., tt.ones(1)), lambda: torch.complex(1., torch.ones(1)), 'complex')


@pytest.mark.parametrize('args,dt', [((0, 3), None), ((1, 0, -0.25), None), ((0, 1, 0.3), None), ((0, 1, 0.1), 'float64'),
                                     ((0, 3), 'int32'), ((0.5, 3, 1), 'int64'), ((-2, 5, 3), 'int16'), ((0, 1, 0.1), 'float16'),
                                     ((0, 1, 0.1), 'bfloat16'), ((1, 0), None), ((0, 1, -1), None),
                                     ((0, float('inf')), None), ((0, 1, 0), None), ((0, 2), 'bool'), ((5, 5), None)])
def test_range(args, dt):
    kw = {'dtype': getattr(tt, dt)} if dt else {}
    kw_th = {'dtype': getattr(torch, dt)} if dt else {}
    r = run_both(lambda: tt.range(*args, **kw), lambda: torch.range(*args, **kw_th))
    assert check_results(*r, 'range', ctx=str(args)) is None, r
    with pytest.warns(UserWarning, match='torch.range is deprecated'):
        tt.range(0, 1)


@pytest.mark.parametrize('dt', ['int64', 'int8', 'uint8', 'bool', 'float32', 'float64', 'float16', 'complex64'])
@pytest.mark.parametrize('N,inc', [(None, False), (4, True), (0, False), (1, True), (-1, False), (5, False)])
def test_vander(dt, N, inc):
    vals = np.array([1.5, -2, 3, 0.5, 2]) if dt[0] in 'fc' else np.array([1, 2, 3, 0, 2])
    def run(m):
        return m.vander(m.tensor(vals).to(getattr(m, dt)), N=N, increasing=inc)
    _agree(lambda: run(tt), lambda: run(torch), 'vander', ctx=f'{dt} {N} {inc}')
    _agree(lambda: tt.vander(tt.ones(2, 2)), lambda: torch.vander(torch.ones(2, 2)), 'vander')


@pytest.mark.parametrize('n', [0, 1, 3, 4])
@pytest.mark.parametrize('r', [0, 1, 2, 3, 5, -1])
@pytest.mark.parametrize('rep', [False, True])
def test_combinations(n, r, rep):
    _agree(lambda: tt.combinations(tt.arange(10, 10 + n), r, rep),
           lambda: torch.combinations(torch.arange(10, 10 + n), r, rep), 'combinations', ctx=f'{n} {r} {rep}')
    _agree(lambda: tt.combinations(tt.ones(2, 2)), lambda: torch.combinations(torch.ones(2, 2)), 'combinations')


@pytest.mark.parametrize('size,stride,dt', [((2, 3), (1, 2), None), ((2, 3), (3, 1), 'int16'), ((0, 4), (1, 1), None),
                                            ((2,), (1, 1), None), ((2, 3), (-1, 2), None), ((-2, 3), (1, 2), None)])
def test_new_empty_strided(size, stride, dt):
    def run(m):
        r = m.ones(2, dtype=m.float64).new_empty_strided(size, stride, **({'dtype': getattr(m, dt)} if dt else {}))
        return (r.shape, r.stride(), r.storage_offset(), str(r.dtype).split('.')[1], r.untyped_storage().nbytes())
    a, b = run_both(lambda: run(tt), lambda: run(torch))
    assert (type(a) is type(b)) if isinstance(b, Exception) else a == b, (a, b)


# 3. tensor odds

def test_is_same_size_and_is_set_to():
    def run(m):
        x = m.arange(6.).view(2, 3)
        e = m.empty(0)
        return (x.is_same_size(m.ones(2, 3)), m.is_same_size(x, x.t()), x.is_set_to(x), x.is_set_to(x.view(2, 3)),
                x.is_set_to(x.t()), x[0].is_set_to(x[0]), x[1].is_set_to(x[0]), x.is_set_to(x.clone()),
                e.is_set_to(m.empty(0)), e.is_set_to(e), x.is_set_to(x.view(6)))
    assert run(tt) == run(torch)
    for f in (lambda m: m.ones(2).is_same_size(3), lambda m: m.ones(2).is_set_to(3), lambda m: m.is_same_size(3, 3)):
        a, b = run_both(lambda: f(tt), lambda: f(torch))
        assert type(a) is type(b) is TypeError, (a, b)


def test_detach_():
    def run(m):
        x = m.ones(3); v = x[1:]
        r = [x.detach_() is x, x._version]
        try: v.detach_()
        except Exception as e: r.append((type(e).__name__, str(e)))
        r += [v._base is x, x.detach()._base is None]
        return r
    assert run(tt) == run(torch)


RESIZE_CASES = [('contig', (2, 2), None), ('contig', (3, 4), None), ('contig', (6,), None), ('contig', (1, 6), None),
                ('t', (3, 2), None), ('t', (2, 3), None), ('t', (3, 2), 'contiguous_format'), ('t', (6,), None),
                ('offset', (5,), None), ('offset', (0,), None), ('offset', (2, 0), None), ('contig', (2, 3, 1, 1), 'channels_last'),
                ('contig', (2, 3), 'channels_last'), ('contig', (2,), 'preserve_format'), ('expand', (3, 2), None),
                ('expand', (6,), None), ('contig', (-1,), None), ('view', (5,), None), ('view', (9,), None),
                ('numpy', (8,), None), ('numpy', (2,), None), ('empty', (3,), None), ('empty', (0,), None)]

@pytest.mark.parametrize('kind,size,fmt', RESIZE_CASES)
def test_resize_(kind, size, fmt):
    def run(m):
        x = {'contig': lambda: m.arange(6.), 't': lambda: m.arange(6.).view(2, 3).t(), 'offset': lambda: m.arange(6.)[2:],
             'expand': lambda: m.arange(2.).expand(3, 2), 'view': lambda: m.arange(6.).view(2, 3)[0],
             'numpy': lambda: m.from_numpy(np.arange(4.)), 'empty': lambda: m.empty(0)}[kind]()
        kw = {'memory_format': getattr(m, fmt)} if fmt else {}
        old = x.untyped_storage().nbytes()
        r = x.resize_(*size, **kw)
        assert r is x
        # the bytes kept from before (growth leaves the rest uninitialized)
        return (tuple(x.shape), x.stride(), x.storage_offset(), x.untyped_storage().nbytes(), x._version,
                x.untyped_storage().tolist()[:old])
    a, b = run_both(lambda: run(tt), lambda: run(torch))
    assert (type(a) is type(b)) if isinstance(b, Exception) else a == b, (a, b)


@pytest.mark.parametrize('tmpl,fmt', [((4,), None), ((2, 3), None), ('t', None), ('t', 'preserve_format'),
                                      ((2, 3, 4, 5), 'channels_last'), ('cl', 'preserve_format'), ((2, 3), 'contiguous_format')])
def test_resize_as_(tmpl, fmt):
    def run(m):
        t = (m.ones(3, 2).t() if tmpl == 't' else
             m.ones(2, 3, 4, 5).contiguous(memory_format=m.channels_last) if tmpl == 'cl' else m.ones(*tmpl))
        x = m.ones(2, 3)
        x.resize_as_(t, **({'memory_format': getattr(m, fmt)} if fmt else {}))
        return tuple(x.shape), x.stride(), x._version, x.untyped_storage().nbytes()
    assert run(tt) == run(torch)
    a, b = run_both(lambda: tt.ones(2).resize_as_(3), lambda: torch.ones(2).resize_as_(3))
    assert type(a) is type(b) is TypeError


def test_resize_of_a_non_resizable_storage():
    buf = [bytearray(8), bytearray(8)]
    a, b = run_both(lambda: tt.frombuffer(buf[0], dtype=tt.int32).resize_(4),
                    lambda: torch.frombuffer(buf[1], dtype=torch.int32).resize_(4))
    assert type(a) is type(b) is RuntimeError and str(a) == str(b)


FILL_DIAG_CASES = [((3, 4), False), ((4, 3), False), ((7, 3), True), ((7, 3), False), ((4, 3), True), ((5, 3), True),
                   ((2, 2, 2), False), ((3, 3, 3), True), ((2, 3, 3), False), ((3,), False), ((0, 0), False),
                   ('t', False), ('slice', False), ('t', True)]

@pytest.mark.parametrize('shape,wrap', FILL_DIAG_CASES)
@pytest.mark.parametrize('dt,value', [('float32', 5), ('int8', 7), ('int8', 300), ('bool', True), ('float64', 1.5)])
def test_fill_diagonal_(shape, wrap, dt, value):
    def run(m):
        x = (m.zeros(6, 3).t() if shape == 't' else m.zeros(4, 5)[1:, 1:] if shape == 'slice' else m.zeros(*shape))
        x = x.to(getattr(m, dt))
        base = x._base if x._base is not None else x
        r = x.fill_diagonal_(value, wrap=wrap)
        assert r is x
        return base
    r = run_both(lambda: run(tt), lambda: run(torch))
    assert check_results(*r, 'fill_diagonal', ctx=f'{shape} {wrap}') is None, r


def test_storage_is_a_typed_storage_with_torchs_warning():
    from tinytensor import tensor_protocols as tp
    tp._typed_storage_warned[0] = False
    x = tt.arange(6, dtype=tt.int16)
    with pytest.warns(UserWarning) as w:
        s = x.storage()
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        s_th = torch.arange(6, dtype=torch.int16).storage()
    msg = str(w[0].message)
    assert msg.startswith('TypedStorage is deprecated') and 'tensor.untyped_storage()' in msg
    assert type(s).__name__ == type(s_th).__name__ == 'TypedStorage'
    assert (s.size(), s.dtype.name, s.untyped().nbytes()) == (s_th.size(), 'int16', s_th.untyped().nbytes())
    assert s.untyped() == x.untyped_storage()
    with warnings.catch_warnings():
        warnings.simplefilter('error')
        x.storage()                                         # once per process, as torch's


# 4. the legacy tensor types

LEGACY = ['FloatTensor', 'DoubleTensor', 'HalfTensor', 'BFloat16Tensor', 'LongTensor', 'IntTensor', 'ShortTensor',
          'CharTensor', 'ByteTensor', 'BoolTensor']

LEGACY_ARGS = [((), {}), ((2, 3), {}), (([1, 2],), {}), (((2, 3),), {}), (('size',), {}), (([[1, 0], [3, 4]],), {}),
               ((3.5,), {}), (('ndarray',), {}), (('a',), {}), ((-1,), {}), ((2,), {'device': 'cpu'}),
               ((2,), {'device': 'meta'}), ((2,), {'dtype': 'float32'}), (([1, 2], [3]), {}), ((2, 3.0), {}),
               (('same',), {}), (('other',), {}), (('storage',), {}), (([1.5, -2.5],), {}), ((0,), {})]

@pytest.mark.parametrize('name', LEGACY)
@pytest.mark.parametrize('args,kw', LEGACY_ARGS, ids=[str(i) for i in range(len(LEGACY_ARGS))])
def test_legacy_constructor(name, args, kw):
    def run(m):
        cls = getattr(m, name)
        d = cls.dtype
        a = [{'size': m.Size([2]), 'ndarray': np.array([1, 0, 2]), 'same': m.ones(3).to(d),
              'other': m.ones(3, dtype=m.float64 if d != m.float64 else m.float32),
              'storage': m.arange(4, dtype=m.int32).untyped_storage()}.get(x, x) if isinstance(x, str) and x != 'a' else x
             for x in args]
        k = {n: (getattr(m, v) if n == 'dtype' else v) for n, v in kw.items()}
        r = cls(*a, **k)
        if args in ((2, 3), ((2,),)) or args == (2,) or args == ('size',):       # uninitialized memory
            return tuple(r.shape), r.stride(), str(r.dtype).split('.')[1]
        if args == ('same',): assert r is not a[0] and r._base is a[0]
        return r
    r = run_both(lambda: run(tt), lambda: run(torch))
    if isinstance(r[1], tuple): assert r[0] == r[1], r
    else: assert check_results(*r, 'tensor', ctx=f'{name}{args}') is None, r


def test_legacy_types_answer_isinstance_as_torchs():
    dts = ['float32', 'float64', 'float16', 'bfloat16', 'int64', 'int32', 'int16', 'int8', 'uint8', 'bool', 'complex64']
    for name in LEGACY:
        a, b = getattr(tt, name), getattr(torch, name)
        assert a.__name__ == b.__name__ == name and repr(a) == repr(b).replace('torch', 'tinytensor')
        assert a.dtype.name == str(b.dtype).split('.')[1] and type(a).__name__ == type(b).__name__ == 'tensortype'
        assert issubclass(a, tt.Tensor) == issubclass(b, torch.Tensor) and a.is_cuda == b.is_cuda
        for d in dts:
            x, y = tt.ones(2, dtype=getattr(tt, d)), torch.ones(2, dtype=getattr(torch, d))
            assert isinstance(x, a) == isinstance(y, b), (name, d)
            assert isinstance(x[0], a) == isinstance(y[0], b)
            assert isinstance(x, (a, tt.LongTensor)) == isinstance(y, (b, torch.LongTensor))
        assert isinstance(3, a) == isinstance(3, b) == False
        assert (type(a(2)) is tt.Tensor) and (type(b(2)) is torch.Tensor)
    assert isinstance(tt.ones(2, device='meta'), tt.FloatTensor) == isinstance(torch.ones(2, device='meta'), torch.FloatTensor)
