"DLPack exchange with numpy, torch and (where available) CuPy: zero copy, lifetimes, capsule protocol, errors."
import ctypes, gc, threading
import numpy as np
import pytest
torch = pytest.importorskip("torch")
import tinytensor as tt
from tinytensor import dlpack as dlp
from tinytensor.factories import from_numpy
from tinytensor.tensor_impl import alias_with_sizes_and_strides
from tinytensor.testing import test_tensor_eq as tensor_eq

_IsValid = ctypes.PYFUNCTYPE(ctypes.c_int, ctypes.py_object, ctypes.c_char_p)(('PyCapsule_IsValid', ctypes.pythonapi))
_New = ctypes.PYFUNCTYPE(ctypes.py_object, ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p)(('PyCapsule_New', ctypes.pythonapi))

DTYPES = [tt.bool, tt.uint8, tt.int8, tt.int16, tt.int32, tt.int64, tt.float16, tt.bfloat16, tt.float32, tt.float64,
          tt.complex64, tt.complex128]
TORCH = {d: getattr(torch, d.name) for d in DTYPES}

@pytest.fixture(autouse=True)
def no_leaks():
    if dlp._exported: gc.collect()            # only when something is still exported: a full collection is costly
    before = len(dlp._exported)
    yield
    if len(dlp._exported) != before: gc.collect()
    assert len(dlp._exported) == before, 'an export was never released (deleter not called)'

def _layouts(rng, n=20):
    for _ in range(n):
        ndim = int(rng.integers(0, 4))
        sizes = tuple(int(rng.integers(0, 4)) for _ in range(ndim))
        strides = tuple(int(rng.integers(0, 5)) for _ in range(ndim))
        span = 0 if 0 in sizes else 1 + sum((s - 1) * st for s, st in zip(sizes, strides))
        yield sizes, strides, int(rng.integers(0, 4)), span

@pytest.mark.parametrize('d', DTYPES, ids=lambda d: d.name)
@pytest.mark.parametrize('versioned', [False, True])
def test_tt_to_torch(d, versioned):
    rng = np.random.default_rng(0)
    for sizes, strides, off, span in _layouts(rng):
        if d is tt.bool: base = tt.ones(span + off + 1, dtype=d)
        elif d.is_complex: base = tt.arange(span + off + 1, dtype=tt.float64).to(d)      # torch has no complex arange either
        else: base = tt.arange(span + off + 1, dtype=d)
        v = alias_with_sizes_and_strides(base, sizes, strides, off)
        cap = v.__dlpack__(max_version=(1, 0) if versioned else None)
        p = torch.from_dlpack(cap)
        assert (tuple(p.shape), p.stride(), p.dtype) == (sizes, strides, TORCH[d])
        if v.numel(): assert p.data_ptr() == v.data_ptr()
        expect = v.tolist()
        del v, base, cap
        assert p.tolist() == expect                          # memory alive after our tensors are gone

@pytest.mark.parametrize('d', DTYPES, ids=lambda d: d.name)
def test_torch_to_tt(d):
    rng = np.random.default_rng(1)
    for sizes, strides, off, span in _layouts(rng):
        base = torch.arange(span + off + 1).to(TORCH[d])
        p = base.as_strided(sizes, strides, off)
        t = tt.from_dlpack(p)
        assert (t.shape, t.stride(), t.dtype) == (sizes, strides, d)
        if p.numel(): assert t.data_ptr() == p.data_ptr()
        tensor_eq(t, p, check_strides=False)
        expect = p.tolist()
        del p, base
        assert t.tolist() == expect

def test_shared_writes_both_ways():
    t = tt.zeros(4, dtype=tt.float32)
    p = torch.from_dlpack(t)
    p[1] = 5; assert t.tolist() == [0, 5, 0, 0]
    t2 = tt.from_dlpack(p)
    t2._impl.storage_.get().mutable_bytes()[:4] = np.frombuffer(np.float32(7).tobytes(), np.uint8)
    assert p.tolist() == [7, 5, 0, 0] and t.tolist() == [7, 5, 0, 0]

