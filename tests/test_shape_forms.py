"rot90/narrow argument errors, set_, Tensor.new, empty_permuted, type(tt.Tensor) and dim_order's ambiguity, against torch."
import numpy as np
import pytest
torch = pytest.importorskip("torch")
import tinytensor as tt
from ttgen import run_both, check_results, pair, LAYOUTS

def _check(f, name, op='views'):
    ra, rb = run_both(lambda: f(tt), lambda: f(torch))
    msg = check_results(ra, rb, op, ctx=name)
    assert msg is None, msg
    if isinstance(rb, Exception): assert str(rb).split('\n')[0][:60] in str(ra), f'{name}: {ra} vs {rb}'
    return ra, rb

ROT = [(0, 1), (0, 2), (2, 0), (-3, 1), (1, 5), (0, -2), (1, -1), (-1, 1), (0, 0), (0,), (0, 1, 2)]

@pytest.mark.parametrize('dims', ROT)
def test_rot90_dims(dims):
    _check(lambda L: L.rot90(L.arange(6.).view(2, 3), 1, dims), f'rot90 {dims}')
    _check(lambda L: L.arange(24.).view(2, 3, 4).rot90(3, dims), f'rot90 3-d {dims}')

def test_rot90_of_1d():
    _check(lambda L: L.rot90(L.zeros(3), 1, (0, 5)), 'rot90 1-d')

NARROW = {'1-element 1-d': lambda L: L.tensor([1]), '0-d int64': lambda L: L.tensor(1),
          '0-d float': lambda L: L.tensor(1.), '1-d float': lambda L: L.tensor([1.]),
          '0-d int16': lambda L: L.tensor(1, dtype=L.int16), '0-d int8': lambda L: L.tensor(-2, dtype=L.int8),
          '0-d bool': lambda L: L.tensor(True), '2-d': lambda L: L.tensor([[1]]),
          '0-d uint8': lambda L: L.tensor(1, dtype=L.uint8), '0-d out of range': lambda L: L.tensor(7)}

@pytest.mark.parametrize('name', list(NARROW))
def test_narrow_tensor_start(name):
    ra, rb = _check(lambda L: L.arange(6.).view(2, 3).narrow(1, NARROW[name](L), 2), name)
    _check(lambda L: L.narrow(L.arange(6.).view(2, 3), 1, NARROW[name](L), 1), name)
    if not isinstance(rb, Exception): assert ra._base is not None and rb._base is not None

def _set_cases():
    def make(L):
        w = L.zeros(2, 3).t()
        return {
            'set_()': lambda: L.arange(6.).set_(),
            'set_(tensor)': lambda: L.arange(6.).set_(w),
            'set_(self)': lambda: (lambda a: a.set_(a))(L.arange(3.)),
            'set_(untyped storage)': lambda: L.arange(6.).set_(w.untyped_storage()),
            'set_(storage, offset, size, stride)': lambda: L.arange(6.).set_(w.untyped_storage(), 1, (2, 2), (1, 2)),
            'set_(storage, offset, size)': lambda: L.arange(6.).set_(w.untyped_storage(), 1, (2, 2)),
            'set_ keywords': lambda: L.arange(6.).set_(source=w.untyped_storage(), storage_offset=1, size=(2, 2), stride=(1, 2)),
            'set_ grows the storage': lambda: L.arange(6.).set_(L.zeros(6).untyped_storage(), 5, (2, 2), (1, 2)),
            'set_ offset -1': lambda: L.arange(6.).set_(w.untyped_storage(), -1, (2, 2), (1, 2)),
            'set_ other dtype tensor': lambda: L.arange(6.).set_(L.zeros(2, dtype=L.int64)),
            'set_ int64 bytes as float': lambda: L.arange(6.).set_(L.zeros(2, dtype=L.int64).untyped_storage()),
            'set_ typed storage of another dtype': lambda: L.arange(6.).set_(L.zeros(3, dtype=L.float64).storage()),
            'set_ typed storage': lambda: L.arange(6.).set_(w.storage()),
            'set_(int)': lambda: L.arange(6.).set_(3),
            'set_ on expanded': lambda: L.arange(6.).expand(2, 6).set_(),
            'set_ view': lambda: L.arange(6.)[1:].set_(w),
            'set_ unequal stride length': lambda: L.arange(4.).set_(L.arange(4.).untyped_storage(), 0, (2, 2), (1,)),
            'set_ empty at an offset': lambda: L.arange(4.).set_(L.zeros(0).untyped_storage(), 3, (0,)),
        }
    return make

@pytest.mark.parametrize('name', list(_set_cases()(tt)))
def test_set_(name):
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        fa, fb = _set_cases()(tt)[name], _set_cases()(torch)[name]
        ra, rb = run_both(fa, fb)
    if name == 'set_ grows the storage' and not isinstance(rb, Exception):   # new bytes: uninitialized
        ra, rb = ra[0, :1], rb[0, :1]
    msg = check_results(ra, rb, 'views', ctx=name)
    assert msg is None, msg
    if not isinstance(rb, Exception):
        assert ra._version == rb._version, name
        assert ra.untyped_storage().nbytes() == rb.untyped_storage().nbytes(), name
    else: assert type(ra) is type(rb), name

def test_set_shares_memory_and_keeps_old_views():
    for L in (tt, torch):
        w, a = L.zeros(2, 3), L.arange(6.)
        old = a[:2]
        a.set_(w.untyped_storage(), 2, (2,))
        w.view(-1)[2] = 7.
        assert a.tolist() == [7., 0.] and old.tolist() == [0., 1.] and a.is_set_to(a)
        assert a.untyped_storage().data_ptr() == w.untyped_storage().data_ptr()

