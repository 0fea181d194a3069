"torch's argument rules (PythonArgParser): the same misuse raises the same exception with torch's key words."
import inspect
import pytest
torch = pytest.importorskip("torch")
import tinytensor as tt
from ttgen import run_both

def _x(m): return m.arange(12.).view(3, 4)

# (id, call taking the library module, key words both messages carry (None: only the type is compared))
CASES = [
    ('full int size', lambda m: m.full(2, 1.), "full(): argument 'size' (position 1) must be tuple of ints, not int"),
    ('reshape function int shape', lambda m: m.reshape(_x(m), 12), "reshape(): argument 'shape' (position 2) must be tuple of ints, not int"),
    ('zeros_like int', lambda m: m.zeros_like(3), "zeros_like(): argument 'input' (position 1) must be Tensor, not int"),
    ('empty_like list', lambda m: m.empty_like([1, 2]), "empty_like(): argument 'input' (position 1) must be Tensor, not list"),
    ('view_as int', lambda m: _x(m).view_as(3), "view_as(): argument 'other' (position 1) must be Tensor, not int"),
    ('atleast_1d int', lambda m: m.atleast_1d(3), "atleast_1d() received an invalid combination of arguments - got (int), but expected one of:"),
    ('atleast_2d list of ints', lambda m: m.atleast_2d([1, 2]), None),
    ('inner float', lambda m: m.inner(_x(m), 2.5), "inner(): argument 'other' (position 2) must be Tensor, not float"),
    ('promote_types str', lambda m: m.promote_types(m.int32, 'a'), "promote_types(): argument 'type2' (position 2) must be "),
    ('can_cast int', lambda m: m.can_cast(m.int32, 5), "can_cast(): argument 'to' (position 2) must be "),
    ('Size of str', lambda m: m.Size(['a']), "Size() takes an iterable of 'int' (item 0 is 'str')"),
    ('Size of float', lambda m: m.Size([2, 1.5]), "(item 1 is 'float')"),
    ('cpu positional', lambda m: _x(m).cpu(1), "cpu() takes 0 positional arguments but 1 was given"),
    ('flip no dims', lambda m: _x(m).flip(), 'flip() missing 1 required positional arguments: "dims"'),
    ('hstack tensor', lambda m: m.hstack(_x(m)), "hstack(): argument 'tensors' (position 1) must be tuple of Tensors, not Tensor"),
    ('vstack tensor', lambda m: m.vstack(_x(m)), "vstack(): argument 'tensors' (position 1) must be tuple of Tensors, not Tensor"),
    ('dstack tensor', lambda m: m.dstack(_x(m)), "must be tuple of Tensors, not Tensor"),
    ('column_stack tensor', lambda m: m.column_stack(_x(m)), "must be tuple of Tensors, not Tensor"),
    ('hstack list with int', lambda m: m.hstack([_x(m), 1]), "expected Tensor as element 1 in argument 0, but got int"),
    ('new_full int size', lambda m: _x(m).new_full(2, 1.), "new_full(): argument 'size' (position 1) must be tuple of ints, not int"),
    ('float str', lambda m: _x(m).float('x'), "float() takes 0 positional arguments but 1 was given"),
    ('double dtype', lambda m: _x(m).double(m.float32), "double() takes 0 positional arguments but 1 was given"),
    ('contiguous dtype', lambda m: _x(m).contiguous(m.float32), "contiguous() takes 0 positional arguments but 1 was given"),
    ('is_contiguous dtype', lambda m: _x(m).is_contiguous(m.float32), "is_contiguous() takes 0 positional arguments but 1 was given"),
    ('contiguous memory_format dtype', lambda m: _x(m).contiguous(memory_format=m.float32), "contiguous(): argument 'memory_format' must be "),
    ('topk float k', lambda m: m.topk(_x(m), 2.5), "topk(): argument 'k' (position 2) must be int, not float"),
    ('sum repeated dim of 0-d', lambda m: m.tensor(1.).sum((0, 0)), "dim 0 appears multiple times in the list of dims"),
    ('sum 0 and -1 of 0-d', lambda m: m.tensor(1.).sum((0, -1)), "dim 0 appears multiple times in the list of dims"),
    ('zeros float in list', lambda m: m.zeros([2.0]), "zeros(): argument 'size' (position 1) must be tuple of ints, but found element of type float at pos 0"),
    ('zeros str later in tuple', lambda m: m.zeros((2, 'a')), "zeros(): argument 'size' failed to unpack the object at pos 2 with error \"type must be tuple of ints,but got str\""),
    ('zeros two tuples', lambda m: m.zeros((2, 3), (4,)), "zeros() takes 1 positional argument but 2 were given"),
    ('zeros size twice', lambda m: m.zeros(2, size=(3,)), "zeros() got multiple values for argument 'size'"),
    ('zeros unknown keyword', lambda m: m.zeros(2, shape=(3,)), "zeros() got an unexpected keyword argument 'shape'"),
    ('zeros dtype not a dtype', lambda m: m.zeros(2, dtype='float32'), "zeros(): argument 'dtype' must be "),
    ('randint int size', lambda m: m.randint(5, 6), "randint(): argument 'size' (position 2) must be tuple of ints, not int"),
    ('randint float high', lambda m: m.randint(1.5, (2,)), "randint(): argument 'high' (position 1) must be int, not float"),
    ('arange str', lambda m: m.arange('a'), None),
    ('new_empty two sizes', lambda m: _x(m).new_empty((2, 3), 5), None),
    ('empty memory_format str', lambda m: m.empty(2, memory_format='x'), "empty(): argument 'memory_format' must be "),
    ('linspace float steps', lambda m: m.linspace(0, 1, 2.5), None),
]

