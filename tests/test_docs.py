"""The book's own checks: docs processing works without Quarto, every public name is documented,
every chapter has a diagram and a picture, and no cell only prints."""
import importlib, inspect, json, pkgutil, re
from pathlib import Path
import pytest
import tinytensor

ROOT = Path(__file__).resolve().parent.parent
NBS = ROOT / 'nbs'
MODULES = sorted(m.name for m in pkgutil.walk_packages(tinytensor.__path__, 'tinytensor.')
                 if not m.name.split('.')[-1].startswith('_'))


def public_defs(modname):
    """What a module exports (its `__all__`) that needs its own docstring and show_doc entry: every class, function
    or other callable, wherever it was made (a ctypes callback type, a namedtuple, a partial), not only those a
    `def` or `class` in tinytensor defines. An alias of a name the module also exports (UntypedStorage = Storage,
    subtract = sub) is documented under that name; a value that is not callable (an int, a tuple, a dtype or device
    instance) is documented by its class or by the prose and comment beside it."""
    mod = importlib.import_module(modname)
    for name in getattr(mod, '__all__', []):
        obj = getattr(mod, name)
        if inspect.ismodule(obj) or not (inspect.isclass(obj) or callable(obj)): continue
        own = getattr(obj, '__name__', name)
        if own != name and getattr(mod, own, None) is obj: continue          # an alias, documented under `own`
        yield name, obj


def own_doc(obj) -> str:
    "The docstring written for `obj`: not one Python generates (a namedtuple's `max(values, indices)`) or inherits."
    doc = (obj.__doc__ or '').strip()
    if inspect.isclass(obj) and '__doc__' not in vars(obj): return ''                          # inherited
    if hasattr(obj, '_fields') and doc == f"{obj.__name__}({', '.join(obj._fields)})": return ''  # namedtuple's own
    return doc


@pytest.mark.parametrize('modname', MODULES)
def test_every_public_name_has_a_docstring(modname):
    missing = [n for n, o in public_defs(modname) if not own_doc(o)]
    assert not missing, f'{modname}: no docstring for {missing}'


def test_tensor_methods_have_docstrings():
    missing = [n for n, o in vars(tinytensor.Tensor).items()
               if not n.startswith('_') and (inspect.isfunction(o) or isinstance(o, property)) and not (o.__doc__ or '').strip()]
    assert not missing, f'Tensor methods without a docstring: {missing}'


def _nb(path): return json.loads(Path(path).read_text())
def _src(c): return ''.join(c['source'])

def notebook_of(modname):
    target = modname.replace('tinytensor.', '', 1)
    for p in sorted(NBS.glob('*.ipynb')):
        for c in _nb(p)['cells']:
            m = re.search(r'^#\|\s*default_exp\s+(\S+)', _src(c), re.M)
            if m and m.group(1) == target: return p.name
    return None


@pytest.fixture(scope='module')
def processed():
    "Run nbdev's docs processing (what `nbdev-proc-nbs` does, minus installing Quarto) over every notebook."
    from nbdev.serve import proc_nbs
    return proc_nbs(str(NBS), n_workers=0, force=True)


def test_proc_nbs_processes_every_notebook(processed):
    for p in NBS.glob('*.ipynb'):
        assert (processed / p.name).exists(), f'{p.name} was not processed'


@pytest.mark.parametrize('modname', [m for m in MODULES if m != 'tinytensor.cuda'])
def test_every_public_name_has_a_show_doc_entry(processed, modname):
    nbname = notebook_of(modname)
    assert nbname, f'no notebook exports {modname}'
    rendered = {}
    for c in _nb(processed / nbname)['cells']:
        m = re.search(r'show_doc\(([\w.]+)[,)]', _src(c)) if c['cell_type'] == 'code' else None
        if m: rendered[m.group(1)] = any('text/markdown' in o.get('data', {}) for o in c.get('outputs', []))
    missing = [n for n, _ in public_defs(modname) if not rendered.get(n)]
    assert not missing, f'{nbname}: no rendered show_doc entry for {missing}'


CHAPTERS = sorted(p for p in NBS.glob('[0-9]*.ipynb'))

@pytest.mark.parametrize('path', CHAPTERS, ids=lambda p: p.name)
def test_chapter_has_a_diagram_and_a_picture(path):
    nb = _nb(path)
    assert any(c['cell_type'] == 'markdown' and '```{mermaid}' in _src(c) for c in nb['cells']), 'no ```{mermaid} diagram'
    def is_picture(o):
        d = o.get('data', {})
        html = ''.join(d.get('text/html', ''))
        return 'image/svg+xml' in d or any(tag in html for tag in ('<svg', '<table', '<div style='))
    assert any(is_picture(o) for c in nb['cells'] if c['cell_type'] == 'code' for o in c.get('outputs', [])), \
        'no stored SVG/HTML picture output (execute the notebook with `nbdev-test --save`)'


@pytest.mark.parametrize('path', sorted(NBS.glob('*.ipynb')), ids=lambda p: p.name)
def test_no_cell_only_prints(path):
    "A cell that shows something must also check it: a cell of bare print() calls proves nothing."
    for c in _nb(path)['cells']:
        if c['cell_type'] != 'code': continue
        lines = [l for l in _src(c).split('\n') if l.strip() and not l.strip().startswith('#')]
        assert not (lines and all(l.startswith('print(') for l in lines)), f'print-only cell:\n{_src(c)}'


def test_sidebar_lists_every_notebook_in_order():
    "The docs sidebar (nbs/sidebar.yml, kept by hand: custom_sidebar) names every notebook, in file order."
    listed = re.findall(r'-\s+(\S+\.ipynb)', (NBS / 'sidebar.yml').read_text())
    on_disk = sorted(p.name for p in NBS.glob('*.ipynb'))
    assert sorted(listed) == on_disk
    chapters = [n for n in listed if n[0].isdigit()]
    assert chapters == sorted(chapters)
