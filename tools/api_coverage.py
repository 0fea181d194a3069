"""Measure how much of torch's everyday tensor API tinytensor has, and how much of it matches torch.

Usage: python tools/api_coverage.py [--json out.json] [--verbose] [--only NAME ...] [--selfcheck] [--device cuda] [--jobs N]
(with PYTHONPATH pointing at the checkout to measure). --only measures a few names (`add`,
`Tensor.add_`, `Tensor.__getitem__`); --selfcheck runs every probe with torch on both sides, which
must all match (it guards the recipes against random or uninitialized values).

For every name in the list below: presence (`hasattr(tt, name)` for torch functions,
`hasattr(tt.Tensor, name)` for Tensor methods and attributes), then, for present names, probes:
the same call on tinytensor and torch with the same inputs, comparing shape, strides,
storage_offset, dtype, values (exact for integers, bools and non-transcendental float results;
a tight tolerance for transcendental floats, float reductions and products), the exception class
when torch raises, the state of the inputs after the call (mutations), whether the result is a
view of the input, and whether an in-place method returns self. A name matches only if every
probe matches.

The name list (data, grouped by category) and where the names come from (so the list is not hand-picked):

* torch functions: PyTorch's own API reference page `docs/source/torch.md` (formerly `torch.rst`;
  read from the pytorch/pytorch repository), sections "Creation Ops" (with the random-sampling
  creation ops that its note names: rand, rand_like, randn, randn_like, randint, randint_like,
  randperm), "Indexing, Slicing, Joining, Mutating Ops", "Pointwise Ops", "Reduction Ops",
  "Comparison Ops", and, from "Other Operations" and "BLAS and LAPACK Operations", only the
  shape helpers, scans, sorting helpers, elementwise helpers and basic products (the rule is
  spelled out in OTHER_KEPT / BLAS_KEPT below). From the "Tensors" and "Utilities" sections:
  the tensor predicates and the dtype helpers (dtype/device conversion and attributes).
* Tensor methods and attributes: `docs/source/tensors.md` (formerly `tensors.rst`), the
  "Tensor class reference" autosummary, plus the attributes it documents with autoattribute
  (T, H, mT, mH). A method joins the category of the torch function of the same name; an
  in-place variant `f_` of an out-of-place `f` goes to the category "inplace"; the methods
  with no torch function counterpart are classified in TENSOR_ONLY.
* Python-object protocols: the dunder methods that `torch.Tensor` defines itself
  (`dir(torch.Tensor)` in torch 2.13: torch/_tensor.py and torch._C.TensorBase), minus Python's
  class machinery.

Exclusions (names that cannot apply to a CPU tensor library without autograd, quantization,
sparse layouts, complex numbers or LAPACK) are listed with their reason in EXCLUDED, so every
name of the sections above is either measured or excluded for a stated reason.
"""
import argparse, copy, enum, io, json, math, os, pickle, signal, sys, tempfile, time, warnings, zlib
import numpy as np
import torch
import torch.fx.experimental.symbolic_shapes    # torch's argument checks import sympy on first use (seconds): not inside a timed probe
import tinytensor as tt


def _names(s): return s.split()

# ---------------------------------------------------------------- torch.md sections (torch functions)
CREATION = _names("""
    tensor asarray as_tensor as_strided from_file from_numpy from_dlpack frombuffer
    zeros zeros_like ones ones_like arange range linspace logspace eye empty empty_like
    empty_strided full full_like heaviside
    rand rand_like randn randn_like randint randint_like randperm""")

INDEXING = _names("""
    adjoint argwhere cat concat concatenate conj chunk dsplit column_stack dstack gather hsplit
    hstack index_add index_copy index_reduce index_select masked_select movedim moveaxis narrow
    narrow_copy nonzero permute reshape row_stack select scatter diagonal_scatter select_scatter
    slice_scatter scatter_add scatter_reduce split squeeze stack swapaxes swapdims t take
    take_along_dim tensor_split tile transpose unbind unravel_index unsqueeze vsplit vstack where""")

POINTWISE = _names("""
    abs absolute acos arccos acosh arccosh add addcdiv addcmul angle asin arcsin asinh arcsinh
    atan arctan atanh arctanh atan2 arctan2 bitwise_not bitwise_and bitwise_or bitwise_xor
    bitwise_left_shift bitwise_right_shift ceil clamp clip conj_physical copysign cos cosh
    deg2rad div divide digamma erf erfc erfinv exp exp2 expm1 fix float_power floor
    floor_divide fmod frac frexp gradient ldexp lerp lgamma log log10 log1p log2 logaddexp
    logaddexp2 logical_and logical_not logical_or logical_xor logit hypot i0 igamma igammac mul
    multiply mvlgamma nan_to_num neg negative nextafter polygamma positive pow rad2deg
    reciprocal remainder round rsqrt sigmoid sign sgn signbit sin sinc sinh softmax sqrt square
    sub subtract tan tanh true_divide trunc xlogy""")

REDUCTION = _names("""
    argmax argmin amax amin aminmax all any max min dist logsumexp mean nanmean median nanmedian
    mode norm nansum prod quantile nanquantile std std_mean sum unique unique_consecutive var
    var_mean count_nonzero""")

COMPARISON = _names("""
    allclose argsort eq equal ge greater_equal gt greater isclose isfinite isin isinf isposinf
    isneginf isnan isreal kthvalue le less_equal lt less maximum minimum fmax fmin ne not_equal
    sort topk msort""")

# "Other Operations": kept are shape helpers, scans, sorting helpers, elementwise helpers and
# products. Left out (see EXCLUDED): statistics and histograms, combinatorics, vander, complex views.
OTHER_KEPT = _names("""
    atleast_1d atleast_2d atleast_3d block_diag broadcast_tensors broadcast_to broadcast_shapes
    bucketize clone cross cummax cummin cumprod cumsum diag diag_embed diagflat diagonal diff
    einsum flatten flip fliplr flipud kron rot90 gcd lcm logcumsumexp meshgrid ravel
    repeat_interleave roll searchsorted tensordot trace tril tril_indices triu triu_indices
    unflatten resolve_conj resolve_neg""")

# "BLAS and LAPACK Operations": kept are the products (no factorizations, solvers or integration).
BLAS_KEPT = _names("""
    addbmm addmm addmv addr baddbmm bmm chain_matmul dot ger inner matmul matrix_power mm mv
    outer vdot""")

# "Tensors" and "Utilities" sections: tensor predicates, default dtype/device, dtype promotion.
TENSORS_KEPT = _names("""
    is_tensor is_storage is_complex is_conj is_floating_point is_nonzero numel
    set_default_dtype get_default_dtype set_default_device get_default_device
    result_type can_cast promote_types""")

FUNCTIONS = {
    'creation': CREATION, 'indexing': INDEXING, 'pointwise': POINTWISE, 'reduction': REDUCTION,
    'comparison': COMPARISON, 'other': OTHER_KEPT, 'blas': BLAS_KEPT, 'attributes': TENSORS_KEPT}

# ---------------------------------------------------------------- tensors.md (Tensor class reference)
TENSOR_DOC = _names("""
    T H mT mH
    new_tensor new_full new_empty new_ones new_zeros is_cuda is_quantized is_meta device grad
    ndim real imag nbytes itemsize abs abs_ absolute absolute_ acos acos_ arccos arccos_ add add_
    addbmm addbmm_ addcdiv addcdiv_ addcmul addcmul_ addmm addmm_ sspaddmm addmv addmv_ addr
    addr_ adjoint allclose amax amin aminmax angle apply_ argmax argmin argsort argwhere asin
    asin_ arcsin arcsin_ as_strided atan atan_ arctan arctan_ atan2 atan2_ arctan2 arctan2_ all
    any backward baddbmm baddbmm_ bernoulli bernoulli_ bfloat16 bincount bitwise_not
    bitwise_not_ bitwise_and bitwise_and_ bitwise_or bitwise_or_ bitwise_xor bitwise_xor_
    bitwise_left_shift bitwise_left_shift_ bitwise_right_shift bitwise_right_shift_ bmm bool
    byte broadcast_to cauchy_ ceil ceil_ char cholesky cholesky_inverse cholesky_solve chunk
    clamp clamp_ clip clip_ clone contiguous copy_ conj conj_physical conj_physical_
    resolve_conj resolve_neg copysign copysign_ cos cos_ cosh cosh_ corrcoef count_nonzero cov
    acosh acosh_ arccosh arccosh_ cpu cross cuda logcumsumexp cummax cummin cumprod cumprod_
    cumsum cumsum_ chalf cfloat cdouble const_data_ptr data_ptr deg2rad dequantize det
    dense_dim detach detach_ diag diag_embed diagflat diagonal diagonal_scatter fill_diagonal_
    fmax fmin diff digamma digamma_ dim dim_order dist div div_ divide divide_ dot double dsplit
    element_size eq eq_ equal erf erf_ erfc erfc_ erfinv erfinv_ exp exp_ expm1 expm1_ expand
    expand_as exponential_ fix fix_ fill_ flatten flip fliplr flipud float float_power
    float_power_ floor floor_ floor_divide floor_divide_ fmod fmod_ frac frac_ frexp gather gcd
    gcd_ ge ge_ greater_equal greater_equal_ geometric_ geqrf ger get_device gt gt_ greater
    greater_ half hardshrink heaviside histc histogram hsplit hypot hypot_ i0 i0_ igamma igamma_
    igammac igammac_ index_add_ index_add index_copy_ index_copy index_fill_ index_fill
    index_put_ index_put index_reduce_ index_reduce index_select indices inner int int_repr
    inverse isclose isfinite isinf isposinf isneginf isnan is_contiguous is_complex is_conj
    is_floating_point is_inference is_leaf is_pinned is_set_to is_shared is_signed is_sparse
    istft isreal item kthvalue lcm lcm_ ldexp ldexp_ le le_ less_equal less_equal_ lerp lerp_
    lgamma lgamma_ log log_ logdet log10 log10_ log1p log1p_ log2 log2_ log_normal_ logaddexp
    logaddexp2 logsumexp logical_and logical_and_ logical_not logical_not_ logical_or
    logical_or_ logical_xor logical_xor_ logit logit_ long lt lt_ less less_ lu lu_solve
    as_subclass map_ masked_scatter_ masked_scatter masked_fill_ masked_fill masked_select
    matmul matrix_power matrix_exp max maximum mean module_load nanmean median nanmedian min
    minimum mm smm mode movedim moveaxis msort mul mul_ multiply multiply_ multinomial mv
    mvlgamma mvlgamma_ nansum narrow narrow_copy ndimension nan_to_num nan_to_num_ ne ne_
    not_equal not_equal_ neg neg_ negative negative_ nelement nextafter nextafter_ nonzero
    nonzero_static norm normal_ numel numpy orgqr ormqr outer permute pin_memory pinverse
    polygamma polygamma_ positive pow pow_ prod put_ qr qscheme quantile nanquantile q_scale
    q_zero_point q_per_channel_scales q_per_channel_zero_points q_per_channel_axis rad2deg
    random_ ravel reciprocal reciprocal_ record_stream register_hook
    register_post_accumulate_grad_hook remainder remainder_ renorm renorm_ repeat
    repeat_interleave requires_grad requires_grad_ reshape reshape_as resize_ resize_as_
    retain_grad retains_grad roll rot90 round round_ rsqrt rsqrt_ scatter scatter_ scatter_add_
    scatter_add scatter_reduce_ scatter_reduce select select_scatter set_ share_memory_ short
    sigmoid sigmoid_ sign sign_ signbit sgn sgn_ sin sin_ sinc sinc_ sinh sinh_ asinh asinh_
    arcsinh arcsinh_ shape size slogdet slice_scatter softmax sort split sparse_mask sparse_dim
    sqrt sqrt_ square square_ squeeze squeeze_ std stft storage untyped_storage storage_offset
    storage_type stride sub sub_ subtract subtract_ sum sum_to_size svd swapaxes swapdims t t_
    tensor_split tile to to_mkldnn take take_along_dim tan tan_ tanh tanh_ atanh atanh_ arctanh
    arctanh_ tolist topk to_dense to_sparse to_sparse_csr to_sparse_csc to_sparse_bsr
    to_sparse_bsc trace transpose transpose_ triangular_solve tril tril_ triu triu_ true_divide
    true_divide_ trunc trunc_ type type_as unbind unflatten unfold uniform_ unique
    unique_consecutive unsqueeze unsqueeze_ values var vdot view view_as vsplit where xlogy
    xlogy_ xpu zero_""")

# Python-object protocols: the dunders torch.Tensor defines (dir(torch.Tensor), torch 2.13).
PROTOCOLS = _names("""
    __abs__ __add__ __and__ __array__ __array_priority__ __array_wrap__ __bool__ __complex__
    __contains__ __deepcopy__ __delitem__ __dlpack__ __dlpack_device__ __eq__ __float__
    __floordiv__ __format__ __ge__ __getitem__ __gt__ __hash__ __iadd__ __iand__ __ifloordiv__
    __ilshift__ __imod__ __imul__ __index__ __int__ __invert__ __ior__ __ipow__ __irshift__
    __isub__ __iter__ __itruediv__ __ixor__ __le__ __len__ __lshift__ __lt__ __matmul__ __mod__
    __mul__ __ne__ __neg__ __or__ __pos__ __pow__ __radd__ __rand__ __reduce_ex__ __repr__
    __reversed__ __rfloordiv__ __rlshift__ __rmatmul__ __rmod__ __rmul__ __ror__ __rpow__
    __rrshift__ __rshift__ __rsub__ __rtruediv__ __rxor__ __setitem__ __setstate__ __sub__
    __truediv__ __xor__""")

# Tensor methods without a torch function of the same name (or whose function is not in a
# measured section), by category.
TENSOR_ONLY = {
    'creation': _names("new_tensor new_full new_empty new_ones new_zeros bernoulli_ cauchy_ "
                       "exponential_ geometric_ log_normal_ normal_ random_ uniform_"),
    'indexing': _names("view view_as expand expand_as repeat unfold reshape_as copy_ fill_ zero_ "
                       "fill_diagonal_ index_fill index_put masked_fill masked_scatter put_ resize_ "
                       "resize_as_ set_ apply_ map_"),
    'reduction': _names("sum_to_size"),
    'attributes': _names("T H mT mH is_cuda is_meta device ndim nbytes itemsize bfloat16 bool byte "
                         "char double float half int long short cpu to type type_as contiguous "
                         "data_ptr const_data_ptr detach detach_ dim dim_order element_size "
                         "get_device is_contiguous is_set_to is_signed item nelement ndimension "
                         "numpy tolist shape size stride storage_offset untyped_storage"),
}

_r = {}
def _ex(reason, names):
    for n in _names(names): _r[n] = reason

# ---------------------------------------------------------------- exclusions, with their reasons
_ex('sparse layouts', """sparse_coo_tensor sparse_csr_tensor sparse_csc_tensor sparse_bsr_tensor
    sparse_bsc_tensor Tensor.sspaddmm Tensor.smm Tensor.dense_dim Tensor.indices Tensor.is_sparse
    Tensor.sparse_dim Tensor.sparse_mask Tensor.to_dense Tensor.to_sparse Tensor.to_sparse_csr
    Tensor.to_sparse_csc Tensor.to_sparse_bsr Tensor.to_sparse_bsc Tensor.values""")
_ex('quantization', """quantize_per_tensor quantize_per_channel dequantize
    fake_quantize_per_channel_affine fake_quantize_per_tensor_affine quantized_batch_norm
    quantized_max_pool1d quantized_max_pool2d Tensor.is_quantized Tensor.dequantize Tensor.int_repr
    Tensor.qscheme Tensor.q_scale Tensor.q_zero_point Tensor.q_per_channel_scales
    Tensor.q_per_channel_zero_points Tensor.q_per_channel_axis""")
_ex('complex numbers (real/imaginary parts, complex construction and views)', """complex polar real imag
    view_as_real view_as_complex Tensor.real Tensor.imag Tensor.cfloat Tensor.cdouble Tensor.chalf""")
_ex('autograd', """Tensor.backward Tensor.grad Tensor.is_leaf Tensor.register_hook
    Tensor.register_post_accumulate_grad_hook Tensor.requires_grad Tensor.requires_grad_
    Tensor.retain_grad Tensor.retains_grad Tensor.is_inference""")
