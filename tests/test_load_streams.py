"tt.load's file objects, mmap options and tensor attributes against torch.load / torch.save."
import collections, io, mmap, pickle
import numpy as np
import pytest
torch = pytest.importorskip("torch")
import tinytensor as tt
from tinytensor import serialization as ser


class _Counting:
    "A BytesIO seen through __getattr__: counts every method looked up, so `hasattr(f, 'readinto')` is seen too."
    def __init__(self, raw):
        self._b, self.calls = io.BytesIO(raw), collections.Counter()
    def __getattr__(self, name):
        self.calls[name] += 1
        return getattr(self._b, name)


class _ReadOnly:
    "read/seek/tell and nothing else: no readinto."
    def __init__(self, raw):
        self._b, self.calls = io.BytesIO(raw), collections.Counter()
    def read(self, n=-1):
        self.calls['read'] += 1
        return self._b.read(n)
    def seek(self, *a): return self._b.seek(*a)
    def tell(self): return self._b.tell()


def _checkpoint():
    b = io.BytesIO()
    torch.save({'w': torch.arange(50000.).view(500, 100), 'b': torch.ones(3, dtype=torch.int16), 'n': 7}, b)
    return b.getvalue()


def _same(x, y):
    assert x.keys() == y.keys() and x['n'] == y['n']
    for k in ('w', 'b'):
        assert str(x[k].dtype).split('.')[-1] == str(y[k].dtype).split('.')[-1]
        assert np.array_equal(np.asarray(x[k].numpy()), y[k].numpy())


@pytest.mark.parametrize('prefix', [b'', pickle.dumps(41)])
def test_load_uses_readinto_like_torch(prefix):
    raw = prefix + _checkpoint()
    got = {}
    for lib in (tt, torch):
        f = _Counting(raw)
        if prefix: pickle.load(f); f.calls.clear()
        got[lib] = (lib.load(f), f.calls)
    _same(got[tt][0], got[torch][0])
    # torch: one read (the zip magic), every archive read through readinto
    assert got[torch][1]['read'] == 1 == got[tt][1]['read']
    assert got[tt][1]['readinto'] > 0 and got[torch][1]['readinto'] > 0


def test_load_without_readinto_reads():
    raw = _checkpoint()
    ft, fp = _ReadOnly(raw), _ReadOnly(raw)
    _same(tt.load(ft), torch.load(fp))
    assert ft.calls['read'] > 1 and fp.calls['read'] > 1
    # at a stream position too, and the legacy format
    for legacy in (False, True):
        b = io.BytesIO(); b.write(b'junk')
        torch.save({'x': torch.arange(5)}, b, _use_new_zipfile_serialization=not legacy)
        f = _ReadOnly(b.getvalue()); f.seek(4)
        assert tt.load(f)['x'].tolist() == [0, 1, 2, 3, 4]


def test_default_mmap_options_like_torch(tmp_path):
    tser = torch.serialization
    assert ser.get_default_mmap_options() == tser.get_default_mmap_options() == mmap.MAP_PRIVATE
    for lib, mod in ((tt, ser), (torch, tser)):
        p = tmp_path / f'{lib.__name__}.pt'
        lib.save({'x': lib.zeros(4)}, p)
        with mod.set_default_mmap_options(mmap.MAP_SHARED):
            assert mod.get_default_mmap_options() == mmap.MAP_SHARED
            lib.load(p, mmap=True)['x'][0] = 5.                 # shared: reaches the file
        assert mod.get_default_mmap_options() == mmap.MAP_PRIVATE
        lib.load(p, mmap=True)['x'][1] = 7.                     # private: a copy of the page
        # torch checks no CRC; tinytensor's mapped load reads no record
        assert torch.load(p)['x'].tolist() == [5., 0., 0., 0.]
        assert tt.load(p, mmap=True)['x'].tolist() == [5., 0., 0., 0.]
        # a plain call sets it until changed; a with-block restores what it found
        r = mod.set_default_mmap_options(mmap.MAP_SHARED)
        assert mod.get_default_mmap_options() == mmap.MAP_SHARED and type(r) is mod.set_default_mmap_options
        with pytest.raises(KeyError):
            with mod.set_default_mmap_options(mmap.MAP_PRIVATE): raise KeyError
        assert mod.get_default_mmap_options() == mmap.MAP_SHARED
        mod.set_default_mmap_options(mmap.MAP_PRIVATE)


