"""The TensorIterator ops through chapter 06d's dispatcher: a call with a conjugate or negative bit takes the
Conjugate/Negative fallback and then the backend kernel (traced), a call without one takes the fast path, and the
fast path gives exactly what the plain path (always through `dispatcher.call`) gives, both as torch."""
import numpy as np
import pytest
torch = pytest.importorskip("torch")
import tinytensor as tt
from ttgen import LAYOUTS, layout, same
from tinytensor.tensor_impl import alias_with_sizes_and_strides
from tinytensor.dispatch import trace_dispatch, iterator_ops_plain, dispatcher
from tinytensor import binary_ops, ops, reductions

BIN, UN = 'tensor_iterator::binary', 'tensor_iterator::unary'

def pair(seed, shape=(3, 4), kind='contig', dt='complex64'):
    "The same strided tensor in tinytensor and torch (complex: nonzero imaginary parts)."
    rng = np.random.default_rng(seed)
    sizes, strides, off, nstore = layout(rng, shape, kind)
    base = np.round(rng.standard_normal(nstore), 2) + 0.25
    if dt.startswith('complex'): base = base + 1j * (np.round(rng.standard_normal(nstore), 2) + 0.5)
    base = base.astype(dt)
    return (alias_with_sizes_and_strides(tt.tensor(base), sizes, strides, off),
            torch.as_strided(torch.tensor(base), sizes, strides, off))

def bits(t): return (t.is_conj(), t.is_neg())

def check(a, b, op):
    "Bits, geometry and values (resolved) of a tinytensor result against torch's."
    assert bits(a) == bits(b), (op, bits(a), bits(b))
    err = same(a.resolve_conj().resolve_neg(), b.resolve_conj().resolve_neg(), op, strides=False)
    assert err is None, err

RED = {'sum_like': 'tensor_iterator::sum_like', 'minmax': 'tensor_iterator::minmax',
       'bool_reduce': 'tensor_iterator::bool_reduce'}

def test_hooks_are_dispatcher_operators():
    assert binary_ops._binary_op is dispatcher.operators[BIN]
    assert ops._unary_op is dispatcher.operators[UN]
    for k, name in RED.items(): assert getattr(reductions, f'_{k}_op') is dispatcher.operators[name]
    for name in (BIN, UN, *RED.values()):
        assert set(dispatcher.operators[name].kernels) == {'CPU', 'CUDA', 'Meta'}

# (name, f(x, y), operator names expected in the trace): x, y complex (x carries the bit)
CALLS = [('add', lambda x, y: x + y, [BIN]), ('sub', lambda x, y: x - y, [BIN]),
         ('mul', lambda x, y: x * y, [BIN]), ('div', lambda x, y: x / y, [BIN]),
         ('eq', lambda x, y: x == y, [BIN]), ('rsub', lambda x, y: x.add(2, alpha=3), [BIN]),
         ('neg', lambda x, y: -x, [UN]), ('exp', lambda x, y: x.exp(), [UN]),
         ('sgn', lambda x, y: x.sgn(), [UN])]

@pytest.mark.parametrize('kind', ['contig', 'transposed', 'strided'])
@pytest.mark.parametrize('name,f,ops_', CALLS, ids=[c[0] for c in CALLS])
def test_conj_view_goes_through_fallback(name, f, ops_, kind):
    x, xt = pair(1, kind=kind); y, yt = pair(2)
    with trace_dispatch() as steps: r = f(x.conj(), y)
    check(r, f(xt.conj(), yt), name)
    assert [s[1] for s in steps] == ['Conjugate', 'CPU'], steps
    assert [s[0] for s in steps] == ops_ * 2 and steps[0][2] == 'conjugate_fallback'
    with trace_dispatch() as none: f(x, y)
    assert none == []                      # no bit: the fast path, no dispatcher

@pytest.mark.parametrize('name,f', [('add', lambda x, y: x + y), ('mul', lambda x, y: x * y),
                                    ('maximum', lambda x, y: tt.maximum(x, y) if isinstance(x, tt.Tensor)
                                     else torch.maximum(x, y)),
                                    ('floor', lambda x, y: x.floor()), ('exp', lambda x, y: x.exp())])
def test_neg_view_goes_through_fallback(name, f):
    x, xt = pair(3); y, yt = pair(4, dt='float32')
    with trace_dispatch() as steps: r = f(x.conj().imag, y)
    check(r, f(xt.conj().imag, yt), name)
    assert [s[1] for s in steps] == ['Negative', 'CPU'] and steps[0][2] == 'negative_fallback'

def test_conj_and_neg_both():
    x, xt = pair(5); y, yt = pair(6, dt='float32')
    with trace_dispatch() as steps: r = x.conj() * x.conj().imag
    check(r, xt.conj() * xt.conj().imag, 'mul')
    assert [s[1] for s in steps] == ['Negative', 'Conjugate', 'CPU']