_ex('LAPACK factorizations, solvers and integration (not basic products)', """cholesky
    cholesky_inverse cholesky_solve geqrf inverse det logdet slogdet lu lu_solve lu_unpack
    matrix_exp orgqr ormqr pinverse qr svd svd_lowrank pca_lowrank lobpcg trapz trapezoid
    cumulative_trapezoid triangular_solve Tensor.cholesky Tensor.cholesky_inverse
    Tensor.cholesky_solve Tensor.det Tensor.geqrf Tensor.inverse Tensor.logdet Tensor.lu
    Tensor.lu_solve Tensor.matrix_exp Tensor.orgqr Tensor.ormqr Tensor.pinverse Tensor.qr
    Tensor.slogdet Tensor.svd Tensor.triangular_solve""")
_ex('statistics and histograms (Other Operations, not shape helpers or products)', """bincount
    histc histogram histogramdd cov corrcoef cdist renorm Tensor.bincount Tensor.histc
    Tensor.histogram Tensor.cov Tensor.corrcoef Tensor.renorm Tensor.renorm_""")
_ex('combinatorics and special matrices (Other Operations)', "cartesian_prod combinations vander")
_ex('spectral ops', "Tensor.stft Tensor.istft")
_ex('random sampling outside the Creation Ops note', "bernoulli multinomial normal poisson "
    "Tensor.bernoulli Tensor.multinomial")
_ex('other devices and backends (CUDA, XPU, MKL-DNN, pinned memory)', """Tensor.cuda Tensor.xpu
    Tensor.to_mkldnn Tensor.record_stream Tensor.pin_memory Tensor.is_pinned
    Tensor.__cuda_array_interface__ Tensor.__dlpack_c_exchange_api__""")
_ex('inter-process sharing (torch.multiprocessing)', "Tensor.share_memory_ Tensor.is_shared")
_ex('neural-network activation outside the torch.md op sections', "Tensor.hardshrink")
_ex('deprecated TypedStorage and legacy tensor types', """Tensor.storage Tensor.storage_type
    set_default_tensor_type""")
_ex('tensor subclassing and nn.Module loading hooks', "Tensor.as_subclass Tensor.module_load "
    "Tensor.__torch_function__ Tensor.__torch_dispatch__")
_ex('data-dependent output size needing a static bound (compile-only helper)', "Tensor.nonzero_static")
_ex('process settings outside the measured areas (printing, FPU flags)', "set_printoptions set_flush_denormal")
_ex('Python 2 leftovers kept by torch (__div__, __idiv__, __rdiv__, __long__, __nonzero__)',
    "Tensor.__div__ Tensor.__idiv__ Tensor.__rdiv__ Tensor.__long__ Tensor.__nonzero__")
EXCLUDED = dict(_r)


def build():
    "{qualname: category} for every measured name: torch functions by name, methods as 'Tensor.name'."
    fn_cat = {n: c for c, ns in FUNCTIONS.items() for n in ns}
    only = {n: c for c, ns in TENSOR_ONLY.items() for n in ns}
    out = {n: c for n, c in fn_cat.items() if n not in EXCLUDED}
    doc = set(TENSOR_DOC)
    for m in TENSOR_DOC:
        q = 'Tensor.' + m
        if q in EXCLUDED: continue
        base = m[:-1] if m.endswith('_') and m[:-1] in doc else None
        if base is not None and (base in fn_cat or base in only or ('Tensor.' + base) not in EXCLUDED):
            out[q] = 'inplace'
        elif m in only: out[q] = only[m]
        elif m in fn_cat: out[q] = fn_cat[m]
        elif m in EXCLUDED: continue                      # method of an excluded torch function
        else: raise KeyError(f'Tensor.{m} is neither categorized nor excluded')
    for p in PROTOCOLS: out['Tensor.' + p] = 'protocols'
    return out

NAMES = build()

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

def _measure_part(job):
    names, device = job
    use_device(device)
    return measure(names)

def measure_parallel(names, jobs:int, device=None):
    "`measure` in `jobs` processes (spawned: each starts its own CUDA context and compiles its own kernels in parallel)."
    import multiprocessing as mp
    names = names or list(NAMES)
    with mp.get_context('spawn').Pool(jobs) as pool: parts = pool.map(_measure_part, [(names[i::jobs], device) for i in range(jobs)])
    res = {k: v for p in parts for k, v in p.items()}
    return {q: res[q] for q in names}

def _expected_device(torch_device) -> str:
    "The device a tinytensor result should have, given torch's (torch on the CPU stands for CUDA on the stand-in)."
    s = str(torch_device)
    if DEVICE['standin'] and s == 'cpu' and _made_on_device[0] and not _to_cpu[0]: return 'cuda:0'
    return 'cuda:0' if s == 'cuda' else s

def _asks_cpu(qual, probe) -> bool:
    "The probe moves its result to the host (`x.cpu()`, `x.to('cpu')`)."
    if qual in ('arange', 'range', 'linspace', 'logspace'): return True     # numbers in, a tensor of the default device out
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
    if not isinstance(x, torch.Tensor):
        name = x.dtype.name if hasattr(x.dtype, 'name') else str(x.dtype).split('.')[-1]
        meta = getattr(x, 'is_meta', False)
        v = None if meta else np.asarray(x.cpu().numpy())
    else:
        name = str(x.dtype).replace('torch.', '')
        h = x.detach().cpu() if x.device.type not in ('cpu', 'meta') else x.detach()
        v = None if x.device.type == 'meta' else (h.double().numpy() if name in ('bfloat16', 'float16') else h.numpy())
    if v is not None and name in ('bfloat16', 'float16'): v = v.astype(np.float64)
    return tuple(x.shape), tuple(x.stride()), x.storage_offset(), name, v, str(x.device)

def tensor_diff(a, b, tol, values=True):
    "None if tinytensor tensor `a` matches torch tensor `b`, else what differs."
    try: sa = _tensor_info(a)
    except Exception as e: return f'could not read the tinytensor result ({_short(e)})'
    sb = _tensor_info(b)
    if sa[0] != sb[0]: return f'shape {sa[0]} != torch {sb[0]}'
    if sa[3] != sb[3]: return f'dtype {sa[3]} != torch {sb[3]}'
    if sa[1] != sb[1]: return f'strides {sa[1]} != torch {sb[1]}'
    if sa[2] != sb[2]: return f'storage_offset {sa[2]} != torch {sb[2]}'
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
    args, kw = mat(probe.args, L), mat(probe.kw, L)
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

# ====================================================================== probe recipes
# Generic families keyed by kind of operation, then per-name recipes (a table name -> probes).
I64, F64, B, U8, I32 = 'int64', 'float64', 'bool', 'uint8', 'int32'

def idx(*vals): return T(vals=list(vals), dtype=I64)
def bvals(*vals): return T(vals=list(vals), dtype=B)

# unary: {bool, int64, float32, float64} x {contiguous, transposed, size-0}, then special values,
# function domains (positive, (-1, 1)), other layouts (expanded, strided with offset, 0-d), other
# dtypes (uint8, float16) and out=.
UNARY = [P(T(s, dt, layout=lay)) for dt in (B, I64, 'float32', F64) for s, lay in (((2, 3), 'c'), ((3, 4), 'T'), ((0, 3), 'c'))] + \
        [P(T((12,), kind='special')), P(T((12,), F64, kind='special')), P(T((2, 3), kind='pos')), P(T((2, 3), F64, kind='unit')),
         P(T((3, 2), layout='x')), P(T((2, 4), F64, layout='s')), P(T((), F64)), P(T((), I64)), P(T((3, 2), U8)), P(T((2, 3), 'float16')),
         P(T((2, 3)), out=T((2, 3), seed=9))]

def _binary(a_kind='', b_kind='nz'):
    return [P(T((2, 3), kind=a_kind), T((3,), seed=1, kind=b_kind)),
            P(T((2, 3), kind=a_kind), T((2, 1), F64, seed=1, kind=b_kind)),
            P(T((2, 3), I64, kind=a_kind), T((2, 3), I64, seed=1, kind=b_kind)),
            P(T((2, 3), I64, kind=a_kind), T((3,), seed=1, kind=b_kind)),
            P(T((2, 3), B), T((2, 3), B, seed=1)),
            P(T((2, 3), I32, kind=a_kind), T((), I64, seed=1, kind=b_kind)),
            P(T((2, 3), U8, kind=a_kind), T((2, 3), 'int8', seed=1, kind=b_kind)),
            P(T((2, 3), 'float16', kind=a_kind), T((), F64, seed=1, kind=b_kind)),
            P(T((2, 3), kind=a_kind), 2), P(T((2, 3), kind=a_kind), -1.5), P(T((2, 3), I64, kind=a_kind), 2.5),
            P(T((2, 3), I64, kind=a_kind), 3), P(T((2, 3), B), True),
            P(T((3, 4), layout='T', kind=a_kind), T((3, 4), seed=1, kind=b_kind)),
            P(T((0, 3)), T((3,), seed=1, kind=b_kind)), P(T((2, 3)), T((4,), seed=1)),
            P(T((12,), kind='special'), T((12,), kind='special', seed=1)),
            P(T((2, 3), kind=a_kind), T((2, 3), seed=1, kind=b_kind), out=T((2, 3), seed=2))]
BINARY = _binary()

def _int_binary(b_kind=''):
    "Integer and bool operands (bitwise ops, shifts, gcd/lcm); a float operand must raise."
    return [P(T((2, 3), I64), T((3,), I64, seed=1, kind=b_kind)), P(T((2, 3), I32), T((), I64, seed=1, kind=b_kind)),
            P(T((2, 3), U8), T((2, 3), 'int8', seed=1, kind=b_kind)), P(T((2, 3), 'int16'), 3), P(T((2, 3), B), T((2, 3), B, seed=1)),
            P(T((3, 4), I64, layout='T'), T((3, 4), I64, seed=1, kind=b_kind)), P(T((0, 3), I64), T((3,), I64, kind=b_kind)),
            P(T((2, 3), I64), T((2, 1), U8, seed=1, kind=b_kind)), P(T((2, 3), B), True), P(T((2, 3), I64), T((2, 3), B)),
            P(T((2, 3)), T((2, 3), seed=1)), P(T((2, 3), I64), 2.5), P(T((2, 3), I64), T((4,), I64)),
            P(T((2, 3), I64), T((2, 3), I64, seed=1, kind=b_kind), out=T((2, 3), I64, seed=2))]

def _float_binary(k=''):
    "Float operands (ops defined on floats; integer operands promote or raise)."
    return [P(T((2, 3), kind=k), T((3,), seed=1, kind=k)), P(T((2, 3), kind=k), T((2, 1), F64, seed=1, kind=k)),
            P(T((3, 4), F64, layout='T', kind=k), T((3, 4), F64, seed=1, kind=k)), P(T((12,), kind='special'), T((12,), kind='special', seed=1)),
            P(T((2, 3), 'float16', kind=k), T((), F64, seed=1, kind=k)), P(T((0, 3)), T((3,), kind=k)), P(T((2, 3), kind=k), 2.0),
            P(T((2, 3), I64, kind=k), T((2, 3), I64, seed=1, kind=k)), P(T((2, 3), I64, kind=k), T((2, 3), seed=1, kind=k)),
            P(T((2, 4), layout='s', kind=k), T((2, 4), seed=1, kind=k)), P(T((2, 3), B), T((2, 3), B, seed=1)), P(T((2, 3)), T((4,))),
            P(T((2, 3), kind=k), T((2, 3), seed=1, kind=k), out=T((2, 3), seed=2))]

INT_UNARY = [P(T(s, dt, layout=lay)) for dt in (B, I64, I32, U8, 'int8') for s, lay in (((2, 3), 'c'), ((3, 4), 'T'))] + \
            [P(T((0, 3), I64)), P(T((), I64)), P(T((3, 2), I64, layout='x')), P(T((2, 3))), P(T((2, 3), I64), out=T((2, 3), I64, seed=9))]

def _red(extra=(), tuple_dims=True, dtype_kw=False):
    X = T((2, 3, 4))
    ps = [P(X), P(X, 0), P(X, -1, keepdim=True), P(T((2, 3), I64)), P(T((2, 3), I64), 1), P(T((2, 3), B)),
          P(T((0, 3))), P(T((0, 3)), 1), P(T((0, 3)), 0), P(T((4, 3), layout='T'), 0), P(T((12,), kind='special')),
          P(T((), F64)), P(T((), F64), 0), P(X, 3)]
    if tuple_dims: ps += [P(X, (0, 2)), P(X, (0, -1), keepdim=True), P(X, ())]
    if dtype_kw: ps += [P(T((2, 3), I32), dtype=D(F64)), P(T((2, 3)), 1, dtype=D(F64))]
    return ps + list(extra)

def _values_indices():
    X = T((3, 4))
    return [P(X), P(X, 0), P(X, 1, True), P(X, -1, keepdim=True), P(T((3, 4), I64), 1), P(T((12,), kind='special'), 0),
            P(T((12,), kind='special')), P(T((0, 3))), P(T((0, 3)), 1), P(T((), F64), 0), P(T((3, 4), B), 0),
            P(T((4, 3), layout='T'), 1), P(X, 2)]

def _scan():
    return [P(T((3, 4)), 1), P(T((3, 4)), 0), P(T((3, 4), I64), 0), P(T((3, 4), B), 1), P(T((12,), kind='special'), 0),
            P(T((0, 3)), 0), P(T((), F64), 0), P(T((4, 3), layout='T'), 1), P(T((3, 4)), 2), P(T((3, 4)), -1)]

def _sort_like():
    X = T((3, 4))
    return [P(X), P(X, 0), P(X, descending=True), P(X, dim=0, descending=True), P(T((12,), kind='special')),
            P(T((3, 4), I64), stable=True), P(T((3, 4), B), stable=True), P(T((), F64)), P(T((0, 3))),
            P(T((4, 3), layout='T'), 1), P(X, 2)]

def _stackers():
    return [P([T((3,)), T((3,), seed=1)]), P([T((2, 3)), T((2, 3), seed=1)]), P([T((2, 3)), T((1, 3), I64, seed=1)]),
            P([T(()), T((), seed=1)]), P([T((2, 3)), T((2, 4), seed=1)]), P([]), P((T((2, 2)), T((2, 2), seed=1))),
            P([T((2, 2, 2)), T((2, 2, 2), seed=1)])]

def _cmp_close():
    return [P(T((2, 3)), T((2, 3))), P(T((2, 3)), T((2, 3), seed=1)), P(T((12,), kind='special'), T((12,), kind='special')),
            P(T((12,), kind='special'), T((12,), kind='special'), equal_nan=True), P(T((2, 3), I64), T((2, 3), I64)),
            P(T((2, 3)), T((3,)), rtol=0.5, atol=2.0), P(T((2, 3)), T((2, 3), F64)), P(T((2, 3)), T((4,)))]

def _split(kind):
    X = T((4, 6))
    if kind == 'h': return [P(X, 2), P(X, [1, 4]), P(T((6,)), 3), P(X, 4), P(T(()), 1)]
    if kind == 'v': return [P(X, 2), P(X, [1, 3]), P(T((6,)), 2), P(X, 3)]
    return [P(T((2, 2, 4)), 2), P(T((2, 2, 4)), [1, 3]), P(X, 2), P(T((2, 2, 4)), 3)]

def _atleast():
    return [P(T(())), P(T((3,))), P(T((2, 3))), P(T((2, 3, 2))), P(T((0,))), P(T(()), T((2,), seed=1)), P([T(()), T((2, 3))])]

def _tri():
    return [P(T((3, 4))), P(T((3, 4)), 1), P(T((3, 4)), -1), P(T((2, 3, 3), I64)), P(T((3,))), P(T((4, 3), layout='T'), 0),
            P(T((3, 4), B), 2), P(T((0, 3)))]

def _scatter_index(): return T(vals=[[0, 1, 2, 0], [2, 0, 0, 1]], dtype=I64)

def _mk_set_default_dtype(L, *a):
    old = L.get_default_dtype()
    try:
        L.set_default_dtype(L.float64)
        return (L.get_default_dtype(), L.tensor([1.5]).dtype, L.zeros(2).dtype, L.arange(0.5, 2).dtype)
    finally: L.set_default_dtype(old)

def _mk_set_default_device(L, *a):
    old = L.get_default_device()
    try:
        L.set_default_device('cpu')
        return (L.get_default_device(), L.zeros(2).device)
    finally: L.set_default_device(old)

def _from_file(L):
    fd, path = tempfile.mkstemp(suffix='.bin')
    os.write(fd, np.arange(6, dtype=np.float32).tobytes()); os.close(fd)
    try: return L.from_file(path, shared=False, size=6, dtype=L.float32)
    finally: os.unlink(path)

