"Index forms torch accepts (ranges, 0-d integer tensors) and refuses (del t[i]), against torch."
import numpy as np
import pytest
torch = pytest.importorskip("torch")
import tinytensor as tt
from ttgen import run_both, check_results

def _views_match(ra, rb, ctx):
    "Same values, layout and view-ness (a view of the indexed tensor, or a copy)."
    msg = check_results(ra, rb, 'indexing', ctx=ctx)
    assert msg is None, msg
    if not isinstance(rb, Exception): assert (ra._base is None) == (rb._base is None), ctx

GET = {
    'range': lambda L, x: x[range(2)], 'range, range': lambda L, x: x[range(2), range(2)],
    'range(3)': lambda L, x: x[range(3)], 'range, int': lambda L, x: x[range(1, 3), 1],
    'slice, stepped range': lambda L, x: x[:, range(0, 4, 2)], 'empty range': lambda L, x: x[range(0)],
    'list of a range': lambda L, x: x[[range(2)]], 'tuple of a range': lambda L, x: x[(range(2),)],
    'negative range': lambda L, x: x[range(-3, 0)], 'range out of bounds': lambda L, x: x[range(2, 5)],
    'long list of ranges': lambda L, x: L.arange(1000)[[range(i, i + 10) for i in range(990)]],
    '0-d int, list': lambda L, x: x[L.tensor(1), [0, 1]], '0-d float': lambda L, x: x[L.tensor(1.)],
    '0-d negative': lambda L, x: x[L.tensor(-1, dtype=L.int16)], '0-d out of bounds': lambda L, x: x[L.tensor(5, dtype=L.int8)],
}
for _d in ('int8', 'int16', 'int32', 'int64', 'uint8', 'bool'):
    GET[f'0-d {_d}'] = lambda L, x, d=_d: x[L.tensor(1, dtype=getattr(L, d))]
    GET[f'0-d {_d} twice'] = lambda L, x, d=_d: x[L.tensor(1, dtype=getattr(L, d)), L.tensor(2, dtype=getattr(L, d))]
    GET[f'int, 0-d {_d}'] = lambda L, x, d=_d: x[0, L.tensor(1, dtype=getattr(L, d))]
    GET[f'1-d {_d}'] = lambda L, x, d=_d: x[L.tensor([1], dtype=getattr(L, d))]

@pytest.mark.parametrize('name', list(GET))
def test_getitem_forms(name):
    f = GET[name]
    _views_match(*run_both(lambda: f(tt, tt.arange(12.).view(3, 4)), lambda: f(torch, torch.arange(12.).view(3, 4))), name)

SET = {'range': lambda L, y: y.__setitem__(range(2), 7.),
       'range, range': lambda L, y: y.__setitem__((range(2), range(2)), -1.),
       '0-d int16': lambda L, y: y.__setitem__(L.tensor(1, dtype=L.int16), 5.),
       '0-d int8, tensor value': lambda L, y: y.__setitem__(L.tensor(2, dtype=L.int8), L.arange(4.)),
       'range, values': lambda L, y: y.__setitem__((slice(None), range(1, 3)), L.ones(3, 2))}

@pytest.mark.parametrize('name', list(SET))
def test_setitem_forms(name):
    ys = tt.arange(12.).view(3, 4).clone(), torch.arange(12.).view(3, 4).clone()
    ra, rb = run_both(lambda: SET[name](tt, ys[0]) or ys[0], lambda: SET[name](torch, ys[1]) or ys[1])
    msg = check_results(ra, rb, 'indexing', ctx=name)
    assert msg is None, msg
    assert ys[0]._version == ys[1]._version, name

def test_del_item_is_a_type_error():
    for L in (tt, torch):
        t = L.arange(4)
        for idx in (0, slice(0, 1), [0]):
            with pytest.raises(TypeError, match='Tensor does not support deleting items'):
                del t[idx]

OUT_OF_PLACE = {
    'scatter': lambda L, x, i, s: x.scatter(0, i, s), 'scatter value': lambda L, x, i, s: x.scatter(0, i, 1.),
    'scatter_add': lambda L, x, i, s: x.scatter_add(0, i, s), 'index_add': lambda L, x, i, s: x.index_add(0, L.tensor([0]), s),
    'index_copy': lambda L, x, i, s: x.index_copy(0, L.tensor([0]), s), 'index_fill': lambda L, x, i, s: x.index_fill(0, L.tensor([0]), 1.),
    'masked_fill': lambda L, x, i, s: x.masked_fill(L.ones(4, dtype=L.bool), 1.),
    'index_put': lambda L, x, i, s: x.index_put((L.tensor([0]),), L.tensor(1.)),
    'masked_scatter': lambda L, x, i, s: x.masked_scatter(L.ones(4, dtype=L.bool), L.ones(12)),
    'put': lambda L, x, i, s: x.put(L.tensor([0]), L.tensor([1.])),
    'scatter_reduce': lambda L, x, i, s: x.scatter_reduce(0, i, s, 'mean'),
    'index_reduce': lambda L, x, i, s: x.index_reduce(0, L.tensor([0]), s, 'amax')}

@pytest.mark.parametrize('name', list(OUT_OF_PLACE))
def test_out_of_place_results_start_at_version_0(name):
    "torch's functional forms return a new tensor no in-place write has touched (`_version` 0)."
    import warnings
    f = OUT_OF_PLACE[name]
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        ra, rb = (f(L, L.zeros(3, 4), L.tensor([[0, 1, 2, 0]]), L.ones(1, 4)) for L in (tt, torch))
    msg = check_results(ra, rb, 'indexing', ctx=name)
    assert msg is None, msg
    assert ra._version == rb._version == 0, (name, ra._version, rb._version)
