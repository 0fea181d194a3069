"Differential tests of chapter 06f (mm, bmm, mv, dot, outer/ger, einsum) against torch."
import re
import numpy as np
import pytest
torch = pytest.importorskip("torch")
from hypothesis import given, settings, strategies as st
import tinytensor as tt
from ttgen import DTYPES, FLOATS, LAYOUTS, pair, run_both, check_results, same, product_scale

torch.set_num_threads(1)
N = 200
RANKS = {'mm': (2, 2), 'bmm': (3, 3), 'mv': (2, 1), 'dot': (1, 1), 'outer': (1, 1), 'ger': (1, 1)}

def _shapes(rng, name):
    n, k, m, b = (int(rng.choice([0, 1, 2, 3, 5])) if rng.random() < 0.15 else int(rng.integers(1, 6)) for _ in range(4))
    sa, sb = {'mm': ((n, k), (k, m)), 'bmm': ((b, n, k), (b, k, m)), 'mv': ((n, k), (k,)), 'dot': ((k,), (k,)),
              'outer': ((n,), (m,)), 'ger': ((n,), (m,))}[name]
    r = rng.random()
    if r < 0.1: sb = tuple(s + 1 if i == 0 else s for i, s in enumerate(sb))           # a size mismatch
    elif r < 0.17: sa = sa[:-1] if len(sa) > 1 else sa + (2,)                           # a wrong rank
    elif r < 0.2 and name == 'bmm': sb = (sb[0] + 1,) + sb[1:]                           # batch mismatch
    return sa, sb

def _close(r, op, scale):
    "Float products: BLAS and numpy sum in different orders (Note [one comparison rule]); integers must match exactly."
    return check_results(*r, op, scale=scale)

def product_case(rng, name):
    sa, sb = _shapes(rng, name)
    da = str(rng.choice(DTYPES))
    db = da if rng.random() < 0.85 else str(rng.choice(DTYPES))
    a_tt, a_th = pair(rng, sa, da, str(rng.choice(LAYOUTS)), special=False, lo=-3, hi=4)
    b_tt, b_th = pair(rng, sb, db, str(rng.choice(LAYOUTS)), special=False, lo=-3, hi=4)
    method = bool(rng.random() < 0.5)
    f = (lambda lib, a, b: getattr(a, name)(b)) if method else (lambda lib, a, b: getattr(lib, name)(a, b))
    r = run_both(lambda: f(tt, a_tt, b_tt), lambda: f(torch, a_th, b_th))
    fn = lambda x, y: (lambda lib, a, b: getattr(lib, name)(a, b))(torch, x, y)
    m = _close(r, name, product_scale(fn, a_th, b_th) if da in FLOATS and not isinstance(r[1], Exception) else 0.)
    return f'{name} {sa}/{da}/{a_th.stride()} x {sb}/{db}/{b_th.stride()}: {m}' if m else None

@pytest.mark.parametrize('name', list(RANKS))
def test_products(name):
    rng = np.random.default_rng([ord(c) for c in name] + [9])
    bad = [m for m in (product_case(rng, name) for _ in range(N)) if m]
    assert not bad, f'{len(bad)} mismatches, e.g.\n' + '\n'.join(bad[:8])

def test_product_messages():
    a = tt.ones(2, 3)
    for f, msg in [(lambda: tt.mm(a, tt.ones(4, 5)), 'mat1 and mat2 shapes cannot be multiplied (2x3 and 4x5)'),
                   (lambda: tt.mm(a, tt.ones(3, 2, dtype=tt.float64)), 'expected m1 and m2 to have the same dtype, but got: float != double'),
                   (lambda: tt.dot(a, a), '1D tensors expected, but got 2D and 2D tensors'),
                   (lambda: tt.mv(a, tt.ones(4)), r'size mismatch, got input \(2\), mat \(2x3\), vec \(4\)'),
                   (lambda: tt.bmm(tt.ones(2, 2, 3), tt.ones(3, 3, 4)), r'Expected size for first two dimensions of batch2 tensor to be: \[2, 3\] but got: \[3, 3\].'),
                   (lambda: tt.outer(a, tt.ones(2)), 'outer: Expected 1-D argument self, but got 2-D')]:
        with pytest.raises(RuntimeError, match=re.escape(msg) if '(' in msg and '\\' not in msg else msg): f()
    with pytest.raises(NotImplementedError, match="\"addmm_impl_cpu_\" not implemented for 'Bool'"): tt.mm(a.bool(), a.bool().mT)
    with pytest.raises(TypeError): tt.mm(a, 1)
    o = tt.empty(0)
    assert tt.mm(a, tt.ones(3, 2), out=o) is o and o.shape == (2, 2)

# --- einsum ------------------------------------------------------------------------------------------------------

