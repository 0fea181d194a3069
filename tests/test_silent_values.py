"""Results that used to come back silently wrong, each compared with torch: complex `vdot`, writes into tensors whose
elements share memory, `out=` tensors of another dtype, and the dtype an `out=` op computes in."""
import warnings
import numpy as np
import pytest
torch = pytest.importorskip("torch")
import tinytensor as tt
from tinytensor.testing import test_tensor_eq as assert_tensor_eq

def both(f):
    "Run `f(lib)` on both libraries: (tinytensor result or exception, torch result or exception)."
    out = []
    for lib in (tt, torch):
        try:
            with warnings.catch_warnings():
                warnings.simplefilter('ignore'); out.append(f(lib))
        except Exception as e: out.append(e)
    return out

def same(f, values=True):
    a, b = both(f)
    if isinstance(b, Exception):
        assert isinstance(a, Exception), f'torch raised {type(b).__name__}: {b}; tinytensor returned {a!r}'
        assert type(a) is type(b), f'torch {type(b).__name__}: {b}; tinytensor {type(a).__name__}: {a}'
        return a, b
    assert not isinstance(a, Exception), f'tinytensor raised {type(a).__name__}: {a}; torch returned {b!r}'
    if values:
        for x, y in (zip(a, b) if isinstance(b, tuple) else [(a, b)]): assert_tensor_eq(x, y)
    return a, b

# --- vdot conjugates its first argument -------------------------------------------------------------------------------
@pytest.mark.parametrize('dt', ['complex64', 'complex128', 'float32', 'int64'])
def test_vdot(dt):
    a, b = np.array([1 + 2j, 3 - 1j, -2j]), np.array([1 + 0j, 1j, 2 - 1j])
    if not dt.startswith('complex'): a, b = a.real, (b.real + 2)
    same(lambda L: L.vdot(L.tensor(a.astype(dt)), L.tensor(b.astype(dt))))

# --- writes into tensors whose elements share memory ------------------------------------------------------------------
def expanded(L): return L.zeros(3, 1).expand(3, 4)

@pytest.mark.parametrize('op', [
    lambda L: expanded(L).index_add_(0, L.tensor([0]), L.ones(1, 4)),
    lambda L: expanded(L).index_copy_(0, L.tensor([0]), L.ones(1, 4)),
    lambda L: expanded(L).scatter_(0, L.zeros(1, 4, dtype=L.int64), L.ones(1, 4)),
    lambda L: expanded(L).scatter_add_(0, L.zeros(1, 4, dtype=L.int64), L.ones(1, 4)),
    lambda L: expanded(L).scatter_(0, L.zeros(1, 4, dtype=L.int64), 2.0),
], ids=['index_add_', 'index_copy_', 'scatter_', 'scatter_add_', 'scatter_value'])
def test_internal_overlap_refused(op):
    a, b = same(op)
    assert isinstance(b, RuntimeError) and 'more than one element of the written-to tensor' in str(a)

@pytest.mark.parametrize('beta,alpha', [(1, 1), (2, 3), (0, 1), (0.5, 1)])
def test_addmv_baddbmm_into_expanded_self(beta, alpha):
    "torch lets these two write an expanded self (Note [BLAS updates into an expanded self]): compare the base."
    def mv(L):
        base = L.tensor([10.]); base.expand(4).addmv_(L.arange(12.).view(4, 3), L.tensor([1., 2, 0]), beta=beta, alpha=alpha)
        return base
    def bmm(L):
        base = L.tensor([[[10., 20, 30]], [[1., 2, 3]]])
        base.expand(2, 4, 3).baddbmm_(L.arange(24.).view(2, 4, 3), L.eye(3).expand(2, 3, 3), beta=beta, alpha=alpha)
        return base
    same(mv); same(bmm)

def test_nan_to_num_of_an_expanded_integer_tensor():
    same(lambda L: L.zeros(3, 1, dtype=L.int64).expand(3, 4).nan_to_num_())

@pytest.mark.parametrize('op', [
    lambda L, o: L.index_select(L.arange(12.).view(3, 4), 0, L.tensor([0, 1, 2]), out=o),
    lambda L, o: L.cumsum(L.arange(12.).view(3, 4), 1, out=o),
    lambda L, o: L.mm(L.ones(3, 2), L.ones(2, 4), out=o),
    lambda L, o: L.add(L.ones(3, 4), 1, out=o),
], ids=['index_select', 'cumsum', 'mm', 'add'])
def test_out_into_expanded_refused(op):
    a, b = same(lambda L: op(L, L.zeros(3, 1).expand(3, 4)))
    assert isinstance(b, RuntimeError) and 'more than one element of the written-to tensor' in str(a)

