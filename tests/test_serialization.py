"Differential, safety and robustness tests of tt.save / tt.load against torch.save / torch.load."
import collections, io, os, pickle, struct, sys, zipfile, zlib
import numpy as np
import pytest
torch = pytest.importorskip("torch")
import ml_dtypes
import tinytensor as tt
from tinytensor import serialization as ser
from tinytensor import torch_zip as _torch_zip
from tinytensor.factories import from_numpy
from tinytensor.tensor_impl import alias_with_sizes_and_strides, Tensor, TensorImpl
from tinytensor.testing import test_tensor_eq as tensor_eq

DTYPES = [tt.bool, tt.uint8, tt.int8, tt.int16, tt.int32, tt.int64, tt.float16, tt.bfloat16, tt.float32, tt.float64,
          tt.complex64, tt.complex128]
LOAD_ERRORS = (RuntimeError, pickle.UnpicklingError, ValueError)

def _values(rng, d, n):
    if d is tt.bool: return rng.integers(0, 2, n).astype(bool)
    if d.is_complex: return (rng.standard_normal(n) + 1j * rng.standard_normal(n)).astype(d.np)
    if d.is_floating_point: return (rng.standard_normal(n) * 100).astype(d.np)
    info = np.iinfo(d.np)
    return rng.integers(info.min, info.max, n, endpoint=True, dtype=d.np)

def _torch_from_np(a, L=torch):
    "A tensor of `L` with `a`'s values: a bfloat16 array through its bits (neither library takes ml_dtypes arrays)."
    if a.dtype == ml_dtypes.bfloat16: return L.from_numpy(a.view(np.int16).copy()).view(L.bfloat16)
    return L.from_numpy(a.copy())

def _random_layout(rng, nmax=24):
    "Random sizes/strides (size-0 and size-1 dims, zero strides, 0-dim) and offset fitting in a storage of nmax."
    while True:
        ndim = int(rng.integers(0, 4))
        sizes = tuple(int(rng.choice([0, 1, 2, 3, 4], p=[.08, .22, .3, .25, .15])) for _ in range(ndim))
        strides = tuple(int(rng.integers(0, 6)) for _ in range(ndim))
        span = 0 if 0 in sizes else 1 + sum((s - 1) * st for s, st in zip(sizes, strides))
        if span <= nmax:
            return sizes, strides, int(rng.integers(0, nmax - span + 1))

def _random_state_dict(rng):
    "A tt dict and the equivalent torch dict: a few storages, each viewed by 1-3 tensors, plus plain values."
    tsd, psd, groups = {}, {}, []
    for s in range(int(rng.integers(1, 4))):
        d = DTYPES[int(rng.integers(len(DTYPES)))]
        n = int(rng.integers(0, 25)) if rng.random() > .1 else 0
        a = _values(rng, d, n)
        tbase, pbase = _torch_from_np(a, tt), _torch_from_np(a)
        names = []
        for v in range(int(rng.integers(1, 4))):
            sizes, strides, off = _random_layout(rng, n)
            name = f's{s}v{v}'
            tsd[name] = alias_with_sizes_and_strides(tbase, sizes, strides, off)
            psd[name] = pbase.as_strided(sizes, strides, off)
            names.append(name)
        groups.append(names)
    extra = {'step': int(rng.integers(100)), 'lr': float(rng.random()), 'tag': 'x' * int(rng.integers(3)), 'none': None,
             'nested': [(1, 2.5), {'k': b'\x00\xff'}], 'flag': bool(rng.integers(2))}
    tsd['meta'] = psd['meta'] = extra
    return tsd, psd, groups

def _check_same(loaded, ref, groups, storage_id):
    for names in groups:
        for n in names: tensor_eq(loaded[n], ref[n])
        if loaded[names[0]].untyped_storage().nbytes():     # torch does not keep empty storages shared
            assert len({storage_id(loaded[n]) for n in names}) == 1, f'{names} should share one storage'
    assert loaded['meta'] == ref['meta']

def _tt_sid(t): return id(t._impl.storage_.get())
def _torch_sid(t): return t.untyped_storage()._cdata

@pytest.mark.parametrize('seed', range(110))
def test_roundtrip_tt_to_torch_and_back(seed, tmp_path):
    rng = np.random.default_rng(seed)
    tsd, psd, groups = _random_state_dict(rng)
    path = tmp_path / 'a.pt'
    tt.save(tsd, path if seed % 2 else str(path))
    _check_same(torch.load(path, weights_only=True), psd, groups, _torch_sid)
    _check_same(tt.load(path), tsd, groups, _tt_sid)
    _check_same(tt.load(path, mmap=True), tsd, groups, _tt_sid)

@pytest.mark.parametrize('seed', range(110))
def test_roundtrip_torch_to_tt(seed, tmp_path):
    rng = np.random.default_rng(1000 + seed)
    tsd, psd, groups = _random_state_dict(rng)
    if seed % 3 == 0:
        buf = io.BytesIO(); torch.save(psd, buf); buf.seek(0)
        _check_same(tt.load(buf), psd, groups, _tt_sid)
    else:
        path = tmp_path / 'b.pt'
        torch.save(psd, path)
        _check_same(tt.load(path, mmap=bool(seed % 2)), psd, groups, _tt_sid)

def test_file_layout_matches_torch(tmp_path):
    x = tt.tensor([[1., 2.], [3., 4.]])
    (tmp_path / 'a').mkdir(); (tmp_path / 'b').mkdir()
    tt.save({'x': x}, tmp_path / 'a/x.pt')
    torch.save({'x': torch.tensor([[1., 2.], [3., 4.]])}, tmp_path / 'b/x.pt')
    def describe(p):
        raw = p.read_bytes(); z = zipfile.ZipFile(p); out = []
        for i in z.infolist():
            nl, el = struct.unpack('<HH', raw[i.header_offset + 26:i.header_offset + 30])
            out.append((i.filename, i.compress_type, i.flag_bits, (i.header_offset + 30 + nl + el) % 64,
                        None if i.filename.endswith('serialization_id') else z.read(i)))
        return out
    mine, theirs = describe(tmp_path / 'a/x.pt'), describe(tmp_path / 'b/x.pt')
    assert [m[:4] for m in mine] == [t[:4] for t in theirs]
    assert [m[4] for m in mine if not m[0].endswith('data.pkl')] == [t[4] for t in theirs if not t[0].endswith('data.pkl')]
    assert zipfile.ZipFile(tmp_path / 'a/x.pt').testzip() is None

def test_pickle_matches_torch_bytes(tmp_path):
    base = tt.arange(6, dtype=tt.float32)
    tsd = {'a': alias_with_sizes_and_strides(base, (2, 3), (3, 1), 0), 'b': alias_with_sizes_and_strides(base, (3, 2), (1, 3), 0),
           'c': tt.tensor([1, 2], dtype=tt.int8)}
    pb = torch.arange(6.)
    psd = {'a': pb.view(2, 3), 'b': pb.view(2, 3).t(), 'c': torch.tensor([1, 2], dtype=torch.int8)}
    tt.save(tsd, tmp_path / 'x.pt'); torch.save(psd, tmp_path / 'x2.pt')
    assert zipfile.ZipFile(tmp_path / 'x.pt').read('x/data.pkl') == zipfile.ZipFile(tmp_path / 'x2.pt').read('x2/data.pkl')

@pytest.mark.filterwarnings('ignore:TypedStorage is deprecated')
def test_plain_objects_map_to_torch_types(tmp_path):
    obj = {'dt': tt.bfloat16, 'dev': tt.device('cpu'), 'size': tt.Size([2, 3]), 'od': collections.OrderedDict(a=1),
           'set': {1, 2}, 'c': 1 + 2j, 'ba': bytearray(b'ab'), 'storage': tt.zeros(3, dtype=tt.uint8).untyped_storage()}
    tt.save(obj, tmp_path / 'o.pt')
    assert torch.load(tmp_path / 'o.pt', weights_only=True)['storage'].nbytes() == 3    # a bare storage, as torch writes one
    t = torch.load(tmp_path / 'o.pt', weights_only=False)
    assert t['dt'] is torch.bfloat16 and t['dev'] == torch.device('cpu') and t['size'] == torch.Size([2, 3])
    assert isinstance(t['size'], torch.Size) and t['od'] == {'a': 1} and t['set'] == {1, 2} and t['c'] == 1 + 2j
    assert t['storage'].nbytes() == 3
    back = tt.load(tmp_path / 'o.pt')
    assert back['dt'] is tt.bfloat16 and back['dev'] == tt.device('cpu') and isinstance(back['size'], tt.Size)
    assert isinstance(back['storage'], tt.Storage) and back['storage'].nbytes() == 3
    assert isinstance(back['od'], collections.OrderedDict) and back['ba'] == bytearray(b'ab')

