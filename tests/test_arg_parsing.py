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
