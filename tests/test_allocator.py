import ctypes, gc, os
import numpy as np
import pytest
import tinytensor as tt
from tinytensor.allocator import (Device, DataPtr, DefaultCPUAllocator, CPUCachingAllocator, get_allocator,
                                  set_allocator, DeviceType, memory_stats)

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.usefixtures('clean_slate')     # these tests compare allocator statistics

DEVICE_STRINGS = ['cpu', 'cuda', 'cuda:1', 'cuda:0', 'meta', 'cpu:0', 'cuda:12', 'gpu', 'cuda:-1', 'cuda:x', 'cuda:01',
                  'cuda: 1', 'CPU', 'cuda:1:2', '', 'cuda:', ':1', 'meta:0']

@pytest.mark.parametrize('s', DEVICE_STRINGS)
def test_device_parsing_matches_torch(s):
    try: td = torch.device(s)
    except Exception as e:
        with pytest.raises(type(e)): Device(s)
        return
    d = Device(s)
    assert (d.type, d.index, str(d), repr(d)) == (td.type, td.index, str(td), repr(td))


@pytest.mark.parametrize('args', [('cuda', 1), ('cuda', -1), ('cpu', 0), ('cuda:1', 0), ('cuda', '1'), ('meta', None)])
def test_device_two_args_matches_torch(args):
    try: td = torch.device(*args)
    except Exception as e:
        with pytest.raises(type(e)): Device(*args)
        return
    d = Device(*args)
    assert (d.type, d.index) == (td.type, td.index)


def test_deleter_runs_exactly_once_even_when_it_raises():
    calls = []
    def deleter(ctx):
        calls.append(ctx)
        raise OSError('boom')
    dp = DataPtr(1234, 'ctx', deleter)
    with pytest.raises(OSError): dp.clear()
    dp.clear(); del dp; gc.collect()
    assert calls == ['ctx']
    dp2 = DataPtr(99, 'c2', deleter)
    del dp2                             # destructor swallows the error but still calls once
    assert calls == ['ctx', 'c2']


def test_release_context_transfers_ownership():
    calls = []
    dp = DataPtr(7, 'ctx', calls.append)
    assert dp.release_context() == 'ctx'
    del dp
    assert calls == []


def test_default_allocator_alignment_and_stats():
    a = DefaultCPUAllocator()
    ptrs = [a.allocate(n) for n in (1, 63, 64, 65, 4096, 1 << 20)]
    assert all(p.get() % 64 == 0 for p in ptrs)
    s = a.memory_stats()
    assert s['allocated_bytes.current'] == 1 + 63 + 64 + 65 + 4096 + (1 << 20)
    assert s['allocation.current'] == 6
    for p in ptrs: ctypes.memset(p.get(), 0xAB, 1)
    del ptrs, p
    s = a.memory_stats()
    assert (s['allocated_bytes.current'], s['allocation.current'], s['num_frees']) == (0, 0, 6)
    assert s['allocated_bytes.peak'] == 1 + 63 + 64 + 65 + 4096 + (1 << 20)


def test_zero_and_bad_requests():
    a = DefaultCPUAllocator()
    z = a.allocate(0)
    assert not z and z.get() == 0
    with pytest.raises(RuntimeError, match='negative'): a.allocate(-1)
    with pytest.raises(RuntimeError, match='not enough memory'): a.allocate(1 << 62)
    assert a.memory_stats()['allocation.current'] == 0


def test_caching_allocator_reuses_and_empties():
    c = CPUCachingAllocator()
    a = c.allocate(1000); addr = a.get(); del a
    b = c.allocate(1000); assert b.get() == addr
    d = c.allocate(999); assert d.get() != addr
    del b, d
    assert c.memory_stats()['cached_bytes.current'] == 1999
    c.empty_cache()
    assert c.memory_stats()['cached_bytes.current'] == 0 and c.memory_stats()['allocated_bytes.current'] == 0


def test_tensors_use_registered_allocator_and_stats_return_to_start():
    cache = CPUCachingAllocator()
    old = set_allocator(DeviceType.CPU, cache)
    try:
        xs = [tt.empty(100), tt.zeros(3, 4), tt.ones(5, dtype=tt.float64), tt.arange(10), tt.tensor([1, 2, 3])]
        assert cache.memory_stats()['allocated_bytes.current'] == 400 + 48 + 40 + 80 + 24
        v = xs[1].numpy()
        del xs; gc.collect()
        assert cache.memory_stats()['allocated_bytes.current'] == 48     # the numpy view keeps its storage
        del v; gc.collect()
        assert cache.memory_stats()['allocated_bytes.current'] == 0
    finally:
        set_allocator(DeviceType.CPU, old)
        cache.empty_cache()


