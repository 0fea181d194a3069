"""Every SVG picture the package draws shows all of its text and cells: nothing is drawn past the picture's edges,
and no two texts overprint.

SVG has no layout engine, so a picture written as a string must size itself from estimates (chapter 04d's
Note [Measuring text in SVG]). A monospace glyph advances about 0.6 em, so a text of n characters at font size f
spans about n × 0.6 × f pixels from its x (centred on x for text-anchor="middle", ending at x for "end"). These
tests parse each picture with xml.etree and check every text, rect and polyline against the picture's width and
height (or viewBox), for long captions, tiny and large tensors, allocator states and replays of several sizes, and
for the pictures stored in the notebooks' outputs."""
import json, math, re
import xml.etree.ElementTree as ET
from pathlib import Path
import pytest

import tinytensor as tt
from tinytensor.printing import storage_svg
from tinytensor.view_pictures import view_svg, views_gallery, explore_html, stride_explorer
from tinytensor.tensor_iterator import iteration_order_svg
from tinytensor.cuda.caching_allocator import DeviceCachingAllocator, SimulatedBackend, memory_map_svg
from tinytensor.cuda.replay import replay, demo_snapshot, timeline_svg, history_frames
from tinytensor.safetensors import save_file, layout_svg

EM = 0.6                                   # advance of one monospace character, in font sizes
TOL = 0.5                                  # pixels of rounding slack
MiB = 1 << 20
NBS = Path(__file__).resolve().parent.parent / 'nbs'

LONG = 'b.expand(3, 4) (stride 0: each storage cell read 4 times)'
VERY_LONG = ('a caption far longer than any picture should grow to, so the picture must wrap it onto several lines '
             'at word boundaries instead of cutting it off at the right edge: ' + 'word ' * 30)


def _num(s, default=0.0):
    m = re.match(r'\s*(-?[\d.]+(?:e-?\d+)?)', str(s)) if s is not None else None
    return float(m.group(1)) if m else default


def _angle(transform) -> float:
    "Degrees of a `rotate(a cx cy)` transform (the only kind the pictures use), 0 without one."
    m = re.fullmatch(r'\s*rotate\(\s*(-?[\d.]+).*\)\s*', transform or '')
    return float(m.group(1)) if m else 0.0


def _rotate(px, py, transform):
    "Apply a `rotate(a cx cy)` transform to one point."
    m = re.fullmatch(r'\s*rotate\(\s*(-?[\d.]+)(?:[\s,]+(-?[\d.]+)[\s,]+(-?[\d.]+))?\s*\)\s*', transform or '')
    if not m: return px, py
    a = math.radians(float(m.group(1))); cx, cy = float(m.group(2) or 0), float(m.group(3) or 0)
    dx, dy = px - cx, py - cy
    return cx + dx * math.cos(a) - dy * math.sin(a), cy + dx * math.sin(a) + dy * math.cos(a)


def svgs_in(markup:str) -> list:
    "Every `<svg>...</svg>` in a string of HTML (a gallery holds several)."
    found = re.findall(r'<svg\b.*?</svg>', markup, re.S)
    assert found, f'no SVG in {markup[:200]!r}'
    return found


def text_boxes(svg:str) -> list:
    "(text, x0, x1, top, bottom, angle, corners) for each text element, font-size and text-anchor inherited as SVG does."
    root = ET.fromstring(svg)
    out = []
    def walk(el, fs, anchor):
        fs = _num(el.get('font-size'), fs); anchor = el.get('text-anchor', anchor)
        tag = el.tag.split('}')[-1]
        if tag == 'title': return                                  # a tooltip, not drawn
        if tag == 'text':
            s = ''.join(el.itertext())
            x, y, w = _num(el.get('x')), _num(el.get('y')), len(s) * EM * fs
            x0 = {'middle': x - w / 2, 'end': x - w}.get(anchor, x)
            ends = [_rotate(px, py, el.get('transform')) for px, py in ((x0, y), (x0 + w, y), (x0, y - 0.75 * fs), (x0 + w, y - 0.75 * fs))]
            out.append((s, min(p[0] for p in ends), max(p[0] for p in ends), min(p[1] for p in ends), max(p[1] for p in ends),
                        _angle(el.get('transform')), ends))
        for ch in el: walk(ch, fs, anchor)
    walk(root, 16.0, 'start')
    return out


