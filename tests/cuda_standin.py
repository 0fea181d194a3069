"""A host-memory stand-in for CUDA, for machines without a GPU (tests only).

"cuda" storages come from chapter 07's `DeviceCachingAllocator` over a backend that hands out real host memory,
and kernels compute on them with numpy. Everything above the memory (device indices, the allocator front,
statistics, streams and the allocator's stream rules, copies between devices, mixed-device errors, printing,
serialization tags) is the code a GPU runs."""
import ctypes, itertools
import numpy as np
from tinytensor.allocator import DeviceType, Device, alloc_cpu, free_cpu
from tinytensor.backends import register_backend
from tinytensor.storage import bytes_of
from tinytensor.cuda import caching_allocator as ca
from tinytensor.cuda.tensors import CUDABackend


class HostMemoryBackend(ca.SimulatedBackend):
    "Chapter 07's simulated backend with real host memory behind every segment (events complete on synchronize)."
    name = 'host'
    def __init__(self, capacity:int=1 << 30):
        super().__init__(capacity=capacity)
    def malloc(self, nbytes):
        n = (nbytes + self.alignment - 1) & -self.alignment
        if self.used + n > self.capacity: return None
        addr = alloc_cpu(n)
        self.used += n
        self._live[addr] = n
        return addr
    def free(self, addr):
        n = self._live.pop(addr)
        self.used -= n
        free_cpu(addr)


class HostCUDABackend(CUDABackend):
    "CUDA as seen by tinytensor, with host memory and numpy underneath."
    name, xp = 'host-standin', np
    def __init__(self, ndev:int=2):
        super().__init__()
        self.ndev, self._handles = ndev, itertools.count(0x1000, 0x10)
    def is_available(self): return True
    def device_count(self): return self.ndev
    def memory_backend(self, i): return HostMemoryBackend()
    def array(self, st, dtype, shape, strides, offset, write=False):
        if write: st.mutable_data()
        dp = st.data_ptr()
        if not dp.get(): return np.empty(shape, dtype.np)
        return np.ndarray(shape, dtype.np, bytes_of(dp, st.nbytes()), offset, strides)
    def memcpy(self, dst, dst_device, src, src_device, nbytes):
        if nbytes: ctypes.memmove(dst, src, nbytes)
    def new_stream(self, i): return None, next(self._handles)
    def synchronize(self, device=None):
        for i, a in list(ca._allocators.items()):
            if device is None or device.index == i: a.backend.synchronize(None)


def install(ndev:int=2):
    "Register the stand-in as the CUDA backend, with a fresh caching allocator per device; returns what `uninstall` restores."
    old = register_backend(DeviceType.CUDA, HostCUDABackend(ndev))
    olds = {i: ca._allocators.pop(i, None) for i in range(ndev)}
    for i in range(ndev): ca.set_allocator(ca.DeviceCachingAllocator(HostMemoryBackend(), device=i), i)
    return old, olds


def uninstall(state):
    "Put back the CUDA backend and allocators that were there before `install`."
    old, olds = state
    register_backend(DeviceType.CUDA, old)
    for i, a in olds.items(): ca.set_allocator(a, i)
