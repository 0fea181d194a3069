"""Everyday ops on CUDA give what they give on the CPU, and stay on the device: on the strict CuPy stand-in (every
machine: each case failed there before its kernel went through the device's array namespace) and on a GPU with CuPy
(`python -m pytest -m cuda`)."""
import gc, math
import numpy as np
import pytest
import torch
import tinytensor as tt
import cuda_standin
from ttgen import same




rng = np.random.default_rng(0)
A = np.round(rng.standard_normal((4, 5)) * 2, 2).astype(np.float32)
B = np.round(rng.standard_normal((4, 5)) * 2, 2).astype(np.float32)
I = np.array([[0, 2, 1, 3, 0], [1, 0, 3, 2, 2]])
S = np.array([-1.5, 0.5, 2.0, 3.25], np.float32)
SPECIAL = [1., math.nan, -math.inf, math.inf, 0., -0., 2., math.nan, 3., -1., 5., 1e-38]

# name -> f(a, b, i, s): a, b float32 4x5, i int64 2x5 indices (values < 4), s sorted float32 (4,)
CASES = {
    # Python numbers in arithmetic (a 0-d numpy array reached CuPy's ufuncs)
    'scalar arithmetic': lambda a, b, i, s: a * 2 - b, 'add alpha': lambda a, b, i, s: a.add(b, alpha=2),
    'pow': lambda a, b, i, s: a.pow(2), 'int pow': lambda a, b, i, s: i.pow(3), 'remainder': lambda a, b, i, s: a.remainder(1.5),
    'sigmoid': lambda a, b, i, s: a.sigmoid(), 'square': lambda a, b, i, s: a.square(),
    'isclose': lambda a, b, i, s: tt.isclose(a, b, atol=0.5), 'rshift': lambda a, b, i, s: i >> 1,
    # host conversions inside kernels
    'erf': lambda a, b, i, s: tt.erf(a), 'erfc': lambda a, b, i, s: tt.erfc(a), 'lerp': lambda a, b, i, s: tt.lerp(a, b, 0.25),
    'logaddexp': lambda a, b, i, s: tt.logaddexp(a, b), 'logit': lambda a, b, i, s: tt.logit(a.sigmoid(), eps=0.1),
    'sinc': lambda a, b, i, s: tt.sinc(a), 'xlogy': lambda a, b, i, s: tt.xlogy(a, b.abs()), 'angle': lambda a, b, i, s: tt.angle(a),
    # reductions CuPy's ufuncs lack
    'max': lambda a, b, i, s: a.max(), 'min dim': lambda a, b, i, s: a.min(1).indices, 'amax': lambda a, b, i, s: tt.amax(a, 0),
    'all': lambda a, b, i, s: (a > -10).all(1), 'any': lambda a, b, i, s: (a > 3).any(), 'logsumexp': lambda a, b, i, s: a.logsumexp(1),
    'softmax': lambda a, b, i, s: a.softmax(0), 'norm inf': lambda a, b, i, s: a.norm(math.inf), 'equal': lambda a, b, i, s: tt.tensor(tt.equal(a, a), device=a.device),
    'empty sum': lambda a, b, i, s: a[:0].sum(), 'empty prod': lambda a, b, i, s: a[:0].prod(0), 'empty nansum': lambda a, b, i, s: a[:0].nansum(),
    # joining and shape
    'cat': lambda a, b, i, s: tt.cat([a, b], 1), 'stack': lambda a, b, i, s: tt.stack([a, b]), 'flip': lambda a, b, i, s: a.flip(0),
    'roll': lambda a, b, i, s: a.roll(2), 'tril': lambda a, b, i, s: a.tril(), 'triu_': lambda a, b, i, s: a.clone().triu_(1),
    'repeat': lambda a, b, i, s: a.repeat(2, 1), 'diff': lambda a, b, i, s: a.diff(dim=1),
    # indexing
    'mask getitem': lambda a, b, i, s: a[a > 0], 'mask setitem': lambda a, b, i, s: _set(a.clone(), a > 0, 0.0),
    'nonzero': lambda a, b, i, s: (a > 0).nonzero(), 'masked_fill': lambda a, b, i, s: a.masked_fill(a < 0, 1.5),
    'index_select': lambda a, b, i, s: a.index_select(0, i[0]), 'index_add': lambda a, b, i, s: a.index_add(0, i[1, :4], b[:4]),
    'index_put_': lambda a, b, i, s: a.clone().index_put_((i[0],), b[0], accumulate=True),
    'gather': lambda a, b, i, s: a.gather(0, i), 'scatter': lambda a, b, i, s: a.scatter(0, i, b[:2]),
    'scatter multiply': lambda a, b, i, s: a.scatter(0, i, b[:2], reduce='multiply'), 'take': lambda a, b, i, s: a.take(i),
    # reductions and scans
    'mean': lambda a, b, i, s: a.mean(0), 'std': lambda a, b, i, s: a.std(1), 'var': lambda a, b, i, s: a.var(),
    'argmax': lambda a, b, i, s: a.argmax(1), 'argmin': lambda a, b, i, s: a.argmin(), 'median': lambda a, b, i, s: a.median(1).values,
    'cumsum': lambda a, b, i, s: a.cumsum(1), 'cumprod': lambda a, b, i, s: a.cumprod(0), 'cummax': lambda a, b, i, s: a.cummax(1).indices,
    'logcumsumexp': lambda a, b, i, s: a.logcumsumexp(1),
    'sort': lambda a, b, i, s: a.sort(1).values, 'argsort': lambda a, b, i, s: a.argsort(0), 'topk': lambda a, b, i, s: a.topk(2).values,
    'topk ties and NaN': lambda a, b, i, s: tt.tensor(SPECIAL, device=a.device).topk(4).indices,   # the host replay of nth_element
    'nanmedian special': lambda a, b, i, s: tt.tensor(SPECIAL, device=a.device).nanmedian(),
    'rand_like shape': lambda a, b, i, s: tt.tensor(tt.rand_like(a.T).stride(), device=a.device),     # drawn on the host, copied
    'randint_like': lambda a, b, i, s: tt.tensor(tt.randint_like(a, 10).shape, device=a.device),
    'byte of negatives': lambda a, b, i, s: a.byte(),          # through int64 as c10's cast: -4.2 -> 252 (CuPy's cast gives 0)
    'unique': lambda a, b, i, s: i.unique(), 'unique counts': lambda a, b, i, s: i.unique(return_counts=True)[1],
    'searchsorted': lambda a, b, i, s: tt.searchsorted(s, a), 'bucketize number': lambda a, b, i, s: tt.bucketize(1.0, s),
    # products and the rest
    'addmm': lambda a, b, i, s: tt.addmm(a[:, :4], a[:, :3], b[:3, :4], beta=0.5, alpha=2), 'addmv': lambda a, b, i, s: tt.addmv(a[:, 0], a, b[0]),
    'baddbmm': lambda a, b, i, s: tt.baddbmm(a[None, :2, :2], a[None, :2], b.T[None, :, :2]),
    'addbmm': lambda a, b, i, s: tt.addbmm(a[:2, :2], a[None, :2], b.T[None, :, :2]),
    'cross': lambda a, b, i, s: tt.cross(a[:, :3], b[:, :3], dim=1), 'repeat_interleave': lambda a, b, i, s: a.repeat_interleave(2, 0),
    'where number': lambda a, b, i, s: tt.where(a > 0, a, 0.0), 'block_diag': lambda a, b, i, s: tt.block_diag(a[:2, :2], b[:1]),
    'matrix_power': lambda a, b, i, s: tt.matrix_power(a[:, :4], 0),
    # CuPy's float32 nextafter flushes subnormals (seen on an H200): Note [nextafter by the bits]
    # (the subnormal inputs are made on the host: CuPy's float32 multiply flushes them to zero, torch's does not)
    'nextafter': lambda a, b, i, s: tt.nextafter(tt.cat([(a.cpu().flatten() * 1e-38).to(a.device), a.flatten() * 0, a.flatten(), b[0]]),
                                                 tt.cat([b.flatten(), b.flatten(), a.flatten(), b[0]])),
    'nextafter float64': lambda a, b, i, s: tt.nextafter(a.double() * 1e-308, tt.tensor(0., dtype=tt.float64)), 'tensor of a tensor': lambda a, b, i, s: tt.tensor(a),
}

