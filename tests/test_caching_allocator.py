"""Chapter 07: the CUDA caching allocator, checked against layouts derived by hand from PyTorch's rules
(c10/cuda/CUDACachingAllocator.cpp) and against torch's own Python helpers where they run without a GPU."""
import pickle, random, time, zlib
import pytest

from tinytensor.cuda.caching_allocator import (
    DeviceCachingAllocator, SimulatedBackend, OutOfMemoryError, AllocatorConfig, round_size, get_allocation_size,
    format_size, memory_map_svg, format_memory_summary, SIZE_MAX)
import tinytensor.cuda as ttc

KiB, MiB = 1 << 10, 1 << 20
pytestmark = pytest.mark.usefixtures('clean_slate')     # these tests compare allocator statistics


def make(conf="", capacity=8 << 30, **kw):
    return DeviceCachingAllocator(SimulatedBackend(capacity=capacity), conf=conf, **kw)


def layout(a):
    "[(segment_type, total_size, stream, [(size, state letter)])] in address order; checks invariants first."
    assert a.check_invariants()
    code = {'active_allocated': 'A', 'active_pending_free': 'P', 'inactive': 'F'}
    return [(s['segment_type'], s['total_size'], s['stream'], [(b['size'], code[b['state']]) for b in s['blocks']])
            for s in a.snapshot()['segments']]


def stat(a, key): return a.memory_stats()[key]


# ---------------------------------------------------------------- sizes

@pytest.mark.parametrize("req,rounded", [(1, 512), (511, 512), (512, 512), (513, 1024), (1023, 1024), (1024, 1024),
                                         (MiB - 1, MiB), (MiB, MiB), (MiB + 1, MiB + 512),
                                         (10 * MiB - 1, 10 * MiB), (20 * MiB + 1, 20 * MiB + 512)])
def test_round_size(req, rounded):
    assert round_size(req) == rounded


@pytest.mark.parametrize("size,seg", [(512, 2 * MiB), (MiB, 2 * MiB), (MiB + 512, 20 * MiB), (10 * MiB - 512, 20 * MiB),
                                      (10 * MiB, 10 * MiB), (10 * MiB + 512, 12 * MiB), (20 * MiB, 20 * MiB),
                                      (20 * MiB + 512, 22 * MiB), (100 * MiB + 1, 102 * MiB)])
def test_allocation_size(size, seg):
    assert get_allocation_size(size) == seg


def test_roundup_power2_divisions():
    c = AllocatorConfig("roundup_power2_divisions:4")
    assert round_size(5 * MiB + 1, c) == 6 * MiB          # [4 MiB, 8 MiB) in steps of 1 MiB
    assert round_size(4 * MiB, c) == 4 * MiB              # a power of two stays
    assert round_size(2048, c) == 2048 and round_size(2049, c) == 2560   # <= 512*4 ... > 2048: steps of 512
    c = AllocatorConfig("roundup_power2_divisions:[2:2,64:8,>:16]")
    assert c.roundup_power2_divisions == [2, 2, 0, 0, 0, 0] + [16] * 10   # first fills below; '>' from the last named
    assert round_size(3 * MiB + 1, c) == 4 * MiB          # index 1 -> 2 divisions of [2,4) MiB
    assert round_size(5 * MiB + 1, c) == 5 * MiB + 512    # index 2: 0 divisions, plain rounding
    a = make("roundup_power2_divisions:4")
    p = a.malloc(5 * MiB + 1)
    assert layout(a) == [('large', 20 * MiB, 0, [(6 * MiB, 'A'), (14 * MiB, 'F')])]
    assert stat(a, 'requested_bytes.all.current') == 5 * MiB + 1


# ---------------------------------------------------------------- pools, splitting

def test_small_request_layout():
    a = make()
    p = a.malloc(1)
    assert layout(a) == [('small', 2 * MiB, 0, [(512, 'A'), (2 * MiB - 512, 'F')])]
    q = a.malloc(MiB)                                         # exactly 1 MiB is still small
    assert q == p + 512
    r = a.malloc(MiB - 1024)                                  # leaves exactly 512: still split (small pool, >= 512)
    assert layout(a) == [('small', 2 * MiB, 0, [(512, 'A'), (MiB, 'A'), (MiB - 1024, 'A'), (512, 'F')])]
    s = a.malloc(100)                                         # exact fit of the 512 remainder
    assert s == r + MiB - 1024
    assert layout(a) == [('small', 2 * MiB, 0, [(512, 'A'), (MiB, 'A'), (MiB - 1024, 'A'), (512, 'A')])]
    assert stat(a, 'inactive_split.all.current') == 0 and stat(a, 'segment.small_pool.current') == 1


