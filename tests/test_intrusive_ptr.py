import threading, gc
import pytest
from tinytensor.intrusive_ptr import intrusive_ptr_target, intrusive_ptr, weak_intrusive_ptr, make_intrusive, MaybeOwned


class Counted(intrusive_ptr_target):
    __slots__ = ('released',)
    def __init__(self): super().__init__(); self.released = 0
    def release_resources(self): self.released += 1


def test_eight_threads_100k_copies_exact_counts():
    p = make_intrusive(Counted)
    w = weak_intrusive_ptr(p)
    start = threading.Barrier(8)
    def work():
        start.wait()
        for _ in range(100_000):
            q = p.copy()
            r = w.lock()
            del q
            r.reset()
    ts = [threading.Thread(target=work) for _ in range(8)]
    for t in ts: t.start()
    for t in ts: t.join()
    assert p.use_count() == 1
    assert p.weak_use_count() == 1
    assert p.get().released == 0
    target = p.get()
    del p
    assert target.released == 1 and w.expired() and w.lock() is None


def test_threads_dropping_last_handles_release_exactly_once():
    for _ in range(50):
        p = make_intrusive(Counted)
        target = p.get()
        handles = [p.copy() for _ in range(64)]
        del p
        def drop(chunk):
            for h in chunk: h.reset()
        ts = [threading.Thread(target=drop, args=(handles[i::8],)) for i in range(8)]
        for t in ts: t.start()
        for t in ts: t.join()
        assert target.released == 1 and target._refcount == 0 and target._weakcount == 0


def test_weak_lock_races_with_last_drop():
    for _ in range(200):
        p = make_intrusive(Counted); target = p.get()
        w = weak_intrusive_ptr(p)
        got = []
        t = threading.Thread(target=lambda: got.append(w.lock()))
        t.start(); p.reset(); t.join()
        q = got[0]
        if q is not None:                 # the lock won the race: resources still alive
            assert target.released == 0 and q.use_count() == 1
            q.reset()
        assert target.released == 1


def test_make_intrusive_requires_target():
    with pytest.raises(RuntimeError):
        make_intrusive(object)


def test_maybe_owned_counts():
    p = make_intrusive(Counted)
    owned = [MaybeOwned.owned(p) for _ in range(10)]
    borrowed = [MaybeOwned.borrowed(p) for _ in range(10)]
    assert p.use_count() == 11
    del owned
    assert p.use_count() == 1
    assert all(b.get() is p for b in borrowed)