EQUATIONS = [('ij,jk->ik', [(2, 3), (3, 4)]), ('ij->ji', [(2, 3)]), ('ii->i', [(3, 3)]), ('ii', [(3, 3)]), ('ij->', [(2, 3)]),
             ('i,i', [(4,), (4,)]), ('i,j->ij', [(3,), (4,)]), ('bij,bjk->bik', [(2, 2, 3), (2, 3, 4)]), ('...ij,...jk', [(2, 2, 3), (3, 4)]),
             ('ij,ij->ij', [(2, 3), (2, 3)]), ('ab,cd', [(2, 3), (2, 1)]), ('ij,jk,kl->il', [(2, 3), (3, 4), (4, 2)]), ('iij->j', [(3, 3, 2)]),
             ('i...->...', [(3, 2, 2)]), ('ji', [(2, 3)]), ('ijk->kji', [(2, 3, 4)]), ('bn,anm,bm->ba', [(2, 3), (4, 3, 5), (2, 5)]),
             ('ij,jk', [(2, 3), (4, 5)]), ('ij', [(2, 3), (2, 3)]), ('ijk', [(2, 3)]), ('i,i->ii', [(3,), (3,)]), ('i->j', [(3,)]),
             ('i1', [(3, 1)]), ('Ab,bC->AC', [(2, 3), (3, 2)]), ('ij,kj->ik', [(0, 3), (2, 3)]), ('ij,jk->ik', [(2, 0), (0, 3)]),
             ('ij,jk->ik', [(2, 1), (3, 4)]), ('bij,bjk->kib', [(5, 2, 3), (5, 3, 4)]), ('i,i,i->', [(3,), (3,), (3,)]), ('ij,ij->', [(2, 3), (2, 3)]),
             ('...i,...i->...', [(2, 1, 3), (1, 4, 3)]), ('ij,jk->ki', [(2, 3), (3, 4)]), ('ab,ba->', [(2, 3), (3, 2)]), ('iij,jk->ik', [(2, 2, 3), (3, 4)]),
             ('bn,anm,bm->ab', [(2, 3), (4, 3, 5), (2, 5)]), ('ij,kl->jilk', [(2, 3), (4, 5)]), ('i j , j k -> i k', [(2, 3), (3, 2)]),
             ('...j,j...->...', [(2, 3), (3, 2)]), ('ij...,jk...->ik...', [(2, 3, 2), (3, 4, 1)]), ('ijk,ik->j', [(2, 3, 4), (2, 4)]),
             ('i.j', [(2, 3)]), ('ij->i..', [(2, 3)]), ('ij->ijk', [(2, 3)]), ('i,j->ii', [(2,), (3,)]), ('ij,jk->ik', [(2, 3), (3, 4, 5)])]

def einsum_case(rng, eq, shapes):
    dt = str(rng.choice(['float32', 'float64', 'int64', 'int32', 'float16', 'bfloat16', 'bool', 'uint8']))
    dts = [dt if rng.random() < 0.9 else str(rng.choice(['float32', 'int64', 'float64'])) for _ in shapes]
    ops = [pair(rng, s, d, str(rng.choice(LAYOUTS)), special=False, lo=-3, hi=4) for s, d in zip(shapes, dts)]
    a_tt, a_th = [o[0] for o in ops], [o[1] for o in ops]
    r = run_both(lambda: tt.einsum(eq, *a_tt), lambda: torch.einsum(eq, *a_th))
    dt0 = dts[0] if len(set(dts)) == 1 else 'float64'
    scale = product_scale(lambda *xs: torch.einsum(eq, *xs), *a_th) if dt0 in FLOATS and not isinstance(r[1], Exception) else 0.
    m = _close(r, 'einsum', scale)                   # values, dtype, shape and strides, as torch's
    return f'einsum {eq} {shapes}/{dts}: {m}' if m else None

def test_einsum():
    rng = np.random.default_rng(3)
    bad = [m for _ in range(6) for eq, shapes in EQUATIONS for m in [einsum_case(rng, eq, shapes)] if m]
    assert not bad, f'{len(bad)} mismatches, e.g.\n' + '\n'.join(bad[:10])

def test_einsum_forms():
    a, b = tt.ones(2, 3), tt.ones(3, 4)
    assert same(tt.einsum('ij,jk->ik', [a, b]), torch.einsum('ij,jk->ik', [torch.ones(2, 3), torch.ones(3, 4)]), 'einsum') is None
    assert same(tt.einsum(a, [0, 1], b, [1, 2], [0, 2]), torch.einsum(torch.ones(2, 3), [0, 1], torch.ones(3, 4), [1, 2], [0, 2]), 'einsum') is None
    d = tt.einsum('ii->i', tt.ones(3, 3))
    assert d._base is not None and d.stride() == (4,)

@settings(max_examples=40, deadline=None)
@given(n=st.integers(0, 4), k=st.integers(0, 4), m=st.integers(0, 4), ta=st.booleans(), tb=st.booleans())
def test_mm_property(n, k, m, ta, tb):
    "mm of (possibly transposed) int64 matrices equals torch exactly, with a contiguous result."
    rng = np.random.default_rng(n * 100 + k * 10 + m)
    A, B = rng.integers(-5, 5, (n, k)), rng.integers(-5, 5, (k, m))
    a = tt.from_numpy(np.ascontiguousarray(A.T)).mT if ta else tt.from_numpy(A)
    b = tt.from_numpy(np.ascontiguousarray(B.T)).mT if tb else tt.from_numpy(B)
    assert same(tt.mm(a, b), torch.mm(torch.from_numpy(A), torch.from_numpy(B)), 'mm') is None
