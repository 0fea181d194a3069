"""The newer dtypes (uint16/32/64 ...) against torch: promotion, numpy and DLPack round trips, the ops torch has
kernels for (and its NotImplementedError for the others), torch zip and safetensors files both ways, repr."""
import io, re, warnings
import numpy as np
import pytest
torch = pytest.importorskip("torch")
import tinytensor as tt
from ttgen import run_both, check_results

UNSIGNED = ['uint16', 'uint32', 'uint64']

def norm_repr(t):
    "tinytensor's repr in torch's words: its longer dtype prefix may move `dtype=` to a new line."
    return re.sub(r',\n\s+dtype=', ', dtype=', repr(t).replace('tinytensor.', 'torch.'))

def both_dtypes():
    return [(d, getattr(torch, d.name)) for d in tt.all_dtypes]

def outcome(f):
    "('ok', result) or (exception type, message)."
    try: return ('ok', f())
    except Exception as e: return (type(e), str(e))

def test_promote_types_every_pair():
    bad = []
    for a, ta in both_dtypes():
        for b, tb in both_dtypes():
            r, s = outcome(lambda: tt.promote_types(a, b)), outcome(lambda: torch.promote_types(ta, tb))
            if r[0] == 'ok' and s[0] == 'ok': ok = r[1].name == str(s[1]).replace('torch.', '')
            else: ok = r == s
            if not ok: bad.append((a.name, b.name, r, s))
    assert not bad, bad[:5]
    assert len(tt.all_dtypes) ** 2 > 144

