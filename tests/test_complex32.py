"""complex32 (chalf) against torch: the dtype, promotion with every dtype and with scalars, casts both ways, the ops
torch has CPU kernels for (values bit for bit: float16 bit patterns of both parts), torch's errors for the others,
numpy/DLPack/safetensors/torch zip, printing, and the once-per-process warning."""
import io, re, subprocess, sys, warnings
import numpy as np
import pytest
torch = pytest.importorskip("torch")
import tinytensor as tt
from ttgen import run_both, check_results

pytestmark = pytest.mark.filterwarnings('ignore:ComplexHalf support is experimental')

def lib_of(x): return tt if isinstance(x, tt.Tensor) else torch

_INT_OF = {2: 'int16', 4: 'int32', 8: 'int64'}

def bits(x, nan_sign=True):
    ("The bit patterns of a floating or complex tensor (complex: real, imag pairs), else its values, as a list; "
     "`nan_sign=False` makes every NaN the same pattern.")
    L = lib_of(x)
    if x.dtype.is_complex: x = L.view_as_real(x.resolve_conj())
    if not x.dtype.is_floating_point: return x.tolist()
    n = x.contiguous().view(getattr(L, _INT_OF[x.element_size()]))
    if not nan_sign: n = L.where(L.isnan(x), -1, n)
    return n.tolist()

def same_result(a, b, nan_sign=True):
    ("tinytensor result `a` equals torch's `b`: dtype, shape, strides and bits (or both raised the same type and "
     "words); `nan_sign=False` for arithmetic, where the sign of a NaN made from two NaNs is the compiler's choice.")
    if isinstance(b, Exception):
        assert isinstance(a, Exception), f'torch raised {type(b).__name__}: {b}; tinytensor gave {a!r}'
        assert type(a) is type(b) and str(a).split('\n')[0] == str(b).split('\n')[0], (a, b)
        return
    assert not isinstance(a, Exception), f'tinytensor raised {type(a).__name__}: {a}; torch gave {b!r}'
    if isinstance(b, (tuple, list)):
        assert len(a) == len(b)
        for x, y in zip(a, b): same_result(x, y, nan_sign)
        return
    if not isinstance(b, torch.Tensor):
        assert a == b or (a != a and b != b), (a, b)
        return
    assert a.dtype.name == str(b.dtype)[6:], (a.dtype, b.dtype)
    assert tuple(a.shape) == tuple(b.shape) and a.stride() == b.stride(), (a.shape, b.shape, a.stride(), b.stride())
    assert bits(a, nan_sign) == bits(b, nan_sign)

def both(f):
    "f(tt) and f(torch), run with warnings off; exceptions returned."
    return run_both(lambda: f(tt), lambda: f(torch))

# values with the corners: zeros of both signs, halves' extremes, inf, NaN, subnormals
PARTS = [0.0, -0.0, 1.0, -2.5, 0.1, 65504.0, -65504.0, 6e-8, 3.14159, float('inf'), float('-inf'), float('nan'),
         1e-4, -7.0, 1000.5, 0.333]

def sample(L, n=48, seed=0, shape=None):
    "A complex32 tensor of `n` values: the corner parts combined, then random float16s (the same in both libraries)."
    rng = np.random.default_rng(seed)
    re = [PARTS[i % len(PARTS)] for i in range(n)]
    im = [PARTS[(3 * i + 5) % len(PARTS)] for i in range(n)]
    half = rng.standard_normal((n, 2)).astype(np.float16)
    re = [r if i < 20 else float(half[i, 0]) * 4 for i, r in enumerate(re)]
    im = [r if i < 20 else float(half[i, 1]) * 4 for i, r in enumerate(im)]
    pairs = L.tensor([[a, b] for a, b in zip(re, im)], dtype=L.float16)
    x = L.view_as_complex(pairs)
    return x if shape is None else x.reshape(shape)

# ---------------------------------------------------------------- the dtype
def test_dtype_and_names():
    c = tt.complex32
    assert tt.chalf is c and c.itemsize == 4 and c.is_complex and not c.is_floating_point and c.is_signed
    assert repr(c) == 'tinytensor.complex32' and c.short == 'ComplexHalf'
    assert c.to_real() is tt.float16 and tt.float16.to_complex() is c and tt.bfloat16.to_complex() is tt.complex64
    assert c in tt.all_dtypes
    f, g = tt.finfo(c), torch.finfo(torch.chalf)
    assert (f.bits, f.eps, f.max, f.min, f.tiny, f.resolution, f.dtype) == (g.bits, g.eps, g.max, g.min, g.tiny,
                                                                          g.resolution, str(g.dtype))
    assert 'complex32' in tt.promotion_table_html()

