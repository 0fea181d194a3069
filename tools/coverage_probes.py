"""The probe machinery of tools/api_coverage.py: probe specs (T, D, F, NP, P), the device plumbing of --device cuda,
the comparison of two results and `run_probe`, which calls one probe on both libraries."""
import argparse, copy, enum, io, json, math, os, pickle, signal, sys, tempfile, time, warnings, zlib
import numpy as np
import torch
import torch.fx.experimental.symbolic_shapes    # torch's argument checks import sympy on first use (seconds): not inside a timed probe
import tinytensor as tt
from coverage_names import *
from coverage_names import _names

# ====================================================================== probe machinery

FLOAT_DTYPES = ('float16', 'bfloat16', 'float32', 'float64')
TOL = {'float16': (2e-3, 1e-3), 'bfloat16': (1.6e-2, 1e-2), 'float32': (2e-5, 1e-6), 'float64': (1e-12, 1e-13),
       'complex64': (2e-5, 1e-6), 'complex128': (1e-12, 1e-13)}
PROBE_SECONDS = 10          # a single probe taking longer than this counts as a failure

# ---------------------------------------------------------------- device plumbing (--device cuda)
# With --device cuda every probe tensor (T specs, and tensors that F specs build) is made on CUDA in both
# libraries, and a result's device is compared too. On a machine without a GPU tinytensor runs on the strict
# CuPy stand-in (tests/cuda_standin.py) and torch on the CPU: a tinytensor result must then be on cuda:0 where
# torch's is on the CPU and the probe had a tensor input.
DEVICE = {'tt': None, 'torch': None, 'standin': False}
_made_on_device = [0]

def use_device(device):
    "Build probe tensors on `device` ('cuda' or None); installs the CuPy stand-in when no GPU is there."
    if device is None: DEVICE.update(tt=None, torch=None, standin=False); return
    if not tt.cuda.is_available():
        sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'tests'))
        import cuda_standin
        cuda_standin.install(1)
        DEVICE.update(tt=device, torch='cpu', standin=True)
    else: DEVICE.update(tt=device, torch=device if torch.cuda.is_available() else 'cpu', standin=not torch.cuda.is_available())

def _dev(L): return DEVICE['tt'] if L is tt else DEVICE['torch']

def _to_dev(x, L):
    d = _dev(L)
    if d is None or not isinstance(x, (tt.Tensor, torch.Tensor)) or x.device.type == 'meta': return x
    _made_on_device[0] += 1
    return x.to(d)

_to_cpu = [False]


def _expected_device(torch_device) -> str:
    "The device a tinytensor result should have, given torch's (torch on the CPU stands for CUDA on the stand-in)."
    s = str(torch_device)
    if DEVICE['standin'] and s == 'cpu' and _made_on_device[0] and not _to_cpu[0]: return 'cuda:0'
    return 'cuda:0' if s == 'cuda' else s

def _asks_cpu(qual, probe) -> bool:
    "The probe moves its result to the host (`x.cpu()`, `x.to('cpu')`)."
    if qual in ('arange', 'range', 'linspace', 'logspace'):     # numbers in, a tensor of the default device out;
        return probe.fn is None                               # the out= probes (fn) write into the probe's device
    if qual == 'Tensor.type' and any(isinstance(a, str) and '.cuda.' not in a for a in probe.args[1:]): return True   # 'torch.XTensor'
    return qual == 'Tensor.cpu' or any(str(a) == 'cpu' for a in list(probe.args) + list(probe.kw.values()))

