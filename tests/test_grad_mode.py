"Grad mode and inference mode against torch: states, nesting, decorators, threads, inference tensors, in-place refusal."
import threading, warnings
import pytest
torch = pytest.importorskip("torch")
import tinytensor as tt
from tinytensor.tensor_impl import _inference_threads
from ttgen import run_both, check_results

LIBS = [tt, torch]

def state(m): return (m.is_grad_enabled(), m.is_inference_mode_enabled())

def both(f):
    "f(lib) for tinytensor and torch; the results must be equal."
    a, b = f(tt), f(torch)
    assert a == b, (a, b)
    assert state(tt) == (True, False) and _inference_threads[0] == 0
    return a

# (name, a function that enters the contexts in order and reports the state inside)
NESTINGS = [
    ('no_grad', lambda m: [m.no_grad()]),
    ('enable_grad', lambda m: [m.enable_grad()]),
    ('set_false', lambda m: [m.set_grad_enabled(False)]),
    ('set_true', lambda m: [m.set_grad_enabled(True)]),
    ('inference', lambda m: [m.inference_mode()]),
    ('inference_false', lambda m: [m.inference_mode(False)]),
    ('inference_mode_kw', lambda m: [m.inference_mode(mode=False)]),
    ('inf_in_nograd', lambda m: [m.no_grad(), m.inference_mode(False)]),
    ('inf_false_in_inf', lambda m: [m.inference_mode(), m.inference_mode(False)]),
    ('enable_in_inf', lambda m: [m.inference_mode(), m.enable_grad()]),
    ('set_in_inf', lambda m: [m.inference_mode(), m.set_grad_enabled(True)]),
    ('nograd_in_enable', lambda m: [m.enable_grad(), m.no_grad()]),
    ('inf_inf', lambda m: [m.inference_mode(), m.inference_mode()]),
]

@pytest.mark.parametrize('name,ctxs', NESTINGS, ids=[n for n, _ in NESTINGS])
def test_nesting_states(name, ctxs):
    def run(m):
        seen = []
        def enter(cs):
            if not cs: return
            with cs[0]:
                seen.append(state(m)); seen.append(m.ones(2).is_inference())
                enter(cs[1:])
                seen.append(state(m))
            seen.append(state(m))
        enter(ctxs(m))
        return seen
    both(run)

def test_set_grad_enabled_plain_call_and_repr():
    def run(m):
        r = m.set_grad_enabled(False); s = m.is_grad_enabled()
        m.set_grad_enabled(True)
        return s, m.is_grad_enabled(), repr(r).split('set_grad_enabled')[1]
    both(run)

@pytest.mark.parametrize('bad', [1, None, 'a', 1.0])
def test_set_grad_enabled_type_error(bad):
    r = run_both(lambda: tt.set_grad_enabled(bad), lambda: torch.set_grad_enabled(bad))
    assert type(r[0]) is type(r[1]) and type(r[0]) is TypeError, r
    assert state(tt) == (True, False)

def test_exception_restores_state():
    def run(m):
        out = []
        for c in (m.no_grad, m.inference_mode, lambda: m.set_grad_enabled(False)):
            try:
                with c(): raise KeyError
            except KeyError: out.append(state(m))
        return out
    both(run)

def test_decorators():
    def run(m):
        out = []
        @m.no_grad
        def f1(): return state(m)
        @m.no_grad()
        def f2(): return state(m)
        @m.inference_mode
        def f3(): return state(m), m.ones(1).is_inference()
        @m.inference_mode(False)
        def f4(): return state(m)
        @m.set_grad_enabled(False)
        def f5(): return state(m)
        out.append(state(m))            # the decorator undid set_grad_enabled's call
        @m.enable_grad
        def f6(): return state(m)
        with m.no_grad(): out.append(f6())
        out += [f1(), f2(), f3(), f4(), f5(), f5(), f1.__name__, state(m)]
        return out
    both(run)

def test_generator_decorators():
    def run(m):
        @m.no_grad()
        def gen():
            x = yield state(m)
            yield (x, state(m))
            return 'done'
        @m.inference_mode
        def gen2():
            yield state(m); yield m.zeros(1).is_inference()
        g = gen(); out = [next(g), state(m), g.send(5), state(m)]
        try: next(g)
        except StopIteration as e: out.append(e.value)
        out.append(list(gen2()))
        g = gen(); next(g); g.close(); out.append(state(m))
        return out
    both(run)

def test_class_decoration_warns():
    def run(m):
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter('always')
            class A:
                def __init__(self): self.s = state(m)
            B = m.no_grad()(A)
            return B().s, [x.category.__name__ for x in w]
    both(run)

def test_threads_are_independent():
    def run(m):
        res, ready, go = [], threading.Event(), threading.Event()
        def worker():
            res.append(state(m)); res.append(m.ones(1).is_inference())
            with m.inference_mode():
                ready.set(); go.wait(); res.append(m.ones(1).is_inference())
        with m.no_grad(), m.inference_mode():
            t = threading.Thread(target=worker); t.start()
        ready.wait()
        main = (state(m), m.ones(1).is_inference())   # the other thread is in inference mode
        go.set(); t.join()
        return res, main
    both(run)