@pytest.mark.parametrize('name', [d.name for d in tt.all_dtypes])
def test_promote_types_both_orders(name):
    for a, b in ((tt.complex32, getattr(tt, name)), (getattr(tt, name), tt.complex32)):
        ta, tb = getattr(torch, a.name), getattr(torch, b.name)
        r, s = run_both(lambda: tt.promote_types(a, b), lambda: torch.promote_types(ta, tb))
        if isinstance(s, Exception): assert type(r) is type(s) and str(r) == str(s), (r, s)
        else: assert r.name == str(s)[6:], (a, b, r, s)

SCALARS = [True, 2, -3, 1.5, 1j, 2 - 0.5j]

@pytest.mark.parametrize('name', [d.name for d in tt.all_dtypes if not d._kind or d is tt.complex32])
def test_result_type_with_complex32(name):
    "Tensors of each dtype with complex32 (both orders, 0-d and not), and complex32 with Python scalars."
    for shapes in (((2,), (2,)), ((2,), ()), ((), (2,))):
        def f(L):
            x = L.zeros(shapes[0], dtype=L.complex32)
            y = L.zeros(shapes[1], dtype=getattr(L, name))
            return (L.result_type(x, y), L.result_type(y, x))
        r, s = both(f)
        if isinstance(s, Exception): assert type(r) is type(s)
        else: assert [d.name for d in r] == [str(d)[6:] for d in s], (shapes, r, s)
    r, s = both(lambda L: [L.result_type(L.zeros(2, dtype=getattr(L, name)), v) for v in SCALARS])
    assert [d.name for d in r] == [str(d)[6:] for d in s]

def test_half_with_complex_numbers_gives_complex32():
    cases = {
        'py complex': lambda L: L.tensor([1., 2.], dtype=L.float16) + 1j,
        '0-d complex64': lambda L: L.tensor([1., 2.], dtype=L.float16) + L.tensor(0.5j),
        '0-d complex128': lambda L: L.tensor([1., 2.], dtype=L.float16) * L.tensor(0.5j, dtype=L.complex128),
        'complex32 + float32': lambda L: sample(L, 4) + L.ones(4),
        'complex32 + bfloat16': lambda L: sample(L, 4) + L.ones(4, dtype=L.bfloat16),
        'complex32 + int': lambda L: sample(L, 4) + L.arange(4),
        'complex32 * 0-d float64': lambda L: sample(L, 4) * L.tensor(3.0, dtype=L.float64),
        'where': lambda L: L.where(L.tensor([True, False]), L.ones(2, dtype=L.float16), 1j),
        'sub scalar': lambda L: L.tensor([1., 2.], dtype=L.float16) - (2 + 1j),
        'mul scalar': lambda L: L.tensor([1., 2.], dtype=L.float16) * (0.1 + 1e-4j),
    }
    for name, f in cases.items():
        r, s = both(f)
        same_result(r, s)

def test_default_float16_complex_leaf():
    def f(L):
        old = L.get_default_dtype(); L.set_default_dtype(L.float16)
        try: return (L.tensor(1j), L.tensor([1j, 2]), L.full((2,), 1j), L.ones(2) + 1j)
        finally: L.set_default_dtype(old)
    same_result(*both(f))
    def g(L):
        old = L.get_default_dtype(); L.set_default_dtype(L.bfloat16)
        try: return L.tensor([1j])
        finally: L.set_default_dtype(old)
    same_result(*both(g))

# ---------------------------------------------------------------- casts
CAST_DTYPES = [d.name for d in tt.all_dtypes if d is not tt.complex32]

@pytest.mark.parametrize('name', CAST_DTYPES)
def test_casts_both_ways(name):
    "complex32 -> every dtype and every dtype -> complex32, by to() and copy_(), values bit for bit."
    r, s = both(lambda L: sample(L).to(getattr(L, name)))
    if name.startswith('float8') or name == 'bfloat16':
        r = r.view(tt.uint8) if name.startswith('float8') else r
        s = s.view(torch.uint8) if name.startswith('float8') else s
    same_result(r, s)
    def back(L):
        src = L.tensor([0, 1, 2, 3, 100, 127], dtype=L.uint8).to(getattr(L, name)) if name != 'bool' else \
            L.tensor([True, False])
        if name.startswith('float') or name.startswith('complex') or name == 'bfloat16':
            src = sample(L, 24).to(getattr(L, name))
        out = L.empty(src.shape, dtype=L.complex32)
        return (src.to(L.complex32), out.copy_(src))
    same_result(*both(back))

