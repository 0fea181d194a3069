"""The probe recipes of tools/api_coverage.py: generic families by kind of operation, per-name recipes, the probe
kinds (out= dtypes, overlapping writes, layouts, view-ness) and `recipes_for`."""
import argparse, copy, enum, io, json, math, os, pickle, signal, sys, tempfile, time, warnings, zlib
import numpy as np
import torch
import torch.fx.experimental.symbolic_shapes    # torch's argument checks import sympy on first use (seconds): not inside a timed probe
import tinytensor as tt
from coverage_names import *
from coverage_names import _names
from coverage_probes import *
from coverage_probes import _to_dev

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
    # None, not 'cpu': torch's set_default_device('cpu') leaves a device mode installed, and
    # under it some Python-level methods (dim_order's ambiguity check) answer differently
    finally: L.set_default_device(None if str(old) == 'cpu' else old)

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
# the conjugate and negative bits (chapter 05c): complex inputs, conjugate views and their imaginary parts
_CX = F(lambda L: L.tensor([[1 + 2j, 3 - 1j, -2j], [0.5 + 0j, -1 - 1j, 2 + 0.25j]]), 'complex64(2x3)')
_CXT = F(lambda L: L.tensor([[1 + 2j, 3 - 1j], [-2j, 0.5 + 0j], [-1 - 1j, 2 + 0.25j]]).mT, 'complex64(3x2).mT')
_CONJ = F(lambda L: L.tensor([[1 + 2j, 3 - 1j, -2j], [0.5 + 0j, -1 - 1j, 2 + 0.25j]]).conj(), 'complex64(2x3).conj()')
_NEG = F(lambda L: L.tensor([[1 + 2j, 3 - 1j, -2j], [0.5 + 0j, -1 - 1j, 2 + 0.25j]]).conj().imag, 'complex64(2x3).conj().imag')
_BITS = [P(_CX), P(_CXT), P(_CONJ), P(_NEG)]
for _n in ('conj', 'resolve_conj', 'resolve_neg', 'conj_physical', 'adjoint', 'is_conj'):
    RECIPES[_n] = RECIPES.get(_n, []) + _BITS
    # the method: the function's tensor-first probes (as `recipes_for` derives them) and these
    RECIPES['Tensor.' + _n] = [p for p in RECIPES[_n] if p.args and isinstance(p.args[0], T)
                               and 'out' not in p.kw and not p.fn] + _BITS
RECIPES['Tensor.is_neg'] = [P(T((2, 3))), P(T((2, 3), I64))] + _BITS
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

# ---------------------------------------------------------------- serialization
# Each library writes its own checkpoint (tt.save, torch.save: the same bytes but the serialization id) into a stream,
# then reads it back from the stream's position; the result lists the tensors, whether two views still share a
# storage, and where the stream is left (torch: just past the last bytes it read).
def _ser_obj(L, empty=True):
    base = L.arange(12, dtype=L.float32)
    obj = {'w': base.reshape(3, 4), 'wT': base.reshape(3, 4).t(), 'i': L.tensor([1, 2, 3])}
    if empty: obj['e'] = L.zeros(0, dtype=L.int16)
    return obj

def _ser_seen(r, f):
    shared = r['w'].untyped_storage().data_ptr() == r['wT'].untyped_storage().data_ptr()
    return [r[k] for k in sorted(r)] + [shared, f.tell()]

def _ser_stream(L, before=b'', after=None, gz=False):
    "A stream holding `before` (bytes, or a pickled object), a checkpoint, then a pickled `after`; at the checkpoint."
    import gzip
    buf = io.BytesIO()
    f = gzip.GzipFile(fileobj=buf, mode='wb') if gz else buf
    if isinstance(before, bytes): f.write(before)
    else: pickle.dump(before, f)
    L.save(_ser_obj(L), f)
    if after is not None: pickle.dump(after, f)
    if gz: f.close()
    f = gzip.GzipFile(fileobj=io.BytesIO(buf.getvalue())) if gz else io.BytesIO(buf.getvalue())
    if isinstance(before, bytes): f.seek(len(before))
    else: assert pickle.load(f) == before
    return f

def _ser_at(before=b'', after=None, gz=False, **kw):
    def fn(L):
        f = _ser_stream(L, before, after, gz)
        return _ser_seen(L.load(f, **kw), f)
    return fn

def _ser_meta(L):
    f = _ser_stream(L, b'x' * 13)
    r = L.load(f, map_location='meta')
    return [r['w'], r['wT'], r['i'], f.tell()]

def _ser_two(L):
    "Two checkpoints of one layout in a stream: the second, then the first, each found by seeking to it."
    f = io.BytesIO(); L.save(L.arange(5.), f); off = f.tell(); L.save(L.arange(3, dtype=L.int32), f)
    f.seek(off); b = L.load(f); pb = f.tell()
    f.seek(0); a = L.load(f)
    return [b, pb, a, f.tell()]

def _ser_file(L):
    with tempfile.TemporaryDirectory() as d:
        p = os.path.join(d, 'x.bin')
        with open(p, 'wb') as f: pickle.dump(41, f); L.save(_ser_obj(L), f); pickle.dump('after', f)
        with open(p, 'rb') as f:
            assert pickle.load(f) == 41
            return _ser_seen(L.load(f), f)

class _ReadOnly:
    def __init__(self, b): self.b = io.BytesIO(b)
    def read(self, n=-1): return self.b.read(n)