def _pickle(L, x): return pickle.loads(pickle.dumps(x))
def _deepcopy_view(L, x):
    v = x[1:]
    a, b = copy.deepcopy((x, v))
    return a, b, b.untyped_storage().data_ptr() == a.untyped_storage().data_ptr()

def _dp(L, x):
    "data_ptr in terms of the storage: (data_ptr - storage.data_ptr) / itemsize == storage_offset."
    return (x.data_ptr() - x.untyped_storage().data_ptr()) // x.element_size() == x.storage_offset()

def _const_dp(L, x): return (x.const_data_ptr() - x.untyped_storage().data_ptr()) // x.element_size() == x.storage_offset()

def _set_item(idx_, val):
    return lambda L, x, *a: (x.__setitem__(mat(idx_, L), mat(val, L)), x)[1]

RECIPES = {}
def R(names, probes):
    for n in names.split(): RECIPES[n] = probes

# ---------------------------------------------------------------- pointwise
R('abs absolute acos arccos acosh arccosh angle asin arcsin asinh arcsinh atan arctan atanh arctanh ceil '
  'conj_physical cos cosh deg2rad digamma erf erfc erfinv exp exp2 expm1 fix floor frac i0 lgamma log log10 log1p log2 '
  'neg negative positive rad2deg reciprocal rsqrt sigmoid sign sgn signbit sin sinc sinh sqrt square tan tanh trunc '
  'isfinite isinf isnan isposinf isneginf isreal logical_not', UNARY)
R('add sub subtract', BINARY + [P(T((2, 3)), T((2, 3), seed=1), alpha=2), P(T((2, 3), I64), T((2, 3), I64, seed=1), alpha=2.5),
                                P(T((2, 3), I64), T((2, 3), I64, seed=1), alpha=3)])
R('mul multiply logical_and logical_or logical_xor float_power eq ne not_equal ge greater_equal gt '
  'greater le less_equal lt less maximum minimum fmax fmin', BINARY)
R('bitwise_and bitwise_or bitwise_xor gcd lcm', _int_binary())
R('bitwise_left_shift bitwise_right_shift', _int_binary('small'))
R('bitwise_not', INT_UNARY)
R('atan2 arctan2 copysign hypot logaddexp logaddexp2 nextafter xlogy', _float_binary())
R('pow', BINARY + [P(T((2, 3), I64, kind='small'), T((2, 3), I64, kind='small', seed=1)), P(T((2, 3), kind='pos'), 0.5),
                   P(T((2, 3), I64), -1), P(T((2, 3), I64), 0)])
R('div divide true_divide', BINARY + [P(T((2, 3)), T((2, 3), seed=1, kind='nz'), rounding_mode='floor'),
                                      P(T((2, 3), I64), T((2, 3), I64, seed=1, kind='nz'), rounding_mode='trunc'),
                                      P(T((2, 3), I64), T((2, 3), I64, seed=1, kind='nz'), rounding_mode='floor'),
                                      P(T((2, 3), I64), 0, rounding_mode='floor'), P(T((2, 3)), 2, rounding_mode='bad'),
                                      P(T((2, 3), I64), T((2, 3), I64, kind='small', seed=3))])
RECIPES['true_divide'] = BINARY
R('floor_divide fmod remainder', BINARY + [P(T((2, 3), I64), 0), P(T((12,), kind='special'), 0.0),
                                           P(T((2, 3), I64), T((2, 3), I64, kind='small', seed=3))])
R('igamma igammac', _float_binary('pos'))
R('ldexp', [P(T((2, 3)), T((2, 3), I64, kind='small')), P(T((2, 3), I64), T((2, 3), I64, kind='small')),
            P(T((12,), kind='special'), T((12,), I64, kind='small')), P(T((2, 3)), T((3,), F64, kind='small')),
            P(T((2, 3)), T((2, 3), I64, kind='small'), out=T((2, 3), seed=2))])
R('clamp clip', [P(T((2, 3)), -0.5, 0.5), P(T((2, 3)), min=0.0), P(T((2, 3)), max=1), P(T((2, 3), I64), -1, 2),
                 P(T((2, 3), I64), 0.5, 2.5), P(T((2, 3)), T((3,), seed=1), T((2, 3), seed=2)), P(T((2, 3))),
                 P(T((12,), kind='special'), -1, 1), P(T((2, 3)), 1.0, -1.0), P(T((3, 4), layout='T'), min=T((4,), seed=1)),
                 P(T((2, 3), B), 0, 1), P(T((2, 3)), float('nan'), 1.0), P(T((0, 3)), 0, 1),
                 P(T((2, 3)), -0.5, 0.5, out=T((2, 3), seed=2))])
R('lerp', [P(T((2, 3)), T((2, 3), seed=1), 0.3), P(T((2, 3)), T((2, 3), seed=1), 0.7), P(T((2, 3)), T((3,), seed=1), T((2, 3), kind='unit')),
           P(T((2, 3), I64), T((2, 3), I64), 0.5), P(T((2, 3)), T((2, 3), F64), 0.5), P(T((12,), kind='special'), T((12,), seed=1), 0.25),
           P(T((0, 3)), T((3,)), 0.5), P(T((2, 3)), T((2, 3), seed=1), 0.3, out=T((2, 3), seed=2))])
R('addcdiv addcmul', [P(T((2, 3)), T((2, 3), seed=1), T((2, 3), seed=2, kind='nz')), P(T((2, 3)), T((3,), seed=1), T((2, 1), seed=2, kind='nz'), value=0.5),
                      P(T((2, 3), I64), T((2, 3), I64, seed=1), T((2, 3), I64, seed=2, kind='nz')), P(T((2, 3)), T((2, 3), F64), T((2, 3), seed=2, kind='nz')),
                      P(T((2, 3), I64), T((2, 3), I64, seed=1), T((2, 3), I64, seed=2, kind='nz'), value=2),
                      P(T((12,), kind='special'), T((12,), seed=1), T((12,), seed=2, kind='nz'), value=-1.5),
                      P(T((2, 3)), T((2, 3), seed=1), T((2, 3), seed=2, kind='nz'), out=T((2, 3), seed=3))])
R('heaviside', [P(T((12,), kind='special'), T((12,), seed=1)), P(T((2, 3), I64), T((2, 3), I64, seed=1)), P(T((2, 3)), T((3,), seed=1)),
                P(T((2, 3)), T((2, 3), F64)), P(T((2, 3), B), T((2, 3), B, seed=1))])
R('nan_to_num', [P(T((12,), kind='special')), P(T((12,), kind='special'), 0.0, 1e3, -1e3), P(T((12,), kind='special'), nan=1.5),
                 P(T((12,), F64, kind='special'), posinf=7.0), P(T((2, 3), I64)), P(T((2, 3), B)), P(T((12,), 'float16', kind='special')),
                 P(T((12,), kind='special'), out=T((12,), seed=2))])
R('round', UNARY + [P(T((2, 3)), decimals=1), P(T((2, 3), kind='pos'), decimals=-1), P(T((2, 3), I64), decimals=1),
                    P(T(vals=[0.5, 1.5, 2.5, -0.5, -2.5])), P(T(vals=[0.125, 0.375]), decimals=2)])
R('logit', UNARY + [P(T((2, 3), kind='unit'), eps=0.1), P(T((2, 3), kind='unit'), 0.2)])
R('frexp', [P(T((2, 3))), P(T((12,), kind='special')), P(T((2, 3), F64)), P(T((0, 3))), P(T((2, 3), I64)), P(T((3, 4), layout='T'))])
R('mvlgamma', [P(T((2, 3), kind='pos', seed=5), 1), P(T(vals=[2.5, 3.0, 4.25]), 2), P(T(vals=[2.5, 3.0, 4.25], dtype=F64), p=3),
               P(T(vals=[0.5, 3.0]), 2), P(T((2, 3), I64, kind='pos'), 1)])
R('polygamma', [P(1, T((2, 3), kind='pos')), P(0, T((2, 3), kind='pos')), P(2, T((2, 3), F64, kind='pos')), P(1, T((2, 3), I64, kind='pos')),
                P(-1, T((2, 3)))])
RECIPES['Tensor.polygamma'] = [P(T((2, 3), kind='pos'), 1), P(T((2, 3), kind='pos'), 0), P(T((2, 3), F64, kind='pos'), 2),
                               P(T((2, 3), I64, kind='pos'), 1)]
RECIPES['Tensor.float_power_'] = [P(T((2, 3), F64), T((3,), seed=1)), P(T((2, 3), F64), 2), P(T((2, 3), F64), T((2, 3), I64, kind='small')),
                                 P(T((2, 3)), 2), P(T((12,), F64, kind='special'), 0.5)]
RECIPES['Tensor.polygamma_'] = [P(T((2, 3), kind='pos'), 1), P(T((2, 3), F64, kind='pos'), 2), P(T((2, 3), I64, kind='pos'), 1)]
R('softmax', [P(T((2, 3)), 1), P(T((2, 3)), 0), P(T((2, 3)), -1, dtype=D(F64)), P(T((2, 3), I64), 0), P(T((12,), kind='special'), 0),
              P(T((3, 4), layout='T'), 1), P(T((0, 3)), 1), P(T((), F64), 0), P(T((2, 3)), 2)])
R('gradient', [P(T((5,))), P(T((3, 4))), P(T((3, 4)), dim=1), P(T((5,)), spacing=2.0), P(T((5,)), edge_order=2),
               P(T((3, 4), I64)), P(T((1,)))])

# ---------------------------------------------------------------- comparison, sorting
R('allclose isclose', _cmp_close())
R('equal', [P(T((2, 3)), T((2, 3))), P(T((2, 3)), T((2, 3), seed=1)), P(T((2, 3)), T((3,))), P(T((2, 3), I64), T((2, 3), I64)),
            P(T((2, 3), I64), T((2, 3), F64)), P(T((12,), kind='special'), T((12,), kind='special')), P(T((0, 3)), T((0, 3)))])
R('isin', [P(T((2, 3), I64), idx(1, 2, 3)), P(T((2, 3), I64), idx(1, 2, 3), invert=True), P(T((2, 3), I64), 2), P(T((2, 3)), T((4,))),
           P(T((2, 3), I64), idx(1, 2, 3), assume_unique=True), P(T((0,), I64), idx(1)), P(T((2, 3), I64), T((3,), kind='small'))])
R('sort', _sort_like() + [P(T((3, 4)), stable=True, descending=True)])
R('argsort', _sort_like())
R('msort', [P(T((3, 4))), P(T((3, 4), I64)), P(T((12,), kind='special')), P(T((), F64)), P(T((4, 3), layout='T'))])
R('topk', [P(T((12,)), 3), P(T((3, 4)), 2), P(T((3, 4)), 2, 0), P(T((3, 4)), 2, largest=False), P(T((3, 4)), 5), P(T((3, 4)), 0),
           P(T((12,), kind='special'), 4), P(T((3, 4)), 2, sorted=True), P(T((), F64), 1)])
R('kthvalue', [P(T((12,)), 3), P(T((3, 4)), 2), P(T((3, 4)), 1, 0), P(T((3, 4)), 2, keepdim=True), P(T((3, 4)), 5),
               P(T((12,), kind='special'), 4), P(T((3, 4), I64), 2, 1)])

# ---------------------------------------------------------------- reductions
R('sum nansum', _red(dtype_kw=True))
R('mean nanmean', _red(dtype_kw=True))
R('amax amin', _red())
R('all any', _red())
R('count_nonzero', [P(T((2, 3, 4))), P(T((2, 3, 4)), 0), P(T((2, 3, 4)), (0, 2)), P(T((2, 3), I64), 1), P(T((2, 3), B)),
                    P(T((12,), kind='special')), P(T((0, 3)), 1), P(T((2, 3)), 3)])
R('logsumexp', [P(T((2, 3, 4)), 0), P(T((2, 3, 4)), (0, 2)), P(T((2, 3, 4)), -1, keepdim=True), P(T((2, 3), I64), 1),
                P(T((12,), kind='special'), 0), P(T((0, 3)), 1), P(T((2, 3, 4))), P(T((), F64), 0)])
R('prod', [P(T((2, 3))), P(T((2, 3)), 0), P(T((2, 3)), 1, keepdim=True), P(T((2, 3), I64)), P(T((2, 3), B)), P(T((2, 3), I32), dtype=D(F64)),
           P(T((0, 3))), P(T((0, 3)), 1), P(T((4, 3), layout='T'), 1), P(T((12,), kind='special')), P(T((2, 3)), (0, 1)), P(T((2, 3)), 2)])
R('argmax argmin', [P(T((3, 4))), P(T((3, 4)), 0), P(T((3, 4)), 1, keepdim=True), P(T((3, 4), I64), 1), P(T((12,), kind='special')),
                    P(T((), F64)), P(T((0, 3))), P(T((0, 3)), 1), P(T((3, 4), B), 0), P(T((4, 3), layout='T'), 0), P(T((3, 4)), 2)])
R('max min', _values_indices() + [P(T((2, 3)), T((3,), seed=1)), P(T((2, 3), I64), T((2, 3), F64, seed=1))])
R('median nanmedian mode', _values_indices())
R('aminmax', [P(T((3, 4))), P(T((3, 4)), dim=0), P(T((3, 4)), dim=1, keepdim=True), P(T((3, 4), I64)), P(T((12,), kind='special')),
              P(T((0, 3))), P(T((3, 4), B), dim=0)])
R('dist', [P(T((2, 3)), T((2, 3), seed=1)), P(T((2, 3)), T((3,), seed=1), 1), P(T((2, 3)), T((2, 3), seed=1), float('inf')),
           P(T((2, 3)), T((2, 3), seed=1), 0), P(T((2, 3), I64), T((2, 3), I64)), P(T((2, 3)), T((2, 3), F64))])
R('norm', [P(T((3, 4))), P(T((3, 4)), 1), P(T((3, 4)), 'fro'), P(T((3, 4)), 2, 1), P(T((3, 4)), float('inf')), P(T((3, 4)), 1, (0, 1)),
           P(T((3, 4), I64)), P(T((3, 4)), dim=1, keepdim=True), P(T((12,), kind='special')), P(T((0, 3))), P(T((3, 4)), 0),
           P(T((3, 4)), 3, dtype=D(F64))])
R('quantile nanquantile', [P(T((3, 4)), 0.5), P(T((3, 4)), T(vals=[0.25, 0.75])), P(T((3, 4)), 0.3, 1), P(T((3, 4)), 0.3, 0, True),
                           P(T((3, 4)), 0.4, interpolation='lower'), P(T((3, 4)), 0.4, interpolation='nearest'),
                           P(T((3, 4)), 0.4, interpolation='midpoint'), P(T((3, 4)), 0.4, interpolation='higher'),
                           P(T((12,), kind='special'), 0.5), P(T((3, 4), I64), 0.5), P(T((3, 4)), 1.5), P(T((3, 4), F64), 0.1, dim=-1)])
R('std var std_mean var_mean', [P(T((2, 3, 4))), P(T((2, 3, 4)), 0), P(T((2, 3, 4)), (0, 2)), P(T((2, 3, 4)), 1, correction=0),
                                P(T((2, 3, 4)), 1, unbiased=False), P(T((2, 3, 4)), -1, keepdim=True), P(T((2, 3), I64)),
                                P(T((), F64)), P(T((1, 3)), 0), P(T((12,), kind='special')), P(T((4, 3), layout='T'), 0),
                                P(T((2, 3, 4)), dim=None, correction=2)])
R('unique', [P(T((3, 4), I64)), P(T((3, 4), I64), return_inverse=True, return_counts=True), P(T((3, 4), I64), dim=0),
             P(T(vals=[[1, 2], [1, 2], [0, 5]], dtype=I64), dim=0, return_counts=True), P(T((3, 4))), P(T((3, 4), B)),
             P(T((0,))), P(T((3, 4), I64), sorted=True, return_inverse=True)])
R('unique_consecutive', [P(idx(1, 1, 2, 2, 3, 1, 1, 2)), P(idx(1, 1, 2, 2, 3, 1, 1, 2), return_inverse=True, return_counts=True),
                         P(T(vals=[[1, 2], [1, 2], [0, 5]], dtype=I64), dim=0), P(T((3, 4))), P(T((0,)))])

# ---------------------------------------------------------------- scans (Other Operations)
R('cumsum cumprod', _scan() + [P(T((3, 4), I32), 1, dtype=D(F64)), P(T((3, 4)), dim=0, out=T((3, 4), seed=3))])
R('cummax cummin logcumsumexp', _scan())

