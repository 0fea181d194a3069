"bfloat16 and float8 at the numpy border, against torch: no numpy() or ml_dtypes array either way, DLPack bit-exact."
import numpy as np
import pytest
torch = pytest.importorskip("torch")
import ml_dtypes
import tinytensor as tt
from ttgen import run_both

NAMES = ['bfloat16', 'float8_e4m3fn', 'float8_e4m3fnuz', 'float8_e5m2', 'float8_e5m2fnuz', 'float8_e8m0fnu']

def _same_error(f, ctx):
    "Both libraries raise, with the same exception type and the same words."
    r_tt, r_th = run_both(lambda: f(tt), lambda: f(torch))
    assert isinstance(r_th, Exception), (ctx, 'torch returned', r_th)
    assert isinstance(r_tt, Exception), (ctx, 'tinytensor returned', r_tt)
    assert (type(r_tt), str(r_tt)) == (type(r_th), str(r_th)), ctx

def _t(L, name, shape=(2, 3)):
    "A tensor of `name` with a few exact values (1.0 and 2.0: in every float8 format)."
    return L.tensor(np.resize([1.0, 2.0, 0.5], shape).astype(np.float32)).to(getattr(L, name))

# a tensor out: every public path to a numpy array refuses, as torch's tensor_to_numpy does
OUTS = {'numpy': lambda L, t: t.numpy(),
        'numpy(force=True)': lambda L, t: t.numpy(force=True),
        'np.asarray': lambda L, t: np.asarray(t),
        'np.array': lambda L, t: np.array(t),
        'np.asarray(float32)': lambda L, t: np.asarray(t, dtype=np.float32),
        'np.array(float64, copy)': lambda L, t: np.array(t, dtype=np.float64, copy=True),
        '__array__': lambda L, t: t.__array__(),
        '__array__(float32)': lambda L, t: t.__array__(np.float32),
        'np.float32(0-d)': lambda L, t: np.float32(t[0, 0]),
        'transposed': lambda L, t: t.t().numpy(),
        'sliced': lambda L, t: t[:, ::2].numpy(),
        'empty': lambda L, t: t[:0].numpy(),
        '0-d': lambda L, t: t[0, 0].numpy(),
        'np.sin': lambda L, t: np.sin(t),
        'operand +': lambda L, t: t + np.ones(3, np.float32)}

@pytest.mark.parametrize('name', NAMES)
@pytest.mark.parametrize('out', list(OUTS))
def test_tensor_to_numpy_refused(name, out):
    _same_error(lambda L: OUTS[out](L, _t(L, name)), f'{out} of {name}')

# an array in: torch reads every ndarray through `numpy_dtype_to_aten`, which knows numpy's own dtypes only
INS = {'from_numpy': lambda L, a: L.from_numpy(a),
       'tensor': lambda L, a: L.tensor(a),
       'tensor(dtype=float32)': lambda L, a: L.tensor(a, dtype=L.float32),
       'tensor(dtype=same)': lambda L, a: L.tensor(a, dtype=getattr(L, a.dtype.name)),
       'as_tensor': lambda L, a: L.as_tensor(a),
       'asarray': lambda L, a: L.asarray(a),
       '0-d array': lambda L, a: L.tensor(a[0].reshape(())),
       'scalar': lambda L, a: L.tensor(a[0]),
       'list with a scalar': lambda L, a: L.tensor([a[0], 1.0]),
       'list of arrays': lambda L, a: L.tensor([a, a]),
       'transposed': lambda L, a: L.from_numpy(np.ones((2, 3), a.dtype).T)}

@pytest.mark.parametrize('name', NAMES)
@pytest.mark.parametrize('src', list(INS))
def test_ml_dtypes_array_refused(name, src):
    a = np.array([1.0, 2.0], dtype=getattr(ml_dtypes, name))
    _same_error(lambda L: INS[src](L, a), f'{src} of ml_dtypes.{name}')

def test_numpy_dtypes_named_as_torch_names_them():
    # the refusal names the array's scalar type (`tp_name`), not numpy's dtype name
    for dt in (np.longdouble, np.clongdouble, 'U3', object, 'M8[s]', 'S2', ml_dtypes.int4, ml_dtypes.float8_e3m4):
        _same_error(lambda L: L.from_numpy(np.zeros(2, dt)), f'from_numpy of {np.dtype(dt)}')

@pytest.mark.parametrize('name', NAMES)
def test_ways_out(name):
    # what torch does offer: Python values, a cast, a bit view, a list of 0-d tensors
    ways = {'tolist': lambda L, t: t.tolist(),
            'item': lambda L, t: t[0, 1].item(),
            'float()': lambda L, t: float(t[1, 0]),
            'float().numpy()': lambda L, t: t.float().numpy().tolist(),
            'double().numpy()': lambda L, t: t.t().double().numpy().tolist(),
            'bit view': lambda L, t: t.view(L.int16 if name == 'bfloat16' else L.uint8).numpy().tolist(),
            'tensor(list of 0-d)': lambda L, t: L.tensor([t[0, 0], t[0, 1]]),
            'tensor(tolist())': lambda L, t: L.tensor(t.tolist(), dtype=t.dtype)}
    for k, f in ways.items():
        r_tt, r_th = run_both(lambda: f(tt, _t(tt, name)), lambda: f(torch, _t(torch, name)))
        assert not isinstance(r_th, Exception), (k, name, r_th)
        if isinstance(r_th, torch.Tensor):                     # a tensor of `name`: its dtype and values
            assert (r_tt.dtype.name, r_tt.shape, r_tt.tolist()) == (name, r_th.shape, r_th.tolist()), (k, name)
        else: assert r_tt == r_th, (k, name, r_tt, r_th)

@pytest.mark.parametrize('name', NAMES)
def test_no_array_interface(name):
    for L in (tt, torch):
        assert not hasattr(_t(L, name), '__array_interface__')

def _all_bf16(L):
    "Every bfloat16 bit pattern (NaN payloads and both zeros included), as a bfloat16 tensor."
    return L.arange(-2 ** 15, 2 ** 15, dtype=L.int32).to(L.int16).view(L.bfloat16)

def test_dlpack_round_trips_bit_exact():
    bits = torch.arange(-2 ** 15, 2 ** 15, dtype=torch.int32).to(torch.int16)
    t = _all_bf16(tt)
    p = torch.from_dlpack(t)                                    # tinytensor -> torch: shared, kDLBfloat
    assert p.dtype == torch.bfloat16 and p.data_ptr() == t.data_ptr()
    assert torch.equal(p.view(torch.int16), bits)
    back = tt.from_dlpack(p)                                    # and back: the same memory, the same bits
    assert back.dtype is tt.bfloat16 and back.data_ptr() == t.data_ptr()
    assert back.view(tt.int16).tolist() == bits.tolist()
    q = _all_bf16(torch)[::3]                                  # torch -> tinytensor, strided
    u = tt.from_dlpack(q)
    assert (u.dtype, u.stride(), u.data_ptr()) == (tt.bfloat16, (3,), q.data_ptr())
    assert u.view(tt.int16).tolist() == q.view(torch.int16).tolist()

def test_numpy_from_dlpack_of_bfloat16_refused_by_numpy():
    # numpy has no bfloat16: its own error, the same for both
    _same_error(lambda L: np.from_dlpack(_t(L, 'bfloat16')), 'np.from_dlpack')