def size_of(svg:str):
    root = ET.fromstring(svg)
    vb = root.get('viewBox')
    if vb:
        x, y, w, h = map(float, vb.replace(',', ' ').split())
        return x, y, x + w, y + h
    return 0.0, 0.0, _num(root.get('width')), _num(root.get('height'))


def _upright(corners, angle):
    "Bounding box (x0, x1, top, bottom) of `corners` turned back by `angle` degrees about the origin."
    a = math.radians(-angle)
    pts = [(px * math.cos(a) - py * math.sin(a), px * math.sin(a) + py * math.cos(a)) for px, py in corners]
    return min(p[0] for p in pts), max(p[0] for p in pts), min(p[1] for p in pts), max(p[1] for p in pts)


MIN_FONT = 10                              # pixels: smaller labels are hard to read on a screen


def font_sizes(svg:str) -> list:
    "(text, font size) of each text element, the size inherited as SVG does (a `style` font-size wins)."
    out = []
    def walk(el, fs):
        m = re.search(r'font-size:\s*([\d.]+)', el.get('style') or '')
        fs = float(m.group(1)) if m else _num(el.get('font-size'), fs)
        if el.tag.split('}')[-1] == 'text': out.append((''.join(el.itertext()), fs))
        for ch in el: walk(ch, fs)
    walk(ET.fromstring(svg), 16.0)
    return out


def check_svg(svg:str, no_overlap:bool=True, min_font:float=MIN_FONT):
    """Assert that every text, rect and polyline lies inside the picture, that (unless told not to) no two texts
    overlap, and that no text is smaller than `min_font` pixels."""
    small = [(t, f) for t, f in font_sizes(svg) if f < min_font]
    assert not small, f'{len(small)} texts under {min_font} px, e.g. {small[:3]}'
    X0, Y0, X1, Y1 = size_of(svg)
    assert X1 > X0 and Y1 > Y0, 'picture without a size'
    boxes = text_boxes(svg)
    for s, x0, x1, top, bottom, *_ in boxes:
        assert x0 >= X0 - TOL and x1 <= X1 + TOL, f'text {s!r} spans x {x0:.1f}..{x1:.1f}, picture is {X0:.0f}..{X1:.0f} wide'
        assert top >= Y0 - TOL and bottom <= Y1 + TOL, f'text {s!r} spans y {top:.1f}..{bottom:.1f}, picture is {Y0:.0f}..{Y1:.0f} high'
    for el in ET.fromstring(svg).iter():
        tag = el.tag.split('}')[-1]
        if tag == 'rect':
            x, y, w, h = (_num(el.get(k)) for k in ('x', 'y', 'width', 'height'))
            assert x >= X0 - TOL and x + w <= X1 + TOL and y >= Y0 - TOL and y + h <= Y1 + TOL, \
                f'rect at ({x}, {y}) size {w}×{h} outside the {X1 - X0:.0f}×{Y1 - Y0:.0f} picture'
        if tag == 'polyline':
            for pt in el.get('points').split():
                px, py = map(float, pt.split(','))
                assert X0 - TOL <= px <= X1 + TOL and Y0 - TOL <= py <= Y1 + TOL, f'polyline point {pt} outside the picture'
    if no_overlap:
        order = sorted(boxes, key=lambda t: t[1])
        for i, a in enumerate(order):
            for b in order[i + 1:]:
                if b[1] >= a[2] - TOL: break                 # sorted by left edge: no later text reaches back to `a`
                if a[5] == b[5]:                 # equally slanted texts: compare them upright
                    (ax0, ax1, at, ab), (bx0, bx1, bt, bb) = (_upright(t[6], t[5]) for t in (a, b))
                else: (ax0, ax1, at, ab), (bx0, bx1, bt, bb) = a[1:5], b[1:5]
                apart = ax1 <= bx0 + TOL or bx1 <= ax0 + TOL or ab <= bt + TOL or bb <= at + TOL
                assert apart, f'texts {a[0]!r} and {b[0]!r} overlap'
    return boxes