# ---------------------------------------------------------------- creation
R('zeros ones', [P(2, 3), P((2, 3)), P([2, 3], dtype=D(I64)), P(0), P(()), P((2, 3), dtype=D(B)), P(-1), P(2, 3, dtype=D('float16')),
                 P((2, 3), out=T((2, 3), seed=4))])
R('empty', [P(2, 3, values=False), P((2, 3), dtype=D(I64), values=False), P(0, values=False), P((), values=False),
            P((2, 3, 4), memory_format=D('channels_last'), values=False), P((2, 3, 4, 5), memory_format=D('channels_last'), values=False), P(-1)])
R('full', [P((2, 3), 1.5), P((2, 3), 7), P((2,), True), P((2, 3), 7, dtype=D(F64)), P((), 2.5), P((0, 3), 1), P((2, 3), float('nan')),
           P((2, 3), 2.5, dtype=D(I64))])
R('zeros_like ones_like', [P(T((2, 3))), P(T((3, 4), layout='T')), P(T((2, 3), I64)), P(T((2, 3)), dtype=D(F64)), P(T((2, 4), layout='s')),
                           P(T((3, 2), layout='x')), P(T((0, 3))), P(T((3, 4), layout='T'), memory_format=D('contiguous_format'))])
R('empty_like', [P(T((2, 3)), values=False), P(T((3, 4), layout='T'), values=False), P(T((2, 3), I64), dtype=D(F64), values=False),
                 P(T((2, 4), layout='s'), values=False), P(T((3, 2), layout='x'), values=False)])
R('full_like', [P(T((2, 3)), 1.5), P(T((3, 4), layout='T'), 2), P(T((2, 3), I64), 2.7), P(T((2, 3)), 2, dtype=D(I64)), P(T((2, 3), B), 1)])
R('rand randn', [P(2, 3, values=False), P((2, 3), dtype=D(F64), values=False), P(0, values=False), P((), values=False), P(2, dtype=D(I64))])
R('rand_like randn_like', [P(T((2, 3)), values=False), P(T((3, 4), layout='T'), values=False), P(T((2, 3), F64), values=False),
                           P(T((2, 3), I64))])
R('randint', [P(0, 10, (2, 3), values=False), P(5, (3,), values=False), P(0, 10, (2, 3), dtype=D(F64), values=False), P(5, 2, (3,)),
              P(0, 10, (), values=False)])
R('randint_like', [P(T((2, 3)), 10, values=False), P(T((3, 4), I64, layout='T'), 0, 5, values=False), P(T((2, 3)), 5, 2)])
R('randperm', [P(5, values=False), P(0, values=False), P(5, dtype=D(F64), values=False), P(-1),
               P(7, fn=lambda L, n: L.sort(L.randperm(n)).values, label='sort(randperm(7)).values')])
R('arange', [P(5), P(1, 10, 3), P(0, 1, 0.25), P(5, dtype=D('float32')), P(1, 0, 0.1), P(0, 5, 0), P(5.0), P(-3, 3), P(0, 1, 0.1),
             P(10, 0, -3), P(0, 3, dtype=D(B))])
R('range', [P(1, 4), P(0, 1, 0.25), P(1, 4, dtype=D(I64)), P(4, 1, -1)])
R('linspace', [P(0, 1, 5), P(0, 10, 5, dtype=D(I64)), P(-1, 1, 1), P(0, 1, 0), P(0, 1, -1), P(1, 0, 4), P(0, 1, 7, dtype=D(F64))])
R('logspace', [P(0, 2, 3), P(0, 2, 3, base=2), P(0, 1, 4, dtype=D(F64)), P(2, 0, 3), P(0, 3, 4, dtype=D(I64))])
R('eye', [P(3), P(2, 3), P(3, dtype=D(I64)), P(0), P(3, 0), P(-1), P(2, 3, dtype=D(B))])
R('tensor', [P([[1, 2], [3, 4]]), P(3.5), P([True, False]), P([]), P([1, 2.5]), P([1, True]), P([[1, 2], [3]]), P([1, 2], dtype=D(F64)),
             P(NP(np.arange(6, dtype=np.int32).reshape(2, 3))), P(T((3, 4), layout='T')), P('abc'), P([[]]), P(2 ** 63), P([0.1], dtype=D('float16'))])
R('as_tensor asarray', [P([[1, 2], [3, 4]]), P([1, 2.5]), P(T((2, 3))), P(T((2, 3)), dtype=D(F64)), P(NP(np.arange(6, dtype=np.float32).reshape(2, 3))),
                        P(NP(np.arange(6, dtype=np.int16)[::2])), P(3), P(T((3, 4), layout='T'))])
R('from_numpy', [P(NP(np.arange(6, dtype=np.float32).reshape(2, 3))), P(NP(np.arange(12, dtype=np.int64).reshape(3, 4).T)),
                 P(NP(np.arange(6, dtype=np.float64)[::2])), P(NP(np.array([True, False]))), P(NP(np.zeros((0, 3), np.float32))),
                 P(NP(np.array(2.5))), P(NP(np.array(['a']))), P([1, 2])])
R('from_dlpack', [P(NP(np.arange(6, dtype=np.float32).reshape(2, 3))), P(NP(np.arange(12, dtype=np.int64).reshape(3, 4).T)),
                  P(T((2, 3)), fn=lambda L, x: L.from_dlpack(x), label='from_dlpack(own tensor)')])
R('frombuffer', [P(bytearray(np.arange(6, dtype=np.float32).tobytes()), dtype=D('float32')),
                 P(bytearray(np.arange(6, dtype=np.int16).tobytes()), dtype=D('int16'), count=3, offset=2),
                 P(bytearray(b'\x01\x02\x03'), dtype=D('float32')), P(bytearray(), dtype=D('float32'))])
R('from_file', [P(fn=lambda L: _from_file(L), label='from_file(6 float32 values, shared=False)')])
R('empty_strided', [P((2, 3), (1, 2), values=False), P((2, 3), (3, 1), dtype=D(I64), values=False), P((0, 3), (3, 1), values=False),
                    P((2, 2), (0, 1), values=False), P((2, 3), (1,))])
R('as_strided', [P(T((3, 4)), (2, 2), (1, 2)), P(T((3, 4)), (2, 2), (1, 2), 1), P(T((3, 4)), (3,), (0,)), P(T((3, 4)), (5, 5), (5, 1)),
                 P(T((3, 4), layout='T'), (2, 3), (3, 1)), P(T((3, 4)), (2,), (1, 1))])

# ---------------------------------------------------------------- indexing, slicing, joining, mutating
R('adjoint', [P(T((2, 3))), P(T((2, 3, 4))), P(T((3,))), P(T((3, 4), layout='T'), )])
R('argwhere', [P(T((2, 3), I64)), P(T((12,), kind='special')), P(T((0, 3))), P(T((), B)), P(T((3, 4), B, layout='T'))])
R('cat concat concatenate', [P([T((2, 3)), T((1, 3), seed=1)]), P([T((2, 3)), T((2, 2), seed=1)], 1), P([T((2, 3), I64), T((2, 3), seed=1)]),
                             P([T((2, 3)), T((0,))]), P([T((3, 4), layout='T'), T((3, 4), seed=1)], 0), P([]), P([T((2, 3)), T((2, 4))], 0),
                             P([T((2, 3)), T((2, 3), seed=1)], dim=-1), P((T((2,)), T((3,), B))), P([T((2, 3)), T((2, 3))], 2),
                             P([T(()), T(())]), P([T((2, 3)), T((2, 3), seed=1)], out=T((4, 3), seed=2))])
R('conj resolve_conj resolve_neg', [P(T((2, 3))), P(T((2, 3), I64)), P(T((3, 4), layout='T'))])
R('chunk', [P(T((5, 4)), 2), P(T((5, 4)), 3, 1), P(T((0, 3)), 2), P(T((5, 4)), 0), P(T((6,)), 4), P(T((5, 4)), 2, -1), P(T(()), 1)])
R('dsplit', _split('d')); R('hsplit', _split('h')); R('vsplit', _split('v'))
R('column_stack dstack hstack vstack row_stack', _stackers() + [P([T((3,)), T((3, 2), seed=1)])])
R('stack', _stackers() + [P([T((2, 3)), T((2, 3), seed=1)], 1), P([T((2, 3)), T((2, 3), seed=1)], -1), P([T((2, 3)), T((2, 3))], 3),
                          P([T((2, 3)), T((2, 3), seed=1)], out=T((2, 2, 3), seed=2))])
R('gather', [P(T((3, 4)), 1, T(vals=[[0, 1], [2, 3], [1, 1]], dtype=I64)), P(T((3, 4)), 0, T(vals=[[0, 1, 2, 0], [2, 2, 1, 0]], dtype=I64)),
             P(T((3, 4)), 1, T(vals=[[4]], dtype=I64)), P(T((3, 4)), 1, T(vals=[[0]], dtype=I32)), P(T((3, 4)), -1, T(vals=[[-1, 0]], dtype=I64)),
             P(T((3, 4), layout='T'), 0, T(vals=[[2, 1]], dtype=I64)), P(T((3, 4)), 1, T((0, 2), I64))])
R('index_select', [P(T((3, 4)), 1, idx(0, 2)), P(T((3, 4), layout='T'), 0, idx(2, 0, 2)), P(T((5,)), 0, T(vals=3, dtype=I64)),
                   P(T((3, 4)), 0, idx(3)), P(T((3, 4)), 0, idx(-1)), P(T((3, 4)), 1, T(vals=[1.0])), P(T((3, 4)), 0, T((0,), I64)),
                   P(T(()), 0, idx(0)), P(T((3, 4), I64), 1, idx(3, 3), out=T((3, 2), I64))])
R('index_add', [P(T((3, 4)), 0, idx(0, 2, 0), T((3, 4), seed=1)), P(T((3, 4)), 1, idx(1, 1), T((3, 2), seed=1), alpha=2),
                P(T((3, 4), I64), 0, idx(2), T((1, 4), I64)), P(T((3, 4)), 0, idx(3), T((1, 4))), P(T((3, 4)), 0, idx(0), T((1, 3)))])
R('index_copy', [P(T((3, 4)), 0, idx(2, 0), T((2, 4), seed=1)), P(T((3, 4)), 1, idx(3), T((3, 1), seed=1)), P(T((3, 4)), 0, idx(5), T((1, 4))),
                 P(T((3, 4), I64), 0, idx(1), T((1, 4), I64))])
R('index_reduce', [P(T((3, 4)), 0, idx(0, 2, 0), T((3, 4), seed=1), 'prod'), P(T((3, 4)), 0, idx(0, 2, 0), T((3, 4), seed=1), 'mean'),
                   P(T((3, 4)), 0, idx(0, 2, 0), T((3, 4), seed=1), 'amax', include_self=False),
                   P(T((3, 4), I64), 1, idx(0, 0), T((3, 2), I64, seed=1), 'amin'), P(T((3, 4)), 0, idx(0), T((1, 4)), 'sum')])
R('masked_select', [P(T((3, 4)), T((3, 4), B)), P(T((3, 4)), T((4,), B)), P(T((3, 4)), T((3, 4), U8)), P(T((3, 4), layout='T'), T((3, 4), B)),
                    P(T((3, 4)), T((2, 4), B)), P(T(()), T((), B)), P(T((0, 3)), T((3,), B))])
R('movedim moveaxis', [P(T((2, 3, 4)), 0, 2), P(T((2, 3, 4)), (0, 1), (2, 0)), P(T((2, 3, 4)), -1, 0), P(T((2, 3, 4)), 0, 3),
                       P(T((2, 3, 4)), (0, 0), (1, 2)), P(T((2, 3, 4)), (0, 1), (1,))])
R('narrow narrow_copy', [P(T((4, 5)), 1, 1, 3), P(T((4, 5)), 0, -2, 2), P(T((4, 5)), 0, 3, 3), P(T((4, 5), layout='T'), 1, 0, 2),
                         P(T((4, 5)), 0, T(vals=1, dtype=I64), 2), P(T((4, 5)), 2, 0, 1), P(T(()), 0, 0, 1)])
R('nonzero', [P(T((3, 4), I64)), P(T((12,), kind='special')), P(T((), F64)), P(T((3, 4), I64), as_tuple=True), P(T((0, 3))),
              P(T((3, 4), B, layout='T')), P(T((), B), as_tuple=True)])
R('permute', [P(T((2, 3, 4)), (2, 0, 1)), P(T((2, 3)), (0, 0)), P(T((2, 3, 4)), (-1, 0, 1)), P(T(()), ()), P(T((2, 3)), (1,)),
              P(T((3, 4), layout='T'), (1, 0))])
R('reshape', [P(T((2, 3, 4)), (6, 4)), P(T((2, 3, 4)), (-1,)), P(T((3, 4), layout='T'), (12,)), P(T((2, 3)), (4, -1)),
              P(T((0, 3)), (-1, 0)), P(T((2, 3)), (3, 2)), P(T((3, 4), layout='T'), (4, 3, 1)), P(T(()), (1, 1)), P(T((2, 3)), (-1, -1)),
              P(T((3, 2), layout='x'), (6,)), P(T((2, 4), layout='s'), (2, 2, 2))])
R('select', [P(T((3, 4)), 0, 1), P(T((3, 4)), 1, -1), P(T((3, 4)), 0, 3), P(T((3, 4), layout='T'), 1, 2), P(T(()), 0, 0), P(T((3, 4)), 2, 0)])
R('scatter', [P(T((3, 4)), 0, _scatter_index(), T((3, 4), seed=1)), P(T((3, 4)), 1, _scatter_index(), 1.5),
              P(T((3, 4)), 0, _scatter_index(), T((3, 4), seed=1), reduce='add'), P(T((3, 4)), 1, _scatter_index(), 2.0, reduce='multiply'),
              P(T((3, 4)), 0, T(vals=[[3]], dtype=I64), 1.0), P(T((3, 4), I64), 0, _scatter_index(), T((3, 4), I64, seed=1)),
              P(T((3, 4)), 0, _scatter_index(), T((3, 4), F64))])
R('scatter_add', [P(T((3, 4)), 0, _scatter_index(), T((3, 4), seed=1)), P(T((3, 4), I64), 1, _scatter_index(), T((3, 4), I64, seed=1)),
                  P(T((3, 4)), 0, T(vals=[[3]], dtype=I64), T((1, 1)))])
R('scatter_reduce', [P(T((3, 4)), 0, _scatter_index(), T((3, 4), seed=1), r) for r in ('sum', 'prod', 'mean', 'amax', 'amin')] +
                    [P(T((3, 4)), 0, _scatter_index(), T((3, 4), seed=1), 'mean', include_self=False),
                     P(T((3, 4), I64), 1, _scatter_index(), T((3, 4), I64, seed=1), 'amax', include_self=False),
                     P(T((3, 4)), 0, _scatter_index(), T((3, 4), seed=1), 'bad')])
R('diagonal_scatter', [P(T((3, 3)), T((3,), seed=1)), P(T((3, 4)), T((3,), seed=1), 1), P(T((3, 4)), T((2,), seed=1), -1),
                       P(T((2, 3, 3)), T((2, 3), seed=1), 0, 1, 2), P(T((3, 3)), T((2,), seed=1))])
R('select_scatter', [P(T((3, 4)), T((4,), seed=1), 0, 1), P(T((3, 4)), T((3,), seed=1), 1, -1), P(T((3, 4)), T((3,), seed=1), 0, 1)])
R('slice_scatter', [P(T((4, 3)), T((2, 3), seed=1), 0, 0, 4, 2), P(T((4, 3)), T((4, 1), seed=1), 1, 2), P(T((4, 3)), T((4, 3), seed=1)),
                    P(T((4, 3)), T((1, 3), seed=1), start=1, end=2), P(T((4, 3)), T((3, 3), seed=1), 0, 0, 4, 2)])
R('split', [P(T((5, 4)), 2), P(T((5, 4)), [1, 4]), P(T((5, 4)), 2, 1), P(T((5, 4)), [1, 1]), P(T((5, 4)), 0), P(T((0, 3)), 2),
            P(T((5, 4)), [2, 3], -2), P(T((5, 4)), 10)])
R('squeeze', [P(T((1, 3, 1))), P(T((1, 3, 1)), 0), P(T((1, 3, 1)), (0, 2)), P(T((1, 3, 1)), 1), P(T((1, 3, 1)), 3), P(T(())), P(T(()), 0),
              P(T((1, 0, 1)))])