FACTORIES = [
    ('ones', lambda m: m.ones(2, 3)), ('zeros', lambda m: m.zeros(0)),
    ('empty', lambda m: m.empty(4)), ('full', lambda m: m.full((2,), 7)),
    ('tensor', lambda m: m.tensor([1., 2.])), ('scalar', lambda m: m.tensor(3)),
    ('arange', lambda m: m.arange(5)), ('eye', lambda m: m.eye(3)),
    ('empty_like', lambda m: m.empty_like(m.ones(2))),
    ('meta', lambda m: m.empty(3, device='meta')),
]

@pytest.mark.parametrize('name,f', FACTORIES, ids=[n for n, _ in FACTORIES])
def test_factories_inference(name, f):
    def run(m):
        with m.inference_mode(): a = f(m)
        with m.no_grad(): b = f(m)
        return a.is_inference(), b.is_inference(), f(m).is_inference()
    both(run)

# ops on an inference tensor `a` and a normal tensor `x`, outside inference mode
OPS = [
    ('view', lambda m, a, x: a[1:]), ('t', lambda m, a, x: a.t()),
    ('detach', lambda m, a, x: a.detach()), ('expand', lambda m, a, x: a[0].expand(3, 2)),
    ('reshape', lambda m, a, x: a.reshape(-1)), ('add', lambda m, a, x: a + x),
    ('clone', lambda m, a, x: a.clone()), ('sum', lambda m, a, x: a.sum()),
    ('to_dtype', lambda m, a, x: a.to(m.int64)), ('contiguous', lambda m, a, x: a.contiguous()),
    ('x_view', lambda m, a, x: x[1:]), ('x_add_a', lambda m, a, x: x.add_(a)),
    ('x_copy_a', lambda m, a, x: x.copy_(a)), ('cat', lambda m, a, x: m.cat([a, x])),
]

@pytest.mark.parametrize('name,f', OPS, ids=[n for n, _ in OPS])
def test_ops_on_inference_tensors(name, f):
    def run(m):
        x = m.ones(2, 2)
        with m.inference_mode():
            a = m.arange(4.).reshape(2, 2)
            inside = f(m, a, x).is_inference()
        x = m.ones(2, 2)
        r = f(m, a, x)
        return inside, r.is_inference(), r.tolist()
    both(run)

def test_views_made_in_inference_mode_of_normal_tensors():
    def run(m):
        x = m.zeros(3)
        with m.inference_mode():
            v = x[1:]; r = x.add_(1)
        v.add_(1)
        return v.is_inference(), r.is_inference(), x.tolist(), x._version
    both(run)

# in-place writes to an inference tensor `a` outside inference mode (torch writes, then raises)
INPLACE = [
    ('add_', lambda m, a: a.add_(1)), ('mul_', lambda m, a: a.mul_(2)),
    ('copy_', lambda m, a: a.copy_(m.zeros(3))), ('copy_self', lambda m, a: a.copy_(a)),
    ('fill_', lambda m, a: a.fill_(7)), ('zero_', lambda m, a: a.zero_()),
    ('setitem', lambda m, a: a.__setitem__(0, 5)), ('view_add_', lambda m, a: a[1:].add_(1)),
    ('out_add', lambda m, a: m.add(m.ones(3), 1, out=a)),
    ('out_ones', lambda m, a: m.ones(3, out=a)),
    ('index_put_', lambda m, a: a.index_put_((m.tensor([0]),), m.tensor(9.))),
    ('clamp_', lambda m, a: a.clamp_(max=0.5)),
]

@pytest.mark.parametrize('name,f', INPLACE, ids=[n for n, _ in INPLACE])
def test_inplace_on_inference_tensor_refused(name, f):
    def make(m):
        with m.inference_mode(): return m.ones(3)
    a_tt, a_th = make(tt), make(torch)
    r = run_both(lambda: f(tt, a_tt), lambda: f(torch, a_th))
    assert isinstance(r[1], RuntimeError) and isinstance(r[0], RuntimeError), r
    assert str(r[0]) == str(r[1])
    assert a_tt.tolist() == a_th.tolist()
    # inside inference mode the same write is allowed
    a_tt, a_th = make(tt), make(torch)
    def inside(m, a):
        with m.inference_mode(): f(m, a)
        return a
    r = run_both(lambda: inside(tt, a_tt), lambda: inside(torch, a_th))
    assert check_results(r[0], r[1], 'add') is None

def test_version_of_inference_tensor():
    def make(m):
        with m.inference_mode(): return m.ones(3)
    r = run_both(lambda: make(tt)._version, lambda: make(torch)._version)
    assert type(r[0]) is type(r[1]) is RuntimeError and str(r[0]) == str(r[1])

def test_requires_grad_still_refused():
    with tt.inference_mode(): a = tt.ones(2)
    with pytest.raises(RuntimeError): a.requires_grad_()
    with tt.no_grad():
        with pytest.raises(RuntimeError): tt.ones(2, requires_grad=True)
    assert a.requires_grad is False and a.requires_grad_(False).is_inference()