def test_global_stats_return_to_start():
    gc.collect()
    start = memory_stats()
    ts = [tt.randn(64, 64) for _ in range(20)] + [tt.tensor(np.arange(100)) for _ in range(5)]
    mid = memory_stats()
    assert mid['allocated_bytes.current'] - start['allocated_bytes.current'] == 20 * 64 * 64 * 4 + 5 * 800
    del ts; gc.collect()
    end = memory_stats()
    assert end['allocated_bytes.current'] == start['allocated_bytes.current']
    assert end['allocation.current'] == start['allocation.current']


# --- the bounded CPU caching allocator (Note [CPU cache cap]) ---
from hypothesis import given, settings, strategies as st
from tinytensor.allocator import DEFAULT_CPU_CACHE_MAX


def _check_consistent(c, live):
    s = c.memory_stats()
    assert s['allocated_bytes.current'] == sum(live.values())
    assert s['allocation.current'] == len(live)
    assert s['cached_bytes.current'] == sum(n * len(ps) for n, ps in c._available.items())
    assert s['reserved_bytes.current'] == s['allocated_bytes.current'] + s['cached_bytes.current']
    assert s['reserved_bytes.current'] == sum(c._sizes.values())        # every owned block is live or cached
    assert 0 <= s['cached_bytes.current'] <= c.max_cached_bytes
    assert s['reserved_bytes.peak'] >= s['reserved_bytes.current']
    assert s['num_allocs'] - s['num_frees'] == len(live)


def test_default_cap_is_documented_fraction_of_memory():
    assert CPUCachingAllocator().max_cached_bytes == DEFAULT_CPU_CACHE_MAX > 0
    assert CPUCachingAllocator(123).max_cached_bytes == 123


def test_cap_is_honoured_and_overflow_goes_back_to_libc():
    c = CPUCachingAllocator(max_cached_bytes=3 * 1000)
    blocks = [c.allocate(1000) for _ in range(5)]
    addrs = {b.get() for b in blocks}
    del blocks
    s = c.memory_stats()
    assert s['cached_bytes.current'] == 3000 and s['allocated_bytes.current'] == 0
    assert len(c._sizes) == 3 and set(c._sizes) <= addrs
    big = c.allocate(5000); del big                       # larger than the cap: never cached
    assert c.memory_stats()['cached_bytes.current'] == 3000
    c.set_max_cached_bytes(1500)
    assert c.memory_stats()['cached_bytes.current'] == 1000
    with pytest.raises(RuntimeError, match='non-negative'): c.set_max_cached_bytes(-1)
    c.empty_cache()


def test_zero_cap_caches_nothing():
    c = CPUCachingAllocator(0)
    a = c.allocate(64); del a
    assert c.memory_stats()['cached_bytes.current'] == 0 and c._sizes == {}


def test_empty_cache_returns_everything_but_live_blocks():
    c = CPUCachingAllocator()
    keep = c.allocate(256)
    xs = [c.allocate(n) for n in (64, 128, 128, 4096)]
    del xs
    assert c.memory_stats()['cached_bytes.current'] == 64 + 128 + 128 + 4096
    c.empty_cache()
    s = c.memory_stats()
    assert (s['cached_bytes.current'], s['reserved_bytes.current'], s['allocated_bytes.current']) == (0, 256, 256)
    assert list(c._sizes) == [keep.get()]
    del keep; c.empty_cache()
    assert c.memory_stats()['reserved_bytes.current'] == 0


def test_same_size_reuses_same_address():
    c = CPUCachingAllocator()
    for n in (1, 4096, 1 << 20):
        a = c.allocate(n); addr = a.get(); del a
        b = c.allocate(n); assert b.get() == addr
        del b
    c.empty_cache()


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.booleans(), st.sampled_from([8, 64, 100, 4096, 10000]), st.integers(0, 50)), max_size=60),
       st.sampled_from([0, 5000, 20000, 1 << 30]))
def test_random_alloc_free_keeps_stats_consistent(ops, cap):
    c = CPUCachingAllocator(cap)
    live, ptrs, dp = {}, [], None
    for is_alloc, n, k in ops:
        if is_alloc or not ptrs:
            dp = c.allocate(n); live[dp.get()] = n; ptrs.append(dp)
        else:
            dp = ptrs.pop(k % len(ptrs)); del live[dp.get()]; dp.clear()
        _check_consistent(c, live)
    del ptrs, dp
    live.clear(); _check_consistent(c, live)
    c.empty_cache()
    assert c.memory_stats()['reserved_bytes.current'] == 0


def _rss_bytes():
    with open('/proc/self/statm') as f: return int(f.read().split()[1]) * os.sysconf('SC_PAGE_SIZE')


