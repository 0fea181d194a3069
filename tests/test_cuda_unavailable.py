"Without CuPy or a GPU, CUDA degrades cleanly: nothing is available, every CUDA request raises torch's kind of error."
import pytest
import tinytensor as tt

pytestmark = [pytest.mark.skipif(tt.cuda.is_available(), reason='a CUDA device is present'),
              pytest.mark.usefixtures('clean_slate')]     # compares allocator statistics


def test_nothing_is_available():
    assert tt.cuda.is_available() is False
    assert tt.cuda.device_count() == 0
    with pytest.raises(AssertionError, match='CUDA'): tt.cuda.current_device()


@pytest.mark.parametrize('make', [lambda: tt.empty(3, device='cuda'), lambda: tt.zeros(2, 2, device='cuda:0'),
                                  lambda: tt.tensor([1.0], device='cuda'), lambda: tt.ones(1, device=tt.device('cuda', 1)),
                                  lambda: tt.arange(4, device='cuda')])
def test_cuda_tensors_raise(make):
    with pytest.raises(AssertionError, match='Torch not compiled with CUDA enabled'): make()


def test_cpu_and_meta_unaffected():
    assert tt.empty(3).device.type == 'cpu' and tt.empty(3, device='meta').device.type == 'meta'
    # the caching allocator's algorithm is still there, on the simulated backend
    a = tt.cuda.DeviceCachingAllocator(tt.cuda.SimulatedBackend(capacity=1 << 30))
    p = a.malloc(1000, stream=0)
    assert a.memory_stats()['allocated_bytes.all.current'] == 1024
    a.free(p)
    assert a.memory_stats()['allocated_bytes.all.current'] == 0
