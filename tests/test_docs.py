"""The book's own checks: docs processing works without Quarto, every public name is documented,
every chapter has a diagram and a picture, and no cell only prints."""
import importlib, inspect, json, pkgutil, re, subprocess, sys
from pathlib import Path
import pytest
import tinytensor

ROOT = Path(__file__).resolve().parent.parent
NBS = ROOT / 'nbs'
MODULES = sorted(m.name for m in pkgutil.walk_packages(tinytensor.__path__, 'tinytensor.')
                 if not any(p.startswith('_') for p in m.name.split('.')[1:]))   # private: `_nbdoc`, the `_parts` a chapter's module re-exports


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
            for m in re.finditer(r'^#\|[ \t]*(?:default_exp|export[is]?)[ \t]+(\S+)', _src(c), re.M):
                if m.group(1) == target: return p.name       # its default module, or one it exports cells to
    return None


@pytest.fixture(scope='module')
def processed():
    """Run nbdev's docs processing (what `nbdev-proc-nbs` does, minus installing Quarto) over every notebook.

    nbdev writes to one folder, `_proc`, and empties it first. Under pytest-xdist each worker would run this fixture
    at once, and one would empty the folder while another reads it: so the processing runs under a file lock, and a
    worker that finds `_proc` already made from the notebooks as they are now (a hash of their bytes) reuses it."""
    import fcntl, hashlib
    stamp_src = hashlib.sha256()
    for p in sorted(NBS.glob('*')):
        if p.is_file(): stamp_src.update(p.name.encode() + p.read_bytes())
    digest = stamp_src.hexdigest()
    with open(NBS.parent / '.proc_nbs.lock', 'w') as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        proc, stamp = NBS.parent / '_proc', NBS.parent / '_proc' / '.tinytensor_stamp'
        if stamp.exists() and stamp.read_text() == digest: return proc
        # In a child process: the processing executes the notebooks' import cells, which would re-hook Tensor's
        # methods in this one (and a later test in the same worker would then call the notebooks' copies).
        code = f"from nbdev.serve import proc_nbs; print(proc_nbs({str(NBS)!r}, n_workers=0, force=True))"
        r = subprocess.run([sys.executable, '-c', code], capture_output=True, text=True, cwd=NBS.parent)
        assert r.returncode == 0, r.stderr[-3000:]
        out = Path(r.stdout.strip().splitlines()[-1])
        (out / '.tinytensor_stamp').write_text(digest)
        return out


def test_proc_nbs_processes_every_notebook(processed):
    for p in NBS.glob('*.ipynb'):
        assert (processed / p.name).exists(), f'{p.name} was not processed'


@pytest.mark.parametrize('modname', [m for m in MODULES if m not in ('tinytensor.cuda', 'tinytensor.random')])   # packages: their __init__ gathers
def test_every_public_name_has_a_show_doc_entry(processed, modname):
    nbname = notebook_of(modname)
    assert nbname, f'no notebook exports {modname}'
    rendered = {}
    for c in _nb(processed / nbname)['cells']:
        m = re.search(r'show_doc\(([\w.]+)[,)]', _src(c)) if c['cell_type'] == 'code' else None
        if m: rendered[m.group(1)] = any('text/markdown' in o.get('data', {}) for o in c.get('outputs', []))
        nm = c.get('metadata', {}).get('show_doc') if c['cell_type'] == 'markdown' else None   # an entry made Markdown
        if nm: rendered[nm] = bool(re.search(r'^#+ ', _src(c), re.M))
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


def quarto_markdown(nb) -> str:
    """The Markdown Quarto makes of a processed notebook, as far as the chunking of a page goes: a Markdown cell as it
    is, a code cell as a `::: {.cell}` div holding its source (unless `echo: false`) and its outputs, an `output: asis`
    Markdown output raw, right after the div's first line."""
    parts = []
    for c in nb['cells']:
        src = _src(c)
        if c['cell_type'] == 'markdown': parts.append(src); continue
        if c['cell_type'] == 'raw': continue                                   # the front matter
        asis = re.search(r'^#\|\s*output:\s*asis', src, re.M)
        body = [] if re.search(r'^#\|\s*echo:\s*false', src, re.M) else ['```python\n' + src + '\n```']
        for o in c.get('outputs', []):
            d = o.get('data', {})
            if asis and 'text/markdown' in d: body.append(''.join(d['text/markdown']))
            elif 'text/plain' in d or 'text' in o: body.append('```\n' + ''.join(d.get('text/plain', o.get('text', ''))) + '\n```')
        parts.append('::: {.cell}\n' + '\n'.join(body) + '\n:::')
    return '\n\n'.join(parts)


