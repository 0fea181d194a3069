"Valid calls torch accepts run here too: empty slices reduced, `out=` on factories and indexing ops, keyword forms, wrapped indices."
import warnings
import numpy as np
import pytest
torch = pytest.importorskip("torch")
import tinytensor as tt
from ttgen import run_both, check_results

def _x(m): return m.arange(12.).view(3, 4)

# (id, call taking the library module): each must give torch's result (shape, strides, offset, dtype, values)
CASES = [
    # reductions of empty views that start past their storage's end (Note [empty views past the end])
    ('sum () of empty slice', lambda m: m.zeros(5, 0)[1:].sum(())),
    ('prod keepdim of empty slice', lambda m: m.zeros(4, 0)[1:].prod(-1, keepdim=True)),
    ('any of empty slice', lambda m: m.zeros(5, 5, 2, 0)[1:].any()),
    ('amax dim 0 of empty slice', lambda m: m.zeros(5, 3, 0)[2:].sum(1)),
    ('mean dim of empty slice', lambda m: m.zeros(5, 0, 2)[1:].mean(1)),
    ('add of empty slices', lambda m: m.zeros(5, 0)[1:] + m.zeros(5, 0)[2:3]),
    # take_along_dim with a dim reads indices modulo the dim's size
    ('take_along_dim -1', lambda m: m.take_along_dim(_x(m), m.tensor([[-1]]), 1)),
    ('take_along_dim wraps', lambda m: m.take_along_dim(_x(m), m.tensor([[-5, 4, -100, 3]]), 1)),
    ('take_along_dim method dim 0', lambda m: _x(m).take_along_dim(m.tensor([[-1], [-3]]), 0)),
    ('take_along_dim flat -1 raises', lambda m: m.take_along_dim(_x(m), m.tensor([-1]))),
    ('take_along_dim size-0 dim', lambda m: m.take_along_dim(m.zeros(3, 0), m.tensor([[0]]), 1)),
    ('take_along_dim size-0 dim, empty broadcast', lambda m: m.take_along_dim(m.zeros(0, 0), m.tensor([[0]]), 1)),
    ('take_along_dim size-0 dims 3-d', lambda m: m.take_along_dim(m.zeros(0, 2, 0), m.zeros(1, 2, 1, dtype=m.int64), -2)),
    ('take_along_dim broadcast wraps', lambda m: m.take_along_dim(_x(m), m.tensor([[-1], [5], [-6]]), 1)),
    # keyword forms of the signatures
    ('zeros size=', lambda m: m.zeros(size=(2, 3))),
    ('ones size= dtype=', lambda m: m.ones(size=[2, 3], dtype=m.int32)),
    ('empty size= shape', lambda m: m.tensor(list(m.empty(size=(2, 3)).shape))),
    ('rand size= shape', lambda m: m.tensor(list(m.rand(size=(2, 3)).shape))),
    ('randn size= shape', lambda m: m.tensor(list(m.randn(size=(2, 3)).shape))),
    ('randint low= high= size=', lambda m: (m.randint(low=2, high=5, size=(3,)) >= 2).all()),
    ('randint high= size=', lambda m: m.tensor(list(m.randint(high=5, size=(3,)).shape))),
    ('new_empty size= shape', lambda m: m.tensor(list(_x(m).new_empty(size=(2, 3)).shape))),
    ('new_zeros size=', lambda m: _x(m).new_zeros(size=(2, 3))),
    ('new_ones size= dtype', lambda m: _x(m).new_ones(size=(2, 3), dtype=m.int32)),
    ('arange 0-d tensor', lambda m: m.arange(m.tensor(3))),
    ('arange 0-d float tensor', lambda m: m.arange(m.tensor(3.5))),
    ('arange end=', lambda m: m.arange(end=3)),
    ('arange start= end=', lambda m: m.arange(start=1, end=3)),
    ('arange 1-d tensor raises', lambda m: m.arange(m.tensor([3]))),
    ('arange out', lambda m: m.arange(3, out=m.empty(0, dtype=m.float64))),
    ('full out float64', lambda m: m.full((2,), 3, out=m.empty(0, dtype=m.float64))),
    ('empty out', lambda m: m.tensor(list(m.empty(2, out=m.empty(0, dtype=m.float64)).shape))),
    ('zeros like keywords', lambda m: m.zeros_like(input=_x(m), dtype=m.int64)),
    ('full_like keywords', lambda m: m.full_like(_x(m), fill_value=2)),
    ('reshape method varargs', lambda m: _x(m).reshape(2, 6)),
    ('view_as', lambda m: _x(m).view_as(m.zeros(6, 2))),
    ('contiguous memory_format', lambda m: _x(m).t().contiguous(memory_format=m.contiguous_format)),
    ('float memory_format', lambda m: _x(m).t().float(memory_format=m.preserve_format)),
    ('zeros tuple of 0-d tensors', lambda m: m.zeros((m.tensor(2), 3))),
]

@pytest.mark.parametrize('name,call', CASES, ids=[c[0] for c in CASES])
def test_same_as_torch(name, call):
    r_tt, r_th = run_both(lambda: call(tt), lambda: call(torch))
    msg = check_results(r_tt, r_th, name.split()[0], ctx=name)      # the op is the id's first word
    assert msg is None, msg

