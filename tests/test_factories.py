"Differential tests of chapter 04 (dtypes, factories, repr) against torch."
import math
import warnings
import numpy as np
import re
import pytest
import tinytensor as tt
from tinytensor.testing import test_tensor_eq

torch = pytest.importorskip("torch")
from ttgen import close_mask, tolerance, same, check_results, run_both

TT_DTYPES = [tt.bool, tt.uint8, tt.int8, tt.int16, tt.int32, tt.int64, tt.float16, tt.bfloat16,
             tt.float32, tt.float64, tt.complex64, tt.complex128]
def to_torch_dtype(d): return getattr(torch, d.name)


def test_dtype_names_and_sizes():
    for d in TT_DTYPES:
        td = to_torch_dtype(d)
        assert d.itemsize == td.itemsize
        assert (d.is_floating_point, d.is_complex, d.is_signed) == (td.is_floating_point, td.is_complex, td.is_signed)
    for alias in ['float', 'double', 'half', 'short', 'int', 'long', 'cfloat', 'cdouble']:
        assert getattr(tt, alias).name == str(getattr(torch, alias)).replace('torch.', '')


@pytest.mark.parametrize('a', TT_DTYPES, ids=lambda d: d.name)
def test_promote_types_all_144_pairs(a):
    for b in TT_DTYPES:
        assert tt.promote_types(a, b).name == str(torch.promote_types(to_torch_dtype(a), to_torch_dtype(b))).replace('torch.', '')


INFERENCE_INPUTS = [
    0, 1, -7, 2**40, True, False, 0.0, 1.5, -2.25, float('inf'), float('nan'), 1j, 2 + 3j,
    [], [[]], [[], []], [1], [1.0], [True], [1j], [1, 2, 3], [1, 2.0], [True, 1], [True, 1.0], [True, 1j],
    [1, 2.0, 3j], [[1, 2], [3, 4]], [[1.0, 2], [3, 4]], [[True, False], [False, True]], ((1, 2), (3, 4)),
    [(1, 2), [3, 4]], [[[1]], [[2]]], [[[1, 2, 3]] * 2] * 3, [0.1, 0.2, 0.3], [1e300, -1e300], [1e-300],
    np.float32(1.5), np.float64(1.5), np.int32(3), np.int16(3), np.uint8(200), np.bool_(True), np.complex64(1j),
    [np.float32(1), 2.0], [np.int32(1), 2], [np.int8(1), np.uint8(2)], [np.float16(1), np.float32(2)],
    [np.float64(1), 2.0], np.arange(6).reshape(2, 3), np.arange(6, dtype=np.float32), np.zeros((2, 0)),
    np.array(True), np.array([1 + 1j], dtype=np.complex64), [np.arange(3), np.arange(3)],
    [[1, 2], np.array([3, 4])], [2**62, 1], [-1, 255],
]

@pytest.mark.parametrize('data', INFERENCE_INPUTS, ids=lambda d: repr(d)[:40])
def test_tensor_dtype_inference_matches_torch(data):
    def torch_data(x):
        return torch.tensor(x)
    try: ref = torch_data(data)
    except Exception as e:
        with pytest.raises(type(e)): tt.tensor(data)
        return
    test_tensor_eq(tt.tensor(data), ref)


def test_tensor_of_tensors():
    test_tensor_eq(tt.tensor([tt.tensor(1.), 2]), torch.tensor([torch.tensor(1.), 2]))
    test_tensor_eq(tt.tensor(tt.tensor([[1, 2]])), torch.tensor(torch.tensor([[1, 2]])))


@pytest.mark.parametrize('data,dtype', [([1.7, -1.7, 2.5], tt.int64), ([1, 0, 2], tt.bool), ([1.5], tt.float16),
                                        ([1.5], tt.bfloat16), ([1, 2], tt.complex128), ([3j], tt.complex64),
                                        ([[1, 2]], tt.uint8), ([255], tt.uint8), ([-128, 127], tt.int8), (2.0, tt.int32),
                                        ([0.1, 0.2], tt.float64), (True, tt.float32)])
def test_tensor_with_dtype(data, dtype):
    test_tensor_eq(tt.tensor(data, dtype=dtype), torch.tensor(data, dtype=to_torch_dtype(dtype)))


BAD_TENSOR_INPUTS = [[[1, 2], [3]], [[1], [2, 3]], [[1, 2], 3], [1, [2]], 'abc', ['a'], [None], None, {'a': 1},
                     [[[1]], [2]], [[1, 2], [3, 4, 5]], object()]

@pytest.mark.parametrize('data', BAD_TENSOR_INPUTS, ids=lambda d: 'object()' if type(d) is object else repr(d)[:30])
def test_bad_tensor_inputs_raise_like_torch(data):
    with pytest.raises(Exception) as ref: torch.tensor(data)
    with pytest.raises(ref.type): tt.tensor(data)


@pytest.mark.parametrize('data,dtype', [([300], tt.uint8), ([-1], tt.uint8), ([1e20], tt.int64), ([128], tt.int8),
                                        ([float('inf')], tt.int32), ([float('nan')], tt.int64)])
def test_overflow_raises_like_torch(data, dtype):
    try: ref = torch.tensor(data, dtype=to_torch_dtype(dtype))
    except Exception as e:
        with pytest.raises(type(e)): tt.tensor(data, dtype=dtype)
        return
    test_tensor_eq(tt.tensor(data, dtype=dtype), ref)


SIZES = [(), (0,), (1,), (5,), (2, 3), (2, 0, 3), (1, 1, 3), (3, 1), (2, 3, 4, 5), (1, 2, 1, 3, 1)]

@pytest.mark.parametrize('size', SIZES)
@pytest.mark.parametrize('dtype', TT_DTYPES, ids=lambda d: d.name)
def test_deterministic_factories_match_torch(size, dtype):
    td = to_torch_dtype(dtype)
    test_tensor_eq(tt.zeros(size, dtype=dtype), torch.zeros(size, dtype=td))
    test_tensor_eq(tt.ones(size, dtype=dtype), torch.ones(size, dtype=td))
    test_tensor_eq(tt.full(size, 1 if dtype is not tt.bool else True, dtype=dtype), torch.full(size, 1 if dtype is not tt.bool else True, dtype=td))
    e, te = tt.empty(size, dtype=dtype), torch.empty(size, dtype=td)
    assert (e.shape, e.stride(), e.dtype.name, e.storage_offset()) == (tuple(te.shape), te.stride(), str(td)[6:], 0)
    assert e.untyped_storage().nbytes() == te.untyped_storage().nbytes()


@pytest.mark.parametrize('value', [True, 3, -2, 2.5, 1e10, 1 + 2j, float('nan')])
def test_full_infers_dtype(value):
    test_tensor_eq(tt.full((2, 3), value), torch.full((2, 3), value))