R('swapaxes swapdims transpose', [P(T((2, 3, 4)), 0, 2), P(T((2, 3)), -1, 0), P(T((2, 3)), 0, 2), P(T(()), 0, 0), P(T((3, 4), layout='T'), 0, 1),
                                  P(T((2, 3)), 1, 1)])
R('t', [P(T((2, 3))), P(T((3,))), P(T(())), P(T((2, 3, 4))), P(T((3, 4), layout='T'))])
R('take', [P(T((3, 4)), T(vals=[[0, 5], [11, 2]], dtype=I64)), P(T((3, 4)), idx(-1)), P(T((3, 4)), idx(12)),
           P(T((3, 4), layout='T'), idx(0, 1, 2, 3)), P(T(()), idx(0, 0)), P(T((3, 4)), T((0,), I64))])
R('take_along_dim', [P(T((3, 4)), T(vals=[[0], [3], [1]], dtype=I64), 1), P(T((3, 4)), idx(0, 11)), P(T((3, 4)), T(vals=[[0, 1, 2, 0]], dtype=I64), 0),
                     P(T((3, 4)), T(vals=[[0], [1]], dtype=I64), 1), P(T((3, 4)), T(vals=[[2]], dtype=I64), dim=0)])
R('tensor_split', [P(T((7,)), 3), P(T((7,)), [1, 5]), P(T((3, 7)), 2, 1), P(T((7,)), idx(2, 4)), P(T((7,)), T(vals=3, dtype=I64)),
                   P(T((7,)), 0), P(T(()), 2)])
R('tile', [P(T((2, 3)), (2,)), P(T((2, 3)), (2, 1, 2)), P(T((3,)), (2, 2)), P(T((2, 3)), ()), P(T((2, 3)), (0, 2)), P(T((3, 4), layout='T'), (1, 2))])
R('unbind', [P(T((2, 3))), P(T((2, 3)), 1), P(T((2, 3)), 2), P(T((0, 3))), P(T(()))])
R('unravel_index', [P(idx(3, 7, 11), (3, 4)), P(T(vals=4, dtype=I64), (3, 2)), P(idx(12), (3, 4)), P(idx(-1), (3, 4)),
                    P(T(vals=[1.0]), (3,)), P(T(vals=[[1, 5]], dtype=I64), (2, 3))])
R('unsqueeze', [P(T((2, 3)), 0), P(T((2, 3)), -1), P(T((2, 3)), 3), P(T(()), 0), P(T((3, 4), layout='T'), 1), P(T((2, 3)), 2)])
R('where', [P(T((2, 3), B), T((2, 3)), T((2, 3), seed=1)), P(T((2, 3), B), T((3,)), T((2, 1), seed=1)), P(T((2, 3), B), T((2, 3)), 0.0),
            P(T((2, 3), B), T((2, 3), I64), T((2, 3), F64)), P(T((2, 3), B), 1, 0), P(T((2, 3), B), T((2, 3), I64), 2.5),
            P(T((2, 3), U8), T((2, 3)), T((2, 3))), P(T((2, 3), B)), P(T((2, 3))), P(T((2, 3), B), T((4,)), T((2, 3))),
            P(T((2, 3), B), T((2, 3)), T((2, 3), seed=1), out=T((2, 3), seed=2))])
RECIPES['Tensor.where'] = [P(T((2, 3)), T((2, 3), B), T((2, 3), seed=1)), P(T((2, 3)), T((2, 3), B), 0.0),
                           P(T((2, 3), I64), T((2, 3), B), T((2, 3), F64)), P(T((2, 3)), T((4,), B), T((2, 3)))]

# ---------------------------------------------------------------- other operations (shape helpers, products)
R('atleast_1d atleast_2d atleast_3d', _atleast())
R('block_diag', [P(T((2, 2)), T((1, 3), I64, seed=1)), P(T((3,)), T(())), P(T((2, 2))), P(), P(T((2, 2, 2)))])
R('broadcast_tensors', [P(T((2, 1)), T((3,), seed=1)), P(T((2, 3)), T((4,))), P(T(()), T((2, 2), I64)), P(T((3,))), P(T((0, 1)), T((3,)))])
R('broadcast_to', [P(T((3,)), (2, 3)), P(T((2, 1)), (2, -1)), P(T((3,)), (2, 4)), P(T(()), (2, 2)), P(T((2, 1)), (0, 1)), P(T((2, 3)), (3,))])
R('broadcast_shapes', [P((2, 1), (3,)), P((2,), (3,)), P((), (4, 1)), P(2, (3, 1)), P(), P((0, 1), (1, 5)), P((-1,), (3,))])
R('clone', [P(T((2, 3))), P(T((3, 4), layout='T')), P(T((2, 4), layout='s')), P(T((3, 2), layout='x')),
            P(T((3, 4), layout='T'), memory_format=D('contiguous_format')), P(T((2, 3, 4, 5)), memory_format=D('channels_last')), P(T(()))])
R('cross', [P(T((2, 3)), T((2, 3), seed=1)), P(T((3, 2)), T((3, 2), seed=1), 0), P(T((2, 3)), T((2, 3), seed=1), dim=1),
            P(T((2, 2)), T((2, 2))), P(T((2, 3), I64), T((2, 3), I64, seed=1)), P(T((2, 3)), T((1, 3), seed=1))])
R('diag', [P(T((3,))), P(T((3,)), 1), P(T((3, 4))), P(T((3, 4)), -1), P(T((2, 3, 4))), P(T((3, 4), layout='T'), 2), P(T((3,), I64), -2), P(T(()))])
R('diag_embed', [P(T((2, 3))), P(T((2, 3)), 1), P(T((2, 3)), 0, 0, 2), P(T((3,), I64), -1), P(T((2, 3)), 0, 1, 1)])
R('diagflat', [P(T((2, 2))), P(T((3,)), -1), P(T(())), P(T((3, 4), layout='T'), 1)])
R('diagonal', [P(T((3, 4))), P(T((3, 4)), 1), P(T((2, 3, 4)), 0, 1, 2), P(T((3, 4)), 5), P(T((3, 4)), 0, 0, 0), P(T((3,))),
               P(T((3, 4), layout='T'), -1), P(T((2, 3, 4)), dim1=-1, dim2=0)])
R('diff', [P(T((5,))), P(T((3, 4)), 2, 1), P(T((5,), B)), P(T((5,)), prepend=T((2,), seed=1)), P(T((5,), I64), append=T((1,), I64)),
           P(T((3, 4)), 1, 0), P(T(())), P(T((5,)), 0), P(T((3, 4), layout='T'), dim=0)])
R('einsum', [P('ij,jk->ik', T((2, 3)), T((3, 4), seed=1)), P('ii->i', T((3, 3))), P('bij,bjk->bik', T((2, 2, 3)), T((2, 3, 2), seed=1)),
             P('i,j->ij', T((3,)), T((2,), seed=1)), P('ij->', T((2, 3))), P('...ij->...ji', T((2, 3, 4))), P('ij,jk', [T((2, 3)), T((3, 4), seed=1)]),
             P('ij,jk->ik', T((2, 3), I64), T((3, 4), I64, seed=1)), P('ij,jk->ik', T((2, 3)), T((4, 4))), P('ij->ji', T((3, 4), layout='T')),
             P('ii', T((3, 3))), P('i,i', T((3,)), T((3,), seed=1)), P('ij,ij->i', T((2, 3)), T((2, 3), F64, seed=1)), P('ij', T((2, 3)))],)
R('flatten', [P(T((2, 3, 4))), P(T((2, 3, 4)), 1), P(T((2, 3, 4)), 0, 1), P(T(())), P(T((3, 4), layout='T')), P(T((2, 3, 4)), 2, 1),
              P(T((2, 3, 4)), -2), P(T((3, 2), layout='x'))])
R('ravel', [P(T((2, 3))), P(T((3, 4), layout='T')), P(T(())), P(T((2, 4), layout='s'))])
R('unflatten', [P(T((2, 6)), 1, (2, 3)), P(T((2, 6)), 1, (-1, 2)), P(T((2, 6)), 1, (4, 2)), P(T((2, 6)), -1, (3, 2)), P(T((2, 6)), 0, ())])
R('flip', [P(T((2, 3)), (0,)), P(T((2, 3)), (0, 1)), P(T((2, 3)), [-1]), P(T((2, 3)), (2,)), P(T(()), ()), P(T((3, 4), layout='T'), (1,))])
R('fliplr flipud', [P(T((2, 3))), P(T((3,))), P(T((2, 3, 2), I64)), P(T((3, 4), layout='T'))])
R('kron', [P(T((2, 2)), T((2, 3), seed=1)), P(T((2,)), T((3,), I64, seed=1)), P(T((2, 2)), T(()))])
R('rot90', [P(T((2, 3))), P(T((2, 3)), 2), P(T((2, 3)), -1, (0, 1)), P(T((2, 3)), 1, (1, 0)), P(T((2, 3)), 1, (0, 0)), P(T((3,))), P(T((2, 3)), 5)])
R('meshgrid', [P(T((3,)), T((2,), seed=1), indexing='ij'), P(T((3,)), T((2,), seed=1), indexing='xy'), P([T((3,)), T((2,))], indexing='ij'),
               P(T((3,)), T((2, 2)), indexing='ij'), P(T((3,)), indexing='ij')])
R('repeat_interleave', [P(T((3,)), 2), P(T((2, 3)), 2, 1), P(T((3,)), idx(1, 0, 2)), P(idx(1, 2)), P(T((2, 3)), 2), P(T((3,)), idx(1, 2)),
                        P(T((3,)), -1)])
R('roll', [P(T((2, 3)), 1), P(T((2, 3)), 1, 1), P(T((2, 3)), (1, -1), (0, 1)), P(T((2, 3)), (1,), (0, 1)), P(T(()), 1), P(T((3, 4), layout='T'), -5, 0)])
R('searchsorted', [P(T(vals=[1., 3, 5, 7]), T(vals=[0., 3, 6, 9])), P(T(vals=[1., 3, 5, 7]), T(vals=[0., 3, 6, 9]), right=True),
                   P(T(vals=[1., 3, 5, 7]), T(vals=[3.]), side='right'), P(T(vals=[[1., 3], [2, 4]]), T(vals=[[2.], [3.]])),
                   P(idx(1, 3, 5), 4), P(T(vals=[1., 3, 5, 7]), T(vals=[2.]), out_int32=True), P(T(vals=[[1., 3], [2, 4]]), T(vals=[2.])),
                   P(T(vals=[1., 3, 5, 7]), T(vals=[0., 3, 6, 9]), side='left', right=True)])
R('bucketize', [P(T(vals=[0., 3, 6, 9]), T(vals=[1., 3, 5, 7])), P(T(vals=[0., 3, 6, 9]), T(vals=[1., 3, 5, 7]), right=True),
                P(4, idx(1, 3, 5)), P(T(vals=[[0., 3]]), T(vals=[1., 3, 5, 7]), out_int32=True), P(T(vals=[0.]), T(vals=[[1., 2]]))])
R('tensordot', [P(T((2, 3, 4)), T((3, 4, 5), seed=1), 2), P(T((2, 3)), T((3, 2), seed=1), ([1], [0])), P(T((2,)), T((3,), seed=1), 0),
                P(T((2, 3)), T((2, 3), seed=1), ([0, 1], [0, 1])), P(T((2, 3)), T((4, 3)), 1), P(T((2, 3), I64), T((3, 2), I64), 1)])
R('trace', [P(T((3, 3))), P(T((2, 3), I64)), P(T((3,))), P(T((3, 4), layout='T')), P(T((3, 3), B))])
R('tril triu', _tri())
R('tril_indices triu_indices', [P(3, 3), P(3, 4, 1), P(4, 3, -1), P(0, 0), P(3, 3, dtype=D(I32)), P(-1, 3)])

# ---------------------------------------------------------------- BLAS
R('mm', [P(T((2, 3)), T((3, 4), seed=1)), P(T((2, 3), I64), T((3, 4), I64, seed=1)), P(T((3, 2), layout='T'), T((3, 4), seed=1)),
         P(T((3,)), T((3, 4))), P(T((2, 3)), T((4, 4))), P(T((2, 3)), T((3, 4), F64)), P(T((0, 3)), T((3, 4))), P(T((2, 0)), T((0, 4))),
         P(T((2, 3)), T((3, 4), seed=1), out=T((2, 4), seed=2))])
R('bmm', [P(T((2, 3, 4)), T((2, 4, 5), seed=1)), P(T((2, 3, 4), I64), T((2, 4, 5), I64, seed=1)), P(T((2, 3, 4)), T((3, 4, 5))),
          P(T((2, 4, 3), layout='T'), T((2, 4, 5), seed=1)), P(T((3, 4)), T((4, 5))), P(T((2, 0, 4)), T((2, 4, 5)))])
R('mv', [P(T((2, 3)), T((3,), seed=1)), P(T((2, 3), I64), T((3,), I64)), P(T((2, 3)), T((4,))), P(T((3, 2), layout='T'), T((3,))),
         P(T((2, 3)), T((3,), F64))])
R('dot vdot', [P(T((3,)), T((3,), seed=1)), P(T((3,), I64), T((3,), I64, seed=1)), P(T((3,)), T((3,), F64)), P(T((2, 3)), T((2, 3))),
               P(T((3,)), T((4,))), P(T((0,)), T((0,))), P(T((3,), B), T((3,), B))])
R('outer ger', [P(T((3,)), T((2,), seed=1)), P(T((3,), I64), T((2,), I64, seed=1)), P(T((3,)), T((2,), F64)), P(T((3,), B), T((2,), B)),
                P(T((2, 3)), T((2,))), P(T((0,)), T((2,)))])
R('inner', [P(T((2, 3)), T((4, 3), seed=1)), P(T((3,)), T((3,), seed=1)), P(T(()), T((2, 3))), P(T((2, 3)), T((3, 2))), P(T((2, 3), I64), T((3,), I64))])
R('matmul', [P(T((3,)), T((3,), seed=1)), P(T((2, 3)), T((3,), seed=1)), P(T((3,)), T((3, 4), seed=1)), P(T((2, 3)), T((3, 4), seed=1)),
             P(T((2, 1, 3, 4)), T((5, 4, 2), seed=1)), P(T((2, 3), I64), T((3, 4), I64)), P(T((2, 3)), T((4, 4))), P(T((3, 2), layout='T'), T((3, 4))),
             P(T(()), T((3,))), P(T((2, 3, 4)), T((4,), seed=1)), P(T((4,)), T((2, 4, 3), seed=1)), P(T((2, 3)), T((3, 4), F64)),
             P(T((0, 3)), T((3, 4))), P(T((2, 3)), T((3, 4), seed=1), out=T((2, 4), seed=2))])
R('matrix_power', [P(T((3, 3)), 2), P(T((3, 3)), 0), P(T((2, 3, 3)), 3), P(T((3, 3), I64, kind='small'), 3), P(T((2, 3)), 2), P(T((3, 3)), 1)])
R('addmm', [P(T((2, 4)), T((2, 3), seed=1), T((3, 4), seed=2)), P(T((4,)), T((2, 3), seed=1), T((3, 4), seed=2)),
            P(T((2, 4)), T((2, 3), seed=1), T((3, 4), seed=2), beta=0.5, alpha=2), P(T((2, 4), I64), T((2, 3), I64), T((3, 4), I64)),
            P(T((2, 4)), T((2, 3)), T((4, 4))), P(T((2, 4)), T((2, 3), seed=1), T((3, 4), seed=2), beta=0),
            P(T((2, 4), I64), T((2, 3), I64), T((3, 4), I64), alpha=1.5)])
R('addmv', [P(T((2,)), T((2, 3), seed=1), T((3,), seed=2)), P(T(()), T((2, 3), seed=1), T((3,), seed=2), beta=2, alpha=0.5),
            P(T((2,), I64), T((2, 3), I64), T((3,), I64)), P(T((2,)), T((2, 3)), T((4,)))])
R('addr', [P(T((2, 3)), T((2,), seed=1), T((3,), seed=2)), P(T((3,)), T((2,), seed=1), T((3,), seed=2), alpha=2),
           P(T((2, 3), I64), T((2,), I64), T((3,), I64)), P(T((2, 3), B), T((2,), B), T((3,), B)), P(T((2, 3)), T((3,)), T((2,)))])