def _words(e): return str(e).replace('torch.dtype', 'DTYPE').replace('tinytensor.dtype', 'DTYPE').replace('torch.memory_format', 'MF').replace('tinytensor.memory_format', 'MF').replace('torch.Size', 'Size').replace('tinytensor.Size', 'Size')

@pytest.mark.parametrize('name,call,words', CASES, ids=[c[0] for c in CASES])
def test_misuse_like_torch(name, call, words):
    r_tt, r_th = run_both(lambda: call(tt), lambda: call(torch))
    assert isinstance(r_th, Exception), f'{name}: torch accepted it ({r_th!r}); fix the case'
    assert isinstance(r_tt, Exception), f'{name}: tinytensor accepted it, torch raised {type(r_th).__name__}: {r_th}'
    assert type(r_tt) is type(r_th), f'{name}: {type(r_tt).__name__}({r_tt}) != {type(r_th).__name__}({r_th})'
    if words:
        assert words in str(r_th), f'{name}: the case\'s words are not torch\'s: {r_th}'
        assert _words(words) in _words(r_tt), f'{name}: tinytensor said {r_tt!r}, torch {r_th!r}'

def test_size_and_generator():
    assert type(tt.Size([2, 3]) + (4,)) is tt.Size and tt.Size([2, 3]) + (4,) == (2, 3, 4)
    assert type(torch.Size([2, 3]) + (4,)) is torch.Size
    assert tt.Size((tt.tensor(2), 3)) == (2, 3)
    g = tt.manual_seed(-1)
    assert isinstance(g, tt.Generator) and g.initial_seed() == torch.manual_seed(-1).initial_seed() == 2**64 - 1
    a = tt.rand(3, generator=tt.Generator().manual_seed(5)); b = tt.rand(3, generator=tt.Generator().manual_seed(5))
    assert a.tolist() == b.tolist()
    tt.manual_seed(3); c = tt.randn(4); tt.manual_seed(3)
    assert tt.randn(4).tolist() == c.tolist()