def _set(x, m, v):
    x[m] = v
    return x

# Note [one comparison rule] (ttgen.py): a case's op is the first word of its name, or this
_OP = {'scalar arithmetic': 'sub', 'int pow': 'pow', 'mask getitem': 'index', 'mask setitem': 'index_put', 'empty sum': 'sum',
       'empty prod': 'prod', 'empty nansum': 'nansum', 'byte of negatives': 'to', 'rshift': 'bitwise_right_shift'}

def _args(dev):
    return [tt.from_numpy(v.copy()).to(dev) for v in (A, B, I, S)]

@pytest.mark.parametrize('name', list(CASES))
def test_op_on_cuda_matches_cpu(cuda, name):
    f = CASES[name]
    r, rc = f(*_args('cpu')), f(*_args('cuda'))
    assert rc.device == tt.device('cuda:0'), f'{name}: the result is on {rc.device}'
    m = same(rc.cpu(), r, _OP.get(name, name.split()[0].rstrip('_')), strides=r.is_non_overlapping_and_dense(), gpu=True)
    assert m is None, f'{name}: {m}'


@pytest.mark.parametrize('shape', [(64, 64), (130, 68), (5, 7), (1000, 700), (3, 128), (67, 4)])
def test_transposed_operand_matches_cpu(cuda, shape):
    "`A op B.T` and `B.T op A`: on a GPU chapter 07c's tiles (float4 where leading dimensions and pointers allow, else scalar)."
    R, C = shape
    a = tt.from_numpy(rng.standard_normal((R, C)).astype(np.float32))
    b = tt.from_numpy(rng.standard_normal((C, R)).astype(np.float32))
    ac, bc = a.cuda(), b.cuda()
    padded = tt.zeros(R, C + 4).cuda()[:, :C].copy_(ac)                   # a leading dimension of C + 4
    shifted = tt.zeros(R * C + 1).cuda()[1:].view(R, C).copy_(ac)           # 4 bytes into its storage: not 16-aligned
    ops = (('add', lambda x, y: x + y), ('sub', lambda x, y: x - y), ('mul', lambda x, y: x * y), ('div', lambda x, y: x / y),
           ('maximum', tt.maximum), ('minimum', tt.minimum))
    for op, f in ops:
        want = f(a, b.T)
        for x in (ac, padded, shifted):
            assert same(f(x, bc.T).cpu(), want, op, gpu=True) is None, (op, x.stride(), x.storage_offset())
        assert same(f(bc.T, ac).cpu(), f(b.T, a), op, gpu=True) is None, op