# On the stand-in, torch runs on the CPU; where torch's answer names the device, this is what torch on CUDA answers.
def _cuda_type(ra, rb, eb): return ra, (rb.replace('torch.', 'torch.cuda.', 1) if isinstance(rb, str) and 'cuda' not in rb else rb), eb
def _no_device_suffix(ra, rb, eb): return (ra.replace(", device='cuda:0'", '') if isinstance(ra, str) else ra), rb, eb
def _raises(exc, msg): return lambda ra, rb, eb: (ra, None, exc(msg))
CUDA_ANSWERS = {
    'Tensor.is_cuda': lambda ra, rb, eb: (ra, True, eb),
    'Tensor.get_device': lambda ra, rb, eb: (ra, 0, eb),
    'Tensor.type': _cuda_type,
    'Tensor.__repr__': _no_device_suffix, 'Tensor.__str__': _no_device_suffix, 'Tensor.__format__': _no_device_suffix,
    'Tensor.numpy': _raises(TypeError, "can't convert cuda:0 device type tensor to numpy"),    # (not with force=True)
    # ATen has no Half kernel for angle on CUDA ("angle_cuda" not implemented for 'Half')
    **{q: (lambda ra, rb, eb: (ra, None, NotImplementedError('"angle_cuda" not implemented for \'Half\'')) if isinstance(rb, torch.Tensor) and rb.dtype == torch.float16 else (ra, rb, eb))
       for q in ('angle', 'Tensor.angle')},
    # torch's CUDA nonzero returns the transpose of an (ndim, n) tensor: an empty one has strides (1, 1), not (1, 0)
    **{q: (lambda ra, rb, eb: (ra, rb.as_strided(rb.shape, (1, 1)) if isinstance(rb, torch.Tensor) and rb.dim() == 2 and rb.numel() == 0 else rb, eb))
       for q in ('nonzero', 'Tensor.nonzero', 'argwhere', 'Tensor.argwhere')},
    'Tensor.__array__': _raises(TypeError, "can't convert cuda:0 device type tensor to numpy"),
    'Tensor.__dlpack__': _raises(RuntimeError, 'Unsupported device in DLTensor.'),          # numpy cannot read CUDA memory
    'Tensor.__dlpack_device__': lambda ra, rb, eb: (ra, (type(rb[0])(2), 0) if rb else rb, eb),   # (kDLCUDA, 0)
}
# torch's CUDA build has no mul or abs kernel for the newer dtypes its CPU build computes (mul_cuda: uint16/32/64 and
# float8; abs_cuda: float8): where torch on the CPU returns one of them, torch on CUDA raises (chapter 07b's table)
_NEWER = {'uint16', 'uint32', 'uint64', 'float8_e4m3fn', 'float8_e4m3fnuz', 'float8_e5m2', 'float8_e5m2fnuz', 'float8_e8m0fnu'}
def _no_cuda_kernel(kernel, which):
    def answer(ra, rb, eb):
        if isinstance(rb, torch.Tensor) and str(rb.dtype)[6:] in which:
            return ra, None, NotImplementedError(f'"{kernel}" not implemented for {rb.dtype}')
        return ra, rb, eb
    return answer
CUDA_ANSWERS.update({q: _no_cuda_kernel('mul_cuda', _NEWER) for q in ('mul', 'multiply', 'Tensor.mul', 'Tensor.multiply',
                                                                       'Tensor.__mul__', 'Tensor.__rmul__')})
CUDA_ANSWERS.update({q: _no_cuda_kernel('abs_cuda', {n for n in _NEWER if n.startswith('float8')})
                     for q in ('abs', 'absolute', 'Tensor.abs', 'Tensor.absolute')})
_CPU_INDICES = ('tensor_split', 'Tensor.tensor_split')     # ATen checks that an index tensor is on the CPU
# cuBLAS has no integer or bool products: torch on CUDA raises NotImplementedError ("addmm_cuda" not implemented for 'Long')
INT_PRODUCTS = set(_names('''mm matmul bmm mv dot vdot inner addmm addmm_ addmv addmv_ addbmm addbmm_ baddbmm baddbmm_
    chain_matmul einsum tensordot matrix_power __matmul__ __rmatmul__ __imatmul__'''))

def _int_product(qual, probe, rb) -> bool:
    base = qual[7:] if qual.startswith('Tensor.') else qual
    if base not in INT_PRODUCTS or not isinstance(rb, torch.Tensor) or rb.dtype.is_floating_point or rb.dtype.is_complex: return False
    return not (base == 'matrix_power' and len(probe.args) > 1 and isinstance(probe.args[1], int) and probe.args[1] < 2)

def _np_dtype(name):
    if name == 'bfloat16':
        import ml_dtypes; return ml_dtypes.bfloat16
    return np.dtype(name)

def _contig(shape):
    st, acc = [0] * len(shape), 1
    for d in range(len(shape) - 1, -1, -1): st[d] = acc; acc *= max(shape[d], 1)
    return tuple(st)

