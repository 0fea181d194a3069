"""A host-memory stand-in for CUDA, for machines without a GPU (tests and `tools/api_coverage.py --device cuda`).

"cuda" storages come from chapter 07's `DeviceCachingAllocator` over a backend that hands out real host memory.
Everything above the memory (device indices, the allocator front, statistics, streams and the allocator's stream
rules, copies between devices, mixed-device errors, printing, serialization tags) is the code a GPU runs.

Kernels see `StandinArray`s, not numpy arrays, and `xp` is a strict stand-in for the `cupy` module. Both refuse
what CuPy refuses, as CuPy's own source does (`cupy/_core/core.pyx`, `cupy/_core/_kernel.pyx`, and the list of
ufuncs and ufunc methods in `docs/source/reference/ufunc.rst`):

* a `StandinArray` is not an `np.ndarray`; `np.asarray(a)` raises CuPy's `TypeError` ("Implicit conversion to a
  NumPy array is not allowed"); `.get()` / `xp.asnumpy` are the explicit copies;
* a ufunc refuses a numpy array operand, a 0-d one too (`TypeError: Unsupported type <class 'numpy.ndarray'>`);
  Python and numpy scalars are fine;
* ufuncs take no `where=`; `np.add.at(a, ix, v)` reaches CuPy only with an array index, not a tuple of them
  (`cupy.add.at`, CuPy's own ufunc, takes both);
* `take` has no `mode=`; `min`/`max`/`amin`/`amax` with `out=` fail on CuPy 14 (its CUB segmented reduction passes
  `out` on as `dtype`), so kernels reduce into a new array and copy;
* `ufunc.reduce` / `accumulate` exist for add and multiply only, `reduceat` for add, `at` for add, maximum and
  minimum (`NotImplementedError: `cupy_maximum.reduce` is not supported yet`); ufuncs CuPy lacks are missing;
* numpy functions CuPy lacks are missing (`np.f(a)` raises numpy's TypeError for an unhandled `__array_function__`);
  the others refuse numpy array arguments;
* results of reductions and scalar indexing are 0-d arrays on the device, never numpy scalars;
* `a[...] = v` refuses a numpy array `v` with dimensions (ValueError: "non-scalar numpy.ndarray cannot be used for fill").
* no array of a type CuPy lacks can be made (float8, complex32: `ValueError: Unsupported dtype`); the backend holds such
  tensors as chapter 07b's `PayloadArray`s over unsigned payloads, as the CuPy backend does.

The values are computed with numpy on the host memory underneath, so CuPy's numerics (float16 rounding,
`nextafter` near the smallest normal) are not modelled: those need a GPU."""
import ctypes, itertools, types
import numpy as np
from tinytensor.allocator import DeviceType, Device, alloc_cpu, free_cpu
from tinytensor.backends import register_backend
from tinytensor.storage import bytes_of
from tinytensor.cuda import caching_allocator as ca
from tinytensor.cuda.tensors import CUDABackend, CUPY_LACKS, PayloadArray

IMPLICIT = "Implicit conversion to a NumPy array is not allowed. Please use `.get()` to construct a NumPy array explicitly."

# docs/source/reference/ufunc.rst ("Available ufuncs"), by numpy ufunc __name__
UFUNCS = frozenset("""
    add subtract multiply matmul divide logaddexp logaddexp2 true_divide floor_divide negative positive power
    float_power remainder fmod divmod absolute fabs rint sign heaviside conjugate exp exp2 log log2 log10 expm1 log1p
    sqrt square cbrt reciprocal gcd lcm sin cos tan arcsin arccos arctan arctan2 hypot sinh cosh tanh arcsinh arccosh
    arctanh degrees radians deg2rad rad2deg bitwise_and bitwise_or bitwise_xor invert left_shift right_shift greater
    greater_equal less less_equal not_equal equal logical_and logical_or logical_xor logical_not maximum minimum fmax
    fmin isfinite isinf isnan signbit copysign nextafter modf ldexp frexp floor ceil trunc""".split())