def test_size_items_and_arithmetic_like_torch():
    import numpy as np
    for items in ([True, 3], [np.int64(3)], [2.0], [None], ['a']):
        r_tt, r_th = run_both(lambda: tuple(tt.Size(items)), lambda: tuple(torch.Size(items)))
        assert type(r_tt) is type(r_th) and (isinstance(r_th, Exception) or r_tt == r_th), (items, r_tt, r_th)
    for f in (lambda m: (4,) + m.Size([2]), lambda m: m.Size([2]) * 2, lambda m: m.Size([2, 3])[:1], lambda m: m.zeros(2, 3).size()):
        assert type(f(tt)).__name__ == type(f(torch)).__name__ == 'Size' and tuple(f(tt)) == tuple(f(torch))


# ---- the specialised binders (chapter 13, Note [Specialised binders]) bind exactly what the general parse binds ----
import types
import numpy as np
import itertools
from hypothesis import given, settings, strategies as st, HealthCheck
from tinytensor import checks, arg_binders

_UNSET = object()
_X = tt.zeros(2, 3)

def _recorder(body, method):
    "A function with `body`'s parameters whose defaults are a sentinel: it returns the arguments it was given, by name."
    ns, params, star = {'_U': _UNSET}, [], False
    for q in inspect.signature(body).parameters.values():
        s = q.name if (method and not params) else f'{q.name}=_U'
        if q.kind is q.VAR_POSITIONAL: s, star = '*' + q.name, True
        elif q.kind is q.VAR_KEYWORD: s = '**' + q.name
        elif q.kind is q.KEYWORD_ONLY and not star: params.append('*'); star = True
        params.append(s)
    qs = list(inspect.signature(body).parameters.values())[1 if method else 0:]
    names = [q.name for q in qs if q.kind not in (q.VAR_POSITIONAL, q.VAR_KEYWORD)]
    more = ''.join(f', **l[{q.name!r}]' for q in qs if q.kind is q.VAR_KEYWORD)    # `**kw` bodies: what came by keyword
    src = f"def rec({', '.join(params)}):\n    l = locals()\n    return {{**{{k: l[k] for k in {names!r} if l[k] is not _U}}{more}}}\n"
    exec(src, ns)
    return ns['rec']

def _fast(F, rec):
    "The generated wrapper of `F` calling `rec` instead of `F`'s body."
    return types.FunctionType(F.__code__, {**F.__globals__, 'f': rec}, F.__name__)

def _canon(v):
    "A value with the types of everything in it, tensors by identity."
    if isinstance(v, tt.Tensor): return ('Tensor', id(v))
    if isinstance(v, (tuple, list)): return (type(v), tuple(_canon(e) for e in v))
    if isinstance(v, dict): return {k: _canon(e) for k, e in v.items()}
    if isinstance(v, float) and v != v: return (float, 'nan')
    return (type(v), v)

def _outcome(call):
    try: return _canon(call())
    except Exception as e: return (type(e), str(e))

def _both(F, rec, method, args, kwargs):
    "(what the specialised wrapper hands the body or raises, what the general parse binds or raises)."
    w, me = _fast(F, rec), (_X,) if method else ()
    return _outcome(lambda: w(*me, *args, **dict(kwargs))), _outcome(lambda: F.parser.parse(tuple(args), dict(kwargs)))

_objs = st.sampled_from([tt.Size([2, 3]), _X.shape, np.int64(3), np.int32(0), np.float64(1.5), np.bool_(True), tt.tensor(2), tt.tensor(1.5), tt.tensor([1, 2]),
                         _X, 'a', 'cpu', tt.float32, tt.int64, tt.contiguous_format, None, 2 + 1j, object()])
_atoms = st.one_of(st.integers(-2, 6), st.integers(-2, 6), st.floats(-3, 3, allow_nan=False), st.booleans(), st.none(), _objs)
_seqs = st.one_of(st.lists(st.integers(0, 5), max_size=4), st.lists(_atoms, max_size=3), st.lists(st.sampled_from([_X, tt.ones(2, 3)]), max_size=3))
_values = st.one_of(_atoms, _atoms, _seqs, _seqs.map(tuple), _seqs.map(tuple))

