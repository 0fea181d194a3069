"""Differential fuzz: every in-place Tensor method that writes values (the `*_` methods both libraries have) on every
kind of view (transposed, stepped slice, column, diagonal, permuted, unfold) and dtype, against torch.

A view hands the kernels strided memory, where numpy's own loops may differ from its contiguous ones (numpy 2.2-2.4's
`negative` wrote wrong values at a 4-element stride). Every case compares the whole base tensor after the write (so a
write to the wrong place is caught too), the returned tensor, and raise / no-raise with the exception type."""
import zlib
import numpy as np
import pytest
torch = pytest.importorskip("torch")
import tinytensor as tt

DTYPES = ['float32', 'float64', 'int32', 'int64']

# each view kind: (base shape, function of the base giving the view); the same indexing runs on both libraries
VIEWS = {
    'transposed': ((5, 6), lambda b: b.t()),
    'stepped': ((24,), lambda b: b[1::4]),
    'stepped8': ((48,), lambda b: b[::8]),
    'stepped2d': ((6, 8), lambda b: b[::2, 1::3]),
    'column4': ((5, 4), lambda b: b[:, 1]),
    'column8': ((5, 8), lambda b: b[:, 2]),
    'diagonal': ((5, 5), lambda b: b.diagonal()),
    'permuted': ((2, 3, 4), lambda b: b.permute(2, 0, 1)),
    'unfold': ((20,), lambda b: b.unfold(0, 3, 4)),               # windows 4 apart: no two elements share memory
    'expanded': ((3, 1), lambda b: b.expand(3, 4)),               # a 0 stride: torch refuses most writes
    'expanded1d': ((1,), lambda b: b.expand(5)),
    'expanded3d': ((2, 1, 3), lambda b: b.expand(2, 4, 3)),
}
# (overlapping `unfold` windows are left out: torch's overlap check calls them too hard to decide and writes them in
# its own loop order, so the values are not defined)

UNARY = ['abs_', 'absolute_', 'acos_', 'acosh_', 'arccos_', 'arccosh_', 'arcsin_', 'arcsinh_', 'arctan_', 'arctanh_',
         'asin_', 'asinh_', 'atan_', 'atanh_', 'bitwise_not_', 'ceil_', 'conj_physical_', 'cos_', 'cosh_', 'deg2rad_',
         'erf_', 'erfc_', 'exp2_', 'exp_', 'expm1_', 'fix_', 'floor_', 'frac_', 'log10_', 'log1p_', 'log2_', 'log_',
         'logical_not_', 'logit_', 'nan_to_num_', 'neg_', 'negative_', 'rad2deg_', 'reciprocal_', 'relu_', 'round_',
         'rsqrt_', 'sgn_', 'sigmoid_', 'sign_', 'sin_', 'sinc_', 'sinh_', 'sqrt_', 'square_', 'tan_', 'tanh_', 'trunc_',
         'zero_']
BINARY = ['add_', 'sub_', 'subtract_', 'mul_', 'multiply_', 'div_', 'divide_', 'true_divide_', 'floor_divide_',
          'remainder_', 'fmod_', 'pow_', 'float_power_', 'atan2_', 'arctan2_', 'copysign_', 'hypot_', 'nextafter_',
          'ldexp_', 'xlogy_', 'bitwise_and_', 'bitwise_or_', 'bitwise_xor_', 'bitwise_left_shift_',
          'bitwise_right_shift_', 'gcd_', 'lcm_', 'eq_', 'ne_', 'lt_', 'le_', 'gt_', 'ge_', 'greater_', 'greater_equal_',
          'less_', 'less_equal_', 'not_equal_', 'logical_and_', 'logical_or_', 'logical_xor_', 'copy_',
          'clamp_min_', 'clamp_max_']
# methods that change only the metadata (no values written) are left to the view tests
META = {'as_strided_', 'squeeze_', 'unsqueeze_', 't_', 'transpose_', 'swapaxes_', 'swapdims_', 'requires_grad_'}

def _rng(key): return np.random.default_rng(zlib.crc32(repr(key).encode()))     # the same draws in every run

def _values(shape, dtype, rng, positive=False):
    if dtype.startswith('float'):
        v = rng.uniform(0.25, 2.0, shape) if positive else rng.uniform(-3, 3, shape)
        return v.astype(dtype)
    v = rng.integers(1, 4, shape) if positive else rng.integers(-5, 6, shape)
    return v.astype(dtype)