@pytest.mark.parametrize('kind', ['contig', 'transposed'])
def test_written_view_keeps_its_bit(kind):
    "In-place and out= writes into a view with a bit: the fallback flips it, the kernel writes, it flips back."
    for op, f in (('add', lambda c, y: c.add_(y)), ('mul', lambda c, y: c.mul_(2)),
                  ('neg', lambda c, y: c.neg_()), ('exp', lambda c, y: c.exp_()),
                  ('sub', lambda c, y: c.sub_(c))):
        x, xt = pair(7, kind=kind); y, yt = pair(8)
        c, ct = x.clone().conj(), xt.clone().conj()
        if kind == 'transposed': c, ct = c.T, ct.T
        r, rt = f(c, y.T if kind == 'transposed' else y), f(ct, yt.T if kind == 'transposed' else yt)
        assert r is c
        check(c, ct, op)
    # out= with the bit, inputs without
    x, xt = pair(9); y, yt = pair(10)
    o, ot = tt.zeros(3, 4, dtype=tt.complex64).conj(), torch.zeros(3, 4, dtype=torch.complex64).conj()
    tt.add(x, y, out=o); torch.add(xt, yt, out=ot)
    check(o, ot, 'add')
    tt.exp(x, out=o); torch.exp(xt, out=ot)
    check(o, ot, 'exp')
    # a negative view written: x.conj().imag is a float view with the Negative bit
    x, xt = pair(11)
    v, vt = x.clone().conj().imag, xt.clone().conj().imag
    v.add_(1.5); vt.add_(1.5)
    check(v, vt, 'add')

def test_error_in_kernel_restores_written_view():
    "An error after the fallback flipped the written view: its storage and bit are as before, the error is torch's."
    y, yt = pair(13)
    vals = np.arange(4, dtype=np.complex64) * (1 + 1j)
    base, tbase = tt.tensor(vals), torch.tensor(vals)
    o, ot = base.conj(), tbase.conj()
    with pytest.raises(RuntimeError) as e1: o.add_(y)
    with pytest.raises(RuntimeError) as e2: ot.add_(yt)
    assert str(e1.value) == str(e2.value)
    assert base.tolist() == tbase.tolist() == vals.tolist() and o.is_conj()