def _ser_unseekable(L):
    f = io.BytesIO(); L.save(L.arange(3), f)
    return L.load(_ReadOnly(f.getvalue()))

def _ser_mmap_stream(L):
    f = io.BytesIO(); L.save(L.arange(3), f); f.seek(0)
    return L.load(f, mmap=True)

def _save_at(L):
    "save appends at the stream's position; the archive it writes reads back from there."
    f = io.BytesIO(); f.write(b'x' * 13); L.save(_ser_obj(L, empty=False), f); end = f.tell()   # see the note below
    f.seek(13)
    return _ser_seen(L.load(f), f) + [end]

def _ser_legacy(L):
    """torch's legacy format (`_use_new_zipfile_serialization=False`) after 13 other bytes, then a pickle;
    each library's file has its own storage keys, so the position is compared as 'just past the checkpoint'."""
    f = io.BytesIO(); f.write(b'x' * 13)
    L.save(_ser_obj(L), f, _use_new_zipfile_serialization=False); end = f.tell(); pickle.dump('after', f)
    f.seek(13); r = L.load(f)
    return _ser_seen(r, f)[:-1] + [f.tell() == end, pickle.load(f)]

R('load', [P(fn=_ser_at(b'x' * 13), label='load(f) of a checkpoint after 13 other bytes, f at it'),
           P(fn=_ser_at(41), label='load(f) after pickle.load(f) of what was pickled first'),
           P(fn=_ser_at(b'', 'after'), label='load(f) of a checkpoint followed by a pickle'),
           P(fn=_ser_at(41, 'after', gz=True), label='load(f) of a gzip.GzipFile, after a pickle'),
           P(fn=_ser_at(b'x' * 13, weights_only=False), label='load(f, weights_only=False) after 13 other bytes'),
           P(fn=_ser_meta, label="load(f, map_location='meta') after 13 other bytes: no storage bytes read"),
           P(fn=_ser_two, label='load(f) of two checkpoints in one stream: the second, then the first (seeking to each)'),
           P(fn=_ser_file, label="load(f) of a real file (open(path, 'rb')), after a pickle"),
           P(fn=_ser_unseekable, label='load(f) of an object with read() but no seek() or tell()'),
           P(fn=_ser_mmap_stream, label='load(f, mmap=True) of a file object'),
           P(fn=_ser_legacy, label='load(f) of a legacy-format checkpoint after 13 other bytes, then a pickle')])
# (no empty tensor in the save probe: tt.save writes a 16-byte data descriptor after an empty record, miniz writes
# none, so the archive is longer; a layout difference of the writer, not one of reading at a position)
R('save', [P(fn=_save_at, label='save(obj, f) after 13 other bytes: the stream position after, and reading it back')])

# ---------------------------------------------------------------- out= layouts of the factories
# Each factory writes 4 elements into a view of a zeros base: narrowed, transposed, permuted, at an offset, another
# shape of the same numel, expanded (overlapping: torch refuses) and too small (resized). The probe returns the out
# tensor, its strides and offset, and the whole base afterwards (an element written outside the view shows there).
_OUT_VIEWS = {
    'narrowed zeros(2, 3).narrow(1, 1, 2)': lambda L: (lambda b: (b, b.narrow(1, 1, 2)))(L.zeros(2, 3)),
    'transposed zeros(2, 2).t()': lambda L: (lambda b: (b, b.t()))(L.zeros(2, 2)),
    'permuted zeros(2, 1, 2).permute(2, 0, 1)': lambda L: (lambda b: (b, b.permute(2, 0, 1)))(L.zeros(2, 1, 2)),
    'offset zeros(7)[2:6]': lambda L: (lambda b: (b, b[2:6]))(L.zeros(7)),
    'strided zeros(8)[::2]': lambda L: (lambda b: (b, b[::2]))(L.zeros(8)),
    'same numel zeros(2, 2)': lambda L: (lambda b: (b, b))(L.zeros(2, 2)),
    'expanded zeros(1).expand(4)': lambda L: (lambda b: (b, b.expand(4)))(L.zeros(1)),
    'too small zeros(3)': lambda L: (lambda b: (b, b))(L.zeros(3)),
}

def _out_probe(call, view, values=True):
    def fn(L):
        base, out = _OUT_VIEWS[view](L)
        r = call(L, out)
        seen = [r is out, tuple(out.shape), out.stride(), out.storage_offset()]
        return seen + ([out, base] if values else [])
    return fn

def _out_layouts(call, values=True):
    return [P(fn=_out_probe(call, v, values), label=f'out= {v}') for v in _OUT_VIEWS]

R('arange', RECIPES['arange'] + _out_layouts(lambda L, o: L.arange(4., out=o)))
R('range', RECIPES['range'] + _out_layouts(lambda L, o: L.range(0, 3, out=o)))
R('linspace', RECIPES['linspace'] + _out_layouts(lambda L, o: L.linspace(0, 3, 4, out=o)))
R('logspace', RECIPES['logspace'] + _out_layouts(lambda L, o: L.logspace(0, 3, 4, out=o)))
R('zeros', RECIPES['zeros'] + _out_layouts(lambda L, o: L.zeros(2, 2, out=o)))
R('ones', RECIPES['ones'] + _out_layouts(lambda L, o: L.ones(4, out=o)))
R('full', RECIPES['full'] + _out_layouts(lambda L, o: L.full((2, 2), 7., out=o)))
R('eye', RECIPES['eye'] + _out_layouts(lambda L, o: L.eye(2, out=o)))
R('empty', RECIPES['empty'] + _out_layouts(lambda L, o: L.empty(2, 2, out=o), values=False))

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
for _n in ('T', 'mT', 'H', 'mH'):
    RECIPES['Tensor.' + _n] = RECIPES['Tensor.' + _n] + _attr(P(_CX), P(_CXT), P(_CONJ), P(_NEG))
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
# numpy interop and DLPack as torch 2.13 does them (PyTorch's test_numpy_interop.py / test_dlpack.py): numpy
# decides for ndarray operands, numpy scalars read as Python numbers, tensor() checks arrays as from_numpy, DLPack-only data
class _OnlyDLPack:
    def __init__(self, a): self.a = a
    def __dlpack__(self, *args, **kw): return self.a.__dlpack__(*args, **kw)
    def __dlpack_device__(self): return self.a.__dlpack_device__()
