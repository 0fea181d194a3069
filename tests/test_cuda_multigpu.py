"""PyTorch's deterministic allocator tests of test/test_cuda_multigpu.py (TestCudaMultiGPU), ported to two simulated
devices with torch's assertion values. As in test_torch_allocator_tests.py, a tensor of n floats becomes a raw block
of 4n bytes (`caching_allocator_alloc`, the same path through the device's allocator), freed when the last reference
to it goes, as a tensor's storage is; torch's `torch.cuda.X` is `tt.cuda.X`, `torch.device` is `tt.device`. Each test
keeps torch's name.

Not ported, with the reason:
* test_caching_pinned_memory_multi_gpu: the pinned host-memory caching allocator, which tinytensor does not have;
* test_cuda_memory_leak_detection: torch's test harness (`wrap_with_cuda_memory_check` asks the CUDA driver);
* the stream, event, copy, serialization, comm and grad-scaling tests: not the allocator (chapter 07b's streams are
  tested in test_cuda_ops.py);
* the "semi-random order" of test_memory_stats_multigpu draws its interleaving from torch's RNG; here the draws
  come from fixed seeds, so the test is deterministic and still covers uneven interleavings."""
import collections, gc, math, random
import pytest
torch = pytest.importorskip("torch")
import tinytensor as tt
import tinytensor.cuda as ttc
from tinytensor.cuda import caching_allocator as ca
import cuda_standin

pytestmark = pytest.mark.usefixtures('clean_slate')


@pytest.fixture
def two():
    """Two simulated devices: the stand-in gives `current_device` and `device` blocks; each device gets the allocator
    `get_allocator` makes for it (a simulated 80 GiB device, in its own range of addresses)."""
    state = cuda_standin.install(2)
    for i in range(2): ca.set_allocator(None, i)
    try: yield
    finally:
        gc.collect()
        ttc.set_device(0)
        cuda_standin.uninstall(state)


class FloatTensor:
    "`torch.cuda.FloatTensor(*size)` on the current device: 4 bytes a float, given back when the last reference goes."
    def __init__(self, *size):
        self.n, self.ptr = math.prod(size), 0                    # 0: nothing to give back if it fails
        self.ptr = ttc.caching_allocator_alloc(4 * self.n)        # device=None: the current device
    def numel(self): return self.n
    def __del__(self): ttc.caching_allocator_delete(self.ptr)


def _check_memory_stat_consistency():
    snapshot = ttc.memory_snapshot()
    expected_each_device = collections.defaultdict(lambda: collections.defaultdict(int))
    for segment in snapshot:
        expandable = segment["is_expandable"]
        expected = expected_each_device[segment["device"]]
        pool_str = segment["segment_type"] + "_pool"
        if not expandable:
            expected["segment.all.current"] += 1
            expected["segment." + pool_str + ".current"] += 1
        expected["allocated_bytes.all.current"] += segment["allocated_size"]
        expected["allocated_bytes." + pool_str + ".current"] += segment["allocated_size"]
        expected["reserved_bytes.all.current"] += segment["total_size"]
        expected["reserved_bytes." + pool_str + ".current"] += segment["total_size"]
        expected["active_bytes.all.current"] += segment["active_size"]
        expected["active_bytes." + pool_str + ".current"] += segment["active_size"]
        expected["requested_bytes.all.current"] += segment["requested_size"]
        expected["requested_bytes." + pool_str + ".current"] += segment["requested_size"]
        sum_requested = 0
        is_split = len(segment["blocks"]) > 1
        for block in segment["blocks"]:
            if block["state"] == "active_allocated":
                expected["allocation.all.current"] += 1
                expected["allocation." + pool_str + ".current"] += 1
            if block["state"].startswith("active_"):
                sum_requested += block["requested_size"]
                expected["active.all.current"] += 1
                expected["active." + pool_str + ".current"] += 1
            if block["state"] == "inactive" and is_split and not expandable:
                expected["inactive_split.all.current"] += 1
                expected["inactive_split." + pool_str + ".current"] += 1
                expected["inactive_split_bytes.all.current"] += block["size"]
                expected["inactive_split_bytes." + pool_str + ".current"] += block["size"]
        assert sum_requested == segment["requested_size"]
    for device, expected in expected_each_device.items():
        stats = ttc.memory_stats(device)
        for k, v in expected.items():
            assert v == stats[k], (device, k)
    return expected_each_device


