"Differential tests of the joining chapter against torch: cat/stack/hstack/vstack/dstack/column_stack and flip."
import warnings
import numpy as np
import pytest
torch = pytest.importorskip("torch")
from hypothesis import given, settings, strategies as st, HealthCheck
import tinytensor as tt
from ttgen import pair, LAYOUTS, run_both, check_results

DTS = ['float32', 'float64', 'int64', 'int32', 'uint8', 'int8', 'bool', 'float16', 'bfloat16', 'int16']

def both_call(f, op, ctx=''):
    ra, rb = run_both(lambda: f(tt), lambda: f(torch))
    msg = check_results(ra, rb, op, ctx=ctx)
    assert msg is None, msg
    if isinstance(rb, torch.Tensor): assert (ra._base is None) == (rb._base is None), f'{ctx}: view-ness'
    return ra, rb

def inputs(rng, shape, k, dim, vary=True):
    "k pairs of (tt, torch) tensors that agree with `shape` except (maybe) at `dim`, in random dtypes and layouts."
    out = []
    for _ in range(k):
        s = list(shape)
        if vary and s and rng.random() < 0.8: s[dim] = int(rng.integers(0, 4))
        if rng.random() < 0.05 and s: s[int(rng.integers(0, len(s)))] += 1          # a shape mismatch
        if rng.random() < 0.08: s = [0]                                            # a legacy empty input
        dt = str(rng.choice(DTS)) if rng.random() < 0.4 else 'float32'
        kind = str(rng.choice(LAYOUTS))
        if len(s) == 4 and rng.random() < 0.4: kind = 'cl'
        out.append(pair(rng, tuple(s), dt, kind, lo=-5, hi=6))
    return out

@pytest.mark.parametrize('block', range(4))
def test_cat_stack_random(block):
    for seed in range(block * 250, (block + 1) * 250):
        rng = np.random.default_rng(seed)
        nd = int(rng.integers(1, 5))
        shape = tuple(int(v) for v in rng.integers(0, 4, nd))
        dim = int(rng.integers(-nd, nd))
        ps = inputs(rng, shape, int(rng.integers(1, 4)), dim)
        A, B = [p[0] for p in ps], [p[1] for p in ps]
        both_call(lambda L: L.cat(A if L is tt else B, dim), 'cat', f'seed {seed} cat dim {dim} {[tuple(b.shape) for b in B]}')
        both_call(lambda L: L.concat(A if L is tt else B, dim=dim), 'concat', f'seed {seed} concat')
        if rng.random() < 0.5:
            oshape = tuple(int(v) for v in rng.integers(0, 3, int(rng.integers(0, 3))))
            odt = str(rng.choice(['float32', 'float64', 'int64', 'bool']))
            def f(L):
                o = L.zeros(oshape, dtype=getattr(L, odt))
                L.cat(A if L is tt else B, dim, out=o)
                return o, o._version
            ra, rb = run_both(lambda: f(tt), lambda: f(torch))
            if isinstance(rb, tuple):
                assert not isinstance(ra, Exception), f'seed {seed} cat out: {ra}'
                assert ra[1] == rb[1], f'seed {seed}: out version {ra[1]} != {rb[1]}'
                ra, rb = ra[0], rb[0]
            msg = check_results(ra, rb, 'cat', ctx=f'seed {seed} cat out={oshape} {odt}')
            assert msg is None, msg
        sp = inputs(rng, shape, int(rng.integers(1, 4)), 0, vary=False)
        SA, SB = [p[0] for p in sp], [p[1] for p in sp]
        sd = int(rng.integers(-nd - 1, nd + 1))
        both_call(lambda L: L.stack(SA if L is tt else SB, sd), 'stack', f'seed {seed} stack dim {sd}')
        for name in ('hstack', 'vstack', 'dstack', 'column_stack'):
            both_call(lambda L: getattr(L, name)(SA if L is tt else SB), name, f'seed {seed} {name}')

