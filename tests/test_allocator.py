import ctypes, gc
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
