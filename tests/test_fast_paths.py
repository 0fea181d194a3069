"Every speed-only fast path equals the plain path it skips: values, dtype, strides, flags and errors (seeded random cases)."
import numpy as np
import pytest
import tinytensor as tt
from tinytensor import dtypes as _dt
from tinytensor import ops
from tinytensor import lean_paths, large_tensors
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
    for s in (2.0, 3, -1e30): assert lean_paths._fast_scalar(a, s, np.add) is not None
    for s in (True, 1 << 30, 2 + 1j): assert lean_paths._fast_scalar(a, s, np.add) is None
    assert lean_paths._fast_scalar(tt.ones(3, dtype=tt.int64), 2, np.add) is None

def _check_fresh_chain(shape, d, device, alloc):
    "The fast path's Tensor -> TensorImpl -> StorageImpl chain sets every field the plain chain sets, with `alloc`'s memory."
    fast = _empty_impl(shape, None, d, device)
    n = d.itemsize * int(np.prod(shape))
    plain = Tensor._make(TensorImpl(make_intrusive(StorageImpl, n, None, alloc, True, device), d, shape))
    fi, pi = fast._impl, plain._impl
    fs, ps = fi.storage_.get(), pi.storage_.get()
    assert type(fs) is StorageImpl and fi.storage_.use_count() == 1 and fi.storage_.weak_use_count() == 0
    assert (fs._nbytes, fs._allocator, fs._resizable, fs.device, fs._bytes) == (ps._nbytes, ps._allocator, ps._resizable, ps.device, ps._bytes)
    assert fs._allocator is alloc and (fs._data_ptr.get() != 0 or n == 0) and fs._data_ptr.device == device
    for f in TensorImpl.__slots__:
        if f in ('storage_', 'version_counter_'): continue
        assert getattr(fi, f) == getattr(pi, f), f
    assert fi.version_counter_ is not pi.version_counter_ and fi.version_counter_.current_version() == 0

def test_empty_fast_path_equals_plain():
    rng = np.random.default_rng(SEED + 2)
    alloc = get_allocator(DeviceType.CPU)
    for _ in range(100):
        shape, d = _shape(rng), getattr(tt, str(rng.choice(FAST_DTYPES)))
        _check_fresh_chain(shape, d, CPU, alloc)

def test_empty_fast_path_equals_plain_on_a_device():
    "The fresh-result fast path off the CPU (the CUDA stand-in) sets what the plain chain sets, with the device's allocator."
    import cuda_standin
    from tinytensor.backends import get_backend
    state = cuda_standin.install(1)
    try:
        dev = tt.device('cuda:0')
        al = get_backend(DeviceType.CUDA).allocator(dev)
        for shape, d in [((4, 4), tt.float32), ((3,), tt.float64), ((), tt.int64), ((0, 2), tt.float32), ((2, 3, 4, 5), tt.bool)]:
            _check_fresh_chain(shape, d, dev, al)
        assert tt.cuda.memory_allocated(0) == 0                      # every block went back
    finally: cuda_standin.uninstall(state)

def test_fresh_flat_equals_flat():
    for shape, d in [((4, 4), tt.float32), ((3,), tt.float64), ((), tt.int64), ((0, 2), tt.float32), ((5,), tt.bool)]:
        t = tt.empty(shape, dtype=d)
        f, p = lean_paths._fresh_flat(t), lean_paths._flat(t, True)
        assert f.dtype == p.dtype and f.shape == p.shape and f.flags.writeable
        if t.numel(): assert f.__array_interface__['data'][0] == p.__array_interface__['data'][0]

def test_null_data_ptr_fast_path():
    "The CPU's shared null DataPtr is the table's; equal devices (distinct objects) share one, of their device."
    assert _null_data_ptr(CPU) is _null_dps[(CPU.device_type, None)] and _null_data_ptr(CPU).get() == 0
    from tinytensor.allocator import Device
    m1, m2, c0, c1 = Device('meta'), Device('meta'), Device('cuda', 0), Device('cuda:1')
    assert _null_data_ptr(m1) is _null_data_ptr(m2) and _null_data_ptr(m1).device == m2
    assert _null_data_ptr(c0) is not _null_data_ptr(c1) and (_null_data_ptr(c0).device, _null_data_ptr(c1).device) == (c0, c1)
    assert not any(_null_data_ptr(d).get() or _null_data_ptr(d).get_deleter() for d in (m1, c0, c1))

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

