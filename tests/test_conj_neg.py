"""The conjugate and negative bits (chapters 04b, 05c, 06a) against torch: which ops keep a bit, the values ops compute
from conjugate and negative views, in-place writes through them, and the refusals (numpy, view_as_real, view(dtype),
DLPack)."""
import io, warnings
import numpy as np
import pytest
torch = pytest.importorskip("torch")
import tinytensor as tt
from ttgen import LAYOUTS, layout, run_both, check_results, same
from tinytensor.tensor_impl import alias_with_sizes_and_strides

RNG_SEEDS = range(4)

def complex_pair(seed, shape=(3, 4), kind='contig', dt='complex64'):
    "The same strided complex tensor (nonzero imaginary parts) in tinytensor and torch."
    rng = np.random.default_rng(seed)
    sizes, strides, off, nstore = layout(rng, shape, kind)
    base = (np.round(rng.standard_normal(nstore), 2) + 1j * np.round(rng.standard_normal(nstore), 2)).astype(dt)
    a, b = tt.tensor(base), torch.tensor(base)
    return alias_with_sizes_and_strides(a, sizes, strides, off), torch.as_strided(b, sizes, strides, off)

def views(seed, kind='contig', shape=(3, 4)):
    "(name, tt view, torch view) with a math bit: a conjugate view and a negative (imag of conjugate) view."
    a, b = complex_pair(seed, shape, kind)
    return [('conj', a.conj(), b.conj()), ('neg', a.conj().imag, b.conj().imag),
            ('conj_t', a.conj().transpose(0, 1), b.conj().transpose(0, 1)),
            ('mH', a.mH, b.mH)]

def bits(t): return (t.is_conj(), t.is_neg())

def sm(a, b, op):
    "`same` for tensors that may carry math bits: the bits and the geometry, then the values (resolved on both sides)."
    if bits(a) != bits(b): return f'bits {bits(a)} != {bits(b)}'
    if (a.shape, a.stride(), a.storage_offset()) != (tuple(b.shape), b.stride(), b.storage_offset()):
        return f'geometry {(a.shape, a.stride(), a.storage_offset())} != {(b.shape, b.stride(), b.storage_offset())}'
    return same(a.resolve_conj().resolve_neg(), b.resolve_conj().resolve_neg(), op, strides=False)

def R(f):
    "`f` whose tensor result is resolved (ops on views with bits return plain tensors in torch; checked apart)."
    def g():
        r = f()
        return r.resolve_conj().resolve_neg() if hasattr(r, 'resolve_conj') else r
    return g

def test_bits_and_aliasing():
    a, b = complex_pair(0)
    for f in (lambda x: x.conj(), lambda x: x.conj().conj(), lambda x: x.mH, lambda x: x.adjoint(),
              lambda x: x.mT, lambda x: x.conj().imag, lambda x: x.conj().real, lambda x: x.imag,
              lambda x: x.conj().resolve_conj(), lambda x: x.conj().imag.resolve_neg(),
              lambda x: x.conj_physical(), lambda x: x.conj().conj_physical(), lambda x: x._neg_view(),
              lambda x: x._neg_view().conj().imag, lambda x: x.real.conj(), lambda x: x.conj().H):
        ra, rb = f(a), f(b)
        assert bits(ra) == bits(rb)
        assert (ra._base is not None) == (rb._base is not None)
        assert sm(ra, rb, 'clone') is None
    r = tt.arange(3.); assert r.conj() is r and a.resolve_conj() is a and tt.resolve_conj(a) is a
    a = a.clone(); c = a.conj(); assert c._base is a and c.data_ptr() == a.data_ptr() and c.conj()._base is a
    assert tt.is_conj(c) and tt.is_neg(c.imag) and not tt.is_neg(c)

def test_key_set_prints_as_torch():
    a, b = complex_pair(0)
    for f in (lambda x: x.conj(), lambda x: x.conj().imag):
        assert repr(f(a)._impl.key_set_) == str(torch._C._dispatch_keys(f(b)))