# cupy/_core/_kernel.pyx: ufunc.reduce / accumulate / reduceat / at
UFUNC_METHODS = {'reduce': {'add', 'multiply'}, 'accumulate': {'add', 'multiply'}, 'reduceat': {'add'},
                 'at': {'add', 'maximum', 'minimum'}, 'outer': UFUNCS}
# numpy functions (dispatched through __array_function__) that CuPy does not have
MISSING = frozenset("""
    msort frompyfunc vectorize nditer nested_iters fromiter busday_count busday_offset is_busday
    isnat datetime_as_string unique_all unique_counts unique_inverse unique_values cumulative_sum cumulative_prod
    trapezoid bitwise_count matvec vecmat vecdot""".split())


class _Flags:
    __slots__ = ('c_contiguous', 'f_contiguous', 'owndata')
    def __init__(self, a):
        self.c_contiguous, self.f_contiguous, self.owndata = a.flags.c_contiguous, a.flags.f_contiguous, a.flags.owndata
    def __getitem__(self, k): return getattr(self, k.lower())


def _unsupported(x): raise TypeError(f"Unsupported type {type(x)}")

def _scalar_ok(x) -> bool:
    return isinstance(x, (bool, int, float, complex, np.generic))

def _in(x):
    "A ufunc operand: a stand-in array's numpy array, or a scalar; anything else raises CuPy's TypeError."
    if isinstance(x, StandinArray): return x._a
    if x is None or _scalar_ok(x): return x
    _unsupported(x)

def _arg(x):
    "A function argument: stand-in arrays unwrapped, numpy arrays refused, containers walked."
    if isinstance(x, StandinArray): return x._a
    if isinstance(x, np.ndarray): raise TypeError(f"Unsupported type {type(x)}: a numpy array given to a CuPy function")
    if isinstance(x, (list, tuple)) and any(isinstance(v, (StandinArray, np.ndarray)) for v in x): return type(x)(_arg(v) for v in x)
    return x

def _out(r):
    "Wrap numpy results as device arrays (0-d for scalars, as CuPy returns)."
    if isinstance(r, np.ndarray): return StandinArray(r)
    if isinstance(r, np.generic): return StandinArray(np.asarray(r))
    if isinstance(r, tuple): return tuple(_out(v) for v in r)
    if isinstance(r, list): return [_out(v) for v in r]
    return r


def _ufunc(uf, method:str, inputs, kw, direct:bool=False):
    name = uf.__name__
    if name not in UFUNCS: raise TypeError(f"CuPy has no ufunc {name!r}")
    if method == 'at' and not direct and isinstance(inputs[1], tuple):   # `np.add.at(a, (i, slice))`: `__array_ufunc__`
        raise TypeError                                                     # takes no tuple (`cupy.add.at` does)(f"operand type(s) all returned NotImplemented from __array_ufunc__({uf!r}, 'at', ...): 'ndarray'")
    if 'where' in kw: raise TypeError(f"Wrong arguments {{'where': {kw['where']!r}}}")     # CuPy's ufuncs take no `where=`
    if method != '__call__' and name not in UFUNC_METHODS.get(method, ()):
        raise NotImplementedError(f"`cupy_{name}.{method}` is not supported yet")
    if method == 'at':
        a, idx, *b = inputs
        if not isinstance(a, StandinArray): _unsupported(a)
        idx = tuple(_arg(i) for i in idx) if isinstance(idx, tuple) else _arg(idx)
        uf.at(a._a, idx, *[_in(v) for v in b])
        return None
    args = [_in(x) for x in inputs]
    out = kw.get('out')
    if out is not None:
        outs = out if isinstance(out, tuple) else (out,)
        for o in outs:
            if o is not None and not isinstance(o, StandinArray): _unsupported(o)
        kw = dict(kw, out=tuple(None if o is None else o._a for o in outs))
        if method in ('reduce', 'accumulate', 'reduceat'): kw['out'] = kw['out'][0]
    r = getattr(uf, method)(*args, **kw) if method != '__call__' else uf(*args, **kw)
    if out is not None: return out if isinstance(out, tuple) and len(out) > 1 else (out[0] if isinstance(out, tuple) else out)
    return _out(r)


