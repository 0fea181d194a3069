"""The device seam and CUDA tensors, run twice: on the host-memory stand-in (every machine) and on a real GPU with CuPy
(`python -m pytest -m cuda`). The same test functions check both."""
import gc, io, pickle, zipfile
import numpy as np
import pytest
import torch
import tinytensor as tt
from tinytensor.cuda import caching_allocator as ca
from tinytensor.testing import test_tensor_eq
import cuda_standin
from ttgen import same


@pytest.fixture(params=['standin', pytest.param('cupy', marks=pytest.mark.cuda)])
def cuda(request):
    "Yields the number of CUDA devices; installs the host stand-in (and removes it) for the 'standin' run."
    if request.param == 'standin':
        state = cuda_standin.install(2)
        try: yield 2
        finally:
            gc.collect()
            cuda_standin.uninstall(state)
    else:
        if not cuda_standin.cupy_ok(): pytest.skip('needs CuPy and an NVIDIA GPU')
        yield tt.cuda.device_count()


def _on(cuda_n, x, i=0): return tt.tensor(x).to(f'cuda:{i}')


def test_availability_and_devices(cuda):
    assert tt.cuda.is_available() and tt.cuda.device_count() == cuda
    x = tt.empty(3, device='cuda')
    assert x.device == tt.device('cuda', tt.cuda.current_device()) and x.is_cuda and not x.is_cpu
    with pytest.raises(RuntimeError, match='invalid device ordinal'): tt.empty(1, device=f'cuda:{cuda}')
    if cuda > 1:
        y = tt.zeros(2, device='cuda:1')
        assert str(y.device) == 'cuda:1' and y.cpu().tolist() == [0., 0.]
        with tt.cuda.device(1): assert tt.empty(1, device='cuda').device == tt.device('cuda:1')
        assert tt.cuda.current_device() == 0


def test_storage_comes_from_the_caching_allocator(cuda):
    gc.collect()
    a0, r0 = tt.cuda.memory_allocated(0), tt.cuda.memory_reserved(0)
    x = tt.empty(1000, device='cuda:0')                         # 4000 bytes -> one 4096-byte block
    assert tt.cuda.memory_allocated(0) - a0 == 4096
    assert tt.cuda.memory_stats(0)['allocation.all.current'] >= 1
    ptr = x.untyped_storage().data_ptr()
    assert ptr in tt.cuda.get_allocator(0).allocated_blocks
    snap = tt.cuda.memory_snapshot()
    assert sum(s['total_size'] for s in snap if s['device'] == 0) == tt.cuda.memory_reserved(0)
    assert sum(b['size'] for s in snap if s['device'] == 0 for b in s['blocks'] if b['state'] == 'active_allocated') \
        == tt.cuda.memory_allocated(0)
    del x; gc.collect()
    assert tt.cuda.memory_allocated(0) == a0
    assert tt.cuda.memory_reserved(0) >= r0                    # cached, not released
    tt.cuda.empty_cache()
    if cuda_standin.HostCUDABackend is type(tt.backends.get_backend(tt.DeviceType.CUDA)):
        assert tt.cuda.memory_allocated(0) == 0 and tt.cuda.memory_reserved(0) == 0


def test_factories_and_values(cuda):
    assert tt.zeros(2, 3, device='cuda').cpu().tolist() == [[0.] * 3] * 2
    assert tt.ones(2, dtype=tt.int32, device='cuda').tolist() == [1, 1]
    assert tt.full((2,), 7.5, device='cuda').tolist() == [7.5, 7.5]
    assert tt.arange(5, device='cuda').tolist() == [0, 1, 2, 3, 4]
    t = tt.tensor([[1, 2], [3, 4]], dtype=tt.float64, device='cuda')
    assert t.dtype is tt.float64 and t.tolist() == [[1., 2.], [3., 4.]] and t[1, 0].item() == 3.0
    tt.manual_seed(3); a = tt.rand(4, device='cuda')
    tt.manual_seed(3); b = tt.rand(4)
    assert a.tolist() == b.tolist()
    assert bool(tt.tensor([1.], device='cuda')) is True


