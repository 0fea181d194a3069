"Hostile-argument fuzz of `as_strided` and `view`: never crash, never read outside the storage, agree with torch."
import random
import numpy as np
import pytest
torch = pytest.importorskip("torch")
import tinytensor as tt
from tinytensor.testing import test_tensor_eq as assert_tensor_eq

TORCH_TYPES = (RuntimeError, IndexError, TypeError, ValueError, OverflowError)
BIG = [2**31, 2**32, 2**62, 2**63 - 1, 2**63, 2**64, -2**63, -2**63 - 1, -1, -2, 10**30]

def hostile_int(r):
    c = r.random()
    if c < 0.55: return r.randint(0, 6)
    if c < 0.75: return r.choice(BIG)
    if c < 0.82: return r.randint(-3, -1)
    if c < 0.86: return np.int64(r.randint(0, 4))
    if c < 0.9: return r.choice([1.0, 2.5, float('nan')])
    if c < 0.93: return r.choice([True, False])
    if c < 0.96: return r.choice(['2', None, b'1'])
    return r.choice([[1], (2,), {}])

def int_list(r, k=None):
    k = r.randint(0, 4) if k is None else k
    c = r.random()
    if c < 0.04: return r.choice([None, 3, 'abc', 2.0])
    lst = [hostile_int(r) if r.random() < 0.5 else r.randint(0, 4) for _ in range(k)]
    return tuple(lst) if r.random() < 0.7 else lst

def safe_reach(t):
    "(elements reached, storage elements) of a torch result, computed without touching its memory."
    if t.numel() == 0: return 0, 0
    reach = t.storage_offset() + sum((s - 1) * st for s, st in zip(t.shape, t.stride())) + 1
    return reach, t.untyped_storage().nbytes() // t.element_size()

def call(f):
    try: return f(), None
    except Exception as e: return None, e

def check_pair(ra, ea, rb, eb, what, lenient=False):
    if ea is not None: assert isinstance(ea, TORCH_TYPES), f'{what}: unexpected {type(ea).__name__}: {ea}'
    if ra is not None:                       # tinytensor succeeded: the result must stay inside its storage
        n = ra.numel()
        if n:
            reach = ra.storage_offset() + sum((s - 1) * st for s, st in zip(ra.shape, ra.stride())) + 1
            assert min(ra.stride(), default=0) >= 0 and reach * ra.element_size() <= ra.untyped_storage().nbytes(), what
    if eb is not None:
        assert ea is not None, f'{what}: torch raised {type(eb).__name__}: {eb}, tinytensor did not'
        # argument-parser corners (bools or numpy ints inside lists) may differ in type; everything else must match
        assert type(ea) is type(eb) or isinstance(ea, TypeError) or isinstance(eb, TypeError), \
            f'{what}: torch {type(eb).__name__}: {eb}; tinytensor {type(ea).__name__}: {ea}'
        return 'both-raise'
    if ea is not None and 'overflow' in str(ea):   # exact (Python int) overflow checks where torch's int64 math wraps
        return 'tt-refuses-overflow'
    if ea is not None and lenient and isinstance(ea, TypeError):   # bools / numpy ints inside size lists: parser corners
        return 'parser-corner'
    if min(rb.shape, default=0) < 0:          # torch lets a negative size through when another is 0 (Note [Negative sizes])
        assert ea is not None, f'{what}: negative size accepted'
        return 'torch-negative-size'
    reach, have = safe_reach(rb)
    if reach > have:                         # torch's own int64 overflow let it through: refusing is right
        assert ea is not None, f'{what}: reaches outside the storage'
        return 'torch-overflow'
    assert ea is None, f'{what}: torch ok, tinytensor {type(ea).__name__}: {ea}'
    if rb.numel() > 10000 or max(rb.shape, default=0) > 10000 or max(rb.stride(), default=0) > 2**40:   # geometry only
        assert (tuple(ra.shape), ra.stride(), ra.storage_offset()) == (tuple(rb.shape), rb.stride(), rb.storage_offset()), what
        return 'both-ok-huge'
    assert_tensor_eq(ra, rb)
    return 'both-ok'

def fuzz_one(r):
    n = r.choice([0, 1, 5, 12, 24])
    base_a, base_b = tt.arange(float(n)), torch.arange(float(n))
    shape = r.choice([(n,), (2, n // 2) if n % 2 == 0 else (n,), (1, n, 1)])
    a, b = base_a.view(shape), base_b.view(shape)
    if r.random() < 0.5:
        size, stride = int_list(r), None
        k = len(size) if isinstance(size, (tuple, list)) and r.random() < 0.85 else r.randint(0, 4)
        stride = int_list(r, k)
        off = r.choice([None, None, 0, 1, n, n + 1, 2**62, 2**63, -1, 1.5, 'x'])
        args = (size, stride) if off is None and r.random() < 0.5 else (size, stride, off)
        what = f'as_strided{args} on {shape}'
        ra, ea = call(lambda: a.as_strided(*args))
        rb, eb = call(lambda: b.as_strided(*args))
    else:
        c = r.random()
        if c < 0.5: args = tuple(hostile_int(r) if r.random() < 0.3 else r.choice([-1, 1, 2, 3, n]) for _ in range(r.randint(0, 4)))
        elif c < 0.8: args = (int_list(r),)
        else: args = (r.choice([tt.float64, tt.int16, tt.uint8, 3.0, None, 'float32']),)
        bargs = tuple(getattr(torch, x.name) if isinstance(x, tt.dtype) else x for x in args)
        what = f'view{args} on {shape}'
        ra, ea = call(lambda: a.view(*args))
        rb, eb = call(lambda: b.view(*bargs))
    lenient = any(isinstance(x, (bool, np.integer)) for x in args) or any(
        isinstance(x, (list, tuple)) and any(isinstance(y, (bool, np.integer)) for y in x) for x in args)
    return check_pair(ra, ea, rb, eb, what, lenient)

@pytest.mark.parametrize('block', range(4))
def test_as_strided_view_fuzz(block):
    r = random.Random(1000 + block)
    outcomes = {}
    for _ in range(2500):
        k = fuzz_one(r)
        outcomes[k] = outcomes.get(k, 0) + 1
    assert outcomes.get('both-ok', 0) > 200 and outcomes.get('both-raise', 0) > 200, outcomes

def test_as_strided_bounds_examples():
    b = tt.arange(10.)
    with pytest.raises(RuntimeError, match='out of bounds for storage of size 40'): b.as_strided((3, 3), (4, 1))
    with pytest.raises(RuntimeError, match='Storage size calculation overflowed'): b.as_strided((2**62, 2**62), (2**62, 1))
    with pytest.raises(RuntimeError, match='out of bounds'): b.as_strided((2,), (1,), 2**62)
    with pytest.raises(TypeError): b.as_strided((2**64,), (1,))
    with pytest.raises(RuntimeError, match='Negative strides'): b.as_strided((0,), (-1,))