_GOOD = {'int': st.integers(-2, 6), 'SymInt': st.integers(-2, 6), 'float': st.one_of(st.integers(-2, 6), st.floats(-3, 3, allow_nan=False)),
         'bool': st.booleans(), 'Tensor': st.sampled_from([_X, tt.tensor(2), tt.ones(3)]), 'ScalarType': st.sampled_from([tt.float32, tt.int64]),
         'Device': st.sampled_from(['cpu', tt.device('cpu')]), 'MemoryFormat': st.sampled_from([tt.contiguous_format, tt.preserve_format]),
         'Generator': st.just(tt.Generator())}
_GOOD['Scalar'] = _GOOD['complex'] = _GOOD['float']

def _good(p):
    "Values of the kind parameter `p` takes (mostly), with anything at all now and then."
    if p.intlist: v = st.lists(st.integers(0, 4), max_size=4).flatmap(lambda l: st.sampled_from([tuple(l), l, tt.Size(l)]))
    elif p.is_list: v = st.lists(_GOOD['Tensor'], max_size=3)
    else: v = _GOOD.get(p.word, _values)
    if p.allow_none: v = st.one_of(v, st.none())
    return st.integers(0, 7).flatmap(lambda i: v if i else _values)      # one in eight: anything

@st.composite
def _typed_call(draw, F):
    "A call shaped after one of `F`'s signatures: the positional part, then some of the rest by keyword."
    sig = draw(st.sampled_from(F.parser.signatures))
    n = draw(st.integers(len(sig.required), sig.max_pos_args))
    args = [draw(_good(p)) for p in sig.params[:n]]
    if sig.varargs and n == 1 and type(args[0]) in (tuple, list) and draw(st.booleans()): args = list(args[0])   # view(2, 3)
    rest = draw(st.lists(st.sampled_from(sig.params[n:] or sig.params), max_size=3, unique_by=lambda p: p.name))
    kwargs = {p.name: draw(_good(p)) for p in rest}
    if draw(st.integers(0, 9)) == 0: kwargs[draw(st.sampled_from(['foo', 'size', 'dtype']))] = draw(_values)   # unknown or repeated
    return args, kwargs

def _calls(F):
    names = sorted({p.name for s in F.parser.signatures for p in s.params} | {'size', 'dtype', 'out', 'foo'})
    anything = st.tuples(st.lists(_values, max_size=4), st.lists(st.tuples(st.sampled_from(names), _values), max_size=3).map(dict))
    return st.integers(0, 2).flatmap(lambda i: _typed_call(F) if i else anything)

_FUNCS = [(tt.empty, False), (tt.zeros, False), (tt.full, False), (tt.rand, False), (tt.arange, False), (tt.randint, False),
          (tt.eye, False), (tt.linspace, False), (tt.empty_like, False), (tt.full_like, False), (tt.randint_like, False),
          (tt.reshape, False), (tt.topk, False), (tt.hstack, False), (tt.Tensor.new_zeros, True), (tt.Tensor.new_full, True)]

# overloads in an order no factory has: a later signature needs fewer positional arguments than an earlier one
@checks.signature("over(int a, int b)", "over(int x, *, int b=0)", "over(float a, float b, float c, *, str? s=None)")
def _over(a=None, b=None, x=None, c=None, s=None): pass
@checks.signature("meth(SymInt[1] dims, bool keep=False, *, Tensor? out=None)", "meth(Scalar v, SymInt[] size)", method=True)
def _meth(self, dims=None, keep=False, v=None, size=None, *, out=None): pass
@checks.signature("rnd(int from, int? to, *, Generator? generator=None)")    # torch's `random_(from, to)`: a Python keyword
def _rnd(*args, **kw): pass
_FUNCS += [(_over, False), (_meth, True), (_rnd, False)]