# --- out= of another dtype: torch's rule per op family ---------------------------------------------------------------
F = lambda L, *s: L.ones(*s)
OUT_CASES = {
    'addmm': lambda L, o: L.addmm(F(L, 2, 2), F(L, 2, 3), F(L, 3, 2), out=o(2, 2)),
    'addmv': lambda L, o: L.addmv(F(L, 2), F(L, 2, 3), F(L, 3), out=o(2)),
    'baddbmm': lambda L, o: L.baddbmm(F(L, 2, 2, 2), F(L, 2, 2, 3), F(L, 2, 3, 2), out=o(2, 2, 2)),
    'addbmm': lambda L, o: L.addbmm(F(L, 2, 2), F(L, 2, 2, 3), F(L, 2, 3, 2), out=o(2, 2)),
    'vdot': lambda L, o: L.vdot(F(L, 3), F(L, 3), out=o()),
    'dot': lambda L, o: L.dot(F(L, 3), F(L, 3), out=o()),
    'inner': lambda L, o: L.inner(F(L, 2, 3), F(L, 2, 3), out=o(2, 2)),
    'inner0d': lambda L, o: L.inner(F(L, 2, 3), L.tensor(2.), out=o(2, 3)),
    'tensordot': lambda L, o: L.tensordot(F(L, 2, 3), F(L, 3, 2), 1, out=o(2, 2)),
    'kron': lambda L, o: L.kron(F(L, 2, 2), F(L, 2, 2), out=o(4, 4)),
    'logcumsumexp': lambda L, o: L.logcumsumexp(F(L, 4), 0, out=o(4)),
    'mean': lambda L, o: L.mean(F(L, 4, 2), 0, out=o(2)),
    'addr': lambda L, o: L.addr(L.arange(6.).view(2, 3), L.arange(2.), L.arange(3.), out=o(2, 3)),
    'cross': lambda L, o: L.cross(L.arange(3.), L.arange(3.).flip(0), dim=0, out=o(3)),
    'diag': lambda L, o: L.diag(L.arange(9.).view(3, 3), out=o(3)),
    'searchsorted': lambda L, o: L.searchsorted(L.arange(4.), L.tensor([0.5, 2.5]), out=o(2)),
    'mm': lambda L, o: L.mm(F(L, 2, 3), F(L, 3, 2), out=o(2, 2)),
}

@pytest.mark.parametrize('out_dtype', ['float32', 'float64', 'int64', 'float16', 'complex64', 'bool'])
@pytest.mark.parametrize('name', list(OUT_CASES))
def test_out_dtype(name, out_dtype):
    f = OUT_CASES[name]
    same(lambda L: f(L, lambda *s: L.zeros(s, dtype=getattr(L, out_dtype))))

@pytest.mark.parametrize('op', ['addmv_', 'addmm_', 'baddbmm_', 'addbmm_', 'addr_'])
def test_inplace_blas_of_another_dtype(op):
    "float32 `self` with float64 operands: torch refuses all but addr_ (a TensorIterator op: a cast back is safe)."
    args = dict(addmv_=((2, 3), (3,)), addmm_=((2, 3), (3, 2)), baddbmm_=((2, 2, 3), (2, 3, 2)), addbmm_=((2, 2, 3), (2, 3, 2)),
                addr_=((2,), (2,)))[op]
    shape = dict(addmv_=(2,), baddbmm_=(2, 2, 2)).get(op, (2, 2))
    same(lambda L: getattr(L.ones(*shape), op)(*(L.ones(*s, dtype=L.float64) for s in args)))

# --- a float op into an out= of another dtype computes in the input's dtype, then casts ------------------------------
@pytest.mark.parametrize('op', ['sin', 'exp', 'sqrt', 'tanh', 'sigmoid', 'log', 'cos', 'reciprocal'])
@pytest.mark.parametrize('dt,odt', [('float32', 'float64'), ('float16', 'float32'), ('int32', 'float64'), ('float64', 'float32')])
def test_unary_float_out_computes_in_the_input_dtype(op, dt, odt):
    "ATen's unary float ops compute in the inputs' common dtype and cast into `out`: the values are `op(x)` cast, bit for bit."
    def f(L):
        t = L.linspace(0.1, 3.7, 17).to(getattr(L, dt)) if not dt.startswith('int') else L.arange(1, 18, dtype=getattr(L, dt))
        return getattr(L, op)(t, out=L.zeros(17, dtype=getattr(L, odt))), getattr(L, op)(t)
    (a, a_plain), (b, b_plain) = same(f, values=False)
    assert a.dtype == getattr(tt, odt) and b.dtype == getattr(torch, odt)
    assert a.tolist() == a_plain.to(getattr(tt, odt)).tolist()          # computed in the input's dtype, then cast
    assert b.tolist() == b_plain.to(getattr(torch, odt)).tolist()
    # numpy's and torch's float kernels may round differently in the last place: compare with the input dtype's spacing
    eps = float(np.finfo(getattr(np, a_plain.dtype.name if a_plain.dtype.name != 'bfloat16' else 'float32')).eps)
    assert np.allclose(a.tolist(), b.tolist(), rtol=2 * eps, atol=0)