@pytest.mark.parametrize('name', UNSIGNED)
def test_numpy_round_trip(name):
    info = np.iinfo(name)
    a = np.array([0, 1, info.max // 3, info.max], dtype=name)
    for make in (tt.from_numpy, tt.tensor, tt.as_tensor):
        t = make(a)
        assert t.dtype is getattr(tt, name) and t.tolist() == a.tolist()
        assert t.numpy().dtype == a.dtype and (t.numpy() == a).all()
    t = tt.from_numpy(a); t.numpy()[0] = 7
    assert a[0] == 7                                             # from_numpy shares memory, as torch's
    assert norm_repr(t) == norm_repr(torch.from_numpy(a))

@pytest.mark.parametrize('name', UNSIGNED)
def test_dlpack_round_trip(name):
    a = np.arange(5, dtype=name)
    t = tt.from_dlpack(a)
    assert t.dtype is getattr(tt, name) and t.tolist() == a.tolist()
    assert (np.from_dlpack(t) == a).all()
    th = torch.from_dlpack(t)
    assert th.dtype == getattr(torch, name) and th.tolist() == a.tolist()
    assert tt.from_dlpack(torch.arange(3).to(getattr(torch, name))).dtype is getattr(tt, name)

VALS = [1, 2, 3, 4]
# op -> function of (module, a, b), as the prototype's sweep over torch
OPS = {
    'add': lambda m, a, b: a + b, 'sub': lambda m, a, b: a - b, 'mul': lambda m, a, b: a * b,
    'div': lambda m, a, b: a / b, 'floor_divide': lambda m, a, b: a // b, 'remainder': lambda m, a, b: a % b,
    'pow': lambda m, a, b: a ** b, 'add_scalar': lambda m, a, b: a + 1, 'add_float': lambda m, a, b: a + 1.5,
    'mul_scalar': lambda m, a, b: a * 2, 'mul_': lambda m, a, b: a.clone().mul_(b),
    'add_': lambda m, a, b: a.clone().add_(b), 'neg': lambda m, a, b: -a, 'abs': lambda m, a, b: a.abs(),
    'square': lambda m, a, b: a.square(), 'exp': lambda m, a, b: a.exp(), 'sqrt': lambda m, a, b: a.sqrt(),
    'maximum': lambda m, a, b: m.maximum(a, b), 'minimum': lambda m, a, b: m.minimum(a, b),
    'bitwise_and': lambda m, a, b: a & b, 'bitwise_or': lambda m, a, b: a | b,
    'bitwise_xor': lambda m, a, b: a ^ b, 'logical_and': lambda m, a, b: m.logical_and(a, b),
    'logical_or': lambda m, a, b: m.logical_or(a, b), 'eq': lambda m, a, b: a == b, 'ne': lambda m, a, b: a != b,
    'lt': lambda m, a, b: a < b, 'le': lambda m, a, b: a <= b, 'gt': lambda m, a, b: a > b,
    'ge': lambda m, a, b: a >= b, 'lt_scalar': lambda m, a, b: a < 2, 'eq_scalar': lambda m, a, b: a == 2,
    'where': lambda m, a, b: m.where(a == a, a, b), 'cat': lambda m, a, b: m.cat([a, b]),
    'clone': lambda m, a, b: a.clone(), 'index': lambda m, a, b: a[1:3], 'to_float': lambda m, a, b: a.float(),
    'to_int64': lambda m, a, b: a.long(), 'sum': lambda m, a, b: a.sum(),
}
RULE = {'div': 'div', 'exp': 'exp', 'sqrt': 'sqrt', 'sum': 'sum'}

@pytest.mark.parametrize('name', UNSIGNED)
@pytest.mark.parametrize('op', list(OPS))
def test_ops_as_torch(name, op):
    f = OPS[op]
    a_tt, b_tt = tt.tensor(VALS, dtype=getattr(tt, name)), tt.tensor(VALS[::-1], dtype=getattr(tt, name))
    a_th, b_th = torch.tensor(VALS, dtype=getattr(torch, name)), torch.tensor(VALS[::-1], dtype=getattr(torch, name))
    r_tt, r_th = run_both(lambda: f(tt, a_tt, b_tt), lambda: f(torch, a_th, b_th))
    if isinstance(r_th, Exception) and isinstance(r_tt, Exception): assert str(r_tt) == str(r_th)
    if isinstance(r_th, torch.Tensor) and r_th.dtype in (torch.uint16, torch.uint32, torch.uint64):
        assert not isinstance(r_tt, Exception), r_tt
        assert r_tt.dtype.name == str(r_th.dtype)[6:] and r_tt.tolist() == r_th.tolist() and r_tt.shape == r_th.shape
        return
    assert check_results(r_tt, r_th, RULE.get(op, 'add'), op) is None

@pytest.mark.parametrize('name', UNSIGNED)
def test_wrapping_and_checked_fill(name):
    d, td = getattr(tt, name), getattr(torch, name)
    assert tt.full((2,), -1, dtype=d).tolist() == torch.full((2,), -1, dtype=td).tolist()
    big = [np.iinfo(name).max // 2, np.iinfo(name).max]
    assert (tt.tensor([3, 5], dtype=d) * tt.tensor(big, dtype=d)).tolist() == \
        (torch.tensor([3, 5], dtype=td) * torch.tensor(big, dtype=td)).tolist()
    if name == 'uint16':
        r = run_both(lambda: tt.zeros(1, dtype=d).fill_(70000), lambda: torch.zeros(1, dtype=td).fill_(70000))
        assert check_results(*r, 'add') is None

def zip_bytes(save, obj):
    b = io.BytesIO(); save(obj, b); b.seek(0); return b

def test_torch_zip_both_ways():
    src = {'u16': torch.tensor([0, 1, 65535], dtype=torch.uint16),
           'u32': torch.arange(10, dtype=torch.int64).to(torch.uint32)[1::3],
           'u64': torch.tensor([[2**64 - 1, 5], [0, 2**63]], dtype=torch.uint64).t(),
           'f': torch.tensor([1.5, 2.5])}
    got = tt.load(zip_bytes(torch.save, src))
    for k, v in src.items():
        g = got[k]
        assert g.dtype.name == str(v.dtype)[6:] and g.tolist() == v.tolist()
        assert (g.stride(), g.storage_offset()) == (v.stride(), v.storage_offset())
    back = torch.load(zip_bytes(tt.save, got), weights_only=True)
    for k, v in src.items():
        assert back[k].dtype == v.dtype and back[k].tolist() == v.tolist() and back[k].stride() == v.stride()
        assert back[k].storage_offset() == v.storage_offset()

def test_safetensors_both_ways(tmp_path):
    from safetensors.torch import save_file as th_save, load_file as th_load
    src = {'a': torch.tensor([1, 65535], dtype=torch.uint16), 'b': torch.tensor([[2**32 - 1]], dtype=torch.uint32),
           'c': torch.tensor([2**64 - 1, 0], dtype=torch.uint64)}
    th_save(src, str(tmp_path / 'a.safetensors'))
    got = tt.load_file(str(tmp_path / 'a.safetensors')) if hasattr(tt, 'load_file') else \
        __import__('tinytensor.safetensors', fromlist=['x']).load_file(str(tmp_path / 'a.safetensors'))
    for k, v in src.items(): assert got[k].dtype.name == str(v.dtype)[6:] and got[k].tolist() == v.tolist()
    from tinytensor.safetensors import save_file
    save_file(got, str(tmp_path / 'b.safetensors'))
    back = th_load(str(tmp_path / 'b.safetensors'))
    for k, v in src.items(): assert back[k].dtype == v.dtype and back[k].tolist() == v.tolist()

@pytest.mark.parametrize('name', UNSIGNED)
def test_repr(name):
    for vals in ([], [7], [0, 65535], list(range(2000))):
        a, b = tt.tensor(vals, dtype=getattr(tt, name)), torch.tensor(vals, dtype=getattr(torch, name))
        assert norm_repr(a) == norm_repr(b)
    assert repr(tt.tensor(2**64 - 1, dtype=tt.uint64)) == 'tensor(18446744073709551615, dtype=tinytensor.uint64)'

@pytest.mark.parametrize('vals', [[2**64 - 1, 1], [2**63], [-1], [1.5], [True, 2], [2**64], [np.int64(5)]])
@pytest.mark.parametrize('name', UNSIGNED)
def test_tensor_leaves(vals, name):
    r_tt, r_th = run_both(lambda: tt.tensor(vals, dtype=getattr(tt, name)), lambda: torch.tensor(vals, dtype=getattr(torch, name)))
    if isinstance(r_th, Exception):
        assert type(r_tt) is type(r_th) and str(r_tt) == str(r_th), (r_tt, r_th)
    else: assert not isinstance(r_tt, Exception) and r_tt.tolist() == r_th.tolist(), (r_tt, r_th)

def test_finfo_iinfo_every_dtype():
    for d, td in both_dtypes():
        for info in ('finfo', 'iinfo'):
            r = outcome(lambda: getattr(tt, info)(d)); s = outcome(lambda: getattr(torch, info)(td))
            if s[0] != 'ok':
                assert r[0] is s[0], (info, d, r, s)
                continue
            assert r[0] == 'ok', (info, d, r)
            a, b = r[1], s[1]
            assert repr(a) == repr(b), (a, b)
            fields = ('bits', 'eps', 'max', 'min', 'tiny', 'smallest_normal', 'resolution', 'dtype') \
                if info == 'finfo' else ('bits', 'max', 'min', 'dtype')
            for f in fields: assert getattr(a, f) == getattr(b, f) and type(getattr(a, f)) is type(getattr(b, f)), (d, f)
    assert repr(tt.finfo()) == repr(torch.finfo())
    for bad in ('float32', None):
        r = run_both(lambda: tt.iinfo(bad), lambda: torch.iinfo(bad))
        assert type(r[0]) is type(r[1]) is TypeError

# ---------------------------------------------------------------- float8
FLOAT8 = ['float8_e4m3fn', 'float8_e4m3fnuz', 'float8_e5m2', 'float8_e5m2fnuz', 'float8_e8m0fnu']

def codes(lib, name):
    return lib.arange(256, dtype=lib.int32).to(lib.uint8).view(getattr(lib, name))

@pytest.mark.parametrize('name', FLOAT8)
def test_float8_decodes_all_codes(name):
    a, b = codes(tt, name), codes(torch, name)
    for target in ('float32', 'float64', 'float16', 'bfloat16'):
        x, y = a.to(getattr(tt, target)), b.to(getattr(torch, target))
        bits = {'float32': (tt.int32, torch.int32), 'float64': (tt.int64, torch.int64)}.get(target, (tt.int16, torch.int16))
        assert x.view(bits[0]).tolist() == y.view(bits[1]).tolist(), target
    assert [v == w or (v != v and w != w) for v, w in zip(a.tolist(), b.tolist())] == [True] * 256

def f32_patterns():
    "Every pattern of the top 16 bits (sign, exponent, 7 mantissa bits) x 12 low halves: guard/round/sticky and NaN payloads."
    hi = np.arange(1 << 16, dtype=np.uint32) << 16
    lows = np.array([0, 1, 2, 0x7fff, 0x8000, 0x8001, 0xfffe, 0xffff, 0x1234, 0xbeef, 0x4000, 0xc000], np.uint32)
    return (hi[:, None] | lows[None, :]).ravel().view(np.float32)

@pytest.mark.parametrize('name', FLOAT8)
def test_float8_encodes_as_torch(name):
    f = f32_patterns()
    a = tt.from_numpy(f).to(getattr(tt, name)).view(tt.uint8).numpy()
    b = torch.from_numpy(f).to(getattr(torch, name)).view(torch.uint8).numpy()
    bad = np.nonzero(a != b)[0]
    assert len(bad) == 0, [(hex(f.view(np.uint32)[i]), hex(a[i]), hex(b[i])) for i in bad[:5]]
    # float64 (two roundings), float16, ints and bools on the way in; strided too
    rng = np.random.default_rng(0)
    for src in (rng.standard_normal(5000) * 300, rng.standard_normal(300).astype(np.float16),
                rng.integers(-600, 600, 500), rng.random(50) < 0.5):
        x, y = tt.from_numpy(src)[::3].to(getattr(tt, name)), torch.from_numpy(src)[::3].to(getattr(torch, name))
        assert x.view(tt.uint8).tolist() == y.view(torch.uint8).tolist()
    vals = [1000.0, -1e30, float('inf'), float('nan'), -0.0, 1.5, 3.0, -4.0, 0.0, 1e-9]
    assert tt.tensor(vals, dtype=getattr(tt, name)).view(tt.uint8).tolist() == \
        torch.tensor(vals, dtype=getattr(torch, name)).view(torch.uint8).tolist()

@pytest.mark.parametrize('name', FLOAT8)
def test_float8_repr(name):
    for v in ([1., 2.], [0.5, -1.5, 3.], [448., 0.015625, 0.001953125], [float('nan'), 448., -0., 1.],
              [float('nan'), float('inf'), 1000., -0., 1.], [], [7.], list(range(30)), [0., 0.], 3.):
        a, b = tt.tensor(v, dtype=getattr(tt, name)), torch.tensor(v, dtype=getattr(torch, name))
        assert norm_repr(a) == norm_repr(b)

F8_OPS = ['add', 'sub', 'mul', 'div', 'mul_scalar', 'mul_', 'add_', 'neg', 'abs', 'exp', 'sqrt', 'maximum', 'bitwise_and',
          'eq', 'ne', 'lt', 'eq_scalar', 'where', 'cat', 'clone', 'index', 'to_float', 'to_int64']

@pytest.mark.parametrize('name', FLOAT8)
@pytest.mark.parametrize('op', F8_OPS)
def test_float8_ops_as_torch(name, op):
    f = OPS[op]
    va, vb = [1., 2., -0.5, 300.], [4., 2., 1., 2.]
    a_tt, b_tt = tt.tensor(va, dtype=getattr(tt, name)), tt.tensor(vb, dtype=getattr(tt, name))
    a_th, b_th = torch.tensor(va, dtype=getattr(torch, name)), torch.tensor(vb, dtype=getattr(torch, name))
    r_tt, r_th = run_both(lambda: f(tt, a_tt, b_tt), lambda: f(torch, a_th, b_th))
    if isinstance(r_th, Exception):
        assert type(r_tt) is type(r_th) and str(r_tt) == str(r_th), (r_tt, r_th)
    elif r_th.dtype == getattr(torch, name):
        assert not isinstance(r_tt, Exception), r_tt
        assert r_tt.dtype.name == name and r_tt.view(tt.uint8).tolist() == r_th.view(torch.uint8).tolist()
    else: assert check_results(r_tt, r_th, 'add', op) is None

@pytest.mark.parametrize('name', FLOAT8)
def test_float8_mul_every_pair(name):
    a, b = codes(tt, name), codes(torch, name)
    x = (a[:, None] * a[None, :]).view(tt.uint8).numpy()
    y = (b[:, None] * b[None, :]).view(torch.uint8).numpy()
    assert (x == y).all()
    assert (a[:, None].expand(256, 256).clone() * a).view(tt.uint8).tolist() == (b[:, None].expand(256, 256).clone() * b).view(torch.uint8).tolist()

def test_float8_files_both_ways(tmp_path):
    from safetensors.torch import save_file as th_save, load_file as th_load
    from tinytensor.safetensors import save_file, load_file
    src = {n: codes(torch, n).reshape(16, 16) for n in FLOAT8}
    st_src = {k: v for k, v in src.items() if k != 'float8_e8m0fnu'}          # safetensors' torch API lacks F8_E8M0
    th_save(st_src, str(tmp_path / 'a.safetensors'))
    got = load_file(str(tmp_path / 'a.safetensors'))
    for k, v in st_src.items(): assert got[k].dtype.name == k and got[k].view(tt.uint8).tolist() == v.view(torch.uint8).tolist()
    save_file(got, str(tmp_path / 'b.safetensors'))
    back = th_load(str(tmp_path / 'b.safetensors'))
    for k, v in st_src.items(): assert back[k].dtype == v.dtype and torch.equal(back[k].view(torch.uint8), v.view(torch.uint8))
    e8 = {'e8': tt.tensor([0.5, 4.0], dtype=tt.float8_e8m0fnu)}
    save_file(e8, str(tmp_path / 'e8.safetensors'))
    assert load_file(str(tmp_path / 'e8.safetensors'))['e8'].view(tt.uint8).tolist() == [126, 129]
    views = {k: v[1::2, ::3] for k, v in src.items()}
    got = tt.load(zip_bytes(torch.save, views))
    for k, v in views.items():
        g = got[k]
        assert g.dtype.name == k and (g.stride(), g.storage_offset()) == (v.stride(), v.storage_offset())
        assert g.view(tt.uint8).tolist() == v.view(torch.uint8).tolist()
    back = torch.load(zip_bytes(tt.save, got), weights_only=True)
    for k, v in views.items():
        assert back[k].dtype == v.dtype and torch.equal(back[k].view(torch.uint8), v.view(torch.uint8))
        assert (back[k].stride(), back[k].storage_offset()) == (v.stride(), v.storage_offset())

def test_safetensors_refuses_sub_byte_floats(tmp_path):
    import json, struct
    from tinytensor.safetensors import load_file, SafetensorError
    for code in ('F4', 'F6_E2M3', 'F6_E3M2'):
        h = json.dumps({'a': {'dtype': code, 'shape': [2], 'data_offsets': [0, 1]}}).encode()
        h += b' ' * (-(8 + len(h)) % 8)
        (tmp_path / 'x.safetensors').write_bytes(struct.pack('<Q', len(h)) + h + bytes(8))
        with pytest.raises(SafetensorError, match=f'dtype {code} .*has no torch dtype'): load_file(str(tmp_path / 'x.safetensors'))

# ---------------------------------------------------------------- numpy and DLPack
# bfloat16: torch refuses numpy() too, tinytensor still gives an ml_dtypes array (a known departure)
@pytest.mark.parametrize('name', FLOAT8 + UNSIGNED)
def test_numpy_and_dlpack_as_torch(name):
    a, b = tt.ones(3, dtype=getattr(tt, name)), torch.ones(3, dtype=getattr(torch, name))
    for f in (lambda t: t.numpy(), lambda t: np.asarray(t), lambda t: np.from_dlpack(t)):
        r = run_both(lambda: f(a), lambda: f(b))
        if isinstance(r[1], Exception):
            assert isinstance(r[0], Exception), r
            if not isinstance(r[1], RuntimeError): assert type(r[0]) is type(r[1]) and str(r[0]) == str(r[1]), r
        else: assert not isinstance(r[0], Exception) and r[0].dtype == r[1].dtype, r
    # the capsules both ways: the same bytes and dtype
    x, y = torch.from_dlpack(a), tt.from_dlpack(b)
    assert x.dtype == b.dtype and y.dtype is a.dtype
    assert x.view(torch.uint8).tolist() == b.view(torch.uint8).tolist() and y.view(tt.uint8).tolist() == a.view(tt.uint8).tolist()

@pytest.mark.parametrize('shape', [(1,), (3,), (63,), (64,), (65,), (1000,), (4, 100), (2, 3, 50)])
def test_float8_abs_vector_and_scalar_parts(shape):
    "Note [float8 abs, vector and scalar]: -0 and NaN keep their sign in the 64-wide vector part only."
    src = torch.randint(0, 256, shape, generator=torch.Generator().manual_seed(len(shape) * 1000 + shape[-1])).to(torch.uint8)
    for name in FLOAT8[:4]:
        b = src.view(getattr(torch, name)).abs().view(torch.uint8)
        a = tt.tensor(src.tolist(), dtype=tt.uint8).view(getattr(tt, name)).abs().view(tt.uint8)
        assert a.tolist() == b.tolist(), name
