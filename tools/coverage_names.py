"""The names tools/api_coverage.py measures: torch.md and tensors.md sections by category, and the exclusions with their
reasons (see the docstring of tools/api_coverage.py for where the lists come from)."""
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

# "Serialization" section: the zip checkpoints of torch.save / torch.load.
SERIALIZATION = _names("save load")

FUNCTIONS = {
    'creation': CREATION, 'indexing': INDEXING, 'pointwise': POINTWISE, 'reduction': REDUCTION,
    'comparison': COMPARISON, 'other': OTHER_KEPT, 'blas': BLAS_KEPT, 'attributes': TENSORS_KEPT,
    'serialization': SERIALIZATION}

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
