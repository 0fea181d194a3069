import gc
import numpy as np
import pytest
import tinytensor as tt
from tinytensor.storage import Storage, StorageImpl, lazy_clone_storage
from tinytensor.allocator import memory_stats

pytestmark = pytest.mark.usefixtures('clean_slate')     # these tests compare allocator statistics


def allocated(): return memory_stats()['allocated_bytes.current']


def test_numpy_view_outlives_every_handle():
    start = allocated()
    t = tt.arange(1000, dtype=tt.int32)
    a = t.numpy(); b = t.untyped_storage().numpy()
    del t; gc.collect()
    assert a.sum() == sum(range(1000)) and len(b) == 4000
    a[0] = 77
    assert int(b[:4].view(np.int32)[0]) == 77      # both views see the same memory
    del a; gc.collect()
    assert allocated() - start == 4000
    del b; gc.collect()
    assert allocated() == start


def test_resize_keeps_prefix_and_views_survive():
    s = Storage(8); s.fill_(3)
    arr = s.numpy()
    s.resize_(1000)
    assert s.tolist()[:8] == [3] * 8
    assert arr.tolist() == [3] * 8                    # the old memory stays valid under its view
    s.resize_(0)
    assert s.nbytes() == 0 and s.tolist() == []


def test_resize_errors():
    t = tt.from_numpy(np.zeros(4, np.float32))
    with pytest.raises(RuntimeError, match='not resizable'):
        t.untyped_storage().resize_(100)
    with pytest.raises(RuntimeError):
        Storage(4).resize_(-1)


def test_cow_reads_never_copy_writes_copy_once():
    start = allocated()
    s = Storage(4096); s.fill_(1)
    clones = [s._lazy_clone() for _ in range(5)]
    assert allocated() - start == 4096
    for c in clones: assert c.tolist()[:3] == [1, 1, 1]
    assert allocated() - start == 4096
    clones[0][0] = 9
    assert allocated() - start == 8192 and s[0] == 1 and clones[1][0] == 1
    for c in clones[1:]: c[1] = 2
    del c
    # four more copies, but the last sharer (s) still has the original
    assert allocated() - start == 4096 * 6
    s[5] = 5
    assert allocated() - start == 4096 * 6 and not s.is_cow()
    del s, clones; gc.collect()
    assert allocated() == start


def test_cow_of_borrowed_memory_copies():
    t = tt.from_numpy(np.arange(4, dtype=np.int64))
    impl = t.untyped_storage().impl
    assert lazy_clone_storage(impl) is None           # not a simple DataPtr: no lazy sharing
    c = t.untyped_storage()._lazy_clone()
    assert not c.is_cow() and c.tolist() == t.untyped_storage().tolist()


def test_meta_storage_has_no_memory():
    start = allocated()
    s = Storage(1 << 40, device='meta')
    assert s.nbytes() == 1 << 40 and s.impl.data() == 0 and allocated() == start
    s.resize_(10)
    assert s.nbytes() == 10


def test_storage_indexing_like_torch():
    "Reading wraps a negative index and refuses one out of range (IndexError); writing takes 0 <= i < nbytes only (RuntimeError)."
    torch = pytest.importorskip("torch")
    from ttgen import run_both
    s, u = Storage(8), torch.UntypedStorage(8)
    s.fill_(0); u.fill_(0)
    for i in (0, 7, -1, -8, 8, -9):
        r_tt, r_th = run_both(lambda: s[i], lambda: u[i])
        assert type(r_tt) is type(r_th) and (isinstance(r_th, Exception) or r_tt == r_th), (i, r_tt, r_th)
        r_tt, r_th = run_both(lambda: s.__setitem__(i, 5), lambda: u.__setitem__(i, 5))
        assert type(r_tt) is type(r_th), (i, r_tt, r_th)
    assert s.tolist() == u.tolist() == [5, 0, 0, 0, 0, 0, 0, 5]