def check_html(markup:str, **kw):
    for s in svgs_in(markup): check_svg(s, **kw)


def test_checker_catches_overflow():
    "The checker itself fails on a caption cut off at the right edge, on a cell past it, on touching texts, on tiny text."
    with pytest.raises(AssertionError, match='under 10 px'):
        check_svg('<svg xmlns="http://www.w3.org/2000/svg" width="100" height="20" font-size="10"><g font-size="8">'
                  '<text x="4" y="14">tiny</text></g></svg>')
    with pytest.raises(AssertionError, match='text'):
        check_svg('<svg xmlns="http://www.w3.org/2000/svg" width="100" height="20" font-size="10"><text x="4" y="14">'
                  + 'x' * 20 + '</text></svg>')
    with pytest.raises(AssertionError, match='text'):   # 10 chars × 6 px centred on 90: ends at 120
        check_svg('<svg xmlns="http://www.w3.org/2000/svg" width="100" height="20"><g font-size="10" text-anchor="middle">'
                  '<text x="90" y="14">0123456789</text></g></svg>')
    with pytest.raises(AssertionError, match='rect'):
        check_svg('<svg xmlns="http://www.w3.org/2000/svg" width="100" height="20"><rect x="90" y="0" width="20" height="10"/></svg>')
    with pytest.raises(AssertionError, match='overlap'):
        check_svg('<svg xmlns="http://www.w3.org/2000/svg" width="100" height="20" font-size="10"><text x="4" y="14">MiB</text>'
                  '<text x="60" y="14" text-anchor="end">1,024.0</text></svg>')
    check_svg('<svg xmlns="http://www.w3.org/2000/svg" width="130" height="20" font-size="10"><text x="4" y="14">'
              + 'x' * 20 + '</text></svg>')
    slanted = lambda x: f'<text x="{x}" y="20" transform="rotate(30 {x} 20)">name</text>'     # parallel, 10 px apart
    check_svg('<svg xmlns="http://www.w3.org/2000/svg" width="100" height="60" font-size="9">' + slanted(10) + slanted(30) + '</svg>',
              min_font=9)
    with pytest.raises(AssertionError, match='overlap'):
        check_svg('<svg xmlns="http://www.w3.org/2000/svg" width="100" height="60" font-size="9">' + slanted(10) + slanted(14) + '</svg>',
                  min_font=9)


# ---------------------------------------------------------------- storage and view pictures

def tensors():
    "Tiny, narrow, multi-dim, strided and large tensors (with their storage)."
    a = tt.arange(12.).view(3, 4)
    return {'scalar': tt.tensor(3.), 'one': tt.arange(1.), 'empty': tt.arange(0.), 'column': a[:, 1], 'transpose': a.t(),
            'expand': tt.arange(3.).view(3, 1).expand(3, 4), 'unfold': tt.arange(7.).unfold(0, 3, 2),
            '4d': tt.arange(120.).view(2, 3, 4, 5).permute(3, 1, 0, 2), 'int64': tt.arange(10).view(2, 5),
            'far': tt.arange(100000.)[::997], 'wide': tt.arange(400.).view(1, 400), 'big': tt.arange(10000.).view(100, 100),
            'bool': tt.arange(6.).view(2, 3) > 2}


@pytest.mark.parametrize('name', list(tensors()))
@pytest.mark.parametrize('title', [None, 't', LONG, VERY_LONG])
def test_view_svg(name, title):
    t = tensors()[name]
    check_svg(view_svg(t, title))


def test_view_svg_long_caption_is_whole_and_wrapped():
    "The 58-character caption is drawn whole (not cut off), and a very long one wraps instead of growing without bound."
    t = tt.arange(3.).view(3, 1).expand(3, 4)
    svg = view_svg(t, title=LONG)
    assert LONG in [s for s, *_ in check_svg(svg)]
    svg = view_svg(t, title=VERY_LONG)
    lines = [s for s, *_ in check_svg(svg) if s.strip() and s.split()[0] in VERY_LONG.split()]
    assert len(lines) > 2 and ' '.join(lines).split() == VERY_LONG.split()     # wrapped at word boundaries, nothing lost
    assert size_of(svg)[2] < 800