def test_cast_rounding_and_overflow():
    "complex64/complex128/float64 into complex32: each part to nearest even, through float for doubles, inf beyond."
    vals = [1 + 2 ** -11, 1 + 2 ** -11 + 2 ** -40, 65519.0, 65520.0, 1e300, -1e-8, 2 ** -25, 3 * 2 ** -26]
    for src in ('complex64', 'complex128', 'float64', 'float32'):
        def f(L):
            v = [complex(a, -b) for a, b in zip(vals, vals[::-1])] if src.startswith('complex') else vals
            return L.tensor(v, dtype=getattr(L, src)).to(L.complex32)
        same_result(*both(f))
    same_result(*both(lambda L: L.tensor([1 + 2 ** -11 + 2 ** -40, 1e5j], dtype=L.complex32)))

# ---------------------------------------------------------------- ops with a kernel
def binary_cases():
    return {
        'add': lambda L, x, y: x + y, 'sub': lambda L, x, y: x - y, 'mul': lambda L, x, y: x * y,
        'add_alpha': lambda L, x, y: L.add(x, y, alpha=0.3 + 0.7j), 'sub_alpha': lambda L, x, y: L.sub(x, y, alpha=3),
        'add_scalar': lambda L, x, y: x + (0.1 - 2j), 'mul_scalar': lambda L, x, y: x * (1.5 + 1e-4j),
        'rsub': lambda L, x, y: 2 - x, 'eq': lambda L, x, y: x == y, 'ne': lambda L, x, y: x != y,
        'eq_self': lambda L, x, y: x == x, 'addcmul': lambda L, x, y: L.addcmul(x, y, x[::-1], value=0.3 + 0.7j),
        'addcmul_1': lambda L, x, y: L.addcmul(y, x, y),
        'where': lambda L, x, y: L.where(x.real > 0, x, y), 'where_scalar': lambda L, x, y: L.where(x.real > 0, x, 2j),
        'isclose': lambda L, x, y: L.isclose(x, y, rtol=0.5, atol=1.0),
        'isclose_nan': lambda L, x, y: L.isclose(x, x, equal_nan=True),
        'allclose': lambda L, x, y: L.allclose(x[:20], x[:20].clone()),
        'masked_fill': lambda L, x, y: x.masked_fill(x.imag > 0, 1 - 1j),
        'masked_fill_t': lambda L, x, y: x.masked_fill(x.imag > 0, L.tensor(0.5j)),
        'add_inplace': lambda L, x, y: x.clone().add_(y), 'mul_inplace': lambda L, x, y: x.clone().mul_(y),
        'mul_c64': lambda L, x, y: x * y.to(L.complex64),
        'add_broadcast': lambda L, x, y: x.reshape(6, 8)[:, :1] + y.reshape(6, 8)[:1],
    }

@pytest.mark.parametrize('op', list(binary_cases()))
def test_binary_ops(op):
    f = binary_cases()[op]
    same_result(*both(lambda L: f(L, sample(L, seed=1), sample(L, seed=2)[::-1].contiguous())), nan_sign=False)

def test_products_and_sums_over_many_values():
    "add, sub, mul, add with alpha, addcmul, abs and sgn over 20000 random float16 pairs: every result's bits as torch's."
    def mk(L, seed):
        g = torch.Generator().manual_seed(seed)
        v = (torch.randn(20000, 2, generator=g) * 3).half().tolist()
        return L.view_as_complex(L.tensor(v, dtype=L.float16))
    for name, f in [('mul', lambda L, x, y: x * y), ('add', lambda L, x, y: x + y), ('sub', lambda L, x, y: x - y),
                    ('alpha', lambda L, x, y: L.add(x, y, alpha=0.3 + 0.7j)), ('addcmul', None),
                    ('abs', lambda L, x, y: x.abs()), ('sgn', lambda L, x, y: x.sgn())]:
        if name == 'addcmul':
            r, s = both(lambda L: L.addcmul(mk(L, 0), mk(L, 1), mk(L, 2), value=0.3 + 0.7j))
        else: r, s = both(lambda L: f(L, mk(L, 0), mk(L, 1)))
        assert bits(r) == bits(s), name