R('addbmm', [P(T((3, 5)), T((2, 3, 4), seed=1), T((2, 4, 5), seed=2)), P(T((5,)), T((2, 3, 4), seed=1), T((2, 4, 5), seed=2), beta=0.5, alpha=2),
             P(T((3, 5), I64), T((2, 3, 4), I64), T((2, 4, 5), I64)), P(T((3, 5)), T((2, 3, 4)), T((3, 4, 5)))])
R('baddbmm', [P(T((2, 3, 5)), T((2, 3, 4), seed=1), T((2, 4, 5), seed=2)), P(T((5,)), T((2, 3, 4), seed=1), T((2, 4, 5), seed=2), beta=0, alpha=2),
              P(T((2, 3, 5), I64), T((2, 3, 4), I64), T((2, 4, 5), I64)), P(T((2, 3, 5)), T((2, 3, 4)), T((2, 5, 5)))])
R('chain_matmul', [P(T((2, 3)), T((3, 4), seed=1), T((4, 2), seed=2)), P(T((2, 3))), P(T((2, 3)), T((4, 2))), P(T((2, 3), I64), T((3, 2), I64))])

# ---------------------------------------------------------------- tensor predicates and dtype helpers (functions)
R('is_tensor', [P(T((2, 3))), P([1, 2]), P(NP(np.zeros(2))), P(3)])
R('is_storage', [P(T((2, 3)), fn=lambda L, x: L.is_storage(x.untyped_storage()), label='is_storage(t.untyped_storage())'), P(T((2, 3))), P(3)])
R('is_complex is_conj is_floating_point', [P(T((2, 3))), P(T((2, 3), I64)), P(T((2, 3), B)), P(T((2, 3), 'float16')), P(3.0)])
R('is_nonzero', [P(T((1,))), P(T(vals=[0.0])), P(T(vals=[[1]], dtype=I64)), P(T((2,))), P(T((0,))), P(T(vals=False, dtype=B))])
R('numel', [P(T((2, 3))), P(T(())), P(T((0, 3))), P(T((3, 2), layout='x'))])
R('get_default_dtype get_default_device', [P()])
R('set_default_dtype', [P(fn=_mk_set_default_dtype, label='set_default_dtype(float64): default dtype, tensor([1.5]), zeros(2), arange(0.5, 2)')])
R('set_default_device', [P(fn=_mk_set_default_device, label="set_default_device('cpu')")])
R('result_type', [P(T((2, 3), I64), 1.5), P(T((2, 3), I32), T((), I64)), P(T((2, 3)), T((2,), F64)), P(T((2, 3), U8), -1), P(T((2, 3), B), True),
                  P(2, 3.5), P(T((2, 3), 'float16'), T((), F64))])
R('can_cast', [P(D(F64), D('float32')), P(D('float32'), D(I64)), P(D(I64), D('float32')), P(D(B), D(U8)), P(D(I32), D(B))])
R('promote_types', [P(D(I32), D('float32')), P(D(U8), D('int8')), P(D(B), D(I64)), P(D('float16'), D('bfloat16')), P(D(I64), D('float16'))])

# ---------------------------------------------------------------- Tensor-only names
def TR(names, probes):
    for n in names.split(): RECIPES['Tensor.' + n] = probes
TR('new_tensor', [P(T((2, 3), I64), [1.5, 2]), P(T((2, 3)), [[1, 2]]), P(T((2, 3)), [1, 2], dtype=D(F64)), P(T((2, 3)), T((3, 4), layout='T'))])
TR('new_zeros new_ones new_empty', [P(T((2, 3), I64), (2, 2), values=False), P(T((3, 4), layout='T'), 3, values=False),
                                    P(T((2, 3)), (2,), dtype=D(F64), values=False), P(T((2, 3)), (), values=False)])
RECIPES['Tensor.new_zeros'] = [p.replace(values=True) for p in RECIPES['Tensor.new_zeros']]
RECIPES['Tensor.new_ones'] = RECIPES['Tensor.new_zeros']
TR('new_full', [P(T((2, 3), I64), (2, 2), 3), P(T((3, 4), layout='T'), (3,), 1.5), P(T((2, 3)), (2,), 7, dtype=D(I64))])
TR('bernoulli_', [P(T((2, 3)), 0.5, values=False), P(T((2, 3), F64), T((2, 3), kind='unit'), values=False), P(T((2, 3)), 1.0), P(T((2, 3), I64), 0.0)])
TR('cauchy_ exponential_ log_normal_ normal_ uniform_', [P(T((2, 3)), values=False), P(T((3, 4), layout='T'), values=False),
                                                         P(T((2, 3), F64), values=False), P(T((2, 3), I64), values=False)])
TR('geometric_', [P(T((2, 3)), 0.5, values=False), P(T((2, 3), I64), 0.5, values=False), P(T((2, 3)), 1.0)])
TR('random_', [P(T((2, 3)), values=False), P(T((2, 3), I64), 0, 5, values=False), P(T((2, 3)), 10, values=False), P(T((2, 3), B), values=False),
               P(T((2, 3), I64), 3, 4)])
TR('view', [P(T((2, 3, 4)), 6, 4), P(T((2, 3, 4)), (-1,)), P(T((3, 4), layout='T'), 12), P(T((2, 3)), D(I32)), P(T((2, 3)), D('int16')),
            P(T((2, 3)), D('int8')), P(T((2, 3)), 4, -1), P(T((2, 3)), -1, -1), P(T((0, 3)), -1, 0), P(T(()), 1), P(T((3, 2), layout='x'), 6),
            P(T((2, 4), layout='s'), 2, 2, 2)])
TR('view_as reshape_as expand_as', [P(T((2, 3)), T((3, 2))), P(T((2, 3)), T((6,))), P(T((3, 4), layout='T'), T((12,))), P(T((1, 3)), T((2, 3))),
                                    P(T((3,)), T((4, 3))), P(T((2, 3)), T((4,)))])
TR('expand', [P(T((3,)), 2, 3), P(T((2, 1)), (2, -1)), P(T((2, 1)), 2, 4), P(T((3,)), 2, 4), P(T(()), 2, 2), P(T((2, 1)), -1, -1), P(T((2, 1)), 0, 1)])
TR('repeat', [P(T((2, 3)), 2, 1), P(T((2, 3)), (1, 2, 2)), P(T((3,)), 2), P(T((2, 3)), 2), P(T((2, 3)), 0, 1), P(T((3, 4), layout='T'), 1, 2)])
TR('unfold', [P(T((7,)), 0, 2, 1), P(T((7,)), 0, 3, 2), P(T((3, 5)), 1, 2, 2), P(T((7,)), 0, 8, 1), P(T(()), 0, 1, 1), P(T((7,)), 0, 2, 0)])
TR('copy_', [P(T((2, 3)), T((2, 3), seed=1)), P(T((2, 3)), T((3,), I64)), P(T((2, 3), I64), T((2, 3), F64)), P(T((3, 4), layout='T'), T((3, 4))),
             P(T((2, 3)), T((4,))), P(T((3, 2), layout='x'), T((3, 2))), P(T((2, 3), B), T((2, 3))), P(T((2, 3)), T((2, 3), B))])
TR('fill_', [P(T((2, 3)), 1.5), P(T((2, 3), I64), 2.7), P(T((2, 3), I64), T(vals=3, dtype=I64)), P(T((2, 3)), T((2,))), P(T((3, 4), layout='T'), 0),
             P(T((2, 3), B), 2), P(T((3, 2), layout='x'), 1.0)])
TR('zero_', [P(T((2, 3))), P(T((3, 4), layout='T')), P(T((2, 3), B)), P(T((3, 2), layout='x'))])
TR('fill_diagonal_', [P(T((3, 3)), 1.5), P(T((5, 2)), 2.0, wrap=True), P(T((5, 2)), 2.0), P(T((2, 3, 3)), 1.0), P(T((3, 3, 3)), 1.0), P(T((3, 3), I64), 2)])
TR('index_fill', [P(T((3, 4)), 1, idx(0, 2), -1.0), P(T((3, 4), I64), 0, idx(1), 7), P(T((3, 4)), 0, idx(3), 1.0),
                  P(T((3, 4)), 1, idx(1), T(vals=2.5)), P(T((3, 4)), 1, idx(1), T(vals=[2.5]))])
TR('index_put', [P(T((3, 4)), (idx(0, 2),), T(vals=1.5)), P(T((3, 4)), (idx(0, 2), idx(1, 3)), T(vals=[1.0, 2.0])),
                 P(T((3, 4)), (idx(0, 0),), T((2, 4)), True), P(T((3, 4)), (T((3, 4), B),), T(vals=0.0)), P(T((3, 4)), (idx(5),), T(vals=1.0))])
TR('masked_fill', [P(T((3, 4)), T((3, 4), B), 0.0), P(T((3, 4)), T((4,), B), T(vals=2.5)), P(T((3, 4), I64), T((3, 4), B), 1.5),
                   P(T((3, 4)), T((3, 4), U8), 1.0), P(T((3, 4)), T((3, 4), B), T(vals=[1.0])), P(T((3, 4), layout='T'), T((3, 4), B), -1)])
TR('masked_scatter', [P(T((3, 4)), T((3, 4), B), T((3, 4), seed=1)), P(T((3, 4)), T((4,), B), T((12,), seed=1)), P(T((3, 4)), T((3, 4), B), T((2,))),
                      P(T((3, 4), I64), T((3, 4), B), T((3, 4), F64))])
TR('put_', [P(T((3, 4)), idx(0, 5, 11), T(vals=[1., 2, 3])), P(T((3, 4)), idx(0, 0), T(vals=[1., 2]), True), P(T((3, 4)), idx(12), T(vals=[1.])),
            P(T((3, 4)), idx(-1), T(vals=[9.])), P(T((3, 4), layout='T'), idx(1, 2), T(vals=[1., 2]))])
TR('resize_', [P(T((2, 3)), 3, 2), P(T((2, 3)), (6,)), P(T((2, 3)), 2, 2, values=False), P(T((2, 3)), 4, 4, values=False), P(T((2, 3)), 0),
               P(T((2, 3)), -1), P(T((3, 2), layout='x'), 2, 3, values=False)])
TR('resize_as_', [P(T((2, 3)), T((3, 2))), P(T((2, 3)), T((3, 4), layout='T'), values=False), P(T((2, 3)), T((1,)))])
TR('set_', [P(T((2, 3)), T((3, 4), layout='T')), P(T((2, 3)), T((5,), I64)), P(T((2, 3))),
            P(T((2, 3)), fn=lambda L, x: x.set_(L.arange(12.).untyped_storage(), 2, (2, 2), (1, 3)), label='t.set_(storage, 2, (2, 2), (1, 3))')])
TR('apply_ map_', [P(T((2, 3)), lambda v: v * 2 + 1)])
RECIPES['Tensor.map_'] = [P(T((2, 3)), T((2, 3), seed=1), lambda a, b: a - b), P(T((2, 3)), T((3,), seed=1), lambda a, b: a * b)]
TR('sum_to_size', [P(T((2, 3)), 1, 3), P(T((2, 3)), (2, 1)), P(T((2, 3)), 3), P(T((2, 3)), 4), P(T((2, 3), I64), ())])
def _attr(*probes): return [p.replace(attr=True) for p in probes]
_SHAPES = [P(T((2, 3))), P(T((3, 4), layout='T')), P(T(())), P(T((0, 3))), P(T((2, 3, 4))), P(T((3,)))]
TR('T mT H mH', _attr(*_SHAPES))
TR('ndim nbytes itemsize shape device is_cuda is_meta', _attr(P(T((2, 3))), P(T(())), P(T((0, 3), I64)), P(T((3, 2), B, layout='x')), P(T((2, 3), 'float16'))))
TR('bfloat16 bool byte char double float half int long short cpu contiguous detach detach_',
   [P(T((2, 3))), P(T((3, 4), layout='T')), P(T((12,), kind='special')), P(T((2, 3), I64)), P(T((2, 3), B)), P(T((2, 3), F64)),
    P(T((2, 3)), memory_format=D('contiguous_format')), P(T((3, 2), layout='x'))])
TR('to', [P(T((2, 3)), D(F64)), P(T((2, 3)), D('float32')), P(T((2, 3)), 'cpu'), P(T((2, 3)), dtype=D(I64)), P(T((3, 4), layout='T'), D(F64)),
          P(T((2, 3)), D('float32'), copy=True), P(T((2, 3)), T((2,), F64)), P(T((2, 3)), 'cpu', D(I32)), P(T((2, 3)), 'meta'),
          P(T((3, 4), layout='T'), memory_format=D('contiguous_format')), P(T((12,), kind='special'), D(I64), values=False)])
TR('type', [P(T((2, 3))), P(T((2, 3), I64)), P(T((2, 3)), D(F64)), P(T((2, 3)), 'torch.DoubleTensor'), P(T((2, 3), B))])
TR('type_as', [P(T((2, 3)), T((2,), I64)), P(T((2, 3), I64), T((2,))), P(T((3, 4), layout='T'), T((2,), F64))])
TR('data_ptr', [P(T((2, 3)), fn=_dp, label='(t.data_ptr() - storage.data_ptr()) / itemsize == storage_offset'), P(T((2, 4), layout='s'), fn=_dp, label='same for a strided view at offset 1')])
TR('const_data_ptr', [P(T((2, 3)), fn=_const_dp, label='(t.const_data_ptr() - storage.data_ptr()) / itemsize == storage_offset'), P(T((2, 4), layout='s'), fn=_const_dp, label='same, strided view')])
TR('dim ndimension nelement numel element_size is_contiguous is_signed get_device is_complex is_floating_point is_conj storage_offset tolist',
   [P(T((2, 3))), P(T(())), P(T((0, 3), I64)), P(T((3, 4), layout='T')), P(T((2, 3), U8)), P(T((2, 3), B)), P(T((2, 4), 'float16', layout='s'))])
TR('dim_order', [P(T((2, 3))), P(T((3, 4), layout='T')), P(T(())), P(T((2, 3, 4, 5)), ambiguity_check=True)])
TR('is_set_to', [P(T((2, 3)), T((2, 3))), P(T((2, 3)), fn=lambda L, x: x.is_set_to(x), label='t.is_set_to(t)'),
                 P(T((2, 3)), fn=lambda L, x: x.is_set_to(x.view(3, 2)), label='t.is_set_to(t.view(3, 2))')])
TR('is_contiguous', [P(T((2, 3))), P(T((3, 4), layout='T')), P(T(())), P(T((2, 4), layout='s')), P(T((2, 3, 4, 5)), memory_format=D('channels_last')),
                     P(T((3, 2), layout='x'))])
TR('item', [P(T((1,))), P(T(vals=[[3]], dtype=I64)), P(T(vals=True, dtype=B)), P(T((2,))), P(T(vals=[2.5], dtype='float16')), P(T((0,)))])
TR('numpy', [P(T((2, 3))), P(T((3, 4), layout='T')), P(T((2, 3), I64)), P(T((2, 3), B)), P(T(())), P(T((2, 4), layout='s')), P(T((2, 3)), force=True)])
TR('size stride', [P(T((2, 3))), P(T((2, 3)), 1), P(T((2, 3)), -1), P(T((2, 3)), 2), P(T((3, 4), layout='T')), P(T(())), P(T((3, 2), layout='x'), 0)])
TR('untyped_storage', [P(T((2, 3))), P(T((2, 4), layout='s')), P(T((0, 3)))])

# ---------------------------------------------------------------- protocols
def _pairs(vals):
    return [P(T((2, 3)), T((3,), seed=1, kind='nz')), P(T((2, 3), I64), T((2, 3), I64, seed=1, kind='nz')), P(T((2, 3)), 2),
            P(T((2, 3), I64), 2.5), P(T((2, 3), B), T((2, 3), B, seed=1)), P(T((2, 3)), T((4,))), P(T((2, 3), I32), vals)]
for op in 'add sub mul truediv floordiv mod pow and or xor lshift rshift eq ne lt le gt ge'.split():
    RECIPES[f'Tensor.__{op}__'] = _pairs(3) + [P(T((2, 3)), 'x'), P(T((2, 3)), None)]
    RECIPES[f'Tensor.__r{op}__'] = [P(T((2, 3)), 2.0), P(T((2, 3), I64), 2), P(T((2, 3), I64, kind='small'), 2.5), P(T((2, 3)), 3), P(T((2, 3), B), True),
                                    P(T((2, 3), I32), -2)]
    RECIPES[f'Tensor.__i{op}__'] = [p for p in _pairs(3)]
for op in 'eq ne lt le gt ge'.split():
    RECIPES.pop(f'Tensor.__r{op}__', None); RECIPES.pop(f'Tensor.__i{op}__', None)