def test_views_gallery_and_explorer():
    check_html(views_gallery())
    check_html(explore_html())
    check_html(explore_html(16, 1, 16, 0, 1, 0))
    assert '<svg' not in explore_html(16, 1, 16, 0, 1, 15)               # out of bounds: the error message instead
    check_html(stride_explorer(64, size0=8, size1=8, stride0=8).static_html())


@pytest.mark.parametrize('names', [None, ['t'], ['a tensor with a long name', 'v']])
@pytest.mark.parametrize('name', list(tensors()))
def test_storage_svg(name, names):
    t = tensors()[name]
    ts = [t, t] if names and len(names) == 2 else [t]
    check_svg(storage_svg(*ts, names=names))


def test_tensor_repr_html():
    for t in tensors().values(): check_html(t._repr_html_())


# ---------------------------------------------------------------- TensorIterator

@pytest.mark.parametrize('shape,perm', [((1, 1), (0, 1)), ((1, 2), (0, 1)), ((3, 4), (1, 0)), ((2, 3), (0, 1)),
                                        ((30, 40), (1, 0)), ((1, 60), (0, 1))])
def test_iteration_order_svg(shape, perm):
    t = tt.arange(float(math.prod(shape))).view(*shape).permute(*perm)
    check_svg(iteration_order_svg(t))


# ---------------------------------------------------------------- allocator and replay

def allocator_states():
    out = {'empty': DeviceCachingAllocator(SimulatedBackend())}
    a = DeviceCachingAllocator(SimulatedBackend()); a.malloc(1000); out['one small'] = a
    a = DeviceCachingAllocator(SimulatedBackend()); ps = [a.malloc(s) for s in (3 * MiB, 5 * MiB, 512, 40 * MiB, 700 * MiB)]
    a.free(ps[1]); out['mixed'] = a
    a = DeviceCachingAllocator(SimulatedBackend(capacity=1 << 40))
    ps = [a.malloc((i % 7 + 1) * 3 * MiB + i) for i in range(60)]
    for p in ps[::3]: a.free(p)
    out['many'] = a
    return out


@pytest.mark.parametrize('state', list(allocator_states()))
@pytest.mark.parametrize('width', [200, 640, 1200])
@pytest.mark.parametrize('title', [None, 'after step 3', VERY_LONG])
def test_memory_map_svg(state, width, title):
    check_svg(memory_map_svg(allocator_states()[state], width=width, title=title))


@pytest.fixture(scope='module')
def replays():
    snap = demo_snapshot(3)
    long_conf = 'max_split_size_mb:64,roundup_power2_divisions:[256:1,512:2,1024:4,>:8],garbage_collection_threshold:0.6'
    return {'one': [replay(snap, '')], 'two': [replay(snap, ''), replay(snap, long_conf)],
            'short': [replay(demo_snapshot(1), 'max_split_size_mb:20')],
            'many': [replay(snap, c) for c in ('', 'max_split_size_mb:20', 'roundup_power2_divisions:4', long_conf,
                                               'garbage_collection_threshold:0.5,max_split_size_mb:40')],
            'huge': [replay(demo_snapshot(2), '', capacity=1 << 50) | {'peak_reserved': 123456 * MiB}]}


@pytest.mark.parametrize('which', ['one', 'two', 'short', 'many', 'huge'])
@pytest.mark.parametrize('width', [240, 640])
@pytest.mark.parametrize('title', [None, 'reserved (solid) vs allocated (dashed)', VERY_LONG])
def test_timeline_svg(replays, which, width, title):
    check_svg(timeline_svg(replays[which], width=width, title=title))


def test_replay_memory_maps(replays):
    for rs in replays.values():
        for r in rs: check_svg(memory_map_svg(r['allocator'], width=560, title=r['conf'] or '(default)'))
    for frame in history_frames(demo_snapshot(1), max_steps=40)[::7]: check_svg(memory_map_svg(frame, width=300, title='step'))


# ---------------------------------------------------------------- safetensors