def test_in_flat_equals_flat():
    "The borrowed input views of the small-op fast paths show the same elements as the plain `_flat` views."
    rng = np.random.default_rng(SEED + 5)
    for _ in range(N):
        dt = str(rng.choice(FAST_DTYPES))
        t = _rand_tensor(rng, tuple(int(s) for s in rng.integers(1, 5, size=int(rng.integers(1, 4)))), dt)
        if rng.random() < 0.5: t = t[int(rng.integers(0, t.shape[0])):]           # a storage offset
        if not t.is_contiguous() or not t.numel(): continue
        f, p = lean_paths._in_flat(t), lean_paths._flat(t)
        assert f.dtype == p.dtype and f.shape == p.shape and f.__array_interface__['data'][0] == p.__array_interface__['data'][0]
        np.testing.assert_array_equal(f, p)
        assert lean_paths._in_flat(t) is f or dt == "bfloat16"                          # served from the cache the second time

def test_raw_view_cache():
    from tinytensor.storage import _raw_view, _raw_views
    t = tt.arange(8, dtype=tt.float32)
    p = t.data_ptr()
    v = _raw_view(p, 8, np.dtype(np.float32))
    assert v.tolist() == list(range(8)) and _raw_view(p, 8, np.dtype(np.float32)) is v
    assert _raw_view(p, 4, np.dtype(np.float32)).tolist() == [0, 1, 2, 3]          # another length: another array
    assert _raw_view(p, 4, np.dtype(np.int64)).dtype == np.int64
    for i in range(1100): _raw_view(p, 1 + i % 8, np.dtype(np.uint8) if i < 8 else np.dtype(f'V{i}'))
    assert len(_raw_views) <= 1024                                                 # bounded

def test_cached_allocation_data_ptr_equals_constructed():
    "The caching allocator builds its DataPtr without __init__: the same fields as `DataPtr(ptr, ptr, deleter, CPU)`."
    from tinytensor.allocator import CPUCachingAllocator, DataPtr
    c = CPUCachingAllocator()
    for n in (64, 64, 4096):                                   # a fresh block, a cached one, another size
        dp = c.allocate(n)
        ref = DataPtr(dp.get(), dp.get(), c._delete, CPU)
        assert type(dp) is DataPtr and not dp.read_only
        assert (dp.get(), dp.get_context(), dp.get_deleter(), dp.device) == (ref.get(), ref.get_context(), ref.get_deleter(), ref.device)
        ref.release_context(); del dp                          # `ref` must not free the block a second time
    assert c.memory_stats()['allocated_bytes.current'] == 0

def test_empty_cache_while_freeing_keeps_count():
    "A block freed while `empty_cache` holds the lock (a finalizer run by a collection) is cached in the new lists and counted."
    from tinytensor.allocator import CPUCachingAllocator
    c = CPUCachingAllocator()
    live, cached = c.allocate(128), c.allocate(64)
    del cached
    class Evil(dict):                                          # a free list whose iteration frees `live` on this thread
        def values(self):
            box.clear(); return super().values()
    box = [live]; del live
    c._available = Evil(c._available)
    import threading
    th = threading.Thread(target=c.empty_cache, daemon=True); th.start(); th.join(10)
    assert not th.is_alive()                                   # a non-re-entrant lock deadlocks here
    s = c.memory_stats()
    assert s['allocated_bytes.current'] == 0 and s['cached_bytes.current'] == 128 == sum(n * len(v) for n, v in c._available.items())
    assert sorted(c._sizes.values()) == [128]
    c.empty_cache(); assert c.memory_stats()['reserved_bytes.current'] == 0 and not c._sizes

