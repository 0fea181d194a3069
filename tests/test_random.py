"""Chapter 25 against torch: rand, randn, randint and their *_like forms give torch's CPU numbers seed for seed, bit for
bit, and leave the generator in torch's state (the 5056 bytes of get_rng_state) after every call."""
import os, subprocess, sys, warnings
import numpy as np
import pytest
import tinytensor as tt
from tinytensor.random import cpu_math

torch = pytest.importorskip("torch")
from ttgen import same, run_both, check_results

SEEDS = [0, 1, 42, 2**32 + 5, 2**63 - 1]
SIZES = [0, 1, 5, 15, 16, 17, 100, 1000]
FLOATS = ['float32', 'float64', 'float16', 'bfloat16', 'complex64', 'complex128']
INTS = ['int64', 'int32', 'int16', 'int8', 'uint8', 'bool', 'float32', 'float64', 'float16', 'bfloat16']
RANGES = [(0, 2), (3, 10), (-5, 100), (0, 2**28 - 1), (0, 2**28), (-2**40, 2**40), (0, 2**62)]

# Note: the float32 (and half) normal path of torch's AVX2 kernels is emulated exactly (avx_mathfun with GCC's fused
# multiply-adds) and the DEFAULT kernels call glibc's logf/sinf/cosf, so the values are exact on either capability
# as long as tinytensor picks the capability torch picked. If it does not, only that path differs: it is compared
# with torch's tolerances, with a warning that says so.
TORCH_CAP = torch.backends.cpu.get_cpu_capability()
SAME_PATH = (cpu_math.CAPABILITY == 'DEFAULT') == (TORCH_CAP == 'DEFAULT')


def raw(x):
    "The bytes of a tinytensor or torch tensor's values (bfloat16 as its bits)."
    # bfloat16 has no numpy() in either library: read through its bits
    L = tt if isinstance(x, tt.Tensor) else torch
    if x.dtype == L.bfloat16: x = x.view(L.int16)
    return np.ascontiguousarray(x.numpy()).tobytes()

def state_tt(g=None): return bytes(np.asarray((g.get_state() if g else tt.get_rng_state()).tolist(), np.uint8))
def state_th(g=None): return bytes((g.get_state() if g else torch.get_rng_state()).numpy())

def compare(a, b, op, ctx, gens=(None, None)):
    "A reason why tinytensor's draw `a` differs from torch's `b` (values or the generator's state after), or None."
    tol_path = op == 'randn' and not SAME_PATH and b.dtype in (torch.float32, torch.float16, torch.bfloat16,
                                                               torch.complex64)
    if tol_path:
        warnings.warn(f'{ctx}: tinytensor picked capability {cpu_math.CAPABILITY}, torch {TORCH_CAP}: the float normal '
                      'path is compared with tolerances')
        m = same(a, b, 'exp')                          # a TRANSCENDENTAL rule: torch's tolerances
    else:
        m = same(a, b, op) or (None if raw(a) == raw(b) else 'bytes differ')
    if m: return f'{ctx}: {m}'
    if state_tt(gens[0]) != state_th(gens[1]): return f'{ctx}: generator state differs'


@pytest.mark.parametrize('explicit', [False, True], ids=['default', 'generator'])
@pytest.mark.parametrize('fn', ['rand', 'randn'])
@pytest.mark.parametrize('seed', SEEDS)
def test_rand_randn_seed_for_seed(seed, fn, explicit):
    bad = []
    for n in SIZES:
        for d in FLOATS:
            g = (tt.Generator().manual_seed(seed), torch.Generator().manual_seed(seed)) if explicit else (None, None)
            if not explicit: tt.manual_seed(seed); torch.manual_seed(seed)
            for rep in range(2):                        # the second draw starts where the first left the engine
                a = getattr(tt, fn)(n, dtype=getattr(tt, d), generator=g[0])
                b = getattr(torch, fn)(n, dtype=getattr(torch, d), generator=g[1])
                if m := compare(a, b, fn, (seed, n, d, rep), g): bad.append(m)
    assert not bad, bad[:5]


