"""Hostile pickles that claim huge counted arguments (BINBYTES8, BYTEARRAY8, BINUNICODE8, FRAME of 1 TiB): every loader
answers with its own error, never MemoryError, and allocates nothing: `tt.load` raises UnpicklingError, `load_snapshot`
MalformedSnapshotError, and the CLI prints one line and exits with status 2."""
import gzip, io, pickle, zipfile
import pytest
import tinytensor as tt
from tinytensor.cli import main
from tinytensor.cuda.replay import load_snapshot, MalformedSnapshotError

TIB = (2**40).to_bytes(8, 'little')
OPS = {'BINBYTES8': b'\x8e', 'BYTEARRAY8': b'\x96', 'BINUNICODE8': b'\x8d', 'FRAME': b'\x95'}

def payload(op, claim=TIB): return b'\x80\x05' + OPS[op] + claim + b'xx.'

def checkpoint(op, claim=TIB) -> bytes:
    "A real `tt.save` archive whose data.pkl is replaced by the hostile pickle."
    buf = io.BytesIO(); tt.save({'a': tt.ones(2)}, buf); buf.seek(0)
    out = io.BytesIO()
    with zipfile.ZipFile(buf) as zin, zipfile.ZipFile(out, 'w') as zout:
        for it in zin.infolist(): zout.writestr(it, payload(op, claim) if it.filename.endswith('data.pkl') else zin.read(it.filename))
    return out.getvalue()

@pytest.mark.parametrize('op', list(OPS))
@pytest.mark.parametrize('how', ['bytes', 'file', 'path', 'gzip'])
def test_snapshot(op, how, tmp_path):
    p = payload(op)
    if how == 'bytes': src = p
    elif how == 'file': src = io.BytesIO(p)
    elif how == 'path': src = tmp_path / 's.pickle'; src.write_bytes(p)
    else: src = tmp_path / 's.pickle.gz'; src.write_bytes(gzip.compress(p))
    with pytest.raises(MalformedSnapshotError, match='truncated'): load_snapshot(src)

@pytest.mark.parametrize('op', list(OPS))
def test_cli_replay(op, tmp_path, capsys):
    f = tmp_path / 'bad.pickle'; f.write_bytes(payload(op))
    assert main(['replay', str(f)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith('tinytensor replay: error: malformed memory snapshot')

@pytest.mark.parametrize('op', list(OPS))
@pytest.mark.parametrize('kw', [dict(weights_only=True), dict(weights_only=False), dict(mmap=True)])
def test_checkpoint(op, kw, tmp_path):
    f = tmp_path / 'bad.pt'; f.write_bytes(checkpoint(op))
    with pytest.raises(pickle.UnpicklingError): tt.load(str(f), **kw)

def test_plain_snapshots_still_load():
    d = {'segments': [], 'device_traces': [[]], 'blob': b'q' * 100_000}
    for proto in (3, 4, 5): assert load_snapshot(pickle.dumps(d, protocol=proto)) == d
    d['note'] = bytearray(b'abc') * 10                           # BYTEARRAY8: protocol 5 only (older ones name the class)
    assert load_snapshot(pickle.dumps(d, protocol=5)) == d

# 4 GiB and just under: past what a 32-bit count can say, and the largest it can
@pytest.mark.parametrize('op', list(OPS))
@pytest.mark.parametrize('claim', [2**32, 2**32 - 1])
def test_four_gib_claims(op, claim, tmp_path):
    c = claim.to_bytes(8, 'little')
    f = tmp_path / 'bad.pt'; f.write_bytes(checkpoint(op, c))
    for kw in (dict(weights_only=True), dict(weights_only=False), dict(mmap=True)):
        with pytest.raises(pickle.UnpicklingError, match='truncated|frame'): tt.load(str(f), **kw)
    with pytest.raises(MalformedSnapshotError, match='truncated'): load_snapshot(payload(op, c))