# CuPy's types (`cupy/_core/_dtype.pyx`, `all_type_chars`): an array of any other (float8, complex32) cannot be made
# ("ValueError: Unsupported dtype"). bfloat16 is let through: the stand-in has no chapter 07c kernels to model it with.
CUPY_TYPE_CHARS = frozenset('?bhilqBHILQefdFD')

def _check_dtype(dt):
    if dt.char not in CUPY_TYPE_CHARS and dt.name != 'bfloat16': raise ValueError(f"Unsupported dtype {dt}")


class StandinArray:
    "A device array of the stand-in: numpy's values behind CuPy's rules (not an `np.ndarray`)."
    __slots__ = ('_a', '__weakref__')
    __array_priority__ = 100
    def __init__(self, a:np.ndarray):
        _check_dtype(a.dtype)
        self._a = a
    # --- what CuPy refuses
    def __array__(self, *a, **k): raise TypeError(IMPLICIT)
    def __array_ufunc__(self, uf, method, *inputs, **kw): return _ufunc(uf, method, inputs, kw)
    def __array_function__(self, func, types_, args, kwargs):
        name = func.__name__
        if name in MISSING: return NotImplemented
        _refused(name, kwargs)
        return _out(func(*[_arg(a) for a in args], **{k: _arg(v) for k, v in kwargs.items()}))
    # --- the explicit copies
    def get(self, stream=None, order='C', out=None): return self._a.copy()
    def tolist(self): return self._a.tolist()
    def item(self, *a): return self._a.item(*a)
    def __float__(self): return float(self._a)
    def __int__(self): return int(self._a)
    def __complex__(self): return complex(self._a)
    def __bool__(self): return bool(self._a)
    def __index__(self): return self._a.__index__()
    def __len__(self): return len(self._a)
    def __iter__(self): return (_out(v) for v in self._a)
    def __repr__(self): return 'standin:' + repr(self._a)
    # --- attributes
    shape = property(lambda s: s._a.shape)
    strides = property(lambda s: s._a.strides)
    dtype = property(lambda s: s._a.dtype)
    ndim = property(lambda s: s._a.ndim)
    size = property(lambda s: s._a.size)
    itemsize = property(lambda s: s._a.itemsize)
    nbytes = property(lambda s: s._a.nbytes)
    flags = property(lambda s: _Flags(s._a))
    base = property(lambda s: None if s._a.base is None else StandinArray(s._a.base) if isinstance(s._a.base, np.ndarray) else None)
    T = property(lambda s: StandinArray(s._a.T))
    mT = property(lambda s: StandinArray(s._a.mT))
    real = property(lambda s: StandinArray(s._a.real), lambda s, v: s._a.real.__setitem__(Ellipsis, _in(v)))
    imag = property(lambda s: StandinArray(s._a.imag), lambda s, v: s._a.imag.__setitem__(Ellipsis, _in(v)))
    # --- indexing (CuPy takes numpy index arrays, copying them to the device)
    def __getitem__(self, idx): return _out(self._a[_index(idx)])
    def __setitem__(self, idx, v):
        if isinstance(v, np.ndarray) and v.ndim: raise ValueError("non-scalar numpy.ndarray cannot be used for fill")   # CuPy's
        self._a[_index(idx)] = v._a if isinstance(v, StandinArray) else v
    # --- methods of cupy.ndarray
    def _m(name):
        def f(self, *a, **k):
            _refused(name, k)
            return _out(getattr(self._a, name)(*[_arg(v) for v in a], **{kk: _arg(vv) for kk, vv in k.items()}))
        f.__name__ = name
        return f
    for _n in ('astype copy reshape view transpose ravel flatten squeeze swapaxes diagonal take repeat clip conj '
               'conjugate round sum prod max min argmax argmin mean var std all any cumsum cumprod nonzero dot '
               'argsort partition argpartition trace compress choose searchsorted').split():
        locals()[_n] = _m(_n)
    del _n, _m
    def fill(self, v): self._a.fill(_in(v))
    def sort(self, axis=-1, kind=None): self._a.sort(axis, kind='stable')
    # --- operators go through the ufuncs, so they refuse what the ufuncs refuse
    def __neg__(self): return np.negative(self)
    def __pos__(self): return np.positive(self)
    def __abs__(self): return np.absolute(self)
    def __invert__(self): return np.invert(self)

