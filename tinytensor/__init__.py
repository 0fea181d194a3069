"""PyTorch's tensor core, rebuilt in Python as a book you can run

Modules:

- `tinytensor.cuda.caching_allocator`: How PyTorch hands out GPU memory: `DeviceCachingAllocator` (`c10/cuda/CUDACachingAllocator.cpp`) rebuilt on a simulated device, rule by rule (pools, rounding, splitting, best fit, merging, streams, release and retry, garbage collection, expandable segments), with the statistics, snapshots and pictures torch gives of it.
- `tinytensor.cuda.hot_path`: Chapter 07's caching allocator made fast where it matters: the common malloc and free in one frame each, the statistics of an allocation counted in one go, and the replay of chapter 07a fed without detours. Each fast path is checked against the plain one.
- `tinytensor.cuda.replay`: Read a `torch.cuda.memory._dump_snapshot` pickle without torch, replay the program's allocations and frees through chapter 07's allocator under other settings, and compare peak memory, fragmentation and segment timelines side by side.
- `tinytensor.dispatch`: How one call finds its kernel: the key set of its arguments, the highest key first. The conjugate and negative bits are keys whose fallback materializes the values and calls again; the backend key picks the CPU or CUDA kernel; the dtype is the kernel's own business."""

__version__ = "0.1.0"

# The package namespace mirrors torch's: `tt.tensor`, `tt.float32`, `tt.Tensor`, ...
# (hand-written: nbdev exports modules, and this file only gathers them, in chapter order,
# so a later chapter's @patch of a Tensor method wins over an earlier one)
from .checks import *
from . import arg_binders        # chapter 13 fills chapter 00's `signature` hook before any chapter decorates a function
from .intrusive_ptr import *
from .allocator import *
from .storage import *
from .backends import *
from .dtypes import *
from .type_info import *               # chapter 04a: finfo, iinfo
from .tensor_impl import *
from .factories import *
from .pictures import *
from .printing import *
from .allocator import Device as device
from . import testing
from .parallel import *
from .memory_overlap import *
from .views import *
from .basic_indexing import *
from .view_pictures import *
from .more_views import *
from .indexing import *
from .joining import *
from . import cuda
from .cuda import OutOfMemoryError         # torch.OutOfMemoryError
from .serialization import save, load
from . import legacy_format         # fills save/load's hooks for torch's legacy format (08a)
from . import safetensors
from .dlpack import from_dlpack, _utils as utils   # utils.dlpack: torch.utils.dlpack's names (08c)
from .tensor_iterator import *
from . import dispatch               # chapter 06d: the dispatcher; routes the writers below
from .ops import *
from .reductions import *
from .norms import *                   # chapter 06c: linalg.vector_norm, norm
from .lean_paths import *              # chapters 10-11 fill the fast-path hooks of chapters 06a-06c
from .large_tensors import *
from .math_ops import *
from .pointwise_ops import *
from .scans import *
from .selection import *            # chapter 21's order statistics: mode, kthvalue, aminmax, quantile, isin
from .products import *
from .shape_ops import *
from .tensor_protocols import *
from .matmul_products import *
from .more_factories import *
from .indexing_ops import *
from .view_functions import *
from .random import *                # chapter 25: torch's CPU generator and the random factories

# Machinery chapters (10-19) fill the hooks the teaching chapters leave open
from .cuda import hot_path as _cuda_hot_path, invariants as _cuda_invariants   # chapter 12: the allocator's hot path
from . import fast_views             # chapter 15: the short paths of 05a and 05d

# chapter 13: numpy's names (`axis`, `keepdims`, `x1`, `x2`) for the plain functions and methods, once all are defined
arg_binders.accept_numpy_names(globals(), Tensor)
dispatch.route_writers()             # chapter 06d: the methods that write outside the TensorIterator