def test_default_dtype_change():
    tt.set_default_dtype(tt.float64); torch.set_default_dtype(torch.float64)
    try:
        for data in [1.5, [1, 2.0], 1j]:
            test_tensor_eq(tt.tensor(data), torch.tensor(data))
        test_tensor_eq(tt.zeros(2), torch.zeros(2))
        assert repr(tt.tensor([1.5])) == repr(torch.tensor([1.5])).replace('torch.', 'tinytensor.')
    finally:
        tt.set_default_dtype(tt.float32); torch.set_default_dtype(torch.float32)


ARANGE_ARGS = [(5,), (0,), (1, 4), (0, 10, 3), (10, 0, -3), (0.0, 1.0, 0.1), (1, 2, 0.25), (-5, 5), (0, 1, 0.3),
               (2.5,), (0, -1, -0.1), (-3.5, 3.5, 0.5), (0, 100, 7)]

@pytest.mark.parametrize('args', ARANGE_ARGS)
def test_arange_matches_torch(args):
    test_tensor_eq(tt.arange(*args), torch.arange(*args))


@pytest.mark.parametrize('args,dtype', [((5,), tt.float32), ((0, 1, 0.1), tt.float64), ((10,), tt.int16),
                                        ((0, 5, 0.5), tt.bfloat16), ((0, 2, 0.5), tt.int32)])
def test_arange_with_dtype(args, dtype):
    test_tensor_eq(tt.arange(*args, dtype=dtype), torch.arange(*args, dtype=to_torch_dtype(dtype)))


@pytest.mark.parametrize('args', [(0, 5, 0), (5, 0, 1), (0, -5, 2)])
def test_arange_errors(args):
    with pytest.raises(Exception) as ref: torch.arange(*args)
    with pytest.raises(ref.type): tt.arange(*args)


STRIDED = [((2, 3), (3, 1)), ((2, 3), (1, 2)), ((2, 3), (0, 2)), ((3,), (5,)), ((2, 0, 3), (7, 9, 1)), ((), ()),
           ((4, 1, 3), (3, 100, 1)), ((2, 2), (0, 0)), ((5, 5), (1, 5)), ((3, 4, 5), (1, 3, 12))]

@pytest.mark.parametrize('size,stride', STRIDED)
def test_empty_strided_matches_torch(size, stride):
    a, b = tt.empty_strided(size, stride), torch.empty_strided(size, stride)
    assert (a.shape, a.stride(), a.storage_offset()) == (tuple(b.shape), b.stride(), b.storage_offset())
    assert a.untyped_storage().nbytes() == b.untyped_storage().nbytes()
    assert a.is_contiguous() == b.is_contiguous()
    from torch._prims_common import is_non_overlapping_and_dense_or_false
    assert a.is_non_overlapping_and_dense() == is_non_overlapping_and_dense_or_false(b)


@pytest.mark.parametrize('size,stride', [((2, 3), (1,)), ((2,), (-1,)), ((-2,), (1,)), ((2, 3), (1, 2, 3))])
def test_empty_strided_errors(size, stride):
    with pytest.raises(Exception) as ref: torch.empty_strided(size, stride)
    with pytest.raises(ref.type): tt.empty_strided(size, stride)


@pytest.mark.parametrize('size,stride', STRIDED + [((2, 3, 4, 5), (60, 1, 15, 3)), ((2, 3, 4, 5), (1, 2, 6, 24)),
                                                   ((2, 1, 4, 1), (4, 4, 1, 1)), ((3, 2), (8, 2)), ((6, 5, 4, 3, 2), (6, 0, 120, 0, 1))])
def test_like_family_preserves_layout(size, stride):
    a, b = tt.empty_strided(size, stride), torch.empty_strided(size, stride)
    for f in ['empty_like', 'zeros_like', 'ones_like']:
        x, y = getattr(tt, f)(a), getattr(torch, f)(b)
        assert (x.shape, x.stride()) == (tuple(y.shape), y.stride()), f
    if len(size) == 4:
        x, y = tt.empty_like(a, memory_format=tt.channels_last), torch.empty_like(b, memory_format=torch.channels_last)
        assert x.stride() == y.stride()


def test_channels_last_empty():
    for size in [(2, 3, 4, 5), (1, 3, 1, 1), (2, 1, 4, 5), (0, 3, 2, 2)]:
        a, b = tt.empty(size, memory_format=tt.channels_last), torch.empty(size, memory_format=torch.channels_last)
        assert a.stride() == b.stride()
        assert a.is_contiguous() == b.is_contiguous()
        assert a.is_contiguous(memory_format=tt.channels_last) == b.is_contiguous(memory_format=torch.channels_last)


BAD_FACTORY_CALLS = [
    lambda m: m.empty(-1), lambda m: m.zeros(2, -3), lambda m: m.ones((-1, 2)), lambda m: m.empty(2.5),
    lambda m: m.empty(2, 'a'), lambda m: m.zeros(2, dtype='float'), lambda m: m.ones(2, dtype=3),
    lambda m: m.full((2,), 1, dtype='int'), lambda m: m.empty(2, device='gpu'), lambda m: m.empty(2, device='cuda:-1'),
    lambda m: m.empty(2, device='cuda:x'), lambda m: m.empty(2, device=3.5), lambda m: m.rand(2, dtype=m.int64),
    lambda m: m.empty(2, 3, memory_format=m.channels_last), lambda m: m.tensor([1]).item() and m.tensor([1, 2]).item(),
]

@pytest.mark.parametrize('i', range(len(BAD_FACTORY_CALLS)))
def test_bad_factory_input_raises_like_torch(i):
    call = BAD_FACTORY_CALLS[i]
    with pytest.raises(Exception) as ref: call(torch)
    with pytest.raises(ref.type): call(tt)


def test_cuda_device_without_gpu_raises():
    if tt.cuda.is_available(): pytest.skip('a GPU is present')
    with pytest.raises((RuntimeError, AssertionError)): tt.empty(2, device='cuda')


def test_unsupported_numpy_dtypes_raise_type_error():
    # torch >= 2.3 takes uint16/32/64 (tests/test_new_dtypes.py); longdouble and strings it refuses
    for dt in (np.longdouble, np.str_):
        a = np.zeros(2, dt)
        with pytest.raises(TypeError, match="can't convert np.ndarray"): tt.from_numpy(a)
        with pytest.raises(TypeError, match="can't convert np.ndarray"): torch.from_numpy(a)


