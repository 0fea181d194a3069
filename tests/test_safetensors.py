"tinytensor.safetensors against the safetensors package (numpy and torch flavours), and malformed headers."
import json, os, struct
import numpy as np
import pytest
torch = pytest.importorskip("torch")
st_numpy = pytest.importorskip("safetensors.numpy")
import safetensors, safetensors.torch as st_torch
import ml_dtypes
import tinytensor as tt
from tinytensor import safetensors as tst
from tinytensor.factories import from_numpy
from tinytensor.tensor_impl import alias_with_sizes_and_strides
from tinytensor.testing import test_tensor_eq as _tensor_eq

def tensor_eq(a, b, check_strides=True):
    "Layout-aware comparison; empty tensors' strides are not compared (torch's loader gives them stride 0)."
    _tensor_eq(a, b, check_strides=check_strides and a.numel() > 0)

DTYPES = [tt.bool, tt.uint8, tt.int8, tt.int16, tt.int32, tt.int64, tt.float16, tt.bfloat16, tt.float32, tt.float64, tt.complex64]

def _values(rng, d, shape):
    n = int(np.prod(shape))
    if d is tt.bool: a = rng.integers(0, 2, n).astype(bool)
    elif d.is_complex: a = (rng.standard_normal(n) + 1j * rng.standard_normal(n)).astype(d.np)
    elif d.is_floating_point: a = (rng.standard_normal(n) * 10).astype(d.np)
    else: a = rng.integers(np.iinfo(d.np).min, np.iinfo(d.np).max, n, endpoint=True, dtype=d.np)
    return a.reshape(shape)

def _random_dict(rng):
    out = {}
    for i in range(int(rng.integers(1, 6))):
        d = DTYPES[int(rng.integers(len(DTYPES)))]
        shape = tuple(int(rng.integers(0, 4)) for _ in range(int(rng.integers(0, 4))))
        out[f't{i}_{d.name}'] = _values(rng, d, shape)
    return out

def _to_torch(a):
    return torch.from_numpy(a.view(np.int16).copy()).view(torch.bfloat16) if a.dtype == ml_dtypes.bfloat16 else torch.from_numpy(a.copy())

@pytest.mark.parametrize('seed', range(40))
def test_interop_both_directions(seed, tmp_path):
    rng = np.random.default_rng(seed)
    arrays = _random_dict(rng)
    # bfloat16 through its bits: neither library takes an ml_dtypes array
    tts = {k: tt.tensor(v.view(np.int16)).view(tt.bfloat16) if v.dtype == ml_dtypes.bfloat16 else tt.tensor(v)
           for k, v in arrays.items()}
    meta = {'seed': str(seed), 'format': 'pt'} if seed % 2 else None
    # tinytensor -> safetensors (torch flavour reads every dtype incl. bf16)
    tst.save_file(tts, tmp_path / 'a.safetensors', metadata=meta)
    theirs = st_torch.load_file(tmp_path / 'a.safetensors')
    for k in arrays: tensor_eq(tts[k], theirs[k])
    # byte-identical to the crate's writer (up to the order of metadata keys, which the crate keeps in a hash map)
    mine_raw, their_raw = (tmp_path / 'a.safetensors').read_bytes(), st_torch.save({k: _to_torch(v) for k, v in arrays.items()}, metadata=meta)
    n = struct.unpack('<Q', mine_raw[:8])[0]
    assert len(mine_raw) == len(their_raw) and mine_raw[8 + n:] == their_raw[8 + n:]
    assert json.loads(mine_raw[8:8 + n]) == json.loads(their_raw[8:8 + n])
    if not meta: assert mine_raw == their_raw
    # safetensors -> tinytensor
    st_torch.save_file({k: _to_torch(v) for k, v in arrays.items()}, tmp_path / 'b.safetensors', metadata=meta)
    mine = tst.load_file(tmp_path / 'b.safetensors')
    for k in arrays: tensor_eq(mine[k], theirs[k])
    with tst.safe_open(tmp_path / 'b.safetensors', framework='pt') as f:
        assert f.metadata() == meta and f.keys() == sorted(arrays)
        for k in arrays: tensor_eq(tts[k], f.get_tensor(k))
    mem = tst.load(st_torch.save({k: _to_torch(v) for k, v in arrays.items()}))
    for k in arrays: tensor_eq(mem[k], tts[k])

