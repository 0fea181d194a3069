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