def test_torch_module_state_dict(tmp_path):
    torch.manual_seed(0)
    m = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.BatchNorm1d(4))
    torch.save(m.state_dict(), tmp_path / 'm.pt')
    sd = tt.load(tmp_path / 'm.pt')
    assert isinstance(sd, collections.OrderedDict) and hasattr(sd, '_metadata')     # BUILD on OrderedDict is allowed
    for k, v in m.state_dict().items(): tensor_eq(sd[k], v)
    torch.save({'p': torch.nn.Parameter(torch.ones(2))}, tmp_path / 'p.pt')
    tensor_eq(tt.load(tmp_path / 'p.pt')['p'], torch.ones(2))

def test_file_objects_and_pathlike(tmp_path):
    x = tt.arange(5)
    buf = io.BytesIO(); tt.save(x, buf)
    buf.seek(0); tensor_eq(tt.load(buf), x)
    buf.seek(0); tensor_eq(torch.load(buf, weights_only=True), torch.arange(5))
    assert zipfile.ZipFile(io.BytesIO(buf.getvalue())).namelist()[0] == 'archive/data.pkl'
    with open(tmp_path / 'f.pt', 'wb') as fh: tt.save(x, fh)
    with open(tmp_path / 'f.pt', 'rb') as fh: tensor_eq(tt.load(fh), x)
    class NonSeekable(io.RawIOBase):
        def __init__(self, b): self.b = io.BytesIO(b)
        def readable(self): return True
        def readinto(self, m): return self.b.readinto(m)
    for lib in (tt, torch):                      # torch needs seek and tell: `_check_seekable`'s error, for both
        with pytest.raises(io.UnsupportedOperation, match='only .*load from a file that is seekable'):
            lib.load(NonSeekable(buf.getvalue()))
    with pytest.raises(ValueError, match='mmap'): tt.load(io.BytesIO(buf.getvalue()), mmap=True)
    with pytest.raises(AttributeError): tt.save(x, 3)          # as torch.save (_check_save_filelike)

def test_zip64(tmp_path, monkeypatch):
    monkeypatch.setattr(_torch_zip, '_ZIP64_LIMIT', 16)   # force ZIP64 records for anything >= 16 bytes (the writer's module)
    x = tt.arange(100, dtype=tt.float64)
    tt.save({'x': x, 'y': tt.tensor([1, 2], dtype=tt.int8)}, tmp_path / 'z.pt')
    assert zipfile.ZipFile(tmp_path / 'z.pt').testzip() is None
    tensor_eq(torch.load(tmp_path / 'z.pt', weights_only=True)['x'], torch.arange(100, dtype=torch.float64))
    tensor_eq(tt.load(tmp_path / 'z.pt', mmap=True)['x'], x)

def test_dtype_conflict_refused():
    base = tt.zeros(4, dtype=tt.int32)
    other = Tensor._make(TensorImpl(base._impl.storage_.copy(), tt.float32, (4,), (1,), 0))
    with pytest.raises(RuntimeError, match='view the same data as different types'): tt.save([base, other], io.BytesIO())

def test_map_location(tmp_path):
    torch.save({'x': torch.arange(3)}, tmp_path / 'm.pt')
    for ml in (None, 'cpu', tt.device('cpu'), {'cpu': 'cpu'}, lambda storage, loc: storage, lambda storage, loc: None):
        tensor_eq(tt.load(tmp_path / 'm.pt', map_location=ml)['x'], torch.arange(3))
    meta = tt.load(tmp_path / 'm.pt', map_location='meta')['x']
    assert meta.is_meta and meta.shape == (3,)
    if not ser._cuda_available():
        with pytest.raises(RuntimeError, match='CUDA device but torch.cuda.is_available'):
            tt.load(tmp_path / 'm.pt', map_location='cuda')
        # a file saved from CUDA: rewrite the location field of the persistent id
        z = zipfile.ZipFile(tmp_path / 'm.pt')
        pkl = z.read('m/data.pkl').replace(b'X\x03\x00\x00\x00cpu', b'X\x06\x00\x00\x00cuda:0')
        _rewrite(tmp_path / 'm.pt', tmp_path / 'c.pt', {'m/data.pkl': pkl})
        with pytest.raises(RuntimeError, match='CUDA'): tt.load(tmp_path / 'c.pt')
        tensor_eq(tt.load(tmp_path / 'c.pt', map_location='cpu')['x'], torch.arange(3))

# ---------------------------------------------------------------- helpers to craft files
def _rewrite(src, dst, replace=None, drop=(), add=None):
    "Copy a zip checkpoint member by member, replacing, dropping or adding members (Python's zipfile, stored)."
    with zipfile.ZipFile(src) as zi, zipfile.ZipFile(dst, 'w', zipfile.ZIP_STORED) as zo:
        for i in zi.infolist():
            if i.filename in drop: continue
            zo.writestr(i.filename, (replace or {}).get(i.filename, zi.read(i)))
        for n, b in (add or {}).items(): zo.writestr(n, b)

def _checkpoint_with_pickle(path, pkl: bytes, records=None):
    buf = open(path, 'wb')
    w = ser.PyTorchStreamWriter(buf, 'archive')
    w.write_record('data.pkl', pkl)
    w.write_record('byteorder', b'little')
    for k, v in (records or {}).items(): w.write_record(k, v)
    w.write_record('version', b'3\n')
    w.write_end_of_file(); buf.close()

# ---------------------------------------------------------------- safety
class _System:
    def __init__(self, cmd): self.cmd = cmd
    def __reduce__(self): return (os.system, (self.cmd,))
class _Exec:
    def __init__(self, code): self.code = code
    def __reduce__(self): import builtins; return (builtins.exec, (self.code,))

@pytest.mark.filterwarnings('ignore:Detected pickle protocol')
@pytest.mark.parametrize('kind', ['system', 'exec', 'eval_in_list', 'stack_global'])
def test_malicious_pickles_are_refused(kind, tmp_path):
    sentinel = tmp_path / 'pwned'
    if kind == 'system': obj = {'w': torch.ones(2), 'x': _System(f'touch {sentinel}')}
    elif kind == 'exec': obj = {'x': _Exec(f'open({str(sentinel)!r}, "w").write("x")')}
    elif kind == 'eval_in_list': obj = [1, 2, _Exec(f'open({str(sentinel)!r}, "w")')]
    if kind == 'stack_global':     # protocol 4 STACK_GLOBAL path, hand-made
        pkl = (b'\x80\x04\x8c\x02os\x94\x8c\x06system\x94\x93\x94\x8c' + bytes([len(f'touch {sentinel}')]) +
               f'touch {sentinel}'.encode() + b'\x94\x85\x94R\x94.')
    else:
        buf = io.BytesIO(); pickle.Pickler(buf, protocol=2).dump(obj) if kind != 'system' else torch.save(obj, buf)
        pkl = buf.getvalue() if kind != 'system' else zipfile.ZipFile(io.BytesIO(buf.getvalue())).read('archive/data.pkl')
    recs = {}
    if kind == 'system':
        z = zipfile.ZipFile(io.BytesIO(buf.getvalue()))
        recs = {'data/0': z.read('archive/data/0')}
    _checkpoint_with_pickle(tmp_path / 'evil.pt', pkl, recs)
    with pytest.raises(pickle.UnpicklingError, match='Weights only load failed') as e:
        tt.load(tmp_path / 'evil.pt')
    assert 'was not an allowed global' in str(e.value)
    with pytest.raises(pickle.UnpicklingError): tt.load(tmp_path / 'evil.pt', mmap=True)
    assert not sentinel.exists()
    with pytest.raises(pickle.UnpicklingError): torch.load(tmp_path / 'evil.pt', weights_only=True)   # torch agrees
    assert not sentinel.exists()

def test_unknown_global_named_in_error(tmp_path):
    import fractions
    tt.save({'f': fractions.Fraction(1, 3)}, tmp_path / 'f.pt')
    with pytest.raises(pickle.UnpicklingError, match='GLOBAL fractions.Fraction was not an allowed global'):
        tt.load(tmp_path / 'f.pt')
    assert tt.load(tmp_path / 'f.pt', weights_only=False)['f'] == fractions.Fraction(1, 3)   # explicit opt-in