def test_ops_match_cpu(cuda):
    rng = np.random.default_rng(0)
    A, B = rng.standard_normal((5, 7), dtype=np.float32), rng.standard_normal((7, 5), dtype=np.float32)
    a, b = tt.from_numpy(A), tt.from_numpy(B)
    ac, bc = a.cuda(), b.cuda()
    for op, f in [('add', lambda x, y: x + y.T), ('sub', lambda x, y: x * 2 - y.T), ('gt', lambda x, y: (x > y.T)),
                  ('where', lambda x, y: tt.where(x > 0, x, y.T)), ('contiguous', lambda x, y: x.T.contiguous()),
                  ('to', lambda x, y: x.to(tt.int32)), ('clone', lambda x, y: x.clone()[1:, ::2]),
                  ('exp', lambda x, y: tt.exp(x) / (1 + y.T.abs())), ('sum', lambda x, y: x.sum(0)), ('sum', lambda x, y: x.sum(1)),
                  ('matmul', lambda x, y: x @ y)]:
        r, rc = f(a, b), f(ac, bc)
        assert rc.device == tt.device('cuda:0')
        m = same(rc.cpu(), r, op, strides=r.is_non_overlapping_and_dense(), gpu=True)   # Note [one comparison rule]
        assert m is None, (op, m)
    x = tt.arange(6, device='cuda').view(2, 3)
    y = x + 1.5                                               # int64 + Python float -> float32, CPU scalar allowed
    assert y.dtype is tt.float32 and y.tolist() == [[1.5, 2.5, 3.5], [4.5, 5.5, 6.5]]
    z = tt.zeros(2, 3, device='cuda'); z.add_(x); assert z.tolist() == [[0., 1., 2.], [3., 4., 5.]] and z._version == 1
    assert (x + tt.tensor(2)).tolist() == [[2, 3, 4], [5, 6, 7]]  # a 0-dim CPU tensor is allowed, as in torch


def test_copies_between_devices(cuda):
    src = tt.arange(12.).view(3, 4)
    dst = tt.zeros(4, 3, device='cuda')
    dst.copy_(src.T)                                            # non-contiguous CPU source
    assert dst.tolist() == src.T.tolist() and dst._version == 1
    back = tt.zeros(4, 3, dtype=tt.float64).T                   # non-contiguous CPU destination, with a cast
    back.copy_(dst.T)
    assert back.tolist() == src.tolist()
    row = tt.zeros(3, 4, device='cuda'); row.copy_(tt.tensor([1., 2., 3., 4.]))   # broadcast across devices
    assert row.tolist() == [[1., 2., 3., 4.]] * 3
    with pytest.raises(RuntimeError, match="doesn't match the broadcast shape"): tt.zeros(3, device='cuda').copy_(tt.ones(2, 3))
    x = tt.tensor([1., 2.], device='cuda')
    assert x.to('cuda') is x and x.cuda() is x and src.cpu() is src
    assert x.to('cpu').device == tt.device('cpu') and x.cpu().tolist() == [1., 2.]
    if cuda > 1:
        y = x.to('cuda:1'); assert y.device == tt.device('cuda:1') and y.tolist() == [1., 2.]
        z = tt.empty(2, device='cuda:0').copy_(y); assert z.tolist() == [1., 2.]


def test_mixed_device_errors(cuda):
    x, c = tt.ones(3, device='cuda'), tt.ones(3)
    msg = "Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu!"
    for f in [lambda: x + c, lambda: c + x, lambda: tt.mul(c, x), lambda: x.add_(c)]:
        with pytest.raises(RuntimeError) as e: f()
        assert str(e.value) == msg
    with pytest.raises(RuntimeError, match='same device'): tt.ones(2, 2, device='cuda') @ tt.ones(2, 2)
    with pytest.raises(TypeError) as e: x.numpy()
    assert str(e.value) == "can't convert cuda:0 device type tensor to numpy. Use Tensor.cpu() to copy the tensor to host memory first."
    r = tt.rand_like(x)                                         # torch has a CUDA kernel: drawn on the host here, then copied
    assert r.device == x.device and r.shape == x.shape and bool(((r >= 0) & (r < 1)).all())


