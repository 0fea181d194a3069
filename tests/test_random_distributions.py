"""Chapter 25's sampling methods against torch: uniform_, normal_, normal, random_, bernoulli(_), exponential_, randperm
and multinomial give torch's CPU values seed for seed, byte for byte, and leave the generator in torch's state (all
5056 bytes) after every call; their errors have torch's exception types."""
import warnings
import numpy as np
import pytest
import tinytensor as tt

torch = pytest.importorskip("torch")
from ttgen import same, run_both, check_results
from test_random import SAME_PATH, raw, state_tt, state_th

SEEDS = [0, 1, 42, 2**32 + 5]
SIZES = [0, 1, 5, 16, 17, 100, 1000]
FLOATS = ['float32', 'float64', 'float16', 'bfloat16']
INTS = ['int64', 'int32', 'int16', 'int8', 'uint8', 'bool']


def vec(m, x, d):
    "The numpy values `x` as a tensor of module `m` with dtype name `d` (built the same way on both sides)."
    return m.from_numpy(np.asarray(x, np.float64)).to(getattr(m, d))

def check(name, f, seed, explicit, normal_path=False):
    "Run `f(module, generator)` on both sides after seeding; a reason why they differ, or None."
    if explicit: g = (tt.Generator().manual_seed(seed), torch.Generator().manual_seed(seed))
    else:
        tt.manual_seed(seed); torch.manual_seed(seed)
        g = (None, None)
    a, b = run_both(lambda: f(tt, g[0]), lambda: f(torch, g[1]))
    if isinstance(a, Exception) or isinstance(b, Exception): return check_results(a, b, 'rand', name)
    if normal_path and not SAME_PATH and b.dtype in (torch.float32, torch.float16, torch.bfloat16, torch.complex64):
        # tinytensor picked another CPU capability than torch: only the float normal path differs (test_random's Note)
        warnings.warn(f'{name}: capabilities differ, the float normal path is compared with tolerances')
        m = same(a, b, 'exp')
    else: m = same(a, b, 'rand') or (None if raw(a) == raw(b) else 'bytes differ')
    if m: return f'{name}: {m}'
    if state_tt(g[0]) != state_th(g[1]): return f'{name}: generator state differs'


def cases_in_place(n):
    "(name, f, uses the normal path) for the in-place methods on a fresh 1-d tensor of n elements."
    for d in FLOATS + ['complex64']:
        yield f'uniform_ {d}', lambda m, g: m.empty(n, dtype=getattr(m, d)).uniform_(-3, 5.5, generator=g), False
        yield f'normal_ {d}', lambda m, g: m.empty(n, dtype=getattr(m, d)).normal_(2, 3, generator=g), True
    for d in FLOATS:
        yield f'exponential_ {d}', lambda m, g: m.empty(n, dtype=getattr(m, d)).exponential_(1.5, generator=g), False
    for d in FLOATS + INTS:
        yield f'random_() {d}', lambda m, g: m.empty(n, dtype=getattr(m, d)).random_(generator=g), False
        yield f'random_(to) {d}', lambda m, g: m.empty(n, dtype=getattr(m, d)).random_(100, generator=g), False
        yield f'random_(from, to) {d}', lambda m, g: m.empty(n, dtype=getattr(m, d)).random_(-3, 70, generator=g), False
        yield f'random_(from, None) {d}', lambda m, g: m.empty(n, dtype=getattr(m, d)).random_(3, None, generator=g), False
        yield f'random_(-2**63, None) {d}', \
            lambda m, g: m.empty(n, dtype=getattr(m, d)).random_(-2**63, None, generator=g), False
        yield f'bernoulli_(0.3) {d}', lambda m, g: m.empty(n, dtype=getattr(m, d)).bernoulli_(0.3, generator=g), False
        yield f'randperm {d}', lambda m, g: m.randperm(n, dtype=getattr(m, d), generator=g), False

def cases_tensor_args(n):
    "(name, f, uses the normal path) for the forms that take probabilities, means or stds as tensors."
    p, mu, sd = np.linspace(0, 1, n), np.arange(n) - 3.5, np.linspace(0, 2, n)
    for d in FLOATS:
        yield f'bernoulli(p) {d}', lambda m, g: m.bernoulli(vec(m, p, d), generator=g), False
        yield f'bernoulli_(p) int64<-{d}', lambda m, g: m.empty(n, dtype=m.int64).bernoulli_(vec(m, p, d), generator=g), \
            False
        yield f'normal(T, T) {d}', lambda m, g: m.normal(vec(m, mu, d), vec(m, sd, d), generator=g), True
        yield f'normal(T, f) {d}', lambda m, g: m.normal(vec(m, mu, d), 0.7, generator=g), True
        yield f'normal(f, T) {d}', lambda m, g: m.normal(0.3, vec(m, sd, d), generator=g), True
        yield f'normal(f, f, size) {d}', lambda m, g: m.normal(0.3, 2., (n,), dtype=getattr(m, d), generator=g), True
        if not n: continue
        w = np.where(np.arange(2 * n) % 3 == 0, 0., np.arange(2 * n) + 1.)      # zeros: ties among the ratios
        for k in sorted({1, min(n, 3), n}):
            for rep in (False, True):
                yield f'multinomial {d} k={k} {rep}', \
                    lambda m, g: m.multinomial(vec(m, w, d).reshape(2, n), k, rep, generator=g), False
                yield f'multinomial 1-d {d} k={k} {rep}', \
                    lambda m, g: m.multinomial(vec(m, w[:n], d), k, rep, generator=g), False