UNARY = {
    'neg': lambda L, x: -x, 'abs': lambda L, x: x.abs(), 'conj_physical': lambda L, x: x.conj_physical(),
    'isnan': lambda L, x: x.isnan(), 'isfinite': lambda L, x: x.isfinite(), 'isinf': lambda L, x: x.isinf(),
    'isreal': lambda L, x: L.isreal(x), 'real': lambda L, x: x.real, 'imag': lambda L, x: x.imag,
    'view_as_real': lambda L, x: L.view_as_real(x), 'clone': lambda L, x: x.clone(),
    'contiguous_t': lambda L, x: x.reshape(6, 8).t().contiguous(), 'positive': lambda L, x: L.positive(x),
    'any': lambda L, x: (x.any(), x.reshape(6, 8).any(1)), 'all': lambda L, x: (x.all(), x.reshape(6, 8).all(0)),
    'nonzero': lambda L, x: x.nonzero(), 'count_nonzero': lambda L, x: L.count_nonzero(x),
    'roll': lambda L, x: x.reshape(6, 8).roll(2, 1), 'tril': lambda L, x: x.reshape(6, 8).tril(1),
    'triu': lambda L, x: x.reshape(6, 8).triu(-1), 'repeat': lambda L, x: x[:5].repeat(2, 3),
    'cat': lambda L, x: L.cat([x, x[:3]]), 'stack': lambda L, x: L.stack([x, x], 1),
    'index': lambda L, x: (x[3], x[2:9:3], x[L.tensor([0, 5, 5])], x[x.real > 0]),
    'index_put': lambda L, x: x.clone().index_put_((L.tensor([1, 4]),), L.tensor([1j, 2], dtype=L.complex32)),
    'setitem': lambda L, x: _setitem(x), 'index_select': lambda L, x: x.index_select(0, L.tensor([2, 2, 7])),
    'masked_select': lambda L, x: x.masked_select(x.imag < 0), 'fill_': lambda L, x: x.clone().fill_(3 - 4j),
    'fill_big': lambda L, x: x.clone().fill_(70000j), 'zero_': lambda L, x: x.clone().zero_(),
    'conj': lambda L, x: (x.conj(), x.conj().is_conj(), x.conj().resolve_conj(), x.conj().imag),
    'conj_add': lambda L, x: x.conj() + x, 'diag': lambda L, x: L.diag(x[:4]),
    'flatten_t': lambda L, x: x.reshape(6, 8).t().flatten(), 'chalf': lambda L, x: x.real.chalf(),
    'item_tolist': lambda L, x: (x[5].item(), x[:6].tolist()), 'sgn': lambda L, x: x.sgn(),
}

def _setitem(x):
    y = x.clone(); y[2] = 5 + 5j; y[4:6] = 1e5; return y

@pytest.mark.parametrize('op', list(UNARY))
def test_unary_and_data_movement(op):
    same_result(*both(lambda L: UNARY[op](L, sample(L))), nan_sign=op != 'conj_add')

def test_factories():
    same_result(*both(lambda L: (L.zeros(2, 3, dtype=L.chalf), L.ones(3, dtype=L.chalf), L.full((2,), 1 - 2j, dtype=L.chalf),
                                 L.full((1,), 0.1j, dtype=L.chalf), L.empty(4, dtype=L.chalf).shape,
                                 L.zeros_like(sample(L, 4)), L.ones_like(sample(L, 4)), L.full_like(sample(L, 4), 2j))))
    for v in (70000j, 1e39, 65519 + 0j):
        for n in (1, 2):
            same_result(*both(lambda L: L.full((n,), v, dtype=L.chalf)))

@pytest.mark.parametrize('fn', ['rand', 'randn'])
def test_random_bit_exact(fn):
    for n in (1, 7, 100):
        tt.manual_seed(11); torch.manual_seed(11)
        assert bits(getattr(tt, fn)(n, 3, dtype=tt.chalf)) == bits(getattr(torch, fn)(n, 3, dtype=torch.chalf))