def _pinned_resize(L, t):
    t.numpy()
    return t.resize_(5)
RECIPES['Tensor.__array_wrap__'] = RECIPES['Tensor.__array_wrap__'] + [
    P(T((2, 3)), fn=lambda L, t: np.greater_equal(t, 0), label='np.greater_equal(t, 0) (uint8)'),
    P(T((2, 3)), fn=lambda L, t: t + np.arange(3, dtype=np.int32), label='t + int32 array (numpy: float64)'),
    P(T((2, 3)), fn=lambda L, t: t < np.zeros(3), label='t < array (TypeError)'),
    P(T((2, 3)), fn=lambda L, t: t + np.zeros(4), label='t + array of another shape (ValueError)')]
RECIPES['tensor'] = RECIPES['tensor'] + [
    P(fn=lambda L: L.tensor(np.arange(4.)[::-1]), label='tensor(array with a negative stride) (ValueError)'),
    P(fn=lambda L: L.tensor(np.array([1.], dtype='>d')), label="tensor(array of byte order '>d') (ValueError)"),
    P(fn=lambda L: L.tensor(_OnlyDLPack(np.arange(12.).reshape(3, 4)[:, ::2])), label='tensor(object with only __dlpack__)'),
    P(fn=lambda L: L.tensor([np.int16(3), np.float16(1.5)]), label='tensor([np.int16, np.float16]) keeps numpy dtypes')]
RECIPES['from_numpy'] = RECIPES['from_numpy'] + [P(fn=lambda L: L.from_numpy(np.array([1.], dtype='>d')), label="from_numpy('>d' array)")]
RECIPES['from_dlpack'] = RECIPES['from_dlpack'] + [P([1, 2], label='from_dlpack([1, 2]) (RuntimeError)')]
RECIPES['Tensor.__dlpack_device__'] = RECIPES['Tensor.__dlpack_device__'] + [
    P(fn=lambda L: L.empty(2, device='meta').__dlpack_device__(), label='meta tensor (ValueError)')]
RECIPES['Tensor.numpy'] = RECIPES['Tensor.numpy'] + [P(T((3,)), fn=_pinned_resize, label='resize_ after numpy() (RuntimeError)')]
# bfloat16 and float8 at the numpy border: torch refuses both ways, numpy has no such dtypes of its own (TypeError)
import ml_dtypes
RECIPES['Tensor.numpy'] = RECIPES['Tensor.numpy'] + [P(T((2, 3), 'bfloat16')), P(T((2, 3), 'bfloat16'), force=True),
    P(fn=lambda L: L.ones(2, dtype=L.float8_e4m3fn).numpy(), label='float8_e4m3fn numpy() (TypeError)')]
RECIPES['Tensor.__array__'] = RECIPES['Tensor.__array__'] + [
    P(T((2, 3), 'bfloat16'), fn=lambda L, t: np.asarray(t), label='np.asarray(bfloat16 t) (TypeError)'),
    P(T((2, 3), 'bfloat16'), fn=lambda L, t: np.asarray(t, dtype=np.float32), label='np.asarray(bfloat16 t, float32)')]
RECIPES['from_numpy'] = RECIPES['from_numpy'] + [P(NP(np.ones(2, ml_dtypes.bfloat16))),
                                                 P(NP(np.ones(2, ml_dtypes.float8_e5m2)))]
RECIPES['tensor'] = RECIPES['tensor'] + [P(NP(np.ones(2, ml_dtypes.bfloat16))),
    P(NP(np.ones(2, ml_dtypes.bfloat16)), dtype=D('float32')), P(NP(np.ones(2, ml_dtypes.float8_e4m3fn)))]
RECIPES['full'] = RECIPES['full'] + [P((2,), fn=lambda L, s: L.full(s, np.int16(3)), label='full((2,), np.int16(3)) (int64)'),
                                     P((2,), fn=lambda L, s: L.full(s, np.bool_(True)), label='full((2,), np.bool_(True)) (float32)')]
RECIPES['add'] = RECIPES['add'] + [P(T((2,), B), fn=lambda L, t: L.add(t, np.bool_(True)), label='add(bool tensor, np.bool_(True))')]
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