def _test_memory_stats_generator(device=None, N=35, seed=0):
    if device is None:
        device = ttc.current_device()
    m0 = ttc.memory_allocated(device)
    last_m_arr = [ttc.memory_allocated(device)]
    max_m_arr = [ttc.max_memory_allocated(device)]
    last_r_arr = [ttc.memory_reserved(device)]
    max_r_arr = [ttc.max_memory_reserved(device)]

    def alloc(*size):
        with ttc.device(device):
            return FloatTensor(*size)

    def assert_change(comp=1, empty_cache=False, reset_peak=False):
        new_m = ttc.memory_allocated(device)
        new_max_m = ttc.max_memory_allocated(device)
        if comp > 0: assert new_m > last_m_arr[0]
        elif comp < 0: assert new_m < last_m_arr[0]
        else: assert new_m == last_m_arr[0]
        assert new_m <= new_max_m
        assert new_max_m >= max_m_arr[0]
        last_m_arr[0] = new_m
        max_m_arr[0] = new_max_m
        new_r = ttc.memory_reserved(device)
        new_max_r = ttc.max_memory_reserved(device)
        assert new_r <= new_max_r
        assert new_max_r >= max_r_arr[0]
        last_r_arr[0] = new_r
        max_r_arr[0] = new_max_r
        if empty_cache:
            num_sync_1 = ttc.memory_stats(device).get("num_sync_all_streams", -1)
            assert num_sync_1 >= 0
            num_alloc_1 = ttc.memory_stats(device).get("num_device_alloc", -1)
            assert num_alloc_1 >= (0 if new_m == 0 else 1)
            num_free_1 = ttc.memory_stats(device).get("num_device_free", -1)
            assert num_free_1 >= 0
            ttc.empty_cache()
            num_sync_2 = ttc.memory_stats(device).get("num_sync_all_streams", -1)
            assert num_sync_1 + 1 == num_sync_2
            num_alloc_2 = ttc.memory_stats(device).get("num_device_alloc", -1)
            assert num_alloc_2 >= num_alloc_1
            num_free_2 = ttc.memory_stats(device).get("num_device_free", -1)
            assert num_free_2 >= num_free_1
            new_r = ttc.memory_reserved(device)
            new_max_r = ttc.max_memory_reserved(device)
            assert new_r <= last_r_arr[0]
            assert new_r <= new_max_r
            assert new_max_r == max_r_arr[0]
            last_r_arr[0] = new_r
        if reset_peak:
            ttc.reset_peak_memory_stats(device)
            assert ttc.memory_allocated(device) == last_m_arr[0]
            assert ttc.max_memory_allocated(device) == last_m_arr[0]
            max_m_arr[0] = last_m_arr[0]
            assert ttc.memory_reserved(device) == last_r_arr[0]
            assert ttc.max_memory_reserved(device) == last_r_arr[0]
            max_r_arr[0] = last_r_arr[0]

    assert_change(0)
    assert_change(0, reset_peak=True)
    assert_change(0, empty_cache=True)
    assert_change(0, reset_peak=True)
    assert_change(0)
    yield
    tensors1 = [alloc(1), alloc(10, 20), alloc(200, 300, 2000)]
    m1 = ttc.memory_allocated(device)
    assert_change(1)
    yield
    tensors2 = []
    for i in range(1, int(N / 2) + 1):                            # small ones
        tensors2.append(alloc(i, i * 4))
        assert_change(1)
        yield
    for i in range(5, int(N / 2) + 5):                            # large ones
        tensors2.append(alloc(i, i * 7, i * 9, i * 11))
        assert_change(1, reset_peak=(i % 2 == 0))
        yield
    tensors2.append(alloc(0, 0, 0))
    assert_change(0)
    yield
    permute = []
    for i in random.Random(seed).sample(range(len(tensors2)), len(tensors2)):   # torch.randperm
        permute.append(tensors2[i])
        assert_change(0)
        yield
    del tensors2
    assert_change(0)
    yield
    tensors2 = permute
    assert_change(0)
    yield
    del permute
    assert_change(0, reset_peak=True)
    yield
    for i in range(int(N / 2)):
        x = tensors2[i].numel()
        del tensors2[i]
        assert_change(-x)                                         # in case that tensors2[i] is empty
        yield
    for i in range(2, int(2 * N / 3) + 2):
        tensors2.append(alloc(i, i * 3, i * 8))
        assert_change(1)
        yield
    del tensors2
    assert_change(-1, reset_peak=True)
    assert_change(0)
    assert ttc.memory_allocated(device) == m1
    yield True
    del tensors1
    assert_change(-1, reset_peak=True)
    assert ttc.memory_allocated(device) == m0
    assert_change(0, empty_cache=True)                            # test empty_cache and reset_peak
    assert_change(0, reset_peak=True)


def test_memory_stats(two):
    gc.collect()
    ttc.empty_cache()
    steps = 0
    for _ in _test_memory_stats_generator():
        _check_memory_stat_consistency()
        steps += 1
    assert steps > 80


@pytest.mark.parametrize("current", [0, 1])
def test_memory_stats_on_the_current_device(two, current):
    "test_memory_stats with another device current: the generator's `device=None` is the current one, not device 0."
    ttc.set_device(current)
    for _ in _test_memory_stats_generator():
        seen = _check_memory_stat_consistency()
        assert set(seen) <= {current}