RECIPES['Tensor.__rsub__'] = RECIPES['Tensor.__radd__']
for op in 'and or xor lshift rshift'.split():
    RECIPES[f'Tensor.__{op}__'] = RECIPES[f'Tensor.__i{op}__'] = [p for p in _int_binary('small') if 'out' not in p.kw]
    RECIPES[f'Tensor.__r{op}__'] = [P(T((2, 3), I64), 2), P(T((2, 3), B), True), P(T((2, 3), U8), 3), P(T((2, 3)), 2), P(T((2, 3), I64), 2.5)]
RECIPES['Tensor.__matmul__'] = [P(T((2, 3)), T((3, 4))), P(T((3,)), T((3,))), P(T((2, 3)), T((4,))), P(T((2, 3)), 2)]
RECIPES['Tensor.__rmatmul__'] = [P(T((3, 4)), T((2, 3))), P(T((3,)), T((3,))), P(T((3, 4)), 2)]
for op in 'neg pos abs'.split(): RECIPES[f'Tensor.__{op}__'] = [p for p in UNARY if 'out' not in p.kw]
RECIPES['Tensor.__invert__'] = [p for p in INT_UNARY if 'out' not in p.kw]
R('Tensor.__bool__ Tensor.__int__ Tensor.__float__ Tensor.__index__ Tensor.__complex__',
  [P(T((1,))), P(T(vals=[[3]], dtype=I64)), P(T(vals=True, dtype=B)), P(T((2,))), P(T((0,))), P(T(vals=2.7, dtype=F64)), P(T(vals=-2, dtype=I64))])
RECIPES['Tensor.__len__'] = [P(T((2, 3))), P(T(())), P(T((0, 3)))]
RECIPES['Tensor.__iter__'] = [P(x, fn=lambda L, t: list(iter(t)), label=f'list(iter({x!r}))') for x in (T((2, 3)), T(()), T((0, 3)), T((3,), I64))]
RECIPES['Tensor.__reversed__'] = [P(x, fn=lambda L, t: reversed(t), label=f'reversed({x!r})') for x in (T((2, 3)), T((3,), I64), T(()))]
RECIPES['Tensor.__contains__'] = [P(T((2, 3), I64), 2), P(T((2, 3), I64), 99), P(T((2, 3)), T(vals=0.0)), P(T((2, 3)), 'a'), P(T((2, 3), I64), T((2,), I64))]
RECIPES['Tensor.__hash__'] = [P(T((2, 3)), fn=lambda L, t: hash(t) == id(t), label='hash(t) == id(t)')]
RECIPES['Tensor.__format__'] = [P(T(vals=1.5), '.2f'), P(T((2, 3)), ''), P(T(vals=3, dtype=I64), 'd'), P(T((2, 3)), '.2f')]
RECIPES['Tensor.__repr__'] = [P(x) for x in (T((2, 3)), T((2, 3), I64), T((2, 3), B), T(()), T((0, 3)), T((12,), kind='special'), T((2, 3), F64))]
RECIPES['Tensor.__array__'] = [P(x, fn=lambda L, t: np.asarray(t), label=f'np.asarray({x!r})') for x in (T((2, 3)), T((3, 4), layout='T'), T((2, 3), I64), T((2, 3), B))] + \
    [P(T((2, 3)), fn=lambda L, t: np.asarray(t, dtype=np.float64), label='np.asarray(t, dtype=float64)'), P(T((2, 3))), P(T((2, 3)), np.dtype('float64'))]
RECIPES['Tensor.__array_wrap__'] = [P(T((2, 3)), fn=lambda L, t: np.sin(t), label='np.sin(t) (a Tensor back)'),
                                    P(T((2, 3), I64), fn=lambda L, t: np.add(t, 1), label='np.add(t, 1)')]
RECIPES['Tensor.__array_priority__'] = [P(T((2, 3)), attr=True)]
RECIPES['Tensor.__deepcopy__'] = [P(T((2, 3)), fn=lambda L, t: copy.deepcopy(t), label='copy.deepcopy(t)'),
                                  P(T((3, 4), layout='T'), fn=lambda L, t: copy.deepcopy(t), label='copy.deepcopy(transposed t)'),
                                  P(T((3, 4)), fn=_deepcopy_view, label='copy.deepcopy((t, t[1:])) keeps the shared storage'),
                                  P(T((2, 3)), fn=lambda L, t: copy.copy(t), label='copy.copy(t)')]
RECIPES['Tensor.__reduce_ex__'] = [P(x, fn=_pickle, label=f'pickle round trip of {x!r}') for x in (T((2, 3)), T((3, 4), layout='T'), T((2, 3), I64), T(()), T((2, 4), layout='s'))]
RECIPES['Tensor.__setstate__'] = [P(T((2, 3)), fn=lambda L, t: pickle.loads(pickle.dumps(t, protocol=2)), label='pickle protocol 2 round trip')]
RECIPES['Tensor.__dlpack__'] = [P(T((2, 3)), fn=lambda L, t: np.from_dlpack(t), label='np.from_dlpack(t)'),
                                P(T((3, 4), layout='T'), fn=lambda L, t: np.from_dlpack(t), label='np.from_dlpack(transposed t)')]
RECIPES['Tensor.__dlpack_device__'] = [P(T((2, 3)))]
RECIPES['Tensor.__delitem__'] = [P(T((2, 3)), 0)]
_GET = [0, -1, 5, slice(None, None, 2), slice(1, None), (Ellipsis, 1), None, (0, None, slice(None)), slice(None, None, -1), (1, 2), (1, 2, 3),
        T((2, 3), B), T((3,), B), idx(0, 1, 1), idx(2), [0, 1], (idx(0, 1), idx(2, 0)), (slice(None), idx(2, 0)), T(vals=1, dtype=I64), True,
        1.5, (Ellipsis, None), 'a', (slice(0, 0),), (idx(0), slice(None), idx(0))]
RECIPES['Tensor.__getitem__'] = [P(T((2, 3)), g) for g in _GET] + [P(T((3, 4), layout='T'), slice(1, 3)), P(T(()), ()), P(T(()), None), P(T(()), Ellipsis),
                                                                  P(T((2, 4), layout='s'), (0, slice(1, 3)))]
RECIPES['Tensor.__setitem__'] = [P(T((2, 3)), fn=_set_item(g, v), label=f't[{g!r}] = {v!r}') for g, v in
                                 [(0, 1.5), ((1, 2), 7), (slice(None, None, 2), T((3,), seed=1)), (T((2, 3), B), 0.0), (idx(1, 0), T((2, 3), seed=1)),
                                  ((Ellipsis, 1), T((2,), I64)), (5, 1.0), (0, T((4,))), ((idx(0, 1), idx(2, 0)), T(vals=[1., 2])), (None, 3.0),
                                  (idx(0, 0), T((2, 3), seed=2))]]

# ====================================================================== probe kinds: out= dtypes, overlapping writes,
# layouts, view-ness. Each kind is a function that adds probes to the names it covers; in-place methods first take the
# probes derived from their out-of-place recipes (recipes_for), so those are kept.
def _add(qual, probes):
    "Append `probes` to `qual`'s recipes (a new list: several names share one recipe list)."
    RECIPES[qual] = list(RECIPES[qual] if qual in RECIPES else recipes_for(qual)) + list(probes)

def _call_out(name, out_dtype, shape, narrow=None):
    "fn(L, *args): `L.name(*args, out=zeros(shape, out_dtype))`, returning what the call returns (cast to `narrow` if given)."
    def f(L, *args):
        r = getattr(L, name)(*args, out=_to_dev(L.zeros(shape, dtype=getattr(L, out_dtype)), L))   # on the probe's device
        return r.to(getattr(L, narrow)) if narrow and isinstance(r, (tt.Tensor, torch.Tensor)) else r
    return f

# out= of another dtype: each op family has its own rule (structured kernels: the exact dtype; TensorIterator ops: a
# safe cast; dot/vdot, tensordot, logcumsumexp, searchsorted: their own checks), and a float op computes in the
# inputs' dtype before casting into out. name -> (inputs, out shape).
OUT_DTYPE_CASES = {
    'addmm': ((T((2, 2)), T((2, 3), seed=1), T((3, 2), seed=2)), (2, 2)), 'addmv': ((T((2,)), T((2, 3), seed=1), T((3,), seed=2)), (2,)),
    'addr': ((T((2, 3)), T((2,), seed=1), T((3,), seed=2)), (2, 3)),
    'baddbmm': ((T((2, 2, 2)), T((2, 2, 3), seed=1), T((2, 3, 2), seed=2)), (2, 2, 2)),
    'addbmm': ((T((2, 2)), T((2, 2, 3), seed=1), T((2, 3, 2), seed=2)), (2, 2)),
    'mm': ((T((2, 3)), T((3, 2), seed=1)), (2, 2)), 'mv': ((T((2, 3)), T((3,), seed=1)), (2,)), 'bmm': ((T((2, 2, 3)), T((2, 3, 2), seed=1)), (2, 2, 2)),
    'matmul': ((T((2, 3)), T((3, 2), seed=1)), (2, 2)), 'dot': ((T((3,)), T((3,), seed=1)), ()), 'vdot': ((T((3,)), T((3,), seed=1)), ()),
    'inner': ((T((2, 3)), T((2, 3), seed=1)), (2, 2)), 'outer': ((T((3,)), T((2,), seed=1)), (3, 2)),
    'tensordot': ((T((2, 3)), T((3, 2), seed=1), 1), (2, 2)), 'kron': ((T((2, 2)), T((2, 2), seed=1)), (4, 4)),
    'logcumsumexp': ((T((4,)), 0), (4,)), 'cumsum': ((T((4,)), 0), (4,)), 'cumprod': ((T((4,)), 0), (4,)),
    'logsumexp': ((T((4, 2)), 0), (2,)), 'sum': ((T((4, 2)), 0), (2,)), 'mean': ((T((4, 2)), 0), (2,)), 'prod': ((T((4, 2)), 0), (2,)),
    'std': ((T((4, 2)), 0), (2,)), 'var': ((T((4, 2)), 0), (2,)), 'amax': ((T((4, 2)), 0), (2,)),
    'sin': ((T((4,)),), (4,)), 'exp': ((T((4,)),), (4,)), 'sqrt': ((T((4,), kind='pos'),), (4,)), 'sigmoid': ((T((4,)),), (4,)),
    'neg': ((T((4,)),), (4,)), 'abs': ((T((4,)),), (4,)), 'add': ((T((4,)), T((4,), seed=1)), (4,)), 'mul': ((T((4,)), T((4,), seed=1)), (4,)),
    'div': ((T((4,)), T((4,), seed=1, kind='nz')), (4,)), 'clamp': ((T((4,)), -1, 1), (4,)), 'where': ((T((4,), B), T((4,)), T((4,), seed=1)), (4,)),
    'cat': (([T((2,)), T((2,), seed=1)],), (4,)), 'stack': (([T((2,)), T((2,), seed=1)],), (2, 2)),
    'cross': ((T((3,)), T((3,), seed=1)), (3,)), 'diag': ((T((3, 3)),), (3,)), 'tril': ((T((3, 3)),), (3, 3)),
    'index_select': ((T((3, 3)), 0, idx(0, 2)), (2, 3)), 'searchsorted': ((T(vals=[1., 2., 3., 4.]), T((2,))), (2,)),
    'nan_to_num': ((T((4,), kind='special'),), (4,)), 'round': ((T((4,)),), (4,)), 'logaddexp': ((T((4,)), T((4,), seed=1)), (4,)),
}

def out_dtype_probes():
    for name, (args, shape) in OUT_DTYPE_CASES.items():
        # a float32 result widened into float64: numpy's and ATen's float32 kernels may differ in the last place, so
        # a transcendental op is compared at float32's tolerance (the computing dtype)
        narrow = 'float32' if name in TOLERANT else None
        _add(name, [P(*args, fn=_call_out(name, od, shape, narrow if od == 'float64' else None), label=f'{name}(..., out={od} {shape})')
                    for od in ('float64', 'int64', 'float16', 'complex64', 'bool')])
        _add(name, [P(*[T(a.shape, F64, seed=a.seed, kind=a.kind) if isinstance(a, T) and a.dtype == 'float32' else a for a in args],
                      fn=_call_out(name, 'float32', shape), label=f'{name}(float64 ..., out=float32 {shape})')])
    _add('vdot', [P(F(lambda L: L.tensor([1 + 2j, 3 - 1j, -2j]), 'complex64([1+2j, 3-1j, -2j])'),
                    F(lambda L: L.tensor([1 + 0j, 1j, 2 - 1j]), 'complex64([1, 1j, 2-1j])'))])
    for m, args in (('addmv_', ((2, 3), (3,))), ('addmm_', ((2, 3), (3, 2))), ('baddbmm_', ((2, 2, 3), (2, 3, 2))), ('addbmm_', ((2, 2, 3), (2, 3, 2))),
                    ('addr_', ((2,), (2,)))):
        shape = {'addmv_': (2,), 'baddbmm_': (2, 2, 2)}.get(m, (2, 2))
        _add('Tensor.' + m, [P(T(shape), *(T(s, F64, seed=i + 1) for i, s in enumerate(args)), label=f'float32 self.{m}(float64, float64)')])

# Writes into a tensor whose elements share memory (an expanded self or out=): torch refuses most with "more than
# one element of the written-to tensor refers to a single memory location"; a few ops write anyway (index_fill_,
# masked_fill_, index_put_ with a deprecation warning; addmv_ and baddbmm_ fold every element into the shared cell).
def overlap_probes():
    X = lambda shape, **k: T(shape, layout='x', **k)
    src = T((1, 4), seed=1)
    cases = {
        'index_add_': (X((3, 4)), 0, idx(0), src), 'index_copy_': (X((3, 4)), 0, idx(0), src), 'index_fill_': (X((3, 4)), 0, idx(0), 5.0),
        'scatter_': (X((3, 4)), 0, T(vals=[[0, 1, 2, 0]], dtype=I64), src),
        'scatter_add_': (X((3, 4)), 0, T(vals=[[0, 1, 2, 0]], dtype=I64), src),
        'masked_fill_': (X((3, 4)), T((3, 4), B), 1.0), 'index_put_': (X((3, 4)), (idx(0, 2),), T((2, 4), seed=1)),
        'add_': (X((3, 4)), 1.0), 'neg_': (X((3, 4)),), 'sigmoid_': (X((3, 4)),), 'copy_': (X((3, 4)), T((3, 4), seed=1)),
        'fill_': (X((3, 4)), 2.0), 'zero_': (X((3, 4)),), 'clamp_': (X((3, 4)), -1, 1), 'cumsum_': (X((3, 4)), 1),
        'nan_to_num_': (X((3, 4), dtype=I64),), 'addmv_': (X((4,)), T((4, 3), seed=1), T((3,), seed=2)),
        'baddbmm_': (T((2, 4, 3), layout='x'), T((2, 4, 3), seed=1), T((2, 3, 3), seed=2)),
        'addmm_': (X((3, 4)), T((3, 2), seed=1), T((2, 4), seed=2)), 'addr_': (X((3, 4)), T((3,), seed=1), T((4,), seed=2)),
        'masked_scatter_': (X((3, 4)), T((3, 4), B), T((12,), seed=1)), 'put_': (X((3, 4)), idx(0, 5), T((2,), seed=1)),
        'tril_': (X((3, 4)),), 'lerp_': (X((3, 4)), T((3, 4), seed=1), 0.5),
    }
    for m, args in cases.items(): _add('Tensor.' + m, [P(*args, label=f'expanded {args[0]!r}.{m}(...)')])
    for name, args in (('add', (T((3, 4)), 1.0)), ('neg', (T((3, 4)),)), ('mm', (T((3, 2)), T((2, 4), seed=1))), ('cumsum', (T((3, 4)), 1)),
                       ('index_select', (T((3, 4)), 0, idx(0, 1, 2))), ('cat', ([T((1, 4)), T((2, 4), seed=1)],))):
        _add(name, [P(*args, fn=lambda L, *a, name=name: getattr(L, name)(*a, out=_to_dev(L.zeros(3, 1), L).expand(3, 4)),
                      label=f'{name}(..., out=zeros(3, 1).expand(3, 4))')])

# Layouts: which strides an op's result has (channels_last in, channels_last out where torch keeps it).
def _cl(shape=(2, 3, 4, 5)):
    n = int(np.prod(shape))
    return F(lambda L: L.arange(float(n)).view(*shape).contiguous(memory_format=L.channels_last), f'channels_last {shape}')