@pytest.mark.parametrize('F,method', _FUNCS, ids=[f.__name__ for f, _ in _FUNCS])
def test_specialised_binder_equals_parse(F, method):
    rec = _recorder(F.__wrapped__, method)
    @settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
    @given(_calls(F))
    def check(call):
        fast, general = _both(F, rec, method, *call)
        assert fast == general, (call, fast, general)
    check()

@pytest.mark.parametrize('F,method,args,kwargs', [
    (tt.empty, False, (16,), {}), (tt.empty, False, (2, 3), {}), (tt.empty, False, (_X.shape,), {}), (_rnd, False, (0, None), {}), (tt.empty, False, ((2, 3),), {}), (tt.empty, False, ([2, 3],), {}),
    (tt.zeros, False, (2, 3), {'dtype': tt.float32}), (tt.zeros, False, (2, 3, 4, 5), {'dtype': None, 'device': 'cpu'}),
    (tt.full, False, ((2, 3), 1.5), {}), (tt.rand, False, (4, 4), {}), (tt.arange, False, (10,), {}), (tt.arange, False, (1, 10, 2.5), {}),
    (tt.Tensor.new_zeros, True, (3,), {}), (tt.randint, False, (0, 5, (3,)), {}), (tt.randint, False, (5, [3]), {}),
    (tt.reshape, False, (_X, (3, 2)), {}), (tt.topk, False, (_X, 2), {'largest': False})])
def test_specialised_binder_common_forms(F, method, args, kwargs):
    "The common forms take the fast path (the general parse is never called) and bind what it binds."
    rec = _recorder(F.__wrapped__, method)
    fast, general = _both(F, rec, method, args, kwargs)
    assert fast == general
    w = types.FunctionType(F.__code__, {**F.__globals__, 'f': rec, 'parse': None}, F.__name__)   # a fallback would fail
    assert _canon(w(*((_X,) if method else ()), *args, **kwargs)) == fast

def test_specialised_binder_check_can_fail(monkeypatch):
    "A binder with one wrong branch (a float accepted for an `int` parameter) is caught by the same comparison."
    monkeypatch.setitem(arg_binders._NUMBER_TYPES, 'int', ('int', 'float'))
    @checks.signature("randint(int high, SymInt[] size)", "randint(int low, int high, SymInt[] size)")
    def broken(low=0, high=None, size=None): pass
    rec = _recorder(broken.__wrapped__, False)
    fast, general = _both(broken, rec, False, (1.5, (2,)), {})
    assert fast != general and general[0] is TypeError
    # Every positional call of one to three arguments drawn from a small grid, enumerated (no random search decides
    # this verdict): the comparison flags exactly the calls that hand a float to an `int` before the size.
    grid = [1, 1.5, (2,), (2, 3)]
    flagged = {args for n in (1, 2, 3) for args in itertools.product(grid, repeat=n)
               if _both(broken, rec, False, args, {})[0] != _both(broken, rec, False, args, {})[1]}
    ints = lambda args: [a for a in args[:-1]]
    expect = {args for n in (2, 3) for args in itertools.product(grid, repeat=n)
              if isinstance(args[-1], tuple) and 1.5 in ints(args)
              and all(isinstance(a, (int, float)) for a in ints(args))}
    assert flagged == expect, (sorted(map(str, flagged - expect)), sorted(map(str, expect - flagged)))


