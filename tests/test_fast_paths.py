"Every speed-only fast path equals the plain path it skips: values, dtype, strides, flags and errors (seeded random cases)."
import numpy as np
import pytest
import tinytensor as tt
from tinytensor import dtypes as _dt
from tinytensor import ops
from tinytensor.allocator import CPU, DeviceType, get_allocator
from tinytensor.intrusive_ptr import make_intrusive
from tinytensor.storage import StorageImpl, _null_data_ptr, _null_dps
from tinytensor.tensor_impl import TensorImpl, Tensor
from tinytensor.tensor_iterator import TensorIterator
from tinytensor.factories import _empty_impl

SEED, N = 1234, 300
FAST_DTYPES = ['float32', 'float64', 'int64', 'int32', 'bool', 'float16', 'bfloat16', 'complex64']

def _rand_tensor(rng, shape, dt):
    x = rng.standard_normal(shape) * 10
    if dt == 'bool': x = x > 0
    if dt in ('uint8', 'int8'): x = np.clip(np.abs(x), 0, 100)
    t = tt.tensor(np.ravel(x).tolist(), dtype=getattr(tt, dt)).reshape(shape)
    if rng.random() < 0.2 and len(shape) >= 2: t = t.transpose(0, 1)        # sometimes not contiguous: the plain path
    return t

def _shape(rng): return tuple(int(s) for s in rng.integers(0, 5, size=int(rng.integers(0, 4))))

def _same(r, p):
    "Both raised the same exception class, or both gave equal tensors (dtype, sizes, strides, offset, values, flags)."
    if isinstance(p, Exception):
        assert type(r) is type(p), (r, p); return
    assert not isinstance(r, Exception), r
    ri, pi = r._impl, p._impl
    assert r.dtype is p.dtype and r.shape == p.shape and r.stride() == p.stride() and r.storage_offset() == p.storage_offset()
    assert ri.device_ is pi.device_ and ri.key_set_ is pi.key_set_ and ri.is_wrapped_number_ == pi.is_wrapped_number_
    for f in ('is_contiguous_', 'is_non_overlapping_and_dense_', 'is_channels_last_contiguous_', 'is_channels_last_'):
        assert getattr(ri, f) == getattr(pi, f), f
    np.testing.assert_array_equal(np.asarray(r.tolist()), np.asarray(p.tolist()))

def _call(f, *args):
    try: return f(*args)
    except Exception as e: return e

PLAIN = {'add': lambda a, b: ops._binary(TensorIterator.binary_op, ops._add_loop(1), a, b),
         'sub': lambda a, b: ops._binary(TensorIterator.binary_op, ops._add_loop(-1), a, b),
         'mul': lambda a, b: ops._binary(TensorIterator.binary_op, ops._mul_loop, a, b)}
FAST = {'add': lambda a, b: a + b, 'sub': lambda a, b: a - b, 'mul': lambda a, b: a * b}

@pytest.mark.parametrize('op', ['add', 'sub', 'mul'])
def test_binary_tensor_fast_path_equals_plain(op):
    rng = np.random.default_rng(SEED)
    for _ in range(N):
        shape, da = _shape(rng), str(rng.choice(FAST_DTYPES))
        db = da if rng.random() < 0.8 else str(rng.choice(FAST_DTYPES))
        a, b = _rand_tensor(rng, shape, da), _rand_tensor(rng, shape, db)
        if op == 'sub' and (da == 'bool' or db == 'bool'): continue        # refused before any kernel, both paths
        _same(_call(FAST[op], a, b), _call(PLAIN[op], a, b))
        _same(_call(getattr(tt, op), a, b), _call(PLAIN[op], a, b))

def _rand_scalar(rng):
    k = rng.integers(0, 5)
    if k == 0: return float(rng.standard_normal() * 10.0 ** int(rng.integers(-3, 40)))
    if k == 1: return int(rng.integers(-(1 << 30), 1 << 30))
    if k == 2: return int(rng.integers(-100, 100))
    if k == 3: return float(rng.choice([0.0, -0.0, float('inf'), float('-inf'), float('nan'), 1e300, 0.1]))
    return bool(rng.random() < 0.5)

@pytest.mark.parametrize('op', ['add', 'sub', 'mul'])
def test_scalar_fast_path_equals_plain(op):
    rng = np.random.default_rng(SEED + 1)
    for _ in range(N):
        a, s = _rand_tensor(rng, _shape(rng), str(rng.choice(FAST_DTYPES))), _rand_scalar(rng)
        if op == 'sub' and (a.dtype is _dt.bool or type(s) is bool): continue
        plain = _call(PLAIN[op], a, s)
        _same(_call(FAST[op], a, s), plain)
        _same(_call(getattr(tt, op), a, s), plain)
        if op != 'sub': _same(_call(lambda x, y: y + x if op == 'add' else y * x, a, s), plain)