class T:
    """A tensor both libraries build with the same values and the same layout.

    layout: 'c' contiguous, 'T' last two dims transposed (non-contiguous), 's' every other element of
    the last dim at storage offset 1, 'x' first dim expanded (stride 0). kind picks the values:
    '' (floats: normal*2 rounded to 2 decimals; ints in [-5, 5]; uint8 in [0, 9]; bools), 'nz' (no
    zeros), 'pos' (positive), 'unit' (in (-0.9, 0.9)), 'special' (nan, +-inf, +-0, ...), 'small' (ints 0..3)."""
    __slots__ = ('shape', 'dtype', 'layout', 'kind', 'seed', 'vals')
    def __init__(self, shape=(2, 3), dtype='float32', layout='c', kind='', seed=0, vals=None):
        if vals is not None: shape = np.array(vals).shape
        self.shape, self.dtype, self.layout, self.kind, self.seed, self.vals = tuple(shape), dtype, layout, kind, seed, vals
    def __repr__(self):
        if self.vals is not None: return f'{self.dtype}({np.array(self.vals).tolist()})'
        s = 'x'.join(map(str, self.shape)) or '()'
        return f'T[{s} {self.dtype}' + ('' if self.layout == 'c' else ' ' + {'T': 'transposed', 's': 'strided+offset', 'x': 'expanded'}[self.layout]) + (f' {self.kind}' if self.kind else '') + ']'
    def array(self):
        dt = _np_dtype(self.dtype)
        if self.vals is not None: return np.array(self.vals).astype(dt)
        n = int(np.prod(self.shape)) if self.shape else 1
        rng = np.random.default_rng(zlib.crc32(repr((self.shape, self.dtype, self.kind, self.seed)).encode()))
        k, d = self.kind, self.dtype
        if d == 'bool': v = rng.random(n) < 0.5
        elif d in FLOAT_DTYPES:
            if k == 'special':
                pat = np.array([np.nan, -np.inf, np.inf, -0.0, 0.0, 0.5, -1.5, 2.25, 1.0, -3.0, 7.5, -0.25])
                v = np.resize(pat, n)
            elif k == 'pos': v = np.round(rng.uniform(0.1, 4.0, n), 2)
            elif k == 'unit': v = np.round(rng.uniform(-0.9, 0.9, n), 2)
            elif k == 'small': v = rng.integers(0, 4, n).astype(np.float64)
            else:
                v = np.round(rng.standard_normal(n) * 2, 2)
                if k == 'nz': v[v == 0] = 0.5
        else:
            lo, hi = (0, 10) if d == 'uint8' else (-5, 6)
            if k in ('pos', 'nz') and d != 'uint8': lo = 1 if k == 'pos' else lo
            if k == 'small': lo, hi = 0, 4
            v = rng.integers(lo, hi, n)
            if k == 'nz': v[v == 0] = 1
        v = v.astype(np.float32).astype(dt) if d == 'bfloat16' else v.astype(dt)
        v = v.reshape(self.shape)
        if self.layout == 'x' and v.ndim: v = np.broadcast_to(v[:1], v.shape).copy()
        return v
    def make(self, L):
        arr, dt = self.array(), getattr(L, self.dtype)
        if _dev(L) is not None: _made_on_device[0] += 1
        if self.layout == 'c':
            if arr.size == 0: return L.empty(self.shape, dtype=dt, device=_dev(L))
            return L.tensor(arr.tolist(), dtype=dt, device=_dev(L))
        shape = self.shape
        if self.layout == 'T':
            buf = np.ascontiguousarray(np.swapaxes(arr, -1, -2)).ravel()
            st = list(_contig(shape[:-2] + (shape[-1], shape[-2]))); st[-1], st[-2] = st[-2], st[-1]
            off = 0
        elif self.layout == 's':
            phys = np.zeros(shape[:-1] + (2 * shape[-1],), dtype=arr.dtype)
            phys[..., ::2] = arr
            buf, off = np.concatenate([phys.ravel()[:1], phys.ravel()]), 1
            st = list(_contig(phys.shape)); st[-1] = 2
        else:   # 'x'
            buf, off = arr[0].ravel(), 0
            st = [0] + list(_contig(shape[1:]))
        base = L.tensor(buf.tolist(), dtype=dt, device=_dev(L)) if buf.size else L.empty((0,), dtype=dt, device=_dev(L))
        return L.as_strided(base, shape, tuple(st), off)

