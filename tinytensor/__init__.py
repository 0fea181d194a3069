"PyTorch's tensor core, rebuilt in Python as a book you can run."
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
