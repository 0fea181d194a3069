"torch's argument rules (PythonArgParser): the same misuse raises the same exception with torch's key words."
import pytest
torch = pytest.importorskip("torch")
import tinytensor as tt
from ttgen import run_both

def _x(m): return m.arange(12.).view(3, 4)

# (id, call taking the library module, key words both messages carry (None: only the type is compared))
CASES = [
    ('full int size', lambda m: m.full(2, 1.), "full(): argument 'size' (position 1) must be tuple of ints, not int"),
    ('reshape function int shape', lambda m: m.reshape(_x(m), 12), "reshape(): argument 'shape' (position 2) must be tuple of ints, not int"),
    ('zeros_like int', lambda m: m.zeros_like(3), "zeros_like(): argument 'input' (position 1) must be Tensor, not int"),
    ('empty_like list', lambda m: m.empty_like([1, 2]), "empty_like(): argument 'input' (position 1) must be Tensor, not list"),
    ('view_as int', lambda m: _x(m).view_as(3), "view_as(): argument 'other' (position 1) must be Tensor, not int"),
    ('atleast_1d int', lambda m: m.atleast_1d(3), "atleast_1d() received an invalid combination of arguments - got (int), but expected one of:"),
    ('atleast_2d list of ints', lambda m: m.atleast_2d([1, 2]), None),
    ('inner float', lambda m: m.inner(_x(m), 2.5), "inner(): argument 'other' (position 2) must be Tensor, not float"),
    ('promote_types str', lambda m: m.promote_types(m.int32, 'a'), "promote_types(): argument 'type2' (position 2) must be "),
    ('can_cast int', lambda m: m.can_cast(m.int32, 5), "can_cast(): argument 'to' (position 2) must be "),
    ('Size of str', lambda m: m.Size(['a']), "Size() takes an iterable of 'int' (item 0 is 'str')"),
    ('Size of float', lambda m: m.Size([2, 1.5]), "(item 1 is 'float')"),
    ('cpu positional', lambda m: _x(m).cpu(1), "cpu() takes 0 positional arguments but 1 was given"),
    ('flip no dims', lambda m: _x(m).flip(), 'flip() missing 1 required positional arguments: "dims"'),
    ('hstack tensor', lambda m: m.hstack(_x(m)), "hstack(): argument 'tensors' (position 1) must be tuple of Tensors, not Tensor"),
    ('vstack tensor', lambda m: m.vstack(_x(m)), "vstack(): argument 'tensors' (position 1) must be tuple of Tensors, not Tensor"),
    ('dstack tensor', lambda m: m.dstack(_x(m)), "must be tuple of Tensors, not Tensor"),
    ('column_stack tensor', lambda m: m.column_stack(_x(m)), "must be tuple of Tensors, not Tensor"),
    ('hstack list with int', lambda m: m.hstack([_x(m), 1]), "expected Tensor as element 1 in argument 0, but got int"),
    ('new_full int size', lambda m: _x(m).new_full(2, 1.), "new_full(): argument 'size' (position 1) must be tuple of ints, not int"),
    ('float str', lambda m: _x(m).float('x'), "float() takes 0 positional arguments but 1 was given"),
    ('double dtype', lambda m: _x(m).double(m.float32), "double() takes 0 positional arguments but 1 was given"),
    ('contiguous dtype', lambda m: _x(m).contiguous(m.float32), "contiguous() takes 0 positional arguments but 1 was given"),
    ('is_contiguous dtype', lambda m: _x(m).is_contiguous(m.float32), "is_contiguous() takes 0 positional arguments but 1 was given"),
    ('contiguous memory_format dtype', lambda m: _x(m).contiguous(memory_format=m.float32), "contiguous(): argument 'memory_format' must be "),
    ('topk float k', lambda m: m.topk(_x(m), 2.5), "topk(): argument 'k' (position 2) must be int, not float"),
    ('sum repeated dim of 0-d', lambda m: m.tensor(1.).sum((0, 0)), "dim 0 appears multiple times in the list of dims"),
    ('sum 0 and -1 of 0-d', lambda m: m.tensor(1.).sum((0, -1)), "dim 0 appears multiple times in the list of dims"),
    ('zeros float in list', lambda m: m.zeros([2.0]), "zeros(): argument 'size' (position 1) must be tuple of ints, but found element of type float at pos 0"),
    ('zeros str later in tuple', lambda m: m.zeros((2, 'a')), "zeros(): argument 'size' failed to unpack the object at pos 2 with error \"type must be tuple of ints,but got str\""),
    ('zeros two tuples', lambda m: m.zeros((2, 3), (4,)), "zeros() takes 1 positional argument but 2 were given"),
    ('zeros size twice', lambda m: m.zeros(2, size=(3,)), "zeros() got multiple values for argument 'size'"),
    ('zeros unknown keyword', lambda m: m.zeros(2, shape=(3,)), "zeros() got an unexpected keyword argument 'shape'"),
    ('zeros dtype not a dtype', lambda m: m.zeros(2, dtype='float32'), "zeros(): argument 'dtype' must be "),
    ('randint int size', lambda m: m.randint(5, 6), "randint(): argument 'size' (position 2) must be tuple of ints, not int"),
    ('randint float high', lambda m: m.randint(1.5, (2,)), "randint(): argument 'high' (position 1) must be int, not float"),
    ('arange str', lambda m: m.arange('a'), None),
    ('new_empty two sizes', lambda m: _x(m).new_empty((2, 3), 5), None),
    ('empty memory_format str', lambda m: m.empty(2, memory_format='x'), "empty(): argument 'memory_format' must be "),
    ('linspace float steps', lambda m: m.linspace(0, 1, 2.5), None),
]