def layout_probes():
    cl = _cl()
    _add('roll', [P(cl, s, d) for s, d in ((1, 0), (1, 1), (2, 2), (1, 3), (0, 1), (3, 1))] + [P(cl, (1, 2), (1, 3)), P(cl, 3)])
    _add('Tensor.cpu', [P(F(lambda L: L.arange(120.).view(2, 3, 4, 5), 'T[2x3x4x5]'), memory_format=D(f)) for f in ('channels_last', 'contiguous_format')])
    _add('Tensor.__array__', [P(T((3, 4), layout='T'), fn=lambda L, t, conv=conv: conv(t), label=f'{lab}(transposed t) strides')
                              for lab, conv in (('np.array', np.array), ('np.array float64', lambda t: np.array(t, dtype=np.float64)),
                                                ('np.array copy', lambda t: np.array(t, copy=True)))])
    for name in ('flip', 'clone', 'neg', 'sigmoid', 'cumsum', 'softmax', 'where', 'cat', 'add'):
        args = {'flip': (cl, (1, 2)), 'cumsum': (cl, 1), 'softmax': (cl, 1), 'where': (F(lambda L: L.ones(2, 3, 4, 5, dtype=L.bool), 'mask'), cl, 0.0),
                'cat': ([cl, cl], 1), 'add': (cl, cl)}.get(name, (cl,))
        _add(name, [P(*args, label=f'{name} of a channels_last tensor')])

# View-ness: `_is_view()` of the result (ops whose kernels make views internally are not views; flatten of a fresh
# clone is), and the list-of-sequences index read as a tuple (treatSequenceAsTuple).
def _viewness(name, *args, **kw):
    def f(L, *a):
        r = getattr(L, name)(*a, **kw)
        r0 = r[0] if isinstance(r, tuple) and name not in ('std_mean', 'var_mean') else r[1] if isinstance(r, tuple) else r
        return r0, r0._is_view()
    return P(*args, fn=f, label=f'{name}({", ".join(map(repr, args))}{"".join(f", {k}={v!r}" for k, v in kw.items())})._is_view()')

def viewness_probes():
    x, x64t = T((3, 4)), T((4, 3), F64, layout='T')
    for name, args, kw in (('rot90', (x,), {}), ('rot90', (x, 3), {}), ('rot90', (x, 2), {}), ('kron', (x, T((2, 1), seed=1)), {}),
                           ('unique', (x,), dict(dim=0)), ('unique', (x,), dict(dim=1)), ('unique_consecutive', (x,), dict(dim=0)),
                           ('std_mean', (x64t, 0), {}), ('var_mean', (x64t, 0), {}), ('var_mean', (x64t,), {}),
                           ('repeat_interleave', (x, 2), {}), ('repeat_interleave', (x, 2), dict(dim=0)), ('repeat_interleave', (x, idx(1, 2, 1)), dict(dim=0)),
                           ('flatten', (x,), {}), ('reshape', (T((3, 4), layout='T'), (12,)), {}), ('movedim', (x, 0, 1), {}), ('diagonal', (x,), {})):
        _add(name, [_viewness(name, *args, **kw)])
    _add('Tensor.__getitem__', [P(T((3, 4)), g, label=f't[{g!r}]') for g in
                                ([[0], [2]], [[0, 1], [2, 3]], [[0, 1]], [0, [2]], [slice(None), 1], [None, 1], [Ellipsis, 1], [[0], [2], [1]],
                                 [[0]] * 40)])

# ====================================================================== running and reporting
# Results compared with a tolerance (floats only): transcendental pointwise functions, float
# reductions and scans (summation order differs between numpy and ATen's kernels), products, and
# the fused multiply-add style pointwise ops, and sqrt (torch's vectorized float32 sqrt is not
# always correctly rounded: sqrt(2.7f) is 1 ulp off numpy's). Everything else (and every integer or bool result)
# is compared exactly, including the sign of zero.
TOLERANT = set(_names("""
    acos arccos acosh arccosh asin arcsin asinh arcsinh atan arctan atanh arctanh atan2 arctan2 cos cosh
    deg2rad rad2deg digamma erf erfc erfinv exp exp2 expm1 i0 lgamma log log10 log1p log2 logit logaddexp
    logaddexp2 sigmoid sinc sin sinh tan tanh rsqrt pow float_power hypot igamma igammac xlogy mvlgamma
    polygamma softmax lerp addcdiv addcmul gradient
    sum nansum mean nanmean prod std var std_mean var_mean norm dist logsumexp quantile nanquantile
    cumsum cumprod logcumsumexp
    sqrt
    mm bmm mv dot vdot inner outer ger matmul addmm addmv addr addbmm baddbmm chain_matmul matrix_power
    einsum tensordot kron trace cross __matmul__ __rmatmul__ __pow__ __rpow__ __ipow__"""))

# ---------------------------------------------------------------------- keyword forms and wrong-type arguments
# torch binds every Python call through one parser (PythonArgParser, torch/csrc/utils/python_arg_parser.cpp) against
# the signatures of native_functions.yaml: every parameter before `*` may also be given by keyword, an int list takes
# a bare int only where the signature says so, and a wrong type is a TypeError. These probes call each name the way
# the parser allows (or forbids) and compare with torch; they are added to the recipes of the names above.
def _add_probes(qual, *probes):
    RECIPES[qual] = list(RECIPES.get(qual, [])) + list(probes)      # a fresh list: names may share one recipe list

def _keyword_form_probes():
    "Calls spelled with the signature's keywords, plus valid inputs that other recipes do not reach."
    t0 = lambda v, dt='int64': F(lambda L: L.tensor(v, dtype=getattr(L, dt)), f'tensor({v!r})')
    for n in ('zeros', 'ones'): _add_probes(n, P(size=(2, 3)), P(size=[2, 3], dtype=D(I32)))
    for n in ('empty', 'rand', 'randn'): _add_probes(n, P(size=(2, 3), values=False))
    _add_probes('randint', P(low=2, high=5, size=(3,), values=False), P(high=5, size=(3,), values=False))
    _add_probes('full', P(size=(2,), fill_value=1.5))
    _add_probes('arange', P(end=3), P(start=1, end=3), P(t0(3)), P(t0(3.5, 'float32')), P(1, t0(3), 1))
    _add_probes('linspace', P(start=0, end=1, steps=5))
    _add_probes('eye', P(n=2, m=3))
    for n in ('new_zeros', 'new_ones'): _add_probes('Tensor.' + n, P(T((2, 3)), size=(2, 3)))
    _add_probes('Tensor.new_empty', P(T((2, 3)), size=(2, 3), values=False))
    _add_probes('Tensor.new_full', P(T((2, 3)), size=(2,), fill_value=2.0))
    for n in ('zeros_like', 'ones_like'): _add_probes(n, P(input=T((2, 3)), dtype=D(I64)))
    _add_probes('take_along_dim', P(T((3, 4)), F(lambda L: L.tensor([[-1, -5, 4]]), 'tensor([[-1, -5, 4]])'), 1))
    empty_slice = lambda f, label: P(fn=lambda L: f(L), label=label)
    _add_probes('sum', empty_slice(lambda L: L.zeros(5, 0)[1:].sum(()), 'zeros(5, 0)[1:].sum(())'))
    _add_probes('prod', empty_slice(lambda L: L.zeros(4, 0)[1:].prod(-1, keepdim=True), 'zeros(4, 0)[1:].prod(-1, keepdim=True)'))
    _add_probes('any', empty_slice(lambda L: L.zeros(5, 5, 2, 0)[1:].any(), 'zeros(5, 5, 2, 0)[1:].any()'))

def _wrong_type_probes():
    "Arguments of the wrong type: torch's parser raises TypeError (or the op its own error)."
    x = T((3, 4))
    _add_probes('full', P(2, 1.0))
    _add_probes('reshape', P(x, 12))
    _add_probes('zeros_like', P(3)); _add_probes('empty_like', P([1, 2])); _add_probes('ones_like', P(2.5))
    _add_probes('Tensor.view_as', P(x, 3))
    for n in ('atleast_1d', 'atleast_2d', 'atleast_3d'): _add_probes(n, P(3))
    _add_probes('inner', P(x, 2.5))
    _add_probes('promote_types', P(D(I32), 'a'))
    _add_probes('can_cast', P(D(I32), 5))
    _add_probes('Tensor.cpu', P(x, 1))
    _add_probes('Tensor.flip', P(x))
    for n in ('hstack', 'vstack', 'dstack', 'column_stack'): _add_probes(n, P(x))
    _add_probes('Tensor.new_full', P(x, 2, 1.0))
    for n in ('float', 'double'): _add_probes('Tensor.' + n, P(x, 'x'))
    for n in ('contiguous', 'is_contiguous'): _add_probes('Tensor.' + n, P(x, D('float32')))
    _add_probes('topk', P(x, 2.5))
    _add_probes('Tensor.sum', P(T(()), (0, 0)))
    _add_probes('zeros', P([2.0]), P((2, 'a')), P(2, size=(3,)))
    _add_probes('randint', P(5, 6))

_keyword_form_probes()
_wrong_type_probes()

def _base_name(qual):
    n = qual[7:] if qual.startswith('Tensor.') else qual
    if NAMES.get(qual) == 'inplace': n = n[:-1]
    return n

def recipes_for(qual):
    "The probes for a qualified name (torch function `name` or method `Tensor.name`)."
    if qual in RECIPES: return RECIPES[qual]
    if not qual.startswith('Tensor.'): return []
    m = qual[7:]
    if NAMES.get(qual) == 'inplace':
        src = recipes_for('Tensor.' + m[:-1])
        return [p for p in src if 'out' not in p.kw and not p.fn and not p.attr]
    return [p for p in RECIPES.get(m, []) if p.args and isinstance(p.args[0], T) and 'out' not in p.kw and not p.fn]

for _kind in (out_dtype_probes, overlap_probes, layout_probes, viewness_probes): _kind()   # the probe kinds above

def present(qual):
    if qual.startswith('Tensor.'):
        n = qual[7:]
        if n.startswith('__') and getattr(tt.Tensor, n, None) is getattr(object, n, None) and n not in ('__hash__', '__format__', '__reduce_ex__'):
            return False     # only object's default (e.g. __setstate__ missing): not present
        return hasattr(tt.Tensor, n)
    return hasattr(tt, qual)

def probe_name(qual):
    "[(probe label, failure or None)] for one present name."
    tol = _base_name(qual) in TOLERANT
    return [(p.show(qual), run_probe(qual, p, tol)) for p in recipes_for(qual)]

def measure(names=None, verbose=False):
    "Run presence and probes for `names` (default: all); returns the result dictionary."
    names = names or list(NAMES)
    res = {}
    for q in names:
        r = {'category': NAMES.get(q, '?'), 'kind': 'method' if q.startswith('Tensor.') else 'function', 'present': present(q)}
        if not r['present']: r['status'] = 'missing'
        else:
            probes = probe_name(q)
            fails = [{'probe': lab, 'diff': d} for lab, d in probes if d]
            r['probes'], r['failures'] = len(probes), fails
            r['status'] = 'unprobed' if not probes else ('mismatch' if fails else 'match')
        res[q] = r
    return res

CATEGORIES = ['creation', 'indexing', 'pointwise', 'comparison', 'reduction', 'other', 'blas', 'attributes', 'protocols', 'inplace']

def summarize(res):
    "Per category and kind: total, present, matching, mismatching, unprobed."
    def blank(): return {'total': 0, 'present': 0, 'match': 0, 'mismatch': 0, 'unprobed': 0}
    table = {}
    for q, r in res.items():
        for key in ((r['category'], r['kind']), (r['category'], 'all'), ('TOTAL', r['kind']), ('TOTAL', 'all')):
            row = table.setdefault(key[0], {}).setdefault(key[1], blank())
            row['total'] += 1
            if r['present']: row['present'] += 1; row[r['status']] += 1
    return table

def _pct(a, b): return f'{100 * a / b:5.1f}%' if b else '   - '

def report(res, verbose=False, out=sys.stdout):
    table = summarize(res)
    w = out.write
    w('torch API coverage of tinytensor (names from torch.md/tensors.md; see tools/api_coverage.py)\n')
    w(f'present% = present/total; match% = names matching torch on every probe / present; {len(EXCLUDED)} torch names '
      f'excluded for a stated reason (EXCLUDED; listed with --verbose)\n\n')
    if verbose:
        by = {}
        for n, why in EXCLUDED.items(): by.setdefault(why, []).append(n)
        for why, ns in by.items(): w(f'  excluded, {why}: {", ".join(ns)}\n')
        w('\n')
    w(f'{"category":<12} {"kind":<9} {"total":>5} {"present":>7} {"match":>6} {"mismatch":>8} {"unprobed":>8}   {"present%":>8} {"match%":>7}\n')
    for c in CATEGORIES + ['TOTAL']:
        for k in ('function', 'method', 'all'):
            row = table.get(c, {}).get(k)
            if not row: continue
            w(f'{c if k != "all" or c == "TOTAL" else "":<12} {k:<9} {row["total"]:>5} {row["present"]:>7} {row["match"]:>6} {row["mismatch"]:>8} '
              f'{row["unprobed"]:>8}   {_pct(row["present"], row["total"]):>8} {_pct(row["match"], row["present"]):>7}\n')
        w('\n')
    for c in CATEGORIES:
        items = [(q, r) for q, r in res.items() if r['category'] == c]
        miss = [q for q, r in items if not r['present']]
        mism = [(q, r) for q, r in items if r.get('status') == 'mismatch']
        unp = [q for q, r in items if r.get('status') == 'unprobed']
        if not (miss or mism or unp): continue
        w(f'== {c}\n')
        if miss: w(f'  missing ({len(miss)}): ' + ', '.join(miss) + '\n')
        if unp: w(f'  present, unprobed ({len(unp)}): ' + ', '.join(unp) + '\n')
        for q, r in mism:
            f = r['failures']
            if verbose:
                w(f'  MISMATCH {q} ({len(f)}/{r["probes"]} probes fail)\n')
                for x in f: w(f'      {x["probe"]}\n          -> {x["diff"]}\n')
            else:
                w(f'  MISMATCH {q} ({len(f)}/{r["probes"]}): {f[0]["probe"]} -> {f[0]["diff"]}\n')
        w('\n')

def selfcheck(names=None):
    "Run every probe with torch on both sides; a failure is a recipe or comparison bug, not a tinytensor one."
    global tt
    saved, tt = tt, torch
    try: res = measure(names)
    finally: tt = saved
    bad = {q: r for q, r in res.items() if r['status'] != 'match'}
    for q, r in bad.items():
        print(f'{q}: {r["status"]}', *(f'\n    {f["probe"]} -> {f["diff"]}' for f in r.get('failures', [])))
    print(f'selfcheck: {len(res) - len(bad)}/{len(res)} names consistent')
    return 1 if bad else 0

def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--json', help='write the machine-readable result to this file')
    ap.add_argument('--verbose', action='store_true', help='show every failing probe with the difference found')
    ap.add_argument('--only', nargs='*', help='measure only these names (e.g. add Tensor.add_)')
    ap.add_argument('--selfcheck', action='store_true',
                    help='probe torch against itself: every name must match (checks the recipes are deterministic)')
    ap.add_argument('--device', choices=['cuda'], help='build every probe tensor on CUDA (the strict CuPy stand-in without a GPU)')
    ap.add_argument('--jobs', type=int, default=1, help='measure in this many processes')
    a = ap.parse_args(argv)
    t0 = time.time()
    if a.jobs > 1 and not a.selfcheck: res = measure_parallel(a.only or None, a.jobs, a.device)
    else:
        use_device(a.device)
        if a.selfcheck: return selfcheck(a.only or None)
        res = measure(a.only or None)
    if a.device: print(f"device: {DEVICE['tt'] or a.device} (tinytensor{' on the strict CuPy stand-in' if not tt.cuda.is_available() or DEVICE['standin'] else ''}), "
                       f"torch on {DEVICE['torch'] or ('cpu' if not torch.cuda.is_available() else 'cuda')}")
    report(res, a.verbose)
    print(f'({len(res)} names, {sum(r.get("probes", 0) for r in res.values())} probes, {time.time() - t0:.1f}s)')
    if a.json:
        doc = {'summary': summarize(res), 'names': res, 'excluded': EXCLUDED, 'torch_version': torch.__version__}
        with open(a.json, 'w') as f: json.dump(doc, f, indent=1, sort_keys=True)
    return 0

if __name__ == '__main__': sys.exit(main())