# ---- issue 48 (indexing and shape names): range and 0-d integer indices, del, narrow's tensor start, rot90's dims,
# set_/new/empty_permuted/type/dim_order forms, scatter_reduce/index_reduce edges, the overlap refusals
RECIPES['Tensor.__getitem__'] = RECIPES['Tensor.__getitem__'] + [
    P(T((3, 4)), range(2)), P(T((3, 4)), (range(2), range(2))), P(T((3, 4)), (slice(None), range(0, 4, 2))), P(T((3, 4)), range(0)),
    P(T((3, 4)), T(vals=1, dtype='int16')), P(T((3, 4)), T(vals=-1, dtype='int8')), P(T((3, 4)), (0, T(vals=2, dtype=I32))),
    P(T((3, 4)), T(vals=1, dtype=U8)), P(T((3, 4)), T(vals=[1], dtype='int16')),
    P(T((1000,)), fn=lambda L, x: x[[range(i, i + 10) for i in range(990)]], label='t[[range(i, i + 10) for i in range(990)]]')]
RECIPES['Tensor.__setitem__'] = RECIPES['Tensor.__setitem__'] + [
    P(T((3, 4)), fn=_set_item(g, v), label=f't[{g!r}] = {v!r}') for g, v in
    [(range(2), 7.0), ((range(2), range(2)), -1.0), (T(vals=1, dtype='int16'), 5.0)]]
RECIPES['Tensor.__delitem__'] = RECIPES['Tensor.__delitem__'] + [P(T((2, 3)), slice(0, 1)), P(T((2, 3)), idx(0))]
RECIPES['narrow'] = RECIPES['narrow'] + [P(T((4, 5)), 1, T(vals=[1], dtype=I64), 2), P(T((4, 5)), 1, T(vals=1.0), 2),   # not narrow_copy's
                                         P(T((4, 5)), 1, T(vals=1, dtype='int16'), 2), P(T((4, 5)), 1, T(vals=True, dtype=B), 2)]
def _inplace_of(name):
    "The probes an in-place method derives from its out-of-place recipe (as `recipes_for`, defined below, would)."
    return [p for p in RECIPES[name] if p.args and isinstance(p.args[0], T) and 'out' not in p.kw and not p.fn and not p.attr]
RECIPES['rot90'] = RECIPES['rot90'] + [P(T((2, 3)), 1, d) for d in ((0, 2), (2, 0), (-3, 1), (1, -1), (0, -2))]
RECIPES['Tensor.set_'] = RECIPES['Tensor.set_'] + [
    P(T((2, 3)), fn=lambda L, x: L.arange(6.).set_(L.zeros(6).untyped_storage(), 5, (2, 2), (1, 2)).untyped_storage().nbytes(),
      label='t.set_(storage, 5, (2, 2), (1, 2)) grows the storage'),
    P(T((2, 3)), fn=lambda L, x: x.set_(L.arange(4.).untyped_storage(), -1, (2,)), label='t.set_(storage, -1, (2,))'),
    P(T((2, 3)), fn=lambda L, x: x.set_(L.arange(4.).untyped_storage()), label='t.set_(storage)'),
    P(T((2, 3)), fn=lambda L, x: x.set_(x), label='t.set_(t)')]
RECIPES['Tensor.new'] = [P(T((2, 3)), fn=f, label=lab) for lab, f in [
    ('t.new()', lambda L, x: x.new()), ('t.new(2, 3).shape', lambda L, x: tuple(x.new(2, 3).shape)), ('t.new((2, 3))', lambda L, x: x.new((2, 3))),
    ('t.new([[1, 2]])', lambda L, x: x.new([[1, 2]])), ('t.new(t)', lambda L, x: x.new(x)), ('t.new(int64 tensor)', lambda L, x: x.new(L.zeros(2, dtype=L.int64))),
    ('t.new(2.5)', lambda L, x: x.new(2.5)), ('t.new(range(3))', lambda L, x: x.new(range(3))), ('t.new(-1)', lambda L, x: x.new(-1))]]
RECIPES['empty_permuted'] = [P(fn=lambda L, s=s, p=p: L.empty_permuted(s, p).stride(), label=f'empty_permuted({s}, {p}).stride()')
                             for s, p in [((2, 3, 4), (2, 0, 1)), ((2, 3), (1, 0)), ((0, 3), (1, 0)), ((2, 3), (0, 0)), ((2, 3), (0, 2)), ((2, 3), (0,))]]
RECIPES['Tensor.type'] = RECIPES['Tensor.type'] + [P(T((2, 3), I64), D('Tensor')), P(T((2, 3), I64), D('LongTensor')), P(T((2, 3)), 'torch.Tensor'),
                                                   P(T((2, 3)), int)]
RECIPES['Tensor.dim_order'] = RECIPES['Tensor.dim_order'] + [
    P(T((1, 2, 3, 4)), ambiguity_check=True), P(T((1, 2, 3, 4)), ambiguity_check=[D('contiguous_format'), D('channels_last')]),
    P(T((2, 3)), ambiguity_check='ILLEGAL'), P(T((3, 4), layout='T'), ambiguity_check=True), P(T((3, 2), layout='x'), ambiguity_check=True)]
RECIPES['scatter_reduce'] = RECIPES['scatter_reduce'] + [
    P(T((3, 4), 'float16'), 0, _scatter_index(), T((3, 4), 'float16', seed=1), 'sum'), P(T((5,)), 0, T((0, 4), I64), T((2,)), 'sum'),
    P(T((3, 4), kind='special'), 0, _scatter_index(), T((3, 4), kind='special', seed=1), 'amax'),
    P(T((3,), I64), 0, idx(0, 0, 2), T(vals=[-2, -3, 5], dtype=I64), 'mean', include_self=False)]