class D:
    "A dtype (or other library attribute) by name: tt.<name> / torch.<name>."
    __slots__ = ('name',)
    def __init__(self, name): self.name = name
    def __repr__(self): return self.name

class F:
    "Any value built by a function of the library module."
    __slots__ = ('fn', 'label')
    def __init__(self, fn, label): self.fn, self.label = fn, label
    def __repr__(self): return self.label

class NP:
    "A numpy array handed to both libraries (each gets a fresh copy)."
    __slots__ = ('arr',)
    def __init__(self, arr): self.arr = np.asarray(arr)
    def __repr__(self): return f'np.array({self.arr.tolist()}, {self.arr.dtype})'

def mat(v, L):
    "Materialize a probe argument for library `L` (the module tinytensor or torch)."
    if isinstance(v, T): return v.make(L)
    if isinstance(v, D): return getattr(L, v.name)
    if isinstance(v, F): return _to_dev(v.fn(L), L)
    if isinstance(v, NP): return v.arr.copy()
    if isinstance(v, list): return [mat(x, L) for x in v]
    if isinstance(v, tuple): return tuple(mat(x, L) for x in v)
    if isinstance(v, dict): return {k: mat(x, L) for k, x in v.items()}
    return v

class P:
    """One probe: positional args and keyword args (specs). For a method, args[0] is self.
    Options: fn= a custom callable fn(L, *args, **kw) run instead of the named op; attr=True reads
    the attribute instead of calling it; values=False skips value comparison (random or
    uninitialized results); tol=True/False forces the tolerance choice."""
    __slots__ = ('args', 'kw', 'fn', 'attr', 'values', 'tol', 'label')
    def __init__(self, *args, fn=None, attr=False, values=True, tol=None, label=None, **kw):
        self.args, self.kw, self.fn, self.attr, self.values, self.tol, self.label = args, kw, fn, attr, values, tol, label
    def show(self, qual):
        if self.label: return self.label
        a = [repr(x) for x in self.args] + [f'{k}={v!r}' for k, v in self.kw.items()]
        if self.fn: return f'{qual}: custom({", ".join(a)})'
        if qual.startswith('Tensor.'):
            n = qual[7:]
            return f'{a[0]}.{n}' if self.attr else f'{a[0]}.{n}({", ".join(a[1:])})'
        return f'{qual}({", ".join(a)})'
    def replace(self, **ch):
        p = P.__new__(P)
        for s in P.__slots__: setattr(p, s, ch.get(s, getattr(self, s)))
        return p

# ---------------------------------------------------------------------- comparison
def _builtin_base(e):
    for c in type(e).__mro__:
        if c.__module__ == 'builtins': return c.__name__
    return type(e).__name__

def _short(e, n=160):
    s = f'{type(e).__name__}: {e}'.replace('\n', ' ')
    return s if len(s) <= n else s[:n] + '...'

def _tensor_info(x):
    # the conjugate and negative bits: compared apart (last field), the values read resolved
    bits = (x.is_conj(), x.is_neg()) if hasattr(x, 'is_neg') else (False, False)
    geometry = tuple(x.shape), tuple(x.stride()), x.storage_offset()
    if bits != (False, False): x = x.resolve_conj().resolve_neg()
    if not isinstance(x, torch.Tensor):
        name = x.dtype.name if hasattr(x.dtype, 'name') else str(x.dtype).split('.')[-1]
        meta = getattr(x, 'is_meta', False)
        # bfloat16 and float8 have no numpy dtype: widened (exactly) first
        v = None if meta else np.asarray((x.cpu().double() if name == 'bfloat16' or name.startswith('float8')
                                          else x.cpu().cdouble() if name == 'complex32' else x.cpu()).numpy())
    else:
        name = str(x.dtype).replace('torch.', '')
        h = x.detach().cpu() if x.device.type not in ('cpu', 'meta') else x.detach()
        v = None if x.device.type == 'meta' else (h.double().numpy() if name in ('bfloat16', 'float16') or name.startswith('float8')
                                                  else h.cdouble().numpy() if name == 'complex32' else h.numpy())
    if v is not None and name in ('bfloat16', 'float16'): v = v.astype(np.float64)
    return geometry + (name, v, str(x.device), bits)