def test_scalar_fast_path_taken():
    "The cases the fast path is for do not build a TensorIterator (so the test above compares two different paths)."
    a = tt.ones(4, 4)
    for s in (2.0, 3, -1e30): assert ops._fast_scalar(a, s, np.add) is not None
    for s in (True, 1 << 30, 2 + 1j): assert ops._fast_scalar(a, s, np.add) is None
    assert ops._fast_scalar(tt.ones(3, dtype=tt.int64), 2, np.add) is None

def test_empty_fast_path_equals_plain():
    rng = np.random.default_rng(SEED + 2)
    alloc = get_allocator(DeviceType.CPU)
    for _ in range(100):
        shape, d = _shape(rng), getattr(tt, str(rng.choice(FAST_DTYPES)))
        fast = _empty_impl(shape, None, d, CPU)
        n = d.itemsize * int(np.prod(shape))
        plain = Tensor._make(TensorImpl(make_intrusive(StorageImpl, n, None, alloc, True, CPU), d, shape))
        fi, pi = fast._impl, plain._impl
        fs, ps = fi.storage_.get(), pi.storage_.get()
        assert type(fs) is StorageImpl and fi.storage_.use_count() == 1 and fi.storage_.weak_use_count() == 0
        assert (fs._nbytes, fs._allocator, fs._resizable, fs.device, fs._bytes) == (ps._nbytes, ps._allocator, ps._resizable, ps.device, ps._bytes)
        assert fs._data_ptr.get() != 0 or n == 0
        for f in TensorImpl.__slots__:
            if f in ('storage_', 'version_counter_'): continue
            assert getattr(fi, f) == getattr(pi, f), f
        assert fi.version_counter_ is not pi.version_counter_ and fi.version_counter_.current_version() == 0

def test_fresh_flat_equals_flat():
    for shape, d in [((4, 4), tt.float32), ((3,), tt.float64), ((), tt.int64), ((0, 2), tt.float32), ((5,), tt.bool)]:
        t = tt.empty(shape, dtype=d)
        f, p = ops._fresh_flat(t), ops._flat(t, True)
        assert f.dtype == p.dtype and f.shape == p.shape and f.flags.writeable
        if t.numel(): assert f.__array_interface__['data'][0] == p.__array_interface__['data'][0]

def test_null_data_ptr_fast_path():
    assert _null_data_ptr(CPU) is _null_dps[CPU] and _null_data_ptr(CPU).get() == 0

def test_item_fast_path_equals_plain():
    from tinytensor.factories import _pyvals
    rng = np.random.default_rng(SEED + 3)
    for _ in range(200):
        dt = str(rng.choice(FAST_DTYPES + ['uint8', 'int8', 'int16', 'float64', 'complex128']))
        shape = tuple(int(s) for s in rng.integers(1, 4, size=int(rng.integers(0, 3))))
        t = _rand_tensor(rng, shape, dt)
        while t.dim():                                          # a one-element view at some storage offset
            d = int(rng.integers(0, t.dim())); t = t.select(d, int(rng.integers(0, t.shape[d])))
        if rng.random() < 0.5 and t.numel() == 1: t = t.unsqueeze(0)
        fast, plain = t.item(), _pyvals(t).reshape(()).item()
        assert type(fast) is type(plain) and (fast == plain or (fast != fast and plain != plain)), (dt, fast, plain)
    with pytest.raises(RuntimeError, match='cannot be converted to Scalar'): tt.ones(2).item()
    with pytest.raises(RuntimeError, match='meta'): tt.empty(1, device='meta').item()

def test_view_layout_cache_equals_refresh():
    "Views take their layout and flags from a per-(sizes, strides) cache: same as computing them afresh."
    from tinytensor.tensor_impl import alias_impl
    rng = np.random.default_rng(SEED + 4)
    base = tt.zeros(4096)
    for _ in range(N):
        nd = int(rng.integers(0, 6))
        sizes = tuple(int(s) for s in rng.integers(0, 4, size=nd))
        strides = tuple(int(s) for s in rng.integers(0, 20, size=nd))
        for _ in range(2):                                     # the second call is served from the cache
            impl = alias_impl(base._impl, sizes, strides, 0)
            ref = alias_impl(base._impl, (), (), 0)
            ref.set_sizes_and_strides(sizes, strides)             # the plain path: numel and refresh_contiguous
            assert impl.sizes() == sizes and impl.strides() == strides and impl.numel_ == ref.numel_
            for f in ('is_contiguous_', 'is_channels_last_contiguous_', 'is_channels_last_3d_contiguous_', 'is_channels_last_',
                      'is_channels_last_3d_', 'is_non_overlapping_and_dense_'):
                assert getattr(impl, f) == getattr(ref, f), (f, sizes, strides)