def _binop(uf):
    return (lambda s, o: uf(s, o)), (lambda s, o: uf(o, s)), (lambda s, o: uf(s, o, out=s))
for _name, _uf in [('add', np.add), ('sub', np.subtract), ('mul', np.multiply), ('truediv', np.true_divide),
                   ('floordiv', np.floor_divide), ('mod', np.remainder), ('pow', np.power), ('and', np.bitwise_and),
                   ('or', np.bitwise_or), ('xor', np.bitwise_xor), ('lshift', np.left_shift), ('rshift', np.right_shift),
                   ('matmul', np.matmul)]:
    f, r, i = _binop(_uf)
    setattr(StandinArray, f'__{_name}__', f); setattr(StandinArray, f'__r{_name}__', r); setattr(StandinArray, f'__i{_name}__', i)
for _name, _uf in [('lt', np.less), ('le', np.less_equal), ('gt', np.greater), ('ge', np.greater_equal),
                   ('eq', np.equal), ('ne', np.not_equal)]:
    setattr(StandinArray, f'__{_name}__', (lambda uf: lambda s, o: uf(s, o))(_uf))
StandinArray.__hash__ = None


def _index(idx):
    if isinstance(idx, tuple): return tuple(_index(i) for i in idx)
    if isinstance(idx, StandinArray): return idx._a
    if isinstance(idx, list) and any(isinstance(i, StandinArray) for i in idx): return [_index(i) for i in idx]
    return idx


class _Ufunc:
    "`xp.add` and friends: numpy's ufunc behind CuPy's operand rules and method list."
    def __init__(self, uf): self._uf, self.__name__, self.nin, self.nout = uf, uf.__name__, uf.nin, uf.nout
    def __call__(self, *a, **k): return _ufunc(self._uf, '__call__', a, k, True)
    def __getattr__(self, m):
        if m in UFUNC_METHODS: return lambda *a, **k: _ufunc(self._uf, m, a, k, True)
        raise AttributeError(m)
    def __repr__(self): return f"<standin ufunc 'cupy_{self.__name__}'>"


def _refused(name, kw):
    "What CuPy's functions refuse that numpy's take: `take(mode=)`; `min`/`max`/`amin`/`amax` with `out=`."
    if name == 'take' and 'mode' in kw: raise TypeError("take() got an unexpected keyword argument 'mode'")
    if name in ('min', 'max', 'amin', 'amax') and kw.get('out') is not None:   # CuPy 14's CUB segmented path
        raise TypeError(f"operand type(s) all returned NotImplemented from __array_ufunc__(<ufunc 'equal'>, '__call__', "
                        f"{kw['out']!r}, dtype(...)): 'ndarray', 'Float32DType'")

def _function(name, f):
    def g(*a, **k):
        _refused(name, k)
        return _out(f(*[_arg(v) for v in a], **{kk: _arg(vv) for kk, vv in k.items()}))
    g.__name__ = name
    return g

def _asarray(a, dtype=None, order=None, copy=None, blocking=False):
    "Host data to the device (numpy arrays allowed: this is the explicit copy)."
    if isinstance(a, StandinArray): return a if dtype is None or a.dtype == np.dtype(dtype) else a.astype(dtype)
    return StandinArray(np.array(a, dtype=dtype, copy=True))

def _asnumpy(a, stream=None, order='C', out=None, blocking=True):
    return a.get() if isinstance(a, StandinArray) else np.asarray(a)


