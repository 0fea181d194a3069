"The API coverage tool (tools/api_coverage.py): its probes pass on a correct op and catch every kind of difference."
import importlib.util, json, sys
from pathlib import Path
import pytest
import tinytensor as tt

_path = Path(__file__).resolve().parent.parent / 'tools' / 'api_coverage.py'
_spec = importlib.util.spec_from_file_location('api_coverage', _path)
cov = importlib.util.module_from_spec(_spec); sys.modules['api_coverage'] = cov; _spec.loader.exec_module(cov)
T, P = cov.T, cov.P

def test_correct_op_matches():
    for p in (P(T((2, 3))), P(T((3, 4), layout='T')), P(T((2, 3), 'int64')), P(T((0, 3)))):
        assert cov.run_probe('neg', p, False) is None

def test_wrong_dtype_detected(monkeypatch):
    orig = tt.neg
    monkeypatch.setattr(tt, 'neg', lambda x: orig(x).to(tt.float64))
    d = cov.run_probe('neg', P(T((2, 3))), False)
    assert d and 'dtype float64 != torch float32' in d
    r = cov.measure(['neg'])['neg']
    assert r['present'] and r['status'] == 'mismatch' and r['failures']

def test_wrong_values_detected(monkeypatch):
    orig = tt.neg
    monkeypatch.setattr(tt, 'neg', lambda x: orig(x) + 1)
    assert 'values differ' in cov.run_probe('neg', P(T((2, 3))), False)
    # a difference below the tolerance passes only where a tolerance applies
    monkeypatch.setattr(tt, 'neg', lambda x: orig(x) * (1 + 1e-13))
    assert cov.run_probe('neg', P(T((2, 3), 'float64')), True) is None
    assert 'values differ' in cov.run_probe('neg', P(T((2, 3), 'float64')), False)

def test_wrong_layout_and_view_detected(monkeypatch):
    orig = tt.neg
    monkeypatch.setattr(tt, 'neg', lambda x: orig(x).contiguous())          # torch keeps a transposed layout
    assert 'strides' in cov.run_probe('neg', P(T((3, 4), layout='T')), False)
    orig_reshape = tt.reshape
    monkeypatch.setattr(tt, 'reshape', lambda x, s: orig_reshape(x, s).clone())
    assert 'torch returns a view' in cov.run_probe('reshape', P(T((2, 3)), (3, 2)), False)

def test_exceptions_compared(monkeypatch):
    # torch raises RuntimeError for mismatched shapes: a different class or no error is a mismatch
    p = P(T((2, 3)), T((4,)))
    assert cov.run_probe('add', p, False) is None
    def bad(a, b): raise TypeError('nope')
    monkeypatch.setattr(tt, 'add', bad)
    assert 'exception TypeError' in cov.run_probe('add', p, False)
    monkeypatch.setattr(tt, 'add', lambda a, b: a)
    assert 'torch raises RuntimeError' in cov.run_probe('add', p, False)

def test_inplace_must_return_self_and_mutate(monkeypatch):
    p = P(T((2, 3)))
    assert cov.run_probe('Tensor.neg_', p, False) is None
    monkeypatch.setattr(tt.Tensor, 'neg_', lambda self: self.neg())          # does not mutate
    assert 'input #0 after the call' in cov.run_probe('Tensor.neg_', p, False)

def test_missing_name_reported(monkeypatch):
    monkeypatch.delattr(tt, 'neg')
    r = cov.measure(['neg'])['neg']
    assert not r['present'] and r['status'] == 'missing'

def test_name_list_and_recipes():
    assert len(cov.NAMES) > 500 and not set(cov.NAMES) & set(cov.EXCLUDED)
    assert set(cov.NAMES.values()) <= set(cov.CATEGORIES)
    assert [q for q in cov.NAMES if not cov.recipes_for(q)] == []             # every name has probes

def test_summary_and_json(tmp_path):
    out = tmp_path / 'cov.json'
    assert cov.main(['--only', 'add', 'Tensor.add_', 'Tensor.__add__', '--json', str(out)]) == 0
    doc = json.loads(out.read_text())
    assert set(doc['names']) == {'add', 'Tensor.add_', 'Tensor.__add__'}
    row = doc['summary']['TOTAL']['all']
    assert row['total'] == 3 and row['present'] == row['match'] + row['mismatch'] + row['unprobed']