def test_numpy_flavour(tmp_path):
    arrays = {'a': np.arange(6, dtype=np.float32).reshape(2, 3), 'b': np.array([True, False]), 'c': np.zeros((0, 3), np.int64)}
    st_numpy.save_file(arrays, tmp_path / 'n.safetensors')
    with tst.safe_open(tmp_path / 'n.safetensors', framework='np') as f:
        for k in arrays: np.testing.assert_array_equal(f.get_tensor(k), arrays[k])
    tst.save_file({k: from_numpy(v) for k, v in arrays.items()}, tmp_path / 'm.safetensors')
    back = st_numpy.load_file(tmp_path / 'm.safetensors')
    for k in arrays: np.testing.assert_array_equal(back[k], arrays[k]); assert back[k].dtype == arrays[k].dtype

def test_views_saved_contiguous_and_sharing(tmp_path):
    base = tt.arange(12, dtype=tt.float32)
    col = alias_with_sizes_and_strides(tt.arange(12, dtype=tt.float32), (3,), (4,), 1)   # non-contiguous, offset 1
    lo, hi = alias_with_sizes_and_strides(base, (6,), (1,), 0), alias_with_sizes_and_strides(base, (6,), (1,), 6)
    tst.save_file({'col': col, 'lo': lo, 'hi': hi}, tmp_path / 'v.safetensors')   # disjoint views: fine (copies)
    back = st_torch.load_file(tmp_path / 'v.safetensors')
    tensor_eq(col, back['col'], check_strides=False)
    assert back['col'].stride() == (1,) and back['col'].tolist() == [1., 5., 9.]
    mine = tst.load_file(tmp_path / 'v.safetensors')
    assert mine['lo']._impl.storage_.get() is not mine['hi']._impl.storage_.get()
    with pytest.raises(RuntimeError, match='Some tensors share memory'):
        tst.save_file({'all': base, 'part': alias_with_sizes_and_strides(base, (3,), (4,), 1)}, tmp_path / 'x.safetensors')
    assert not (tmp_path / 'x.safetensors').exists()
    o = torch.ones(4)
    with pytest.raises(RuntimeError, match='share memory'): st_torch.save_file({'a': o, 'b': o[:2]}, tmp_path / 'y.st')

def test_unsupported_inputs(tmp_path):
    with pytest.raises(tst.SafetensorError, match='complex128'):
        tst.save_file({'c': tt.zeros(2, dtype=tt.complex128)}, tmp_path / 'c.safetensors')
    with pytest.raises(TypeError): tst.save_file({'a': np.zeros(2)}, tmp_path / 'c.safetensors')
    with pytest.raises(TypeError): tst.save_file({'a': tt.zeros(2)}, tmp_path / 'c.safetensors', metadata={'k': 1})
    assert os.listdir(tmp_path) == []
    tst.save_file({'a': tt.zeros(2)}, tmp_path / 'ok.safetensors')
    with tst.safe_open(tmp_path / 'ok.safetensors', 'tt') as f:
        with pytest.raises(tst.SafetensorError, match='does not contain tensor nope'): f.get_tensor('nope')

def test_mapped_and_copy_on_write(tmp_path):
    tst.save_file({'w': tt.arange(1000, dtype=tt.int64)}, tmp_path / 'w.safetensors')
    w = tst.load_file(tmp_path / 'w.safetensors')['w']
    impl = w._impl.storage_.get()
    assert impl.data_ptr().get_deleter() is tst._drop_mapping
    impl.mutable_bytes()[:8] = 0xFF                      # private pages: the file is untouched
    assert tst.load_file(tmp_path / 'w.safetensors')['w'].tolist()[0] == 0
    tensor_eq(tst.load_file(tmp_path / 'w.safetensors')['w'], tt.arange(1000, dtype=tt.int64))

# ---------------------------------------------------------------- malformed headers
def _file(tmp_path, header, buf=b'', n=None, pad=True):
    h = json.dumps(header).encode() if not isinstance(header, bytes) else header
    if pad: h += b' ' * (-(8 + len(h)) % 8)
    p = tmp_path / 'bad.safetensors'
    p.write_bytes(struct.pack('<Q', len(h) if n is None else n) + h + buf)
    return p

def _e(dtype, shape, b, e): return {'dtype': dtype, 'shape': shape, 'data_offsets': [b, e]}