def test_from_numpy_shares_both_ways():
    a = np.arange(12, dtype=np.float64).reshape(3, 4)[:, 1::2]
    t = tt.from_numpy(a)
    test_tensor_eq(t, torch.from_numpy(a))
    a[0, 0] = -1
    assert t.tolist()[0][0] == -1
    t.numpy()[2, 1] = 99
    assert a[2, 1] == 99
    for dt in [np.bool_, np.uint8, np.int8, np.int16, np.int32, np.int64, np.float16, np.float32, np.float64, np.complex64, np.complex128]:
        x = np.ones((2, 3), dtype=dt)
        test_tensor_eq(tt.from_numpy(x), torch.from_numpy(x))


@pytest.mark.parametrize('arr', [np.arange(4)[::-1], np.zeros(2, dtype='U3'), np.zeros(2, dtype=object), np.zeros(4, np.int32).view('S2')])
def test_from_numpy_errors_like_torch(arr):
    with pytest.raises(Exception) as ref: torch.from_numpy(arr)
    with pytest.raises(ref.type): tt.from_numpy(arr)


REPR_CASES = [
    ([1., 2., 3.], None), ([1.5, 2.25], None), ([1e-5, 1.0], None), ([1e9, 1.0], None), ([123456789.0], None),
    ([0.0, -0.0], None), ([float('nan'), 1.0, float('inf'), -float('inf')], None), ([1, 2, 3], None),
    ([True, False], None), ([[1, 2], [3, 4]], None), ([[1.5, 2], [3, 4]], None), (3.0, None), (7, None), (True, None),
    ([1, 2], 'int32'), ([1.5], 'float64'), ([1.5], 'float16'), ([1.5, 2.5], 'bfloat16'), ([1 + 2j, 3 - 4j], None),
    ([1j], 'complex128'), ([[[1, 2], [3, 4]], [[5, 6], [7, 8]]], None), ([], None), ([[]], None), ([0.001, 1000.0], None),
    ([-1.0, 2.0], None), ([255, 0], 'uint8'), ([0.1 * i for i in range(30)], None), (list(range(100)), None),
    ([[0.5] * 20] * 3, None), ([1e-10], None), ([12345.678], None),
]

@pytest.mark.parametrize('data,dtype', REPR_CASES, ids=lambda x: repr(x)[:30])
def test_repr_matches_torch(data, dtype):
    a = tt.tensor(data, dtype=getattr(tt, dtype) if dtype else None)
    b = torch.tensor(data, dtype=getattr(torch, dtype) if dtype else None)
    assert repr(a) == repr(b).replace('torch.', 'tinytensor.')


@pytest.mark.parametrize('make', [lambda m: m.arange(2000), lambda m: m.arange(3000.).reshape(30, 100) if hasattr(m.Tensor, 'reshape') else None,
                                  lambda m: m.zeros(0, 3), lambda m: m.zeros(2, 0, dtype=m.int32), lambda m: m.ones(1, 1, 1),
                                  lambda m: m.empty(3, 4, device='meta'), lambda m: m.empty(2, device='meta', dtype=m.int64),
                                  lambda m: m.arange(1001.) / 7 if hasattr(m.Tensor, '__truediv__') else None])
def test_repr_special_matches_torch(make):
    a, b = make(tt), make(torch)
    if a is None: pytest.skip('needs a later chapter')
    assert repr(a) == repr(b).replace('torch.', 'tinytensor.')


def test_item_tolist_match_torch():
    for data in [[1, 2], [[1.5, 2.5]], True, 3j, [[True]]]:
        assert tt.tensor(data).tolist() == torch.tensor(data).tolist()
    for data in [[7], [[2.5]], True, 1 + 1j, [[[4]]]]:
        assert tt.tensor(data).item() == torch.tensor(data).item()


def test_rand_randn_seeded_and_shaped():
    tt.manual_seed(123); a = tt.rand(4, 5); b = tt.randn(3, dtype=tt.float64)
    tt.manual_seed(123); c = tt.rand(4, 5); d = tt.randn(3, dtype=tt.float64)
    assert a.tolist() == c.tolist() and b.tolist() == d.tolist()
    assert (a.shape, a.stride(), a.dtype, b.dtype) == ((4, 5), (5, 1), tt.float32, tt.float64)
    x = np.array(tt.randn(20000).tolist())
    assert abs(x.mean()) < 0.05 and abs(x.std() - 1) < 0.05


# ---- arange and linspace bit for bit: the model of ATen's kernels (chapter 04c) -------------------------------------
from tinytensor import cpu_capability as _cap
TORCH_CAP = torch.backends.cpu.get_cpu_capability()

def _range_tol(op, dtype_name):
    """False (exact) where tinytensor models the kernels torch runs here; else, said aloud, torch's tolerance.
    linspace depends on fused multiply-adds only (DEFAULT on x86-64 has none); arange also on the vector width."""
    same_fma = (_cap.CAPABILITY == 'DEFAULT') == (TORCH_CAP == 'DEFAULT')
    same = same_fma and (op == 'linspace' or _cap.CAPABILITY == TORCH_CAP)
    if same: return tolerance(op, dtype_name)
    warnings.warn(f'{op}: tinytensor models capability {_cap.CAPABILITY}, torch runs {TORCH_CAP}: '
                  f'compared within the {dtype_name} tolerance, not bit for bit')
    return dtype_name if dtype_name in ('float16', 'bfloat16', 'float32', 'float64', 'complex64', 'complex128') else False

_RANGE_FLOATS = ['float32', 'float64', 'float16', 'bfloat16']
_LIN_ENDS = [(-1.3, 7.1), (0, 1), (3.3, -2.2), (1e-3, 1e3), (-7.77, -1.01), (0.1, 0.9), (-5, 200), (2.5, 2.5)]
_RANGE_NS = [2, 3, 15, 16, 17, 31, 32, 33, 63, 64, 65, 1000, 5000, 40000]

def _compare_range(op, a, b, ctx):
    "Bit for bit where the model applies; else within the tolerance (and a warning)."
    tol = _range_tol(op, a.dtype.name)
    if tol is False: assert _bits(a) == _bits(b), ctx; return
    x, y = (np.asarray(t.double().numpy() if t.dtype.is_floating_point else t.numpy()) for t in (a, b))
    assert close_mask(x, y, tol, scale=np.abs(y).max(initial=0)).all(), ctx

# ---- arange: sizes, dtypes and values as torch, for every dtype; fast fill = plain fill ------------------------------

from hypothesis import given, settings, strategies as st, assume

ARANGE_DTYPES = [tt.uint8, tt.int8, tt.int16, tt.int32, tt.int64, tt.float16, tt.bfloat16, tt.float32, tt.float64, None]

def _arange_both(args, d):
    kw = {} if d is None else {'dtype': d}
    tkw = {} if d is None else {'dtype': to_torch_dtype(d)}
    res = []
    for f in (lambda: tt.arange(*args, **kw), lambda: torch.arange(*args, **tkw)):
        try: res.append(f())
        except Exception as e: res.append(e)
    return res