@pytest.mark.parametrize('explicit', [False, True], ids=['default', 'generator'])
@pytest.mark.parametrize('seed', SEEDS)
def test_in_place_seed_for_seed(seed, explicit):
    bad = [m for n in SIZES for name, f, nrm in cases_in_place(n)
           if (m := check(f'{name} n={n}', f, seed, explicit, nrm))]
    assert not bad, bad[:5]

@pytest.mark.parametrize('explicit', [False, True], ids=['default', 'generator'])
@pytest.mark.parametrize('seed', SEEDS)
def test_tensor_arguments_seed_for_seed(seed, explicit):
    bad = [m for n in SIZES for name, f, nrm in cases_tensor_args(n)
           if (m := check(f'{name} n={n}', f, seed, explicit, nrm))]
    assert not bad, bad[:5]


def test_multinomial_ties_follow_torchs_topk():
    "All categories drawn without replacement: every zero-probability category ties at ratio 0, and the tied block"
    " comes out in the order of ATen's topk (libstdc++'s unstable sort), which chapter 21's topk reproduces."
    bad = []
    for seed in range(20):
        w = np.random.RandomState(seed).rand(300)
        w[w < 0.6] = 0
        m = check(f'ties {seed}', lambda m, g: m.multinomial(vec(m, w, 'float32'), 300, generator=g), seed, True)
        if m: bad.append(m)
    assert not bad, bad[:3]


def test_layouts_and_out():
    "In-place methods fill a view in the order of its addresses; out= tensors are resized as torch resizes them."
    def base(m): return m.empty(6, 8)
    cases = [lambda m, g: base(m).t().uniform_(1, 2, generator=g),
             lambda m, g: base(m)[:, ::2].normal_(generator=g),                    # not contiguous: one at a time
             lambda m, g: base(m).t().normal_(generator=g),
             lambda m, g: m.empty(5, 40)[:, 4:24].normal_(generator=g),
             lambda m, g: base(m)[::2].random_(0, 9, generator=g),
             lambda m, g: base(m).t().exponential_(generator=g),
             lambda m, g: base(m).t().bernoulli_(m.linspace(0, 1, 6), generator=g),
             lambda m, g: base(m)[1:, ::3].bernoulli_(0.5, generator=g),
             lambda m, g: m.randperm(7, generator=g, out=m.empty(14, dtype=m.int64)[::2]),
             lambda m, g: m.randperm(7, generator=g, out=m.empty(0, dtype=m.int32)),
             lambda m, g: m.normal(0., 1., (3, 4), generator=g, out=m.empty(0)),
             lambda m, g: m.normal(m.zeros(3, 4), m.ones(4), generator=g),
             lambda m, g: m.bernoulli(m.full((4, 3), 0.5).t(), generator=g),
             lambda m, g: m.multinomial(m.ones(6, 4).t(), 2, generator=g),
             lambda m, g: m.multinomial(m.ones(3, 5), 2, generator=g, out=m.empty(0, dtype=m.int64)),
             lambda m, g: m.ones(3, 5).multinomial(4, True, generator=g),
             lambda m, g: m.ones(4).bernoulli(0.25, generator=g)]
    bad = [m for i, f in enumerate(cases) if (m := check(f'layout {i}', f, 5, True, True))]
    assert not bad, bad


def test_version_and_overlap():
    x = tt.empty(4)
    v = x._version
    x.uniform_(); x.normal_(); x.random_(3); x.exponential_(); x.bernoulli_(0.5)
    assert x._version == v + 5
    for op in ('uniform_', 'normal_', 'random_', 'exponential_', 'bernoulli_'):
        a, b = run_both(lambda: getattr(tt.empty(3).expand(2, 3), op)(),
                        lambda: getattr(torch.empty(3).expand(2, 3), op)())
        assert check_results(a, b, 'rand', op) is None, (op, a, b)


