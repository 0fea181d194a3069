"""Output layouts and view-ness against torch: `roll` keeps channels_last as ATen's cat of two narrows does, `cpu(memory_format=)`,
numpy's copy keeps the tensor's strides, `_is_view()` of ops whose kernels make views internally, and a short list of
sequences read as a tuple index (torch's `treatSequenceAsTuple`)."""
import warnings
import numpy as np
import pytest
torch = pytest.importorskip("torch")
import tinytensor as tt
from tinytensor.testing import test_tensor_eq as assert_tensor_eq

def both(f):
    out = []
    for L in (tt, torch):
        with warnings.catch_warnings():
            warnings.simplefilter('ignore')
            try: out.append(f(L))
            except Exception as e: out.append(e)
    return out

def cl(L, shape=(2, 3, 4, 5)):
    n = int(np.prod(shape))
    fmt = L.channels_last if len(shape) == 4 else L.channels_last_3d
    return L.arange(float(n)).view(*shape).contiguous(memory_format=fmt)

@pytest.mark.parametrize('shift,dim', [(1, 0), (1, 1), (-2, 1), (2, 2), (1, 3), (0, 1), (3, 1), (5, 3), (7, -1)])
def test_roll_layout(shift, dim):
    a, b = both(lambda L: L.roll(cl(L), shift, dim))
    assert_tensor_eq(a, b)

def test_roll_layout_more():
    for f in [lambda L: L.roll(cl(L), (1, 2), (1, 3)), lambda L: L.roll(cl(L), 3),
              lambda L: L.roll(cl(L, (2, 3, 4, 5, 2)), 1, 1), lambda L: L.roll(L.arange(6.).view(2, 3).t(), 1, 0),
              lambda L: L.roll(cl(L)[:, :, 1:3], 1, 1)]:
        a, b = both(f)
        assert_tensor_eq(a, b)

@pytest.mark.parametrize('fmt', ['channels_last', 'contiguous_format', 'preserve_format'])
def test_cpu_memory_format(fmt):
    a, b = both(lambda L: L.arange(120.).view(2, 3, 4, 5).cpu(memory_format=getattr(L, fmt)))
    assert_tensor_eq(a, b)
    x = tt.ones(2, 3, 4, 5)
    assert (x.cpu(memory_format=tt.preserve_format) is x) and (x.cpu() is x)

@pytest.mark.parametrize('conv', [np.array, np.asarray, lambda t: np.array(t, dtype=np.float32), lambda t: np.array(t, dtype=np.float64),
                                  lambda t: np.array(t, copy=True)])
def test_numpy_copy_keeps_strides(conv):
    for mk in [lambda L: L.arange(6.).view(2, 3).t(), lambda L: L.arange(24.).view(2, 3, 4).permute(2, 0, 1), cl]:
        a, b = both(lambda L: conv(mk(L)))
        assert a.strides == b.strides and a.dtype == b.dtype and np.array_equal(a, b)

X = lambda L: L.arange(12.).view(3, 4)
VIEWNESS = {
    'rot90': lambda L: L.rot90(X(L)), 'rot90_2': lambda L: L.rot90(X(L), 2), 'rot90_3': lambda L: L.rot90(X(L), 3),
    'rot90_0': lambda L: L.rot90(X(L), 0),
    'kron': lambda L: L.kron(X(L), L.ones(2, 1)), 'kron_1': lambda L: L.kron(X(L), L.ones(1, 1)),
    'unique_dim0': lambda L: L.unique(X(L), dim=0), 'unique_dim1': lambda L: L.unique(X(L), dim=1),
    'unique_inverse': lambda L: L.unique(X(L), dim=1, return_inverse=True)[0],
    'unique_consecutive_dim0': lambda L: L.unique_consecutive(X(L), dim=0),
    'unique_consecutive_dim1': lambda L: L.unique_consecutive(X(L), dim=1),
    'std_mean_t64': lambda L: L.std_mean(X(L).double().t(), 0)[1], 'var_mean_t64': lambda L: L.var_mean(X(L).double().t(), 0)[1],
    'var_mean_all': lambda L: L.var_mean(X(L).double().t())[1], 'std_mean_32': lambda L: L.std_mean(X(L), 1)[1],
    'std_mean_keep': lambda L: L.std_mean(X(L).double().t(), 0, keepdim=True)[1],
    'repeat_interleave_2': lambda L: L.repeat_interleave(X(L), 2), 'repeat_interleave_1': lambda L: L.repeat_interleave(X(L), 1),
    'repeat_interleave_dim0': lambda L: L.repeat_interleave(X(L), 2, dim=0),
    'repeat_interleave_dim1': lambda L: X(L).repeat_interleave(3, dim=1),
    'repeat_interleave_0d': lambda L: L.repeat_interleave(L.tensor(5.), 3),
    'repeat_interleave_tensor': lambda L: X(L).repeat_interleave(L.tensor([1, 2, 1]), dim=0),
    'repeat_interleave_index': lambda L: L.repeat_interleave(L.tensor([1, 2])),
}

@pytest.mark.parametrize('name', list(VIEWNESS))
def test_is_view(name):
    a, b = both(VIEWNESS[name])
    assert a._is_view() == b._is_view(), f'{name}: torch {b._is_view()}, tinytensor {a._is_view()}'
    assert_tensor_eq(a, b)
    if b._is_view(): assert tuple(a._base.shape) == tuple(b._base.shape)

INDEXES = [[[0], [2]], [[0, 1], [2, 3]], [[0, 1]], [0, [2]], [slice(None), 1], [None, 1], [1, 2], [Ellipsis, 1], [[0], [2], [1]],
           [(0,), (2,)], [np.array([0]), np.array([2])], [0, 1, 2], [1, 2] * 20, [[0]] * 40, [True, 1], []]

@pytest.mark.parametrize('i', range(len(INDEXES)))
def test_list_index_read_as_tuple(i):
    idx = INDEXES[i]
    a, b = both(lambda L: X(L)[idx])
    if isinstance(b, Exception):
        assert type(a) is type(b), f'{idx!r}: torch {type(b).__name__}: {b}; tinytensor {a!r}'
    else: assert_tensor_eq(a, b)

def test_list_of_tensors_index():
    a, b = both(lambda L: X(L)[[L.tensor([0]), L.tensor([2])]])
    assert_tensor_eq(a, b)