def tensor_diff(a, b, tol, values=True):
    "None if tinytensor tensor `a` matches torch tensor `b`, else what differs."
    try: sa = _tensor_info(a)
    except Exception as e: return f'could not read the tinytensor result ({_short(e)})'
    sb = _tensor_info(b)
    if sa[0] != sb[0]: return f'shape {sa[0]} != torch {sb[0]}'
    if sa[3] != sb[3]: return f'dtype {sa[3]} != torch {sb[3]}'
    if sa[1] != sb[1]: return f'strides {sa[1]} != torch {sb[1]}'
    if sa[2] != sb[2]: return f'storage_offset {sa[2]} != torch {sb[2]}'
    if sa[6] != sb[6]: return f'(is_conj, is_neg) {sa[6]} != torch {sb[6]}'
    if DEVICE['tt'] is not None and sa[5] != _expected_device(sb[5]): return f'device {sa[5]} != {_expected_device(sb[5])} (torch: {sb[5]})'
    if not values or sa[4] is None or sb[4] is None: return None
    x, y = np.asarray(sa[4]), np.asarray(sb[4])
    if y.dtype.kind in 'fc':
        wide = np.complex128 if y.dtype.kind == 'c' else np.float64       # complex: both parts are compared
        x64, y64 = x.astype(wide), y.astype(wide)
        if tol and sa[3] in TOL:
            rt, at = TOL[sa[3]]
            ok = np.isclose(x64, y64, rtol=rt, atol=at, equal_nan=True)
        else:
            ok = (x64 == y64) | (np.isnan(x64) & np.isnan(y64))
            if ok.all() and wide is np.float64:
                z = ~np.isnan(x64) & (np.signbit(x64) != np.signbit(y64))
                if z.any(): return f'sign of zero differs: {x64[z][:4].tolist()} vs torch {y64[z][:4].tolist()}'
        if not ok.all():
            return f'values differ{" (beyond tolerance)" if tol else " (exact comparison)"}: {x64[~ok][:4].tolist()} vs torch {y64[~ok][:4].tolist()}'
        return None
    if not np.array_equal(x, y): return f'values differ: {x.ravel()[:6].tolist()} vs torch {y.ravel()[:6].tolist()}'
    return None

def _norm_str(s): return s.replace('tinytensor', 'torch')