@pytest.mark.parametrize('block', range(2))
def test_flip_random(block):
    for seed in range(5000 + block * 250, 5000 + (block + 1) * 250):
        rng = np.random.default_rng(seed)
        nd = int(rng.integers(0, 5))
        shape = tuple(int(v) for v in rng.integers(0, 4, nd))
        a, b = pair(rng, shape, str(rng.choice(DTS)), str(rng.choice(LAYOUTS)), lo=-5, hi=6)
        dims = [int(v) for v in rng.integers(-nd - 1, nd + 1, int(rng.integers(0, nd + 2)))] if nd else \
               [int(v) for v in rng.integers(-1, 1, int(rng.integers(0, 2)))]
        both_call(lambda L: (a if L is tt else b).flip(dims), 'flip', f'seed {seed} flip {dims} on {shape} {b.stride()}')
        both_call(lambda L: L.flip(a if L is tt else b, dims), 'flip', f'seed {seed} torch.flip')
        both_call(lambda L: L.fliplr(a if L is tt else b), 'fliplr', f'seed {seed} fliplr')
        both_call(lambda L: (a if L is tt else b).flipud(), 'flipud', f'seed {seed} flipud')

@pytest.mark.parametrize('f', [
    lambda L: L.cat([]), lambda L: L.cat([L.tensor(1.)]), lambda L: L.cat([L.zeros(2, 3), L.zeros(3)]),
    lambda L: L.cat([L.zeros(2, 3), L.zeros(2, 4)]), lambda L: L.cat([L.zeros(2, 3), L.zeros(2, 4)], 2),
    lambda L: L.cat([L.zeros(0), L.zeros(0, dtype=L.int64)], 5), lambda L: L.cat([L.zeros(2, 3), 1]),
    lambda L: L.cat(L.zeros(2, 3)), lambda L: L.cat([L.zeros(2, 3, dtype=L.int32)], out=L.zeros(2, 3, dtype=L.bool)),
    lambda L: L.cat([L.zeros(2, 3)], out=L.zeros(2, 3, dtype=L.int64)), lambda L: L.stack([]),
    lambda L: L.stack([L.zeros(2), L.zeros(3)]), lambda L: L.stack([L.tensor(1.), L.tensor(2)]),
    lambda L: L.hstack([]), lambda L: L.vstack([L.tensor(1.), L.zeros(1)]),
    lambda L: L.dstack([L.tensor(1.), L.zeros(1), L.zeros(1, 1)]), lambda L: L.column_stack([L.tensor(1.), L.zeros(1), L.zeros(1, 1)]),
    lambda L: L.flip(L.zeros(2, 3), [0, 0]), lambda L: L.flip(L.zeros(2, 3), [2]), lambda L: L.fliplr(L.zeros(2)),
    lambda L: L.flipud(L.tensor(1.)), lambda L: L.flip(L.tensor(1.), [0]),
    lambda L: L.atleast_1d(L.tensor(1.)), lambda L: L.atleast_2d(L.zeros(3)), lambda L: L.atleast_3d(L.zeros(2, 3))])
def test_joining_errors_and_edges(f):
    ra, rb = run_both(lambda: f(tt), lambda: f(torch))
    msg = check_results(ra, rb, 'joining')
    assert msg is None, msg
    if isinstance(rb, Exception):
        assert str(rb).split('\n')[0][:40] in str(ra), f'{ra} vs {rb}'

def test_cat_out_overlap_refused():
    for L in (tt, torch):
        x = L.zeros(4)
        with pytest.raises(RuntimeError, match='single memory location'): L.cat([x[:2], x[:2]], out=x)

@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(1, 4).flatmap(lambda nd: st.tuples(
    st.lists(st.integers(0, 3), min_size=nd, max_size=nd), st.permutations(range(nd)), st.integers(-nd, nd - 1),
    st.lists(st.integers(0, 3), min_size=1, max_size=3))))