def test_large_request_layouts():
    a = make()
    a.malloc(MiB + 1)                                         # large pool, 20 MiB segment, split
    assert layout(a) == [('large', 20 * MiB, 0, [(MiB + 512, 'A'), (19 * MiB - 512, 'F')])]
    b = make()
    b.malloc(10 * MiB - 1)                                    # rounds to exactly 10 MiB: a 10 MiB segment
    assert layout(b) == [('large', 10 * MiB, 0, [(10 * MiB, 'A')])]
    c = make()
    c.malloc(20 * MiB + 1)                                    # 22 MiB segment, remainder 2 MiB - 512 > 1 MiB: split
    assert layout(c) == [('large', 22 * MiB, 0, [(20 * MiB + 512, 'A'), (2 * MiB - 512, 'F')])]
    d = make()
    d.malloc(19 * MiB + 512 * 1024)                           # remainder 0.5 MiB <= 1 MiB: no split
    assert layout(d) == [('large', 20 * MiB, 0, [(20 * MiB, 'A')])]
    assert stat(d, 'allocated_bytes.all.current') == 20 * MiB
    assert stat(d, 'requested_bytes.all.current') == 19 * MiB + 512 * 1024
    e = make()
    e.malloc(11 * MiB)                                        # 12 MiB segment, remainder exactly 1 MiB: no split
    assert layout(e) == [('large', 12 * MiB, 0, [(12 * MiB, 'A')])]


def test_split_then_merge_both_neighbours():
    a = make()
    x, y, z = (a.malloc(3 * MiB) for _ in range(3))
    assert (y - x, z - y) == (3 * MiB, 3 * MiB)
    assert layout(a) == [('large', 20 * MiB, 0, [(3 * MiB, 'A')] * 3 + [(11 * MiB, 'F')])]
    assert (stat(a, 'inactive_split.all.current'), stat(a, 'inactive_split_bytes.all.current')) == (1, 11 * MiB)
    a.free(x)
    a.free(z)                                                 # merges with the remainder
    assert layout(a) == [('large', 20 * MiB, 0, [(3 * MiB, 'F'), (3 * MiB, 'A'), (14 * MiB, 'F')])]
    assert (stat(a, 'inactive_split.all.current'), stat(a, 'inactive_split_bytes.all.current')) == (2, 17 * MiB)
    a.free(y)                                                 # merges with both neighbours
    assert layout(a) == [('large', 20 * MiB, 0, [(20 * MiB, 'F')])]
    assert (stat(a, 'inactive_split.all.current'), stat(a, 'inactive_split_bytes.all.current')) == (0, 0)
    assert stat(a, 'active_bytes.all.current') == 0 and stat(a, 'requested_bytes.all.current') == 0


def test_best_fit_lowest_address_and_reuse():
    a = make()
    ps = [a.malloc(s * MiB) for s in (16, 12, 14, 12)]       # four unsplit segments
    for p in ps: a.free(p)
    q = a.malloc(13 * MiB)                                    # best fit: the 14 MiB block, taken whole (1 MiB left)
    assert q == ps[2] and stat(a, 'allocated_bytes.all.current') == 14 * MiB
    r = a.malloc(11 * MiB)                                    # two 12 MiB blocks: the lower address wins
    assert r == min(ps[1], ps[3])
    assert stat(a, 'segment.all.current') == 4 and stat(a, 'num_device_alloc') == 4


def test_streams_do_not_share_cached_blocks():
    a = make()
    p = a.malloc(4 * MiB, stream=0)
    a.free(p)
    q = a.malloc(4 * MiB, stream=1)                           # stream 0's cached 20 MiB block is invisible
    assert layout(a) == [('large', 20 * MiB, 0, [(20 * MiB, 'F')]), ('large', 20 * MiB, 1, [(4 * MiB, 'A'), (16 * MiB, 'F')])]
    assert a.malloc(4 * MiB, stream=0) == p


def test_record_stream_delays_reuse_until_events_complete():
    a = make()
    p = a.malloc(20 * MiB, stream=0)
    a.record_stream(p, 0)                                     # the allocation stream: ignored
    a.record_stream(p, 1)
    a.record_stream(p, 2)
    a.free(p)
    assert layout(a) == [('large', 20 * MiB, 0, [(20 * MiB, 'P')])]
    assert stat(a, 'allocated_bytes.all.current') == 0 and stat(a, 'active_bytes.all.current') == 20 * MiB
    q = a.malloc(20 * MiB)                                    # not reusable yet: a new segment
    assert q != p and stat(a, 'segment.all.current') == 2
    a.backend.synchronize(1)                                  # one of two events done: still pending
    a.free(q)
    r = a.malloc(20 * MiB)
    assert r == q
    a.backend.synchronize(2)
    s = a.malloc(20 * MiB)                                    # process_events freed p: reused
    assert s == p and stat(a, 'segment.all.current') == 2
    assert stat(a, 'num_sync_all_streams') == 0
    a.check_invariants()