def test_repr():
    x, y = sample(tt, 6), sample(torch, 6)
    assert repr(x).replace('tinytensor.', 'torch.') == repr(y)
    assert repr(tt.tensor([1 + 2j, 3 - 1j], dtype=tt.chalf)) == 'tensor([1.+2.j, 3.-1.j], dtype=tinytensor.complex32)'

# ---------------------------------------------------------------- ops without a kernel: torch's errors
REFUSED = {
    'div': lambda L, x: x / x, 'div_scalar': lambda L, x: x / 2, 'pow': lambda L, x: x ** 2,
    'square': lambda L, x: x.square(), 'sum': lambda L, x: x.sum(), 'mean': lambda L, x: x.mean(),
    'prod': lambda L, x: x.prod(), 'flip': lambda L, x: x.flip(0), 'rot90': lambda L, x: x.reshape(6, 8).rot90(),
    'arange': lambda L, x: L.arange(3, dtype=L.chalf), 'linspace': lambda L, x: L.linspace(0, 1, 3, dtype=L.chalf),
    'exp': lambda L, x: x.exp(), 'sqrt': lambda L, x: x.sqrt(), 'sin': lambda L, x: x.sin(),
    'cos': lambda L, x: x.cos(), 'log': lambda L, x: x.log(), 'tanh': lambda L, x: x.tanh(),
    'matmul_1d': lambda L, x: x @ x, 'mm': lambda L, x: x.reshape(6, 8) @ x.reshape(8, 6),
    'mv': lambda L, x: x.reshape(6, 8) @ x[:8], 'bmm': lambda L, x: x.reshape(2, 4, 6) @ x.reshape(2, 6, 4),
    'gather': lambda L, x: x.gather(0, L.tensor([0])), 'scatter': lambda L, x: x.scatter(0, L.tensor([0]), x),
    'scatter_value': lambda L, x: x.scatter(0, L.tensor([0]), 2.0), 'take': lambda L, x: x.take(L.tensor([1])),
    'put': lambda L, x: x.put(L.tensor([1]), x[:1]), 'equal': lambda L, x: L.equal(x, x),
    'reciprocal': lambda L, x: x.reciprocal(), 'angle': lambda L, x: x.angle(), 'cumsum': lambda L, x: x.cumsum(0),
    'cumprod': lambda L, x: x.cumprod(0), 'lerp': lambda L, x: x.lerp(x, 0.5),
    'lerp_half_weight': lambda L, x: L.lerp(x.real, x.real, L.tensor(0.5j)), 'unique': lambda L, x: x.unique(),
    'unique_consecutive': lambda L, x: x.unique_consecutive(), 'max': lambda L, x: x.max(),
    'sort': lambda L, x: x.sort(), 'lt': lambda L, x: x < x, 'eye': lambda L, x: L.eye(2, dtype=L.chalf),
    'trace': lambda L, x: x.reshape(6, 8).trace(), 'addcdiv': lambda L, x: L.addcdiv(x, x, x),
    'half_pow_complex': lambda L, x: L.pow(x.real, 2j), 'half_div_complex': lambda L, x: x.real / 1j,
    'scalar_pow': lambda L, x: L.pow(2.0 + 0j, x),
    'polar_half': lambda L, x: L.polar(x.real, x.real),
    'logical_and': lambda L, x: L.logical_and(x, x), 'remainder': lambda L, x: x % 2,
    'rsqrt': lambda L, x: x.rsqrt(), 'sigmoid': lambda L, x: x.sigmoid(), 'sinc': lambda L, x: L.sinc(x),
    'nan_to_num': lambda L, x: x.nan_to_num(), 'logical_not': lambda L, x: L.logical_not(x),
    'logsumexp': lambda L, x: x.logsumexp(0), 'median': lambda L, x: x.median(), 'nanmedian': lambda L, x: x.nanmedian(),
    'nanmedian_dim': lambda L, x: x.nanmedian(0), 'flip_inner': lambda L, x: x.reshape(6, 8).flip(1),
    'flip_strided': lambda L, x: x.reshape(6, 8)[:, ::2].flip(0), 'fliplr': lambda L, x: x.reshape(6, 8).fliplr(),
}

# Note [flip's copy paths]: these flips copy rows with memcpy in ATen, whatever the dtype
FLIPS = {'rows': lambda x: x.reshape(6, 8).flip(0), 'flipud': lambda x: x.reshape(6, 8).flipud(),
         'outer_two': lambda x: x.reshape(2, 3, 8).flip(0, 1), 'transposed': lambda x: x.reshape(6, 8).t().flip(1),
         'one_row': lambda x: x[:8].reshape(1, 8).flip(0), 'expanded': lambda x: x[:8].reshape(1, 8).expand(3, 8).flip(0)}

