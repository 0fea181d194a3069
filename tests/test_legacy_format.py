"""torch's legacy checkpoint format (`_use_new_zipfile_serialization=False`) both ways, pickle_protocol and
pickle_module in both formats, and the weights_only allow-list, against torch."""
import collections, gzip, io, os, pickle, struct, types
import numpy as np
import pytest
torch = pytest.importorskip("torch")
import torch._weights_only_unpickler as _wo
import tinytensor as tt
from tinytensor import serialization as ser
from tinytensor import legacy_format as lf
from ttgen import describe, run_both

LEGACY = dict(_use_new_zipfile_serialization=False)
# every dtype the legacy format has a storage class for
DTYPES = ['bool', 'uint8', 'int8', 'int16', 'int32', 'int64', 'float16', 'bfloat16', 'float32', 'float64',
          'complex64', 'complex128']

def _bits(rng, d, n):
    "n values of dtype name d as raw bits (NaN payloads, subnormals, signed zeros and infinities included)."
    if d == 'bool': return rng.integers(0, 2, n).astype(np.uint8)
    size = torch.empty(0, dtype=getattr(torch, d)).element_size()
    return rng.integers(0, 256, n * size, dtype=np.uint8)

def _torch_base(rng, d, n):
    t = torch.empty(n, dtype=getattr(torch, d))
    t.untyped_storage().copy_(torch.from_numpy(_bits(rng, d, n)).untyped_storage())
    return t

def _views(L, base):
    "Views of a 1-d tensor of 24 elements in library L: contiguous, transposed, offset, 0-dim, empty, expanded."
    v = base[:12].reshape(3, 4)
    return {'c': v, 'T': v.t(), 'off': base[5:11], 'step': base[1::3], 'scalar': base[7],
            'empty': base[:0], 'empty3': base[2:2].reshape(2, 0, 3), 'exp': base[3:4].expand(4, 3)}

def _torch_obj(seed=0):
    rng = np.random.default_rng(seed)
    obj = {d: _views(torch, _torch_base(rng, d, 24)) for d in DTYPES}
    obj['zero_dim'] = torch.tensor(2.5)
    obj['nested'] = [1, (2.0, 'x'), {'k': None, 'b': True}, b'bytes', 2 ** 70, 1 + 2j]
    return obj

def _tt_of(t):
    "The tinytensor tensor with t's storage bytes, sizes, strides and offset (a fresh storage per call)."
    st = t.untyped_storage()
    raw = np.frombuffer(bytes(st), np.uint8) if st.nbytes() else np.zeros(0, np.uint8)
    d = getattr(tt, str(t.dtype).replace('torch.', ''))
    base = tt.from_numpy(raw.copy()).view(d) if raw.size else tt.empty(0, dtype=d)
    return tt.tensor_impl.alias_with_sizes_and_strides(base, tuple(t.shape), tuple(t.stride()),
                                                       t.storage_offset())

def _tt_obj(seed=0):
    "The tinytensor version of `_torch_obj(seed)`: the same bits and layouts, views sharing storages."
    rng = np.random.default_rng(seed)
    obj = {}
    for d in DTYPES:
        tb = _torch_base(rng, d, 24)
        base = _tt_of(tb)
        views = _views(torch, tb)
        obj[d] = {k: tt.tensor_impl.alias_with_sizes_and_strides(base, tuple(v.shape), tuple(v.stride()),
                                                                   v.storage_offset())
                  for k, v in views.items()}
    obj['zero_dim'] = tt.tensor(2.5)
    obj['nested'] = [1, (2.0, 'x'), {'k': None, 'b': True}, b'bytes', 2 ** 70, 1 + 2j]
    return obj

def _sbytes(t):
    "(address, bytes) of the storage under a tinytensor or torch tensor."
    st = t.untyped_storage()
    return st.data_ptr(), bytes(st) if isinstance(t, torch.Tensor) else st.impl.const_bytes().tobytes()