def test_pending_block_is_not_merged_until_complete():
    a = make()
    x, y = a.malloc(3 * MiB), a.malloc(3 * MiB)
    a.record_stream(x, 5)
    a.free(x)
    a.free(y)                                                 # y merges with the remainder, not with pending x
    assert layout(a) == [('large', 20 * MiB, 0, [(3 * MiB, 'P'), (17 * MiB, 'F')])]
    a.empty_cache()                                           # synchronizes: x merges, segment released
    assert layout(a) == [] and stat(a, 'num_sync_all_streams') == 1


# ---------------------------------------------------------------- max_split_size and oversize

def test_oversize_rules():
    a = make("max_split_size_mb:32")
    p = a.malloc(40 * MiB)                                    # oversize: its own 40 MiB segment, never split
    assert layout(a) == [('large', 40 * MiB, 0, [(40 * MiB, 'A')])]
    assert (stat(a, 'oversize_allocations.current'), stat(a, 'oversize_segments.current')) == (1, 1)
    a.free(p)
    q = a.malloc(12 * MiB)                                    # normal request never takes the oversize block
    assert q != p and stat(a, 'segment.all.current') == 2
    r = a.malloc(36 * MiB)                                    # oversize request: 40 < 36 + 20, taken whole
    assert r == p and stat(a, 'allocated_bytes.all.current') == 52 * MiB
    a.free(r)
    s = a.malloc(60 * MiB)
    a.free(s)
    t = a.malloc(38 * MiB)                                    # best fit is the 40 MiB block again
    assert t == p
    u = a.malloc(33 * MiB)                                    # only 60 MiB cached: 60 >= 33 + 20 -> new segment
    assert u not in (p, s) and stat(a, 'segment.all.current') == 4
    assert stat(a, 'max_split_size') == 32 * MiB
    a.check_invariants()


def test_max_non_split_rounding():
    a = make("max_split_size_mb:32,max_non_split_rounding_mb:40")
    p = a.malloc(70 * MiB)
    a.free(p)
    assert a.malloc(33 * MiB) == p                            # 70 < 33 + 40


def test_release_available_cached_blocks():
    a = make("max_split_size_mb:32", capacity=100 * MiB)
    p, q = a.malloc(40 * MiB), a.malloc(40 * MiB)
    a.free(p); a.free(q)
    r = a.malloc(30 * MiB)                                    # 80 + 30 > 100: free the smallest oversize block >= 32 MiB
    assert layout(a) == [('large', 40 * MiB, 0, [(40 * MiB, 'F')]), ('large', 30 * MiB, 0, [(30 * MiB, 'A')])]
    assert stat(a, 'num_alloc_retries') == 0 and stat(a, 'num_device_free') == 1
    assert a.snapshot()['segments'][0]['address'] == q       # p (lower address) was released


def test_release_several_oversize_blocks():
    a = make("max_split_size_mb:32", capacity=110 * MiB)
    ps = [a.malloc(34 * MiB) for _ in range(3)]
    for p in ps: a.free(p)
    a.malloc(68 * MiB)                                        # no single block >= 68 MiB: free largest-first until 68 MiB
    assert stat(a, 'num_device_free') == 2 and stat(a, 'segment.all.current') == 2
    assert stat(a, 'num_alloc_retries') == 0


# ---------------------------------------------------------------- retry, OOM

def test_release_cached_blocks_and_retry():
    a = make(capacity=64 * MiB)
    a.record_memory_history()
    p = a.malloc(5 * MiB)
    a.free(p)                                                 # 20 MiB cached
    q = a.malloc(50 * MiB)                                    # 20 + 50 > 64: empty the cache, retry
    assert layout(a) == [('large', 50 * MiB, 0, [(50 * MiB, 'A')])]
    assert (stat(a, 'num_alloc_retries'), stat(a, 'num_device_free'), stat(a, 'num_sync_all_streams')) == (1, 1, 1)
    acts = [e['action'] for e in a.snapshot()['device_traces'][0] if e['action'] != 'snapshot']
    assert acts == ['segment_alloc', 'alloc', 'free_requested', 'free_completed', 'segment_free', 'segment_alloc', 'alloc']


def test_oom_message_and_state():
    a = make(capacity=64 * MiB)
    a.record_memory_history()
    p = a.malloc(50 * MiB)
    x = a.malloc(3000)                                        # 2 MiB small segment
    before = a.memory_stats()
    with pytest.raises(OutOfMemoryError) as ei:
        a.malloc(13 * MiB)                                    # 14 MiB segment, only 12 MiB free
    msg = str(ei.value)
    assert isinstance(ei.value, RuntimeError)
    assert msg.startswith("CUDA out of memory. Tried to allocate 14.00 MiB. GPU 0 has a total capacity of 64.00 MiB "
                          "of which 12.00 MiB is free.")
    assert "Of the allocated memory 50.00 MiB is allocated by PyTorch, and 2.00 MiB is reserved by PyTorch but unallocated." in msg
    assert "PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True" in msg
    after = a.memory_stats()
    assert after['num_ooms'] == 1 and after['num_alloc_retries'] == 1
    for k in before:
        if not k.startswith(('num_ooms', 'num_alloc_retries', 'num_sync_all_streams')):
            assert before[k] == after[k], k
    oom = a.snapshot()['device_traces'][0][-1]               # the snapshot action comes after the copy
    assert oom['action'] == 'oom' and oom['device_free'] == 12 * MiB and oom['size'] == 13 * MiB and 'addr' not in oom
    a.free(x)
    a.check_invariants()
    with pytest.raises(OutOfMemoryError, match="more than 1EB"):
        a.malloc(1 << 60)