def test_plain_wrapper_binds_as_the_specialised_one(monkeypatch):
    "Chapter 00's plain wrapper (its hook empty) binds what chapter 13's specialised wrapper binds, or raises the same."
    cases = [(("randint(int high, SymInt[] size)", "randint(int low, int high, SymInt[] size)"), False,
              lambda low=0, high=None, size=None: (low, high, size),
              [((5, (3,)), {}), ((2, 5, [3]), {}), ((5, 6), {}), ((1.5,), {}), ((), {'high': 3, 'size': (2,)}),
               ((True, (2,)), {}), ((np.int64(4), (2,)), {}), ((2, 5), {'size': [1], 'low': 0})]),
             (("new_full(SymInt[] size, Scalar fill_value, *, ScalarType? dtype=None)",), True,
              lambda self, size, fill_value, dtype=None: (self, size, fill_value, dtype),
              [(((2,), 1.5), {}), ((2, 1.5), {}), (([2, 3], True), {'dtype': tt.int64}), (((2,),), {}),
               (((2,), 1, 2), {}), (((2,), 1), {'dtype': 'x'})])]
    for fmts, method, body, calls in cases:
        fast = checks.signature(*fmts, method=method)(body)
        with monkeypatch.context() as m:
            m.setattr(checks, '_specialise_binder', None)
            plain = checks.signature(*fmts, method=method)(body)
        assert hasattr(fast, 'binder_source') and not hasattr(plain, 'binder_source')
        me = (_X,) if method else ()
        for args, kwargs in calls:
            assert _outcome(lambda: plain(*me, *args, **kwargs)) == _outcome(lambda: fast(*me, *args, **kwargs)), (args, kwargs)


# ---- numpy's names (Note [numpy's argument names], Note [numpy's names for plain functions]) ----------------------
def _a(m): return m.arange(24.).view(2, 3, 4) - 11.5
def _b(m): return m.arange(24.).view(2, 3, 4).flip(0) * 0.5
def _i(m): return m.tensor([[0, 1, 2, 0], [1, 0, 0, 2], [2, 2, 1, 1]]).view(1, 3, 4).expand(2, 3, 4).contiguous()

