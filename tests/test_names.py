"""The everyday names a script reaches for, against torch: the constants and `strided`, the long-tail factories,
the tensor odds (`resize_`, `fill_diagonal_`, `storage()`, ...), the legacy constructors and the grad-mode switches."""
import copy, pickle, warnings
import numpy as np
import pytest
torch = pytest.importorskip("torch")
import tinytensor as tt
from ttgen import run_both, check_results, same


def _agree(f_tt, f_th, op='tensor', ctx=''):
    "Both results (or both exception types) agree, under `op`'s comparison rule."
    m = check_results(*run_both(f_tt, f_th), op, ctx=ctx)
    assert m is None, m


# 1. constants and the layout object

def test_constants_are_torchs_floats():
    for n in ('inf', 'nan', 'pi', 'e'):
        a, b = getattr(tt, n), getattr(torch, n)
        assert type(a) is type(b) is float and (a == b or (a != a and b != b)), n


def test_strided_layout():
    assert repr(tt.strided) == str(tt.strided) == 'tinytensor.strided'
    assert repr(torch.strided) == 'torch.strided'
    assert isinstance(tt.strided, tt.layout) and type(tt.strided).__name__ == type(torch.strided).__name__
    x = tt.ones(2, 3)
    for t in (x, x.t(), x[0], tt.tensor(1.)):
        assert t.layout is tt.strided
    assert copy.copy(tt.strided) is tt.strided and copy.deepcopy(tt.strided) is tt.strided
    assert tt.strided == tt.strided and hash(tt.strided) == hash(tt.strided)
    assert pickle.loads(pickle.dumps(tt.strided)) is tt.strided
    assert pickle.loads(pickle.dumps(torch.strided)) is torch.strided
    for f, g in ((lambda: tt.layout(), lambda: torch.layout()),
                 (lambda: setattr(tt.strided, 'x', 1), lambda: setattr(torch.strided, 'x', 1))):
        a, b = run_both(f, g)
        assert type(a) is type(b) and isinstance(b, Exception) and str(a) == str(b), (a, b)