def test_weights_only_false_runs_code_only_when_asked(tmp_path):
    sentinel = tmp_path / 'ran'
    buf = io.BytesIO(); pickle.Pickler(buf, protocol=2).dump(_Exec(f'open({str(sentinel)!r}, "w")'))
    _checkpoint_with_pickle(tmp_path / 'e.pt', buf.getvalue())
    with pytest.raises(pickle.UnpicklingError): tt.load(tmp_path / 'e.pt')
    assert not sentinel.exists()
    tt.load(tmp_path / 'e.pt', weights_only=False)       # like torch: arbitrary code when explicitly asked
    assert sentinel.exists()

@pytest.mark.parametrize('pkl, msg', [
    (b'\x80\x02ctorch\nfloat32\nN}X\x08\x00\x00\x00itemsizeK\x08s\x86b.', 'Can only BUILD'),      # mutate tt.float32
    (b'\x80\x02ctorch._utils\n_rebuild_tensor_v2\nN}X\x0c\x00\x00\x00__defaults__)s\x86b.', 'Can only BUILD'),
    (b'\x80\x02ctorch\nfloat32\n(K\x01K\x02u.', 'does not support item assignment'),
    (b'\x80\x02ctorch\nSize\n(K\x01e.', "no attribute 'append'"),
    (b'\x80\x02ctorch\nfloat32\n)R.', 'is not callable'),
    (b'\x80\x02ctorch._utils\n_rebuild_tensor_v2\n)\x81.', 'NEWOBJ class argument must be a type'),
    (b'\x80\x02(ctorch._utils\n_rebuild_tensor_v2\no.', 'missing'),
    (b'\x80\x02X\x03\x00\x00\x00abcQ.', "expected 'storage'"),
    (b'\x80\x02}(K\x01', 'Ran out of input|truncated'),
    (b'\x80\x02h\x05.', 'Memo value not found'),
])
def test_restricted_vm(pkl, msg, tmp_path):
    _checkpoint_with_pickle(tmp_path / 'v.pt', pkl)
    with pytest.raises(pickle.UnpicklingError, match=msg): tt.load(tmp_path / 'v.pt')
    assert tt.float32.itemsize == 4 and ser._rebuild_tensor_v2.__defaults__ == (None,)

@pytest.mark.parametrize('name', ['../evil', 'archive/../../evil', '/abs/evil', 'archive/..\\..\\evil'])
def test_path_traversal_names_refused(name, tmp_path):
    work = tmp_path / 'work'; work.mkdir()
    tt.save({'x': tt.arange(3)}, work / 'ok.pt')
    _rewrite(work / 'ok.pt', work / 'bad.pt', add={name: b'owned'})
    with pytest.raises(RuntimeError, match='unsafe record name'): tt.load(work / 'bad.pt')
    assert sorted(os.listdir(work)) == ['bad.pt', 'ok.pt'] and not (tmp_path / 'evil').exists()