@pytest.mark.parametrize('f', [lambda x, y: x @ y, lambda x, y: tt.mm(x, y), lambda x, y: tt.bmm(x[None], y[None]),
                               lambda x, y: tt.mv(x, y[:, 0]), lambda x, y: tt.dot(x[0], y[:, 0])])
def test_integer_products_raise_on_cuda(cuda, f):
    "cuBLAS has no integer products: torch on CUDA raises NotImplementedError (\"addmm_cuda\" not implemented for 'Long')."
    x, y = tt.ones(2, 3, dtype=tt.int64), tt.ones(3, 2, dtype=tt.int64)
    f(x, y)                                                     # the CPU computes them
    with pytest.raises(NotImplementedError, match="not implemented for 'Long'"): f(x.cuda(), y.cuda())


def test_half_with_a_0d_device_tensor(cuda):
    "Note [0-d operands on a device]: a 0-d CUDA operand is rounded to Half before the float math; a CPU one is not."
    h = tt.tensor([4.1, -1.55, 0.87], dtype=tt.float16)
    s = tt.tensor(0.9, dtype=tt.float64)
    x = h.numpy().astype(np.float32)
    rounded, kept = np.float32(np.float16(0.9)), np.float32(0.9)
    assert (h.cuda() / s.cuda()).cpu().numpy().tolist() == (x / rounded).astype(np.float16).tolist()
    assert (h.cuda() * s.cuda()).cpu().numpy().tolist() == (x * rounded).astype(np.float16).tolist()
    assert (h / s).numpy().tolist() == (x / kept).astype(np.float16).tolist()                  # the CPU keeps it in float
    assert (x / rounded).astype(np.float16).tolist() != (x / kept).astype(np.float16).tolist()  # the case tells them apart


def test_division_by_a_cpu_scalar_multiplies_by_its_reciprocal(cuda):
    "Note [Division by a CPU scalar on a device]: ATen's CUDA kernel computes x * (1 / b); the CPU divides."
    x = tt.tensor([1.71, 0.3, -2.2])
    inv = np.float32(1) / np.float32(-1.5)
    for b in (-1.5, tt.tensor(-1.5)):                            # a Python number, a 0-d CPU tensor
        assert (x.cuda() / b).cpu().numpy().tolist() == (x.numpy() * inv).tolist()
    assert (x.cuda() / tt.tensor(-1.5).cuda()).cpu().numpy().tolist() == (x.numpy() / np.float32(-1.5)).tolist()   # a device operand
    assert (x / -1.5).numpy().tolist() == (x.numpy() / np.float32(-1.5)).tolist()                                   # the CPU divides
    assert (x.numpy() * inv).tolist() != (x.numpy() / np.float32(-1.5)).tolist()                                   # the case tells them apart


def test_nonzero_strides_on_cuda(cuda):
    "torch's CUDA nonzero fills an (ndim, n) tensor and returns its transpose: strides (1, n), and (1, 1) when n is 0."
    x = tt.tensor([[0., 1.], [2., 0.], [3., 4.]])
    assert x.cuda().nonzero().stride() == (1, 4) == x.nonzero().stride()
    assert (x.cuda() > 9).nonzero().stride() == (1, 1) and (x > 9).nonzero().stride() == (1, 0)     # the CPU's (1, n)
    assert tuple((x.cuda() > 9).nonzero().shape) == (0, 2)