def test_memory_fraction_limits_and_message():
    a = make(capacity=100 * MiB)
    a.set_per_process_memory_fraction(0.5)
    a.malloc(40 * MiB)
    with pytest.raises(OutOfMemoryError, match="50.00 MiB allowed; "):
        a.malloc(12 * MiB)
    with pytest.raises(ValueError, match="Invalid fraction"):        # torch: ValueError
        a.set_per_process_memory_fraction(1.5)


def test_garbage_collection_threshold_frees_old_blocks():
    a = make("garbage_collection_threshold:0.5", capacity=200 * MiB)
    a.set_per_process_memory_fraction(0.5)                   # allowed 100 MiB, GC above 50 MiB
    A = a.malloc(20 * MiB)
    B = a.malloc(20 * MiB)
    a.free(A)                                                 # cached at search count 2
    X = a.malloc(20 * MiB, stream=1)                          # search 3, no GC (40 <= 50)
    a.free(B); a.free(X)                                      # cached at search count 3
    Y = a.malloc(30 * MiB)                                    # search 4; 60 > 50: ages A=2, B=1, X=1, avg 4/3 -> free A
    segs = {s['address']: s['total_size'] for s in a.snapshot()['segments']}
    assert A not in segs and B in segs and X in segs and Y in segs
    assert stat(a, 'num_device_free') == 1 and stat(a, 'num_alloc_retries') == 0


def test_gc_needs_fraction():
    a = make("garbage_collection_threshold:0.5", capacity=200 * MiB)
    for _ in range(3): a.free(a.malloc(20 * MiB, stream=_))
    a.malloc(30 * MiB)
    assert stat(a, 'num_device_free') == 0                   # torch: GC only with set_per_process_memory_fraction


def test_empty_cache_keeps_split_segments():
    a = make()
    p, q = a.malloc(3 * MiB), a.malloc(12 * MiB)
    a.free(q)
    a.empty_cache()
    assert layout(a) == [('large', 20 * MiB, 0, [(3 * MiB, 'A'), (17 * MiB, 'F')])]
    assert stat(a, 'inactive_split_bytes.large_pool.current') == 17 * MiB


# ---------------------------------------------------------------- statistics, summary, snapshot

def test_memory_stats_keys_like_torch():
    a = make()
    st = a.memory_stats()
    names = ['allocation', 'segment', 'active', 'inactive_split', 'allocated_bytes', 'reserved_bytes', 'active_bytes',
             'inactive_split_bytes', 'requested_bytes']
    want = {f"{n}.{t}.{f}" for n in names for t in ('all', 'small_pool', 'large_pool') for f in ('current', 'peak', 'allocated', 'freed')}
    want |= {f"{n}.{f}" for n in ('oversize_allocations', 'oversize_segments') for f in ('current', 'peak', 'allocated', 'freed')}
    want |= {'num_alloc_retries', 'num_ooms', 'num_sync_all_streams', 'num_device_alloc', 'num_device_free',
             'num_oom_rejections', 'max_split_size'}
    assert set(st) == want and list(st) == sorted(st)
    assert st['max_split_size'] == -1


def test_stats_peaks_totals_and_resets():
    a = make()
    p = a.malloc(3 * MiB); q = a.malloc(5000)
    a.free(p)
    st = a.memory_stats()
    assert st['allocated_bytes.all.peak'] == 3 * MiB + 5120 and st['allocated_bytes.all.current'] == 5120
    assert st['allocated_bytes.large_pool.allocated'] == 3 * MiB and st['allocated_bytes.large_pool.freed'] == 3 * MiB
    assert st['allocation.all.allocated'] == 2 and st['allocation.all.freed'] == 1
    assert a.max_memory_allocated() == 3 * MiB + 5120 and a.max_memory_reserved() == 22 * MiB
    a.reset_peak_memory_stats()
    assert a.max_memory_allocated() == 5120 and a.max_memory_reserved() == 22 * MiB
    a.reset_accumulated_memory_stats()
    st = a.memory_stats()
    assert st['allocation.all.allocated'] == 0 and st['num_device_alloc'] == 0 and st['allocation.all.current'] == 1