@pytest.mark.parametrize('d', [d for d in DTYPES if d is not tt.bfloat16], ids=lambda d: d.name)
def test_numpy_both_ways(d):
    a = (np.arange(24) % 2).astype(d.np).reshape(2, 3, 4)[:, ::2, 1:]
    t = tt.from_dlpack(a)
    assert t.data_ptr() == a.ctypes.data and t.stride() == tuple(s // a.itemsize for s in a.strides)
    b = np.from_dlpack(t)
    assert b.ctypes.data == a.ctypes.data and b.strides == a.strides and b.dtype == a.dtype
    np.testing.assert_array_equal(b, a)
    del a, t; gc.collect()
    np.testing.assert_array_equal(b, (np.arange(24) % 2).astype(d.np).reshape(2, 3, 4)[:, ::2, 1:])

def test_bfloat16_to_numpy_refused_without_leak():
    # numpy drops our capsule with its own error pending: its error reaches the caller as torch's does, and the export
    # is still released (fixture)
    with pytest.raises(RuntimeError) as want: np.from_dlpack(torch.ones(2, dtype=torch.bfloat16))
    with pytest.raises(RuntimeError) as got: np.from_dlpack(tt.ones(2, dtype=tt.bfloat16))
    assert str(got.value) == str(want.value) == 'Unsupported dtype in DLTensor.'
    with pytest.raises(BufferError, match='not supported by DLPack'): dlp.dl_dtype('uint16')

def _writes(t):
    "Every way of writing into `t` (all must raise on read-only memory)."
    return {'fill_': lambda: t.fill_(1), 'zero_': lambda: t.zero_(), 'setitem': lambda: t.__setitem__(0, 1),
            'copy_': lambda: t.copy_(tt.ones(t.shape, dtype=t.dtype)), 'add_': lambda: t.add_(1),
            'numpy': lambda: t.numpy().__setitem__(0, 1), 'storage': lambda: t.untyped_storage().__setitem__(0, 1),
            'view': lambda: t[1:].fill_(1)}

def test_read_only_producers_refuse_writes():
    ro = [np.frombuffer(bytes(16), np.uint8), np.arange(4.0)]
    ro[1].setflags(write=False)
    for a in ro:
        t = tt.from_dlpack(a)
        for name, w in _writes(t).items():
            with pytest.raises(ValueError, match='read-only'): w()
        assert not t.numpy().flags.writeable and (t + 1).tolist() == (a + 1).tolist()
        assert t.tolist() == a.tolist()                            # nothing was written
        assert not np.from_dlpack(t).flags.writeable               # a versioned capsule carries the flag on
        with pytest.raises(BufferError, match='read-only'): t.__dlpack__()   # a legacy one cannot: refused, like numpy
    w = np.zeros(4)
    t = tt.from_dlpack(w)
    for name, f in _writes(t).items(): f()                         # writable producers stay writable
    assert w[1:].tolist() == [1, 1, 1]

def test_read_only_memmap_write_raises_instead_of_crashing(tmp_path):
    import subprocess, sys
    (tmp_path / 'm.bin').write_bytes(bytes(4096))
    code = ("import numpy as np, tinytensor as tt, sys\n"
            "t = tt.from_dlpack(np.memmap(sys.argv[1], np.uint8, 'r'))\n"
            "try: t.fill_(7)\nexcept ValueError as e: print('refused', e)\n")
    r = subprocess.run([sys.executable, '-c', code, str(tmp_path / 'm.bin')], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0 and 'refused' in r.stdout and 'read-only' in r.stdout, (r.returncode, r.stdout, r.stderr)

def test_read_only_numpy_and_zero_size():
    a = np.arange(3.0); a.setflags(write=False)
    t = tt.from_dlpack(a)                   # accepted, like torch (and read-only: see above)
    assert t.tolist() == [0, 1, 2]
    z = tt.from_dlpack(np.zeros((0, 3)))
    assert z.shape == (0, 3) and z.numel() == 0
    e = np.from_dlpack(tt.zeros(0, 2))
    assert e.shape == (0, 2)

def test_capsule_protocol():
    t = tt.arange(3)
    cap = t.__dlpack__()
    assert _IsValid(cap, b'dltensor')
    x = tt.from_dlpack(cap)
    assert _IsValid(cap, b'used_dltensor')
    with pytest.raises(RuntimeError, match='consumed only once'): tt.from_dlpack(cap)
    with pytest.raises(RuntimeError, match='consumed only once'): torch.from_dlpack(cap)
    vcap = t.__dlpack__(max_version=(1, 2))
    assert _IsValid(vcap, b'dltensor_versioned')
    tt.from_dlpack(vcap)
    assert _IsValid(vcap, b'used_dltensor_versioned')
    del x, cap, vcap
    unused = [t.__dlpack__(max_version=v) for v in (None, (1, 0), (0, 8))]
    assert len(dlp._exported) >= 3
    del unused                               # destructors of unconsumed capsules call the deleters (fixture checks)

def test_producer_arguments():
    t = tt.arange(4)
    with pytest.raises(AssertionError, match='stream should be None on cpu'): t.__dlpack__(stream=3)
    with pytest.raises(TypeError, match='stream must be'): t.__dlpack__(stream='x')
    tt.from_dlpack(t.__dlpack__(stream=-1))
    with pytest.raises(BufferError): t.__dlpack__(dl_device=(2, 0))
    assert t.__dlpack_device__() == (1, 0)
    v = alias_with_sizes_and_strides(t, (2,), (2,), 1)
    c = tt.from_dlpack(v.__dlpack__(copy=True, max_version=(1, 0)))
    assert c.tolist() == [1, 3] and c.stride() == (1,) and c.data_ptr() != v.data_ptr()
    assert np.from_dlpack(v).tolist() == [1, 3]

def _fake_capsule(major=1, dtype=(2, 32, 1), strides=True, data=True):
    "A hand-made producer export, to check the consumer's refusals call the deleter."
    called = []
    @dlp.DLDeleter
    def deleter(addr): called.append(addr)
    buf = (ctypes.c_float * 4)(1, 2, 3, 4)
    shape, st = (ctypes.c_int64 * 1)(4), (ctypes.c_int64 * 1)(strides if isinstance(strides, int) and strides is not True else 1)
    m = dlp.DLManagedTensorVersioned()
    m.version = dlp.DLPackVersion(major, 0)
    m.dl_tensor.data = ctypes.addressof(buf) if data else None
    m.dl_tensor.device = dlp.DLDevice(1, 0)
    m.dl_tensor.ndim = 1
    m.dl_tensor.dtype = dlp.DLDataType(*dtype)
    m.dl_tensor.shape = ctypes.cast(shape, ctypes.POINTER(ctypes.c_int64))
    m.dl_tensor.strides = ctypes.cast(st, ctypes.POINTER(ctypes.c_int64)) if strides is not None else None
    m.deleter = deleter
    return _New(ctypes.addressof(m), b'dltensor_versioned', None), called, (m, buf, shape, st, deleter)

@pytest.mark.parametrize('kw, exc, msg', [
    (dict(major=2), BufferError, 'major version 2'),
    (dict(dtype=(2, 32, 4)), BufferError, 'lanes=4'),
    (dict(dtype=(7, 8, 1)), BufferError, 'Unsupported DLPack dtype'),
    (dict(strides=-1), RuntimeError, 'negative strides'),
    (dict(data=False), RuntimeError, 'null data pointer'),
])
def test_consumer_refusals_release(kw, exc, msg):
    cap, called, keep = _fake_capsule(**kw)
    with pytest.raises(exc, match=msg): tt.from_dlpack(cap)
    assert len(called) == 1                                  # the deleter ran, once: nothing leaks
    with pytest.raises(RuntimeError, match='consumed only once'): tt.from_dlpack(cap)

def test_null_strides_mean_contiguous():
    cap, called, keep = _fake_capsule(strides=None)
    t = tt.from_dlpack(cap)
    assert t.stride() == (1,) and t.tolist() == [1, 2, 3, 4]
    del t; gc.collect()
    assert len(called) == 1

def test_deleter_from_other_thread():
    t = tt.arange(1000)
    p = torch.from_dlpack(t)
    del t
    th = threading.Thread(target=lambda: None)
    box = [p]; del p
    def drop(): box.clear(); gc.collect()
    th = threading.Thread(target=drop); th.start(); th.join()

def test_cupy_roundtrip():
    cp = pytest.importorskip('cupy')
    try: cp.cuda.runtime.getDeviceCount()
    except Exception: pytest.skip('no CUDA device')
    a = cp.arange(12, dtype=cp.float32).reshape(3, 4)[:, 1:]
    t = tt.from_dlpack(a)
    assert t.is_cuda and t.shape == (3, 3) and t.stride() == (4, 1) and t.data_ptr() == a.data.ptr
    b = cp.from_dlpack(t)
    assert b.data.ptr == a.data.ptr and b.strides == a.strides
    del a, t; gc.collect()
    assert cp.asnumpy(b).tolist() == [[1, 2, 3], [5, 6, 7], [9, 10, 11]]

# torch's test_dlpack.py, re-expressed against torch 2.13: classes of the refusals, tensor() of a DLPack-only
# object, torch.utils.dlpack
from ttgen import run_both, check_results

class _OnlyDLPack:
    "An object with __dlpack__/__dlpack_device__ and nothing else."
    def __init__(self, a): self.a = a
    def __dlpack__(self, *args, **kw): return self.a.__dlpack__(*args, **kw)
    def __dlpack_device__(self): return self.a.__dlpack_device__()

def _producers(lib):
    rng = np.random.default_rng(0)
    base = rng.standard_normal((3, 4, 5))
    yield 'np cols', lambda: base[:, ::2, 1:]
    yield 'np transposed', lambda: base.transpose(2, 0, 1)
    yield 'np 0-d', lambda: np.array(2.5, dtype=np.float32)
    yield 'np bool', lambda: np.array([[True], [False]])
    yield 'np empty', lambda: np.zeros((0, 3), np.int16)
    yield 'torch transposed', lambda: torch.arange(6.).reshape(2, 3).t()
    yield 'torch sliced int', lambda: torch.arange(24, dtype=torch.int32).reshape(4, 6)[1:, ::3]

@pytest.mark.parametrize('fn', ['tensor', 'tensor_f32', 'as_tensor', 'as_tensor_f64'])
def test_tensor_of_dlpack_only_object(fn):
    bad = []
    for name, mk in _producers(None):
        def run(L):
            x = _OnlyDLPack(mk())
            if fn == 'tensor': return L.tensor(x)
            if fn == 'tensor_f32': return L.tensor(x, dtype=L.float32)
            if fn == 'as_tensor': return L.as_tensor(x)
            return L.as_tensor(x, dtype=L.float64)
        m = check_results(*run_both(lambda: run(tt), lambda: run(torch)), 'add', ctx=f'{fn} {name}')
        if m: bad.append(m)
    assert not bad, bad

def test_as_tensor_of_dlpack_only_object_shares():
    a = np.arange(12.).reshape(3, 4)[:, ::2]
    t = tt.as_tensor(_OnlyDLPack(a))
    assert t.data_ptr() == a.ctypes.data and t.stride() == (4, 2)
    c = tt.tensor(_OnlyDLPack(a))
    assert c.data_ptr() != a.ctypes.data and c.stride() == torch.tensor(_OnlyDLPack(a)).stride()

@pytest.mark.parametrize('obj', [[1, 2], 3, 'x', None, (1,)])
def test_from_dlpack_of_non_producer(obj):
    r = run_both(lambda: tt.from_dlpack(obj), lambda: torch.from_dlpack(obj))
    assert isinstance(r[1], Exception) and type(r[0]) is type(r[1]), r

def test_meta_refusals():
    for f in (lambda L: L.empty(2, device='meta').__dlpack_device__(), lambda L: L.empty(2, device='meta').__dlpack__()):
        r = run_both(lambda: f(tt), lambda: f(torch))
        assert isinstance(r[1], Exception) and type(r[0]) is type(r[1]), r

def test_utils_dlpack():
    import tinytensor.utils.dlpack as tdl
    import torch.utils.dlpack as thdl
    for name in ('to_dlpack', 'from_dlpack', 'DLDeviceType'): assert hasattr(tdl, name), name
    assert dict(tdl.DLDeviceType.__members__.items()).keys() == dict(thdl.DLDeviceType.__members__.items()).keys()
    assert {k: int(v) for k, v in tdl.DLDeviceType.__members__.items()} == \
        {k: int(v) for k, v in thdl.DLDeviceType.__members__.items()}
    for dt in DTYPES:
        x = tt.arange(6).to(dt).reshape(2, 3).t()
        cap = tdl.to_dlpack(x)
        assert 'dltensor' in repr(cap) and 'versioned' not in repr(cap)   # a legacy capsule, as torch's _to_dlpack
        y = thdl.from_dlpack(cap)                                            # torch consumes ours
        assert y.stride() == x.stride() and y.data_ptr() == x.data_ptr()
        z = tdl.from_dlpack(thdl.to_dlpack(y))                               # and we consume torch's
        assert z.stride() == x.stride() and z.data_ptr() == x.data_ptr()
        del y, z, cap
    r = run_both(lambda: tdl.to_dlpack([1]), lambda: thdl.to_dlpack([1]))
    assert type(r[0]) is type(r[1]) is TypeError