def yaml_traps(md: str):
    """Lines `---` outside code blocks without a blank line both before and after. Quarto's page splitter
    (`break-quarto-md`) reads such a line as the start of a YAML block and passes everything up to the next `---`
    through untouched: a ```{mermaid} block in between is then shown as raw text."""
    lines, fence, bad = md.split('\n'), None, []
    for i, l in enumerate(lines):
        m = re.match(r'^\s*(`{3,}|~{3,})', l)
        if m:
            if fence is None: fence = m.group(1)
            elif l.strip() == fence[0] * len(l.strip()) and len(l.strip()) >= len(fence): fence = None
            continue
        if fence is None and re.fullmatch(r'---\s*', l):
            before = lines[i-1].strip() if i else ''
            after = lines[i+1].strip() if i + 1 < len(lines) else ''
            if before or after: bad.append((i, before[:60], after[:60]))
    return bad


def raw_diagrams(md: str) -> int:
    "How many ```{mermaid} blocks Quarto's page splitter would meet inside a block it took for YAML (shown raw)."
    lines, fence, in_yaml, raw = md.split('\n'), None, False, 0
    for i, l in enumerate(lines):
        if fence is None and re.fullmatch(r'---\s*', l):
            near = (lines[i-1].strip() if i else '') or (lines[i+1].strip() if i + 1 < len(lines) else '')
            if in_yaml or near: in_yaml = not in_yaml
            continue
        if in_yaml: raw += l.startswith('```{mermaid}'); continue
        m = re.match(r'^\s*(`{3,})', l)
        if m: fence = None if fence else m.group(1)
    return raw


@pytest.mark.parametrize('path', sorted(NBS.glob('*.ipynb')), ids=lambda p: p.name)
def test_no_yaml_trap_in_processed_page(processed, path):
    "No `---` line Quarto could take for YAML: with one, a Mermaid diagram after it is shown as raw source."
    md = quarto_markdown(_nb(processed / path.name))
    assert not raw_diagrams(md), f'{path.name}: {raw_diagrams(md)} Mermaid diagram(s) would be shown as raw source'
    bad = yaml_traps(md)
    assert not bad, f'{path.name}: `---` lines without blank lines around them (line, before, after): {bad[:5]}'
    diagrams = sum(_src(c).count('```{mermaid}') for c in _nb(path)['cells'] if c['cell_type'] == 'markdown')
    assert md.count('```{mermaid}') == diagrams


def _entry_names(nb):
    "The API entries of a processed notebook, in page order: a show_doc cell's name, or an entry's heading."
    names = []
    for c in nb['cells']:
        src = _src(c)
        if c['cell_type'] == 'code':
            names += re.findall(r'^show_doc\(([\w.]+)', src, re.M)
        elif c['cell_type'] == 'markdown' and c.get('metadata', {}).get('show_doc'):
            names.append(c['metadata']['show_doc'])
    return names


def _defined_names(path):
    "Names the exported cells of a source notebook define (def/class at top level, @patch methods), in source order."
    import ast
    names = []
    for c in _nb(path)['cells']:
        src = _src(c)
        if c['cell_type'] != 'code' or not re.search(r'^#\|\s*exports?\b', src, re.M): continue
        if re.search(r'^#\|\s*hide\b', src, re.M): continue
        try: tree = ast.parse('\n'.join(l for l in src.split('\n') if not l.lstrip().startswith(('%', '!'))))
        except SyntaxError: continue
        for n in tree.body:
            if not isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)): continue
            if n.name.startswith('_') and not n.name.startswith('__'): continue
            cls = next((a.annotation.id for d in n.decorator_list if getattr(d, 'id', getattr(d, 'attr', '')) == 'patch'
                        for a in n.args.args[:1] if isinstance(getattr(a, 'annotation', None), ast.Name)), None) \
                  if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) else None
            names.append(f'{cls}.{n.name}' if cls else n.name)
    return names


@pytest.mark.parametrize('path', sorted(NBS.glob('*.ipynb')), ids=lambda p: p.name)
def test_show_doc_entries_in_source_order(processed, path):
    "A cell that defines several names shows their API entries in the order it defines them, not last to first."
    shown, defined = _entry_names(_nb(processed / path.name)), _defined_names(path)
    at, late = 0, []
    for n in (n for n in shown if n in defined):                  # shown must be a subsequence of defined
        nxt = next((i for i in range(at, len(defined)) if defined[i] == n), None)
        if nxt is None: late.append(n)
        else: at = nxt + 1
    assert not late, f'{path.name}: API entries shown before names defined earlier, e.g. {late[:4]}'