def _match(a, b, path='', seen=None):
    "Assert tinytensor object `a` equals torch object `b`: tensors bit for bit, and storages shared alike."
    seen = {} if seen is None else seen
    if isinstance(b, torch.Tensor):
        assert isinstance(a, tt.Tensor), path
        assert describe(a)[:4] == describe(b)[:4], (path, describe(a)[:4], describe(b)[:4])
        (pa, ba), (pb, bb) = _sbytes(a), _sbytes(b)
        assert ba == bb, path
        if bb: assert seen.setdefault(('tt', pa), pb) == pb and seen.setdefault(('th', pb), pa) == pa, path
    elif isinstance(b, dict):
        assert type(a) is type(b) and list(a) == list(b), path
        for k in b: _match(a[k], b[k], f'{path}/{k}', seen)
        if hasattr(b, '_metadata'): assert a._metadata == b._metadata, path
    elif isinstance(b, (list, tuple)):
        assert type(a) is type(b) and len(a) == len(b), path
        for i, (x, y) in enumerate(zip(a, b)): _match(x, y, f'{path}/{i}', seen)
    else: assert type(a) is type(b) and a == b, path

def _counting():
    "A pickle module over the pure-Python pickler, counting its calls (to show it was used)."
    n = collections.Counter()
    class P(pickle._Pickler):
        def dump(self, obj): n['Pickler.dump'] += 1; return super().dump(obj)
    class U(pickle._Unpickler):
        def load(self): n['Unpickler.load'] += 1; return super().load()
    def dump(*a, **k): n['dump'] += 1; return pickle.dump(*a, **k)
    def load(*a, **k): n['load'] += 1; return pickle.load(*a, **k)
    return types.SimpleNamespace(Pickler=P, Unpickler=U, dump=dump, load=load, __name__='counting'), n

# ------------------------------------------------------------------ torch writes, tinytensor reads
@pytest.mark.parametrize('protocol', [2, 3, 4, 5])
@pytest.mark.parametrize('custom', [False, True], ids=['pickle', 'custom_module'])
def test_torch_writes_tt_reads(protocol, custom):
    obj = _torch_obj(protocol)
    f = io.BytesIO()
    pm, n = _counting() if custom else (pickle, None)
    torch.save(obj, f, pickle_module=pm, pickle_protocol=protocol, **LEGACY)
    f.seek(0)
    got = tt.load(f, pickle_module=pm) if custom else tt.load(f)
    _match(got, obj)
    assert f.tell() == len(f.getvalue())
    if custom: assert dict(n) == {'dump': 4, 'Pickler.dump': 1, 'load': 4, 'Unpickler.load': 1}   # torch's, then ours

def test_state_dict_with_metadata():
    m = torch.nn.Sequential(torch.nn.Linear(3, 2), torch.nn.BatchNorm1d(2))
    sd = m.state_dict()
    f = io.BytesIO(); torch.save(sd, f, **LEGACY); f.seek(0)
    got = tt.load(f)
    assert type(got) is collections.OrderedDict and got._metadata == sd._metadata
    _match(got, sd)
    g = io.BytesIO(); tt.save(got, g, **LEGACY); g.seek(0)
    back = torch.load(g, weights_only=True)
    assert back._metadata == sd._metadata and all(torch.equal(back[k], sd[k]) for k in sd)

def test_shared_and_repeated():
    a = torch.arange(10.)
    obj = [a, a, a[2:5], a.view(2, 5), torch.arange(3)]
    f = io.BytesIO(); torch.save(obj, f, **LEGACY); f.seek(0)
    got = tt.load(f)
    _match(got, obj)
    assert got[0] is got[1]                                   # one object saved twice stays one

# ------------------------------------------------------------------ tinytensor writes, torch reads
def _torch_outcome(raw, **kw):
    try: return torch.load(io.BytesIO(raw), **kw)
    except Exception as e: return e