def test_cat_property(case):
    "Property: cat of permuted (non-contiguous) inputs with varying sizes at `dim` agrees with torch in layout and values."
    shape, perm, dim, lens = case
    inv = list(np.argsort(perm))
    ins = []
    for i, n in enumerate(lens):
        s = list(shape); s[dim] = n
        phys = [s[p] for p in perm]
        base = np.arange(int(np.prod(phys)), dtype=np.float64).reshape(phys) + 100 * i
        ins.append(base)
    A = [tt.tensor(b).permute(*inv) if b.size else tt.empty(b.shape, dtype=tt.float64).permute(*inv) for b in ins]
    B = [torch.tensor(b).permute(*inv) if b.size else torch.empty(b.shape, dtype=torch.float64).permute(*inv) for b in ins]
    ra, rb = run_both(lambda: tt.cat(A, dim), lambda: torch.cat(B, dim))
    msg = check_results(ra, rb, 'cat', ctx=f'{shape} perm {perm} dim {dim} lens {lens}')
    assert msg is None, msg

@pytest.mark.parametrize('block', range(2))
def test_repeat_tile_random(block):
    "Tensor.repeat, tile (function and method) on random dtypes, layouts, size-0 dims, short/long/zero repeat lists."
    for seed in range(70000 + block * 200, 70000 + (block + 1) * 200):
        rng = np.random.default_rng(seed)
        nd = int(rng.integers(0, 4))
        shape = tuple(int(v) for v in rng.integers(0, 4, nd))
        a, b = pair(rng, shape, str(rng.choice(DTS)), str(rng.choice(LAYOUTS)), lo=-5, hi=6)
        X = {tt: a, torch: b}
        reps = tuple(int(v) for v in rng.integers(0, 3, int(rng.integers(max(nd - 1, 0), nd + 3))))
        if rng.random() < 0.03 and reps: reps = (-1,) + reps[1:]
        both_call(lambda L: X[L].repeat(*reps) if reps else X[L].repeat(()), 'repeat', f'seed {seed} repeat {reps}')
        both_call(lambda L: X[L].repeat(list(reps)), 'repeat', f'seed {seed} repeat list {reps}')
        both_call(lambda L: L.tile(X[L], reps), 'tile', f'seed {seed} tile {reps}')
        both_call(lambda L: X[L].tile(*reps) if reps else X[L].tile(()), 'tile', f'seed {seed} Tensor.tile {reps}')

@pytest.mark.parametrize('f', [
    lambda L: L.concatenate([L.ones(2, 3), L.zeros(2, 1)], dim=-1), lambda L: L.concatenate([L.ones(2, 3), L.zeros(2, 1)], axis=-1),
    lambda L: L.concatenate([L.ones(2, 3), L.zeros(2, 1)], 1), lambda L: L.concat([L.ones(2, 3), L.zeros(2, 1)], axis=1),
    lambda L: L.cat([L.ones(2, 3), L.zeros(2, 1)], axis=1), lambda L: L.concatenate([L.ones(2, 3), L.zeros(2, 1)], dim=1, axis=1),
    lambda L: L.row_stack([L.ones(3), L.arange(3.)]), lambda L: L.row_stack([L.ones(2, 3), L.tensor(1.).expand(1, 3)]),
    lambda L: L.row_stack([]), lambda L: L.row_stack([L.ones(3), L.ones(2)]),
    lambda L: L.row_stack([L.ones(3), L.ones(3)], out=L.empty(0)),
    lambda L: L.ones(2, 3).repeat(2), lambda L: L.ones(2, 3).repeat(-1, 1), lambda L: L.ones(2, 3).repeat(),
    lambda L: L.ones(2, 3).tile(-1, 1), lambda L: L.tile(L.ones(2, 3), 2), lambda L: L.tensor(1.).repeat(())])
def test_joining_extra_errors_and_edges(f):
    ra, rb = run_both(lambda: f(tt), lambda: f(torch))
    msg = check_results(ra, rb, 'joining')
    assert msg is None, msg
    if isinstance(rb, Exception):
        assert str(rb).split('\n')[0].replace('torch.', 'tinytensor.')[:40] in str(ra), f'{ra} vs {rb}'