RECIPES['index_reduce'] = RECIPES['index_reduce'] + [
    P(T((3, 4), kind='special'), 0, idx(0, 2, 0), T((3, 4), kind='special', seed=1), 'amin', include_self=False),
    P(T((3,), I64), 0, idx(0, 0), T(vals=[-2, -3], dtype=I64), 'mean', include_self=False), P(T((3, 4)), 0, idx(7), T((1, 4)), 'prod', include_self=False)]
RECIPES['Tensor.masked_fill_'] = _inplace_of('Tensor.masked_fill') + [P(T((2, 3)), fn=lambda L, x: (lambda m: m[1:].masked_fill_(m[:-1], False))(L.tensor([True, False, True, False])),
                                    label='m[1:].masked_fill_(m[:-1], False)')]
RECIPES['Tensor.scatter_'] = _inplace_of('scatter') + [P(T((2, 3)), fn=lambda L, x: (lambda s: s.scatter_(0, L.tensor([1, 0, 3, 2]), s))(L.arange(4.)), label='s.scatter_(0, idx, s)'),
                              P(T((2, 3)), fn=lambda L, x: L.zeros(3).scatter_(0, L.zeros((0, 4), dtype=L.int64), L.ones(2, 2)),
                                label='zeros(3).scatter_(0, empty (0, 4) index, src)')]

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

# out= of the factories. A range (arange, linspace, logspace) goes into an `out` of its length in `out`'s row-major
# order, keeping its shape and strides, and resizes only an `out` of another numel; the filling factories (zeros,
# ones, full, empty, eye, rand, randn, randint) `resize_` it, so another shape of the same numel becomes contiguous.
# Each probe writes into a view of a base tensor of -1s and returns: is the result `out`, the result, `out`'s version
# bump, and the base after the call (nothing around `out` may change). For random values and `empty`: which elements
# of the base still hold -1, instead of the values.
FACTORY_OUT_VIEWS = [('narrowed', (2, 3), lambda b: b.narrow(1, 1, 2)), ('transposed', (3, 2), lambda b: b.t()),
                     ('permuted', (3, 3, 300), lambda b: b.permute(2, 0, 1)), ('offset', (7,), lambda b: b[1:]),
                     ('expanded', (1, 2), lambda b: b.expand(3, 2)), ('2x2', (2, 2), lambda b: b), ('empty', (0,), lambda b: b)]

def _into_view(call, base_shape, view, dtype, random):
    "fn(L): `call(L, out)` with `out` a view of a base of -1s; what it returns, and the base after it."
    def f(L):
        base = _to_dev(L.full(base_shape, -1, dtype=getattr(L, dtype)), L)
        out = view(base)
        v = out._version
        r = call(L, out)
        if random: return r is out, tuple(r.shape), tuple(r.stride()), r.storage_offset(), out._version - v, base == -1
        return r is out, r, out._version - v, base
    return f

def factory_out_probes():
    ranges = {'arange': lambda L, o, n: L.arange(1., 1. + 0.5 * n, 0.5, out=o),
              'linspace': lambda L, o, n: L.linspace(-1.5, 0.25 * n - 1.75, n, out=o),    # step 0.25: exact in any kernel
              'logspace': lambda L, o, n: L.logspace(-1.5, 2.25, n, base=3.0, out=o)}
    fills = {'zeros': (lambda L, o, s: L.zeros(s, out=o), 'float32', False), 'ones': (lambda L, o, s: L.ones(s, out=o), 'float32', False),
             'full': (lambda L, o, s: L.full(s, 2.5, out=o), 'float32', False),
             'eye': (lambda L, o, s: L.eye(*(s if len(s) == 2 else (2, 3)), out=o), 'float32', False),
             'empty': (lambda L, o, s: L.empty(s, out=o), 'float32', True), 'rand': (lambda L, o, s: L.rand(s, out=o), 'float32', True),
             'randn': (lambda L, o, s: L.randn(s, out=o), 'float64', True),
             'randint': (lambda L, o, s: L.randint(3, 9, s, out=o), 'int64', True)}
    for lay, shape, view in FACTORY_OUT_VIEWS:
        n = {'narrowed': 4, 'permuted': 2700, 'offset': 6, 'empty': 4}.get(lay, 6 if lay != '2x2' else 4)
        for name, call in ranges.items():
            _add(name, [P(fn=_into_view(lambda L, o, call=call, n=n: call(L, o, n), shape, view, 'float32', False),
                          label=f'{name}({n} values, out={lay})')])
        for name, (call, dt, random) in fills.items():
            _add(name, [P(fn=_into_view(lambda L, o, call=call: call(L, o, tuple(o.shape)), shape, view, dt, random),
                          label=f'{name}(out.shape, out={lay})'),
                        P(fn=_into_view(lambda L, o, call=call: call(L, o, (o.numel(),)), shape, view, dt, random),
                          label=f'{name}((out.numel(),), out={lay})')])
    for name, call in ranges.items():                     # another numel: resized to (n,)
        _add(name, [P(fn=_into_view(lambda L, o, call=call: call(L, o, 5), (2, 3), lambda b: b.narrow(1, 1, 2), 'float32', False),
                      label=f'{name}(5 values, out=narrowed 2x2)')])

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