@pytest.mark.parametrize('protocol', [2, 3, 4, 5])
def test_tt_writes_torch_reads(protocol):
    f = io.BytesIO(); tt.save(_tt_obj(protocol), f, pickle_protocol=protocol, **LEGACY)
    want = _torch_obj(protocol)
    r = torch.load(io.BytesIO(f.getvalue()), weights_only=False)
    _match(_tt_obj(protocol), r)
    # weights_only=True: torch treats our file as it treats its own file of the same object
    g = io.BytesIO(); torch.save(want, g, pickle_protocol=protocol, **LEGACY)
    ours, theirs = (_torch_outcome(x.getvalue(), weights_only=True) for x in (f, g))
    assert type(ours) is type(theirs), (ours, theirs)
    if not isinstance(theirs, Exception): _match(_tt_obj(protocol), ours)

def test_tt_writes_protocols_0_and_1():
    for protocol, want in [(0, AssertionError), (1, None)]:
        f = io.BytesIO(); tt.save({'a': tt.arange(3.)}, f, pickle_protocol=protocol, **LEGACY)
        g = io.BytesIO(); torch.save({'a': torch.arange(3.)}, g, pickle_protocol=protocol, **LEGACY)
        for wo in (False, True):
            ours, theirs = (_torch_outcome(x.getvalue(), weights_only=wo) for x in (f, g))
            assert type(ours) is type(theirs), (protocol, wo, ours, theirs)
        r = tt.load(io.BytesIO(f.getvalue()), weights_only=False) if want is None else None
        if want is None: assert r['a'].tolist() == [0., 1., 2.]
        else:
            with pytest.raises(want): tt.load(io.BytesIO(f.getvalue()), weights_only=False)

def test_custom_pickle_module_both_formats():
    for fmt in ({}, LEGACY):
        pm, n = _counting()
        f = io.BytesIO(); tt.save({'a': tt.arange(4.)}, f, pickle_module=pm, pickle_protocol=3, **fmt)
        assert n['Pickler.dump'] == 1 and n['dump'] == (4 if fmt else 0)
        pt, nt = _counting()
        f.seek(0); assert torch.equal(torch.load(f, pickle_module=pt)['a'], torch.arange(4.))
        f.seek(0); assert tt.load(f, pickle_module=pm)['a'].tolist() == [0., 1., 2., 3.]
        assert n['Unpickler.load'] == 1 and n['load'] == (4 if fmt else 0)
        assert (nt['Unpickler.load'], nt['load']) == (n['Unpickler.load'], n['load'])
        r = run_both(lambda: tt.load(io.BytesIO(f.getvalue()), pickle_module=pm, weights_only=True),
                     lambda: torch.load(io.BytesIO(f.getvalue()), pickle_module=pt, weights_only=True))
        assert type(r[0]) is type(r[1]) is RuntimeError

def test_zip_pickle_protocols():
    for protocol in (1, 2, 3, 4, 5):
        f = io.BytesIO(); tt.save({'a': tt.arange(4.), 's': 'x'}, f, pickle_protocol=protocol)
        g = io.BytesIO(); torch.save({'a': torch.arange(4.), 's': 'x'}, g, pickle_protocol=protocol)
        assert torch.equal(torch.load(io.BytesIO(f.getvalue()), weights_only=False)['a'], torch.arange(4.))
        ours, theirs = (_torch_outcome(x.getvalue(), weights_only=True) for x in (f, g))
        assert type(ours) is type(theirs), (protocol, ours, theirs)
        assert tt.load(io.BytesIO(g.getvalue()), weights_only=False)['a'].tolist() == [0., 1., 2., 3.]

# ------------------------------------------------------------------ where the stream is left
def _positions(W, R, kind, tmp_path):
    "Library W writes a legacy checkpoint between two pickles; R reads it: its values and where it leaves f."
    p = tmp_path / f'{W.__name__}.bin'
    if kind == 'path':
        W.save({'a': W.arange(5.)}, p, **LEGACY)
        return R.load(p)['a'].tolist(), None
    buf = io.BytesIO()
    out = gzip.GzipFile(fileobj=buf, mode='wb') if kind == 'gzip' else buf
    pickle.dump('before', out); W.save({'a': W.arange(5.)}, out, **LEGACY); pickle.dump('after', out)
    if kind == 'gzip': out.close()
    data = buf.getvalue()
    if kind == 'file':
        p.write_bytes(data); f = open(p, 'rb')
    else: f = gzip.GzipFile(fileobj=io.BytesIO(data)) if kind == 'gzip' else io.BytesIO(data)
    with f:
        assert pickle.load(f) == 'before'
        r = R.load(f)['a'].tolist(); pos = f.tell()
        assert pickle.load(f) == 'after'
    return r, pos

