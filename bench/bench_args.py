"""What the argument layer (chapter 00's `signature`) costs per call: the decorated call minus its body called directly.

For each common form, the decorated call (`empty(16)`) and the undecorated body (`empty.__wrapped__`) called with
the arguments the general parser binds, as literal keywords (`body(size=(16,))`), are timed interleaved; each
figure is the minimum over the repeats, and the difference is what the argument layer adds. A body of tens of
microseconds makes that difference noisy on a busy machine, so the last column times the same wrapper around a
body that does nothing (same parameters and defaults, `return None`) against that body called directly.
Run: `PYTHONPATH=<tree> python bench/bench_args.py [number] [repeat]`.
"""
import gc, inspect, sys, timeit, types
import tinytensor as tt

x = tt.zeros(2, 3)

# (form as written, decorated callable, positional args, keyword args, bound to `self` (methods))
FORMS = [
    ('empty(16)', tt.empty, (16,), {}, False),
    ('empty(2, 3)', tt.empty, (2, 3), {}, False),
    ('empty((2, 3))', tt.empty, ((2, 3),), {}, False),
    ('zeros(2, 3, dtype=tt.float32)', tt.zeros, (2, 3), {'dtype': tt.float32}, False),
    ('full((2, 3), 1.5)', tt.full, ((2, 3), 1.5), {}, False),
    ('rand(4, 4)', tt.rand, (4, 4), {}, False),
    ('arange(10)', tt.arange, (10,), {}, False),
    ('x.new_zeros(3)', tt.Tensor.new_zeros, (3,), {}, True),
    ('randint(0, 5, (3,))', tt.randint, (0, 5, (3,)), {}, False),
]

def _noop_like(B):
    "A function with `B`'s parameters and defaults that does nothing."
    ns, params, star = {}, [], False
    for i, q in enumerate(inspect.signature(B).parameters.values()):
        s = q.name
        if q.default is not q.empty: ns[f'd{i}'] = q.default; s += f'=d{i}'
        if q.kind is q.VAR_POSITIONAL: s, star = '*' + s, True
        elif q.kind is q.VAR_KEYWORD: s = '**' + s
        elif q.kind is q.KEYWORD_ONLY and not star: params.append('*'); star = True
        params.append(s)
    exec(f"def noop({', '.join(params)}): return None", ns)
    return ns['noop']

def _with_body(F, body):
    "A copy of the decorated `F` (a closure or an exec'd wrapper: whichever the tree has) that calls `body` instead."
    g, cl = F.__globals__, F.__closure__
    if g.get('f') is F.__wrapped__: g = {**g, 'f': body}
    if cl: cl = tuple(types.CellType(body if n == 'f' else c.cell_contents) for n, c in zip(F.__code__.co_freevars, cl))
    w = types.FunctionType(F.__code__, g, F.__name__, F.__defaults__, cl)
    w.__wrapped__, w.parser = body, F.parser
    return w

def _stmts(F, args, kwargs, method):
    "Source of the two calls, literal arguments in a namespace: `F(a0, a1, k=k0)` and `B(name=b0, ...)`."
    ns = {'F': F, 'B': F.__wrapped__, 'x': x}
    pos = [f'a{i}' for i in range(len(args))]
    ns.update(zip(pos, args))
    kw = [f'{k}=k_{k}' for k in kwargs]
    ns.update({f'k_{k}': v for k, v in kwargs.items()})
    bound = F.parser.parse(args, kwargs)                       # what the general parser binds
    ns.update({f'b_{k}': v for k, v in bound.items()})
    me = ['x'] if method else []
    dec = f"F({', '.join(me + pos + kw)})"
    body = f"B({', '.join(me + [f'{k}=b_{k}' for k in bound])})"
    return dec, body, ns

def main(number=20000, repeat=15):
    gc.disable()
    print(f"{'form':32s} {'decorated us':>13s} {'body us':>9s} {'layer us':>9s} {'layer us, no-op body':>21s}")
    for name, F, args, kwargs, method in FORMS:
        timers = []
        for G in (F, _with_body(F, _noop_like(F.__wrapped__))):
            dec, body, ns = _stmts(G, args, kwargs, method)
            timers += [timeit.Timer(dec, globals=ns), timeit.Timer(body, globals=ns)]
        for t in timers: t.timeit(100)
        best = [float('inf')] * 4
        for _ in range(repeat):                              # interleaved: machine load hits all four
            best = [min(b, t.timeit(number) / number * 1e6) for b, t in zip(best, timers)]
        md, mb, nd, nb = best
        print(f"{name:32s} {md:13.3f} {mb:9.3f} {md - mb:9.3f} {nd - nb:21.3f}")
    gc.enable()

if __name__ == '__main__': main(*map(int, sys.argv[1:]))