def _refused_form_and_selection_probes():
    "Forms torch's overloads or kernels refuse (TypeError / RuntimeError), and ties that show mode's, kthvalue's and aminmax's picks."
    call = lambda label, f: P(fn=f, label=label)
    x = T((3, 4))
    _add_probes('prod', P(x, dim=None), P(x, None), P(x, keepdim=True), P(x, out=T((), seed=2)))
    _add_probes('Tensor.prod', P(x, dim=None))
    _add_probes('sum', P(x, keepdim=True), P(x, keepdim=False), P(x, None, True), P(x, out=T((), seed=2)))
    _add_probes('Tensor.sum', P(x, keepdim=True))
    _add_probes('mean', P(x, keepdim=True), P(x, None, True))
    big = lambda L: L.zeros([1] * 65)
    for name, args in (('sum', (0,)), ('sum', ()), ('prod', (0,)), ('mean', ((0, 1),)), ('amax', (0,)), ('amin', ()), ('all', ()),
                       ('any', (0,)), ('max', (0,)), ('argmax', (0,)), ('std', (0,)), ('var', (0,)), ('nansum', (0,)), ('nanmean', ()),
                       ('logsumexp', (0,)), ('count_nonzero', (0,)), ('norm', ()), ('softmax', (30,))):
        # (a result of 65 dims is read back flattened: numpy holds at most 64)
        _add_probes(name, call(f'zeros([1] * 65).{name}{args}', lambda L, name=name, args=args: getattr(big(L), name)(*args).reshape(-1)))
    for name in ('unique', 'unique_consecutive'):
        _add_probes(name, *[call(f'{name}(zeros(0, 0), dim={d})', lambda L, name=name, d=d: getattr(L, name)(L.zeros(0, 0), dim=d))
                            for d in (0, 1)])
    ties = F(lambda L: L.tensor([1, 2] * 20), 'tensor([1, 2] * 20)')
    ftie = F(lambda L: L.tensor([0., -0., 1., float('nan'), 1., 0., -0., 1.] * 3), 'tensor([0., -0., 1., nan, 1., 0., -0., 1.] * 3)')
    _add_probes('mode', P(ties), P(ftie), P(T((3, 4), I64, kind='small'), 0), P(T((), F64)))
    _add_probes('kthvalue', P(ties, 20), P(ftie, 5), P(ftie, 24), P(ties, 41), P(ties, 3, out=(T((), seed=2, dtype=I64), T((), seed=3, dtype=I64))))
    _add_probes('aminmax', P(ftie), P(ftie, dim=0), P(T((3, 4), layout='T'), dim=1), P(x, dim=(0, 1)))
    _add_probes('quantile', P(T((5, 7)), 0.37, 1), P(T((5, 7), F64), T(vals=[0.1, 0.9], dtype=F64), 0, True), P(ftie, 0.5),
                P(x, 0.5, interpolation='x'), P(x, T(vals=[0.5], dtype=F64)))
    _add_probes('nanquantile', P(ftie, 0.3), P(ftie, T(vals=[0.0, 0.45, 1.0]), interpolation='midpoint'))
    _add_probes('isin', P(T((2, 3), I64), 257), P(2, T((3,), 'int8', kind='small')), P(ftie, ftie), P(T((2, 3), B), T((3,), I64)),
                P(2, 2), P(T((2, 3), layout='T'), 1.0))

_keyword_form_probes()
_wrong_type_probes()
_refused_form_and_selection_probes()

def _numpy_names_and_classes_probes():
    "numpy's argument names (axis, keepdims, x1/x2), torch's exception classes, empty random draws, complex isclose."
    x, y = T((2, 3, 4)), T((2, 3, 4), seed=1)
    _add_probes('add', P(x1=x, x2=y), P(x=x, x2=y, alpha=2), P(x, y, x2=y))
    _add_probes('mul', P(x1=x, x2=2))
    _add_probes('sum', P(x, axis=(0, 2), keepdims=True), P(a=x, axis=1), P(x, 0, axis=1), P(x, dim=0, axis=1))
    _add_probes('Tensor.sum', P(x, axis=(0, 2), keepdims=True))
    _add_probes('mean', P(x, axis=0), P(x, axis=(0, 1), keepdims=True))
    _add_probes('Tensor.mean', P(x, axis=0))
    _add_probes('max', P(x, axis=1), P(x1=x, x2=y), P(x, axis=1, keepdims=True))
    _add_probes('argmax', P(x, axis=2)); _add_probes('cumsum', P(x, axis=1)); _add_probes('topk', P(x, 2, axis=1))
    _add_probes('Tensor.unsqueeze', P(x, axis=0)); _add_probes('Tensor.size', P(x, axis=1))
    _add_probes('clamp', P(x, 'a'), P(x, min='a'))
    _add_probes('tensordot', P(T((2, 3)), T((3, 4), seed=1), dims=([1],)), P(T((2, 3)), T((3, 4), seed=1), dims='a'))
    _add_probes('addbmm', P(T((2, 2)), T((2, 2), seed=1), T((2, 2), seed=2)), P(T((2, 2)), T((1, 2, 2), seed=1), T((2, 2), seed=2)))
    _add_probes('baddbmm', P(T((2, 2)), T((2, 2), seed=1), T((2, 2), seed=2)))
    _add_probes('broadcast_tensors', P([T((2,)), T((2,), seed=1)]))
    for n in ('randn', 'rand'):
        _add_probes(n, P((5, 0, 1), dtype=D('int8')), P(0, 0, dtype=D(I64)), P((0,), dtype=D('bool')))
    _add_probes('randint', P(0, 2, (0,), dtype=D('complex64')))
    c = lambda v: F(lambda L: L.tensor([v], dtype=L.complex128), f'tensor([{v!r}], dtype=complex128)')
    _add_probes('isclose', P(c(complex(-2 ** .5, 2 ** .5)), c(complex(-.5 ** .5, .5 ** .5)), atol=.5, rtol=.5))