VIEW_OPS = {
    't': lambda x: x.t(), 'transpose': lambda x: x.transpose(0, 1), 'narrow': lambda x: x.narrow(0, 1, 2),
    'select': lambda x: x.select(0, 1), 'view': lambda x: x.view(-1), 'reshape': lambda x: x.reshape(-1),
    'flatten': lambda x: x.flatten(), 'unsqueeze': lambda x: x.unsqueeze(0), 'expand': lambda x: x.expand(2, 3, 4),
    'permute': lambda x: x.permute(1, 0), 'diagonal': lambda x: x.diagonal(), 'getitem': lambda x: x[1:, ::2],
    'contiguous': lambda x: x.contiguous(), 'detach': lambda x: x.detach(), 'unfold': lambda x: x.unfold(1, 2, 1),
    'as_strided': lambda x: x.as_strided((2,), (1,)), 'T': lambda x: x.T, 'unbind': lambda x: x.unbind()[1],
    'split': lambda x: x.split(1)[1], 'chunk': lambda x: x.chunk(2)[1], 'movedim': lambda x: x.movedim(0, 1),
    'squeeze': lambda x: x.unsqueeze(0).squeeze(0), 'clone': lambda x: x.clone(), 'flip': lambda x: x.flip(0),
    'roll': lambda x: x.roll(1), 'repeat': lambda x: x.repeat(1, 2), 'to': lambda x: x.to(torch.float64 if
        isinstance(x, torch.Tensor) and not x.is_complex() else (tt.complex128 if isinstance(x, tt.Tensor)
        and x.is_complex() else (torch.complex128 if isinstance(x, torch.Tensor) else tt.float64))),
    'type_as': lambda x: x.type_as(x), 'view_as': lambda x: x.view_as(x),
}

@pytest.mark.parametrize('name', sorted(VIEW_OPS))
def test_which_ops_keep_the_bits(name):
    for vname, a, b in views(1):
        ra, rb = run_both(lambda: VIEW_OPS[name](a), lambda: VIEW_OPS[name](b))
        if isinstance(rb, Exception):
            assert type(ra) is type(rb), (vname, ra, rb); continue
        assert bits(ra) == bits(rb), (vname, bits(ra), bits(rb))
        assert (ra._base is not None) == (rb._base is not None), vname
        assert sm(ra, rb, 'clone') is None, vname

UNARY = ['neg', 'abs', 'exp', 'sqrt', 'sin', 'tanh', 'angle', 'sgn', 'square', 'reciprocal', 'conj_physical',
         'isnan', 'isfinite', 'sum', 'prod', 'mean', 'cumsum', 'positive', 'log', 'sign', 'nonzero', 'any', 'all']
def _rule(op):
    # abs: tinytensor's complex abs differs from torch's by an ulp on plain tensors too
    return {'abs': 'exp', 'conj_physical': 'neg', 'sgn': 'div', 'positive': 'neg', 'any': 'eq', 'all': 'eq', 'nonzero': 'eq',
            'isfinite': 'eq', 'isnan': 'eq', 'sign': 'neg'}.get(op, op)

@pytest.mark.parametrize('op', UNARY)
@pytest.mark.parametrize('kind', ['contig', 'transpose', 'slice', 'expand'])
def test_unary_on_math_bit_views(op, kind):
    for seed in RNG_SEEDS:
        for vname, a, b in views(seed, kind):
            if op == 'sign' and a.is_complex(): continue
            ra, rb = run_both(lambda: getattr(a, op)(), lambda: getattr(b, op)())
            if not isinstance(rb, Exception) and not isinstance(ra, Exception) and hasattr(rb, 'is_conj'):
                assert bits(ra) == bits(rb)
            ra, rb = run_both(R(lambda: getattr(a, op)()), R(lambda: getattr(b, op)()))
            m = check_results(ra, rb, _rule(op), f'{op} of {vname} ({kind}, seed {seed})')
            assert m is None, m

BINARY = {'add': lambda x, y: x + y, 'sub': lambda x, y: x - y, 'mul': lambda x, y: x * y,
          'div': lambda x, y: x / y, 'eq': lambda x, y: x == y, 'ne': lambda x, y: x != y,
          'add_alpha': lambda x, y: x.add(y, alpha=2), 'mul_scalar': lambda x, y: x * 3,
          'rsub_scalar': lambda x, y: 1 - x, 'where': lambda x, y: (x.real > 0 if x.is_complex() else x > 0)}
RULES = {'add_alpha': 'add', 'mul_scalar': 'mul', 'rsub_scalar': 'sub', 'where': 'eq'}

@pytest.mark.parametrize('op', sorted(BINARY))
@pytest.mark.parametrize('kind', ['contig', 'transpose', 'slice'])
def test_binary_on_math_bit_views(op, kind):
    for seed in RNG_SEEDS:
        va, vb = views(seed, kind), views(seed + 10, kind)
        for (n1, a1, b1), (n2, a2, b2) in zip(va, vb):
            for (x, tx), (y, ty) in (((a1, b1), (a2, b2)), ((a1, b1), (a2.resolve_conj().resolve_neg(),
                                                                         b2.resolve_conj().resolve_neg()))):
                ra, rb = run_both(R(lambda: BINARY[op](x, y)), R(lambda: BINARY[op](tx, ty)))
                m = check_results(ra, rb, RULES.get(op, op), f'{op} of {n1}, {n2} ({kind}, seed {seed})')
                assert m is None, m