def test_memory_summary_matches_torch():
    torch_memory = pytest.importorskip("torch.cuda.memory")
    from unittest import mock
    a = make("max_split_size_mb:40")
    ps = [a.malloc(s) for s in (100, 3 * MiB, 50 * MiB, 900 * MiB, 2000)]
    a.free(ps[1]); a.free(ps[3])
    for abbreviated in (False, True):
        with mock.patch.object(torch_memory, 'memory_stats', lambda device=None: a.memory_stats()):
            want = torch_memory.memory_summary(0, abbreviated=abbreviated)
        assert a.memory_summary(abbreviated) == want


def test_snapshot_structure_and_torch_viz():
    a = make("max_split_size_mb:64")
    a.record_memory_history()
    p, q, r = a.malloc(1000), a.malloc(3 * MiB, stream=3), a.malloc(100 * MiB)
    a.record_stream(q, 4); a.free(q); a.free(p)
    snap = a.snapshot()
    assert set(snap) == {'segments', 'device_traces', 'allocator_settings'}
    seg = snap['segments'][1]
    assert set(seg) == {'device', 'address', 'total_size', 'allocated_size', 'active_size', 'requested_size', 'stream',
                        'segment_type', 'segment_pool_id', 'is_expandable', 'frames', 'blocks'}
    assert (seg['stream'], seg['segment_type'], seg['active_size'], seg['allocated_size']) == (3, 'large', 3 * MiB, 0)
    assert set(seg['blocks'][0]) == {'address', 'size', 'requested_size', 'state', 'frames'}
    assert [s['address'] for s in snap['segments']] == sorted(s['address'] for s in snap['segments'])
    for s in snap['segments']:
        addr = s['address']
        for b in s['blocks']:
            assert b['address'] == addr; addr += b['size']
    e = snap['device_traces'][0][0]
    assert set(e) == {'action', 'addr', 'size', 'stream', 'time_us', 'frames'}
    assert snap['allocator_settings']['max_split_size'] == 64 * MiB
    assert snap['allocator_settings']['roundup_power2_divisions']['1'] == 0
    viz = pytest.importorskip("torch.cuda._memory_viz")
    assert "segments: 3" in viz.segsum(snap)
    assert "free completed" in viz.trace(snap)
    pickle.loads(pickle.dumps(snap))


def test_history_ring_buffer_and_disable():
    a = make()
    a.record_memory_history(max_entries=3)
    for _ in range(5): a.free(a.malloc(1000))
    tr = a.snapshot()['device_traces'][0]
    assert [e['action'] for e in tr] == ['alloc', 'free_requested', 'free_completed']   # copied before 'snapshot'
    a.record_memory_history(None)
    a.free(a.malloc(1000))
    assert a.snapshot()['device_traces'] == [[]]
    with pytest.raises(RuntimeError, match="enabled must be"):
        a.record_memory_history("sometimes")


def test_memory_map_svg():
    a = make()
    ps = [a.malloc(s) for s in (1000, 3 * MiB, 4 * MiB)]
    a.free(ps[1])
    svg = memory_map_svg(a)
    assert svg.startswith('<svg') and svg.endswith('</svg>') and 'base64' not in svg
    assert svg.count('<rect') == 5 + 4                        # 5 blocks + legend


# ---------------------------------------------------------------- bad input

def test_bad_input_leaves_allocator_consistent():
    a = make()
    p = a.malloc(5000)
    before = a.memory_stats()
    assert a.malloc(0) == 0                                   # torch: a null pointer, nothing allocated
    a.free(0)                                                 # freeing nullptr is a no-op
    a.record_stream(0, 1)
    with pytest.raises(RuntimeError, match="non-negative"): a.malloc(-1)
    with pytest.raises(TypeError, match="size must be an int"): a.malloc(1.5)
    with pytest.raises(TypeError, match="stream must be an int"): a.malloc(10, stream="s")
    with pytest.raises(RuntimeError, match="invalid device pointer"): a.free(12345)
    with pytest.raises(RuntimeError, match="invalid device pointer"): a.free("p")
    with pytest.raises(RuntimeError, match="No allocated block"): a.record_stream(12345, 1)
    assert a.memory_stats() == before
    a.free(p)
    with pytest.raises(RuntimeError, match="invalid device pointer"): a.free(p)   # double free
    a.check_invariants()
    assert a.memory_stats()['allocation.all.current'] == 0


@pytest.mark.parametrize("conf,msg", [
    ("max_split_size_mb:", "Missing value"), ("max_split_size_mb:x", "expected a number"),
    ("roundup_power2_divisions:[3:2]", "intervals have to be power of 2"),
    ("roundup_power2_divisions:[4:2", "Expected ',' or ']'"),
    ("expandable_segments:maybe", "True or False"),
    ("backend:cudaMallocAsync", "not supported"), ("nonsense:1", "Unrecognized CachingAllocator option: nonsense"),
    (":1", "Unexpected ':'"), ("max_split_size_mb 256", "Expected ':'"), ("max_split_size_mb:256:1", "Expected ','")])