_numpy_names_and_classes_probes()

# ---------------------------------------------------------------- the newer dtypes (uint16/32/64, float8)
# torch's promotion refusals and the few kernels these dtypes have; ops without a kernel raise NotImplementedError
_U16 = lambda v=(1, 2, 65535): F(lambda L: L.tensor(list(v), dtype=L.uint16), f'uint16({list(v)})')
_U64 = F(lambda L: L.tensor([0, 5, 2**64 - 1], dtype=L.uint64), 'uint64([0, 5, 2**64-1])')
_E4 = lambda v=(1.0, -0.5, 300.0): F(lambda L: L.tensor(list(v), dtype=L.float8_e4m3fn), f'float8_e4m3fn({list(v)})')
_E8 = F(lambda L: L.tensor([0.5, 2.0, 3.0], dtype=L.float8_e8m0fnu), 'float8_e8m0fnu([0.5, 2, 3])')
_add_probes('promote_types', P(D('uint16'), D('float16')), P(D('uint32'), D('int8')), P(D('float8_e4m3fn'), D('float32')),
            P(D('float8_e5m2'), D('float8_e4m3fn')), P(D('uint64'), D('bfloat16')))
_add_probes('mul', P(_U16(), _U16((3, 4, 2))), P(_E4(), _E4((2.0, 3.0, 2.0))), P(_E8, _E8), P(_E4(), 2))
_add_probes('add', P(_U16(), _U16((3, 4, 2))), P(_E4(), _E4()), P(_U64, 1))
_add_probes('lt', P(_U16(), _U16((3, 4, 2))), P(_E4(), _E4()))
_add_probes('eq', P(_U16(), _U16((3, 4, 2))), P(_E4(), _E4((1.0, 0.5, 448.0))), P(_U64, _U64))
_add_probes('abs', P(_E4((-0.0, -1.5, 2.0))), P(_E8), P(_U16()))
_add_probes('div', P(_U16(), _U16((3, 4, 2))), P(_E4(), _E4()))
_add_probes('neg', P(_U16()), P(_E4()))
_add_probes('cat', P([_U16(), _U16((3, 4, 2))]), P([_E4(), _E8]))
# moving bytes, and the conversions of the unsigned types: what a CUDA tensor of these dtypes does on the device too
# (`--device cuda`; chapter 07b, Note [Dtypes CuPy lacks]); float8 conversions on CUDA are not probed there: tinytensor
# refuses them on the device, a departure from torch's CUDA build that chapter 07b lists
_I = F(lambda L: L.tensor([2, 0, 2]), 'tensor([2, 0, 2])')
_add_probes('index_select', P(_E4(), 0, _I), P(_E8, 0, _I))
_add_probes('Tensor.clone', P(_E4()), P(_E8), P(_U64))
_add_probes('Tensor.fill_', P(_U16(), 7), P(_E4(), 2.0), P(_U64, 2**64 - 1))
_add_probes('Tensor.double', P(_U16()), P(_U64))
_add_probes('Tensor.cpu', P(_E4()), P(_U16()))
# complex32 (chalf): float16 with complex numbers promotes to it; few kernels, the rest NotImplementedError
_C32 = lambda v=(1 + 2j, -0.5 + 0.1j, 3j): F(lambda L: L.tensor(list(v), dtype=L.complex32), f'complex32({list(v)})')
_H = F(lambda L: L.tensor([1.0, -2.0, 0.5], dtype=L.float16), 'float16([1, -2, 0.5])')
_add_probes('promote_types', P(D('complex32'), D('bfloat16')), P(D('float16'), D('complex64')),
            P(D('complex32'), D('uint16')), P(D('int8'), D('complex32')))
_add_probes('result_type', P(_H, 1j), P(_C32(), 2.5), P(_H, F(lambda L: L.tensor(1j), '0-d complex64')))
for _n in ('add', 'sub', 'mul'):
    _add_probes(_n, P(_H, 1j), P(_C32(), _C32((2 - 1j, 0.25j, -4 + 0j))), P(_C32(), 0.5 + 2j),
                P(_H, F(lambda L: L.tensor(1j), '0-d complex64')), P(_C32(), _H))
_add_probes('div', P(_C32(), _C32()), P(_H, 1j), P(_C32(), 2))
_add_probes('pow', P(_C32(), 2), P(_H, 1j))
_add_probes('where', P(F(lambda L: L.tensor([True, False, True]), 'mask'), _H, 1j),
            P(F(lambda L: L.tensor([True, False, True]), 'mask'), _C32(), 0))