def test_products_and_joins_on_math_bit_views():
    for seed in RNG_SEEDS:
        (_, c, tc), (_, n, tn), _, (_, h, th) = views(seed, 'slice')
        cases = [('matmul', lambda a, b: a @ b.mT), ('mm_mH', lambda a, b: a.mm(b.mT.resolve_conj())),
                 ('cat', lambda a, b: (a.cat if False else None) or (tt.cat if isinstance(a, tt.Tensor) else torch.cat)([a, b])),
                 ('stack', lambda a, b: (tt.stack if isinstance(a, tt.Tensor) else torch.stack)([a, b])),
                 ('index_select', lambda a, b: a.index_select(0, (tt if isinstance(a, tt.Tensor) else torch).tensor([2, 0]))),
                 ('masked_select', lambda a, b: a.masked_select(((a.real if a.is_complex() else a) > 0)))]
        for name, f in cases:
            for x, tx in ((c, tc), (n, tn)):
                ra, rb = run_both(R(lambda: f(x, x)), R(lambda: f(tx, tx)))
                m = check_results(ra, rb, 'matmul' if name.startswith('m') and 'select' not in name else 'clone',
                                  f'{name} seed {seed}')
                assert m is None, m
        assert h.tolist() == th.tolist() and c.tolist() == tc.tolist() and n.tolist() == tn.tolist()
        assert c[0, 1].item() == tc[0, 1].item() and n[1, 0].item() == tn[1, 0].item()
        assert str(c) == str(tc).replace('torch', 'tinytensor') or repr(c).split('(')[1] == repr(tc).split('(')[1]

INPLACE = {'add_': lambda x: x.add_(1), 'mul_': lambda x: x.mul_(2), 'neg_': lambda x: x.neg_(),
           'copy_': lambda x: x.copy_(x.flip(0).resolve_conj().resolve_neg()),
           'conj_physical_': lambda x: x.conj_physical_(), 'zero_': lambda x: x.zero_(),
           'fill_': lambda x: x.fill_(2), 'sqrt_': lambda x: x.sqrt_()}

@pytest.mark.parametrize('op', sorted(INPLACE))
def test_inplace_through_math_bit_views(op):
    for seed in RNG_SEEDS:
        a, b = complex_pair(seed, (3, 4), 'slice')
        for mk in (lambda x: x.conj(), lambda x: x.conj().imag, lambda x: x.mH):
            ta, tb = mk(a), mk(b)
            ra, rb = run_both(lambda: INPLACE[op](ta), lambda: INPLACE[op](tb))
            if isinstance(rb, Exception):
                assert type(ra) is type(rb); continue
            assert ra is ta and bits(ta) == bits(tb)
            for x, y in ((ta, tb), (a, b)):
                m = sm(x, y, 'sqrt' if op == 'sqrt_' else 'add')
                assert m is None, (op, m)

def test_copy_into_a_conjugate_view_and_out():
    a, b = complex_pair(3)
    za, zb = tt.zeros(3, 4, dtype=tt.complex64).conj(), torch.zeros(3, 4, dtype=torch.complex64).conj()
    za.copy_(a); zb.copy_(b)
    assert za.is_conj() and sm(za, zb, 'clone') is None and sm(za.conj(), zb.conj(), 'clone') is None
    # a cast into a conjugate view (complex128 -> complex64)
    za.copy_(a.to(tt.complex128)); zb.copy_(b.to(torch.complex128))
    assert same(za.resolve_conj(), zb.resolve_conj(), 'clone') is None
    oa, ob = tt.zeros(3, 4, dtype=tt.complex64).conj(), torch.zeros(3, 4, dtype=torch.complex64).conj()
    tt.add(a, a.conj(), out=oa); torch.add(b, b.conj(), out=ob)
    assert same(oa.resolve_conj(), ob.resolve_conj(), 'add') is None