def test_malformed_settings(conf, msg):
    with pytest.raises(RuntimeError, match=msg.replace('[', r'\[').replace(']', r'\]')):
        DeviceCachingAllocator(SimulatedBackend(), conf=conf)


@pytest.mark.parametrize("conf,msg", [              # torch 2.13 raises ValueError, with these words
    ("max_split_size_mb:19", "max_split_size_mb too small, must be >= 20"),
    ("max_non_split_rounding_mb:2", "max_non_split_rounding_mb too small, must be >= 20"),
    ("garbage_collection_threshold:0", r"garbage_collect_threshold is invalid, set it in \(0.0, 1.0\)"),
    ("garbage_collection_threshold:1.2", r"garbage_collect_threshold is invalid, set it in \(0.0, 1.0\)"),
    ("roundup_power2_divisions:3", "For roundups, the divisions has to be power of 2 "),
    ("roundup_power2_divisions:[64:3]", "For roundups, the divisions has to be power of 2 or 0 to disable roundup")])
def test_settings_value_errors_as_torch(conf, msg):
    with pytest.raises(ValueError, match=msg):
        DeviceCachingAllocator(SimulatedBackend(), conf=conf)
    with pytest.raises(ValueError, match=msg):
        torch_ = pytest.importorskip("torch")
        torch_._C._accelerator_setAllocatorSettings(conf)


def test_settings_forms():
    c = AllocatorConfig(" max_split_size_mb : 256 , roundup_power2_divisions:[256:1,512:2,1024:4,>:8],release_lock_on_cudamalloc:True,expandable_segments:False")
    assert c.max_split_size == 256 * MiB and c.roundup_power2_divisions == [1] * 9 + [2] + [8] * 6
    assert c.release_lock_on_cudamalloc and not c.expandable_segments
    assert AllocatorConfig("").max_split_size == SIZE_MAX
    with pytest.raises(RuntimeError, match="must be a string"): AllocatorConfig(5)


# ---------------------------------------------------------------- module-level wrappers

def test_module_wrappers(monkeypatch, tmp_path):
    "The torch.cuda-style wrappers over simulated memory on every machine: two devices, with or without a real GPU."
    monkeypatch.setattr(ttc.caching_allocator, '_allocators', {})
    monkeypatch.setattr(ttc.caching_allocator, 'cupy_device_count', lambda: 0)   # no real device behind these allocators
    monkeypatch.setenv('PYTORCH_CUDA_ALLOC_CONF', 'max_split_size_mb:128')
    a = ttc.get_allocator(0)
    assert a.config.max_split_size == 128 * MiB and ttc.get_allocator('cuda:0') is a and ttc.get_allocator(None) is a
    assert isinstance(a.backend, SimulatedBackend)
    p = a.malloc(7 * MiB)
    assert ttc.memory_allocated() == 7 * MiB and ttc.memory_reserved(0) == 20 * MiB
    assert ttc.max_memory_allocated('cuda:0') == 7 * MiB and ttc.max_memory_reserved() == 20 * MiB
    assert ttc.memory_stats()['segment.all.current'] == 1
    assert "PyTorch CUDA memory summary, device ID 0" in ttc.memory_summary()
    assert ttc.memory_snapshot()[0]['total_size'] == 20 * MiB
    a.free(p); ttc.reset_peak_memory_stats(); ttc.empty_cache()
    assert ttc.memory_reserved() == 0 and ttc.max_memory_allocated() == 0
    b = ttc.get_allocator(1)
    assert b.device == 1 and b is not a
    ttc.caching_allocator._record_memory_history(device=1)
    b.malloc(100)
    path = tmp_path / "snap.pickle"
    ttc.caching_allocator._dump_snapshot(str(path))
    snap = pickle.load(open(path, 'rb'))
    assert len(snap['device_traces']) == 2 and snap['device_traces'][1][0]['action'] == 'segment_alloc'
    assert ttc.is_available() in (True, False) and ttc.device_count() >= 0
    with pytest.raises(ValueError): ttc.get_allocator('cpu')


# ---------------------------------------------------------------- stress: invariants after every operation

@pytest.mark.parametrize("conf", ["", "max_split_size_mb:64,roundup_power2_divisions:[1:4,>:2]",
                                  "expandable_segments:True", "expandable_segments:True,roundup_power2_divisions:4"])