def test_api_entries_show_real_signatures(processed):
    "No `__main__.` in a signature; no class shown as `def X(*args, **kwargs)`."
    bad = []
    for p in sorted(processed.glob('*.ipynb')):
        for c in _nb(p)['cells']:
            texts = [_src(c)] if c['cell_type'] == 'markdown' else \
                    [''.join(o.get('data', {}).get('text/markdown', '')) for o in c.get('outputs', [])]
            for t in texts:
                for sig in re.findall(r'^### .*\n\n```python\n(.*?)\n```', t, re.M | re.S):
                    if '__main__.' in sig or re.search(r"^(def|class) \w+\(\s*\*args, \*\*kw\w*\s*\):", sig): bad.append((p.name, sig[:70]))
    assert not bad, f'{len(bad)} signatures: {bad[:6]}'


# ---------------------------------------------------------------- the site: links, signatures, layout, search

SITE = 'https://tinytensor.github.io/tinytensor/'
MINE = ['03b_pictures', '04d_printing', '05b_view_pictures', 'index', '90_glossary']   # the site's own pages

def page_of(nb_name:str) -> str:
    "The HTML page a notebook becomes: its name in lower case, without the chapter number (`05a_views` -> `views`)."
    return re.sub(r'^\d+[a-zA-Z0-9]*_', '', Path(nb_name).stem.lower()) + '.html'


def heading_anchor(heading:str) -> str:
    """The id Pandoc gives a heading (`auto_identifiers`): formatting and links dropped, every character but letters,
    digits, `_`, `-` and `.` removed, spaces to hyphens, lower case, nothing before the first letter."""
    h = re.sub(r'\[([^\]]*)\]\([^)]*\)', r'\1', re.sub(r'\s*\{[^}]*\}\s*$', '', heading))
    h = ''.join(ch for ch in re.sub(r'[`*]', '', h) if ch.isalnum() or ch in '_-. ').strip().lower()
    return re.sub(r'^[^a-z]+', '', re.sub(r'\s+', '-', h)) or 'section'


def page_anchors(nb) -> set:
    "Every anchor a processed notebook's page has: its headings' ids (a repeated one as `id-1`, ...), explicit ids."
    seen, out = {}, set()
    for c in nb['cells']:
        if c['cell_type'] != 'markdown': continue
        fence = None
        for line in _src(c).split('\n'):
            if re.match(r'^\s*(```|~~~)', line): fence = None if fence else line; continue
            if fence: continue
            m = re.match(r'^#{1,6}\s+(.*?)\s*$', line)
            if m:
                a = (re.search(r'\{#([\w.:-]+)', m.group(1)) or [None, heading_anchor(m.group(1))])[1]
                k = seen.get(a, 0); seen[a] = k + 1
                out.add(a if k == 0 else f'{a}-{k}')
        out.update(re.findall(r'\bid="([^"]+)"', _src(c)))
    return out


def _texts(c) -> list:
    "What a processed cell puts on the page as Markdown or HTML: a Markdown cell's source, its outputs' markup."
    if c['cell_type'] == 'markdown': return [_src(c)]
    return [''.join(o.get('data', {}).get(m, '')) for o in c.get('outputs', []) for m in ('text/markdown', 'text/html')]


def test_heading_anchor_follows_pandoc():
    test = {'DeviceCachingAllocator.free': 'devicecachingallocator.free', '`explain()`: the whole chain': 'explain-the-whole-chain',
            'Block.__init__': 'block.__init__', '_record': 'record', '04d printing {#sec-p}': 'd-printing',
            '[`Tensor`](x.html) view': 'tensor-view'}
    assert {h: heading_anchor(h) for h in test} == test


def test_doc_links_point_to_anchors_pages_have(processed):
    """Every link to an API entry (nbdev's doc links, rewritten by `_nbdoc.add_doc_links`) and every relative link to
    a page leads to a page the site has, at an anchor that page has: a patched method's entry is
    `devicecachingallocator.free`, not `free`; a private helper has no entry and no link."""
    nbs = {p.name: _nb(p) for p in sorted(processed.glob('*.ipynb'))}
    anchors = {page_of(n): page_anchors(nb) for n, nb in nbs.items()}
    bad, n = [], 0
    for name, nb in nbs.items():
        for c in nb['cells']:
            for t in _texts(c):
                for page, anchor in re.findall(re.escape(SITE) + r'([\w.-]+\.html)(?:#([\w.:-]+))?', t):
                    n += 1
                    if page not in anchors or (anchor and anchor not in anchors[page]): bad.append((name, page, anchor))
                for page, anchor in re.findall(r'(?:\]\(|href=")([\w-]+\.html)(?:#([\w.:-]+))?[)"]', t):
                    n += 1
                    if page not in anchors or (anchor and anchor not in anchors[page]): bad.append((name, page, anchor))
    assert n > 500, f'only {n} links found: is the doc-links processor running?'
    assert not bad, f'{len(bad)} links to missing pages or anchors, e.g. {sorted(set(bad))[:8]}'