def test_printing(cuda):
    x = tt.tensor([1., 2.5], device='cuda')
    assert repr(x) == "tensor([1.0000, 2.5000], device='cuda:0')"
    assert repr(x) == repr(torch.tensor([1., 2.5])).replace(')', ", device='cuda:0')")
    assert repr(tt.tensor([1, 2], dtype=tt.int32, device='cuda')) == "tensor([1, 2], device='cuda:0', dtype=tinytensor.int32)"


def test_streams_and_record_stream(cuda):
    d = tt.cuda.current_stream()
    assert d == tt.cuda.default_stream() and d.cuda_stream == 0
    s = tt.cuda.Stream()
    with tt.cuda.stream(s):
        assert tt.cuda.current_stream() == s
        x = tt.empty(256, device='cuda')
    assert tt.cuda.current_stream() == d
    alloc = tt.cuda.get_allocator(0)
    assert alloc.allocated_blocks[x.untyped_storage().data_ptr()].stream == s.cuda_stream   # filed under its stream
    y = tt.empty(256, device='cuda')
    y.record_stream(s)                                          # also used on s: freeing must wait for s
    before = tt.cuda.memory_allocated(0)
    del y; gc.collect()
    assert tt.cuda.memory_allocated(0) == before - 1024          # no longer allocated ...
    assert len(alloc.pending_blocks) == 1                       # ... but not reusable until s is done
    s.synchronize()
    tt.empty(1, device='cuda')                                  # the next malloc processes completed events
    assert len(alloc.pending_blocks) == 0
    with pytest.raises(RuntimeError, match='only supported for CUDA'): tt.ones(1).record_stream(s)
    tt.cuda.synchronize()


def test_save_load_location_tags(cuda, tmp_path):
    x = tt.arange(6.).view(2, 3).cuda()
    p = tmp_path / 'x.pt'
    tt.save({'x': x, 'y': tt.ones(2)}, p)
    with zipfile.ZipFile(p) as z:
        pkl = z.read([n for n in z.namelist() if n.endswith('data.pkl')][0])
    assert b'cuda:0' in pkl and b'cpu' in pkl
    t = torch.load(p, map_location='cpu', weights_only=True)    # torch reads our CUDA tags
    assert t['x'].tolist() == x.tolist()
    back = tt.load(p)                                           # saved location: cuda:0
    assert back['x'].device == tt.device('cuda:0') and back['x'].tolist() == x.tolist() and back['y'].device == tt.device('cpu')
    cpu = tt.load(p, map_location='cpu')
    assert cpu['x'].device == tt.device('cpu') and cpu['x'].tolist() == x.tolist()
    q = tmp_path / 'c.pt'
    tt.save(tt.ones(3), q)
    assert tt.load(q, map_location='cuda:0').device == tt.device('cuda:0')
    assert tt.load(q, map_location={'cpu': 'cuda:0'}).device == tt.device('cuda:0')


def test_dlpack_cuda_device(cuda):
    x = tt.arange(4.).cuda()
    assert x.__dlpack_device__() == (2, 0)                      # kDLCUDA, device 0
    y = tt.from_dlpack(x)
    assert y.device == tt.device('cuda:0') and y.data_ptr() == x.data_ptr() and y.tolist() == [0., 1., 2., 3.]


def test_memory_returns_to_zero(cuda):
    gc.collect()
    base = tt.cuda.memory_allocated(0)
    xs = [tt.ones(100, device='cuda') * i for i in range(10)]
    assert tt.cuda.memory_allocated(0) > base
    del xs; gc.collect()
    assert tt.cuda.memory_allocated(0) == base