def test_fast_binary_out_of_bounds_storage_takes_plain_path():
    "A tensor whose storage shrank under it is never read through a borrowed view: both paths refuse alike."
    for op in ('add', 'mul'):
        a = tt.ones(4, 4)
        a.untyped_storage().resize_(16)
        _same(_call(FAST[op], a, a), _call(PLAIN[op], a, a))
        _same(_call(FAST[op], a, 2.0), _call(PLAIN[op], a, 2.0))

def test_fill_fast_path_equals_plain():
    "zeros/ones fill a fresh contiguous CPU tensor through a borrowed view: same values, dtype, layout and version."
    from tinytensor.factories import _fill, _np_write
    rng = np.random.default_rng(SEED + 6)
    for _ in range(100):
        shape, d = _shape(rng), getattr(tt, str(rng.choice(FAST_DTYPES + ['uint8', 'int8'])))
        for v in (0, 1):
            fast = _fill(tt.empty(shape, dtype=d), v)
            plain = tt.empty(shape, dtype=d)
            if plain.numel(): _np_write(plain)[...] = v
            _same(fast, plain)
            assert fast._version == 0
    t = tt.ones_like(tt.empty(2, 3, 4, 5).permute(0, 2, 3, 1))                   # not contiguous: the plain path
    assert t.stride() == tt.empty(2, 3, 4, 5).permute(0, 2, 3, 1).stride() and t.tolist() == np.ones((2, 4, 5, 3)).tolist()

def test_view_fast_paths_equal_plain():
    "t(), select, dim-0 slicing and view(-1)/view(n) take short paths; each equals the general formula."
    rng = np.random.default_rng(SEED + 7)
    for _ in range(N):
        nd = int(rng.integers(1, 4))
        t = _rand_tensor(rng, tuple(int(s) for s in rng.integers(1, 5, size=nd)), 'float32')
        if nd == 2: _same(t.t(), t.transpose(0, 1)); assert t.t()._base is (t if t._base is None else t._base)
        d = int(rng.integers(-nd, nd)); i = int(rng.integers(-t.shape[d], t.shape[d]))
        _same(t.select(d, i), t.select(np.int64(d), np.int64(i)))                 # numpy ints: the general path
        lo, hi = (int(x) for x in rng.integers(-6, 6, size=2))
        _same(t[lo:hi], t.narrow(0, 0, t.shape[0])[slice(lo, hi, 1)] if t.shape[0] else t[lo:hi])
        _same(t[lo:hi], t.as_strided(*_slice0(t, lo, hi)))
        if t.is_contiguous():
            _same(t.view(-1), t.view([-1])); _same(t.view(t.numel()), t.view([t.numel()]))
    a = tt.ones(2, 3)
    with pytest.raises(IndexError, match='out of range'): a.select(1, 3)
    with pytest.raises(IndexError, match='Dimension out of range'): a.select(2, 0)
    with pytest.raises(ValueError, match='Overflow'): a.select(0, 1 << 70)         # as the general path: int64 first
    with pytest.raises(RuntimeError, match='shape'): a.view(5)
    with pytest.raises(RuntimeError, match='view size is not compatible'): a.t().view(-1)

def _slice0(t, lo, hi):
    "sizes, strides and offset of `t[lo:hi]` by Python's own slice arithmetic."
    start, stop, _ = slice(lo, hi).indices(t.shape[0])
    n = max(stop - start, 0)
    return (n,) + tuple(t.shape[1:]), t.stride(), t.storage_offset() + start * t.stride(0)

