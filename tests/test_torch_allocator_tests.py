"""PyTorch's own deterministic allocator tests (test/test_cuda.py: TestCuda, TestCudaMallocAsync, TestMemPool; and
test/test_cuda_expandable_segments.py, which runs them again under `expandable_segments:True`), ported to tinytensor's
simulated device with torch's assertion values. A tensor of n bytes becomes a raw block of n bytes
(`caching_allocator_alloc`), which takes the same path through the allocator; torch's `torch.cuda.X` is `tt.cuda.X`.
Each test keeps torch's name."""
import gc, json, random, threading
import pytest
torch = pytest.importorskip("torch")
import tinytensor as tt
import tinytensor.cuda as ttc
from tinytensor.cuda import caching_allocator as ca
import cuda_standin

MB = 1024 * 1024
pytestmark = pytest.mark.usefixtures('clean_slate')


@pytest.fixture
def sim():
    "make(conf, capacity): device 0 as a simulated GPU (the stand-in makes `current_device` work), state restored."
    state = cuda_standin.install(1)
    saved = (list(ca._OOM_OBSERVERS), list(ca._runtime_settings), list(ca._caching))
    def make(conf="", capacity=1 << 30):
        a = ca.DeviceCachingAllocator(ca.SimulatedBackend(capacity=capacity), conf=conf)
        ca.set_allocator(a, 0)
        return a
    try: yield make
    finally:
        gc.collect()
        ca.caching_allocator_enable(True)
        ca._OOM_OBSERVERS[:], ca._runtime_settings[:], ca._caching[:] = saved
        cuda_standin.uninstall(state)


EXPANDABLE = pytest.mark.parametrize("conf", ["", "expandable_segments:True"], ids=["native", "expandable"])
alloc, delete = ttc.caching_allocator_alloc, ttc.caching_allocator_delete


# ---------------------------------------------------------------- TestCuda

@EXPANDABLE
def test_memory_allocation(sim, conf):
    sim(conf)
    ttc.empty_cache()
    prev = ttc.memory_allocated()
    mem = alloc(1)
    assert ttc.memory_allocated() > prev
    delete(mem)
    assert ttc.memory_allocated() == prev


@EXPANDABLE
def test_memory_stats(sim, conf):
    sim(conf)
    ttc.empty_cache(); ttc.reset_peak_memory_stats(); ttc.reset_accumulated_memory_stats()
    prev_allocated, prev_reserved = ttc.memory_allocated(), ttc.memory_reserved()
    assert prev_allocated == ttc.max_memory_allocated() and prev_reserved == ttc.max_memory_reserved()
    prev_active = ttc.memory_stats()["active_bytes.all.current"]
    tmp = alloc(256 * 4)                                           # torch.randn(256, device="cuda")
    assert ttc.memory_stats()["active_bytes.all.current"] == 1024 + prev_active
    assert ttc.memory_stats()["active_bytes.all.freed"] == 0
    delete(tmp); ttc.empty_cache()
    assert ttc.memory_stats()["active_bytes.all.current"] == prev_active
    assert ttc.memory_stats()["active_bytes.all.freed"] == 1024
    ttc.reset_peak_memory_stats()
    assert ttc.max_memory_allocated() == prev_allocated and ttc.max_memory_reserved() == prev_reserved


@EXPANDABLE
def test_out_of_memory(sim, conf):
    sim(conf)
    tensor = alloc(1024 * 4)
    with pytest.raises(RuntimeError, match="Tried to allocate 800000000.00 GiB. GPU 0 has a total capacity of"):
        alloc(1024 * 1024 * 1024 * 800000000)
    with pytest.raises(RuntimeError, match="Tried to allocate more than 1EB memory"):
        alloc(1024 * 1024 * 1024 * 8000000000)
    delete(tensor)


@EXPANDABLE
def test_out_of_memory_retry(sim, conf):
    sim(conf, capacity=(1 << 30) + MB)                 # a device whose half is not a whole number of 2 MiB pages
    ttc.empty_cache()
    total_memory = ttc.get_device_properties(0).total_memory
    size = int(total_memory * 0.5)
    a = alloc(size)
    with pytest.raises(RuntimeError, match="Tried to allocate"):
        alloc(size)
    delete(a)
    b = alloc(size)
    delete(b)
    ttc.empty_cache(); ttc.reset_peak_memory_stats()