NEW = {'()': lambda L, x: x.new(), 'ints': lambda L, x: x.new(2, 3), 'tuple is data': lambda L, x: x.new((2, 3)),
       'Size': lambda L, x: x.new(L.Size([2, 3])), 'list': lambda L, x: x.new([[1, 2]]),
       'same tensor': lambda L, x: x.new(x), 'transposed': lambda L, x: x.new(x.t()),
       'other dtype': lambda L, x: x.new(L.zeros(2, dtype=L.int64)), 'dtype=': lambda L, x: x.new(2, dtype=L.int64),
       'device=cpu': lambda L, x: x.new(2, device='cpu'), 'float': lambda L, x: x.new(2.5),
       'str': lambda L, x: x.new('a'), 'range': lambda L, x: x.new(range(3)), 'empty tuple': lambda L, x: x.new(()),
       'negative': lambda L, x: x.new(-1), 'int32 from floats': lambda L, x: L.zeros(2, dtype=L.int32).new([1.7, 2]),
       'size=': lambda L, x: x.new(size=(2,)), 'storage': lambda L, x: x.new(x.untyped_storage())}

@pytest.mark.parametrize('name', list(NEW))
def test_new(name):
    f = NEW[name]
    ra, rb = run_both(lambda: f(tt, tt.arange(6.).view(2, 3)), lambda: f(torch, torch.arange(6.).view(2, 3)))
    if isinstance(rb, torch.Tensor) and name in ('ints', 'dtype=', 'device=cpu', 'negative', 'size=', '()', 'Size'):
        ra, rb = ra.zero_() if isinstance(ra, tt.Tensor) else ra, rb.zero_()     # uninitialized memory
    msg = check_results(ra, rb, 'views', ctx=name)
    assert msg is None, msg
    if not isinstance(rb, Exception): assert (ra._base is None) == (rb._base is None), name

EP = [((2, 3, 4), (2, 0, 1)), ((2, 3), (0, 1)), ((2, 3), (1, 0)), ((2, 3), (0,)), ((2, 3), (0, 0)), ((2, 3), (0, 2)),
      ((), ()), ((0, 3), (1, 0)), ((2, 3, 4, 5), (0, 2, 3, 1)), ([2, 3], [1, -2]), ((2, -1), (1, 0))]

@pytest.mark.parametrize('size,perm', EP)
def test_empty_permuted(size, perm):
    ra, rb = run_both(lambda: tt.empty_permuted(size, perm, dtype=tt.int64).zero_(),
                      lambda: torch.empty_permuted(size, perm, dtype=torch.int64).zero_())
    msg = check_results(ra, rb, 'views', ctx=f'{size} {perm}')
    assert msg is None, msg
    if not isinstance(rb, Exception): assert ra._base is None and rb._base is None

TYPE = {'Tensor': lambda L, x: x.type(L.Tensor), 'float Tensor': lambda L, x: x.float().type(L.Tensor),
        'FloatTensor class': lambda L, x: x.type(L.FloatTensor), 'LongTensor class': lambda L, x: x.type(L.LongTensor),
        "'torch.FloatTensor'": lambda L, x: x.type('torch.FloatTensor'), "'torch.Tensor'": lambda L, x: x.type('torch.Tensor'),
        'float64': lambda L, x: x.type(L.float64), 'int': lambda L, x: x.type(int), "'torch.foo'": lambda L, x: x.type('torch.foo'),
        "'FloatTensor'": lambda L, x: x.type('FloatTensor'), 'name': lambda L, x: L.tensor(x.type() == 'torch.LongTensor')}

@pytest.mark.parametrize('name', list(TYPE))
def test_type(name):
    f = TYPE[name]
    ra, rb = run_both(lambda: f(tt, tt.arange(6).view(2, 3).t()), lambda: f(torch, torch.arange(6).view(2, 3).t()))
    msg = check_results(ra, rb, 'views', ctx=name)
    assert msg is None, msg

def test_type_of_default_tensor_follows_default_dtype():
    for L in (tt, torch):
        L.set_default_dtype(L.float64)
        try: assert L.arange(3).type(L.Tensor).dtype is L.float64
        finally: L.set_default_dtype(L.float32)
    x = tt.arange(3)
    assert x.type(tt.LongTensor) is x and x.type('torch.LongTensor') is x

def test_dim_order_matches_torch_over_layouts():
    "Every layout kind of ttgen, sizes 1-4 (so size-1 dims and equal strides), each ambiguity_check form."
    rng = np.random.default_rng(4822)
    fmts = {'c': (tt.contiguous_format, torch.contiguous_format), 'cl': (tt.channels_last, torch.channels_last)}
    for trial in range(400):
        nd = int(rng.integers(0, 5))
        shape = tuple(int(rng.choice([1, 2, 3, 4])) for _ in range(nd))
        kind = LAYOUTS[trial % len(LAYOUTS)]
        a, _ = pair(rng, shape, 'float32', kind)
        # dim_order reads sizes and strides only: torch's tensor gets exactly a's
        b = torch.empty_strided(tuple(a.shape), a.stride())
        for chk in (False, True, ['c', 'cl'], ['cl'], [], 'bad', 1):
            ca = [fmts[m][0] for m in chk] if isinstance(chk, list) else chk
            cb = [fmts[m][1] for m in chk] if isinstance(chk, list) else chk
            ra, rb = run_both(lambda: a.dim_order(ambiguity_check=ca), lambda: b.dim_order(ambiguity_check=cb))
            if isinstance(rb, Exception):
                assert type(ra) is type(rb) and str(ra) == str(rb), (shape, a.stride(), chk, ra, rb)
            else: assert ra == rb, (shape, a.stride(), chk, ra, rb)