def _advance(gen, end):
    if not end:
        try: next(gen)
        except StopIteration: end = True
    return end


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_memory_stats_multigpu(two, seed):
    # interlace
    ttc.empty_cache()
    gen0 = _test_memory_stats_generator(device="cuda:0", N=35)
    gen1 = _test_memory_stats_generator(device=tt.device("cuda:1"), N=35)
    end0 = end1 = False
    while not (end0 and end1):
        end0 = _advance(gen0, end0)
        end1 = _advance(gen1, end1)
        _check_memory_stat_consistency()
    # semi-random order (torch.LongTensor(1).random_(0, 3): here a seeded draw)
    draws = random.Random(seed)
    ttc.empty_cache()
    gen0 = _test_memory_stats_generator(device=0, N=35)
    gen1 = _test_memory_stats_generator(device=tt.device("cuda:1"), N=35)
    end0 = end1 = False
    while not (end0 and end1):
        end0 = _advance(gen0, end0)
        gen1_max_times = draws.randrange(3) if not end0 else math.inf
        t = 0
        while t < gen1_max_times and not end1:
            end1 = _advance(gen1, end1)
            t += 1


def test_mem_get_info(two):
    "mem_get_info, including when called for a different device."
    def _test(device):
        ttc.empty_cache()                                         # prevent reusing the allocated memory
        ttc.synchronize()
        before_free_bytes, before_available_bytes = ttc.mem_get_info(device)
        with ttc.device(device if not isinstance(device, str) or ':' in device else 0):
            t = FloatTensor(1024 * 1024 * 8)                      # noqa: F841 (torch.randn(8M, device=device))
        after_free_bytes, after_available_bytes = ttc.mem_get_info(device)
        assert after_free_bytes < before_free_bytes
        assert before_available_bytes == after_available_bytes
    _test(0)
    _test(tt.device("cuda"))
    _test(tt.device("cuda:0"))
    _test("cuda")
    _test("cuda:0")
    _test(1)
    _test(tt.device("cuda:1"))
    _test("cuda:1")


def test_cuda_device_memory_allocated(two):
    memory_allocated = ttc.memory_allocated
    device_count = ttc.device_count()
    current_alloc = [memory_allocated(idx) for idx in range(device_count)]
    with ttc.device("cuda:0"):
        _x = FloatTensor(10)                                      # torch.ones(10, device="cuda:0")
    assert memory_allocated(0) > current_alloc[0]
    assert all(memory_allocated(ttc.device(idx)) == current_alloc[idx] for idx in range(1, device_count))


def test_device_arguments_read_as_torch_reads_them(two):
    "torch.cuda._utils._get_device_index(device, optional=True), as every memory function reads its device."
    from torch.cuda._utils import _get_device_index
    with ttc.device(1):
        y = FloatTensor(10)
        for d in (None, "cuda", tt.device("cuda")):
            assert ttc.memory_allocated(d) == ttc.memory_allocated(1) == 512
        assert ttc.memory_allocated(0) == 0
    for d in (0, 1, "cuda:1"):
        assert ca._device_index(d) == _get_device_index(d, optional=True)
    assert ca._device_index(ttc.device(1)) == _get_device_index(torch.cuda.device(1), optional=True) == 1
    assert ca._device_index(tt.device("cuda:1")) == _get_device_index(torch.device("cuda:1"), optional=True)
    for d in ("cpu", tt.device("cpu")):
        with pytest.raises(ValueError, match="Expected a cuda device, but got: cpu"):
            ttc.memory_allocated(d)
    with pytest.raises(ValueError, match="Expected a cuda device, but got: cpu"):
        _get_device_index(torch.device("cpu"), optional=True)
    with pytest.raises(RuntimeError, match="invalid device ordinal"):
        with ttc.device(2): pass
    del y


def test_set_per_process_memory_fraction_per_device(two):
    "torch's test_set_per_process_memory_fraction (test_cuda.py) on device 1: device 0 keeps its whole memory."
    with ttc.device(1):
        tensor = FloatTensor(1024)
        ttc.empty_cache()
        total_memory = ttc.get_device_properties(1).total_memory
        ttc.set_per_process_memory_fraction(0.5, 1)
        assert (ttc.get_per_process_memory_fraction(1), ttc.get_per_process_memory_fraction(0)) == (0.5, 1.0)
        application = int(total_memory * 0.499) - ttc.max_memory_reserved()
        tmp = FloatTensor(application // 4)                       # 0.499 is fine
        del tmp
        ttc.empty_cache()
        with pytest.raises(RuntimeError, match="out of memory"):
            FloatTensor(int(total_memory * 0.5) // 4)
    with ttc.device(0):
        big = FloatTensor(int(total_memory * 0.5) // 4)           # device 0 has no cap
    assert ttc.memory_allocated(0) == total_memory // 2 and ttc.memory_allocated(1) == 4096
    del big, tensor
    ttc.set_per_process_memory_fraction(1.0, 1)