@pytest.mark.parametrize('bad', [0, 3, 'x', None, mmap.MAP_PRIVATE | mmap.MAP_SHARED, 2.5])
def test_default_mmap_options_bad_values(bad):
    errs = []
    for mod in (ser, torch.serialization):
        with pytest.raises(ValueError) as e: mod.set_default_mmap_options(bad)
        errs.append(str(e.value))
        assert mod.get_default_mmap_options() == mmap.MAP_PRIVATE
    assert errs[0] == errs[1]


@pytest.mark.parametrize('flag', [1.0, True])
def test_default_mmap_options_equal_values_kept(flag):
    for mod in (ser, torch.serialization):
        with mod.set_default_mmap_options(flag):
            v = mod.get_default_mmap_options()
            assert v is flag


# ---------------------------------------------------------------- Python attributes on tensors
def _data_pkl(raw):
    import zipfile
    z = zipfile.ZipFile(io.BytesIO(raw))
    return z.read(next(n for n in z.namelist() if n.endswith('/data.pkl')))


def test_attributes_set_and_absent_like_torch():
    for lib in (tt, torch):
        t = lib.ones(2, 3)
        assert vars(t) == {}
        t.foo, t.n = 'bar', [1]
        assert vars(t) == {'foo': 'bar', 'n': [1]}
        with pytest.raises(AttributeError): t.shape = (6,)
        del t.n
        assert vars(t) == {'foo': 'bar'}
        assert t.contiguous() is t
        # views and copies start without attributes
        for f in (lambda x: x[:1], lambda x: x.view(6), lambda x: x.t(), lambda x: x.reshape(3, 2),
                  lambda x: x.clone(), lambda x: x.detach(), lambda x: x.to(lib.float64), lambda x: x + 1):
            assert vars(f(t)) == {}, f
        # pickle and copy carry them: copy.copy shares the values, deepcopy copies them
        import copy
        assert copy.copy(t).foo is t.foo and copy.deepcopy(t).__dict__ == {'foo': 'bar'}
        t.l = [1]
        assert copy.deepcopy(t).l is not t.l
        assert vars(pickle.loads(pickle.dumps(t))) == {'foo': 'bar', 'l': [1]}


@pytest.mark.parametrize('legacy', [False, True])
@pytest.mark.parametrize('weights_only', [True, False])
def test_attributes_saved_and_loaded_both_ways(legacy, weights_only):
    kw = dict(_use_new_zipfile_serialization=not legacy)
    x, y = tt.arange(6.).view(2, 3), torch.arange(6.).view(2, 3)
    for t in (x, y): t.foo, t.meta = 'bar', {'k': (1, 2.5)}
    plain_t, plain_p = tt.zeros(2), torch.zeros(2)
    bt, bp = io.BytesIO(), io.BytesIO()
    tt.save({'a': x, 'v': x[1], 'p': plain_t}, bt, **kw)
    torch.save({'a': y, 'v': y[1], 'p': plain_p}, bp, **kw)
    if not legacy: assert _data_pkl(bt.getvalue()) == _data_pkl(bp.getvalue())     # the very same pickle
    for raw in (bt.getvalue(), bp.getvalue()):
        for lib in (tt, torch):
            r = lib.load(io.BytesIO(raw), weights_only=weights_only)
            assert vars(r['a']) == {'foo': 'bar', 'meta': {'k': (1, 2.5)}}
            assert vars(r['v']) == {} and vars(r['p']) == {}
            assert r['a'].tolist() == [[0., 1., 2.], [3., 4., 5.]] and r['v'].tolist() == [3., 4., 5.]


def test_attribute_state_cannot_replace_the_tensor():
    t = tt.ones(2); t.__dict__['_impl'] = 5             # a dict entry under the slot's name
    b = io.BytesIO(); tt.save(t, b)
    for wo in (True, False):
        with pytest.raises((RuntimeError, pickle.UnpicklingError), match='Invalid serialized state'):
            tt.load(io.BytesIO(b.getvalue()), weights_only=wo)
    with pytest.raises(RuntimeError, match='Invalid serialized state'):
        ser._set_obj_state(tt.ones(2), {'_impl': tt.zeros(1)._impl})
    with pytest.raises(RuntimeError, match='Invalid serialized state'):
        ser._set_obj_state(tt.ones(2), (1, 2, 3))
    r = ser._set_obj_state(tt.ones(2), ({'a': 1}, {'b': 2}))
    assert vars(r) == {'a': 1, 'b': 2}