@pytest.mark.parametrize('names', [['w'], ['a', 'b', 'c'], ['layer.0.weight', 'layer.0.bias', 'model.embed_tokens.weight_with_a_long_name'],
                                   [f't{i}' for i in range(12)]])
def test_safetensors_layout_svg(tmp_path, names):
    p = tmp_path / 'm.safetensors'
    save_file({n: tt.arange(float(4 + 3 * i)) for i, n in enumerate(names)}, p)
    check_svg(layout_svg(p))
    check_svg(layout_svg(p, width=200))


# ---------------------------------------------------------------- stored notebook outputs

SITE_PAGES = {'03b_pictures', '04d_printing', '05b_view_pictures', 'index', '90_glossary'}

def stored_svgs():
    for p in sorted(NBS.glob('*.ipynb')):
        for i, c in enumerate(json.loads(p.read_text())['cells']):
            for o in c.get('outputs', []):
                for mime in ('image/svg+xml', 'text/html'):
                    s = ''.join(o.get('data', {}).get(mime, ''))
                    for k, svg in enumerate(re.findall(r'<svg\b.*?</svg>', s, re.S)):
                        yield pytest.param(svg, p.stem, id=f'{p.stem}-cell{i}-{k}')


@pytest.mark.parametrize('svg,nb', list(stored_svgs()))
def test_stored_notebook_pictures(svg, nb):
    """The pictures the book shows (stored outputs) are whole too: re-execute a notebook after its drawing code changes.
    The site's own pages are held to 10 px text here; the other chapters' pictures to it once they are re-executed
    with the drawing helpers of chapters 03b, 04d and 05b (whose every text is >= 10 px, checked above)."""
    check_svg(svg, min_font=MIN_FONT if nb in SITE_PAGES else 0)


# ---------------------------------------------------------------- views of another element size

def test_storage_svg_places_views_by_bytes():
    """A float32 view of a complex64 storage (`z.real`, `z.imag`: stride 2, offsets 0 and 1) is drawn by its byte
    offsets: each element starts at the first or second half of its complex cell and spans half of it; all three
    elements of each view are drawn; the complex values are whole (`1+2j`, not `(1+2j`)."""
    z = tt.tensor([1 + 2j, 3 + 4j, 5 + 6j])
    svg = storage_svg(z, z.real, z.imag, names=['z', 'z.real', 'z.imag'])
    check_svg(svg)
    root = ET.fromstring(svg)
    cells = [(float(r.get('x')), float(r.get('width'))) for r in root.iter('{http://www.w3.org/2000/svg}rect')
             if r.get('fill') == '#eee']
    assert len(cells) == 3
    x0, pitch = cells[0][0], cells[1][0] - cells[0][0]
    marks = {}
    for r in root.iter('{http://www.w3.org/2000/svg}rect'):
        if r.get('fill') not in ('#eee', None) and r.get('opacity'):
            marks.setdefault(r.get('fill'), []).append(((float(r.get('x')) - x0) / pitch, (float(r.get('width')) + 2) / pitch))
    z_, re_, im_ = marks.values()
    assert z_ == [(0, 1), (1, 1), (2, 1)]
    assert re_ == [(0, 0.5), (1, 0.5), (2, 0.5)]
    assert im_ == [(0.5, 0.5), (1.5, 0.5), (2.5, 0.5)]
    texts = [t for t, _ in font_sizes(svg)]
    assert {'1+2j', '3+4j', '5+6j'} <= set(texts) and texts.count('[2]') == 3


def test_storage_svg_wider_view_spans_cells():
    "A complex64 view of a float32 storage spans two cells per element, starting at the element's first byte."
    from tinytensor.more_views import view_as_complex
    f = tt.arange(8.)
    c = view_as_complex(f.view(4, 2))
    svg = storage_svg(f, c, names=['f', 'c'])
    check_svg(svg)
    assert [t for t, _ in font_sizes(svg)].count('[3]') == 2


def test_layers_picture():
    from tinytensor._nbdoc import layers_svg
    svg = layers_svg()
    check_svg(svg)
    assert 'Foundations' in svg and 'tensor_impl' in svg