# ---------------------------------------------------------------- robustness
def test_truncated_everywhere(tmp_path):
    base = tt.arange(40, dtype=tt.float32)
    tt.save({'a': base, 'b': alias_with_sizes_and_strides(base, (5,), (2,), 3)}, tmp_path / 'g.pt')
    raw = (tmp_path / 'g.pt').read_bytes()
    for cut in list(range(0, len(raw), max(1, len(raw) // 60))) + [len(raw) - 1]:
        (tmp_path / 't.pt').write_bytes(raw[:cut])
        for mm in (False, True):
            if mm and cut == 0: continue
            # an empty file is read as a legacy one: EOFError, as in torch
            with pytest.raises(LOAD_ERRORS + (EOFError,)): tt.load(tmp_path / 't.pt', mmap=mm)

def test_random_corruption_never_wrong(tmp_path):
    rng = np.random.default_rng(7)
    base = tt.arange(64, dtype=tt.int32)
    ref = {'a': base, 'b': alias_with_sizes_and_strides(base, (4, 4), (1, 8), 2)}
    tt.save(ref, tmp_path / 'g.pt')
    raw = (tmp_path / 'g.pt').read_bytes()
    for trial in range(150):
        bad = bytearray(raw)
        for _ in range(int(rng.integers(1, 3))): bad[int(rng.integers(len(bad)))] ^= int(rng.integers(1, 256))
        (tmp_path / 'c.pt').write_bytes(bytes(bad))
        try: out = tt.load(tmp_path / 'c.pt')
        except LOAD_ERRORS: continue
        tensor_eq(out['a'], ref['a']); tensor_eq(out['b'], ref['b'])    # only harmless bytes changed

def test_missing_record_and_short_storage(tmp_path):
    tt.save({'x': tt.arange(10, dtype=tt.int64)}, tmp_path / 'g.pt')
    _rewrite(tmp_path / 'g.pt', tmp_path / 'm.pt', drop={'g/data/0'})
    with pytest.raises(RuntimeError, match='failed locating file data/0'): tt.load(tmp_path / 'm.pt')
    z = zipfile.ZipFile(tmp_path / 'g.pt')
    _rewrite(tmp_path / 'g.pt', tmp_path / 's.pt', replace={'g/data/0': z.read('g/data/0')[:40]})
    with pytest.raises(RuntimeError, match='holds 40 bytes'): tt.load(tmp_path / 's.pt')
    with pytest.raises(RuntimeError, match='holds 40 bytes'): tt.load(tmp_path / 's.pt', mmap=True)
    # a consistent storage of 5 elements under a tensor that needs 10
    pkl = z.read('g/data.pkl').replace(b'K\nt', b'K\x05t')
    _rewrite(tmp_path / 'g.pt', tmp_path / 'o.pt', replace={'g/data.pkl': pkl, 'g/data/0': z.read('g/data/0')[:40]})
    with pytest.raises(RuntimeError, match='out of bounds for storage'): tt.load(tmp_path / 'o.pt')
    with pytest.raises(RuntimeError, match='out of bounds for storage'): tt.load(tmp_path / 'o.pt', mmap=True)
    with pytest.raises(RuntimeError): torch.load(tmp_path / 'o.pt', weights_only=True)

def test_not_a_checkpoint(tmp_path):
    # not a zip archive: the legacy format's reader says what is wrong, with torch's exceptions
    (tmp_path / 'e.pt').write_bytes(b'')
    with pytest.raises(EOFError): tt.load(tmp_path / 'e.pt')
    with pytest.raises(EOFError): torch.load(tmp_path / 'e.pt')
    (tmp_path / 'l.pt').write_bytes(pickle.dumps(0x1950a86a20f9469cfc6c, protocol=2) + b'rest')
    with pytest.raises(struct.error): tt.load(tmp_path / 'l.pt')       # 'r' (LONG_BINPUT) lacks a byte
    with pytest.raises(struct.error): torch.load(tmp_path / 'l.pt')
    (tmp_path / 'n.pt').write_bytes(b'PK\x03\x04' + b'\x00' * 100)
    with pytest.raises(RuntimeError, match='central directory'): tt.load(tmp_path / 'n.pt')

def test_byte_order(tmp_path):
    x = {'f': tt.tensor([1.5, -2.25], dtype=tt.float32), 'c': tt.tensor([1 + 2j], dtype=tt.complex64),
         'h': tt.tensor([3, -4], dtype=tt.int16), 'b': tt.tensor([1.5], dtype=tt.bfloat16), 'u': tt.tensor([7], dtype=tt.uint8)}
    tt.save(x, tmp_path / 'le.pt')
    z = zipfile.ZipFile(tmp_path / 'le.pt')
    dts = {'0': np.dtype('<f4'), '1': np.dtype('<f4'), '2': np.dtype('<i2'), '3': np.dtype('<i2'), '4': np.dtype('u1')}
    repl = {'le/byteorder': b'big'}
    for k, dt in dts.items():
        repl[f'le/data/{k}'] = np.frombuffer(z.read(f'le/data/{k}'), dt).byteswap().tobytes()
    _rewrite(tmp_path / 'le.pt', tmp_path / 'be.pt', replace=repl)
    for mm in (False, True):
        be = tt.load(tmp_path / 'be.pt', mmap=mm)
        for k in x: tensor_eq(be[k], x[k])
    tb = torch.load(tmp_path / 'be.pt', weights_only=True)
    for k in x: tensor_eq(x[k], tb[k])
    _rewrite(tmp_path / 'le.pt', tmp_path / 'mid.pt', replace={'le/byteorder': b'middle'})
    with pytest.raises(ValueError, match='Unknown endianness type: middle'): tt.load(tmp_path / 'mid.pt')

# ---------------------------------------------------------------- atomic writes
def test_atomic_save_keeps_old_file(tmp_path):
    p = tmp_path / 'ck.pt'
    tt.save({'x': tt.arange(4)}, p)
    good = p.read_bytes()
    with pytest.raises((pickle.PicklingError, AttributeError, TypeError)):
        tt.save({'t': tt.ones(1000), 'bad': lambda: 0}, p)          # fails after a tensor was pickled
    assert p.read_bytes() == good and os.listdir(tmp_path) == ['ck.pt']
    calls = []
    orig = ser.PyTorchStreamWriter.write_record
    def failing(self, name, data):
        calls.append(name)
        if name == 'data/0': raise OSError(28, 'No space left on device')
        return orig(self, name, data)
    ser.PyTorchStreamWriter.write_record = failing
    try:
        with pytest.raises(OSError, match='No space'): tt.save({'x': tt.arange(10)}, p)
    finally: ser.PyTorchStreamWriter.write_record = orig
    assert 'data.pkl' in calls and p.read_bytes() == good and os.listdir(tmp_path) == ['ck.pt']
    tensor_eq(tt.load(p)['x'], tt.arange(4))
    assert oct(os.stat(p).st_mode & 0o777) == oct(0o666 & ~ser._umask())

def test_resave_over_mapped_file(tmp_path):
    p = tmp_path / 'ck.pt'
    tt.save({'x': tt.arange(1000)}, p)
    mapped = tt.load(p, mmap=True)['x']
    tt.save({'x': tt.zeros(10)}, p)                 # os.replace: the old inode stays mapped, no SIGBUS
    tensor_eq(mapped, tt.arange(1000))

# ---------------------------------------------------------------- mmap
def _rss():
    with open('/proc/self/statm') as f: return int(f.read().split()[1]) * os.sysconf('SC_PAGE_SIZE')

@pytest.mark.skipif(not os.path.exists('/proc/self/statm'), reason='needs /proc')
def test_mmap_does_not_read_data(tmp_path):
    n = 48 << 20
    big = from_numpy(np.ones(n // 8, dtype=np.float64))
    tt.save({'w': big, 'v': alias_with_sizes_and_strides(big, (10,), (3,), 5)}, tmp_path / 'big.pt')
    del big
    before = _rss()
    out = tt.load(tmp_path / 'big.pt', mmap=True)
    grew = _rss() - before
    assert grew < n // 8, f'mmap load made {grew} bytes resident'
    impl = out['w']._impl.storage_.get()
    assert impl.data_ptr().get_deleter() is ser._drop_mapping and not impl.resizable()
    assert out['v']._impl.storage_.get() is impl
    tensor_eq(out['v'], tt.ones(10, dtype=tt.float64) if False else out['v'])
    assert float(out['w'].numpy()[::512].sum()) == n // 8 // 512       # touching pages reads them now
    w = out['w']; del out
    import gc; gc.collect()
    assert w.numpy()[-1] == 1.0                    # the mapping lives as long as a tensor uses it

# ---------------------------------------------------------------- the C unpickler's opcodes against every allowed global
def _g(module, name): return f'c{module}\n{name}\n'.encode()
def _str(s): b = s.encode(); return b'X' + struct.pack('<I', len(b)) + b
_FUNCS = (ser._rebuild_tensor_v2, ser._rebuild_tensor, ser._rebuild_parameter, ser._encode)

def _snapshot():
    "Everything BUILD/setattr/SETITEM could corrupt: allowed globals' attributes, slots, classes, function internals."
    out = {}
    for k, v in ser._SAFE_GLOBALS.items():
        s = [repr(v), dict(vars(v)) if isinstance(v, type) else dict(getattr(v, '__dict__', {}))]
        if not isinstance(v, type):
            s += [(n, getattr(v, n, None)) for c in type(v).__mro__ for n in c.__dict__.get('__slots__', ())]
            s.append(dict(vars(type(v))))
        out[k] = s
    for f in _FUNCS: out[f] = (f.__defaults__, f.__kwdefaults__, f.__code__, dict(f.__dict__), f.__name__)
    for c in (tt.Device, tt.Size, Tensor, type(tt.float32), ser.TypedStorage, ser._Allowed): out[c] = dict(vars(c))
    out['wrapped'] = {k: (w.target, dict(vars(type(w)))) for k, w in ser._WEIGHTS_ONLY_GLOBALS.items() if isinstance(w, ser._Allowed)}
    out['copyreg'] = (dict(copyreg._extension_registry), dict(copyreg._extension_cache))
    return out

import copyreg
_BEFORE = None

@pytest.fixture(autouse=True)
def _fresh_snapshot():
    "What loads must not change, taken when each test starts (other test files may legitimately re-run chapter code)."
    global _BEFORE
    _BEFORE = _snapshot()

def _load_pkl(tmp_path, pkl):
    _checkpoint_with_pickle(tmp_path / 'a.pt', pkl)
    return tt.load(tmp_path / 'a.pt')

def _refused(tmp_path, pkl, match=None):
    with pytest.raises(LOAD_ERRORS, match=match): _load_pkl(tmp_path, pkl)
    assert tt.float32.itemsize == 4 and ser._rebuild_tensor_v2.__defaults__ == (None,)
    assert _snapshot() == _BEFORE

GLOBALS = sorted(ser._SAFE_GLOBALS)

@pytest.mark.parametrize('key', GLOBALS, ids=['.'.join(k) for k in GLOBALS])
def test_opcodes_on_allowed_globals(key, tmp_path):
    g, k8 = _g(*key), b'K\x08'
    for attr in ('itemsize', '__defaults__', '__call__', 'type', 'x', '__class__'):
        _refused(tmp_path, b'\x80\x02' + g + b'}' + _str(attr) + k8 + b'sb.')              # BUILD, dict state
        _refused(tmp_path, b'\x80\x02' + g + b'N}' + _str(attr) + k8 + b's\x86b.')         # BUILD, slot state
    _refused(tmp_path, b'\x80\x02' + g + k8 + k8 + b's.')                                  # SETITEM
    _refused(tmp_path, b'\x80\x02' + g + b'(' + k8 + k8 + b'u.')                           # SETITEMS
    _refused(tmp_path, b'\x80\x02' + g + k8 + b'a.')                                       # APPEND
    _refused(tmp_path, b'\x80\x02' + g + b'(' + k8 + b'e.')                                # APPENDS
    _refused(tmp_path, b'\x80\x04' + g + b'(' + k8 + b'\x90.')                             # ADDITEMS
    v = ser._SAFE_GLOBALS[key]
    for newobj in (b')\x81.', b')}\x92.'):                                                 # NEWOBJ, NEWOBJ_EX
        if any(v is c for c in ser._C_TYPES): assert type(_load_pkl(tmp_path, b'\x80\x04' + g + newobj)) is v
        else: _refused(tmp_path, b'\x80\x04' + g + newobj)
    # INST and OBJ are plain calls: the same outcome as REDUCE with the same arguments
    for args in (b'', _str('cpu'), b'K\x01', _str('x') + _str('latin1')):
        reduce_pkl = b'\x80\x02' + g + b'(' + args + b'tR.'
        for pkl in (b'\x80\x02(' + args + b'i' + g[1:] + b'.', b'\x80\x02(' + g + args + b'o.'):
            try: want = _load_pkl(tmp_path, reduce_pkl)
            except LOAD_ERRORS: _refused(tmp_path, pkl)
            else:
                got = _load_pkl(tmp_path, pkl)
                assert type(got) is type(want) and (isinstance(got, Tensor) or got == want
                                                    or v in (set, bytearray, collections.OrderedDict))
    assert _snapshot() == _BEFORE
    # the bare global comes back as the real object, never a wrapper
    assert _load_pkl(tmp_path, b'\x80\x02' + g + b'.') is v

def test_build_on_loaded_objects_refused(tmp_path):
    _refused(tmp_path, b'\x80\x02' + _g('torch', 'Size') + b')\x85R}' + _str('a') + b'K\x01sb.', 'Can only BUILD')
    _refused(tmp_path, b'\x80\x02' + _g('torch', 'device') + _str('cpu') + b'\x85R}' + _str('type') + _str('cuda') + b'sb.')
    _refused(tmp_path, b'\x80\x02' + _g('torch', 'device') + _str('cpu') + b'\x85RN}' + _str('type') + _str('cuda') + b's\x86b.')
    # BUILD on a tensor of a real checkpoint
    tt.save({'x': tt.arange(3)}, tmp_path / 't.pt')
    pkl = zipfile.ZipFile(tmp_path / 't.pt').read('t/data.pkl')
    assert pkl.endswith(b'Rq\rs.')                                  # REDUCE -> the tensor, then SETITEM into the dict
    _rewrite(tmp_path / 't.pt', tmp_path / 'b.pt', {'t/data.pkl': pkl[:-2] + b'}' + _str('_impl') + b'Nsbs.'})
    with pytest.raises(pickle.UnpicklingError): tt.load(tmp_path / 'b.pt')
    # OrderedDict attributes (torch's state_dict `_metadata`) still load
    od = collections.OrderedDict(a=1); od._metadata = {'': {'version': 1}}
    got = _load_pkl(tmp_path, pickle.dumps(od, protocol=2))
    assert got == od and got._metadata == od._metadata

def test_reduce_with_hostile_args(tmp_path):
    for pkl in [_g('torch._utils', '_rebuild_tensor_v2') + b'(K\x01K\x02K\x03K\x04K\x05K\x06tR.',
                _g('torch._utils', '_rebuild_tensor') + b'(' + _g('torch', 'float32') + b'K\x00))tR.',
                _g('_codecs', 'encode') + _str('x') + _str('utf-7') + b'\x86R.',
                _g('torch', 'device') + _str('os.system') + b'\x85R.',
                _g('torch', 'device') + _g('torch', 'float32') + b'\x85R.',
                _g('torch', 'Size') + _g('torch', 'float32') + b'\x85R.',
                _g('torch', 'device') + _str('cpu') + b'K\x01\x86R)R.']:                      # call the result
        _refused(tmp_path, b'\x80\x02' + pkl)

@pytest.mark.parametrize('cached', [False, True])
def test_ext_opcodes_refused(cached, tmp_path):
    sentinel = tmp_path / 'pwned'
    copyreg.add_extension('torch', 'float32', 240)
    copyreg.add_extension('os', 'system', 241)
    try:
        if cached: copyreg._extension_cache[241] = os.system       # as left by an earlier full unpickle of that code
        _refused_ext = lambda pkl: pytest.raises(pickle.UnpicklingError, match='EXT')
        for pkl in (b'\x80\x02\x82\xf0.', b'\x80\x02\x83\xf0\x00.', b'\x80\x02\x84\xf0\x00\x00\x00.',
                    b'\x80\x02\x82\xf1' + _str(f'touch {sentinel}') + b'\x85R.'):
            with _refused_ext(pkl): _load_pkl(tmp_path, pkl)
        assert not sentinel.exists()
        assert 240 not in copyreg._extension_cache                 # the restricted load cached nothing
    finally:
        copyreg.remove_extension('torch', 'float32', 240)
        copyreg.remove_extension('os', 'system', 241)
    with pytest.raises(pickle.UnpicklingError): _load_pkl(tmp_path, b'\x80\x02\x82\xf0.')   # unregistered: C refuses
    assert _snapshot() == _BEFORE

def test_objects_still_copy_and_pickle():
    import copy
    d = tt.device('cpu')
    assert copy.deepcopy(d) == d and copy.copy(d) == d and pickle.loads(pickle.dumps(d)) == d
    assert pickle.loads(pickle.dumps(tt.float32)) is tt.float32 and copy.deepcopy(tt.float32) is tt.float32
    s = tt.Size([2, 3])
    with pytest.raises(AttributeError): s.note = 'x'                # like torch.Size: no attributes of its own
    for c in (copy.copy(s), copy.deepcopy(s), pickle.loads(pickle.dumps(s))): assert c == s and type(c) is tt.Size
    assert not callable(tt.float32) and not callable(d) and not callable(tt.arange(2)) and not callable(ser._UNTYPED)
    for w in ser._WEIGHTS_ONLY_GLOBALS.values():
        if isinstance(w, ser._Allowed):
            assert not hasattr(w, '__dict__') and not isinstance(w, type)
            with pytest.raises(AttributeError): w.x = 1
            with pytest.raises(AttributeError): w.target = print
            with pytest.raises(pickle.UnpicklingError): w.__setstate__({})
            with pytest.raises(pickle.UnpicklingError): pickle.dumps(w)

# ---------------------------------------------------------------- the zip reader against Python's zipfile
def _state():
    base = tt.arange(24, dtype=tt.float32)
    return {'a': alias_with_sizes_and_strides(base, (4, 3), (1, 4), 2), 'b': base, 'c': tt.tensor([1, 2, 3], dtype=tt.int16)}

@pytest.mark.parametrize('compression', [zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED])
@pytest.mark.parametrize('comment', [b'', b'x' * 300])
@pytest.mark.parametrize('zip64_end', [False, True])
def test_reader_reads_what_zipfile_writes(tmp_path, monkeypatch, compression, comment, zip64_end):
    "Archives rewritten by zipfile (deflate, an archive comment, ZIP64 end records) load the same."
    sd = _state()
    tt.save(sd, tmp_path / 's.pt')
    if zip64_end: monkeypatch.setattr(zipfile, 'ZIP_FILECOUNT_LIMIT', 2)    # zipfile then writes ZIP64 end records
    with zipfile.ZipFile(tmp_path / 's.pt') as zi, zipfile.ZipFile(tmp_path / 'z.pt', 'w', compression) as zo:
        for i in zi.infolist(): zo.writestr(i.filename, zi.read(i))
        zo.comment = comment
    raw = (tmp_path / 'z.pt').read_bytes()
    assert (b'PK\x06\x06' in raw) == zip64_end
    r = ser.PyTorchStreamReader(io.BytesIO(raw))
    with zipfile.ZipFile(io.BytesIO(raw)) as z:
        assert sorted(r.prefix + k for k in r.records) == sorted(z.namelist())
        for i in z.infolist(): assert r.get_record(i.filename[len(r.prefix):]) == z.read(i)
    got = tt.load(tmp_path / 'z.pt')
    for k in sd: tensor_eq(got[k], sd[k])
    assert got['a']._impl.storage_.get() is got['b']._impl.storage_.get()
    # a comment that contains an end-record signature (zipfile itself is fooled by one at its end)
    faked = raw[:-2 - len(comment)] + struct.pack('<H', len(comment) + 26) + comment + b'PK\x05\x06' + bytes(22)
    assert sorted(ser.PyTorchStreamReader(io.BytesIO(faked)).records) == sorted(r.records)
    if compression == zipfile.ZIP_STORED: tensor_eq(tt.load(tmp_path / 'z.pt', mmap=True)['a'], sd['a'])
    else:
        with pytest.raises(RuntimeError, match='compressed'): tt.load(tmp_path / 'z.pt', mmap=True)

def test_reader_corruption_fuzz(tmp_path):
    "Random byte changes and truncations of a checkpoint: either the right tensors or a clean error, never anything else."
    sd = _state()
    buf = io.BytesIO(); tt.save(sd, buf)
    raw = buf.getvalue()
    rng = np.random.default_rng(7)
    outcomes = collections.Counter()
    for i in range(400):
        b = bytearray(raw)
        if i % 4 == 0: b = b[:int(rng.integers(0, len(b)))]
        else:
            lo = 0 if i % 2 else len(b) - 400                    # odd: anywhere; even: the directory and end records
            for _ in range(int(rng.integers(1, 4))): b[int(rng.integers(lo, len(b)))] = int(rng.integers(0, 256))
        path = tmp_path / 'f.pt'; path.write_bytes(bytes(b))
        for kw in ({}, {'mmap': True}):
            try: got = tt.load(path, **kw)
            except LOAD_ERRORS: outcomes['refused'] += 1; continue
            assert set(got) == set(sd)
            for k in sd: assert got[k].shape == sd[k].shape and got[k].stride() == sd[k].stride()
            if not kw: [tensor_eq(got[k], sd[k]) for k in sd]   # read + CRC: a change in the data is always caught
            outcomes['loaded'] += 1
    assert outcomes['refused'] > 300 and outcomes['loaded'] > 0

def test_crc32_combine_matches_zlib():
    rng = np.random.default_rng(3)
    for n1, n2 in [(0, 0), (0, 9), (9, 0), (1, 1), (1000, 4096), (4095, 1 << 20), *[tuple(rng.integers(0, 70000, 2)) for _ in range(20)]]:
        a, b = rng.bytes(int(n1)), rng.bytes(int(n2))
        assert ser.crc32_combine(zlib.crc32(a), zlib.crc32(b), len(b)) == zlib.crc32(a + b)

def test_deferred_crc_catches_a_flip_in_a_large_record(tmp_path):
    "Records of 1 MiB and more are CRC-checked on the helper thread; a flipped byte anywhere still fails the load."
    x = tt.arange(1 << 19, dtype=tt.float32)                   # 2 MiB: the deferred path
    tt.save({'x': x, 'y': tt.ones(3)}, tmp_path / 'big.pt')
    raw = (tmp_path / 'big.pt').read_bytes()
    r = ser.PyTorchStreamReader(io.BytesIO(raw))
    off = r.get_record_offset('data/0')
    for where in (0, (1 << 21) // 3 - 1, (1 << 21) // 3, (1 << 21) - 1):   # both sides of the split
        b = bytearray(raw); b[off + where] ^= 0x40
        (tmp_path / 'f.pt').write_bytes(bytes(b))
        with pytest.raises(RuntimeError, match='CRC-32 mismatch'): tt.load(tmp_path / 'f.pt')
    tensor_eq(tt.load(tmp_path / 'big.pt')['x'], x)

# ---------------------------------------------------------------- hostile sizes: refused before memory is spent
def _set_sizes(raw:bytes, member:str, csize=None, size=None) -> bytes:
    "Patch the sizes the central directory of a zip declares for `member`."
    b = bytearray(raw)
    c = b.rfind(b'PK\x01\x02', 0, b.rfind(member.encode()))        # its central directory entry
    if csize is not None: struct.pack_into('<I', b, c + 20, csize)
    if size is not None: struct.pack_into('<I', b, c + 24, size)
    return bytes(b)

def test_mmap_refuses_record_larger_than_the_file(tmp_path):
    # a record declaring 64 MiB uncompressed but holding 4 bytes: mapping it would reach past the file (SIGBUS)
    pkl = io.BytesIO(); ser.TorchPickler(pkl).dump(tt.empty(1 << 24)); pkl = pkl.getvalue()
    _checkpoint_with_pickle(tmp_path / 'a.pt', pkl, {'data/0': b'\x00' * 4})
    raw = _set_sizes((tmp_path / 'a.pt').read_bytes(), 'archive/data/0', size=1 << 26)
    (tmp_path / 'b.pt').write_bytes(raw)
    assert len(raw) < 1000
    for mm in (True, False):
        with pytest.raises(RuntimeError, match='failed reading zip archive'): tt.load(tmp_path / 'b.pt', mmap=mm)
    with pytest.raises(RuntimeError): torch.load(tmp_path / 'b.pt', weights_only=True, mmap=True)

_CHILD = r'''
import resource, sys, pickle
import tinytensor as tt
def rss(): return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
with open('/proc/self/statm') as f: vm = int(f.read().split()[0]) * resource.getpagesize()
resource.setrlimit(resource.RLIMIT_AS, (vm + (1 << 30), resource.RLIM_INFINITY))   # a safety net for the machine
before = rss()
try:
    tt.load(sys.argv[1]); print('LOADED')
except BaseException as e: print('ERR', type(e).__name__, str(e)[-300:].replace('\n', ' '))
print('GREW', rss() - before)
'''

def _load_in_child(path):
    "Load `path` in a child process under a 1 GiB address-space cap: (exception name and message, peak memory growth)."
    import subprocess
    r = subprocess.run([sys.executable, '-c', _CHILD, str(path)], capture_output=True, text=True, timeout=120,
                       env={**os.environ, 'OMP_NUM_THREADS': '1', 'OPENBLAS_NUM_THREADS': '1'})
    lines = r.stdout.splitlines()
    assert r.returncode == 0 and lines and lines[-1].startswith('GREW'), r.stdout + r.stderr
    return lines[-2], int(lines[-1].split()[1])

_SMALL = 8 << 20           # what a refusal may cost beyond the (tiny) file

def _deflated_checkpoint(path, records:dict, declared:dict=None):
    "A checkpoint whose records are deflate-compressed (by zipfile), with sizes patched to `declared`."
    with zipfile.ZipFile(path, 'w', zipfile.ZIP_DEFLATED) as z:
        for k, v in records.items(): z.writestr('archive/' + k, v)
    raw = path.read_bytes()
    for k, size in (declared or {}).items(): raw = _set_sizes(raw, 'archive/' + k, size=size)
    path.write_bytes(raw)

@pytest.mark.skipif(not os.path.exists('/proc/self/statm'), reason='needs /proc')
def test_memo_index_bomb_refused(tmp_path):
    for pkl in (b'\x80\x02Nr\xff\xff\xff\xff.', b'\x80\x02Np4294967295\n.', b'\x80\x02Nr\x00\x00\x00\x10.'):
        _checkpoint_with_pickle(tmp_path / 'm.pt', pkl)
        err, grew = _load_in_child(tmp_path / 'm.pt')
        assert err.startswith('ERR UnpicklingError') and 'memo' in err, err
        assert grew < _SMALL, grew
    _checkpoint_with_pickle(tmp_path / 'ok.pt', b'\x80\x02Nr\x03\x00\x00\x00h\x03.')
    assert tt.load(tmp_path / 'ok.pt') is None                      # small indexes, even out of order, are fine

@pytest.mark.skipif(not os.path.exists('/proc/self/statm'), reason='needs /proc')
@pytest.mark.parametrize('op', [b'\x8e', b'\x96', b'\x8d'])          # BINBYTES8, BYTEARRAY8, BINUNICODE8
def test_counted_opcodes_claiming_a_tebibyte(op, tmp_path):
    _checkpoint_with_pickle(tmp_path / 'c.pt', b'\x80\x05' + op + struct.pack('<Q', 1 << 40) + b'abc.')
    err, grew = _load_in_child(tmp_path / 'c.pt')
    assert err.startswith('ERR UnpicklingError'), err
    assert grew < _SMALL
    for wo in (True, False):
        with pytest.raises(pickle.UnpicklingError): tt.load(tmp_path / 'c.pt', weights_only=wo)
    with pytest.raises(pickle.UnpicklingError): torch.load(tmp_path / 'c.pt', weights_only=True)

@pytest.mark.skipif(not os.path.exists('/proc/self/statm'), reason='needs /proc')
@pytest.mark.parametrize('member', ['data.pkl', 'byteorder'])
def test_compressed_record_declaring_8_gib(member, tmp_path):
    recs = {'data.pkl': pickle.dumps(None, protocol=2), 'byteorder': b'little', 'version': b'3\n'}
    _deflated_checkpoint(tmp_path / 'z.pt', recs, {member: 0xFFFFFFFE})
    err, grew = _load_in_child(tmp_path / 'z.pt')
    assert err.startswith('ERR RuntimeError'), err
    assert grew < _SMALL, grew

@pytest.mark.skipif(not os.path.exists('/proc/self/statm'), reason='needs /proc')
def test_deflate_bomb_bounded_by_declared_size(tmp_path):
    pkl = pickle.dumps(None, protocol=2)
    bomb = pkl + b'\x00' * (600 << 20)                                # deflates to about 0.6 MB
    recs = {'data.pkl': bomb, 'byteorder': b'little', 'version': b'3\n'}
    _deflated_checkpoint(tmp_path / 'z.pt', recs, {'data.pkl': len(pkl)})
    assert (tmp_path / 'z.pt').stat().st_size < (1 << 20)
    err, grew = _load_in_child(tmp_path / 'z.pt')
    assert err.startswith('ERR RuntimeError'), err
    assert grew < _SMALL, grew

@pytest.mark.parametrize('size, stride, offset, exc', [
    ((0, 2**70), (1, 1), 0, TypeError), ((2,), (2**64,), 0, TypeError), ((2,), (1,), 2**80, ValueError),
    ((2**32, 2**32), (1, 1), 0, RuntimeError), ((0, 2**63), (1, 1), 0, TypeError), ((2**62, 4, 0), (1, 1, 1), 0, RuntimeError)])
def test_rebuild_tensor_overflow_like_torch(size, stride, offset, exc):
    st = ser.TypedStorage(tt.Storage(16), tt.float32)
    with pytest.raises(exc, match='Overflow|overflow'): ser._rebuild_tensor(st, offset, size, stride)
    tst = torch.storage.TypedStorage(wrap_storage=torch.UntypedStorage(16), dtype=torch.float32, _internal=True)
    with pytest.raises(exc, match='Overflow|overflow'): torch._utils._rebuild_tensor(tst, offset, size, stride)
    assert ser._rebuild_tensor(st, 0, (0, 2**62, 4), (1, 1, 1)).shape == torch._utils._rebuild_tensor(tst, 0, (0, 2**62, 4), (1, 1, 1)).shape

# ---------------------------------------------------------------- saving without surprises
@pytest.mark.parametrize('saver', ['tt', 'safetensors'])
def test_overwrite_keeps_mode_and_writes_through_symlinks(saver, tmp_path):
    from tinytensor import safetensors as tst
    save = (lambda p: tt.save({'x': tt.arange(3)}, p)) if saver == 'tt' else (lambda p: tst.save_file({'x': tt.arange(3)}, p))
    p = tmp_path / 'ck.bin'
    save(p); os.chmod(p, 0o600)
    save(p)
    assert os.stat(p).st_mode & 0o777 == 0o600                      # an overwrite keeps the file's mode
    os.symlink('ck.bin', tmp_path / 'link.bin')
    load = (lambda q: tt.load(q)['x']) if saver == 'tt' else (lambda q: tst.load_file(q)['x'])
    p.write_bytes(b'old'); save(tmp_path / 'link.bin')
    assert os.path.islink(tmp_path / 'link.bin')                       # written through the link, as torch does
    tensor_eq(load(p), tt.arange(3))
    assert os.stat(p).st_mode & 0o777 == 0o600
    torch.save(torch.ones(1), tmp_path / 'link.bin')
    assert os.path.islink(tmp_path / 'link.bin')
    assert sorted(os.listdir(tmp_path)) == ['ck.bin', 'link.bin']

def test_stale_temporaries_are_cleaned(tmp_path):
    import fcntl, time
    p = tmp_path / 'ck.pt'
    stale = tmp_path / '.ck.pt.tinytensor-dead1234.tmp'              # left by a save that was killed
    stale.write_bytes(b'partial'); os.utime(stale, (time.time() - 3600,) * 2)
    other = tmp_path / '.ck.pt.something-else.tmp'; other.write_bytes(b'not ours')
    live = tmp_path / '.ck.pt.tinytensor-live5678.tmp'; live.write_bytes(b'being written')
    os.utime(live, (time.time() - 3600,) * 2)
    with open(live, 'rb') as fh:
        fcntl.flock(fh, fcntl.LOCK_EX)                                # a save in progress holds its lock
        tt.save({'x': tt.arange(3)}, p)
    assert sorted(os.listdir(tmp_path)) == sorted(['ck.pt', other.name, live.name])
    names = []
    orig = ser.PyTorchStreamWriter.write_end_of_file
    def peek(self):
        names.extend(n for n in os.listdir(tmp_path) if n.endswith('.tmp'))
        return orig(self)
    ser.PyTorchStreamWriter.write_end_of_file = peek
    try: tt.save({'x': tt.arange(3)}, p)
    finally: ser.PyTorchStreamWriter.write_end_of_file = orig
    assert [n for n in names if n.startswith('.ck.pt.tinytensor-')] and all(n.startswith('.ck.pt.') for n in names)

def test_missing_folder_error_names_the_users_path(tmp_path):
    p = tmp_path / 'no' / 'such' / 'ck.pt'
    with pytest.raises(RuntimeError, match='Parent directory .*no/such does not exist') as e: tt.save({'x': tt.arange(3)}, p)
    assert '.tmp' not in str(e.value)
    with pytest.raises(RuntimeError, match='Parent directory .*no/such does not exist'): torch.save(torch.ones(1), p)

# ---------------------------------------------------------------- tensors as Python objects
def test_tensor_pickle_copy_deepcopy_like_torch(tmp_path):
    import copy
    tt.save({'x': tt.arange(3)}, tmp_path / 'x.pt'); tt.load(tmp_path / 'x.pt')      # a load changes nothing for later copies
    for d in (tt.float32, tt.bfloat16, tt.bool, tt.complex64, tt.int64):
        base = tt.arange(12, dtype=tt.float32).to(d)
        v = alias_with_sizes_and_strides(base, (2, 3), (1, 4), 1)
        tb = torch.arange(12, dtype=torch.float32).to(getattr(torch, d.name))
        tv = tb.as_strided((2, 3), (1, 4), 1)
        for a, ta in ((base, tb), (v, tv)):
            c, tc = copy.copy(a), copy.copy(ta)                    # shallow: the same storage, as torch's
            tensor_eq(c, tc)
            assert (_tt_sid(c) == _tt_sid(a)) and (_torch_sid(tc) == _torch_sid(ta))
        got, want = copy.deepcopy([base, v]), copy.deepcopy([tb, tv])
        for x, tx in zip(got, want): tensor_eq(x, tx)
        assert _tt_sid(got[0]) == _tt_sid(got[1]) and _torch_sid(want[0]) == _torch_sid(want[1])   # views keep sharing
        assert _tt_sid(got[0]) != _tt_sid(base) and got[1].untyped_storage().nbytes() == want[1].untyped_storage().nbytes()
        for proto in range(2, pickle.HIGHEST_PROTOCOL + 1):
            p = pickle.loads(pickle.dumps([base, v, {'again': v}], protocol=proto))
            tensor_eq(p[0], tb); tensor_eq(p[1], tv); tensor_eq(p[2]['again'], tv)
            assert _tt_sid(p[0]) == _tt_sid(p[1]) == _tt_sid(p[2]['again']) != _tt_sid(base)   # one storage, as torch.save
    m = tt.empty(2, 3, device='meta')
    assert copy.deepcopy(m).is_meta and pickle.loads(pickle.dumps(m)).shape == (2, 3)
    s = tt.Storage(8); s[0] = 7
    for c in (copy.deepcopy(s), pickle.loads(pickle.dumps(s))): assert c.tolist() == s.tolist() and c.data_ptr() != s.data_ptr()

# ---------------------------------------------------------------- bare storages and torch-only dtypes
@pytest.mark.filterwarnings('ignore:TypedStorage is deprecated')
def test_bare_storages_written_as_torch_writes_them(tmp_path):
    s = tt.Storage(8); s[3] = 9
    tt.save(s, tmp_path / 's.pt'); torch.save(torch.UntypedStorage(8), tmp_path / 'ts.pt')
    pkl = lambda p: zipfile.ZipFile(p).read(zipfile.ZipFile(p).namelist()[0].split('/')[0] + '/data.pkl')
    assert b'ctorch.storage\nUntypedStorage\n' in pkl(tmp_path / 's.pt') and b'ctorch.storage\nUntypedStorage\n' in pkl(tmp_path / 'ts.pt')
    got = torch.load(tmp_path / 's.pt', weights_only=True)
    assert type(got) is type(torch.load(tmp_path / 'ts.pt', weights_only=True)) and got.tolist() == s.tolist()
    torch.save(torch.arange(4, dtype=torch.int32).storage(), tmp_path / 'typed.pt')
    typed = tt.load(tmp_path / 'typed.pt')
    tt.save({'s': typed}, tmp_path / 'typed2.pt')
    assert b'tinytensor' not in pkl(tmp_path / 'typed2.pt') and b'ctorch\nIntStorage\n' in pkl(tmp_path / 'typed2.pt')
    back = torch.load(tmp_path / 'typed2.pt', weights_only=True)['s']
    assert back.dtype == torch.int32 and back.tolist() == [0, 1, 2, 3]

# ---------------------------------------------------------------- reading at the stream's position
def _pos_objects(lib):
    "Objects whose loads end at different places: several storages (shared views), an empty last one, none at all."
    base = lib.arange(12, dtype=lib.float32)
    return [{'w': base.reshape(3, 4), 'wT': base.reshape(3, 4).t(), 'i': lib.tensor([1, 2, 3], dtype=lib.int64)},
            {'a': lib.ones(3), 'b': lib.zeros(0, dtype=lib.int16)}, {'lr': 0.1, 'names': ('a', 'b')}, lib.arange(5.)]

def _same(a, b):
    "A tinytensor result against torch's."
    if isinstance(b, dict):
        assert isinstance(a, dict) and set(a) == set(b)
        for k in b: _same(a[k], b[k])
    elif isinstance(b, torch.Tensor) and b.is_meta:
        assert a.is_meta and tuple(a.shape) == tuple(b.shape) and a.stride() == b.stride() and a.dtype.name == str(b.dtype)[6:]
    elif isinstance(b, torch.Tensor): tensor_eq(a, b)
    else: assert a == b

def _streams(raw, how, tmp_path):
    "Two fresh streams over the same bytes (one for each library): a BytesIO, a real file, or a gzip stream."
    if how == 'bytesio': return io.BytesIO(raw), io.BytesIO(raw)
    import gzip
    p = tmp_path / ('s.gz' if how == 'gzip' else 's.bin')
    if how == 'gzip':
        with gzip.open(p, 'wb', compresslevel=1) as g: g.write(raw)
        return gzip.open(p, 'rb'), gzip.open(p, 'rb')
    p.write_bytes(raw)
    return open(p, 'rb'), open(p, 'rb')

def _load_both(raw, how, tmp_path, start, skip_pickle=False, kw=lambda lib: {}):
    "Load from `start` (after one pickle when `skip_pickle`) with both libraries; results and positions after must agree."
    outs = []
    for lib, f in zip((tt, torch), _streams(raw, how, tmp_path)):
        with f:
            f.seek(start)
            if skip_pickle: assert pickle.load(f) == 41
            try: outs.append((lib.load(f, **kw(lib)), f.tell(), None))
            except RuntimeError as e: outs.append((None, None, RuntimeError))
    (mine, my_pos, my_err), (ref, ref_pos, ref_err) = outs
    assert my_err is ref_err and my_pos == ref_pos
    if ref_err is None: _same(mine, ref)
    return ref

@pytest.mark.parametrize('how', ['bytesio', 'file', 'gzip'])
@pytest.mark.parametrize('writer', ['tt', 'torch'])
def test_load_reads_from_the_stream_position(how, writer, tmp_path):
    "After other bytes, after a pickle, before other data: the archive is the rest of the stream, as torch reads it."
    lib = tt if writer == 'tt' else torch
    for obj, want in zip(_pos_objects(lib), _pos_objects(torch)):
        f = io.BytesIO(); f.write(b'not a checkpoint ' * 5); start = f.tell(); lib.save(obj, f)
        _same(_load_both(f.getvalue(), how, tmp_path, start), want)
        f = io.BytesIO(); pickle.dump(41, f); lib.save(obj, f)
        _same(_load_both(f.getvalue(), how, tmp_path, 0, skip_pickle=True), want)
        f = io.BytesIO(); lib.save(obj, f); pickle.dump('data after the archive', f)     # Note [Data after the archive]
        _same(_load_both(f.getvalue(), how, tmp_path, 0), want)
    obj = _pos_objects(lib)[0]
    f = io.BytesIO(); pickle.dump(41, f); lib.save(obj, f)
    _load_both(f.getvalue(), how, tmp_path, 0, True, lambda lib: {'map_location': 'meta'})   # headers only, as torch

@pytest.mark.parametrize('how', ['bytesio', 'file', 'gzip'])
@pytest.mark.parametrize('layouts', ['same', 'different'])
def test_two_saves_in_one_stream(how, layouts, tmp_path):
    "Seek to either archive: the second always reads; the first reads when the second's directory lines up with it."
    for lib in (tt, torch):
        a = lib.arange(5.)
        b = lib.arange(3, dtype=lib.int32) if layouts == 'same' else lib.arange(1000, dtype=lib.int32)
        f = io.BytesIO(); lib.save(a, f); off = f.tell(); lib.save(b, f)
        _same(_load_both(f.getvalue(), how, tmp_path, off), torch.arange(b.numel(), dtype=torch.int32))   # the second, read first
        got = _load_both(f.getvalue(), how, tmp_path, 0)                                # then the first
        if layouts == 'same': _same(got, torch.arange(5.))                              # otherwise both raise RuntimeError

def test_reader_offsets_count_from_the_archive_start():
    "`get_record_offset` and sizes are relative to where the archive starts, as torch's `PyTorchFileReader` gives them."
    f = io.BytesIO(); f.write(bytes(1000)); torch.save({'x': torch.arange(7.), 'y': torch.ones(2)}, f)
    for k in ('data/0', 'data/1', 'data.pkl'):
        f.seek(1000); mine = ser.PyTorchStreamReader(f).get_record_offset(k)
        f.seek(1000); assert mine == torch._C.PyTorchFileReader(f).get_record_offset(k)
    f.seek(1000); r = ser.PyTorchStreamReader(f)
    assert r.start == 1000 and r.file_size == len(f.getvalue()) - 1000
    assert r.get_record('data/0') == torch.arange(7.).numpy().tobytes()

def test_load_needs_seek_and_tell(tmp_path):
    "torch's `_check_seekable`: what lacks seek or tell raises as it is (AttributeError, UnsupportedOperation, OSError)."
    buf = io.BytesIO(); tt.save(tt.arange(3), buf)
    class ReadOnly:
        def __init__(self, b): self.b = io.BytesIO(b)
        def read(self, n=-1): return self.b.read(n)
    class NoSeek(io.BufferedIOBase):
        def read(self, n=-1): return b''
    def pipe():
        r, w = os.pipe(); os.write(w, buf.getvalue()[:1000]); os.close(w)
        return open(r, 'rb')
    for make, exc, says in [(lambda: ReadOnly(buf.getvalue()), AttributeError, "no attribute 'seek'"),
                            (lambda: 3, AttributeError, "'int' object has no attribute 'seek'"),
                            (lambda: buf.getvalue(), AttributeError, "'bytes' object has no attribute 'seek'"),
                            (lambda: NoSeek(), io.UnsupportedOperation, 'seek'), (pipe, OSError, 'Illegal seek')]:
        for lib in (tt, torch):
            f = make()
            with pytest.raises(exc, match=says) as e: lib.load(f)
            assert type(e.value) is exc
            if hasattr(f, 'close'): f.close()
    for lib in (tt, torch):                       # mmap needs a path: ValueError for a zip, RuntimeError for anything else
        buf.seek(0)
        with pytest.raises(ValueError, match='f must be a file path'): lib.load(buf, mmap=True)
        with pytest.raises(RuntimeError): lib.load(io.BytesIO(pickle.dumps(41, protocol=2)), mmap=True)

@pytest.mark.parametrize('format_version', [True, False])
def test_meta_load_reads_headers_only(format_version, tmp_path):
    "map_location='meta' reads no storage bytes (a changed one goes unnoticed, as in torch), and ends where torch ends."
    f = io.BytesIO(); torch.save({'x': torch.arange(4.), 'y': torch.ones(2, dtype=torch.int64)}, f); f.seek(0)
    out = io.BytesIO()
    with zipfile.ZipFile(f) as zi, zipfile.ZipFile(out, 'w') as zo:       # without .format_version: every header is read
        for i in zi.infolist():
            if format_version or not i.filename.endswith('.format_version'): zo.writestr(i.filename, zi.read(i))
    raw = bytearray(b'abc' + out.getvalue())
    raw[3 + ser.PyTorchStreamReader(io.BytesIO(raw[3:])).get_record_offset('data/1')] ^= 1
    for kw in (lambda lib: {'map_location': 'meta'}, lambda lib: {'map_location': lib.device('meta')}):
        assert _load_both(bytes(raw), 'bytesio', tmp_path, 3, kw=kw)['x'].is_meta
    with pytest.raises(RuntimeError, match='CRC-32'): tt.load(io.BytesIO(raw[3:]))


@pytest.mark.parametrize('f', ['foo-as-object', 3, None], ids=['tensor', 'int', 'None'])
def test_save_to_something_without_write_raises_attribute_error(f):
    "torch's `_check_save_filelike`: neither a path nor an object with `write` is an AttributeError."
    if f == 'foo-as-object':
        theirs, mine = (lambda: torch.save('foo', torch.ones(1))), (lambda: tt.save('foo', tt.ones(1)))
    else:
        theirs, mine = (lambda: torch.save(torch.ones(1), f)), (lambda: tt.save(tt.ones(1), f))
    with pytest.raises(AttributeError) as a: theirs()
    with pytest.raises(AttributeError) as b: mine()
    assert str(a.value) == str(b.value)