class _Module(types.ModuleType):
    "The stand-in `cupy` module: numpy's functions with CuPy's argument rules; CuPy's missing ones are missing."
    ndarray = StandinArray
    def __getattr__(self, name):
        if name in UFUNCS: return _Ufunc(getattr(np, name))
        if name in MISSING or name.startswith('_'): raise AttributeError(f"module 'cupy' has no attribute {name!r}")
        f = getattr(np, name)
        if isinstance(f, np.ufunc): raise AttributeError(f"module 'cupy' has no attribute {name!r}")
        if isinstance(f, type) or not callable(f): return f          # dtypes, constants
        return _function(name, f)

xp = _Module('cupy_standin')
xp.asarray = xp.array = _asarray
xp.asnumpy = _asnumpy
xp.abs, xp.mod, xp.conj = _Ufunc(np.absolute), _Ufunc(np.remainder), _Ufunc(np.conjugate)
xp.bitwise_not = _Ufunc(np.invert)
def _as_strided(a, shape=None, strides=None):
    if not isinstance(a, StandinArray): _unsupported(a)
    return StandinArray(np.lib.stride_tricks.as_strided(a._a, shape, strides))
xp.lib = types.SimpleNamespace(stride_tricks=types.SimpleNamespace(as_strided=_as_strided))
xp.linalg = types.SimpleNamespace(norm=_function('norm', np.linalg.norm), matrix_power=_function('matrix_power', np.linalg.matrix_power))


class HostMemoryBackend(ca.SimulatedBackend):
    "Chapter 07's simulated backend with real host memory behind every segment (events complete on synchronize)."
    name = 'host'
    def __init__(self, capacity:int=1 << 30):
        super().__init__(capacity=capacity)
    def malloc(self, nbytes):
        n = (nbytes + self.alignment - 1) & -self.alignment
        if self.used + n > self.capacity: return None
        addr = alloc_cpu(n)
        self.used += n
        self._live[addr] = n
        return addr
    def free(self, addr):
        n = self._live.pop(addr)
        self.used -= n
        free_cpu(addr)


class HostCUDABackend(CUDABackend):
    "CUDA as seen by tinytensor, with host memory underneath and the strict CuPy stand-in `xp` to compute with."
    name, xp = 'host-standin', xp
    def __init__(self, ndev:int=2):
        super().__init__()
        self.ndev, self._handles = ndev, itertools.count(0x1000, 0x10)
    def is_available(self): return True
    def device_count(self): return self.ndev
    def memory_backend(self, i): return HostMemoryBackend()
    def array(self, st, dtype, shape, strides, offset, write=False):
        if write: st.mutable_data()
        dp = st.data_ptr()
        pay = CUPY_LACKS.get(dtype)          # CuPy has no such type: its bytes, as the CuPy backend does
        npd = pay or dtype.np
        a = (StandinArray(np.empty(shape, npd)) if not dp.get() else
             StandinArray(np.ndarray(shape, npd, bytes_of(dp, st.nbytes()), offset, strides)))
        return PayloadArray(a, dtype) if pay is not None else a
    def memcpy(self, dst, dst_device, src, src_device, nbytes):
        if nbytes: ctypes.memmove(dst, src, nbytes)
    def new_stream(self, i): return None, next(self._handles)
    def synchronize(self, device=None):
        for i, a in list(ca._allocators.items()):
            if device is None or device.index == i: a.backend.synchronize(None)


def install(ndev:int=2):
    "Register the stand-in as the CUDA backend, with a fresh caching allocator per device; returns what `uninstall` restores."
    old = register_backend(DeviceType.CUDA, HostCUDABackend(ndev))
    olds = {i: ca._allocators.pop(i, None) for i in range(ndev)}
    for i in range(ndev): ca.set_allocator(ca.DeviceCachingAllocator(HostMemoryBackend(), device=i), i)
    return old, olds


def uninstall(state):
    "Put back the CUDA backend and allocators that were there before `install`."
    old, olds = state
    register_backend(DeviceType.CUDA, old)
    for i, a in olds.items(): ca.set_allocator(a, i)


def cupy_ok() -> bool:
    "True where CuPy imports and sees an NVIDIA GPU: the `-m cuda` runs of the CUDA tests need one."
    try:
        import cupy
        return cupy.cuda.runtime.getDeviceCount() > 0
    except Exception: return False