@pytest.mark.parametrize('case', list(FLIPS))
def test_flips_that_copy(case):
    same_result(*both(lambda L: FLIPS[case](sample(L))))

def test_norms_std_var():
    "Reductions torch has for complex32 (computed in complex<float>): the same float16 result."
    def mk(L):
        v = (torch.randn(1000, 2, generator=torch.Generator().manual_seed(0))).half().tolist()
        return L.view_as_complex(L.tensor(v, dtype=L.float16))
    for f in (lambda L, z: z.norm(), lambda L, z: L.linalg.vector_norm(z, 1), lambda L, z: L.linalg.vector_norm(z, 3),
              lambda L, z: L.linalg.vector_norm(z, float('inf')), lambda L, z: z.reshape(10, 100).norm(dim=1),
              lambda L, z: z.std(), lambda L, z: z.var(), lambda L, z: L.var_mean(z)):
        same_result(*both(lambda L: f(L, mk(L))))

@pytest.mark.parametrize('op', list(REFUSED))
def test_refusals(op):
    r, s = both(lambda L: REFUSED[op](L, sample(L)))
    assert isinstance(s, Exception), f'torch computes {op} for complex32 now: {s!r}'
    same_result(r, s)

def test_complex_of_halves():
    same_result(*both(lambda L: L.complex(sample(L).real, sample(L, seed=3).imag)))

# ---------------------------------------------------------------- numpy, DLPack, files
def test_numpy_refused():
    x = sample(tt, 4)
    for f in (lambda: x.numpy(), lambda: np.asarray(x)):
        with pytest.raises(TypeError, match='Got unsupported ScalarType ComplexHalf'): f()
    with pytest.raises(TypeError, match='Got unsupported ScalarType ComplexHalf'): sample(torch, 4).numpy()

def test_dlpack_both_ways():
    x, y = sample(tt), sample(torch)
    assert bits(torch.from_dlpack(x)) == bits(y) and torch.from_dlpack(x).dtype == torch.complex32
    same_result(tt.from_dlpack(y), y)
    same_result(tt.from_dlpack(y.__dlpack__()), y)
    same_result(tt.from_dlpack(y.reshape(6, 8).t()), y.reshape(6, 8).t())

def test_torch_zip_both_ways(tmp_path):
    obj = lambda L: {'a': sample(L), 'view': sample(L).reshape(6, 8).t()[1:], 'conj': sample(L, 6).conj()}
    torch.save(obj(torch), tmp_path / 't.pt')
    for wo in (True, False):
        got, ref = tt.load(tmp_path / 't.pt', weights_only=wo), obj(torch)
        for k in ref: same_result(got[k], ref[k])
        assert got['conj'].is_conj()
    tt.save(obj(tt), tmp_path / 'tt.pt')
    got, ref = torch.load(tmp_path / 'tt.pt', weights_only=True), obj(torch)
    for k in ref: same_result(obj(tt)[k], got[k]); assert bits(got[k]) == bits(ref[k])
    assert got['conj'].is_conj()

def test_safetensors_refuses_complex32(tmp_path):
    from tinytensor.safetensors import save_file, SafetensorError
    with pytest.raises(SafetensorError, match='Unknown dtype "complex32"'): save_file({'x': sample(tt, 4)}, tmp_path / 'c.st')

def test_warns_once_per_process():
    code = ("import warnings, tinytensor as tt\nwarnings.simplefilter('always')\n"
            "with warnings.catch_warnings(record=True) as w:\n"
            "    warnings.simplefilter('always')\n"
            "    tt.zeros(2); tt.ones(2, dtype=tt.chalf); tt.ones(2, dtype=tt.float16) + 1j; tt.zeros(3, dtype=tt.chalf)\n"
            "print(sum('ComplexHalf support is experimental' in str(x.message) for x in w))")
    import os
    env = dict(os.environ, PYTHONPATH=os.path.dirname(os.path.dirname(os.path.abspath(tt.__file__))))
    out = subprocess.run([sys.executable, '-c', code], capture_output=True, text=True, env=env)
    assert out.stdout.strip() == '1', out.stderr
