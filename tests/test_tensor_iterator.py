"TensorIterator against torch: output layouts, broadcasting, meta tensors, threads and tiles."
import ctypes
import numpy as np
import pytest
torch = pytest.importorskip("torch")
import tinytensor as tt
from tinytensor.tensor_iterator import (TensorIteratorConfig, TensorIterator, parallel_for, GRAIN_SIZE, _blocks,
                                        has_internal_overlap, get_overlap_status)
from tinytensor.tensor_impl import alias_with_sizes_and_strides
from ttgen import LAYOUTS, pair, rand_shapes, run_both, check_results, same, num_threads, sum_scale

def test_output_layout_follows_inputs_like_torch():
    "500 random layout combinations: the allocated output has torch's shape and strides."
    rng = np.random.default_rng(0)
    bad = []
    for i in range(500):
        k = int(rng.integers(1, 4))
        shapes, _ = rand_shapes(rng, k)
        ins = [pair(rng, s, 'float32', str(rng.choice(LAYOUTS + ['cl', 'cl', 'perm']))) for s in shapes]
        def run_tt():
            if k == 1: return tt.exp(ins[0][0]) if rng_k else ins[0][0] + 0
            c = TensorIteratorConfig().add_output(None)           # the raw iterator, as add's meta function builds it
            for x, _ in ins: c.add_input(x)
            return c.build().output()
        def run_th():
            if k == 1: return torch.exp(ins[0][1]) if rng_k else ins[0][1] + 0
            return ins[0][1] + ins[1][1]
        rng_k = bool(rng.random() < 0.5)
        if k == 3:
            cond = [pair(rng, shapes[0], 'bool', str(rng.choice(LAYOUTS)))]
            ins = cond + ins[1:]
            r = run_both(lambda: tt.where(ins[0][0], ins[1][0], ins[2][0]), lambda: torch.where(ins[0][1], ins[1][1], ins[2][1]))
        else: r = run_both(run_tt, run_th)
        if not isinstance(r[0], Exception) and not isinstance(r[1], Exception):
            if tuple(r[0].shape) != tuple(r[1].shape) or tuple(r[0].stride()) != tuple(r[1].stride()):
                bad.append(f'{[tuple(y.shape) for _, y in ins]} {[y.stride() for _, y in ins]}: {r[0].shape}/{r[0].stride()} vs {tuple(r[1].shape)}/{r[1].stride()}')
        elif type(r[0]) is not type(r[1]): bad.append(f'{shapes}: {r}')
    assert not bad, f'{len(bad)} mismatches, e.g.\n' + '\n'.join(bad[:8])

def test_broadcast_errors_like_torch():
    rng = np.random.default_rng(1)
    for i in range(200):
        a = tuple(int(x) for x in rng.integers(1, 4, int(rng.integers(0, 4))))
        b = tuple(int(x) for x in rng.integers(1, 4, int(rng.integers(0, 4))))
        r = run_both(lambda: tt.ones(a) + tt.ones(b), lambda: torch.ones(a) + torch.ones(b))
        assert check_results(*r, 'add', ctx=f'{a} {b}') is None
        if isinstance(r[1], Exception): assert str(r[0]) == str(r[1])