def _signatures(processed):
    "(notebook, heading, signature) of every API entry on the site."
    for p in sorted(processed.glob('*.ipynb')):
        for c in _nb(p)['cells']:
            for t in _texts(c):
                for h, sig in re.findall(r'^#{2,4} (\S+)\n\n```python\n(.*?)\n```', t, re.M | re.S): yield p.name, h, sig


def test_signatures_say_what_the_source_says(processed):
    "No `NoneType` annotation (`dim=None`, or `Optional[int]` where the source annotates); an entry's name is its own."
    sigs = list(_signatures(processed))
    assert len(sigs) > 500
    bad = [(n, h, sig[:80]) for n, h, sig in sigs if 'NoneType' in sig]
    assert not bad, f'{len(bad)} signatures with NoneType: {bad[:5]}'
    entries = {h: sig for _, h, sig in sigs}
    assert entries['cummax_return'].startswith('class cummax_return(values, indices)')
    assert re.search(r'\bdim=None\b', entries['sum']) and 'Optional[' in entries['empty']
    assert not any('tinytensor.tensor_impl.Tensor' in sig for _, _, sig in sigs)


def test_wide_outputs_are_few(processed):
    """Text outputs keep their lines (the site neither wraps them nor lets them squeeze): an output with a line over 90
    columns scrolls sideways in its box, and only the few inherently wide ones may (at most 40 on the site)."""
    wide = []
    for p in sorted(processed.glob('*.ipynb')):
        for c in _nb(p)['cells']:
            for o in c.get('outputs', []):
                d = o.get('data', {})
                texts = [''.join(o.get('text', ''))] if o.get('output_type') == 'stream' else \
                        [re.sub(r'<[^>]+>', '', m) for m in re.findall(r'<pre[^>]*>(.*?)</pre>', ''.join(d.get('text/html', '')), re.S)] \
                        if 'text/html' in d else [''.join(d.get('text/plain', ''))] if 'text/markdown' not in d else []
                if any(len(l) > 90 for t in texts for l in t.split('\n')): wide.append(p.stem)
    assert len(wide) <= 40, f'{len(wide)} outputs wider than 90 columns: {sorted(set(wide))}'
    assert not [n for n in wide if n in MINE], [n for n in wide if n in MINE]


@pytest.mark.parametrize('name', MINE)
def test_code_lines_fit_the_column(name):
    "The site's own pages keep code lines within 90 characters: a code block neither wraps nor needs scrolling."
    long = [l for c in _nb(NBS / f'{name}.ipynb')['cells'] if c['cell_type'] == 'code'
            and not re.search(r'^#\|\s*(hide|exporti\b|echo:\s*false)', _src(c), re.M)
            for l in _src(c).split('\n') if len(l) > 90]
    assert not long, long[:3]


@pytest.mark.parametrize('name', MINE)
def test_outputs_are_deterministic(name):
    "No memory address in the site's own pages' outputs (explain() is shown with `addresses=False`)."
    outs = [json.dumps(o) for c in _nb(NBS / f'{name}.ipynb')['cells'] for o in c.get('outputs', [])]
    assert not [o[:80] for o in outs if re.search(r'0x[0-9a-f]{8,}', o)]


def test_styles_keep_lines_and_tables_whole():
    """nbs/styles.css: no rule breaks words anywhere but the table of contents (tables whose columns collapse to a
    letter, `bfloat1/6`), code and text outputs keep their lines (no `pre-wrap`), code in a TOC entry wraps; Quarto
    scrolls code instead of wrapping it, and the site has a favicon."""
    css = (NBS / 'styles.css').read_text()
    rules = re.findall(r'([^{}]+)\{([^}]*)\}', re.sub(r'/\*.*?\*/', '', css, flags=re.S))
    for sel, body in rules:
        if 'anywhere' in body or 'break-all' in body: assert all('TOC' in s or 'doc-toc' in s for s in sel.split(',')), sel
        assert 'pre-wrap' not in body, sel
    assert any('pre' in sel and re.search(r'white-space:\s*pre\b', body) for sel, body in rules)
    assert any('#TOC' in sel and 'code' in sel and 'white-space: normal' in body for sel, body in rules)
    assert any('table' in sel and 'overflow-wrap: normal' in body for sel, body in rules)
    q = (NBS / '_quarto.yml').read_text()
    assert re.search(r'^\s*code-overflow:\s*scroll', q, re.M)
    fav = re.search(r'^\s*favicon:\s*(\S+)', q, re.M)
    assert fav and (NBS / fav.group(1)).exists()