def test_recipes_deterministic():
    "torch against itself must match on every probe (a sample of names): no recipe compares random or uninitialized values."
    names = list(cov.NAMES)[::7]
    assert cov.selfcheck(names) == 0

KIND_NAMES = ['vdot', 'kron', 'addmm', 'logcumsumexp', 'rot90', 'roll', 'Tensor.index_add_', 'Tensor.addmv_', 'Tensor.cpu',
              'Tensor.__array__', 'Tensor.__getitem__', 'std_mean', 'repeat_interleave', 'sin', 'linspace', 'randint', 'empty']

def test_probe_kinds_deterministic():
    "The out= dtype, overlap, layout and view-ness probes agree torch against torch."
    assert cov.selfcheck(KIND_NAMES) == 0

def test_probe_kinds_find_what_they_target(monkeypatch):
    "Each probe kind catches the defect it is there for (the defects tinytensor had: they fail on an op that has them)."
    def fails(q): return [f['probe'] for f in cov.measure([q])[q].get('failures', [])]
    assert all(cov.measure([q])[q]['status'] == 'match' for q in ('vdot', 'kron', 'rot90', 'roll', 'Tensor.index_add_'))
    vdot, kron, rot90, roll = tt.vdot, tt.kron, tt.rot90, tt.roll
    monkeypatch.setattr(tt, 'vdot', lambda a, b, out=None: tt.dot(a, b, out=out))                      # no conjugate
    assert any('complex' in p for p in fails('vdot'))
    def kron_cast(a, b, out=None):                                                                    # out= cast silently
        r = kron(a, b)
        return r if out is None else out.copy_(r)
    monkeypatch.setattr(tt, 'kron', kron_cast)
    assert any('out=int64' in p for p in fails('kron'))
    monkeypatch.setattr(tt, 'rot90', lambda x, k=1, dims=(0, 1): rot90(x, k, dims).view_as(x) if k % 4 == 0 else rot90(x, k, dims).t().t())
    assert any('_is_view' in p for p in fails('rot90'))                                              # a view where torch has none
    monkeypatch.setattr(tt, 'roll', lambda x, s, d=None: roll(x, s, d).contiguous())                  # channels_last lost
    assert any('channels_last' in p for p in fails('roll'))
    monkeypatch.setattr(tt.Tensor, 'index_add_', lambda self, *a, **k: self)                          # no overlap check
    assert any('expanded' in p for p in fails('Tensor.index_add_'))

def test_factory_out_probes_find_flat_writes(monkeypatch):
    "The factories' out= probes catch a range written as if `out` were contiguous, and a random fill of overlapping elements."
    def fails(q): return [f['probe'] for f in cov.measure([q])[q].get('failures', [])]
    assert all(cov.measure([q])[q]['status'] == 'match' for q in ('linspace', 'rand'))
    linspace, rand = tt.linspace, tt.rand
    def linspace_flat(start, end, steps, out=None):                  # out's storage filled from its first element on
        r = linspace(start, end, steps, dtype=None if out is None else out.dtype)
        if out is None: return r
        out.as_strided((steps,), (1,), out.storage_offset()).copy_(r)
        return out
    monkeypatch.setattr(tt, 'linspace', linspace_flat)
    assert any('out=narrowed' in p for p in fails('linspace'))
    monkeypatch.setattr(tt, 'rand', lambda size, out=None, **kw: rand(size, **kw) if out is None else out.fill_(0.5))   # no overlap check
    assert any('out=expanded' in p for p in fails('rand'))

def test_device_cuda_on_the_standin(monkeypatch):
    "--device cuda: probe tensors on CUDA (the strict CuPy stand-in here), torch on the CPU; a result left on the CPU is caught."
    import cuda_standin
    state = cuda_standin.install(1)
    try:
        cov.use_device('cuda')
        res = cov.measure(['add', 'amax', 'where', 'Tensor.scatter_add', 'Tensor.is_cuda', 'mm', 'linspace', 'rand'])   # out= on the device too
        assert all(r['status'] == 'match' for r in res.values()), {q: r.get('failures') for q, r in res.items()}
        orig = tt.neg
        monkeypatch.setattr(tt, 'neg', lambda x: orig(x).cpu())
        assert 'device cpu != cuda:0' in cov.run_probe('neg', P(T((2, 3))), False)
    finally:
        cov.use_device(None)
        cuda_standin.uninstall(state)