def test_random_ops_keep_invariants(conf):
    n = 50_000 if 'expandable' not in conf else 25_000     # 100,000 checked operations, and 50,000 with expandable segments
    rng = random.Random(zlib.crc32(conf.encode()))          # the same operations on every run
    a = make(conf, capacity=1 << 30)
    sizes = [0, 1, 511, 512, 513, 4000, 70_000, MiB - 1, MiB, MiB + 1, 3 * MiB, 10 * MiB - 1, 10 * MiB,
             20 * MiB, 20 * MiB + 1, 40 * MiB, 70 * MiB, 130 * MiB]
    live, ooms = [], 0
    for step in range(n):
        r = rng.random()
        if live and (r < 0.48 or len(live) > 60):
            p, s = live.pop(rng.randrange(len(live)))
            if rng.random() < 0.1: a.record_stream(p, 1 - s)
            a.free(p)
        else:
            s = rng.randrange(2)
            try: live.append((a.malloc(rng.choice(sizes), stream=s), s))
            except OutOfMemoryError: ooms += 1
        if r < 0.02: a.backend.synchronize(rng.randrange(2))
        if r > 0.999: a.empty_cache()
        a.check_invariants()
    for p, _ in live: a.free(p)
    a.empty_cache()
    assert a.check_invariants() and a.memory_reserved() == 0 and not a.segments
    # an expandable segment whose first mapping ran out of memory keeps its (empty) address range, as in torch
    assert all(es.mapped_bytes() == 0 for es in a.expandable_segments_)
    st = a.memory_stats()
    assert st['num_ooms'] == ooms and st['allocated_bytes.all.current'] == 0


# ---------------------------------------------------------------- private pools (CUDA graphs, MemPool)

def test_capture_filters_by_stream_and_pools_stay_apart():
    a = make()
    a.begin_allocate_to_pool((1, 0), lambda s: s == 5)                  # a capture on stream 5
    g, d = a.malloc(3 * MiB, 5), a.malloc(3 * MiB, 0)                  # only the capturing stream goes to the pool
    a.end_allocate_to_pool((1, 0))
    segs = {s['address']: (s['segment_pool_id'], s['stream']) for s in a.snapshot()['segments']}
    assert segs[g] == ((1, 0), 5) and segs[d] == ((0, 0), 0)
    a.free(g)
    assert a.malloc(3 * MiB, 5) != g                                    # capture over: stream 5 no longer sees the pool's block
    a.begin_allocate_to_pool((1, 0), lambda s: s == 5)
    assert a.malloc(3 * MiB, 5) == g                                    # ... but a capture into the same pool does
    a.end_allocate_to_pool((1, 0))
    with pytest.raises(RuntimeError, match="not currently recording"): a.end_allocate_to_pool((1, 0))
    a.begin_allocate_to_pool((2, 0), lambda s: True)
    with pytest.raises(RuntimeError, match="already recording"): a.begin_allocate_to_pool((2, 0), lambda s: True)
    assert a.graph_pools[(2, 0)].use_count == 2
    a.check_invariants()


def test_release_pool_and_empty_cache_order():
    a = make()
    a.record_memory_history('all')
    a.create_or_incref_pool((0, 1))
    a.begin_allocate_to_pool((0, 1), lambda s: True)
    ps = [a.malloc(n) for n in (30 * MiB, 4000, 12 * MiB)]
    a.end_allocate_to_pool((0, 1)); a.release_pool((0, 1))
    ds = [a.malloc(n) for n in (12 * MiB, 4000)]
    for p in ps + ds: a.free(p)
    a.empty_cache()                                                     # the pool has a user: only the default pools go
    assert [(e['action'], e['size']) for e in a._trace if e['action'] == 'segment_free'] == [('segment_free', 12 * MiB), ('segment_free', 2 * MiB)]
    assert a.graph_pools[(0, 1)].cudaMalloc_count == 3
    a.release_pool((0, 1))
    a.record_memory_history(None); a.record_memory_history('all')
    a.empty_cache()                                                     # freeable now: its small segment first, then large ones
    assert [e['size'] for e in a._trace if e['action'] == 'segment_free'] == [2 * MiB, 12 * MiB, 30 * MiB]
    assert (0, 1) not in a.graph_pools and a.memory_reserved() == 0
    with pytest.raises(RuntimeError, match="releasePool"): a.release_pool((0, 1))


def test_no_event_queries_while_capturing():
    a = make()
    p = a.malloc(3 * MiB, 0)
    a.record_stream(p, 1)
    a.begin_allocate_to_pool((1, 0), lambda s: s == 2)
    a.free(p)                                                           # its event is recorded only once the capture is over
    assert a.needs_events_deferred and not any(a.cuda_events.values())
    a.malloc(1000, 2)
    assert not any(a.cuda_events.values())
    a.check_invariants()
    a.end_allocate_to_pool((1, 0))
    a.backend.synchronize()
    a.malloc(1000, 0)                                                   # process_events: the deferred events, recorded now
    assert not a.needs_events_deferred and any(a.cuda_events.values())
    a.backend.synchronize(); a.process_events()
    assert not a.pending_blocks
    a.check_invariants()


def test_empty_cache_during_capture_leaves_default_pools():
    a = make()
    d = a.malloc(3 * MiB); a.free(d)
    a.begin_allocate_to_pool((1, 0), lambda s: s == 3)
    a.empty_cache()
    assert a.memory_reserved() == 20 * MiB                              # torch skips the default pools while capturing
    a.end_allocate_to_pool((1, 0))
    a.empty_cache()
    assert a.memory_reserved() == 0