NUMPY_CALLS = [
    ('add x1 x2', lambda m: m.add(x1=_a(m), x2=_b(m))), ('add a other', lambda m: m.add(a=_a(m), other=_b(m))),
    ('add x x2 alpha', lambda m: m.add(x=_a(m), x2=_b(m), alpha=2)), ('sub x1 x2', lambda m: m.sub(x1=_a(m), x2=_b(m))),
    ('mul x1 scalar', lambda m: m.mul(x1=_a(m), x2=2)), ('div x2', lambda m: m.div(_a(m), x2=_b(m))),
    ('maximum', lambda m: m.maximum(x1=_a(m), x2=_b(m))), ('eq', lambda m: m.eq(x1=_a(m), x2=_b(m))),
    ('lt method', lambda m: _a(m).lt(x2=_b(m))), ('mul method', lambda m: _a(m).mul(x2=_b(m))),
    ('pow x2 refused', lambda m: m.pow(_a(m), x2=2)), ('atan2', lambda m: m.atan2(x1=_a(m), x2=_b(m))),
    ('max elementwise', lambda m: m.max(x1=_a(m), x2=_b(m))), ('max axis', lambda m: m.max(_a(m), axis=1)),
    ('max axis keepdims', lambda m: _a(m).max(axis=1, keepdims=True)), ('min axis', lambda m: m.min(a=_a(m), axis=2)),
    ('sum axis keepdims', lambda m: _a(m).sum(axis=(0, 2), keepdims=True)), ('sum a axis', lambda m: m.sum(a=_a(m), axis=0)),
    ('sum axis keepdims kw', lambda m: m.sum(_a(m), keepdims=True, axis=2)), ('mean axis', lambda m: _a(m).mean(axis=0)),
    ('mean axis tuple', lambda m: m.mean(_a(m), axis=(0, 1), keepdims=True)), ('prod axis', lambda m: m.prod(_a(m), axis=1)),
    ('amax axis', lambda m: m.amax(_a(m), axis=2, keepdims=True)), ('argmax axis', lambda m: _a(m).argmax(axis=1)),
    ('argmin axis keepdims', lambda m: m.argmin(_a(m), axis=0, keepdims=True)), ('all axis', lambda m: (_a(m) > 0).all(axis=1)),
    ('any axis', lambda m: m.any(_a(m) > 0, axis=2)), ('var axis', lambda m: _a(m).var(axis=1)),
    ('std axis keepdims', lambda m: m.std(_a(m), axis=0, keepdims=True)), ('logsumexp axis', lambda m: _a(m).logsumexp(axis=2)),
    ('cumsum axis', lambda m: m.cumsum(_a(m), axis=1)), ('cumprod method axis', lambda m: _b(m).cumprod(axis=2)),
    ('cummax axis', lambda m: m.cummax(_a(m), axis=1)), ('softmax axis', lambda m: _a(m).softmax(axis=0)),
    ('log_softmax axis', lambda m: m.log_softmax(_a(m), axis=2)), ('sort axis', lambda m: m.sort(_a(m), axis=1)),
    ('argsort axis', lambda m: _a(m).argsort(axis=0)), ('topk axis', lambda m: m.topk(_a(m), 2, axis=1)),
    ('median axis', lambda m: m.median(_a(m), axis=2)), ('cat axis', lambda m: m.cat([_a(m), _b(m)], axis=1)),
    ('stack axis', lambda m: m.stack([_a(m), _b(m)], axis=2)), ('squeeze axis', lambda m: _a(m)[:1].squeeze(axis=0)),
    ('unsqueeze axis', lambda m: _a(m).unsqueeze(axis=1)), ('select axis', lambda m: _a(m).select(axis=1, index=2)),
    ('narrow axis', lambda m: m.narrow(_a(m), axis=2, start=1, length=2)), ('chunk axis', lambda m: _a(m).chunk(2, axis=2)),
    ('gather axis', lambda m: m.gather(_a(m), axis=1, index=_i(m))), ('index_select axis', lambda m: _a(m).index_select(axis=2, index=m.tensor([3, 0]))),
    ('flip x', lambda m: m.flip(x=_a(m), dims=(0,))), ('size axis', lambda m: _a(m).size(axis=1)),
    ('stride axis', lambda m: _a(m).stride(axis=0)), ('isclose x1 x2', lambda m: m.isclose(x1=_a(m), x2=_b(m))),
    ('where x1 x2', lambda m: m.where(_a(m) > 0, x1=_a(m), x2=_b(m))), ('clamp x', lambda m: m.clamp(x=_a(m), min=0)),
    ('exp x', lambda m: m.exp(x=_a(m))), ('neg a', lambda m: m.neg(a=_a(m))), ('reshape a', lambda m: m.reshape(a=_a(m), shape=(24,))),
    ('zeros_like x1', lambda m: m.zeros_like(x1=_a(m))), ('empty_like axis refused', lambda m: m.empty_like(_a(m), axis=0).shape),
    # refused: a numpy name next to its own parameter, two numpy names for one, a numpy name for `self`
    ('sum dim and axis', lambda m: m.sum(_a(m), dim=0, axis=1)), ('sum positional dim and axis', lambda m: _a(m).sum(0, axis=1)),
    ('sum keepdim and keepdims', lambda m: m.sum(_a(m), axis=0, keepdim=True, keepdims=False)),
    ('add input and x1', lambda m: m.add(input=_a(m), x1=_b(m), x2=_b(m))), ('add x and a', lambda m: m.add(x=_a(m), a=_b(m), other=_b(m))),
    ('add other and x2', lambda m: m.add(_a(m), other=_b(m), x2=_b(m))), ('add positional other and x2', lambda m: m.add(_a(m), _b(m), x2=_b(m))),
    ('method x', lambda m: _a(m).sum(x=_a(m))), ('method exp x', lambda m: _a(m).exp(x=_a(m))),
    ('max dim and axis', lambda m: m.max(_a(m), dim=1, axis=1)), ('topk dim and axis', lambda m: m.topk(_a(m), 1, 0, axis=1)),
    ('empty_like x and a', lambda m: m.empty_like(x=_a(m), a=_a(m))),
    # torch's functions written in Python bind without its parser: no numpy names
    ('split axis', lambda m: _a(m).split(1, axis=0)), ('split function axis', lambda m: m.split(_a(m), 1, axis=0)),
    ('unflatten axis', lambda m: _a(m).unflatten(axis=0, sizes=(2, 1))), ('unique axis', lambda m: m.unique(_a(m), axis=0)),
    ('unique_consecutive axis', lambda m: m.unique_consecutive(_a(m), axis=0)), ('norm axis', lambda m: m.norm(_a(m), axis=0)),
]