@pytest.mark.cuda
def test_cupy_temporaries_are_counted():
    if not cuda_standin.cupy_ok(): pytest.skip('needs CuPy and an NVIDIA GPU')
    import cupy
    gc.collect()
    a0 = tt.cuda.memory_allocated(0)
    tt.empty(1, device='cuda')                                  # first CUDA storage: CuPy now allocates through us
    a = cupy.empty(1 << 20, dtype=cupy.uint8)
    assert tt.cuda.memory_allocated(0) >= a0 + (1 << 20)
    del a; gc.collect()
    assert tt.cuda.memory_allocated(0) == a0


def test_bfloat16(cuda):
    "On a GPU bfloat16 runs through chapter 07c's kernels on the uint16 payload (CuPy has no bfloat16)."
    x = tt.tensor([1.5, -2.25, 3.0], dtype=tt.bfloat16)
    xc = x.cuda()
    for f in [lambda t: t + t, lambda t: t * 2, lambda t: tt.exp(t), lambda t: -t, lambda t: t.to(tt.float32), lambda t: t.sum()]:
        test_tensor_eq(f(xc).cpu(), f(x))
    assert repr(xc) == "tensor([ 1.5000, -2.2500,  3.0000], device='cuda:0', dtype=tinytensor.bfloat16)"


def test_no_cuda_without_backend():
    "Without a CUDA backend (or with CuPy's but no GPU), CUDA requests raise torch's error."
    if tt.cuda.is_available(): pytest.skip('a CUDA device is present')
    with pytest.raises(AssertionError, match='CUDA'): tt.empty(2, device='cuda')
    with pytest.raises(AssertionError, match='CUDA'): tt.ones(2).cuda()


def test_mem_pool_and_use_mem_pool(cuda):
    a = ca.get_allocator(tt.cuda.current_device())
    pool = tt.cuda.MemPool()
    assert pool.id[0] == 0 and pool.id[1] > 0 and pool.use_count() == 1 and pool.snapshot() == []
    x = tt.empty(1000, device='cuda')                                   # the default pool
    with tt.cuda.use_mem_pool(pool):
        assert pool.use_count() == 2
        y = tt.empty(3 << 18, dtype=tt.float32, device='cuda')           # 3 MiB and 400 bytes, both from the pool
        z = tt.ones(100, device='cuda')
    assert pool.use_count() == 1
    mine = {b['address'] for s in pool.snapshot() for b in s['blocks'] if b['state'] == 'active_allocated'}
    assert {y.data_ptr(), z.data_ptr()} <= mine and x.data_ptr() not in mine
    assert all(s['segment_pool_id'] == pool.id for s in pool.snapshot())
    yp = y.data_ptr()
    del y, z
    w = tt.empty(3 << 18, dtype=tt.float32, device='cuda')              # outside the block: never the pool's cached block
    assert w.data_ptr() != yp
    with tt.cuda.use_mem_pool(pool):
        v = tt.empty(3 << 18, dtype=tt.float32, device='cuda')          # inside again: the pool's cached block
    assert v.data_ptr() == yp
    del v
    a.empty_cache()                                                     # the pool still has its user: its segments stay
    assert any(s['segment_pool_id'] == pool.id for s in a.snapshot()['segments'])
    pid = pool.id
    del pool; gc.collect()                                              # ~MemPool: release and empty the pool
    assert all(s['segment_pool_id'] != pid for s in a.snapshot()['segments']) and pid not in a.graph_pools
    a.check_invariants()


def test_pickle_round_trip_on_cuda(cuda):
    "A pickled CUDA tensor carries its bytes (copied to the host) and its device; it unpickles on that device, as torch's."
    x = tt.arange(6.).view(2, 3).cuda().T
    y = pickle.loads(pickle.dumps(x))
    assert y.device == tt.device('cuda:0') and y.stride() == (1, 3) and y.cpu().tolist() == x.cpu().tolist()
    assert y.untyped_storage().data_ptr() != x.untyped_storage().data_ptr()             # a copy, not the same memory
    s = pickle.loads(pickle.dumps(x.untyped_storage()))
    assert s.device == tt.device('cuda:0') and s.nbytes() == 24