def test_oom_retry_frees_only_freeable_private_pools():
    a = make(capacity=64 * MiB)
    a.create_or_incref_pool((0, 1))
    a.begin_allocate_to_pool((0, 1), lambda s: True)
    p = a.malloc(30 * MiB)
    a.end_allocate_to_pool((0, 1)); a.release_pool((0, 1))
    a.free(p)
    with pytest.raises(OutOfMemoryError, match=r"Of the allocated memory 30\.00 MiB is allocated by PyTorch, with 30\.00 MiB allocated "
                       r"in private pools \(e\.g\., CUDA Graphs\), and 0 bytes is reserved by PyTorch but unallocated"):
        a.malloc(40 * MiB)                                              # the pool's cached 30 MiB is not the default pool's
    a.release_pool((0, 1))                                              # last user gone: a retry may take its segment back
    q = a.malloc(40 * MiB)
    assert a.num_alloc_retries == 2 and (0, 1) not in a.graph_pools and a.memory_reserved() == 40 * MiB
    a.free(q); a.check_invariants()


def test_expandable_segments_per_private_pool():
    a = make(conf="expandable_segments:True", capacity=1 << 30)
    a.create_or_incref_pool((0, 1))
    d = a.malloc(3 * MiB)
    a.begin_allocate_to_pool((0, 1), lambda s: True)
    p = a.malloc(3 * MiB)
    a.end_allocate_to_pool((0, 1))
    assert len(a.expandable_segments_) == 2 and abs(p - d) >= 1 << 30  # the pool maps pages of a range of its own
    a.free(p); a.free(d)
    a.release_pool((0, 1)); a.release_pool((0, 1)); a.empty_cache()
    assert a.memory_reserved() == 0 and (0, 1) not in a.graph_pools and not a.expandable_segments_
    a.check_invariants()


# ---------------------------------------------------------------- Note [Hot path]: the fast paths equal the plain path

@pytest.mark.parametrize("conf", ["", "max_split_size_mb:24", "roundup_power2_divisions:4", "expandable_segments:True",
                                  "garbage_collection_threshold:0.5"])
def test_hot_path_equals_plain_path(conf):
    "The same random operations on an allocator with Note [Hot path]'s fast paths and on one without: equal after every step."
    rng = random.Random(zlib.crc32(b'hot' + conf.encode()))
    hot, plain = make(conf, capacity=1 << 30), make(conf, capacity=1 << 30)
    plain.hot_path = False
    if 'garbage' in conf:
        for a in (hot, plain): a.set_per_process_memory_fraction(0.9)
    served = [0, 0]                                           # calls the fast paths served (malloc, free)
    def counted(name, i):
        f = getattr(hot, name)
        def g(*args):
            r = f(*args)
            served[i] += r is not None and r is not False
            return r
        setattr(hot, name, g)
    counted('_malloc_hot', 0); counted('_free_hot', 1)
    sizes = [1, 511, 512, 513, 4000, 70_000, MiB - 1, MiB, MiB + 1, 3 * MiB, 5 * MiB, 10 * MiB - 1, 10 * MiB,
             20 * MiB + 1, 40 * MiB, 60 * MiB]
    live = []
    for step in range(6000):
        r = rng.random()
        if live and (r < 0.47 or len(live) > 40):
            p, s = live.pop(rng.randrange(len(live)))
            if rng.random() < 0.08: hot.record_stream(p, 1 - s); plain.record_stream(p, 1 - s)
            hot.free(p); plain.free(p)
        else:
            size, s = rng.choice(sizes), rng.randrange(2)
            p = hot.malloc(size, s)
            assert plain.malloc(size, s) == p, step
            live.append((p, s))
        if r < 0.02:
            i = rng.randrange(2); hot.backend.synchronize(i); plain.backend.synchronize(i)
        if 0.300 < r < 0.303: hot.reset_peak_memory_stats(); plain.reset_peak_memory_stats()
        if 0.500 < r < 0.502: hot.reset_accumulated_memory_stats(); plain.reset_accumulated_memory_stats()
        if r > 0.998: hot.empty_cache(); plain.empty_cache()
        assert hot.memory_stats() == plain.memory_stats(), step
        if step % 50 == 0:
            assert hot.snapshot()['segments'] == plain.snapshot()['segments'], step
            assert [p.keys for p in hot._all_pools()] == [p.keys for p in plain._all_pools()], step
            assert ([(p.get_free_blocks_call_count, [b.gc_count_base for b in p.blocks]) for p in hot._all_pools()]
                    == [(p.get_free_blocks_call_count, [b.gc_count_base for b in p.blocks]) for p in plain._all_pools()]), step
            assert hot.check_invariants()
    assert served[0] > 250 and served[1] > 1000, served      # the fast paths served many calls under every setting
