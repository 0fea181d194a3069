"tt.tensor() of sequences that are not lists or tuples, and of sequences whose reads fail, against torch.tensor."
import collections
import pytest
import tinytensor as tt

torch = pytest.importorskip("torch")
from ttgen import check_results, run_both


class Seq:
    "A sequence by __len__ and __getitem__ alone."
    def __init__(self, v): self.v = v
    def __len__(self): return len(self.v)
    def __getitem__(self, i): return self.v[i]


def _failing(exc, n=2):
    class Bad:
        def __len__(self): return n
        def __getitem__(self, i): raise exc('x')
    return Bad


Bad = _failing(KeyError)


class NoLen:
    def __getitem__(self, i): return 1


class LenFails:
    def __len__(self): raise ValueError('len')
    def __getitem__(self, i): return 1


class Late:
    "Says 3 elements, the third read raises IndexError (iteration stops there, indexing raises)."
    def __len__(self): return 3
    def __getitem__(self, i):
        if i == 2: raise IndexError('late')
        return i


# (label, data maker, dtype name or None); each data maker is called once per library
CASES = [
    ('Seq', lambda: Seq([1, 2]), None), ('Seq2d', lambda: Seq([Seq([1., 2]), Seq([3, 4])]), None),
    ('[Seq]', lambda: [Seq([1, 2])], None), ('[[1,2],Seq]', lambda: [[1, 2], Seq([3, 4])], None),
    ('[[1,2],Seq] int16', lambda: [[1, 2], Seq([3, 4])], 'int16'), ('range', lambda: range(3), None),
    ('deque', lambda: collections.deque([1, 0]), 'bool'), ('[range]*2 f16', lambda: [range(2), range(2)], 'float16'),
    ('empty Bad', lambda: _failing(KeyError, 0)(), None), ('Seq short', lambda: [Seq([1, 2]), Seq([1])], None),
    ('Bad', Bad, None), ('Bad f32', Bad, 'float32'), ('Bad IndexError', _failing(IndexError), None),
    ('Bad RuntimeError', _failing(RuntimeError), None), ('[Bad]', lambda: [Bad()], None),
    ('[[Bad]]', lambda: [[Bad()]], 'int64'), ('[[1,2],Bad]', lambda: [[1, 2], Bad()], None),
    ('[[1,2],Bad] int32', lambda: [[1, 2], Bad()], 'int32'), ('[1,Bad]', lambda: [1, Bad()], None),
    ('[1,Bad] f32', lambda: [1, Bad()], 'float32'), ('[1,Bad] i64', lambda: [1, Bad()], 'int64'),
    ('NoLen', NoLen, None), ('LenFails', LenFails, None), ('Late', Late, None), ('Late f64', Late, 'float64'),
    ('[[0,1,2],Late]', lambda: [[0, 1, 2], Late()], None), ('[[0,1,2],Late] f32', lambda: [[0, 1, 2], Late()], 'float32'),
    ('dict', lambda: {0: 1}, None), ('Seq of str', lambda: Seq(['a']), None), ('[object]', lambda: [object()], None),
]


@pytest.mark.parametrize('label,make,d', CASES, ids=[c[0] for c in CASES])
def test_tensor_of_sequences(label, make, d):
    r_tt, r_th = run_both(lambda: tt.tensor(make(), dtype=getattr(tt, d) if d else None),
                          lambda: torch.tensor(make(), dtype=getattr(torch, d) if d else None))
    m = check_results(r_tt, r_th, 'tensor', ctx=label)
    assert m is None, m
    if isinstance(r_th, Exception): assert str(r_tt) == str(r_th)


def test_shape_error_names_the_type():
    for lib in (tt, torch):
        with pytest.raises(ValueError, match="could not determine the shape of object type 'Bad'"): lib.tensor(Bad())