def diff(a, b, tol, values=True):
    "None if the tinytensor result `a` matches the torch result `b` (any type), else what differs."
    if isinstance(b, torch.Tensor):
        if not isinstance(a, tt.Tensor): return f'returned {type(a).__name__}, torch returned a Tensor'
        return tensor_diff(a, b, tol, values)
    if isinstance(b, torch.Size):
        if not isinstance(a, tuple): return f'returned {type(a).__name__}, torch returned torch.Size'
        return None if tuple(a) == tuple(b) else f'{tuple(a)} != torch {tuple(b)}'
    if isinstance(b, torch.device) and DEVICE['tt'] is not None:
        return None if str(a) == _expected_device(b) else f'{a} != {_expected_device(b)} (torch: {b})'
    if isinstance(b, (torch.dtype, torch.device, torch.memory_format, torch.layout)):
        return None if _norm_str(str(a)) == str(b) else f'{a} != torch {b}'
    if isinstance(b, torch.UntypedStorage):
        if not isinstance(a, tt.UntypedStorage): return f'returned {type(a).__name__}, torch returned UntypedStorage'
        return None if a.nbytes() == b.nbytes() else f'storage nbytes {a.nbytes()} != torch {b.nbytes()}'
    if isinstance(b, (tuple, list)):
        if not isinstance(a, (tuple, list)): return f'returned {type(a).__name__}, torch returned {type(b).__name__}'
        if isinstance(b, list) != isinstance(a, list): return f'returned a {type(a).__name__}, torch returned a {type(b).__name__}'
        if len(a) != len(b): return f'{len(a)} results != torch {len(b)}'
        fields = getattr(type(b), '__match_args__', None) if type(b).__module__ == 'torch.return_types' else None
        for i, (x, y) in enumerate(zip(a, b)):
            if fields:
                if not hasattr(a, fields[i]): return f'result has no field .{fields[i]} (torch returns a named tuple {fields})'
            m = diff(x, y, tol, values)
            if m: return f'[{fields[i] if fields else i}] {m}'
        return None
    if isinstance(b, np.ndarray):
        if not isinstance(a, np.ndarray): return f'returned {type(a).__name__}, torch returned ndarray'
        if a.dtype != b.dtype or a.shape != b.shape: return f'ndarray {a.dtype}{a.shape} != torch {b.dtype}{b.shape}'
        ok = np.array_equal(a, b, equal_nan=a.dtype.kind in 'fc')
        return None if ok or not values else f'ndarray values differ: {a.ravel()[:6].tolist()} vs {b.ravel()[:6].tolist()}'
    if b is None: return None if a is None else f'returned {type(a).__name__}, torch returned None'
    if isinstance(b, enum.Enum):
        return None if getattr(a, 'name', None) == b.name and a == b.value else f'{a!r} != torch {b!r}'
    if isinstance(b, (bool, int, float, complex)):
        if type(a) is not type(b): return f'returned {type(a).__name__} {a!r}, torch returned {type(b).__name__} {b!r}'
        if not values or a == b or (isinstance(b, float) and math.isnan(b) and math.isnan(a)): return None
        if tol and isinstance(b, float) and math.isclose(a, b, rel_tol=1e-5, abs_tol=1e-6): return None
        return f'{a!r} != torch {b!r}'
    if isinstance(b, str):
        return None if _norm_str(a) == b or not values else f'{a!r} != torch {b!r}'
    if isinstance(b, torch.dtype): return None
    return None if type(a).__name__ == type(b).__name__ else f'returned {type(a).__name__}, torch returned {type(b).__name__}'

def _tensors(v, L):
    cls = tt.Tensor if L is tt else torch.Tensor
    if isinstance(v, cls): return [v]
    if isinstance(v, (list, tuple)): return [t for x in v for t in _tensors(x, L)]
    if isinstance(v, dict): return [t for x in v.values() for t in _tensors(x, L)]
    return []

def _aliases(res, inputs):
    "For each tensor result: does it share storage with the first input tensor (a view)?"
    out = []
    if not inputs: return out
    try: base = inputs[0].untyped_storage(); bp, bn = base.data_ptr(), base.nbytes()
    except Exception: return out
    for r in _tensors(res, tt if isinstance(inputs[0], tt.Tensor) else torch):
        try: out.append(bn > 0 and r.untyped_storage().data_ptr() == bp)
        except Exception: out.append(None)
    return out

class _Timeout(Exception): pass
def _alarm(sig, frame): raise _Timeout(f'probe took more than {PROBE_SECONDS}s')

def _call(L, qual, probe):
    _made_on_device[0] = 0
    try: args, kw = mat(probe.args, L), mat(probe.kw, L)
    except NotImplementedError as e: return ([], {}), None, e     # an input the device cannot hold (complex32 on CuPy)
    snap = (list(args), dict(kw))
    try:
        with warnings.catch_warnings():
            warnings.simplefilter('ignore')
            if probe.fn: res = probe.fn(L, *args, **kw)
            elif qual.startswith('Tensor.'):
                a = getattr(args[0], qual[7:])
                res = a if probe.attr else a(*args[1:], **kw)
            else: res = getattr(L, qual)(*args, **kw)
        return snap, res, None
    except _Timeout: raise
    except Exception as e: return snap, None, e

# torch on a GPU checks an index inside the kernel: a bad one is a device-side assert, and after it every CUDA call of
# the process fails ("device-side assert triggered"). So on a GPU each probe runs torch on the CPU first; where that
# raises, its exception is torch's answer and the CUDA kernel is never launched with the bad input. (tinytensor checks
# indices on the host before it launches, so it raises what torch on the CPU raises.)
def _torch_call(qual, probe):
    if DEVICE['torch'] == 'cuda':
        DEVICE['torch'] = None
        try: host = _call(torch, qual, probe)
        finally: DEVICE['torch'] = 'cuda'
        if host[2] is not None: return host
    return _call(torch, qual, probe)