@settings(max_examples=300, deadline=None)
@given(st.integers(-50, 50), st.integers(-50, 50), st.sampled_from([1, 2, 3, -1, -2, 0.5, 0.25, -0.5, 1.5, -2.5, 0.125]),
       st.sampled_from([0, 0.5, -0.25]), st.sampled_from(ARANGE_DTYPES))
def test_arange_property_exact_steps(start, end, step, shift, d):
    "Binary-fraction steps: every value is exact in double, so torch and tinytensor agree bit for bit (or raise alike)."
    a, b = _arange_both((start + shift, end, step), d)
    if isinstance(b, Exception):
        assert type(a) is type(b), (a, b); return
    assert not isinstance(a, Exception), (a, b)
    test_tensor_eq(a, b)

@pytest.mark.parametrize('args', [(0, 1, 0.1), (0.1, 10, 0.1), (-3.3, 7, 0.1234567), (1, 2, 0.3), (0, 100, 1 / 3)])
@pytest.mark.parametrize('d', [tt.float32, tt.float64, tt.float16, tt.bfloat16, tt.int32, tt.int64], ids=lambda d: d.name)
def test_arange_inexact_steps(args, d):
    "Steps that are not binary fractions: same size and dtype, and torch's bits (Note [arange's chunks])."
    a, b = _arange_both(args, d)
    if isinstance(b, Exception):
        assert type(a) is type(b); return
    assert tuple(a.shape) == tuple(b.shape) and a.dtype.name == str(b.dtype)[6:]
    _compare_range('arange', a, b, args)

_AR_STEPS = [(-1.3, 0.37), (0, 0.1), (1.1, 0.013), (5, -0.3), (0, 1 / 3), (-2.5, 0.5), (1e-3, 0.00271), (10, -0.123)]

@pytest.mark.parametrize('d', _RANGE_FLOATS)
def test_arange_bits_like_torch(d):
    "Many starts and steps (negative too), lengths around multiples of 2V and past the thread grain (Note [arange's chunks])."
    old = torch.get_num_threads()
    torch.set_num_threads(tt.get_num_threads())      # past GRAIN_SIZE the thread count splits the range
    try: _arange_bits_cases(d)
    finally: torch.set_num_threads(old)

def _arange_bits_cases(d):
    for start, step in _AR_STEPS:
        for n in _RANGE_NS + [100001]:
            if d in ('float16', 'bfloat16') and abs(start + n * step) > 2000: continue
            end = start + (n - 0.5) * step
            a, b = _arange_both((start, end, step), getattr(tt, d))
            assert tuple(a.shape) == tuple(b.shape) == (n,), (a.shape, b.shape, n)
            _compare_range('arange', a, b, (d, start, step, n))

@pytest.mark.parametrize('threads', [1, 3])
def test_arange_thread_split_like_torch(threads):
    "Past GRAIN_SIZE the pieces of parallel_for restart the vectors: the same thread count gives the same bits."
    old_tt, old_t = tt.get_num_threads(), torch.get_num_threads()
    try:
        tt.set_num_threads(threads); torch.set_num_threads(threads)
        for d, step in (('float32', 0.37), ('float64', 0.37), ('float16', 0.0037), ('bfloat16', 0.0037)):
            a, b = tt.arange(-1.3, 100001 * step, step, dtype=getattr(tt, d)), torch.arange(-1.3, 100001 * step, step, dtype=getattr(torch, d))
            _compare_range('arange', a, b, (d, threads))
    finally:
        tt.set_num_threads(old_tt); torch.set_num_threads(old_t)

@pytest.mark.parametrize('d', _RANGE_FLOATS)
def test_arange_out_layouts_bits(d):
    "out= of the right numel keeps its strides; torch's bits land in row-major order."
    for shape, perm in (((3, 11), (1, 0)), ((5, 7), (0, 1)), ((2, 3, 4), (2, 0, 1))):
        n = math.prod(shape)
        o_tt = tt.zeros(*shape, dtype=getattr(tt, d)).permute(*perm)
        o_t = torch.zeros(*shape, dtype=getattr(torch, d)).permute(*perm)
        a, b = tt.arange(-1.3, -1.3 + (n - 0.5) * 0.37, 0.37, out=o_tt), torch.arange(-1.3, -1.3 + (n - 0.5) * 0.37, 0.37, out=o_t)
        assert a.stride() == b.stride()
        _compare_range('arange', a, b, (d, shape, perm))

def test_arange_fast_fill_equals_plain_fill():
    from tinytensor.factories import _arange_fill, _arange_exact
    for start, step, n, acc in [(3, -2, 1000, np.float64), (-7, 3, 999, np.float32), (5, 1, 70001, np.int64), (2 ** 40, 3, 500, np.float64)]:
        assert _arange_exact(start, step, n, acc)
        fast = np.empty(n, acc); _arange_fill(fast, start, step, acc, block=97)
        plain = np.array(start).astype(acc) + np.arange(n).astype(acc) * np.array(step).astype(acc)
        assert np.array_equal(fast, plain)
    assert not _arange_exact(0.5, 0.1, 10, np.float64) and not _arange_exact(0, 1, 2 ** 25, np.float32)

def test_arange_large_matches_numpy_speed_class():
    "A big arange is one pass over the result's memory: 1e6 float32 values equal numpy's and torch's."
    a = tt.arange(1e6)
    assert a.dtype is tt.float32 and np.array_equal(a.numpy(), torch.arange(1e6).numpy())


# ---- linspace, logspace, eye ---------------------------------------------------------------------------------------

LIN_DTYPES = [None, tt.float16, tt.bfloat16, tt.float32, tt.float64, tt.int32, tt.int64, tt.uint8, tt.complex64]

@pytest.mark.parametrize('d', LIN_DTYPES, ids=lambda d: d.name if d else 'default')
@pytest.mark.parametrize('args', [(0, 10, 7), (0, 1, 5), (-3.5, 2.25, 10), (1, 1, 3), (5, -5, 11), (0, 1, 1), (0, 1, 0), (2, 100, 33),
                                  (0.1, 0.9, 1000)])
def test_linspace_logspace_match_torch(args, d):
    "linspace and logspace bit for bit (Note [linspace's roundings], Note [logspace calls libm's pow])."
    kw, tkw = ({}, {}) if d is None else ({'dtype': d}, {'dtype': to_torch_dtype(d)})
    for name in ('linspace', 'logspace'):
        try: b = getattr(torch, name)(*args, **tkw)
        except Exception as e:
            with pytest.raises(type(e)): getattr(tt, name)(*args, **kw)
            continue
        a = getattr(tt, name)(*args, **kw)
        assert (tuple(a.shape), a.stride(), a.dtype.name) == (tuple(b.shape), b.stride(), str(b.dtype)[6:])
        if name == 'logspace' or _range_tol(name, a.dtype.name) is False:
            assert _bits(a) == _bits(b), (name, a.tolist(), b.tolist()); continue
        x, y = np.asarray(a.tolist(), dtype=complex), np.asarray(b.tolist(), dtype=complex)
        assert close_mask(x, y, _range_tol(name, a.dtype.name), scale=abs(args[0]) + abs(args[1])).all(), (name, x, y)