def test_caching_allocator_one_lock_stats():
    "The caching allocator's statistics share its lock and stay exact through hits, misses and the cap."
    from tinytensor.allocator import CPUCachingAllocator
    import threading
    c = CPUCachingAllocator(max_cached_bytes=3 * 256)
    assert c.stats._lock is c._lock
    def work():
        for i in range(300):
            blocks = [c.allocate(256 * (1 + (i + k) % 3)) for k in range(4)]
            del blocks
    ths = [threading.Thread(target=work) for _ in range(4)]
    for th in ths: th.start()
    for th in ths: th.join()
    s = c.memory_stats()
    assert s['allocated_bytes.current'] == 0 and s['allocation.current'] == 0 and s['num_allocs'] == s['num_frees'] == 4 * 300 * 4
    assert s['cached_bytes.current'] <= 3 * 256 and s['reserved_bytes.current'] == s['cached_bytes.current']
    assert s['cached_bytes.current'] == sum(n * len(v) for n, v in c._available.items())
    c.empty_cache(); assert c.memory_stats()['reserved_bytes.current'] == 0

def test_version_counter_shared_lock_exact():
    import threading
    t = tt.zeros(3)
    v = t._version
    def bump():
        for _ in range(2000): t._impl.bump_version()
    ths = [threading.Thread(target=bump) for _ in range(4)]
    for th in ths: th.start()
    for th in ths: th.join()
    assert t._version == v + 8000 and t[1:]._version == v + 8000

def test_expand_geometry_cache_equals_plain():
    "expand's cached geometry (speed only) equals the computed one, for hits and misses alike, errors included."
    from tinytensor.views import _expand_geometry
    from tinytensor.fast_views import _expand_geoms
    rng = np.random.default_rng(7)
    for _ in range(300):
        shape = tuple(int(s) for s in rng.integers(1, 4, size=int(rng.integers(0, 4))))
        t = tt.zeros(*shape) if shape else tt.zeros(())
        req = tuple(int(s) if rng.random() < 0.7 else -1 for s in rng.integers(1, 5, size=len(shape) + int(rng.integers(0, 2))))
        req = tuple(shape[i - (len(req) - len(shape))] if (i >= len(req) - len(shape) and rng.random() < 0.5) else r
                    for i, r in enumerate(req))
        _expand_geoms.clear()
        first = _call(lambda: t.expand(*req))                        # computed (and cached if it succeeded)
        second = _call(lambda: t.expand(*req))                       # from the cache when cached
        if isinstance(first, Exception): assert type(first) is type(second) and str(first) == str(second); continue
        _same(second, first)
        assert _expand_geometry(t._impl, req) == (first.shape, first.stride())

# Note [half casts in bulk]: float16 -> float32 by whole-array passes, against numpy's cast and the plain loops
from tinytensor.dtypes import _widen_half, _half_to_float, _keeps_subnormals, _HALF_CHUNK, _HALF_MIN

def _every_half(reps=5):
    "Every float16 bit pattern, `reps` times over, shuffled, inf and NaN only in the first 4000 (later rounds are finite)."
    bits = np.tile(np.arange(1 << 16, dtype=np.uint16), reps)
    np.random.default_rng(SEED).shuffle(bits)
    special = (bits & 0x7c00) == 0x7c00
    return np.concatenate([bits[special][:4000], bits[~special]]).view(np.float16)

def test_widen_half_every_value():
    h = _every_half()
    assert h.size > _HALF_CHUNK
    every = np.arange(1 << 16, dtype=np.uint16).view(np.float16)
    for x in (h, h[4000:4000 + _HALF_MIN], h[:_HALF_CHUNK + 1], np.tile(every, 2)):
        o = np.empty(x.shape, np.float32)
        assert _widen_half(o, x)
        np.testing.assert_array_equal(o.view(np.uint32), x.astype(np.float32).view(np.uint32))

