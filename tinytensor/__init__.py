"""PyTorch's tensor core, rebuilt in Python as a book you can run

Modules:

- `tinytensor.large_tensors`: Where the milliseconds of a large op go: loops whose operands disagree on the fastest dim, staged through tiles (with OpenBLAS's transpose where numpy ships it), float16 widened in rounds, variance in blocks that stay in cache, and matrix products split over `get_num_threads()` threads.
- `tinytensor.lean_paths`: Why a small op costs microseconds in Python, and the lean builds and small-op fast paths that plug into chapter 06's plain algorithm through its hooks: `lean_unary`, `lean_binary`, `lean_reduction`, the plan caches, and what is left of an op's time afterwards.
- `tinytensor.tensor_iterator`: `TensorIteratorConfig` and `TensorIterator.build`, with PyTorch's steps in order (operands, overlap checks, broadcasting, type promotion, layout, coalescing), and `for_each`, which hands a kernel strided views."""

__version__ = "0.1.0"

# The package namespace mirrors torch's: `tt.tensor`, `tt.float32`, `tt.Tensor`, ...
# (hand-written: nbdev exports modules, and this file only gathers them, in chapter order,
# so a later chapter's @patch of a Tensor method wins over an earlier one)
from .checks import *
from .intrusive_ptr import *
from .allocator import *
from .storage import *
from .backends import *
from .dtypes import *
from .tensor_impl import *
from .factories import *
from .pictures import *
from .printing import *
from .allocator import Device as device
from . import testing
from .parallel import *
from .views import *
from .view_pictures import *
from .more_views import *
from .indexing import *
from .joining import *
from . import cuda
from .serialization import save, load
from . import safetensors
from .dlpack import from_dlpack
from .tensor_iterator import *
from .ops import *
from .reductions import *
from .lean_paths import *              # chapters 10-11 fill the fast-path hooks of chapters 06a-06c
from .large_tensors import *
from .math_ops import *
from .scans import *
from .products import *
from .shape_ops import *