_add_probes('eq', P(_C32(), _C32((1 + 2j, 0j, 3j))))
_add_probes('ne', P(_C32(), _C32((1 + 2j, 0j, 3j))))
_add_probes('lt', P(_C32(), _C32()))
_add_probes('abs', P(_C32()))
_add_probes('neg', P(_C32()))
_add_probes('sgn', P(_C32()))
_add_probes('isnan', P(_C32()))
_add_probes('isfinite', P(_C32()))
_add_probes('cat', P([_C32(), _C32()]), P([_C32(), _H]))
_add_probes('sum', P(_C32()))
_add_probes('mean', P(_C32()))
_add_probes('prod', P(_C32()))
_add_probes('flip', P(_C32(), [0]))
_add_probes('exp', P(_C32()))
_add_probes('matmul', P(_C32(), _C32()))
_add_probes('view_as_real', P(_C32()))
_add_probes('view_as_complex', P(F(lambda L: L.tensor([[1.0, 2.0], [3.0, -1.0]], dtype=L.float16), 'float16 pairs')))
_add_probes('complex', P(_H, _H))
_add_probes('addcmul', P(_C32(), _C32(), _C32((2 - 1j, 0.25j, -4 + 0j))))
_add_probes('lerp', P(_C32(), _C32(), 0.5), P(_H, _H, F(lambda L: L.tensor(0.5j), '0-d complex64')))
# every other op over them (tests/test_new_dtype_ops.py sweeps the rest): a matrix of each kind, a 2x2 float8 slice
# whose sum ATen takes in a float32 buffer, a 0-d float8 that sort and min(dim) copy
_NEWM = lambda dt: F(lambda L: (L.tensor([[1, 5, 3], [2, 0, 4]], dtype=getattr(L, dt)) if dt.startswith('uint') else
                                L.tensor([[1.0, -0.5, 3.0], [2.0, 0.0, 4.0]]).to(getattr(L, dt))), f'{dt}(2x3)')
_U16M, _U64M, _E4M, _E5M, _E8M = map(_NEWM, ('uint16', 'uint64', 'float8_e4m3fn', 'float8_e5m2', 'float8_e8m0fnu'))
_E5S = F(lambda L: L.tensor([[1.0, -0.5, 3.0], [2.0, 0.0, 4.0]]).to(L.float8_e5m2)[:, ::2], 'float8_e5m2(2x3)[:, ::2]')
_E4Z = F(lambda L: L.tensor(2.0).to(L.float8_e4m3fn), 'float8_e4m3fn(2.0)')
_NEW_PROBES = {
    'sum': [P(_U16M), P(_U64M, 1), P(_E4M), P(_E5S), P(_E5S, (0, 1), keepdim=True)],
    'prod': [P(_U16M), P(_E4M, 1)], 'mean': [P(_E4M), P(_E5S)], 'std': [P(_E4M), P(_E4M, 1)],
    'max': [P(_U16M), P(_E4M, 1), P(_E4Z, 0)], 'amax': [P(_U64M, 1), P(_E8M)], 'argmax': [P(_U16M), P(_E5M, 0)],
    'aminmax': [P(_U16M)], 'norm': [P(_E4M), P(_E4Z), P(_E8M)], 'count_nonzero': [P(_U16M), P(_U16M, 1)],
    'sort': [P(_U16M), P(_U64M, 0, descending=True), P(_E4M), P(_E4Z, 0)], 'argsort': [P(_U16M), P(_E5M)],
    'topk': [P(_U16M, 2)], 'median': [P(_U16M), P(_E4M, 1)], 'unique': [P(_U16M), P(_E8M)],
    'cumsum': [P(_U16M, 1), P(_E4M, 0), P(_E4Z, 0)], 'cummax': [P(_U16M, 1), P(_E4Z, 0)],
    'flip': [P(_U16M, (1,)), P(_U16M, (0,)), P(_E4M, (0,))], 'roll': [P(_U16M, 1, 1), P(_E4M, 1)],
    'arange': [P(5, dtype=D('uint16')), P(3, dtype=D('float8_e4m3fn'))], 'linspace': [P(0, 4, 5, dtype=D('uint32'))],
    'rand': [P(3, dtype=D('float8_e5m2'))], 'randn': [P(3, dtype=D('uint16'))],
    'randint': [P(0, 5, (3,), dtype=D('uint16'), values=False), P(0, 5, (3,), dtype=D('float8_e4m3fn'))],
    'nonzero': [P(_U16M), P(_E4M)], 'masked_fill': [P(_U16M, bvals(True, False, True), 1)],
    'masked_select': [P(_U16M, bvals(True, False, True)), P(_E4M, bvals(True, False, True))],
    'gather': [P(_U16M, 1, idx([0, 2], [1, 0])), P(_E4M, 1, idx([0, 2], [1, 0]))],
    'index_select': [P(_U16M, 1, idx(2, 0)), P(_E8M, 0, idx(1))], 'take': [P(_U64M, idx(0, 4))],
    'where': [P(bvals(True, False, True), _U16M, _U16M), P(bvals(True, False, True), _E4M, _E4M)],
    'clamp': [P(_U16M, 0, 2), P(_E4M, min=1)], 'tril': [P(_U16M)], 'triu': [P(_E4M, 1)], 'trace': [P(_U16M)],
    'mm': [P(_E4M, F(lambda L: L.tensor([[1.0, -0.5, 3.0], [2.0, 0.0, 4.0]]).to(L.float8_e4m3fn).t(), 'its .t()')),
           P(_U16M, F(lambda L: L.tensor([[1, 5, 3], [2, 0, 4]], dtype=L.uint16).t(), 'its .t()'))],
    'isinf': [P(_U16M), P(_E4M), P(_E5M)], 'isfinite': [P(_E8M), P(_E4M)], 'sign': [P(_U16M)],
    'diag': [P(_U16M), P(_E8M)], 'repeat_interleave': [P(_E4M, 2)], 'equal': [P(_U16M, _U16M), P(_E4M, _E4M)],
}
for _n, _ps in _NEW_PROBES.items(): _add_probes(_n, *_ps)

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

for _kind in (out_dtype_probes, overlap_probes, factory_out_probes, layout_probes, viewness_probes): _kind()   # the probe kinds above

