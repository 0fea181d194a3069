"Named tuples print as torch's (Note [Named tuples as torch prints them], chapter 04d): the type's full name under "
"`tinytensor.return_types`, one `field=value` per line; the module holds the types, as `torch.return_types` does."
import pickle
import pytest
torch = pytest.importorskip("torch")
import tinytensor as tt

X = [[3., 1., 2.], [float('nan'), 5., 4.]]
CALLS = {
    'max': lambda m, x: m.max(x, 1), 'min': lambda m, x: m.min(x, 0, keepdim=True), 'max method': lambda m, x: x.max(dim=1),
    'sort': lambda m, x: m.sort(x), 'sort descending': lambda m, x: x.sort(0, descending=True),
    'topk': lambda m, x: m.topk(x, 2), 'median': lambda m, x: m.median(x, 1), 'nanmedian': lambda m, x: m.nanmedian(x, 1),
    'cummax': lambda m, x: m.cummax(x, 1), 'cummin': lambda m, x: x.cummin(0),
    'frexp': lambda m, x: m.frexp(x), 'max int': lambda m, x: m.max(x.long() if hasattr(x, 'long') else x, 1),
    'max 0-d': lambda m, x: m.max(x[0, 0], 0), 'sort empty': lambda m, x: m.sort(x[:0]),
    'nested in a tuple': lambda m, x: (m.tensor(2), m.max(x, 1)),
}

@pytest.mark.parametrize('name', list(CALLS))
def test_named_tuple_repr_and_str_as_torch(name):
    a = CALLS[name](tt, tt.tensor(X))
    b = CALLS[name](torch, torch.tensor(X))
    for f in (repr, str):
        assert f(a) == f(b).replace('torch.', 'tinytensor.'), (f(a), f(b))

def _torch_fields(r):
    "The field names of a torch structseq, in order."
    return list(type(r).__match_args__)

@pytest.mark.parametrize('name', ['max', 'min', 'sort', 'topk', 'median', 'nanmedian', 'cummax', 'cummin', 'frexp'])
def test_return_types_module(name):
    r, r_th = CALLS[name](tt, tt.tensor(X)), CALLS[name](torch, torch.tensor(X))
    t = getattr(tt.return_types, name)
    assert type(r) is t and t.__module__ == 'tinytensor.return_types' and t.__name__ == type(r_th).__name__ == name
    assert list(t._fields) == _torch_fields(r_th)
    back = pickle.loads(pickle.dumps(r))                         # the module is importable: the tuple pickles by name
    assert type(back) is t and repr(back) == repr(r)
    import tinytensor.return_types as rt
    assert rt is tt.return_types