@pytest.mark.parametrize('d', _RANGE_FLOATS + ['complex64', 'complex128', 'int64', 'int32', 'int16'])
def test_linspace_bits_like_torch(d):
    "Every float dtype, both directions, step counts around multiples of the vector width, and past the thread grain."
    for s, e in _LIN_ENDS:
        if d.startswith('complex'): s, e = complex(s, e / 3), complex(e, -s)
        for n in _RANGE_NS:
            try: b = torch.linspace(s, e, n, dtype=getattr(torch, d))
            except RuntimeError:
                with pytest.raises(RuntimeError): tt.linspace(s, e, n, dtype=getattr(tt, d))
                continue
            _compare_range('linspace', tt.linspace(s, e, n, dtype=getattr(tt, d)), b, (d, s, e, n))

def test_linspace_large_and_extreme():
    "Half steps past 2048 (idx and steps - 1 rounded to Half; inf past 65519), bfloat16 past 256, int64 at its limits."
    for d, n in (('float16', 70000), ('float16', 5001), ('bfloat16', 1001)):
        _compare_range('linspace', tt.linspace(-1.3, 7.1, n, dtype=getattr(tt, d)),
                       torch.linspace(-1.3, 7.1, n, dtype=getattr(torch, d)), (d, n))
    args = (-2 ** 63, (2 ** 63 - 1) & ~0xfff, 15)
    assert tt.linspace(*args, dtype=tt.int64).tolist() == torch.linspace(*args, dtype=torch.int64).tolist()

@pytest.mark.parametrize('d', _RANGE_FLOATS)
def test_linspace_out_layouts_bits(d):
    "out= of the right numel keeps its strides; the values land in row-major order, bit for bit."
    for shape, perm in (((3, 11), (1, 0)), ((5, 7), (0, 1)), ((2, 3, 4), (2, 0, 1))):
        n = math.prod(shape)
        o_tt = tt.zeros(*shape, dtype=getattr(tt, d)).permute(*perm)
        o_t = torch.zeros(*shape, dtype=getattr(torch, d)).permute(*perm)
        a, b = tt.linspace(-1.3, 7.1, n, out=o_tt), torch.linspace(-1.3, 7.1, n, out=o_t)
        assert a.stride() == b.stride()
        _compare_range('linspace', a, b, (d, shape, perm))

def _bits(t):
    "A tensor's dtype, shape and exact bits (any NaN counted as one NaN), for tinytensor and torch alike."
    name = str(t.dtype).split('.')[-1]
    if name == 'bfloat16': a = t.view(torch.int16 if isinstance(t, torch.Tensor) else tt.int16).numpy()
    else: a = t.numpy()
    if a.dtype.kind == 'c': a = a.view(np.float32 if a.dtype == np.complex64 else np.float64)
    if a.dtype.kind == 'f': a = np.where(np.isnan(a), np.nan, a)
    if name == 'bfloat16':
        nan = np.isnan(t.float().numpy()); a = np.where(nan, np.int16(0x7fc0), a).astype(np.int16)
    return name, a.shape, a.tobytes()

_LOG_DTYPES = ['float64', 'float32', 'float16', 'bfloat16', 'int64', 'int32', 'int16', 'int8', 'uint8', 'complex64', 'complex128']
_LOG_BASES = [10., 2., math.e, 0.5, 1.7, 1e-3, -2., -3.5, -1., 0., -0., math.inf, math.nan]

def _logspace_cases():
    "Enumerated: starts, ends and step counts (1, 2, odd, even, many) with every base; seeded values in between."
    rng = np.random.default_rng(20240611)
    pts = [0, 1, -1, 2.5, -2.25, 3, 0.1, -4.7, 7.3, 38, -45]
    for k, base in enumerate(_LOG_BASES):
        for st in (1, 2, 3, 4, 7, 10, 33, 100):
            a, b = pts[(k + st) % len(pts)], pts[(3 * k + 2 * st + 1) % len(pts)]
            yield a, b, st, base
            yield float(np.round(rng.normal() * 3, 3)), float(np.round(rng.normal() * 3, 3)), st, base

@pytest.mark.parametrize('d', _LOG_DTYPES)
def test_logspace_bits_like_torch(d):
    "logspace gives torch's bits for every dtype: libm's pow per element in double, or cpow in the complex type."
    bad = []
    for a, b, st, base in _logspace_cases():
        r = []
        for m in (tt, torch):
            try: r.append(_bits(m.logspace(a, b, st, base=base, dtype=getattr(m, d))))
            except Exception as e: r.append(type(e).__name__)
        if r[0] != r[1]: bad.append((a, b, st, base))
    assert not bad, bad[:5]

@pytest.mark.parametrize('args', [(2.5, 2.5, 1), (300, 300, 1), (3, 3, 1), (1 + 2j, 0, 1), (-4 - 0.5j, 2, 1), (2.5, 0, 1, -2.),
                                  (-300, 2, 1), (3 + 1j, 4, 0), (3 + 1j, 4, 3), (1e5, 0, 1)])
@pytest.mark.parametrize('d', [None, 'int64', 'int8', 'float32', 'float16', 'bfloat16', 'complex64', 'complex128', 'bool'])
def test_one_step_and_complex_ranges_like_torch(args, d):
    "One step is `fill_` of `pow(base, start)` (its overflow checks, a complex pow); a complex start wants a complex dtype."
    for name in ('linspace', 'logspace'):
        if name == 'linspace' and len(args) > 3: continue
        r = run_both(lambda: getattr(tt, name)(*args, dtype=getattr(tt, d) if d else None),
                     lambda: getattr(torch, name)(*args, dtype=getattr(torch, d) if d else None))
        m = check_results(*r, name, ctx=f'{name}{args} {d}')
        assert m is None, m
        if not isinstance(r[1], Exception): assert _bits(r[0]) == _bits(r[1]), (name, r[0].tolist(), r[1].tolist())

def test_linspace_endpoints_exact():
    for d in (tt.float32, tt.float64, tt.float16):
        a = tt.linspace(-1.3, 7.7, 101, dtype=d).tolist()
        b = torch.linspace(-1.3, 7.7, 101, dtype=to_torch_dtype(d)).tolist()
        assert (a[0], a[-1]) == (b[0], b[-1])