def _same(r_tt, r_th):
    if isinstance(r_th, Exception) or isinstance(r_tt, Exception):
        unused = 'got an unexpected keyword argument'
        return type(r_tt) is type(r_th) and (unused not in str(r_th) or str(r_tt).split(unused)[1] == str(r_th).split(unused)[1])
    if isinstance(r_th, (tuple, list)): return len(r_tt) == len(r_th) and all(_same(a, b) for a, b in zip(r_tt, r_th))
    if isinstance(r_th, torch.Tensor):
        return (tuple(r_tt.shape) == tuple(r_th.shape) and str(r_tt.dtype).split('.')[-1] == str(r_th.dtype).split('.')[-1]
                and torch.allclose(torch.from_numpy(r_tt.numpy()).to(r_th.dtype), r_th, equal_nan=True))
    return r_tt == r_th

@pytest.mark.parametrize('name,call', NUMPY_CALLS, ids=[c[0] for c in NUMPY_CALLS])
def test_numpy_names_like_torch(name, call):
    "numpy's names bind (or are refused, with torch's class and, for an unused one, torch's words) as in torch."
    r_tt, r_th = run_both(lambda: call(tt), lambda: call(torch))
    assert _same(r_tt, r_th), (r_tt, r_th)

def test_numpy_names_reach_every_op_with_such_a_parameter():
    "Every public function and method of torch's with a `dim`/`keepdim`/`other` parameter (besides torch's Python-level "
    "ones) accepts numpy's name for it in tinytensor too: the binder is there, or the parser knows the names."
    from tinytensor.arg_binders import _PYTHON_LEVEL
    missing = []
    for where, ns, skip in (('tt', vars(tt), _PYTHON_LEVEL['functions']), ('Tensor', vars(tt.Tensor), _PYTHON_LEVEL['methods'])):
        for n, f in ns.items():
            if n.startswith('_') or n in skip or not callable(f) or isinstance(f, type): continue
            try: ps = list(inspect.signature(f).parameters)[1 if where == 'Tensor' else 0:]
            except (TypeError, ValueError): continue
            from tinytensor.checks import NUMPY_NAMES
            if not [c for c in ('dim', 'keepdim', 'other') if c in ps and not set(NUMPY_NAMES[c]) <= set(ps)]: continue
            if not (hasattr(f, 'numpy_names') or hasattr(f, 'parser')): missing.append(f'{where}.{n}')
    assert not missing, missing


INPLACE_NUMPY = {
    'add_(x2=)': lambda L, a, b: a.add_(x2=b), 'mul_(x2=)': lambda L, a, b: a.mul_(x2=b),
    'sub_(x2=, alpha=)': lambda L, a, b: a.sub_(x2=b, alpha=2), 'div_(x2=)': lambda L, a, b: a.div_(x2=b),
    'maximum(x2=)': lambda L, a, b: a.maximum(x2=b), 'add_(other=)': lambda L, a, b: a.add_(other=b),
    'add_(x1=)': lambda L, a, b: a.add_(x1=b),
}

@pytest.mark.parametrize('name', list(INPLACE_NUMPY))
def test_inplace_methods_take_numpy_names(name):
    "In-place methods bind numpy's names as their functions do (torch's parser has one rule for all)."
    f = INPLACE_NUMPY[name]
    def run(L):
        a, b = L.tensor([1., 2., 3.]), L.tensor([4., 5., 6.])
        r = f(L, a, b)
        return r, a
    ra, rb = run_both(lambda: run(tt), lambda: run(torch))
    if isinstance(rb, Exception): assert type(ra) is type(rb), (ra, rb); return
    assert not isinstance(ra, Exception), ra
    for x, y in zip(ra, rb): assert x.tolist() == y.tolist()