BAD = {
    'overlap': ({'a': _e('F32', [2], 0, 8), 'b': _e('F32', [2], 4, 12)}, bytes(12), 'invalid offset'),
    'gap': ({'a': _e('F32', [1], 0, 4), 'b': _e('F32', [1], 8, 12)}, bytes(12), 'invalid offset'),
    'out_of_range': ({'a': _e('F32', [4], 0, 16)}, bytes(8), 'not fully covered'),
    'trailing_bytes': ({'a': _e('F32', [1], 0, 4)}, bytes(8), 'not fully covered'),
    'shape_mismatch': ({'a': _e('F32', [3], 0, 8)}, bytes(8), 'invalid shape'),
    'reversed': ({'a': _e('F32', [0], 8, 0)}, bytes(8), 'invalid offset'),
    'huge_offsets': ({'a': _e('U8', [2**40], 0, 2**40)}, bytes(8), 'not fully covered'),
    'negative_shape': ({'a': _e('F32', [-1], 0, 0)}, b'', 'bad shape'),
    'bool_offsets': ({'a': {'dtype': 'F32', 'shape': [1], 'data_offsets': [False, 4]}}, bytes(4), 'bad data_offsets'),
    'unknown_dtype': ({'a': _e('F128', [1], 0, 16)}, bytes(16), 'unknown dtype'),
    'extra_key': ({'a': {**_e('F32', [1], 0, 4), 'evil': 1}}, bytes(4), 'exactly dtype'),
    'metadata_not_str': ({'__metadata__': {'k': 1}}, b'', 'strings to strings'),
    'not_object': ([1, 2], b'', 'not a JSON object'),
}

@pytest.mark.parametrize('case', list(BAD))
def test_bad_headers(case, tmp_path):
    header, buf, msg = BAD[case]
    p = _file(tmp_path, header, buf)
    with pytest.raises(tst.SafetensorError, match=msg): tst.load_file(p)
    with pytest.raises(tst.SafetensorError, match=msg): tst.load(p.read_bytes())
    if case not in ('negative_shape', 'bool_offsets', 'extra_key'):   # the crate accepts a few we refuse
        with pytest.raises(Exception): st_torch.load_file(p)

def test_header_length_and_json(tmp_path):
    p = _file(tmp_path, {}, n=10**7)                               # larger than the file
    with pytest.raises(tst.SafetensorError, match='InvalidHeaderLength'): tst.load_file(p)
    with pytest.raises(Exception): st_torch.load_file(p)
    p = _file(tmp_path, {}, n=2**62)                              # absurd
    with pytest.raises(tst.SafetensorError, match='HeaderTooLarge'): tst.load_file(p)
    p = _file(tmp_path, b'{"a": ', pad=False)
    with pytest.raises(tst.SafetensorError, match='invalid JSON'): tst.load_file(p)
    p = _file(tmp_path, b'\xff\xfe{}', pad=False)
    with pytest.raises(tst.SafetensorError, match='invalid JSON'): tst.load_file(p)
    (tmp_path / 'tiny').write_bytes(b'\x01\x02')
    with pytest.raises(tst.SafetensorError, match='HeaderTooSmall'): tst.load_file(tmp_path / 'tiny')
    (tmp_path / 'empty').write_bytes(b'')
    with pytest.raises(tst.SafetensorError): tst.load_file(tmp_path / 'empty')
    p = _file(tmp_path, b'  {"__metadata__":{"a":"b"}}  ', pad=True)   # whitespace around JSON is fine
    assert tst.load_file(p) == {}

def test_truncated_files(tmp_path):
    tst.save_file({'a': tt.arange(100), 'b': tt.ones(3, 3)}, tmp_path / 'g.safetensors')
    raw = (tmp_path / 'g.safetensors').read_bytes()
    for cut in range(0, len(raw), 7):
        (tmp_path / 't').write_bytes(raw[:cut])
        with pytest.raises(tst.SafetensorError): tst.load_file(tmp_path / 't')

# ---------------------------------------------------------------- hostile headers
def _with_header(header:bytes) -> bytes:
    header += b' ' * (-(8 + len(header)) % 8)
    return struct.pack('<Q', len(header)) + header

def _both_refuse(data:bytes, tmp_path):
    with pytest.raises(tst.SafetensorError): tst.load(data)
    with pytest.raises(Exception, match='(?i)safetensor|deserializ|overflow'): st_numpy.load(data)   # the official library too
    (tmp_path / 'h.safetensors').write_bytes(data)
    with pytest.raises(tst.SafetensorError): tst.load_file(tmp_path / 'h.safetensors')