@pytest.mark.parametrize('nm', [(0,), (1,), (3,), (2, 5), (5, 2), (0, 3), (4, 0)])
@pytest.mark.parametrize('d', [None, tt.bool, tt.uint8, tt.int64, tt.float16, tt.complex64], ids=lambda d: d.name if d else 'default')
def test_eye_matches_torch(nm, d):
    kw, tkw = ({}, {}) if d is None else ({'dtype': d}, {'dtype': to_torch_dtype(d)})
    test_tensor_eq(tt.eye(*nm, **kw), torch.eye(*nm, **tkw))


# ---- randint, randint_like, new_*, type_as -------------------------------------------------------------------------

@pytest.mark.parametrize('args', [(10, (3, 4)), (-5, 5, (100,)), (0, 2, (2, 0, 3)), (250, 256, (50,))])
@pytest.mark.parametrize('d', [None, tt.uint8, tt.int16, tt.int64, tt.float32, tt.float64], ids=lambda d: d.name if d else 'default')
def test_randint_shape_dtype_range(args, d):
    kw, tkw = ({}, {}) if d is None else ({'dtype': d}, {'dtype': to_torch_dtype(d)})
    try: b = torch.randint(*args, **tkw)
    except Exception as e:
        with pytest.raises(type(e)): tt.randint(*args, **kw)
        return
    a = tt.randint(*args, **kw)
    assert (tuple(a.shape), a.stride(), a.dtype.name) == (tuple(b.shape), b.stride(), str(b.dtype)[6:])
    lo, hi = (0, args[0]) if len(args) == 2 else args[:2]
    v = np.asarray(a.tolist()).ravel()
    assert v.size == 0 or (v.min() >= lo and v.max() < hi and np.all(v == np.floor(v)))

def test_randint_like_keeps_layout():
    x = tt.zeros(2, 3, 4, dtype=tt.float64).permute(2, 0, 1)
    xt = torch.zeros(2, 3, 4, dtype=torch.float64).permute(2, 0, 1)
    a, b = tt.randint_like(x, 3, 9), torch.randint_like(xt, 3, 9)
    assert (a.shape, a.stride(), a.dtype.name) == (tuple(b.shape), b.stride(), 'float64')
    assert set(np.asarray(a.tolist()).ravel()) <= set(range(3, 9))

@pytest.mark.parametrize('d', [tt.bool, tt.uint8, tt.int32, tt.float16, tt.float64, tt.complex64], ids=lambda d: d.name)
def test_new_methods_match_torch(d):
    x, xt = tt.zeros(3, 2, dtype=d).t(), torch.zeros(3, 2, dtype=to_torch_dtype(d)).t()
    for call in (lambda t: t.new_zeros(2, 3), lambda t: t.new_ones((4,)), lambda t: t.new_full((2, 2), 1),
                 lambda t: t.new_zeros(2, dtype=t.dtype if True else None), lambda t: t.new_tensor([[1, 0], [1, 1]]),
                 lambda t: t.new_full((3,), True), lambda t: t.new_empty(0, 2)):
        a, b = call(x), call(xt)
        assert (tuple(a.shape), a.stride(), a.dtype.name) == (tuple(b.shape), b.stride(), str(b.dtype)[6:])
        if a.numel() and call is not None and 'empty' not in str(call): test_tensor_eq(a, b)
    test_tensor_eq(x.new_ones(2, dtype=tt.int8), xt.new_ones(2, dtype=torch.int8))

@pytest.mark.parametrize('src,dst', [(tt.int64, tt.float32), (tt.float32, tt.float32), (tt.float64, tt.int8), (tt.bool, tt.float16)],
                         ids=lambda d: d.name)
def test_type_as_matches_torch(src, dst):
    a = tt.tensor([[1, 0], [3, 2]], dtype=src).t()
    b = torch.tensor([[1, 0], [3, 2]], dtype=to_torch_dtype(src)).t()
    ra, rb = a.type_as(tt.zeros(1, dtype=dst)), b.type_as(torch.zeros(1, dtype=to_torch_dtype(dst)))
    test_tensor_eq(ra, rb)
    assert (ra is a) == (rb is b)


# ---- tensors as numpy-friendly Python objects ----------------------------------------------------------------------

@pytest.mark.parametrize('d', [tt.bool, tt.uint8, tt.int32, tt.int64, tt.float16, tt.float32, tt.float64, tt.complex64], ids=lambda d: d.name)
def test_array_interface_like_torch(d):
    x = tt.tensor([[1, 0, 3], [2, 5, 7]], dtype=d).t()
    xt = torch.tensor([[1, 0, 3], [2, 5, 7]], dtype=to_torch_dtype(d)).t()
    a, b = np.asarray(x), np.asarray(xt)
    assert (a.dtype, a.shape, a.strides) == (b.dtype, b.shape, b.strides) and np.array_equal(a, b)
    assert np.shares_memory(a, x.numpy())
    assert np.asarray(x, dtype=np.float64).dtype == np.float64
    assert np.array(x).flags.owndata                                    # np.array copies, as for torch
    def outcome(f):                                                     # __array_priority__: numpy defers to the tensor,
        try: return type(f()).__name__                                  # whose operators refuse arrays, as torch's do
        except Exception as e: return type(e).__name__
    assert outcome(lambda: np.ones((3, 2)) + x) == outcome(lambda: np.ones((3, 2)) + xt) == 'TypeError'
    assert outcome(lambda: x + np.ones((3, 2))) == outcome(lambda: xt + np.ones((3, 2)))

def test_array_bfloat16_refused_as_torch():
    "numpy has no bfloat16: torch and tinytensor refuse np.asarray of one (tests/test_bf16_numpy.py: every path)."
    for L in (tt, torch):
        with pytest.raises(TypeError, match='^Got unsupported ScalarType BFloat16$'):
            np.asarray(L.tensor([1.5, 2.], dtype=L.bfloat16))
    assert tt.tensor([1.5, 2.], dtype=tt.bfloat16).view(tt.int16).numpy().tolist() == [16320, 16384]

def test_cpu_and_requires_grad_attribute():
    x = tt.arange(3.)
    assert x.cpu() is x and x.requires_grad is False and torch.arange(3.).requires_grad is False
    with pytest.raises(RuntimeError, match='autograd is not implemented'): x.requires_grad_()


# ---- the HTML picture stays small -------------------------------------------------------------------------------