def test_errors_as_torch():
    a, b = complex_pair(0)
    cases = [lambda m, x: x.conj().numpy(), lambda m, x: x.conj().imag.numpy(),
             lambda m, x: m.view_as_real(x.conj()), lambda m, x: x.conj().view(m.float32),
             lambda m, x: x.conj().view(m.complex64), lambda m, x: x.conj().imag.view(m.int32),
             lambda m, x: x.conj().__dlpack__(), lambda m, x: np.asarray(x.conj()),
             lambda m, x: m.conj([1]), lambda m, x: m.is_neg(1)]
    for f in cases:
        ra, rb = run_both(lambda: f(tt, a), lambda: f(torch, b))
        assert isinstance(rb, Exception) and type(ra) is type(rb), (ra, rb)
        if isinstance(rb, RuntimeError) and 'numpy' in str(rb) or 'view_as_real' in str(rb) or 'view is not' in str(rb):
            assert str(ra) == str(rb)
    assert np.array_equal(a.conj().numpy(force=True), b.conj().numpy(force=True))
    assert np.array_equal(a.conj().resolve_conj().numpy(), b.conj().resolve_conj().numpy())

def test_save_and_load_keep_the_bits_both_ways(tmp_path):
    a, b = complex_pair(2)
    ta = {'c': a.conj(), 'n': a.clone().conj().imag, 'p': a.clone()}
    tb = {'c': b.conj(), 'n': b.clone().conj().imag, 'p': b.clone()}
    tt.save(ta, tmp_path / 'tt.pt'); torch.save(tb, tmp_path / 'th.pt')
    for loaded, ref in ((torch.load(tmp_path / 'tt.pt'), tb), (tt.load(tmp_path / 'th.pt'), tb),
                        (tt.load(tmp_path / 'tt.pt'), tb)):
        for k in ref:
            assert bits(loaded[k]) == bits(ref[k]), k
            assert loaded[k].tolist() == ref[k].tolist(), k

# ---------------------------------------------------------------- the dispatcher (chapter 06d)
from tinytensor.dispatch import dispatcher, dispatched_plain, compute_dispatch_key_set, highest_key, dispatch_path

WRITERS = {    # (library, view, z: a nonzero number of the view's kind, d: the view's dtype)
    'setitem_tensor_index': lambda L, c, z, d: c.__setitem__((L.tensor([0]),), 1 + z),
    'masked_fill_': lambda L, c, z, d: c.masked_fill_(L.tensor([[True, False, True, False]] * 3), 2 * z),
    'index_fill_': lambda L, c, z, d: c.index_fill_(0, L.tensor([1]), 3 * z),
    'index_copy_': lambda L, c, z, d: c.index_copy_(0, L.tensor([1]), L.ones(1, 4, dtype=d) * (1 - 2 * z)),
    'index_add_': lambda L, c, z, d: c.index_add_(0, L.tensor([2]), L.ones(1, 4, dtype=d) * z),
    'scatter_': lambda L, c, z, d: c.scatter_(0, L.tensor([[1, 0, 2, 0]]), L.ones(1, 4, dtype=d) * z),
    'scatter_add_': lambda L, c, z, d: c.scatter_add_(0, L.tensor([[1, 0, 2, 0]]), L.ones(1, 4, dtype=d) * z),
    'index_put_': lambda L, c, z, d: c.index_put_((L.tensor([0]),), L.tensor(5 * z)),
    'put_': lambda L, c, z, d: c.put_(L.tensor([0, 5]), L.tensor([5 * z, -1 + 0 * z])),
    'cumsum_': lambda L, c, z, d: c.cumsum_(0), 'cumprod_': lambda L, c, z, d: c.cumprod_(1),
    'masked_scatter_': lambda L, c, z, d: c.masked_scatter_(L.tensor([[True, False, True, False]] * 3),
                                                            L.arange(12).to(d) * z),
}

@pytest.mark.parametrize('op', sorted(WRITERS))
@pytest.mark.parametrize('view', ['conj', 'mH.mH', 'neg'])
def test_writers_through_the_dispatcher(op, view):
    "Writes outside the TensorIterator into a conjugate or negative view: the Conjugate/Negative fallback."
    for seed in RNG_SEEDS[:2]:
        a, b = complex_pair(seed, (3, 4), 'slice')
        z, da, db = 1j, tt.complex64, torch.complex64
        if view == 'neg':
            a, b = a.real.clone(), b.real.clone()
            ta, tb = a._neg_view(), b._neg_view()
            z, da, db = 1.5, tt.float32, torch.float32
        elif view == 'conj': ta, tb = a.conj(), b.conj()
        else: ta, tb = a.mH.mH.conj(), b.mH.mH.conj()
        f = WRITERS[op]
        ra, rb = run_both(lambda: f(tt, ta, z, da), lambda: f(torch, tb, z, db))
        if isinstance(rb, Exception):
            assert type(ra) is type(rb), (op, view, ra, rb); continue
        assert not isinstance(ra, Exception), (op, view, ra)
        assert bits(ta) == bits(tb), (op, view)
        for x, y in ((ta, tb), (a, b)):
            m = sm(x, y, 'cumprod' if op == 'cumprod_' else 'add')
            assert m is None, (op, view, m)