_CUPY_LACKS = {torch.complex32, torch.float8_e4m3fn, torch.float8_e4m3fnuz, torch.float8_e5m2,
               torch.float8_e5m2fnuz, torch.float8_e8m0fnu}

def run_probe(qual, probe, tol):
    "None if tinytensor and torch agree on this probe, else a precise reason."
    tol = probe.tol if probe.tol is not None else tol
    old = signal.signal(signal.SIGALRM, _alarm); signal.setitimer(signal.ITIMER_REAL, PROBE_SECONDS)
    try:
        try: (a_args, a_kw), ra, ea = _call(tt, qual, probe)
        except _Timeout as e: return f'tinytensor: {e}'
        (b_args, b_kw), rb, eb = _torch_call(qual, probe)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0); signal.signal(signal.SIGALRM, old)
    if DEVICE['tt'] is not None:
        _to_cpu[0] = _asks_cpu(qual, probe)
        if DEVICE['standin'] and qual in CUDA_ANSWERS and _made_on_device[0] and not (qual == 'Tensor.numpy' and probe.kw.get('force')):
            ra, rb, eb = CUDA_ANSWERS[qual](ra, rb, eb)
        if DEVICE['standin'] and qual in _CPU_INDICES and any(isinstance(a, T) for a in probe.args[1:]):
            rb, eb = None, RuntimeError('tensor_split expected tensor_indices_or_sections to be on cpu')
        if DEVICE['standin'] and _to_cpu[0] and isinstance(rb, torch.Tensor) and rb is (_tensors([b_args, b_kw], torch) or [None])[0]:
            rb = rb.to('cpu', copy=True)                       # torch on CUDA copies to the host (preserving a dense layout)
        if DEVICE['standin'] and eb is None and _made_on_device[0] and _int_product(qual, probe, rb):
            rb, eb = None, NotImplementedError('"addmm_cuda" not implemented for an integer dtype')
        # CuPy has no complex32 and no float8: tinytensor moves their bytes on the GPU but refuses to compute
        # with them (chapter 07b, Note [Dtypes CuPy lacks]), where torch's CUDA build computes
        if DEVICE['standin'] and eb is None and isinstance(ea, NotImplementedError) and _made_on_device[0] and any(
                t.dtype in _CUPY_LACKS for t in _tensors([b_args, b_kw, rb], torch)):
            rb, eb = None, NotImplementedError('a dtype CuPy lacks, on the GPU')
    if eb is not None:
        if ea is None: return f'torch raises {_short(eb)}; tinytensor returned {type(ra).__name__}'
        if _builtin_base(ea) != _builtin_base(eb): return f'exception {_short(ea)} != torch {_short(eb)}'
        return None
    if ea is not None: return f'tinytensor raises {_short(ea)}'
    try:
        m = diff(ra, rb, tol, probe.values)
        if m: return m
        _to_cpu[0] = False                                     # the inputs stay where they were
        ia, ib = _tensors([a_args, a_kw], tt), _tensors([b_args, b_kw], torch)
        if len(ia) == len(ib):
            for i, (x, y) in enumerate(zip(ia, ib)):          # inputs after the call (mutations)
                m = tensor_diff(x, y, tol, probe.values)
                if m: return f'input #{i} after the call: {m}'
        if not probe.fn and not probe.attr and not (DEVICE['standin'] and _asks_cpu(qual, probe)):   # torch CUDA: a new tensor
            if ib and (rb is ib[0]) != (ra is (ia[0] if ia else None)):
                return 'torch returns self (the same Tensor object)' if rb is ib[0] else 'returns self, torch returns a new Tensor'
            al_a, al_b = _aliases(ra, ia), _aliases(rb, ib)
            if len(al_a) == len(al_b):
                for i, (x, y) in enumerate(zip(al_a, al_b)):
                    if x is not None and x != y:
                        return f'result{"" if len(al_b) == 1 else f" #{i}"} ' + ('is a view of the input (shares storage), torch returns a copy' if x else 'is a copy, torch returns a view of the input (shares storage)')
    except Exception as e: return f'comparison failed: {_short(e)}'
    return None