def test_meta_device_builds_without_memory():
    for layout in ('contig', 'transpose', 'cl', 'expand', 'perm'):
        x_tt, x_th = pair(np.random.default_rng(2), (2, 3, 4, 5), 'float32', layout)
        m_tt = alias_with_sizes_and_strides(tt.empty(x_tt.untyped_storage().nbytes() // 4, device='meta'), x_tt.shape, x_tt.stride(), x_tt.storage_offset())
        m_th = torch.empty(x_th.untyped_storage().nbytes() // 4, device='meta').as_strided(x_th.shape, x_th.stride(), x_th.storage_offset())
        for f in (lambda x: x + 1, lambda x: x * x, lambda x: tt.exp(x) if isinstance(x, tt.Tensor) else torch.exp(x), lambda x: x.sum(1)):
            a, b = f(m_tt), f(m_th)
            assert a.is_meta and (tuple(a.shape), tuple(a.stride()), a.dtype.name) == (tuple(b.shape), tuple(b.stride()), str(b.dtype)[6:])

def test_outputs_before_inputs():
    with pytest.raises(RuntimeError, match='add all outputs first'):
        TensorIteratorConfig().add_input(tt.ones(2)).add_output(None)

def test_overlap_statuses():
    x = tt.zeros(10)
    assert has_internal_overlap(alias_with_sizes_and_strides(x, (3, 2), (0, 1))) == 'Yes'
    assert get_overlap_status(alias_with_sizes_and_strides(x, (4,), (1,), 0), alias_with_sizes_and_strides(x, (4,), (1,), 2)) == 'Partial'
    assert get_overlap_status(alias_with_sizes_and_strides(x, (4,), (1,), 0), alias_with_sizes_and_strides(x, (4,), (1,), 4)) == 'No'
    with pytest.raises(RuntimeError, match='some elements of the input tensor'):
        alias_with_sizes_and_strides(x, (4,), (1,), 1).copy_(alias_with_sizes_and_strides(x, (4,), (1,), 0))

def test_blocks_cover_ranges_exactly():
    rng = np.random.default_rng(3)
    for i in range(300):
        shape = [int(s) for s in rng.integers(1, 6, int(rng.integers(1, 5)))]
        n = int(np.prod(shape))
        b = int(rng.integers(0, n)); e = int(rng.integers(b, n + 1))
        seen = []
        for idx, k, count in _blocks(shape, b, e):
            inner = int(np.prod(shape[:k]))
            start = sum(idx[d] * int(np.prod(shape[:d])) for d in range(len(shape)))
            seen.extend(range(start, start + count * inner))
        assert seen == list(range(b, e)), (shape, b, e)

def test_threads_api():
    old = tt.get_num_threads()
    tt.set_num_threads(3); assert tt.get_num_threads() == 3
    with pytest.raises(RuntimeError): tt.set_num_threads(0)
    with pytest.raises(TypeError): tt.set_num_threads(1.5)
    tt.set_num_threads(old)

@pytest.mark.parametrize('env,expected', [({'OMP_NUM_THREADS': '3'}, 3), ({'OMP_NUM_THREADS': '3', 'MKL_NUM_THREADS': '5'}, 5),
                                          ({'OMP_NUM_THREADS': 'many'}, 'cores'), ({}, 'cores'),
                                          ({'TINYTENSOR_FAKE_CORES': '16', 'PYTHONPATH': 'many_cores'}, 16)])
def test_default_thread_count(env, expected):
    "A fresh interpreter's default follows torch: OMP_NUM_THREADS, then MKL_NUM_THREADS, else the usable cores."
    import os, subprocess, sys, pathlib
    e = {k: v for k, v in os.environ.items() if k not in ('OMP_NUM_THREADS', 'MKL_NUM_THREADS', 'TINYTENSOR_FAKE_CORES')}
    e.update(env)
    if 'PYTHONPATH' in env:
        e['PYTHONPATH'] = os.pathsep.join([str(pathlib.Path(__file__).parent.parent / 'tools' / 'many_cores')] + sys.path)
    out = subprocess.run([sys.executable, '-c', 'import os, tinytensor as tt; print(tt.get_num_threads(), len(os.sched_getaffinity(0)))'],
                         env=e, capture_output=True, text=True, check=True).stdout.split()
    assert int(out[0]) == (int(out[1]) if expected == 'cores' else expected), (env, out)

@pytest.mark.parametrize('threads', [1, 2, 4])
def test_big_threaded_and_tiled_ops_match_torch(threads):
    "Large operands (threads, tiles, partial rows) give the same values and layouts as torch."
    old = tt.get_num_threads()
    tt.set_num_threads(threads)
    try:
        rng = np.random.default_rng(threads)
        a_np = rng.standard_normal((700, 600)).astype(np.float32)
        b_np = rng.standard_normal((600, 700)).astype(np.float32)
        c_np = rng.standard_normal((3, 200, 300)).astype(np.float32)
        a, b, c = tt.from_numpy(a_np), tt.from_numpy(b_np), tt.from_numpy(c_np)
        ta, tb, tc = torch.from_numpy(a_np), torch.from_numpy(b_np), torch.from_numpy(c_np)
        bt = alias_with_sizes_and_strides(b, (700, 600), (1, 700))
        ct = alias_with_sizes_and_strides(c, (300, 3, 200), (1, 60000, 300))         # permuted 3-d
        cases = [('add', lambda: a + bt, lambda: ta + tb.T), ('mul', lambda: bt * a, lambda: tb.T * ta),
                 ('add', lambda: a + 1.5, lambda: ta + 1.5), ('exp', lambda: tt.exp(bt), lambda: torch.exp(tb.T)),
                 ('sub', lambda: ct - tt.from_numpy(np.ascontiguousarray(c_np.transpose(2, 0, 1))),
                  lambda: tc.permute(2, 0, 1) - tc.permute(2, 0, 1).contiguous()),
                 ('sum', lambda: a.sum(0), lambda: ta.sum(0)), ('amax', lambda: bt.amax(1), lambda: tb.T.amax(1))]
        for i, (op, f, g) in enumerate(cases):
            r, e = f(), g()
            m = same(r, e, op, scale=sum_scale(ta, 0) if op == 'sum' else 0.)
            assert m is None, (i, m)
        o = tt.empty(700, 600)
        tt.add(a, bt, out=o)
        assert np.array_equal(o.numpy(), a_np + b_np.T)
    finally: tt.set_num_threads(old)

def test_parallel_for_ranges():
    out = []
    parallel_for(0, 10 * GRAIN_SIZE, GRAIN_SIZE, lambda b, e: out.append((b, e)))
    assert sorted(out)[0][0] == 0 and sorted(out)[-1][1] == 10 * GRAIN_SIZE
    assert sum(e - b for b, e in out) == 10 * GRAIN_SIZE

STAGE_DTYPES = ['float32', 'float64', 'int16', 'bool', 'complex64', 'float16', 'uint8']

def _rand_np(rng, shape, dt):
    x = rng.standard_normal(shape) * 20
    if dt == 'bool': return x > 0
    if dt == 'complex64': return (x + 1j * rng.standard_normal(shape)).astype(np.complex64)
    return x.astype(dt)

@pytest.mark.parametrize('threads', [1, 2, 3])
def test_staged_fast_path_equals_plain(threads):
    "Staged bands (Note [streaming tiles]) give exactly the plain path's values and layout: random shapes, permutations, dtypes, loops."
    from tinytensor.tensor_iterator import copy_loop
    from tinytensor.large_tensors import STAGE_MIN
    old = tt.get_num_threads(); tt.set_num_threads(threads)
    rng = np.random.default_rng(100 + threads)
    staged = 0
    try:
        for _ in range(40):
            nd = int(rng.integers(2, 4))
            while True:
                shape = tuple(int(s) for s in rng.integers(1, 400, size=nd))
                if STAGE_MIN <= np.prod(shape) <= 3_000_000: break
            dt = str(rng.choice(STAGE_DTYPES))
            perm = tuple(int(p) for p in rng.permutation(nd))
            x_np = _rand_np(rng, tuple(shape[p] for p in np.argsort(perm)), dt)
            x = tt.from_numpy(x_np).permute(*perm)                     # a permuted input
            y = tt.from_numpy(_rand_np(rng, shape, dt))                 # a contiguous one
            op = str(rng.choice(['add', 'mul', 'copy']))
            if op == 'copy':
                loop, ins = copy_loop, [x]
            else:
                uf = np.logical_or if (dt == 'bool' and op == 'add') else np.logical_and if dt == 'bool' else getattr(np, {'add': 'add', 'mul': 'multiply'}[op])
                loop, ins = (lambda o, a, b, uf=uf: uf(a, b, out=o)), [y, x]
            def build():
                c = TensorIteratorConfig().add_output(tt.empty(*shape, dtype=getattr(tt, dt)))
                for t in ins: c.add_input(t)
                return c.build()
            fast, plain = build(), build()
            staged += fast._stage_plan() is not None
            fast.for_each(loop)
            plain.serial_for_each(loop, 0, plain.numel())
            f, p = fast.output(), plain.output()
            assert f.shape == p.shape and f.stride() == p.stride() and f.dtype is p.dtype
            assert np.array_equal(f.numpy(), p.numpy()), (shape, perm, dt, op)
    finally: tt.set_num_threads(old)
    assert staged >= 10                                                 # the staged path really ran

def _special_bits(rng, shape, dt):
    "Random bit patterns of float dtype `dt`, with signaling and quiet NaNs, infinities, signed zeros and subnormals sown in."
    ui = {'float32': np.uint32, 'float64': np.uint64}[dt]
    b = rng.integers(0, np.iinfo(ui).max, size=shape, dtype=ui, endpoint=True)
    f = np.finfo(dt)
    specials = {'float32': [0x7fa00001, 0xffbfffff, 0x7fc00003, 0x7f800000, 0x80000000, 0x00000001, 0x807fffff],
                'float64': [0x7ff4000000000001, 0xfff7ffffffffffff, 0x7ff8000000000003, 0x7ff0000000000000,
                            0x8000000000000000, 1, 0x800fffffffffffff]}[dt]
    m = rng.random(shape) < 0.05
    b[m] = rng.choice(np.array(specials, dtype=ui), size=int(m.sum()))
    return b.view(dt)

@pytest.mark.parametrize('threads', [1, 2])
@pytest.mark.parametrize('dt', ['float32', 'float64'])
def test_blas_staging_bit_exact(threads, dt):
    "Note [BLAS transpose]: A op B.T through the BLAS transpose equals the numpy staging bit for bit, NaN payloads included."
    from tinytensor import large_tensors as ti
    old = tt.get_num_threads(); tt.set_num_threads(threads)
    rng = np.random.default_rng(7)
    calls, real = [], dict(ti._omatcopy)
    try:
        for m, n in [(300, 517), (1024, 768)]:
            A = tt.from_numpy(_special_bits(rng, (m, n), dt))
            B = tt.from_numpy(_special_bits(rng, (n, m), dt))
            for f in (lambda a, b: a + b, lambda a, b: a - b, lambda a, b: a * b, lambda a, b: a / b, lambda a, b: b * a):
                ti._omatcopy.clear(); ti._omatcopy.update({k: (lambda *a, g=g: (calls.append(1), g(*a))) for k, g in real.items()})
                fast = f(A, B.t())
                ti._omatcopy.clear()                                        # the numpy staging only
                plain = f(A, B.t())
                assert fast.stride() == plain.stride()
                assert np.array_equal(np.ascontiguousarray(fast.numpy()).view(np.uint8), np.ascontiguousarray(plain.numpy()).view(np.uint8))
                ref = f(torch.from_numpy(A.numpy()), torch.from_numpy(B.numpy()).t()).numpy()
                np.testing.assert_array_equal(fast.numpy(), ref)             # values (NaN == NaN), against torch
        assert len(calls) > 0 or np.dtype(dt) not in real                   # the BLAS ran wherever numpy ships one (float32)
    finally:
        ti._omatcopy.clear(); ti._omatcopy.update(real); tt.set_num_threads(old)

@pytest.mark.parametrize('threads', [1, 2])
def test_blas_copy_bit_exact(threads):
    "Note [BLAS transpose]: a float32 transposed copy takes the BLAS, and stays bit-exact where NaNs come through."
    from tinytensor import large_tensors as ti
    if np.dtype(np.float32) not in ti._omatcopy: pytest.skip('numpy ships no OpenBLAS omatcopy here')
    old = tt.get_num_threads(); tt.set_num_threads(threads)
    rng = np.random.default_rng(5)
    calls, real = [], dict(ti._omatcopy)
    ti._omatcopy.update({k: (lambda *a, g=g: (calls.append(a[2] * a[3]), g(*a))) for k, g in real.items()})
    try:
        fin = rng.standard_normal((1100, 900), dtype=np.float32)
        fin.view(np.uint32)[::37, ::11] = np.uint32(1)                      # subnormals, kept by the BLAS's x * 1
        fin[::53, ::7], fin[::61, ::5] = -0.0, np.inf
        nan = _special_bits(rng, (1100, 900), 'float32')                    # signaling NaNs in every block
        late = fin.copy(); late[5:8, 850] = np.nan                          # NaNs in the last block only
        nblocks = -(-900 // max(ti.STAGE_ROWS, ti.STAGE_TALL // 1100))       # the output's rows: 900 along j, 1100 wide
        for x in (fin, nan, late):
            for make in (lambda: tt.from_numpy(x).t().contiguous(), lambda: tt.empty(900, 1100).copy_(tt.from_numpy(x).t())):
                calls.clear()
                y = make()
                assert y.stride() == (1100, 1)
                assert np.array_equal(y.numpy().view(np.uint32), x.T.copy().view(np.uint32))   # bit for bit
                blocks = sum(1 for c in calls if c > 1)                        # BLAS calls beside the 1x1 probes
                if x is fin: assert blocks == nblocks                           # every block through the BLAS
                elif x is nan: assert 0 < blocks <= threads                    # one block per thread, then numpy only
                else: assert blocks == nblocks                                 # the NaN block is redone, bit for bit
            ref = torch.from_numpy(x).T.contiguous().numpy()
            assert np.array_equal(tt.from_numpy(x).t().contiguous().numpy().view(np.uint32), ref.view(np.uint32))
    finally:
        ti._omatcopy.clear(); ti._omatcopy.update(real); tt.set_num_threads(old)

def test_blas_refused_where_subnormals_flush():
    "Note [BLAS transpose]: in a thread whose BLAS flushes subnormals to zero (FTZ/DAZ), the staging keeps to numpy."
    from tinytensor import large_tensors as ti
    if np.dtype(np.float32) not in ti._omatcopy: pytest.skip('numpy ships no OpenBLAS omatcopy here')
    real = dict(ti._omatcopy)
    g = real[np.dtype(np.float32)]
    def flushing(order, trans, rows, cols, alpha, a, lda, b, ldb):        # the real transpose, then FTZ's effect
        g(order, trans, rows, cols, alpha, a, lda, b, ldb)
        out = np.ctypeslib.as_array(ctypes.cast(b, ctypes.POINTER(ctypes.c_uint32)), shape=((cols - 1) * ldb + rows,))
        out[(out & 0x7f800000) == 0] &= np.uint32(0x80000000)            # subnormals become signed zeros
    x = np.random.default_rng(6).standard_normal((700, 600), dtype=np.float32)
    x.view(np.uint32)[::9, ::13] = np.uint32(3)
    y = np.random.default_rng(7).standard_normal((600, 700), dtype=np.float32)
    ti._omatcopy[np.dtype(np.float32)] = flushing
    try:
        assert ti._blas_for(np.dtype(np.float32)) is None
        c = tt.from_numpy(x).t().contiguous()
        s = tt.from_numpy(y) + tt.from_numpy(x).t()
    finally:
        ti._omatcopy.clear(); ti._omatcopy.update(real)
    assert np.array_equal(c.numpy().view(np.uint32), x.T.copy().view(np.uint32))
    assert np.array_equal(s.numpy().view(np.uint32), (y + x.T).view(np.uint32))
    assert ti._blas_for(np.dtype(np.float32)) is g

@pytest.mark.parametrize('threads', [1, 2, 4])
def test_transposes_match_torch(threads):
    "A + B.T, A.T.contiguous() and a batched transpose copy (the staged path) against torch, odd sizes included."
    old = tt.get_num_threads(); tt.set_num_threads(threads)
    try:
        rng = np.random.default_rng(threads)
        for n, m in [(1000, 700), (257, 4099), (4097, 65)]:
            a_np, b_np = rng.standard_normal((n, m)).astype(np.float32), rng.standard_normal((m, n)).astype(np.float32)
            a, b = tt.from_numpy(a_np), tt.from_numpy(b_np)
            ta, tb = torch.from_numpy(a_np), torch.from_numpy(b_np)
            assert same(a + b.t(), ta + tb.T, 'add') is None
            assert same(b.t().contiguous(), tb.T.contiguous(), 'contiguous') is None
            assert same(b.t().to(tt.float64), tb.T.to(torch.float64), 'to') is None
        c_np = rng.standard_normal((5, 300, 200)).astype(np.float32)
        assert same(tt.from_numpy(c_np).transpose(1, 2).contiguous(), torch.from_numpy(c_np).transpose(1, 2).contiguous(), 'contiguous') is None
    finally: tt.set_num_threads(old)

@pytest.mark.parametrize('threads', [1, 2, 4])
@pytest.mark.parametrize('dt', ['float32', 'float64'])
def test_tall_blocks_match_torch(threads, dt):
    "Note [streaming tiles]: a short output dim 0 (NCHW <-> NHWC) gets taller blocks; copies and adds still equal torch's."
    from tinytensor import large_tensors as ti
    rng = np.random.default_rng(threads)
    with num_threads(threads):
        for shp, nblocks in [((2, 64, 70, 70), 2), ((1, 16, 129, 150), 2), ((1, 130, 61, 70), 3), ((5, 24, 5, 700), 1)]:
            x_np = rng.standard_normal(shp).astype(dt)
            x, xt = tt.from_numpy(x_np), torch.from_numpy(x_np)
            cl = x.contiguous(memory_format=tt.channels_last)
            it = TensorIteratorConfig().add_output(tt.empty(shp, dtype=x.dtype, memory_format=tt.channels_last)).add_input(x).build()
            j, _ = it._stage_plan()
            rows = max(ti.STAGE_ROWS, ti.STAGE_TALL // it.shape_[0])
            assert rows > ti.STAGE_ROWS and -(-it.shape_[j] // rows) == nblocks    # tall blocks, a partial one last
            assert same(cl, xt.contiguous(memory_format=torch.channels_last), 'contiguous') is None
            assert same(cl.contiguous(), xt.contiguous(memory_format=torch.channels_last).contiguous(), 'contiguous') is None
            assert same(cl + x, xt.contiguous(memory_format=torch.channels_last) + xt, 'add') is None
            assert same(x - cl, xt - xt.contiguous(memory_format=torch.channels_last), 'sub') is None

def test_column_broadcast_not_staged():
    "An input broadcast along the output's fastest dim (A + v[:, None]) is read in place, never staged; values as torch's."
    rng = np.random.default_rng(3)
    a_np, v_np = rng.standard_normal((700, 600), dtype=np.float32), rng.standard_normal(700, dtype=np.float32)
    A, v = tt.from_numpy(a_np), tt.from_numpy(v_np)
    it = TensorIteratorConfig().add_output(None).add_input(A).add_input(v[:, None]).build()
    assert it._stage_plan() is None
    it = TensorIteratorConfig().add_output(None).add_input(A).add_input(v[:, None]).add_input(A.t().contiguous().t()).build()
    assert it._stage_plan() == (1, [3])                                   # a transposed input beside it still is
    assert same(A + v[:, None], torch.from_numpy(a_np) + torch.from_numpy(v_np)[:, None], 'add') is None
    assert same(v[:, None] * A.t().contiguous().t(), torch.from_numpy(v_np)[:, None] * torch.from_numpy(a_np).t().contiguous().t(), 'mul') is None

@pytest.mark.parametrize('threads', [1, 2])
def test_staging_into_output_only_without_overlap(threads):
    "Note [staging into the output]: in-place and out= forms where the output shares memory with an input stay exact (vs torch)."
    from tinytensor import large_tensors as ti
    old = tt.get_num_threads(); tt.set_num_threads(threads)
    rng = np.random.default_rng(11)
    try:
        for m, n in [(300, 517), (640, 384)]:
            a_np, b_np = rng.standard_normal((m, n), dtype=np.float32), rng.standard_normal((n, m), dtype=np.float32)
            sq = rng.standard_normal((m, m), dtype=np.float32)
            cases = [lambda M, a, b, s: a + b.t(),                                 # fresh output: straight into it
                     lambda M, a, b, s: a.add_(b.t()),                             # out is an input: scratch staging
                     lambda M, a, b, s: M.sub(b.t(), a, out=a),                    # out= an input, staged input first
                     lambda M, a, b, s: M.mul(a, b.t(), out=M.empty(0)),           # a resized out=
                     lambda M, a, b, s: s.add_(s.t()),                             # in place with its own transpose
                     lambda M, a, b, s: s + s.t()]
            for f in cases:
                try: r_t = f(torch, torch.from_numpy(a_np.copy()), torch.from_numpy(b_np.copy()), torch.from_numpy(sq.copy()))
                except RuntimeError:                                                 # torch refuses a partial overlap
                    with pytest.raises(RuntimeError): f(tt, tt.from_numpy(a_np.copy()), tt.from_numpy(b_np.copy()), tt.from_numpy(sq.copy()))
                    continue
                r = f(tt, tt.from_numpy(a_np.copy()), tt.from_numpy(b_np.copy()), tt.from_numpy(sq.copy()))
                assert r.shape == tuple(r_t.shape) and r.stride() == r_t.stride()
                np.testing.assert_array_equal(r.numpy(), r_t.numpy())
        A, B = tt.from_numpy(a_np), tt.from_numpy(b_np)
        def plan(x, y, out=None):
            it = TensorIteratorConfig().add_output(out).add_input(x).add_input(y).build()
            loop = lambda o, p, q: np.add(p, q, out=o); loop.ufunc = np.add
            return it._stage_into_output(loop, it._bases(), it._stage_plan()[1])
        assert plan(A, B.t()) == (2 if ti._omatcopy else None)                    # fresh output: the transposed input
        assert plan(A, B.t(), out=A) is None                                       # the output is an input
    finally: tt.set_num_threads(old)