def _words(e): return str(e).replace('torch.dtype', 'DTYPE').replace('tinytensor.dtype', 'DTYPE').replace('torch.memory_format', 'MF').replace('tinytensor.memory_format', 'MF').replace('torch.Size', 'Size').replace('tinytensor.Size', 'Size')

@pytest.mark.parametrize('name,call,words', CASES, ids=[c[0] for c in CASES])
def test_misuse_like_torch(name, call, words):
    r_tt, r_th = run_both(lambda: call(tt), lambda: call(torch))
    assert isinstance(r_th, Exception), f'{name}: torch accepted it ({r_th!r}); fix the case'
    assert isinstance(r_tt, Exception), f'{name}: tinytensor accepted it, torch raised {type(r_th).__name__}: {r_th}'
    assert type(r_tt) is type(r_th), f'{name}: {type(r_tt).__name__}({r_tt}) != {type(r_th).__name__}({r_th})'
    if words:
        assert words in str(r_th), f'{name}: the case\'s words are not torch\'s: {r_th}'
        assert _words(words) in _words(r_tt), f'{name}: tinytensor said {r_tt!r}, torch {r_th!r}'

def test_size_and_generator():
    assert type(tt.Size([2, 3]) + (4,)) is tt.Size and tt.Size([2, 3]) + (4,) == (2, 3, 4)
    assert type(torch.Size([2, 3]) + (4,)) is torch.Size
    assert tt.Size((tt.tensor(2), 3)) == (2, 3)
    g = tt.manual_seed(-1)
    assert isinstance(g, tt.Generator) and g.initial_seed() == torch.manual_seed(-1).initial_seed() == 2**64 - 1
    a = tt.rand(3, generator=tt.Generator().manual_seed(5)); b = tt.rand(3, generator=tt.Generator().manual_seed(5))
    assert a.tolist() == b.tolist()
    tt.manual_seed(3); c = tt.randn(4); tt.manual_seed(3)
    assert tt.randn(4).tolist() == c.tolist()

def test_size_items_and_arithmetic_like_torch():
    import numpy as np
    for items in ([True, 3], [np.int64(3)], [2.0], [None], ['a']):
        r_tt, r_th = run_both(lambda: tuple(tt.Size(items)), lambda: tuple(torch.Size(items)))
        assert type(r_tt) is type(r_th) and (isinstance(r_th, Exception) or r_tt == r_th), (items, r_tt, r_th)
    for f in (lambda m: (4,) + m.Size([2]), lambda m: m.Size([2]) * 2, lambda m: m.Size([2, 3])[:1], lambda m: m.zeros(2, 3).size()):
        assert type(f(tt)).__name__ == type(f(torch)).__name__ == 'Size' and tuple(f(tt)) == tuple(f(torch))
