"""uint16/32/64 and the float8 dtypes on CUDA (Note [Dtypes CuPy lacks], chapter 07b): on the strict CuPy stand-in (every
machine) and on a GPU with CuPy (`python -m pytest -m cuda`).

CuPy has the unsigned types: they live and compute on the device, with torch's CUDA refusals. CuPy has no float8: a
float8 tensor holds its bytes on the device (round trips, views, copies, `cat`, indexing, `fill_`, printing, save/load
are byte for byte torch's), and everything that computes raises NotImplementedError, in torch's words where torch's
CUDA build has no kernel either."""
import gc, io
import numpy as np
import pytest
import tinytensor as tt
import cuda_standin
torch = pytest.importorskip("torch")

F8 = ['float8_e4m3fn', 'float8_e4m3fnuz', 'float8_e5m2', 'float8_e5m2fnuz', 'float8_e8m0fnu']
UNSIGNED = ['uint16', 'uint32', 'uint64']




def codes(name):
    "Every stored pattern of a float8 dtype (256 codes), or edge and ordinary values of an unsigned one, as (tt, torch)."
    if name in F8:
        b = np.arange(256, dtype=np.uint8)
        return tt.from_numpy(b.copy()).view(getattr(tt, name)), torch.from_numpy(b.copy()).view(getattr(torch, name))
    info = np.iinfo(name)
    v = np.array([0, 1, 2, 255, 256, info.max // 3, info.max - 1, info.max], dtype=name)
    return tt.from_numpy(v.copy()), torch.from_numpy(v.copy())


def raw(t) -> bytes:
    "The stored bytes of a CPU tensor (tinytensor or torch), elements in order."
    if isinstance(t, torch.Tensor): return t.reshape(-1).contiguous().view(torch.uint8).numpy().tobytes()
    return t.reshape(-1).contiguous().view(tt.uint8).numpy().tobytes()


@pytest.mark.parametrize('name', F8 + UNSIGNED)
def test_round_trip_is_bit_exact(cuda, name):
    x, tx = codes(name)
    assert raw(x) == raw(tx)
    c = x.cuda()
    assert c.device == tt.device('cuda:0') and c.dtype is getattr(tt, name)
    assert raw(c.cpu()) == raw(tx)
    assert raw(x.to('cuda').to('cpu')) == raw(tx)


@pytest.mark.parametrize('name', F8 + UNSIGNED)
def test_conversions_across_devices(cuda, name):
    "`to('cpu', float32)` of a CUDA tensor and `to('cuda', dtype)` of a CPU one: torch's bits (NaN payloads included)."
    x, tx = codes(name)
    c = x.cuda()
    for d in ('float32', 'float16', 'bfloat16', 'float64'):
        assert raw(c.to('cpu', getattr(tt, d))) == raw(tx.to(getattr(torch, d))), d
    f = tt.tensor([0.5, -3.0, 1e3, 2.0 ** -9, float('inf'), float('nan')])
    tf = torch.tensor(f.tolist())
    assert raw(f.to('cuda', x.dtype).cpu()) == raw(tf.to(tx.dtype))


@pytest.mark.parametrize('name', F8 + UNSIGNED)
def test_views_and_copies_move_bytes(cuda, name):
    "Strided views, contiguous(), clone(), copy_ from CUDA and from the CPU, cat and tensor indexing: torch's CPU bytes."
    x, tx = codes(name)
    n = x.numel() - x.numel() % 4
    c, tc = x[:n].cuda().view(4, -1), tx[:n].view(4, -1)
    cases = [(lambda a: a.t(), 'transpose'), (lambda a: a[:, ::3], 'strided'), (lambda a: a.t().contiguous(), 'contiguous'),
             (lambda a: a[1:].clone(), 'clone'), (lambda a: a.t().clone().t(), 'clone of a transpose'),
             (lambda a: a.flatten()[5:].reshape(-1)[:7], 'reshape')]
    for f, what in cases:
        assert raw(f(c).cpu()) == raw(f(tc)), what
    assert raw(tt.empty_like(c).copy_(c).cpu()) == raw(tc)
    assert raw(tt.empty(c.shape, dtype=c.dtype, device='cuda').copy_(x[:n].view(4, -1)).cpu()) == raw(tc)
    assert raw(tt.cat([c, c[:1]]).cpu()) == raw(torch.cat([tc, tc[:1]]))
    ix = [3, 0, 2, 2]
    assert raw(c[tt.tensor(ix, device='cuda')].cpu()) == raw(tc[torch.tensor(ix)])


@pytest.mark.parametrize('name', F8 + UNSIGNED)
def test_factories_and_fill(cuda, name):
    "empty, zeros, ones, full and fill_ on CUDA: torch's bytes (the value is encoded on the host)."
    d, td = getattr(tt, name), getattr(torch, name)
    assert tt.empty(2, 3, dtype=d, device='cuda').dtype is d
    assert raw(tt.zeros(5, dtype=d, device='cuda').cpu()) == raw(torch.zeros(5, dtype=td))
    assert raw(tt.ones(5, dtype=d, device='cuda').cpu()) == raw(torch.ones(5, dtype=td))
    assert raw(tt.full((2, 2), 2, dtype=d, device='cuda').cpu()) == raw(torch.full((2, 2), 2, dtype=td))
    z = tt.zeros(6, dtype=d, device='cuda')
    z[::2].fill_(4)
    assert raw(z.cpu()) == raw(torch.zeros(6, dtype=td)[::2].fill_(4)._base)


@pytest.mark.parametrize('name', F8 + UNSIGNED)
def test_printing_and_save_load(cuda, name):
    x, tx = codes(name)
    c = x.cuda()
    # the same text, the device added (the lines wrap at other places)
    assert ' '.join(repr(c).replace("device='cuda:0',", '').split()) == ' '.join(repr(x).split())
    buf = io.BytesIO()
    tt.save(c[1:], buf)
    buf.seek(0)
    back = tt.load(buf)
    assert back.device == tt.device('cuda:0') and back.dtype is c.dtype and raw(back.cpu()) == raw(tx[1:])
    buf.seek(0)
    theirs = torch.load(buf, map_location='cpu')
    assert theirs.dtype is getattr(torch, name) and raw(theirs) == raw(tx[1:])


# torch's CUDA build: mul_cuda / abs_cuda / sum_cuda dispatch without AT_FLOAT8_TYPES (its CPU build has mul and abs)
@pytest.mark.parametrize('name', F8)
@pytest.mark.parametrize('op,kernel', [(lambda a: a * a, 'mul_cuda'), (lambda a: a.sum(), 'sum_cuda'),
                                       (lambda a: a.abs(), 'abs_cuda')])
def test_float8_refusals_in_torchs_words(cuda, name, op, kernel):
    x = codes(name)[0][:8].cuda()
    short = x.dtype.short
    if kernel == 'abs_cuda' and name == 'float8_e8m0fnu': kernel = 'abs_cpu'      # no abs on the CPU either: its gate first
    with pytest.raises(NotImplementedError, match=f"^\"{kernel}\" not implemented for '{short}'$"): op(x)


@pytest.mark.parametrize('name', F8)
@pytest.mark.parametrize('op', [lambda a: a.float(), lambda a: a.to(tt.bfloat16), lambda a: a == a, lambda a: a != a,
                                lambda a: tt.ones(3, device='cuda').to(a.dtype),
                                lambda a: tt.empty(3, dtype=a.dtype, device='cuda').copy_(tt.ones(3, device='cuda')),
                                lambda a: a.max(), lambda a: a.add(a), lambda a: -a, lambda a: a.sort()])
def test_float8_computing_raises_not_implemented(cuda, name, op):
    "Every op that computes with float8 values on CUDA refuses with NotImplementedError, never a crash or CuPy's TypeError."
    x = codes(name)[0][:3].cuda()
    with pytest.raises(NotImplementedError, match=f"'{x.dtype.short}'"): op(x)


@pytest.mark.parametrize('name', F8)
def test_float8_departure_names_cupys_missing_type(cuda, name):
    "Where torch's CUDA build converts (copy_), tinytensor says in one line that CuPy has no such type."
    x = codes(name)[0][:3].cuda()
    with pytest.raises(NotImplementedError) as e: x.float()
    msg = str(e.value)
    assert '\n' not in msg and f"CuPy has no {name} type" in msg and msg.startswith('"copy_" not implemented')


@pytest.mark.parametrize('name', UNSIGNED)
def test_unsigned_compute_on_cuda(cuda, name):
    "CuPy has the unsigned types: conversions, eq/ne, sum and cat run on the device and match torch's CPU values."
    x, tx = codes(name)
    c = x.cuda()
    assert (c[1:] == c[:-1]).cpu().tolist() == (tx[1:] == tx[:-1]).tolist()
    assert (c == c[3]).cpu().tolist() == (tx == tx[3]).tolist()
    assert (c != c).cpu().tolist() == [False] * x.numel()
    assert c.double().cpu().tolist() == tx.double().tolist()
    assert c[:4].sum().item() == tx[:4].sum().item()
    back = c.double().to(c.dtype)
    assert raw(back[:4].cpu()) == raw(tx[:4])


@pytest.mark.parametrize('name', UNSIGNED)
def test_unsigned_mul_refused_on_cuda_only(cuda, name):
    "torch's mul_cuda has no case for the unsigned types its CPU mul has: the CPU multiplies, CUDA refuses."
    x, tx = codes(name)
    assert raw(x[:3] * x[:3]) == raw(tx[:3] * tx[:3])
    with pytest.raises(NotImplementedError, match=f"^\"mul_cuda\" not implemented for '{x.dtype.short}'$"): x[:3].cuda() * x[:3].cuda()
    # promoted to a type with a kernel: computed
    assert (x[:3].cuda() * 0.5).cpu().tolist() == (tx[:3] * 0.5).tolist()


@pytest.mark.parametrize('name', F8)
def test_cpu_results_unchanged(cuda, name):
    "The CUDA gate does not reach the CPU: float8 mul, abs and conversions there are torch's, bit for bit."
    x, tx = codes(name)
    assert raw(x * x) == raw(tx * tx)
    assert raw(x.float()) == raw(tx.float())
    if name != 'float8_e8m0fnu': assert raw(x.abs()) == raw(tx.abs())


def test_standin_refuses_float8_arrays_as_cupy():
    "CuPy cannot make an array of a type outside its list (cupy/_core: 'Unsupported dtype'); the stand-in refuses too."
    import ml_dtypes
    xp = cuda_standin.xp
    with pytest.raises(ValueError, match='Unsupported dtype'): xp.asarray(np.zeros(2, ml_dtypes.float8_e4m3fn))
    assert xp.asarray(np.zeros(2, np.uint16)).dtype == np.uint16


@pytest.mark.parametrize('name', F8)
def test_float8_cpu_scalar_operand(cuda, name):
    "A 0-d CPU float8 tensor beside a CUDA one reaches the device as bytes, and the op refuses: never CuPy's ValueError."
    x = codes(name)[0]
    c, s = x[:4].cuda(), x[7]
    # (mul by a scalar: the CPU's check for the scalar form answers first, "mul_cpu_reduced_float")
    with pytest.raises(NotImplementedError, match=f"^\"mul_[a-z_]+\" not implemented for '{x.dtype.short}'$"): c * s
    with pytest.raises(NotImplementedError, match=f"CuPy has no {name} type"): c == s
    with pytest.raises(NotImplementedError, match=f"CuPy has no {name} type"): s == c


def test_complex32_bytes_on_the_device(cuda):
    "complex32 (Note [Dtypes CuPy lacks]): its bytes live and move on the device; computing with them is refused."
    b = np.arange(0, 2 ** 16, 257, dtype=np.uint16)                      # 256 float16 patterns: 128 complex32 values
    x = tt.from_numpy(b.copy()).view(tt.complex32)
    c = x.to('cuda')
    assert c.device.type == 'cuda' and c.dtype is tt.complex32
    for r in (c.cpu(), c.clone().cpu(), tt.cat([c[:3], c[3:]]).cpu(), c[::1].cpu()):
        assert np.array_equal(r.view(tt.int16).numpy(), x.view(tt.int16).numpy())
    assert np.array_equal(c.real.cpu().view(tt.int16).numpy(), x.real.view(tt.int16).numpy())
    for f in (lambda: c + c, lambda: c.abs(), lambda: c == c, lambda: c * 2, lambda: -c, lambda: c.to(tt.complex64)):
        with pytest.raises(NotImplementedError, match="ComplexHalf"): f()