@EXPANDABLE
def test_set_per_process_memory_fraction(sim, conf):
    sim(conf, capacity=(1 << 30) + MB)
    orig = ttc.get_per_process_memory_fraction(0)
    ttc.reset_peak_memory_stats(0)
    with pytest.raises(TypeError, match="Invalid type"):
        ttc.set_per_process_memory_fraction(1)
    with pytest.raises(ValueError, match="Invalid fraction value"):
        ttc.set_per_process_memory_fraction(-0.1)
    with pytest.raises(ValueError, match="Invalid fraction value"):
        ttc.set_per_process_memory_fraction(2.0)
    tensor = alloc(1024 * 4)
    ttc.empty_cache()
    total_memory = ttc.get_device_properties(0).total_memory
    ttc.set_per_process_memory_fraction(0.5, 0)
    application = int(total_memory * 0.499) - ttc.max_memory_reserved()
    tmp = alloc(application)                                       # 0.499 is fine
    delete(tmp); ttc.empty_cache()
    with pytest.raises(RuntimeError, match="out of memory"):
        alloc(int(total_memory * 0.5))
    ttc.set_per_process_memory_fraction(orig, 0)
    delete(tensor)


def test_get_per_process_memory_fraction(sim):
    sim()
    init_fraction = ttc.get_per_process_memory_fraction()
    assert init_fraction == 1.0
    ttc.set_per_process_memory_fraction(1.0)
    assert ttc.get_per_process_memory_fraction() == 1.0
    ttc.set_per_process_memory_fraction(0.0)
    assert ttc.get_per_process_memory_fraction() == 0.0
    g = torch.Generator().manual_seed(0)
    for val in torch.rand(3, generator=g):                        # torch's assertEqual: float tolerance
        ttc.set_per_process_memory_fraction(float(val))
        assert ttc.get_per_process_memory_fraction() == pytest.approx(float(val), rel=1.3e-6, abs=1e-5)
    ttc.set_per_process_memory_fraction(init_fraction)


def test_caching_allocator_record_stream_oom(sim):
    "Blocks whose reuse waits on a record_stream are still freed by the OOM retry (torch issue #19219)."
    a = sim(capacity=1 << 30)
    stream = 0x1234
    y = alloc(40 * MB * 4, stream=stream)
    for _ in range(100):
        x = alloc(40 * MB * 4)
        a.record_stream(x, stream)                  # x.record_stream(stream): its reuse waits for `stream`
        delete(x)
    assert a.num_sync_all_streams > 0 and a.check_invariants()
    delete(y); ttc.empty_cache()


@pytest.mark.parametrize("max_split_size_mb_setting", [False, True])
def test_raises_oom(sim, max_split_size_mb_setting):
    sim()
    if max_split_size_mb_setting:
        ttc.memory._set_allocator_settings("max_split_size_mb:1024")
        ttc.memory.empty_cache()
    with pytest.raises(ttc.OutOfMemoryError):
        alloc(1024 * 1024 * 1024 * 1024 * 4)


def test_notifies_oom(sim):
    sim()
    x = False
    def cb(device, alloc_, device_alloc, device_free):
        nonlocal x
        x = True
    ttc._cuda_attach_out_of_memory_observer(cb)
    with pytest.raises(ttc.OutOfMemoryError):
        alloc(1024 * 1024 * 1024 * 1024 * 4)
    assert x


