"""The package's shape: its import graph (module-level and function-level imports) is acyclic, each module imports
only modules of its own or an earlier chapter, and no module outgrows what one reader holds (800 lines)."""
import ast, json, pathlib, re

ROOT = pathlib.Path(__file__).resolve().parent.parent
PKG, NBS = ROOT / 'tinytensor', ROOT / 'nbs'
MAX_LINES = 800
EXEMPT = {'tinytensor', 'tinytensor.cli', 'tinytensor._modidx', 'tinytensor._nbdoc'}   # the package's front door, the CLI, generated files

def _modules():
    "Every module of the package: dotted name -> path."
    mods = {}
    for p in PKG.rglob('*.py'):
        parts = p.relative_to(ROOT).with_suffix('').parts
        if parts[-1] == '__init__': parts = parts[:-1]
        mods['.'.join(parts)] = p
    return mods

def _chapters():
    "Module -> (chapter index, notebook): the notebook that exports it (`#| default_exp` or `#| export <module>`), in file order."
    chap = {}
    for i, nb in enumerate(sorted(NBS.glob('*.ipynb'))):
        default = None
        for c in json.loads(nb.read_text())['cells']:
            if c['cell_type'] != 'code': continue
            for line in ''.join(c['source']).splitlines():
                m = re.match(r'#\|\s*default_exp\s+(\S+)', line)
                if m: default = m.group(1); chap.setdefault('tinytensor.' + default, (i, nb.name))
                m = re.match(r'#\|\s*export[i]?\s+(\S+)\s*$', line)
                if m: chap.setdefault('tinytensor.' + m.group(1), (i, nb.name))
    return chap

def _imports(name, path, mods):
    "The package modules `name` imports anywhere in its source (top level, functions, methods)."
    is_pkg = path.name == '__init__.py'
    out = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = name.split('.') if is_pkg else name.split('.')[:-1]
                base = base[:len(base) - (node.level - 1)]
                mod = '.'.join(base + ([node.module] if node.module else []))
            else: mod = node.module
            targets = [f'{mod}.{a.name}' if f'{mod}.{a.name}' in mods else mod for a in node.names]
        else: continue
        for t in targets:
            while t and t not in mods: t = t.rpartition('.')[0]        # `import a.b.c` names the deepest module that exists
            if t and t.startswith('tinytensor') and t != name: out.add(t)
    return out

def _graph():
    mods = _modules()
    return mods, {m: _imports(m, p, mods) for m, p in mods.items()}

def _chapter_of(m, chap, mods, graph=None):
    """A module's chapter. A package that no notebook writes (its `__init__` gathers its modules) counts as the latest
    module its `__init__` imports (a later chapter's module in the package that it does not import is not loaded by
    importing it), or as its last module's if it imports none."""
    if m in chap: return chap[m]
    subs = [chap[s] for s in (graph or {}).get(m, ()) if s.startswith(m + '.') and s in chap]
    subs = subs or [chap[s] for s in mods if s.startswith(m + '.') and s in chap]
    return max(subs) if subs else None

def _cycle(graph):
    "One import circle as a list of modules, or None."
    color, stack = {}, []
    def visit(m):
        color[m] = 1; stack.append(m)
        for n in sorted(graph.get(m, ())):
            if color.get(n) == 1: return stack[stack.index(n):] + [n]
            if not color.get(n) and (c := visit(n)): return c
        color[m] = 2; stack.pop()
    for m in sorted(graph):
        if not color.get(m) and (c := visit(m)): return c

def _tangle(graph, start):
    "Every module on some circle through `start` (its strongly connected component)."
    def reach(g, m):
        seen, todo = {m}, [m]
        while todo:
            for n in g.get(todo.pop(), ()):
                if n not in seen: seen.add(n); todo.append(n)
        return seen
    back = {}
    for m, deps in graph.items():
        for d in deps: back.setdefault(d, set()).add(m)
    return sorted(reach(graph, start) & reach(back, start))

def test_import_graph_is_acyclic():
    mods, graph = _graph()
    c = _cycle(graph)
    assert c is None, 'import circle: ' + ' -> '.join(c) + '; modules tangled with it: ' + ', '.join(_tangle(graph, c[0]))

def test_modules_import_only_earlier_chapters():
    mods, graph = _graph()
    chap = _chapters()
    bad, unmapped = [], []
    for m, deps in sorted(graph.items()):
        if m in EXEMPT: continue
        cm = _chapter_of(m, chap, mods, graph)
        if cm is None: unmapped.append(m); continue
        for d in sorted(deps):
            if d in EXEMPT: bad.append(f'{m} -> {d} (the package front door)'); continue
            cd = _chapter_of(d, chap, mods, graph)
            if cd is not None and cd[0] > cm[0]: bad.append(f'{m} ({cm[1]}) -> {d} ({cd[1]})')
    assert not unmapped, f'modules no notebook exports: {unmapped}'
    assert not bad, 'imports of a later chapter:\n  ' + '\n  '.join(bad)

def test_module_sizes():
    sizes = sorted(((len(p.read_text().splitlines()), m) for m, p in _modules().items() if m != 'tinytensor._modidx'), reverse=True)
    print(f'largest module: {sizes[0][1]} ({sizes[0][0]} lines)')
    big = [f'{m} ({n} lines)' for n, m in sizes if n > MAX_LINES]
    assert not big, f'modules over {MAX_LINES} lines: {big}'