@pytest.mark.parametrize('kind', ['path', 'bytesio', 'file', 'gzip'])
@pytest.mark.parametrize('writer', [tt, torch], ids=['tt_file', 'torch_file'])
def test_stream_position(writer, kind, tmp_path):
    assert _positions(writer, tt, kind, tmp_path) == _positions(writer, torch, kind, tmp_path)

# ------------------------------------------------------------------ malformed files
def _file(objs=({'a': torch.arange(3.), 'b': torch.arange(2, dtype=torch.int16)},)):
    f = io.BytesIO(); torch.save(objs[0], f, **LEGACY)
    return f.getvalue()

def _same_error(raw, **kw):
    for wo in (True, False):
        r = run_both(lambda: tt.load(io.BytesIO(raw), weights_only=wo, **kw),
                     lambda: torch.load(io.BytesIO(raw), weights_only=wo, **kw))
        assert type(r[0]) is type(r[1]), (wo, r)
    return r

def _pk(x): return pickle.dumps(x, protocol=2)
HEAD = _pk(lf.MAGIC_NUMBER) + _pk(lf.PROTOCOL_VERSION) + _pk(lf._SYS_INFO)

def _storage_pickle(pid_tail, size=(4,), stride=(1,), key='k'):
    "A legacy object pickle: one float tensor over storage `key` with the given persistent-id tail."
    ref = b'(X\x07\x00\x00\x00storagectorch\nFloatStorage\nX' + struct.pack('<I', len(key)) + key.encode() + \
          b'X\x03\x00\x00\x00cpu' + pid_tail + b'tQ'
    def tup(t): return b'(' + b''.join(b'J' + struct.pack('<i', v) for v in t) + b't'
    return (b'\x80\x02ctorch._utils\n_rebuild_tensor_v2\n(' + ref + b'K\x00' + tup(size) + tup(stride) +
            b'\x89ccollections\nOrderedDict\n)RtR.')

def _record(n, data=None): return struct.pack('<q', n) + (data if data is not None else b'\x00' * 4 * n)

CASES = {
    'empty': b'',
    'garbage': b'\x00\x01\x02\x03' * 8,
    'wrong magic': _pk(1) + _file()[15:],
    'wrong version': _pk(lf.MAGIC_NUMBER) + _pk(1000) + _file()[21:],
    'count +1': HEAD + _storage_pickle(b'K\x04N') + _pk(['k']) + _record(5),
    'count -1': HEAD + _storage_pickle(b'K\x04N') + _pk(['k']) + _record(3),
    'count 2**61': HEAD + _storage_pickle(b'K\x04N') + _pk(['k']) + struct.pack('<q', 2 ** 61) + b'\x00' * 16,
    'short data': HEAD + _storage_pickle(b'K\x04N') + _pk(['k']) + _record(4)[:-3],
    'unknown key': HEAD + _storage_pickle(b'K\x04N') + _pk(['zz']) + _record(4),
    'missing key list': HEAD + _storage_pickle(b'K\x04N'),
    'view beyond storage': HEAD + _storage_pickle(b'K\x04N', (6,)) + _pk(['k']) + _record(4),
    'negative stride': HEAD + _storage_pickle(b'K\x04N', (4,), (-1,)) + _pk(['k']) + _record(4),
    'unsafe global': HEAD + b'\x80\x02cposix\ngetcwd\n)R.' + _pk([]),
    'frozenset': HEAD + pickle.dumps(frozenset([1]), protocol=2) + _pk([]),
    'pid not a tuple': HEAD + b'\x80\x02X\x01\x00\x00\x00kQ.' + _pk([]),
    'unknown pid type': HEAD + b'\x80\x02(X\x06\x00\x00\x00moduleK\x01tQ.' + _pk([]),
    'trailing bytes': _file() + b'junk',
}