def _other_args(name, shape, dtype, rng):
    "numpy arrays / Python values for the arguments of `name` on a `self` of `shape`; None: not applicable."
    nd = len(shape)
    pos = _values(shape, dtype, rng, positive=True)
    if name in UNARY: return [()]
    if name in BINARY:
        scalar = 2 if dtype.startswith('int') else 1.5
        return [(pos,), (scalar,)]
    if name == 'fill_': return [(3,)]
    if name in ('clamp_', 'clip_'): return [(-1, 2)]
    if name == 'lerp_': return [(pos, 0.25)] if dtype.startswith('float') else [(pos, 1)]
    if name in ('addcmul_', 'addcdiv_'): return [(pos, _values(shape, dtype, rng, True)), (pos, pos, 2)]
    if name in ('cumsum_', 'cumprod_'): return [(0,), (nd - 1,)]
    if name in ('tril_', 'triu_'): return [(), (1,)] if nd == 2 else None
    mask = rng.integers(0, 2, shape).astype(bool)
    if name == 'masked_fill_': return [(mask, 7)]
    if name == 'masked_scatter_': return [(mask, _values(shape, dtype, rng))]
    n0 = shape[0]
    idx = np.array([n0 - 1, 0], dtype=np.int64)
    src_shape = (2,) + tuple(shape[1:])
    if name == 'index_fill_': return [(0, idx, 5)]
    if name in ('index_add_', 'index_copy_'): return [(0, idx, _values(src_shape, dtype, rng))]
    if name == 'index_put_': return [((idx,), _values(src_shape, dtype, rng))]
    if name == 'put_': return [(np.array([0, shape[-1] - 1]), _values((2,), dtype, rng))]
    if name in ('scatter_', 'scatter_add_'):
        index = np.zeros(src_shape, dtype=np.int64); index[0] = n0 - 1
        return [(0, index, _values(src_shape, dtype, rng))]
    k = 3
    if name in ('addmm_', 'addr_') and nd == 2:
        if name == 'addr_': return [(_values(shape[:1], dtype, rng), _values(shape[1:], dtype, rng))]
        return [(_values((shape[0], k), dtype, rng), _values((k, shape[1]), dtype, rng))]
    if name == 'addmv_' and nd == 1: return [(_values((shape[0], k), dtype, rng), _values((k,), dtype, rng))]
    if name == 'addbmm_' and nd == 2: return [(_values((2, shape[0], k), dtype, rng), _values((2, k, shape[1]), dtype, rng))]
    if name == 'baddbmm_' and nd == 3:
        return [(_values((shape[0], shape[1], k), dtype, rng), _values((shape[0], k, shape[2]), dtype, rng))]
    return None

def _names():
    both = sorted(m for m in dir(tt.Tensor) if m.endswith('_') and not m.startswith('_') and hasattr(torch.Tensor, m))
    return [m for m in both if m not in META]

def _lib_args(lib, args):
    return tuple(lib.from_numpy(a.copy()) if isinstance(a, np.ndarray) else
                 tuple(lib.from_numpy(x.copy()) for x in a) if isinstance(a, tuple) else a for a in args)

def _run(lib, base_np, view, name, args):
    base = lib.from_numpy(base_np.copy())
    v = view(base)
    try: r = getattr(v, name)(*_lib_args(lib, args))
    except Exception as e: return base, None, e
    return base, (r is v), None

def _close(a, b, dtype):
    a, b = np.asarray(a), np.asarray(b)
    if dtype.startswith('float'):
        tol = 2e-6 if dtype == 'float32' else 1e-13
        return np.allclose(a, b, rtol=tol, atol=tol, equal_nan=True)
    return np.array_equal(a, b)

def _cases(name):
    for vk, (shape, view) in VIEWS.items():
        vshape = tuple(view(torch.empty(shape)).shape)
        for dtype in DTYPES:
            args = _other_args(name, vshape, dtype, _rng((name, vk, dtype)))
            if args is None: continue
            for a in args: yield vk, dtype, a

def _check(name, vk, dtype, args):
    shape, view = VIEWS[vk]
    base_np = _values(shape, dtype, _rng((vk, dtype, 'base')))
    tb, tsame, te = _run(tt, base_np, view, name, args)
    rb, rsame, re = _run(torch, base_np, view, name, args)
    what = f'{name} on a {vk} {dtype} view, args {" ".join(repr(args).split())[:150]}'
    if re is not None or te is not None:
        assert re is not None and te is not None, f'{what}: torch raised {re!r}, tinytensor {te!r}'
        assert type(te) is type(re), f'{what}: torch {type(re).__name__}: {re}; tinytensor {type(te).__name__}: {te}'
        return
    assert tsame and rsame, f'{what}: the method must return self'
    assert _close(tb.numpy(), rb.numpy(), dtype), f'{what}: values differ\ntinytensor {tb.numpy()}\ntorch      {rb.numpy()}'

# (name, view kind) pairs where the two libraries may differ; none today
KNOWN = set()

@pytest.mark.parametrize('name', _names())
def test_inplace_on_views(name):
    bad = []
    for vk, dtype, args in _cases(name):
        if (name, vk) in KNOWN: continue
        try: _check(name, vk, dtype, args)
        except AssertionError as e: bad.append(str(e).splitlines()[0][:300])
    assert not bad, f'{len(bad)} cases differ:\n' + '\n'.join(bad[:12])

def test_neg_on_a_column_is_right():
    "The case numpy 2.2-2.4 gets wrong (Note [numpy negative at a stride]): a 4-element stride in and out."
    for dtype, w in (('float32', 4), ('int32', 4), ('float64', 8), ('int64', 8)):
        a = tt.arange(3 * w).to(getattr(tt, dtype)).view(3, w); a[:, 1].neg_()
        b = torch.arange(3 * w).to(getattr(torch, dtype)).view(3, w); b[:, 1].neg_()
        assert a.tolist() == b.tolist(), dtype
        o, p = tt.zeros(3, w, dtype=getattr(tt, dtype)), torch.zeros(3, w, dtype=getattr(torch, dtype))
        tt.neg(a[:, 1], out=o[:, 2]); torch.neg(b[:, 1], out=p[:, 2])
        assert o.tolist() == p.tolist(), dtype