# (name, f): ops that reach `_binary` / `_unary` (not chapter 10's small-op hooks) over a tensor pair
PLAIN = [('add_bcast', lambda a, b: tt.add(a, b[:1], out=tt.empty(0, dtype=a.dtype))),
         ('add_alpha', lambda a, b: a.add(b, alpha=2)),
         ('sub_out', lambda a, b: tt.sub(a, b, out=tt.empty(0, dtype=a.dtype))),
         ('remainder', lambda a, b: a.remainder(b)), ('floor_divide', lambda a, b: a // b),
         ('lt', lambda a, b: a < b[:1]), ('maximum', lambda a, b: tt.maximum(a, b)),
         ('neg_floor', lambda a, b: a.neg().floor()), ('sign', lambda a, b: a.sign()),
         ('atan2', lambda a, b: tt.atan2(a, b)), ('hypot', lambda a, b: tt.hypot(a, b)),
         ('logical_xor', lambda a, b: (a > 0).logical_xor(b > 0)),
         ('conj_add', lambda a, b: a.conj() + b[:1].conj()), ('neg_view_add', lambda a, b: a._neg_view() * b)]

@pytest.mark.parametrize('kind', LAYOUTS)
@pytest.mark.parametrize('dt', ['float32', 'complex64', 'int64'])
@pytest.mark.parametrize('name,f', PLAIN, ids=[p[0] for p in PLAIN])
def test_fast_path_equals_plain_path(name, f, dt, kind):
    if dt == 'complex64' and name in ('remainder', 'floor_divide', 'lt', 'maximum', 'neg_floor', 'sign',
                                      'atan2', 'hypot', 'logical_xor'):
        pytest.skip('not defined for complex in torch')
    if dt == 'int64' and name in ('atan2', 'hypot'): pytest.skip('float-only op')
    if dt != 'complex64' and name == 'conj_add': pytest.skip('conj of a real tensor is itself')
    rng = np.random.default_rng(14)
    a = pair(15, (4, 3), kind, 'float32' if dt == 'int64' else dt)[0]
    b = pair(16, (4, 3), 'contig', 'float32' if dt == 'int64' else dt)[0]
    if dt == 'int64': a, b = (a * 10).long(), (b * 10).long() + 30
    r0 = f(a, b)
    with iterator_ops_plain(), trace_dispatch() as steps: r1 = f(a, b)
    assert steps and steps[-1][1] == 'CPU'           # the plain path went through the dispatcher
    assert (r0.dtype, r0.shape, r0.stride(), bits(r0)) == (r1.dtype, r1.shape, r1.stride(), bits(r1))
    v0, v1 = (r.resolve_conj().resolve_neg().numpy() for r in (r0, r1))
    np.testing.assert_array_equal(v0, v1)

def test_plain_path_restores_helpers():
    f0, u0 = binary_ops._binary, ops._unary
    with iterator_ops_plain(): assert binary_ops._binary is not f0 and ops._unary is not u0
    assert binary_ops._binary is f0 and ops._unary is u0

def test_meta_tensors_dispatch_to_meta_kernel():
    x = tt.empty(3, 4, dtype=tt.complex64, device='meta')
    with trace_dispatch() as steps: r = x.conj() + x
    assert [s[1] for s in steps] == ['Conjugate', 'Meta'] and r.device.type == 'meta'
    assert tuple(r.shape) == (3, 4) and not r.is_conj()


def test_cuda_call_takes_fallback_then_cuda_kernel(cuda):
    "`x.conj() + y` on CUDA: the Conjugate fallback, then the CUDA key's kernel; values as torch's on the CPU."
    x, xt = pair(17); y, yt = pair(18)
    xc, yc = x.cuda(), y.cuda()
    with trace_dispatch() as steps: r = xc.conj() + yc
    assert [s[1:] for s in steps] == [('Conjugate', 'conjugate_fallback'), ('CUDA', '_binary_kernel')]
    assert r.device.type == 'cuda' and not r.is_conj()
    check(r.cpu(), xt.conj() + yt, 'add')
    with trace_dispatch() as steps: r = xc.conj().imag.neg()
    assert [s[1] for s in steps] == ['Negative', 'CUDA']
    check(r.cpu(), xt.conj().imag.neg(), 'neg')
    c = xc.clone().conj(); c.mul_(yc)                # written through the fallback on the device
    ct = xt.clone().conj(); ct.mul_(yt)
    assert c.is_conj() and ct.is_conj()
    check(c.resolve_conj().cpu(), ct.resolve_conj(), 'mul')

# (name, f(x), operator): reductions of a view with a bit (x: complex with Conjugate, or its imag: Negative)
REDS = [('sum', lambda x: x.sum(), 'sum_like'), ('sum', lambda x: x.sum(0, keepdim=True), 'sum_like'),
        ('prod', lambda x: x.prod(1), 'sum_like'), ('mean', lambda x: x.mean(1), 'sum_like'),
        ('amax', lambda x: x.real.amax(0) if x.is_complex() else x.amax(0), 'minmax'),
        ('amin', lambda x: x.amin(), 'minmax'), ('all', lambda x: x.all(1), 'bool_reduce'),
        ('any', lambda x: x.any(), 'bool_reduce')]

@pytest.mark.parametrize('kind', ['contig', 'transposed'])
@pytest.mark.parametrize('bit', ['conj', 'neg'])
@pytest.mark.parametrize('name,f,op', REDS, ids=[f'{r[0]}{i}' for i, r in enumerate(REDS)])
def test_reduction_of_view_goes_through_fallback(name, f, op, bit, kind):
    x, xt = pair(20, kind=kind)
    if bit == 'conj': v, vt = x.conj(), xt.conj()
    else: v, vt = x.conj().imag, xt.conj().imag
    if op == 'minmax' and bit == 'conj' and name == 'amin': pytest.skip('amin of complex: no kernel in torch')
    with trace_dispatch() as steps: r = f(v)
    check(r, f(vt), name)
    if not (name == 'amax' and bit == 'conj'):     # `.real` of a conjugate view has no bit
        assert (RED[op], 'Conjugate' if bit == 'conj' else 'Negative') in [s[:2] for s in steps], steps

def test_reduction_out_with_bit():
    x, xt = pair(21); o, ot = tt.zeros(4, dtype=tt.complex64).conj(), torch.zeros(4, dtype=torch.complex64).conj()
    with trace_dispatch() as steps: tt.sum(x, 0, out=o)
    torch.sum(xt, 0, out=ot)
    assert steps[0][:2] == (RED['sum_like'], 'Conjugate')
    check(o, ot, 'sum')

REDS_PLAIN = [('sum', lambda a: a.sum(1, dtype=tt.complex128 if a.is_complex() else tt.float64)),
              ('prod', lambda a: a.T.prod(0)),
              ('sum', lambda a: tt.sum(a, 0, out=tt.empty(0, dtype=a.dtype))),
              ('amax', lambda a: (a.real if a.is_complex() else a).amax(0, keepdim=True)),
              ('amin', lambda a: tt.amin(a.real, 1, out=tt.empty(0, dtype=a.real.dtype))),
              ('all', lambda a: (a != 0).T.all(1)), ('any', lambda a: tt.any(a, 0, out=tt.empty(0, dtype=tt.bool)))]

@pytest.mark.parametrize('kind', LAYOUTS)
@pytest.mark.parametrize('dt', ['float32', 'complex64'])
@pytest.mark.parametrize('name,f', REDS_PLAIN, ids=[f'{r[0]}{i}' for i, r in enumerate(REDS_PLAIN)])
def test_reduction_fast_path_equals_plain_path(name, f, dt, kind):
    a = pair(22, (4, 3), kind, dt)[0]
    r0 = f(a)
    with iterator_ops_plain(), trace_dispatch() as steps: r1 = f(a)
    assert steps and steps[-1][1] == 'CPU'
    assert (r0.dtype, r0.shape, r0.stride(), bits(r0)) == (r1.dtype, r1.shape, r1.stride(), bits(r1))
    np.testing.assert_array_equal(r0.numpy(), r1.numpy())