@pytest.mark.parametrize('seed', SEEDS)
def test_randint_seed_for_seed(seed):
    bad = []
    for n in SIZES:
        for d in INTS:
            for lo, hi in RANGES:
                tt.manual_seed(seed); torch.manual_seed(seed)
                with warnings.catch_warnings():
                    warnings.simplefilter('ignore')     # torch warns about ranges a float dtype holds inexactly
                    a, b = run_both(lambda: tt.randint(lo, hi, (n,), dtype=getattr(tt, d)),
                                    lambda: torch.randint(lo, hi, (n,), dtype=getattr(torch, d)))
                if isinstance(b, Exception):
                    if m := check_results(a, b, 'randint', (seed, n, d, lo, hi)): bad.append(m)
                elif m := compare(a, b, 'randint', (seed, n, d, lo, hi)): bad.append(m)
    assert not bad, bad[:5]


def test_randint_forms_and_generator():
    g = (tt.Generator().manual_seed(7), torch.Generator().manual_seed(7))
    for args in [(10, (3, 4)), (-3, 3, (17,)), (2**30, (5,)), (0, 2**63 - 1, (4,))]:
        a, b = tt.randint(*args, generator=g[0]), torch.randint(*args, generator=g[1])
        assert compare(a, b, 'randint', args, g) is None


def test_normal_cache_between_paths():
    "The element-at-a-time path caches its spare sample; the fill path (>= 16 contiguous) neither reads nor clears it."
    tt.manual_seed(3); torch.manual_seed(3)
    for n in (1, 100, 1, 3, 16, 2, 5):
        assert compare(tt.randn(n, dtype=tt.float64), torch.randn(n, dtype=torch.float64), 'randn', n) is None
        assert compare(tt.randn(n), torch.randn(n), 'randn', n) is None


def test_layouts_like_and_out():
    "Dense non-contiguous results are written in memory order; randn's fill path needs a contiguous tensor."
    cases = [lambda m, s: m.rand_like(s(m).empty(2, 3, 4, 5).to(memory_format=m.channels_last)),
             lambda m, s: m.randn_like(s(m).empty(2, 3, 4, 5).to(memory_format=m.channels_last)),
             lambda m, s: m.randn_like(s(m).empty(6, 5).t(), dtype=m.float64),
             lambda m, s: m.randint_like(s(m).empty(4, 5).t(), 3, 9),
             lambda m, s: m.rand(4, 5, out=s(m).empty(5, 4).t()),
             lambda m, s: m.randn(5, 4, out=s(m).empty(4, 5).t()),
             lambda m, s: m.randn(3, 7, dtype=m.complex64),
             lambda m, s: m.randn(2, 5, out=s(m).empty(3, 10)[:2, ::2].clone())]
    for i, f in enumerate(cases):
        tt.manual_seed(i); torch.manual_seed(i)
        a, b = f(tt, lambda m: m), f(torch, lambda m: m)
        op = 'randint' if i == 3 else 'rand'
        assert compare(a, b, op, i) is None


def test_out_with_overlap_is_refused_as_torch():
    a, b = run_both(lambda: tt.rand(3, 4, out=tt.empty(4).expand(3, 4)),
                    lambda: torch.rand(3, 4, out=torch.empty(4).expand(3, 4)))
    assert check_results(a, b, 'rand', 'expanded out') is None


def test_state_bytes_and_set_state():
    assert tt.Generator().initial_seed() == torch.Generator().initial_seed() == 67280421310721
    assert state_tt(tt.Generator()) == state_th(torch.Generator())
    torch.manual_seed(5); torch.rand(700); torch.randn(3, dtype=torch.float64)      # a cached normal in the state
    st = torch.get_rng_state()
    tt.set_rng_state(tt.from_numpy(st.numpy().copy()))
    assert state_tt() == bytes(st.numpy())
    assert compare(tt.randn(7, dtype=tt.float64), torch.randn(7, dtype=torch.float64), 'randn', 'restored') is None
    g = tt.Generator().set_state(tt.get_rng_state())
    assert state_tt(g) == state_tt()