@pytest.mark.parametrize('case', list(CASES))
def test_malformed(case):
    _same_error(CASES[case])

def test_truncated_everywhere():
    "Every prefix of a small file raises the class torch raises, with weights_only True and False."
    raw = _file()
    for n in range(len(raw)): _same_error(raw[:n])

def test_mmap_refused(tmp_path):
    p = tmp_path / 'l.pt'; torch.save(torch.arange(3.), p, **LEGACY)
    r = run_both(lambda: tt.load(p, mmap=True), lambda: torch.load(p, mmap=True))
    assert type(r[0]) is type(r[1]) is RuntimeError
    assert str(r[0]).startswith('mmap can only be used with files saved with `torch.save(_use_new')

def test_storage_views_refused_by_name():
    raw = HEAD + _storage_pickle(b'K\x04(X\x01\x00\x00\x00vK\x00K\x02t', (2,)) + _pk(['k']) + _record(4)
    assert torch.load(io.BytesIO(raw), weights_only=True).tolist() == [0., 0.]
    with pytest.raises(NotImplementedError, match='legacy storage views'):
        tt.load(io.BytesIO(raw), weights_only=False)
    with pytest.raises(pickle.UnpicklingError, match='legacy storage views'): tt.load(io.BytesIO(raw))

# ------------------------------------------------------------------ the weights_only allow-list
def _bare(name):
    m, _, n = name.rpartition('.')
    return b'\x80\x02c' + m.encode() + b'\n' + n.encode() + b'\n.'

TORCH_ALLOWED = sorted(_wo._get_allowed_globals())

def test_allow_list_is_torchs():
    ours = {f'{m}.{n}' for m, n in ser._SAFE_GLOBALS}
    assert ours == set(TORCH_ALLOWED), (sorted(ours - set(TORCH_ALLOWED)), sorted(set(TORCH_ALLOWED) - ours))

@pytest.mark.parametrize('name', ['builtins.frozenset', 'torch.float', 'torch.long', 'torch.half', 'torch.cfloat',
                                  'torch.chalf', 'torch.UntypedStorage', 'builtins.slice', 'builtins.range',
                                  'types.SimpleNamespace', 'torch.nn.Module', 'torch.FloatStorag'])
def test_not_allowed_refused(name):
    r = run_both(lambda: ser.WeightsOnlyUnpickler(io.BytesIO(_bare(name))).load(),
                 lambda: _wo.Unpickler(io.BytesIO(_bare(name))).load())
    assert type(r[0]) is type(r[1]) is pickle.UnpicklingError, r

def test_every_torch_global_allowed():
    for name in TORCH_ALLOWED: ser.WeightsOnlyUnpickler(io.BytesIO(_bare(name))).load()

def test_frozenset_in_a_checkpoint():
    for fmt in ({}, LEGACY):
        f = io.BytesIO(); torch.save({'s': frozenset([1, 2])}, f, **fmt)
        r = _same_error(f.getvalue())
        assert isinstance(r[0], pickle.UnpicklingError) or r[0] == {'s': frozenset([1, 2])}
        assert tt.load(io.BytesIO(f.getvalue()), weights_only=False) == {'s': frozenset([1, 2])}

def test_legacy_tensor_class_and_unsupported_rebuilds():
    assert describe(ser.WeightsOnlyUnpickler(io.BytesIO(b'\x80\x02ctorch\nFloatTensor\n)R.')).load())[:4] == \
        describe(torch.FloatTensor())[:4]
    with pytest.raises(NotImplementedError, match='quantized tensors'):
        ser.WeightsOnlyUnpickler(io.BytesIO(b'\x80\x02ctorch._utils\n_rebuild_qtensor\n)R.')).load()