ERRORS = [
    lambda m: m.empty(3).uniform_(2, 1),
    lambda m: m.empty(3).uniform_(0, float('inf')),
    lambda m: m.empty(3, dtype=m.float16).uniform_(-60000, 60000),
    lambda m: m.empty(3, dtype=m.float16).uniform_(0, 70000),
    lambda m: m.empty(3, dtype=m.int32).uniform_(),
    lambda m: m.empty(0, dtype=m.int32).uniform_(),
    lambda m: m.empty(3).normal_(0, -1),
    lambda m: m.empty(3, dtype=m.int64).normal_(),
    lambda m: m.empty(0, dtype=m.int64).normal_(0, -1),
    lambda m: m.normal(m.zeros(3), -1.),
    lambda m: m.normal(m.zeros(3), m.tensor([1., -1., 1.])),
    lambda m: m.normal(0., -1., (3,)),
    lambda m: m.normal(m.zeros(3), m.ones(2)),
    lambda m: m.normal(m.zeros(3, dtype=m.int64), m.ones(3)),
    lambda m: m.normal(m.ones(3), m.ones(3, dtype=m.complex64)),
    lambda m: m.normal(2., 3.),
    lambda m: m.empty(3).exponential_(0),
    lambda m: m.empty(3).exponential_(-1),
    lambda m: m.empty(3, dtype=m.int64).exponential_(),
    lambda m: m.empty(3, dtype=m.complex64).exponential_(),
    lambda m: m.empty(3).bernoulli_(1.5),
    lambda m: m.empty(3).bernoulli_(m.tensor([0.5, 1.5, 0.2])),
    lambda m: m.empty(3).bernoulli_(m.tensor([0.5, float('nan'), 0.2])),
    lambda m: m.empty(3, dtype=m.int64).bernoulli_(m.tensor([0, 1, 0])),
    lambda m: m.empty(3).bernoulli_(m.ones(2)),
    lambda m: m.empty(3, dtype=m.complex64).bernoulli_(0.5),
    lambda m: m.bernoulli(m.tensor([1, 0])),
    lambda m: m.empty(3).random_(5, 2),
    lambda m: m.empty(3, dtype=m.uint8).random_(-1, 3),
    lambda m: m.empty(3, dtype=m.uint8).random_(0, 300),
    lambda m: m.empty(3, dtype=m.int8).random_(200),
    lambda m: m.empty(3, dtype=m.complex64).random_(),
    lambda m: m.empty(3, dtype=m.float16).random_(-2**63, None),
    lambda m: m.empty(3, dtype=m.int32).random_(-2**63, None),
    lambda m: m.empty(3).random_(2.5),
    lambda m: m.randperm(-1),
    lambda m: m.randperm(-1, out=m.empty(0, dtype=m.int64)),
    lambda m: m.randperm(2050, dtype=m.float16),
    lambda m: m.randperm(3, dtype=m.bool),
    lambda m: m.randperm(3, dtype=m.complex64),
    lambda m: m.randperm(129, dtype=m.int8),
    lambda m: m.randperm(257, dtype=m.uint8),
    lambda m: m.randperm(3, dtype=m.int32, out=m.empty(0, dtype=m.int64)),
    lambda m: m.multinomial(m.tensor([0.5, -1.]), 1),
    lambda m: m.multinomial(m.tensor([0.5, -1.]), 2, True),
    lambda m: m.multinomial(m.tensor([0., 0.]), 1),
    lambda m: m.multinomial(m.tensor([0., 0.]), 2, True),
    lambda m: m.multinomial(m.tensor([0.5, float('inf')]), 2, True),
    lambda m: m.multinomial(m.tensor([0.5, float('nan')]), 2, True),
    lambda m: m.multinomial(m.tensor([0.5, float('nan')]), 1),
    lambda m: m.multinomial(m.tensor([0.5, 0.5]), 3),
    lambda m: m.multinomial(m.tensor([0.5, 0.5]), 0),
    lambda m: m.multinomial(m.tensor([1, 2]), 1),
    lambda m: m.multinomial(m.ones(2, 2, 2), 1),
    lambda m: m.multinomial(m.ones(()), 1),
    lambda m: m.multinomial(m.ones(3), 2, out=m.empty(2, dtype=m.int32)),
]

def test_errors_as_torch():
    bad = []
    for i, f in enumerate(ERRORS):
        a, b = run_both(lambda: f(tt), lambda: f(torch))
        if not isinstance(b, Exception): bad.append(f'{i}: torch did not raise')
        elif m := check_results(a, b, 'rand', i): bad.append(m)
        elif str(a).split('\n')[0] != str(b).split('\n')[0] and not isinstance(b, TypeError) \
                and 'size of tensor' not in str(b) and 'negative dimension' not in str(b):
            bad.append(f'{i}: message {a} != {b}')
    assert not bad, bad