def test_dispatcher_fast_path_equals_plain_path():
    "Note [Dispatcher fast path]: a routed method called directly and through the dispatcher gives the same result."
    for name in ('masked_fill_', 'index_fill_', 'cumsum_', 'index_put_', 'scatter_'):
        args = {'masked_fill_': (tt.tensor([True, False, True]), 7.), 'index_fill_': (0, tt.tensor([1]), 7.),
                'cumsum_': (0,), 'index_put_': ((tt.tensor([2]),), tt.tensor(9.)),
                'scatter_': (0, tt.tensor([2, 0]), tt.tensor([5., 6.]))}[name]
        m = getattr(tt.Tensor, name)
        assert hasattr(m, '__wrapped_op__'), name
        x, y = tt.tensor([1., 2., 3.]), tt.tensor([1., 2., 3.])
        assert m(x, *args) is x and dispatched_plain(m, y, *args) is y
        assert x.tolist() == y.tolist() and x._version == y._version, name

def test_key_set_and_path():
    x, y = tt.tensor([1 + 2j]), tt.tensor([1j])
    assert compute_dispatch_key_set((x.conj(), [y]), {}) == {'CPU', 'Conjugate'}
    assert highest_key(compute_dispatch_key_set((x.conj().imag, x.conj()), {})) == 'Negative'
    assert dispatch_path((x.conj().imag, x.conj())) == ['Negative', 'Conjugate', 'CPU']
    assert dispatch_path((x, y)) == ['CPU'] and dispatch_path((tt.empty(1, device='meta'),)) == ['Meta']
    # a backend key without a kernel: torch's NotImplementedError
    op = dispatcher.register_op('test_cpu_only')
    op.impl('CPU', lambda t: t)
    try:
        with pytest.raises(NotImplementedError, match="from the 'Meta' backend"): op(tt.empty(1, device='meta'))
        assert op(x.conj()).is_conj() is False and op(x.conj()).tolist() == [1 - 2j]
    finally: del dispatcher.operators['test_cpu_only']

def test_cuda_paths_on_the_standin():
    "The same on the CUDA stand-in (chapter 07b's code over host memory): the backend key is CUDA, the bits behave."
    import cuda_standin
    st = cuda_standin.install(1)
    try:
        a, b = complex_pair(5, (3, 4), 'slice')
        x = a.cuda()
        assert dispatch_path((x.conj(), x)) == ['Conjugate', 'CUDA']
        cases = [lambda t: t.conj() + t, lambda t: t.conj().imag * 2, lambda t: t.mH.sum(0),
                 lambda t: t.conj().resolve_conj(), lambda t: t.conj().clone(), lambda t: t.conj()[1]]
        for f in cases:
            r, rb = f(x), f(b)
            assert bits(r) == bits(rb)
            # values (a.cuda() is dense, so strides differ from b's)
            assert same(r.cpu() if r.device.type == 'cuda' else r, rb.resolve_conj().resolve_neg(), 'sum',
                        strides=False) is None
        for name, g in (('add_', lambda t: t.add_(1j)), ('copy_', lambda t: t.copy_(b.resolve_conj() * 2 if
                        isinstance(t, torch.Tensor) else a * 2)), ('masked_fill_', lambda t: t.masked_fill_(
                        (tt if not isinstance(t, torch.Tensor) else torch).tensor([True, False, True, False])
                        .to(t.device), 3j))):
            c, cb = x.clone().conj(), b.clone().conj()
            g(c); g(cb)
            assert c.is_conj() and same(c.cpu(), cb.resolve_conj(), 'add', strides=False) is None, name
        # to another device: torch's _to_copy has no Conjugate kernel, so the fallback resolves
        r = x.conj().cpu(); assert not r.is_conj() and r.tolist() == b.conj().tolist()
        z = tt.zeros(3, 4, dtype=tt.complex64).conj()
        z.copy_(x)                                     # CUDA -> a conjugate CPU view
        assert z.is_conj() and z.tolist() == b.tolist()
        assert str(x.conj().imag) == str(b.conj().imag).replace(')', ", device='cuda:0')")
    finally: cuda_standin.uninstall(st)