@pytest.mark.parametrize('header', [
    b'[' * 100_000 + b']' * 100_000,                                                     # nested 100,000 deep
    b'{"a":' * 100_000 + b'1' + b'}' * 100_000,
    b'{"a":{"dtype":"F32","shape":[0,' + str(2**70).encode() + b'],"data_offsets":[0,0]}}',   # beyond 64 bits
    b'{"a":{"dtype":"F32","shape":[0,' + str(2**64).encode() + b'],"data_offsets":[0,0]}}',
    b'{"a":{"dtype":"F32","shape":[' + str(2**40).encode() + b',' + str(2**40).encode() + b'],"data_offsets":[0,0]}}',
    b'{"a":{"dtype":"F32","shape":[[1]],"data_offsets":[0,0]}}',
    b'{"a":{"dtype":"F32","shape":[],"data_offsets":[0,4],"x":[]}}'],
    ids=['deep_lists', 'deep_objects', 'dim_2**70', 'dim_2**64', 'numel_overflow', 'nested_shape', 'extra_key'])
def test_hostile_headers_refused_like_the_library(header, tmp_path):
    _both_refuse(_with_header(header), tmp_path)

_CHILD = r'''
import resource, sys
from tinytensor import safetensors as tst
def rss(): return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
with open('/proc/self/statm') as f: vm = int(f.read().split()[0]) * resource.getpagesize()
resource.setrlimit(resource.RLIMIT_AS, (vm + (1 << 30), resource.RLIM_INFINITY))
before = rss()
try: tst.load_file(sys.argv[1]); print('LOADED')
except BaseException as e: print('ERR', type(e).__name__, str(e)[:200])
print('GREW', rss() - before)
'''

@pytest.mark.skipif(not os.path.exists('/proc/self/statm'), reason='needs /proc')
@pytest.mark.parametrize('kind', ['list_of_lists', 'lists_in_an_entry', 'lists_at_top'])
def test_header_of_lists_refused_without_memory(kind, tmp_path):
    import subprocess, sys
    n = 30 << 20                                                     # 30 MB of header, as cheap to write as to refuse
    if kind == 'list_of_lists': h = b'[' + b'[],' * (n // 3) + b'[]]'
    elif kind == 'lists_in_an_entry': h = b'{"a":{"dtype":"F32","shape":[],"data_offsets":[0,0],"x":[' + b'[],' * (n // 3) + b'[]]}}'
    else: h = b'{' + b''.join(b'"%d":[],' % i for i in range(n // 12)) + b'"z":[]}'
    (tmp_path / 'h.safetensors').write_bytes(_with_header(h))
    r = subprocess.run([sys.executable, '-c', _CHILD, str(tmp_path / 'h.safetensors')], capture_output=True, text=True, timeout=120)
    lines = r.stdout.splitlines()
    assert r.returncode == 0 and lines[-2].startswith('ERR SafetensorError'), r.stdout + r.stderr
    assert int(lines[-1].split()[1]) < len(h) + (8 << 20), lines      # the header itself, and a few MiB

def test_a_descriptor_is_not_a_filename(tmp_path):
    "safetensors opens paths only: an int descriptor (read from its position, then closed by `open`) is a TypeError."
    tst.save_file({'a': tt.arange(3.)}, tmp_path / 'a.safetensors')
    p = tmp_path / 'off.safetensors'; p.write_bytes(b'x' * 8 + (tmp_path / 'a.safetensors').read_bytes())
    fd = os.open(p, os.O_RDONLY)
    try:
        os.lseek(fd, 8, os.SEEK_SET)
        for mine, theirs in [(tst.load_file, st_torch.load_file), (tst.safe_open, lambda f: safetensors.safe_open(f, 'pt'))]:
            with pytest.raises(TypeError, match='expected str, bytes or os.PathLike object, not int'): theirs(fd)
            with pytest.raises(TypeError, match='expected str, bytes or os.PathLike object, not int'): mine(fd)
        assert os.lseek(fd, 0, os.SEEK_CUR) == 8                  # the caller's descriptor: untouched, still open
    finally: os.close(fd)
    for f in (str(tmp_path / 'a.safetensors'), tmp_path / 'a.safetensors'):
        tensor_eq(tst.load_file(f)['a'], st_torch.load_file(f)['a'])          # str and PathLike paths open
    for fn in (tst.load_file, st_torch.load_file):                             # bytes do not
        with pytest.raises(TypeError, match="'bytes' object is not an instance of 'str'"): fn(os.fsencode(p))