@pytest.mark.skipif(not os.path.exists('/proc/self/statm'), reason='needs Linux /proc')
def test_loop_of_adds_keeps_rss_bounded():
    n = 1 << 22
    cache = CPUCachingAllocator()
    old = set_allocator(DeviceType.CPU, cache)
    try:
        a, b = tt.ones(n), tt.ones(n)
        c = a + b; del c; gc.collect()                      # one result's block is now cached and warm
        start = _rss_bytes()
        for _ in range(200): c = a + b
        grown = _rss_bytes() - start
        assert float(c[-1]) == 2.0
        assert grown <= 2 * 4 * n, f'RSS grew by {grown} bytes'
        del a, b, c; gc.collect()
        assert cache.memory_stats()['allocated_bytes.current'] == 0
        assert cache.memory_stats()['cached_bytes.current'] <= cache.max_cached_bytes
    finally:
        set_allocator(DeviceType.CPU, old)
        cache.empty_cache()


# --- the bounded cache is the default CPU allocator ---
def _rss():
    with open('/proc/self/statm') as f: return int(f.read().split()[1]) * os.sysconf('SC_PAGE_SIZE')


def test_default_cpu_allocator_is_the_bounded_cache():
    assert type(get_allocator()) is CPUCachingAllocator
    assert 'allocator=CPUCachingAllocator' in tt.ones(3).explain()
    assert get_allocator().max_cached_bytes == DEFAULT_CPU_CACHE_MAX
    old = set_allocator(DeviceType.CPU, DefaultCPUAllocator())       # plain allocation restored on request
    try: assert 'allocator=DefaultCPUAllocator' in tt.ones(3).explain()
    finally: set_allocator(DeviceType.CPU, old)


def test_add_loop_reuses_warm_memory_and_empty_cache_releases_it():
    n = 16 << 20                                              # 64 MiB results: above glibc's largest mmap threshold
    nbytes = 4 * n
    cache = get_allocator()
    a, b = tt.ones(n), tt.ones(n)
    c = a + b; del c; gc.collect()                           # warm up: one result's block now sits in the cache
    base = _rss()
    for _ in range(30):
        c = a + b
    assert c[n - 1].item() == 2.0
    assert _rss() - base <= 2 * nbytes                        # the loop reuses one warm block, RSS stays flat
    del c; gc.collect()
    assert cache.memory_stats()['cached_bytes.current'] >= nbytes
    before = _rss(); cache.empty_cache(); after = _rss()
    assert cache.memory_stats()['cached_bytes.current'] == 0
    assert before - after >= nbytes                           # the cached pages went back to the system


# Huge-page hints (chapter 02, "Huge pages for big blocks"): every fresh CPU block of HUGEPAGE_THRESHOLD bytes or more
# gets exactly one madvise hint, from alloc_cpu, whichever op made it; a block the cache hands out again gets none.
BIG = tt.allocator.HUGEPAGE_THRESHOLD // 4                     # float32 elements of one threshold-sized block

@pytest.mark.parametrize('make', [lambda x: tt.empty(BIG), lambda x: tt.zeros(BIG), lambda x: tt.randn(BIG),
                                  lambda x: x.clone(), lambda x: x + 1, lambda x: x.view(64, -1).t().contiguous(),
                                  lambda x: tt.arange(BIG, dtype=tt.float32), lambda x: tt.from_numpy(x.numpy()).clone()],
                         ids=['empty', 'zeros', 'randn', 'clone', 'add', 'contiguous', 'arange', 'from_numpy_clone'])
def test_every_big_fresh_block_gets_one_hint(make, monkeypatch):
    x = tt.ones(BIG)
    get_allocator().empty_cache()
    hinted, plain = [], tt.allocator._advise_hugepages
    monkeypatch.setattr(tt.allocator, '_THP_ENABLED', True)
    monkeypatch.setattr(tt.allocator, '_advise_hugepages', lambda p, n: (hinted.append((p, n)), plain(p, n)))
    r = make(x)
    ptr = r.untyped_storage().data_ptr()
    assert hinted == [(ptr, BIG * 4)] and ptr % 4096 == 0     # the whole block, page-aligned
    del r
    r = make(x)                                              # the same size again: a cache hit, no second hint
    assert r.untyped_storage().data_ptr() == ptr and len(hinted) == 1
    small = tt.empty(BIG - 16)                               # below the threshold: 64-byte alignment, no hint
    assert len(hinted) == 1 and small.data_ptr() % 64 == 0

def test_hint_off_with_THP_MEM_ALLOC_ENABLE_0():
    import subprocess, sys
    code = ("import tinytensor as tt, tinytensor.allocator as A\n"
            "calls = []\nA._advise_hugepages = lambda p, n: calls.append(n)\n"
            "t = tt.empty(A.HUGEPAGE_THRESHOLD); print(A._THP_ENABLED, calls)")
    out = subprocess.run([sys.executable, '-c', code], env={**os.environ, 'THP_MEM_ALLOC_ENABLE': '0'},
                         capture_output=True, text=True, check=True).stdout
    assert out.split() == ['False', '[]']
