"numpy interop and operands with no elements, against torch (PyTorch's test_numpy_interop.py, re-expressed)."
import itertools
import numpy as np
import pytest
torch = pytest.importorskip("torch")
import tinytensor as tt
from ttgen import run_both, check_results, DTYPES

# a 0-dim operand with an empty one: ATen's reduced-float scalar path needs data (Note [An empty one-element operand])
EMPTY_OPS = ['add', 'sub', 'mul', 'div', 'true_divide', 'floor_divide', 'remainder', 'pow', 'maximum', 'atan2', 'eq']
EMPTY_SHAPES = [((), (0,)), ((0,), ()), ((), (2, 0)), ((1,), (0,))]

@pytest.mark.parametrize('op', EMPTY_OPS)
def test_zero_dim_with_empty(op):
    bad = []
    for da, db in itertools.product(DTYPES, DTYPES):
        for sa, sb in EMPTY_SHAPES:
            for kw in ([{}, {'rounding_mode': 'floor'}, {'rounding_mode': 'trunc'}] if op == 'div' else [{}]):
                def mk(L):
                    # an empty operand from numpy has zero strides, as numpy's own
                    a, b = (L.tensor(np.full(s, 1), dtype=getattr(L, d)) for s, d in ((sa, da), (sb, db)))
                    return getattr(L, op)(a, b, **kw)
                m = check_results(*run_both(lambda: mk(tt), lambda: mk(torch)), op,
                                  ctx=f'{op} {da} {db} {sa} {sb} {kw}')
                if m: bad.append(m)
    assert not bad, bad[:5]

def test_mul_half_scalar_with_empty_array():
    for op in (lambda L, a, b: L.mul(a, b), lambda L, a, b: L.true_divide(a, b),
               lambda L, a, b: L.div(a, b, rounding_mode='floor')):
        r = run_both(lambda: op(tt, tt.tensor(0.5), tt.tensor(np.zeros(0), dtype=tt.float16)),
                     lambda: op(torch, torch.tensor(0.5), torch.tensor(np.zeros(0), dtype=torch.float16)))
        assert check_results(*r, 'mul') is None

# numpy ufuncs and ndarray operands: numpy decides, the tensor's __array_wrap__ makes the result a tensor again
# (Note [numpy arrays as operands])
def _cmp(r_tt, r_th, ctx):
    if isinstance(r_th, Exception) or isinstance(r_tt, Exception) or isinstance(r_th, torch.Tensor):
        return check_results(r_tt, r_th, 'add', ctx=ctx)
    if type(r_tt).__name__ != type(r_th).__name__: return f'{ctx}: {type(r_tt)} != {type(r_th)}'
    if isinstance(r_th, np.ndarray):
        return None if (r_tt.dtype == r_th.dtype and np.array_equal(r_tt, r_th, equal_nan=True)) else f'{ctx}: values'
    return None if r_tt == r_th or (r_tt != r_tt and r_th != r_th) else f'{ctx}: {r_tt} != {r_th}'

OPERATORS = ['add', 'sub', 'mul', 'truediv', 'floordiv', 'mod', 'pow', 'and_', 'or_', 'xor', 'lshift', 'rshift',
             'matmul', 'lt', 'le', 'eq', 'ne', 'gt', 'ge']
ARRAYS = [np.array([1, 2], dtype=np.int32), np.array(2, dtype=np.int32), np.array([1.5, -2.]),
          np.array([True, False]), np.array([1, 2, 3], dtype=np.uint8), np.array([[1], [2]], dtype=np.float16)]

@pytest.mark.parametrize('tdt', ['float32', 'int64', 'bool', 'float16', 'int8'])
def test_operators_with_ndarray(tdt):
    import operator
    bad = []
    for op in OPERATORS:
        f = getattr(operator, op)
        for a in ARRAYS:
            for flip in (False, True):
                def run(L):
                    t = L.tensor([1, 3], dtype=getattr(L, tdt))
                    return f(a, t) if flip else f(t, a)
                m = _cmp(*run_both(lambda: run(tt), lambda: run(torch)), f'{op} {tdt} {a.dtype}{a.shape} {flip}')
                if m: bad.append(m)
    assert not bad, bad[:5]

@pytest.mark.filterwarnings("ignore::DeprecationWarning")
def test_inplace_operator_with_ndarray_rebinds():
    # t += array: torch's __iadd__ refuses, Python falls back to t + array, a new tensor in numpy's dtype
    for L in (tt, torch):
        t = L.tensor([1., 2.]); u = t
        u += np.array([1, 2], dtype=np.int32)
        assert u is not t and u.dtype is L.float64 and t.tolist() == [1., 2.]
    r = run_both(lambda: tt.tensor([1., 2.]).__iadd__(np.ones(3)), lambda: torch.tensor([1., 2.]).__iadd__(np.ones(3)))
    assert r[0] is NotImplemented and r[1] is NotImplemented
    def grow(L):
        t = L.tensor([1., 2.]); t += np.ones(3); return t
    assert check_results(*run_both(lambda: grow(tt), lambda: grow(torch)), 'add') is None

UFUNCS = [(np.sin, 1), (np.sqrt, 1), (np.negative, 1), (np.isnan, 1), (np.add, 2), (np.greater_equal, 2),
          (np.maximum, 2), (np.logical_and, 2), (np.divide, 2), (np.equal, 2)]

@pytest.mark.parametrize('tdt', ['float32', 'float64', 'int32', 'bool', 'uint8', 'float16'])
def test_ufuncs_on_tensors(tdt):
    bad = []
    for uf, nin in UFUNCS:
        for shape in [(3,), (), (2, 0), (2, 3)]:
            for other in ([None] if nin == 1 else [2, 2.5, np.int8(3), True]):
                def run(L):
                    t = L.tensor(np.arange(int(np.prod(shape))).reshape(shape) % 3, dtype=getattr(L, tdt))
                    return uf(t) if nin == 1 else uf(t, other)
                m = _cmp(*run_both(lambda: run(tt), lambda: run(torch)), f'{uf.__name__} {tdt} {shape} {other!r}')
                if m: bad.append(m)
    assert not bad, bad[:5]

def test_numpy_functions_on_tensors():
    # np.sum / np.mean call the method with numpy's keywords (axis=, out=); the rest read the tensor as an array
    fns = [np.sum, np.mean, np.add.reduce, np.cumsum, lambda x: np.dot(x, x), lambda x: np.matmul(x, x),
           lambda x: np.where(x > 1, x, 0), np.asarray, np.array, lambda x: np.concatenate([x, x]), np.max]
    bad = []
    for i, fn in enumerate(fns):
        m = _cmp(*run_both(lambda: fn(tt.tensor([1., 2., 3.])), lambda: fn(torch.tensor([1., 2., 3.]))), f'fn {i}')
        if m: bad.append(m)
    assert not bad, bad