def test_repr_html_is_bounded():
    "The picture of a 9M-element tensor reads only what it draws: its peak allocation is counted (tracemalloc), not timed."
    import tracemalloc
    for x in (tt.zeros(3000, 3000), tt.zeros(3000, 3000).t(), tt.zeros(50, 60, 70).permute(2, 0, 1), tt.zeros(4)[::2]):
        tracemalloc.start()
        try: h = x._repr_html_(); peak = tracemalloc.get_traced_memory()[1]
        finally: tracemalloc.stop()
        assert peak < 1 << 20, peak                        # a pass over the 36 MB tensor would allocate far more
        assert h.count('<rect') <= 2 * 48 and h.startswith('<pre>tensor(')

def test_tensor_of_a_tensor_keeps_its_layout_like_torch():
    "torch.tensor(t) / t.new_tensor(x) copy a tensor as `to(copy=True)`: dense layouts kept, others made dense in their order."
    import warnings
    base = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    for make in (lambda m, x: x.transpose(0, 2), lambda m, x: x.permute(1, 0, 2), lambda m, x: x[:, ::2],
                 lambda m, x: x[:, :1].expand(2, 3, 4), lambda m, x: x):
        a, b = make(tt, tt.from_numpy(base.copy())), make(torch, torch.from_numpy(base.copy()))
        with warnings.catch_warnings():
            warnings.simplefilter('ignore')                       # torch warns that tensor(t) should be t.clone()
            pairs = [(tt.tensor(a), torch.tensor(b)), (tt.ones(1).new_tensor(a), torch.ones(1).new_tensor(b)),
                     (tt.tensor(a, dtype=tt.float64), torch.tensor(b, dtype=torch.float64))]
        for r, ref in pairs:
            assert r.shape == tuple(ref.shape) and r.stride() == ref.stride() and r.storage_offset() == 0
            np.testing.assert_array_equal(r.numpy(), ref.numpy())

def test_factory_out_like_torch():
    "zeros/ones/full with out=: the same result object, shape, strides, dtype, values, version bumps, warnings and errors as torch."
    import warnings
    outs = [lambda m: m.empty(2, 3), lambda m: m.empty(6, dtype=m.int64), lambda m: m.empty(0), lambda m: m.empty(3, 2).t(),
            lambda m: m.empty(4, 4)[::2, :3], lambda m: m.empty(2, 3, dtype=m.bool)]
    calls = [lambda m, o: m.zeros(2, 3, out=o), lambda m, o: m.ones((2, 3), out=o), lambda m, o: m.full((2, 3), 2.5, out=o),
             lambda m, o: m.zeros(2, 3, out=o, dtype=m.float32), lambda m, o: m.ones(2, 3, out=o, device='meta'),
             lambda m, o: m.full((2, 3), 1e40, out=o), lambda m, o: m.zeros(5, out=o)]
    for mk in outs:
        for call in calls:
            res = []
            for m in (tt, torch):
                o = mk(m); v = o._version
                with warnings.catch_warnings(record=True) as w:
                    warnings.simplefilter('always')
                    try: r = call(m, o)
                    except Exception as e: res.append((type(e), None)); continue
                res.append((r is o, tuple(r.shape), r.stride(), str(r.dtype).split('.')[-1], o._version - v,
                            np.asarray(r.tolist()).tolist(), len(w)))
            assert res[0] == res[1], res
    with pytest.raises(TypeError, match="zeros\\(\\): argument 'out' must be Tensor, not int"): tt.zeros(2, out=5)
    with pytest.raises(RuntimeError, match="device type meta does not match device type of out parameter \\(cpu\\)"):
        tt.ones(2, out=tt.empty(2), device='meta')


def test_random_in_place_and_repeatable():
    "rand/randn draw float32/float64 straight into a contiguous result: [0, 1) holds, seeds repeat, other layouts still fill."
    tt.manual_seed(7); a = tt.rand(1 << 20); b = tt.randn(64, 64, dtype=tt.float64)
    assert a.dtype is tt.float32 and 0.0 <= float(a.min()) and float(a.max()) < 1.0
    tt.manual_seed(7); assert bool((tt.rand(1 << 20) == a).all()) and bool((tt.randn(64, 64, dtype=tt.float64) == b).all())
    x = tt.empty(2, 3, 4, 5).contiguous(memory_format=tt.channels_last)
    tt.manual_seed(1); r = tt.randn_like(x)
    tt.manual_seed(1); assert r.stride() == x.stride() and bool((tt.randn_like(x) == r).all())
    h = tt.rand(1000, dtype=tt.float16); assert float(h.max()) <= 1.0 and float(h.min()) >= 0.0
    assert abs(float(tt.randn(1 << 18).mean())) < 0.02 and abs(float(tt.randn(1 << 18).std()) - 1) < 0.02


_LEAVES = {'int': 3, 'float': 2.5, 'bool': True, 'complex': 1 + 2j, 'np.float64': np.float64(2.5), 'np.float32': np.float32(2.5),
           'np.float16': np.float16(2.5), 'np.int8': np.int8(3), 'np.uint8': np.uint8(3), 'np.bool_': np.bool_(True),
           'np.complex64': np.complex64(1 + 2j), 'np.complex128': np.complex128(1 + 2j), 'None': None, 'str': 'a',
           'array0': np.array(2.5), 'int array0': np.array(2)}
_LEAF_DTYPES = [None, 'bool', 'uint8', 'int64', 'float16', 'bfloat16', 'float32', 'float64', 'complex64']

@pytest.mark.parametrize('dt', _LEAF_DTYPES)
@pytest.mark.parametrize('leaf', list(_LEAVES))
def test_tensor_leaves_like_torch(leaf, dt):
    "tensor() takes or refuses each kind of leaf as torch's store_scalar does, first in a list (the shape walk) or later."
    v = _LEAVES[leaf]
    for data in ([v, v], [1, v], [[1], [v]]):
        out = []
        for m in (tt, torch):
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter('ignore')
                    r = m.tensor(data, dtype=getattr(m, dt) if dt else None)
                out.append((str(r.dtype).split('.')[-1], tuple(r.shape), np.asarray(r.to(m.complex128).tolist()).ravel().tolist()))
            except Exception as e: out.append(type(e).__name__)
        assert out[0] == out[1], (data, dt, out)


# ---- out= layouts: where a factory writes, and what `out` looks like after --------------------------------------------

_OUT_LAYOUTS = {   # name: (the base's shape, the view of it that is `out`); the base starts as -1s
    'contiguous': ((2, 3), lambda b: b), 'flat': ((6,), lambda b: b), 'narrowed': ((2, 3), lambda b: b.narrow(1, 1, 2)),
    'transposed': ((3, 2), lambda b: b.t()), 'permuted': ((3, 3, 300), lambda b: b.permute(2, 0, 1)),
    'offset': ((8,), lambda b: b[2:]), 'offset 2-d': ((3, 4), lambda b: b[1:, 1:3]),
    'expanded': ((1, 3), lambda b: b.expand(2, 3)), 'expanded 1-d': ((1,), lambda b: b.expand(6)),
    'empty': ((0,), lambda b: b), 'zero-dim': ((), lambda b: b), 'two': ((2,), lambda b: b)}