def test_hand_made_state():
    "A state with left + next != 625 reads left - 1 words from `next` before regenerating, as torch's engine does."
    s = torch.Generator().manual_seed(9).get_state().numpy().copy()
    s[8:12] = np.frombuffer(np.int32(40).tobytes(), np.uint8)          # left
    s[16:24] = np.frombuffer(np.uint64(100).tobytes(), np.uint8)       # next
    g = (tt.Generator().set_state(tt.from_numpy(s.copy())), torch.Generator())
    g[1].set_state(torch.from_numpy(s.copy()))
    for n in (10, 29, 1, 700):
        assert compare(tt.rand(n, generator=g[0]), torch.rand(n, generator=g[1]), 'rand', n, g) is None


def test_seeding_edges_and_errors():
    for s in (-1, -2**63, 2**64 - 1, 2**32, True, 1.5):
        assert tt.manual_seed(s).initial_seed() == torch.manual_seed(s).initial_seed()
        assert state_tt() == state_th()
    for s in (-1, 2**64 - 1, 0):
        assert tt.Generator().manual_seed(s).initial_seed() == torch.Generator().manual_seed(s).initial_seed()
    pairs = [(lambda: tt.manual_seed('a'), lambda: torch.manual_seed('a')),
             (lambda: tt.manual_seed(None), lambda: torch.manual_seed(None)),
             (lambda: tt.manual_seed(2**64), lambda: torch.manual_seed(2**64)),
             (lambda: tt.manual_seed(-2**63 - 1), lambda: torch.manual_seed(-2**63 - 1)),
             (lambda: tt.Generator().manual_seed('a'), lambda: torch.Generator().manual_seed('a')),
             (lambda: tt.Generator().manual_seed(True), lambda: torch.Generator().manual_seed(True)),
             (lambda: tt.Generator().manual_seed(1.5), lambda: torch.Generator().manual_seed(1.5)),
             (lambda: tt.Generator().manual_seed(2**64), lambda: torch.Generator().manual_seed(2**64)),
             (lambda: tt.set_rng_state(tt.zeros(10, dtype=tt.uint8)),
              lambda: torch.set_rng_state(torch.zeros(10, dtype=torch.uint8))),
             (lambda: tt.set_rng_state(tt.zeros(5056)), lambda: torch.set_rng_state(torch.zeros(5056))),
             (lambda: tt.set_rng_state(tt.zeros(5056, dtype=tt.uint8)),
              lambda: torch.set_rng_state(torch.zeros(5056, dtype=torch.uint8))),
             (lambda: tt.set_rng_state(tt.zeros(2 * 5056, dtype=tt.uint8)[::2]),
              lambda: torch.set_rng_state(torch.zeros(2 * 5056, dtype=torch.uint8)[::2])),
             (lambda: tt.set_rng_state(b'x' * 5056), lambda: torch.set_rng_state(b'x' * 5056))]
    for i, (f, h) in enumerate(pairs):
        a, b = run_both(f, h)
        assert isinstance(b, Exception) and type(a) is type(b), (i, a, b)
    s = tt.seed()
    assert tt.initial_seed() == s and 0 <= s < 2**64


