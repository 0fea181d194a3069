"tinytensor.cuda: PyTorch's CUDA caching allocator over CuPy or a simulated device (chapters 07, 07a), CUDA tensors (07b) and kernels (07c)."
from .caching_allocator import (DeviceCachingAllocator, SimulatedBackend, CupyBackend, OutOfMemoryError, AllocatorConfig,
                                get_allocator, set_allocator, memory_stats, memory_allocated,
                                memory_reserved, max_memory_allocated, max_memory_reserved, reset_peak_memory_stats,
                                reset_accumulated_memory_stats, memory_summary, memory_snapshot, empty_cache,
                                set_per_process_memory_fraction, get_per_process_memory_fraction,
                                caching_allocator_alloc, caching_allocator_delete, caching_allocator_enable,
                                mem_get_info, get_device_properties, _set_allocator_settings,
                                _cuda_attach_out_of_memory_observer, _record_memory_history, _snapshot,
                                _dump_snapshot)
from . import replay                    # a callable module: replay(trace, conf) and replay.main(argv)
from .replay import load_snapshot
# CUDA tensors (chapter 07b): availability follows the registered CUDA backend (CuPy and a GPU, or the tests' stand-in)
from .tensors import (is_available, device_count, current_device, set_device, device, Stream, current_stream,
                      default_stream, stream, synchronize, CUDABackend, CupyCUDABackend, CUDAAllocator, MemPool, use_mem_pool,
                      graph_pool_handle)
from . import memory                    # torch.cuda.memory: the same functions under torch's module name
from . import kernels                   # bfloat16 payload kernels, vectorised and tiled float32 kernels (CuPy needed only to run them)