def test_widen_half_refuses_what_it_does_not_cover():
    h = _every_half(1)
    assert not _widen_half(np.empty(h.size - 1, np.float32), h[1:][::-1])           # not contiguous
    assert not _widen_half(np.empty(100, np.float32), h[:100])                      # small
    assert not _widen_half(np.empty(h.size, np.float64), h)                         # not float32
    buf = np.zeros(4 * h.size, np.uint8)                                            # overlapping memory
    assert not _widen_half(buf[:4 * (h.size // 2)].view(np.float32), buf[4:4 + 2 * (h.size // 2)].view(np.float16))

def test_widen_half_in_a_daz_thread():
    "With x86's DAZ bit set (torch.set_flush_denormal), subnormal float16s still widen exactly (numpy's cast)."
    torch = pytest.importorskip('torch')
    sub = np.tile(np.arange(1, 1024, dtype=np.uint16), 40).view(np.float16)       # every positive subnormal
    if not torch.set_flush_denormal(True): pytest.skip('this CPU has no flush-denormal mode')
    try:
        assert not _keeps_subnormals()
        o = np.empty(sub.shape, np.float32)
        assert _widen_half(o, sub)
        np.testing.assert_array_equal(o, sub.astype(np.float32))
        assert (o > 0).all()
    finally: torch.set_flush_denormal(False)
    assert _keeps_subnormals()

@pytest.mark.parametrize('uf', [np.add, np.subtract, np.multiply, np.true_divide, np.maximum, np.exp, np.sqrt, np.negative])
def test_half_ufunc_equals_plain(uf):
    rng = np.random.default_rng(SEED)
    h = _every_half()
    for n in (_HALF_MIN, _HALF_CHUNK - 1, _HALF_CHUNK + 7):
        a, b = h[:n], h[-n:]
        kinds = [(a,), (a, b), (a, np.broadcast_to(b[3], n)), (a, np.float32(rng.standard_normal())), (a, a)]
        for ins in kinds:
            if len(ins) != uf.nin: continue
            fast, plain = np.empty(n, np.float16), np.empty(n, np.float16)
            with np.errstate(all='ignore'):
                assert large_tensors._half_ufunc(uf, fast, ins)
                uf(*ins, out=plain, dtype=np.float32, casting='unsafe')
            np.testing.assert_array_equal(fast.view(np.uint16), plain.view(np.uint16))

def test_half_ufunc_refuses_what_it_does_not_cover():
    h = _every_half()
    n = _HALF_MIN
    o = np.empty(n, np.float16)
    for ins in ((h[:2 * n:2], h[:n]), (h[:n], h[:n].astype(np.float32)), (h[:n].reshape(2, -1),), (h[:n], np.float64(1))):
        assert not large_tensors._half_ufunc(np.add if len(ins) == 2 else np.exp, o, ins)
    assert not large_tensors._half_ufunc(np.add, o[:100], (h[:100], h[:100]))                   # small
    buf = h[:n + 1].copy()                                                              # the output one element on
    assert not large_tensors._half_ufunc(np.add, buf[1:], (buf[:-1], h[:n]))

def _force_plain_half(monkeypatch):
    big = 1 << 62
    monkeypatch.setattr(large_tensors, '_HALF_MIN', big); monkeypatch.setattr(_dt, '_HALF_MIN', big)   # the module that reads it

def test_half_ops_equal_plain(monkeypatch):
    "Whole ops on big float16 tensors, threads included: the widened path gives the plain path's tensors."
    e = _every_half(3)
    e = e[:e.size // 1024 * 1024]                            # two threads: one range with inf and NaN, one without
    h, g = tt.from_numpy(e).view(-1, 1024), tt.from_numpy(np.ascontiguousarray(e[::-1])).view(-1, 1024)
    cases = [lambda: h + g, lambda: h * 1.7, lambda: h - 3, lambda: h.exp(), lambda: h / g, lambda: h.float(),
             lambda: h.to(tt.float32), lambda: h.clone().add_(g), lambda: tt.mul(h, g, out=tt.empty_like(h)),
             lambda: h.mean(1), lambda: h.t() + g.t()]
    fast = [c() for c in cases]
    _force_plain_half(monkeypatch)
    for f, c in zip(fast, cases):
        p = c()
        _same(f, p)
        bits = lambda t: np.ascontiguousarray(t.numpy()).view(np.uint8)
        np.testing.assert_array_equal(bits(f), bits(p))                                       # NaN payloads too

def test_reduced_fast_paths_equal_plain():
    "float16/bfloat16 small ops through the fast paths: the plain path's tensors, numbers on float16 ties included."
    rng = np.random.default_rng(SEED + 9)
    h = rng.integers(0, 0x7bff, 200, dtype=np.uint16).view(np.float16).astype(np.float64)
    u = np.spacing(h.astype(np.float16)).astype(np.float64)
    scalars = (h + u / 2 + u * 2**-30).tolist() + (-(h + u / 2 - u * 2**-30)).tolist() + [3, -7, 1 << 20, 0.1, 1e6, float('nan')]
    for dt in (tt.float16, tt.bfloat16):
        for shape in ((3,), (2, 5), (7, 9)):
            a = tt.tensor(rng.standard_normal(shape) * 50, dtype=dt)
            b = tt.tensor(rng.standard_normal(shape) * 50, dtype=dt)
            for op in ('add', 'sub', 'mul'):
                assert lean_paths._fast_binary(a, b, {'add': np.add, 'sub': np.subtract, 'mul': np.multiply}[op]) is not None
                _same(FAST[op](a, b), PLAIN[op](a, b))
                for s in scalars[::7]:
                    _same(FAST[op](a, s), PLAIN[op](a, s))

def test_cpu_cache_counts_as_record_alloc():
    "The cache's hit and free paths count inline (a frame less each): the statistics `record_alloc`/`record_free` keep."
    from tinytensor.allocator import CPUCachingAllocator, AllocatorStats
    rng = np.random.default_rng(SEED + 7)
    c, ref, live = CPUCachingAllocator(max_cached_bytes=4096), AllocatorStats(), []
    for _ in range(2000):
        if live and rng.random() < 0.5:
            dp, n = live.pop(int(rng.integers(len(live))))
            del dp                                                   # the DataPtr's deleter: the cache's free path
            ref.record_free(n)
        else:
            n = int(rng.choice([16, 64, 256, 1024, 3000]))
            live.append((c.allocate(n), n)); ref.record_alloc(n)     # a hit or a fresh block
        assert c.stats.as_dict() == ref.as_dict()
    assert c.memory_stats()['cached_bytes.current'] > 0              # both paths ran: blocks were cached and reused
    live.clear(); c.empty_cache()

def test_unique_release_matches_locked_release():
    "Note [Unique release]: dropping the last handle without the lock leaves the counts the locked path leaves."
    from tinytensor.intrusive_ptr import intrusive_ptr_target, weak_intrusive_ptr
    class T(intrusive_ptr_target):
        __slots__ = ('released',)
        def __init__(self): super().__init__(); self.released = 0
        def release_resources(self): self.released += 1
    a = make_intrusive(T); t = a.get(); a.reset()                   # unique: no lock
    b = make_intrusive(T); u = b.get(); w = weak_intrusive_ptr(b); b.reset()   # a weak handle: the locked path
    assert (t._refcount, t._weakcount, t.released) == (0, 0, 1)
    assert (u._refcount, u._weakcount, u.released) == (0, 1, 1)
    del w; assert u._weakcount == 0
    c = make_intrusive(T); v = c.get(); d = c.copy(); c.reset()      # two strong handles: locked, nothing released
    assert (v._refcount, v.released) == (1, 0)
    d.reset(); assert (v._refcount, v._weakcount, v.released) == (0, 0, 1)

def test_relu_zeros_are_read_only_views():
    "Note [zeros for relu]: the operand is a read-only zero view of one buffer per dtype; relu keeps -0.0, NaN as torch."
    import torch
    z, z2 = lean_paths._zeros[5, np.dtype(np.float32)], lean_paths._zeros[7, np.dtype(np.float32)]
    assert (z == 0).all() and z.shape == (5,) and not z.flags.writeable and np.shares_memory(z, z2)
    with pytest.raises(ValueError): z[0] = 1
    v = [-0.0, 0.0, float('nan'), -1.5, 2.5, float('-inf')]
    for d in (tt.float32, tt.float64):
        r, t = tt.tensor(v, dtype=d).relu(), torch.tensor(v, dtype=getattr(torch, str(d).split('.')[-1])).relu()
        assert r.numpy().tobytes() == t.numpy().tobytes()