def test_default_capability_subprocess():
    "Under ATEN_CPU_CAPABILITY=default torch runs its DEFAULT kernels (glibc's logf/sinf/cosf, no fused multiply-adds):"
    " tinytensor follows it there too."
    code = """
import numpy as np, torch, tinytensor as tt
from tinytensor.random import cpu_math
assert torch.backends.cpu.get_cpu_capability() == 'DEFAULT' and cpu_math.CAPABILITY == 'DEFAULT'
for seed in (0, 42):
    for n in (5, 16, 17, 100):
        for d in ('float32', 'float16', 'bfloat16', 'float64'):
            tt.manual_seed(seed); torch.manual_seed(seed)
            a, b = tt.randn(n, dtype=getattr(tt, d)), torch.randn(n, dtype=getattr(torch, d))
            x = a.numpy() if d != 'bfloat16' else a.view(tt.int16).numpy()
            y = b.numpy() if d != 'bfloat16' else b.view(torch.int16).numpy()
            assert x.tobytes() == y.tobytes(), (seed, n, d)
            assert bytes(np.asarray(tt.get_rng_state().tolist(), np.uint8)) == bytes(torch.get_rng_state().numpy())
print('ok')
"""
    env = dict(os.environ, ATEN_CPU_CAPABILITY='default')
    r = subprocess.run([sys.executable, '-c', code], env=env, capture_output=True, text=True, timeout=120)
    assert r.stdout.strip().endswith('ok'), r.stderr[-2000:]


ALL_DTYPES = ['bool', 'uint8', 'int8', 'int16', 'int32', 'int64', 'float16', 'bfloat16', 'float32', 'float64',
              'complex64', 'complex128']
EMPTY_SIZES = [(5, 0, 1), (0, 0), (0,), (2,)]
EMPTY_CALLS = {                                # (lib, size, dtype) -> result: every random factory over every dtype
    'rand': lambda L, s, d: L.rand(*s, dtype=d), 'randn': lambda L, s, d: L.randn(*s, dtype=d),
    'randn_tuple': lambda L, s, d: L.randn(s, dtype=d),
    'randint': lambda L, s, d: L.randint(0, 2, s, dtype=d), 'normal': lambda L, s, d: L.normal(0., 1., s, dtype=d),
    'rand_like': lambda L, s, d: L.rand_like(L.empty(s, dtype=d)),
    'randn_like': lambda L, s, d: L.randn_like(L.empty(s, dtype=d)),
    'randint_like': lambda L, s, d: L.randint_like(L.empty(s, dtype=d), 3),
    'uniform_': lambda L, s, d: L.empty(s, dtype=d).uniform_(), 'normal_': lambda L, s, d: L.empty(s, dtype=d).normal_(),
    'random_': lambda L, s, d: L.empty(s, dtype=d).random_(), 'random_from_to': lambda L, s, d: L.empty(s, dtype=d).random_(0, 3),
    'exponential_': lambda L, s, d: L.empty(s, dtype=d).exponential_(),
    'bernoulli_': lambda L, s, d: L.zeros(s, dtype=d).bernoulli_(),
    'randn_out': lambda L, s, d: L.randn(s, out=L.empty(3, dtype=d)),
}

@pytest.mark.parametrize('name', list(EMPTY_CALLS))
def test_random_factories_on_empty_sizes_every_dtype(name):
    "torch's normal_ returns before it looks at the dtype when nothing is drawn (Note [An empty normal draws nothing]); "
    "uniform_ refuses an integer dtype even then; randint refuses complex dtypes with check_random_bounds's RuntimeError."
    f, bad = EMPTY_CALLS[name], []
    for s in EMPTY_SIZES:
        for d in ALL_DTYPES:
            a, b = run_both(lambda: f(tt, s, getattr(tt, d)), lambda: f(torch, s, getattr(torch, d)))
            if isinstance(a, Exception) or isinstance(b, Exception) or not b.numel():
                if m := check_results(a, b, 'randn', (name, s, d)): bad.append(m)
            elif (tuple(a.shape), str(a.dtype).split('.')[-1]) != (tuple(b.shape), str(b.dtype).split('.')[-1]):
                bad.append(f'{(name, s, d)}: {a.shape} {a.dtype} vs {b.shape} {b.dtype}')
    assert not bad, '\n'.join(bad)