def test_glossary_keeps_code_whole():
    "The glossary's names are code of their own, never broken into pieces (`c10/ util/ Exception. h`)."
    html = ''.join(''.join(o.get('data', {}).get('text/html', '')) for c in _nb(NBS / '90_glossary.ipynb')['cells']
                   for o in c.get('outputs', []))
    assert 'class="table table-sm glossary"' in html and '<wbr>' not in html
    assert '<code>c10/util/Exception.h</code>' in html and '<code>TORCH_CHECK</code>, <code>TORCH_CHECK_INDEX</code>' in html


def test_index_picture_and_table_are_current():
    """The front page's picture of the package and its table of chapters are computed from the package and the
    notebooks: the stored outputs are what they compute now (re-execute nbs/index.ipynb after moving a module or
    a chapter)."""
    from tinytensor._nbdoc import layers_svg, chapters_md
    outs = [o.get('data', {}) for c in _nb(NBS / 'index.ipynb')['cells'] for o in c.get('outputs', [])]
    assert any(''.join(d.get('text/html', '')) == layers_svg() for d in outs), 're-execute nbs/index.ipynb'
    assert any(''.join(d.get('text/markdown', '')) == chapters_md() for d in outs), 're-execute nbs/index.ipynb'
    from tinytensor._nbdoc import package_layers
    layers, edges = package_layers()
    assert [s for s, *_ in layers][:3] == ['Foundations', 'Tensors', 'Views']
    assert ('Tensors', 'Foundations') in edges and not any(a == b for a, b in edges)


def test_layers_section_has_prose(processed):
    "The index's 'The layers' section has prose of its own (its search entry is not empty once diagrams are out)."
    md = '\n'.join(_src(c) for c in _nb(processed / 'index.ipynb')['cells'] if c['cell_type'] == 'markdown')
    sec = md.split('## The layers', 1)[1].split('\n## ', 1)[0]
    prose = re.sub(r'```.*?```', '', sec, flags=re.S)
    assert len(prose.strip()) > 400


def test_search_index_keeps_prose_only(tmp_path):
    """`clean_search_index` (run by nbs/clean_search.py after Quarto renders) takes a Mermaid diagram's source and an
    SVG picture's labels (as the browser's textContent runs them together: `float32001122...`) out of the search
    index, and keeps the prose around them."""
    import xml.etree.ElementTree as ET
    from tinytensor._nbdoc import clean_search_index
    svg = tinytensor.storage_svg(tinytensor.arange(6.).view(2, 3), names=['t'])
    mermaid = 'flowchart LR\n    A["x &lt; y"] --> B'
    (tmp_path / 'index.html').write_text(f'<section id="s"><h2>The layers</h2><p>Prose one.</p><pre class="mermaid '
                                        f'mermaid-js">{mermaid}</pre><div>{svg}</div><p>Prose two.</p></section>')
    soup = ''.join(ET.fromstring(svg).itertext())
    assert '001122' in soup
    entry = {'href': 'index.html#s', 'title': 'The layers', 'text': f'Prose one. flowchart LR A["x < y"] --> B {soup} Prose two.'}
    (tmp_path / 'search.json').write_text(json.dumps([entry, {'href': 'other.html', 'text': 'kept as is'}]))
    assert clean_search_index(tmp_path) == 2
    docs = json.loads((tmp_path / 'search.json').read_text())
    assert [d['text'] for d in docs] == ['Prose one. Prose two.', 'kept as is']


def test_readme_tour_runs_when_pasted(tmp_path):
    """The README's tour is code a reader pastes: its Python blocks, run one after another in a fresh interpreter,
    need no name from a hidden cell of the notebook it comes from."""
    readme = (ROOT / 'README.md').read_text()
    tour = readme.split('## A five-minute tour', 1)[1].split('\n## ', 1)[0]
    blocks = re.findall(r'```python\n(.*?)```', tour, flags=re.S)
    assert len(blocks) >= 3 and 'import tinytensor as tt' in blocks[0]
    script = tmp_path / 'tour.py'
    script.write_text('\n'.join(blocks))
    r = subprocess.run([sys.executable, str(script)], cwd=tmp_path, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr[-2000:]