def _ranges(n):   # (label, call(module, out), out dtype): a range of n values
    return [(f'arange({n} values)', lambda m, o: m.arange(0.5, 0.5 + 0.25 * n, 0.25, out=o), 'float32'),
            (f'arange({n} ints)', lambda m, o: m.arange(3, 3 + n, out=o), 'int64'),
            (f'linspace({n})', lambda m, o: m.linspace(-2., 0.5 * n - 2.5, n, out=o), 'float32'),   # vector kernel's
            (f'linspace({n}) double', lambda m, o: m.linspace(-2., 0.5 * n - 2.5, n, out=o), 'float64'),   # exact steps: the
            (f'linspace({n}) int', lambda m, o: m.linspace(-7, 3 * n - 10, n, out=o), 'int64'),   # values are any kernel's
            (f'logspace({n})', lambda m, o: m.logspace(-1.5, 2.25, n, base=3., out=o), 'float32'),
            (f'logspace({n}) half', lambda m, o: m.logspace(-1.5, 2.25, n, out=o), 'float16')]

def _fills(size):   # (label, call(module, out), out dtype, random): a filling factory of `size`
    eye = size if len(size) == 2 else (2, 3)
    return [(f'zeros{size}', lambda m, o: m.zeros(size, out=o), 'float32', False),
            (f'ones{size}', lambda m, o: m.ones(size, out=o), 'int64', False),
            (f'full{size}', lambda m, o: m.full(size, 2.5, out=o), 'float64', False),
            (f'eye{eye}', lambda m, o: m.eye(*eye, out=o), 'float32', False),
            (f'empty{size}', lambda m, o: m.empty(size, out=o), 'float32', True),
            (f'rand{size}', lambda m, o: m.rand(size, out=o), 'float32', True),
            (f'randn{size}', lambda m, o: m.randn(size, out=o), 'float64', True),
            (f'randint{size}', lambda m, o: m.randint(3, 9, size, out=o), 'int64', True)]

def _into_out(m, call, dt, layout, random):
    "Call a factory with `out=` a view of a base of -1s: (result is out, result, version bump, warnings, base after)."
    shape, view = _OUT_LAYOUTS[layout]
    base = m.full(shape, -1, dtype=getattr(m, dt))
    out = view(base)
    v = out._version
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter('always')
        try: r = call(m, out)
        except Exception as e: return e
    ws = [(x.category.__name__, str(x.message)[:60]) for x in w]
    if random: return r is out, (tuple(r.shape), r.stride(), r.storage_offset()), out._version - v, ws, base == -1
    return r is out, r, out._version - v, ws, base

def _compare_out(label, layout, a, b):
    ctx, op = f'{label}, out={layout}', re.match(r'[a-z_]+', label).group()   # the factory's name
    if isinstance(a, Exception) or isinstance(b, Exception):
        m = check_results(a, b, op, ctx=ctx); assert m is None, m; return
    assert a[0] == b[0] and a[2:4] == b[2:4], (ctx, a[0], b[0], a[2:4], b[2:4])   # returns out; one write; warnings
    for x, y in ((a[1], b[1]), (a[4], b[4])):                                    # the result; the whole base, untouched elements too
        m = same(x, y, op) if isinstance(y, torch.Tensor) else (None if x == y else f'{x} != {y}')
        assert m is None, (ctx, m)

@pytest.mark.parametrize('layout', list(_OUT_LAYOUTS))
def test_range_factories_out_layouts_like_torch(layout):
    "arange/linspace/logspace into `out=`: kept (shape, strides) with the right numel, values in row-major order, overlap refused."
    numel = math.prod(_OUT_LAYOUTS[layout][0]) if layout not in ('narrowed', 'offset 2-d') else 4
    if layout == 'offset': numel = 6
    if layout.startswith('expanded'): numel = 6
    for n in (numel, numel + 1, 1, 0):
        for label, call, dt in _ranges(n):
            if n == 0 and label.startswith('arange'): continue          # arange: a non-empty range only
            _compare_out(label, layout, _into_out(tt, call, dt, layout, False), _into_out(torch, call, dt, layout, False))

@pytest.mark.parametrize('layout', list(_OUT_LAYOUTS))
def test_filling_factories_out_layouts_like_torch(layout):
    "zeros/ones/full/eye/empty/rand/randn/randint into `out=`: `resize_` (same shape: strides kept), writes only out's elements."
    shape, view = _OUT_LAYOUTS[layout]
    o = view(torch.empty(shape))
    for size in {tuple(o.shape), (o.numel(),), (2, 2)}:
        for label, call, dt, random in _fills(size):
            _compare_out(label, layout, _into_out(tt, call, dt, layout, random), _into_out(torch, call, dt, layout, random))

def test_factory_out_examples():
    "The cases that were wrong: a range written as if `out` were contiguous, resized to 1-d, or into overlapping elements."
    x = tt.zeros(2, 3); tt.linspace(0, 3, 4, out=x.narrow(1, 1, 2))
    assert x.tolist() == [[0, 0, 1], [0, 2, 3]]
    x = tt.zeros(2, 3); tt.arange(4., out=x.narrow(1, 1, 2))
    assert x.tolist() == [[0, 0, 1], [0, 2, 3]]
    o = tt.zeros(3, 3, 300).permute(2, 0, 1)
    assert tt.arange(0, 2700, out=o) is o and (o.shape, o.stride()) == ((300, 3, 3), (1, 900, 300))
    for f in (tt.linspace, tt.logspace):
        with pytest.raises(RuntimeError, match='more than one element of the written-to tensor refers to a single memory location'):
            f(1, 10, 10, out=tt.rand(1).expand(10))
    with pytest.raises(RuntimeError, match="'memory_format' argument is incompatible with 'out' tensor argument"):
        tt.empty(2, out=tt.empty(2), memory_format=tt.contiguous_format)


@pytest.mark.parametrize('conv', [float, int, complex, bool])
@pytest.mark.parametrize('value', [1.5j, 1.5 + 0j, 2 + 0j, complex(1, float('nan')), -0.0j, 2.7, -3])
def test_python_number_of_a_one_element_tensor(conv, value):
    "float()/int() of a complex tensor: c10's checked conversion refuses a nonzero imaginary part (RuntimeError)."
    def run(lib):
        try: return ('ok', conv(lib.tensor([value])))
        except Exception as e: return (type(e).__name__, str(e))
    mine, theirs = run(tt), run(torch)
    assert mine[0] == theirs[0] and (mine[0] != 'ok' or repr(mine[1]) == repr(theirs[1])), (mine, theirs)