# (id, call taking the module and an out tensor (or tuple), out maker): the call must return `out` itself, filled as torch's
OUT_CASES = [
    ('linspace', lambda m, o: m.linspace(0, 1, 5, out=o), lambda m: m.empty(2)),
    ('linspace int out', lambda m, o: m.linspace(0, 10, 5, out=o), lambda m: m.empty(0, dtype=m.int64)),
    ('linspace dtype mismatch', lambda m, o: m.linspace(0, 1, 5, out=o, dtype=m.float32), lambda m: m.empty(0, dtype=m.int64)),
    ('logspace float64 out', lambda m, o: m.logspace(0, 1, 5, out=o), lambda m: m.empty(0, dtype=m.float64)),
    ('logspace base', lambda m, o: m.logspace(0, 2, 3, 2.0, out=o), lambda m: m.empty(3)),
    ('eye', lambda m, o: m.eye(3, out=o), lambda m: m.empty(2)),
    ('eye rect int', lambda m, o: m.eye(2, 3, out=o), lambda m: m.empty(0, dtype=m.int64)),
    ('eye transposed out', lambda m, o: m.eye(3, out=o), lambda m: m.empty(3, 3).t()),
    ('eye dtype mismatch', lambda m, o: m.eye(2, out=o, dtype=m.float32), lambda m: m.empty(0, dtype=m.int64)),
    ('gather', lambda m, o: m.gather(_x(m), 1, m.tensor([[0], [1], [2]]), out=o), lambda m: m.empty(2)),
    ('gather transposed out', lambda m, o: m.gather(_x(m), 1, m.tensor([[0], [1], [2]]), out=o), lambda m: m.empty(1, 3).t()),
    ('gather dtype mismatch', lambda m, o: m.gather(_x(m), 1, m.tensor([[0], [1], [2]]), out=o), lambda m: m.empty(0, dtype=m.float64)),
    ('masked_select', lambda m, o: m.masked_select(_x(m), _x(m) > 3, out=o), lambda m: m.empty(2)),
    ('masked_select dtype mismatch', lambda m, o: m.masked_select(_x(m), _x(m) > 3, out=o), lambda m: m.empty(0, dtype=m.float64)),
    ('nonzero', lambda m, o: m.nonzero(_x(m), out=o), lambda m: m.empty(2, dtype=m.int64)),
    ('nonzero exact shape keeps strides', lambda m, o: m.nonzero(_x(m), out=o), lambda m: m.empty(11, 2, dtype=m.int64)),
    ('nonzero int32 out', lambda m, o: m.nonzero(_x(m), out=o), lambda m: m.empty(0, dtype=m.int32)),
    ('nonzero as_tuple out', lambda m, o: m.nonzero(_x(m), out=o, as_tuple=True), lambda m: m.empty(0, dtype=m.int64)),
    ('zeros', lambda m, o: m.zeros(2, 3, out=o), lambda m: m.empty(2)),
    ('ones int', lambda m, o: m.ones((2, 3), out=o), lambda m: m.empty(0, dtype=m.int64)),
    ('zeros size= out', lambda m, o: m.zeros(size=(2, 3), out=o), lambda m: m.empty(0, dtype=m.int64)),
    ('cummax', lambda m, o: m.cummax(_x(m), 1, out=o), lambda m: (m.empty(2), m.empty(2, dtype=m.int64))),
    ('cummin list', lambda m, o: m.cummin(_x(m).flip(1), 1, out=o), lambda m: [m.empty(0), m.empty(0, dtype=m.int64)]),
    ('cummax transposed values', lambda m, o: m.cummax(_x(m), 1, out=o), lambda m: (m.empty(4, 3).t(), m.empty(0, dtype=m.int64))),
    ('cummax values dtype', lambda m, o: m.cummax(_x(m), 1, out=o), lambda m: (m.empty(0, dtype=m.float64), m.empty(0, dtype=m.int64))),
    ('cummax indices dtype', lambda m, o: m.cummin(_x(m), 1, out=o), lambda m: (m.empty(0), m.empty(0, dtype=m.int32))),
    ('cummax one tensor', lambda m, o: m.cummax(_x(m), 1, out=o), lambda m: m.empty(0)),
]

@pytest.mark.parametrize('name,call,mk', OUT_CASES, ids=[c[0] for c in OUT_CASES])
def test_out_same_as_torch(name, call, mk):
    o_tt, o_th = mk(tt), mk(torch)
    r_tt, r_th = run_both(lambda: call(tt, o_tt), lambda: call(torch, o_th))
    msg = check_results(r_tt, r_th, name.split()[0], ctx=name)
    assert msg is None, msg
    if not isinstance(r_th, Exception):
        outs = o_tt if isinstance(o_tt, (tuple, list)) else (o_tt,)
        res = tuple(r_tt) if isinstance(o_tt, (tuple, list)) else (r_tt,)
        assert all(a is b for a, b in zip(res, outs)), f'{name}: the result is not out'
        msg = check_results(o_tt, o_th, name.split()[0], ctx=name + ' (out)')
        assert msg is None, msg