@EXPANDABLE
def test_allocator_fuzz(sim, conf):
    a = sim(conf, capacity=2 << 30)
    rng = random.Random(123)
    mem, total = [], 0
    def alloc_():
        nonlocal total
        b = rng.randrange(2 * 1024 * 1024 // 4, 20 * 1024 * 1024 // 4)
        mem.append((b, alloc(b * 4))); total += b
    def free_():
        nonlocal total
        b, p = mem.pop(rng.randrange(0, len(mem)))
        assert a.allocated_blocks[p].requested_size == b * 4      # the block is still the one handed out
        delete(p); total -= b
    choices = [alloc_, free_, ttc.memory.empty_cache]
    for _ in range(10000):
        while total >= 1024 * 1024 * 1024 / (4 * 10): free_()
        (action,) = rng.choices(choices, weights=[1, 1 if mem else 0, 0.1])
        action()
    assert a.check_invariants()


def test_allocator_settings(sim):
    def power2_div(size, div_factor):
        pow2 = 1
        while pow2 < size: pow2 = pow2 * 2
        if pow2 == size: return pow2
        step = pow2 / 2 / div_factor
        ret = pow2 / 2
        while ret < size: ret = ret + step
        return ret
    sim(capacity=8 << 30)
    ttc.memory.empty_cache()
    key_allocated, key_requested = "active_bytes.all.allocated", "requested_bytes.all.allocated"
    nelems = 21 * 1024 * 1024; nbytes = 4 * nelems
    nelems_big = 100 * 1024 * 1024; nbytes_big = 4 * nelems_big
    start_mem = ttc.memory_stats()[key_allocated]
    ttc.memory._set_allocator_settings("")
    x = alloc(nbytes)
    reg_mem = ttc.memory_stats()[key_allocated]
    start_requested = ttc.memory_stats()[key_requested]
    ttc.memory._set_allocator_settings("roundup_power2_divisions:4")
    y = alloc(nbytes)
    pow2_div4_mem = ttc.memory_stats()[key_allocated]
    current_requested = ttc.memory_stats()[key_requested]
    assert reg_mem - start_mem == nbytes
    assert pow2_div4_mem - reg_mem == power2_div(nbytes, 4)
    assert current_requested - start_requested == nbytes
    ttc.memory._set_allocator_settings("garbage_collection_threshold:0.5")
    ttc.memory._set_allocator_settings("garbage_collection_threshold:0.5,max_split_size_mb:40")
    ttc.memory.empty_cache()                                       # the power2 divisions are reset now
    start_mem = ttc.memory_stats()[key_allocated]
    z = alloc(nbytes)
    assert ttc.memory_stats()[key_allocated] - start_mem == nbytes
    ttc.memory.empty_cache()
    ttc.memory._set_allocator_settings(
        "garbage_collection_threshold:0.5,roundup_power2_divisions:[64:8,128:2,256:2,512:2,1024:1,>:1]")
    start_mem = ttc.memory_stats()[key_allocated]
    w = alloc(nbytes)
    assert ttc.memory_stats()[key_allocated] - start_mem == power2_div(nbytes, 8)
    ttc.memory.empty_cache()
    start_mem = ttc.memory_stats()[key_allocated]
    v = alloc(nbytes_big)
    assert ttc.memory_stats()[key_allocated] - start_mem == power2_div(nbytes_big, 2)
    ttc.memory.empty_cache()
    ttc.memory._set_allocator_settings("release_lock_on_cudamalloc:True")
    start_mem = ttc.memory_stats()[key_allocated]
    w2 = alloc(nbytes)
    assert ttc.memory_stats()[key_allocated] - start_mem == nbytes
    with pytest.raises(ValueError): ttc.memory._set_allocator_settings("garbage_collection_threshold:1.2")
    with pytest.raises(ValueError): ttc.memory._set_allocator_settings("max_split_size_mb:2")
    for p in (x, y, z, w, v, w2): delete(p)


def test_cachingAllocator_raw_alloc(sim):
    sim()
    def requested_bytes_alloc_stats(raw_alloc_size, stream):
        start = ttc.memory_stats()["requested_bytes.all.allocated"]
        mem_ptr = alloc(raw_alloc_size, stream=stream)
        finish = ttc.memory_stats()["requested_bytes.all.allocated"]
        delete(mem_ptr)
        return finish - start
    ttc.empty_cache()
    ttc.reset_accumulated_memory_stats(0)
    raw_alloc_size = 1024 * 1024
    try:
        ttc.caching_allocator_enable(False)
        assert requested_bytes_alloc_stats(raw_alloc_size, 0) == 0
    finally:
        ttc.caching_allocator_enable(True)
        assert requested_bytes_alloc_stats(raw_alloc_size, 0) == raw_alloc_size
    assert ca.get_allocator(0).backend.used == 2 * MB            # the raw block went back to the device


@EXPANDABLE
def test_max_split_expandable(sim, conf):
    sim(conf)
    orig = ttc.get_per_process_memory_fraction()
    ttc.memory.empty_cache()
    mb = 1024 * 1024
    _, all_memory = ttc.memory.mem_get_info()
    pre_reserved = ttc.memory_reserved()
    total_allowed = 120 * mb + pre_reserved
    fraction_allowed = total_allowed / all_memory
    assert int(round(fraction_allowed * all_memory)) == total_allowed
    ttc.memory.set_per_process_memory_fraction(fraction_allowed)
    def alloc_(n): return alloc(n * mb)
    ttc.memory._set_allocator_settings("expandable_segments:False,max_split_size_mb:40")
    a = alloc_(40)
    ttc.memory._set_allocator_settings("expandable_segments:True,max_split_size_mb:40")
    b = alloc_(40)
    ttc.memory._set_allocator_settings("expandable_segments:False,max_split_size_mb:40")
    c = alloc_(40)
    with pytest.raises(tt.OutOfMemoryError):
        alloc_(40)
    for p in (a, b, c): delete(p)
    delete(alloc_(120))                   # release_cached_blocks with expandable segments in the free list
    ttc.memory.set_per_process_memory_fraction(orig)


@EXPANDABLE
def test_garbage_collect_expandable(sim, conf):
    sim(conf)
    orig = ttc.get_per_process_memory_fraction(0)
    ttc.memory.empty_cache()
    mb = 1024 * 1024
    _, all_memory = ttc.memory.mem_get_info()
    total_allowed = 120 * mb + ttc.memory_reserved()
    fraction_allowed = total_allowed / all_memory
    assert fraction_allowed * all_memory == total_allowed
    ttc.memory.set_per_process_memory_fraction(fraction_allowed)
    ttc.memory._set_allocator_settings("expandable_segments:False,garbage_collection_threshold:0.5")
    a = alloc(40 * mb)
    ttc.memory._set_allocator_settings("expandable_segments:True,garbage_collection_threshold:0.5")
    b = alloc(40 * mb)
    delete(a); delete(b)
    delete(alloc(80 * mb))                                         # runs the garbage collection
    ttc.memory.set_per_process_memory_fraction(orig)


# ---------------------------------------------------------------- TestCudaMallocAsync: snapshots and history

@EXPANDABLE
def test_memory_snapshot(sim, conf):
    sim(conf, capacity=8 << 30)
    try:
        ttc.memory.empty_cache()
        ttc.memory._record_memory_history("state", stacks="python")
        first = alloc(2 * 311 * 411 * 4)                           # makes x the second block in a segment
        unused = alloc(310 * 410 * 4)
        x = alloc(311 * 411 * 4)
        tensors = [alloc(128 * 4) for _ in range(1000)]
        rng = random.Random(0)
        while tensors: delete(tensors.pop(rng.randint(0, len(tensors) - 1)))
        last = alloc(128 * 5 * 4)                                  # exercises the history trimming
        ss = ttc.memory._snapshot()
        found_it = False
        for seg in ss["segments"]:
            assert "frames" in seg
            for b in seg["blocks"]:
                if b["requested_size"] == 311 * 411 * 4:
                    assert "test_torch_allocator_tests" in b["frames"][0]["filename"]
                    found_it = True
                    assert x == b["address"]
        assert found_it
        delete(unused); delete(x)
        ttc.empty_cache()
        ss = ttc.memory._snapshot()
        assert ss["device_traces"][0][-1]["action"] in ("segment_free", "segment_unmap")
        delete(first); delete(last)
    finally:
        ttc.memory._record_memory_history(None)


@pytest.mark.parametrize("context,stacks", [("all", "all"), ("all", "python"), (None, "python")])
def test_memory_plots(sim, context, stacks):
    sim()
    try:
        ttc.memory.empty_cache()
        ttc.memory._record_memory_history("all", context=context, stacks=stacks)
        def run():
            x = alloc(128 * 128 * 4)
            y = alloc(128 * 128 * 4)                               # x * x + x * x: temporaries
            delete(y); delete(x)
        run()
        record_context = context is not None
        ss = ttc.memory._snapshot()
        svg = ca.memory_map_svg(ss)
        text = json.dumps(ss)
        assert record_context == ("test_memory_plots" in text)
        assert str(128 * 128 * 4) in text and svg.startswith('<svg')
    finally:
        ttc.memory._record_memory_history(None)


@pytest.mark.parametrize("context", ["alloc", "all", "state"])
def test_memory_plots_free_stack(sim, context):
    sim()
    try:
        ttc.memory.empty_cache()
        ttc.memory._record_memory_history(context=context)
        x = None
        def thealloc():
            nonlocal x
            x = alloc(3 * 4 * 4)
        def thefree():
            nonlocal x
            delete(x); x = None
        thealloc()
        thefree()
        ss = json.dumps(ttc.memory._snapshot())
        assert ("thefree" in ss) == (context == "all")
        assert ("thealloc" in ss) == (context != "state")
    finally:
        ttc.memory._record_memory_history(None)


def test_memory_plots_history_context(sim):
    sim()
    try:
        ttc.memory.empty_cache()
        x = None
        def should_capture1():
            nonlocal x
            x = alloc(4 * 4 * 4)
        def should_not_capture():
            nonlocal x
            x = alloc(3 * 4 * 4)
        def should_capture2():
            nonlocal x
            x = alloc(4 * 4 * 4)
        ttc.memory._record_memory_history(context="all", stacks="python")
        should_capture1()
        ttc.memory._record_memory_history(context=None)
        should_not_capture()
        ttc.memory._record_memory_history(context="all", stacks="python")
        should_capture2()
        ss = json.dumps(ttc.memory._snapshot())
        assert "should_capture1" in ss and "should_not_capture" not in ss and "should_capture2" in ss
    finally:
        ttc.memory._record_memory_history(None)


@pytest.mark.parametrize("context", ["alloc", "all", "state"])
def test_memory_plots_free_segment_stack(sim, context):
    sim()
    try:
        ttc.memory.empty_cache()
        ttc.memory._record_memory_history(context=context)
        x = alloc(3 * 4 * 4)
        delete(x)
        ttc.memory.empty_cache()
        ss = json.dumps(ttc.memory._snapshot())
        assert ("empty_cache" in ss) == (context == "all")
    finally:
        ttc.memory._record_memory_history(None)


@pytest.mark.parametrize("skip_actions", [["free_requested"], ["free_requested", "free_completed"], ["alloc"],
                                          ["segment_alloc", "segment_free"], [], None])
def test_memory_snapshot_skip_actions(sim, skip_actions):
    sim()
    try:
        ttc.memory.empty_cache()
        ttc.memory._record_memory_history(context="all", stacks="python", skip_actions=skip_actions)
        x = alloc(128 * 128 * 4)
        delete(x)
        ss = ttc.memory._snapshot()
        device_trace = ss["device_traces"][0]
        assert len(device_trace) > 0
        if skip_actions:
            all_actions = {event["action"] for event in device_trace}
            for sa in skip_actions: assert sa not in all_actions
            assert len(all_actions - set(skip_actions)) > 0
    finally:
        ttc.memory._record_memory_history(None)


# ---------------------------------------------------------------- TestMemPool

def _limited(additional_allowed_memory_in_mb):
    "TestMemPool._setup_mempool_limited_memory_test: cap the device at pre-reserved + n MiB."
    init_fraction = ttc.get_per_process_memory_fraction()
    ttc.memory.empty_cache()
    _, all_memory = ttc.memory.mem_get_info(0)
    total_allowed = additional_allowed_memory_in_mb * MB + ttc.memory_reserved(0)
    ttc.memory.set_per_process_memory_fraction(total_allowed / all_memory, 0)
    return init_fraction


def test_mempool_id(sim):
    sim()
    pool1 = ttc.graph_pool_handle()
    pool2 = ttc.MemPool().id
    pool3 = ttc.graph_pool_handle()                 # torch.accelerator.generate_graph_pool_handle()
    assert (pool1[0] == 0) == (pool2[0] == 0) and (pool1[0] == 0) == (pool3[0] == 0)
    assert pool2[1] - pool1[1] > 0 and pool3[1] - pool2[1] > 0


@EXPANDABLE
def test_mempool_empty_cache(sim, conf):
    sim(conf)
    ttc.empty_cache()
    pool = ttc.MemPool()
    x = alloc(1024 * 1024 * 4)
    with ttc.use_mem_pool(pool):
        y = alloc(1024 * 1024 * 4)
    delete(y); delete(x)
    del pool
    assert len(ttc.memory._snapshot()["segments"]) > 0


def test_mempool_with_allocator(sim):
    "torch's test without the pluggable allocator: the use counts and the pool's segments."
    sim()
    pool = ttc.MemPool()
    assert pool.allocator is None
    assert pool.use_count() == 1
    nelem_1mb = 1024 * 1024 // 4
    with ttc.use_mem_pool(pool):
        out_0 = alloc(nelem_1mb * 4)
        assert pool.use_count() == 2
    assert pool.use_count() == 1
    out_non_pool = alloc(nelem_1mb * 4)
    with ttc.use_mem_pool(pool):
        assert len(pool.snapshot()) == 1
        out_1 = alloc(nelem_1mb * 4)
        assert len(pool.snapshot()) == 1
        out_2 = alloc(nelem_1mb * 4)
        assert len(pool.snapshot()) == 2
    assert len(pool.snapshot()) == 2
    for p in (out_0, out_1, out_2, out_non_pool): delete(p)
    del pool
    assert ttc.memory_snapshot() and all(s['segment_pool_id'] == (0, 0) for s in ttc.memory_snapshot())


def test_mempool_limited_memory_with_allocator(sim):
    "torch's test with the caching allocator's own pools (no pluggable allocator): use_on_oom lends cached blocks."
    sim()
    pool_do_not_use = ttc.MemPool()
    pool_use = ttc.MemPool(use_on_oom=True)
    nelem_1mb = 1024 * 1024 // 4
    init_fraction = _limited(80)
    with ttc.use_mem_pool(pool_do_not_use):
        a = alloc(40 * nelem_1mb * 4)
    with ttc.use_mem_pool(pool_use):
        b = alloc(40 * nelem_1mb * 4)
    a_dataptr, b_dataptr = a, b
    with pytest.raises(tt.OutOfMemoryError):
        alloc(40 * nelem_1mb * 4)
    delete(a); delete(b)
    c = alloc(30 * nelem_1mb * 4)                 # falls back on pool_use
    c_dataptr = c
    with pytest.raises(tt.OutOfMemoryError):
        alloc(30 * nelem_1mb * 4)                 # pool_do_not_use is not lent
    delete(c)
    assert b_dataptr == c_dataptr
    with ttc.use_mem_pool(pool_use):
        e = alloc(20 * nelem_1mb * 4)
    e_dataptr = e
    delete(e)
    assert e_dataptr == c_dataptr
    del pool_use, pool_do_not_use
    ttc.memory.empty_cache()
    ttc.memory.set_per_process_memory_fraction(init_fraction)


def test_mempool_no_split(sim):
    sim()
    torch_empty = ttc.empty_cache
    torch_empty()
    pool_split = ttc.MemPool()
    pool_no_split = ttc.MemPool(no_split=True)
    nelem_1mb = 1024 * 1024 // 4
    with ttc.use_mem_pool(pool_split): a_split = alloc(4 * nelem_1mb * 4)
    with ttc.use_mem_pool(pool_no_split): a_no_split = alloc(4 * nelem_1mb * 4)
    with ttc.use_mem_pool(pool_split): b_split = alloc(4 * nelem_1mb * 4)
    with ttc.use_mem_pool(pool_no_split): b_no_split = alloc(4 * nelem_1mb * 4)
    assert len(pool_no_split.snapshot()) > len(pool_split.snapshot())
    for seg in pool_no_split.snapshot(): assert len(seg["blocks"]) == 1
    def count_blocks(pool): return sum(len(seg["blocks"]) for seg in pool.snapshot())
    assert count_blocks(pool_no_split) < count_blocks(pool_split)


def test_deleted_mempool_not_used_on_oom(sim):
    sim()
    nelem_1mb = 1024 * 1024 // 4
    init_fraction = _limited(40)
    for _ in range(10):
        pool_use_on_oom = ttc.MemPool(use_on_oom=True)
        with ttc.use_mem_pool(pool_use_on_oom):
            a = alloc(40 * nelem_1mb * 4)
        delete(a)
        del pool_use_on_oom
    new_pool_use_on_oom = ttc.MemPool(use_on_oom=True)
    with ttc.use_mem_pool(new_pool_use_on_oom):
        a = alloc(40 * nelem_1mb * 4)
    delete(a)
    b = alloc(20 * nelem_1mb * 4)                 # both fall back on the one live use_on_oom pool
    c = alloc(20 * nelem_1mb * 4)
    assert ca.get_allocator(0).use_on_oom_pools == [new_pool_use_on_oom.id]
    delete(b); delete(c)
    del new_pool_use_on_oom
    ttc.memory.empty_cache()
    ttc.memory.set_per_process_memory_fraction(init_fraction)


def test_mempool_multithread(sim):
    sim()
    pool_ids = []
    def create_mempool_and_make_active():
        pool = ttc.MemPool()
        pool_ids.extend([pool.id])
    threads = [threading.Thread(target=create_mempool_and_make_active) for _ in range(4)]
    for t in threads: t.start()
    for t in threads: t.join()
    assert len(set(pool_ids)) == 4


@EXPANDABLE
def test_mempool_emptycache_multithread(sim, conf):
    sim(conf)
    def my_function(pool):
        with ttc.use_mem_pool(pool):
            x = alloc(4 * 4)
            delete(x)
            ttc.empty_cache()
    pools = [ttc.MemPool() for _ in range(4)]
    threads = [threading.Thread(target=my_function, args=(pools[i],)) for i in range(4)]
    for t in threads: t.start()
    for t in threads: t.join()
    for p in pools: assert len(p.snapshot()) == 1, "Expected to have a single segment"


def test_nested_mempool(sim):
    sim()
    ttc.empty_cache()
    pool1, pool2, pool3 = ttc.MemPool(), ttc.MemPool(), ttc.MemPool()
    data = []
    nelem_1mb = 1024 * 1024 // 4
    def allocate_data(): data.append(alloc(nelem_1mb * 20 * 4))
    with ttc.use_mem_pool(pool1):
        allocate_data()
        with ttc.use_mem_pool(pool2):
            allocate_data()
            with ttc.use_mem_pool(pool3):
                allocate_data()
            allocate_data()
        allocate_data()
    assert len(ttc.memory.memory_snapshot(pool1.id)) == 2
    assert len(ttc.memory.memory_snapshot(pool2.id)) == 2
    assert len(ttc.memory.memory_snapshot(pool3.id)) == 1
    for p in data: delete(p)


def test_mempool_ctx_multithread(sim):
    sim()
    ttc.empty_cache()
    assert len(ttc.memory._snapshot()["segments"]) == 0
    nelem = 1024 * 1024
    trigger_alloc, done_allocation = threading.Event(), threading.Event()
    keep = []
    def main_thread_fn():
        pool = ttc.MemPool()
        keep.append(alloc(nelem))
        with ttc.use_mem_pool(pool):
            out = alloc(nelem)
            delete(out)
            trigger_alloc.set()
            done_allocation.wait()
        keep.append(pool)
    def side_thread_fn(segments):
        trigger_alloc.wait()
        keep.append(alloc(nelem))
        segments.append(ttc.memory._snapshot()["segments"])
        done_allocation.set()
    segments = []
    main_thread = threading.Thread(target=main_thread_fn)
    side_thread = threading.Thread(target=side_thread_fn, args=(segments,))
    main_thread.start(); side_thread.start()
    main_thread.join(timeout=10); side_thread.join(timeout=10)
    assert not main_thread.is_alive() and not side_thread.is_alive()
    assert len(segments) == 1 and len(segments[0]) == 2
    active = {}
    for s in segments[0]: active[s["segment_pool_id"]] = active.get(s["segment_pool_id"], 0) + s["active_size"]
    for k, v in active.items(): assert v == (2097152 if k == (0, 0) else 0)
    for p in keep:
        if isinstance(p, int): delete(p)
