"""`tinytensor replay --advise / --fit / --html`, the plain table and the one-line errors (chapter 07a)."""
import gzip, io, json, os, pickle, random, zipfile
from html.parser import HTMLParser
import pytest
torch = pytest.importorskip("torch")
from tinytensor.cuda.replay import (load_snapshot, load_metadata, replay, main, MalformedSnapshotError,
                                    timeline_svg)
from tinytensor.cuda.advise import search_settings, fit_settings, format_advice, unavoidable_ooms

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'fixtures', 'cuda_traces')
def fixture(name): return os.path.join(HERE, name + '.pickle.gz')


def run_main(argv, capsys):
    rc = main([str(a) for a in argv])
    out = capsys.readouterr()
    return rc, out.out, out.err


def test_advise_recommends_the_lowest_peak_and_prints_the_saving(capsys):
    path = fixture('transformer_varlen')
    res = search_settings(path, load_metadata(path))
    best = res['candidates'][0]
    assert best['peak_reserved'] == min(r['peak_reserved'] for r in res['candidates'])
    assert best['peak_reserved'] < res['baseline']['peak_reserved']
    # every candidate is an exact replay of its settings
    r = replay(load_snapshot(path), best['conf'], meta=load_metadata(path))
    assert (r['peak_reserved'], r['num_ooms'], r['segment_allocs']) == (
        best['peak_reserved'], best['num_ooms'], best['segment_allocs'])
    rc, out, err = run_main([path, '--advise'], capsys)
    assert rc == 0 and err == ''
    d = res['baseline']['peak_reserved'] - best['peak_reserved']
    assert f"recommended: PYTORCH_CUDA_ALLOC_CONF={best['conf']}" in out
    assert f"saves {d / (1 << 20):,.1f} MiB" in out and f"({100 * d / res['baseline']['peak_reserved']:.1f} %)" in out
    assert 'fragmentation: the share of reserved memory' in out
    # no memory fraction: garbage collection is not tried, and the advice says why
    assert 'garbage_collection_threshold not tried' in out
    assert not any('garbage_collection_threshold' in r['conf'] for r in res['candidates'])


def test_fit_at_the_recorded_limit_of_oom_retry(capsys):
    path = fixture('oom_retry')
    meta = load_metadata(path)
    limit = int(meta['memory_fraction'] * meta['mem_get_info_total'])
    res = fit_settings(path, limit, meta)
    # the baseline at the recorded limit is the recorded run
    rec = replay(load_snapshot(path), meta=meta)
    assert (res['baseline']['num_ooms'], res['baseline']['peak_reserved']) == (rec['num_ooms'], rec['peak_reserved'])
    assert res['fits'] == [r for r in res['candidates'] if r['num_ooms'] == 0]
    assert res['unavoidable'] > 0 and res['fits'] == []
    assert min(r['num_ooms'] for r in res['candidates']) < rec['num_ooms']
    rc, out, _ = run_main([path, '--fit', limit], capsys)
    assert rc == 0
    assert 'none of them runs with no OOM' in out and 'no allocator setting can remove them' in out
    assert 'garbage_collection_threshold acts only under a memory fraction' in out
    assert any('garbage_collection_threshold' in r['conf'] for r in res['candidates'])


def test_fit_names_settings_that_fit():
    path = fixture('transformer_varlen')
    meta = load_metadata(path)
    res = fit_settings(path, 3400 << 20, meta)      # recorded peak: 5,806 MiB
    assert res['fits'] and res['limit'] == 3400 << 20
    assert all(r['num_ooms'] == 0 and r['peak_reserved'] <= res['limit'] for r in res['fits'])
    out = format_advice(res)
    assert 'the baseline itself runs with no OOM, with' in out and f"recommended: PYTORCH_CUDA_ALLOC_CONF={res['fits'][0]['conf']}" in out


def test_unavoidable_ooms_counts_what_no_setting_can_remove():
    plan = {'prelude': [(1, 100, 0)], 'program': [('alloc', 2, 50, 0), ('oom', 60, 0), ('free', 2), ('oom', 60, 0)]}
    # live 100 + 50 when the first asks 60, 100 when the second does
    assert unavoidable_ooms(plan, 210) == 0 and unavoidable_ooms(plan, 209) == 1
    assert unavoidable_ooms(plan, 160) == 1 and unavoidable_ooms(plan, 159) == 2


class _Page(HTMLParser):
    def __init__(self):
        super().__init__(); self.figs, self.lines, self.external, self.stack = [], {}, [], []
    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == 'figure' and 'data-setting' in a: self.figs.append(a['data-setting']); self.lines[a['data-setting']] = []
        if tag == 'polyline' and self.figs: self.lines[self.figs[-1]].append(a)
        for k in ('src', 'href'):
            if k in a: self.external.append(a[k])


def test_html_report_shows_every_setting(capsys, tmp_path):
    path, page = fixture('transformer_varlen'), tmp_path / 'report.html'
    rc, out, _ = run_main([path, '--advise', '--html', page], capsys)
    assert rc == 0 and f"report written to {page}" in out
    res = search_settings(path, load_metadata(path))
    p = _Page(); p.feed(page.read_text())
    assert p.external == [] and '<script' not in page.read_text()
    assert p.figs == [r['conf'] for r in [res['baseline']] + res['candidates']]
    for conf, lines in p.lines.items():
        assert lines, conf
        for a in lines:       # visible: a colour, a width, points
            assert a['stroke'] not in ('none', '') and float(a['stroke-width']) > 0 and a['points'].count(',') > 1
    assert page.read_text().count('memory at the peak') == 2


def test_timeline_lines_that_coincide_stay_visible():
    path = fixture('transformer_varlen')
    snap, meta = load_snapshot(path), load_metadata(path)
    r0, r1 = replay(snap, meta=meta), replay(snap, 'max_split_size_mb:256', meta=meta)
    assert r0['timeline'] == r1['timeline']
    svg = timeline_svg([r0, r1])
    import xml.etree.ElementTree as ET
    lines = [e for e in ET.fromstring(svg).iter() if e.tag.endswith('polyline')]
    solid = [e for e in lines if not e.get('stroke-dasharray')]
    assert len(solid) == 2 and solid[0].get('points') == solid[1].get('points')
    # the one drawn first is wider, so both colours show
    assert float(solid[0].get('stroke-width')) > float(solid[1].get('stroke-width'))
    assert solid[0].get('stroke') != solid[1].get('stroke')
    assert 'same line as (default)' in svg


def test_table_saving_row_and_plain_baseline(capsys):
    path = fixture('transformer_varlen')
    rc, out, _ = run_main([path, '--expandable-segments'], capsys)
    assert rc == 0
    row = next(l for l in out.splitlines() if l.startswith('saving vs recorded'))
    assert '2,460.0 MiB (42.4 %)' in row
    assert 'fragmentation @peak: the share of reserved memory' in out
    assert 'replay under the recorded settings: exact' in out
    rc, out, _ = run_main([path, '--capacity', '300MiB'], capsys)
    assert rc == 0
    assert '(baseline, not recorded)' in out and "(default) " not in out.splitlines()[1].split('recorded')[0]
    assert 'no match line: the baseline is not the recorded run' in out and '--capacity' in out
    assert 'replay under the recorded settings' not in out


def _bad_files(tmp_path):
    snap = load_snapshot(fixture('oom_retry'))
    f = {}
    f['json'] = tmp_path / 'notes.pickle'; f['json'].write_text(json.dumps({'a': [1, 2]}))
    f['random'] = tmp_path / 'rand.pickle'; f['random'].write_bytes(random.Random(7).randbytes(300))
    f['zip'] = tmp_path / 'model.pt'
    with zipfile.ZipFile(f['zip'], 'w') as z: z.writestr('archive/data.pkl', b'x')
    f['torch'] = tmp_path / 'ckpt.pt'; torch.save({'w': torch.zeros(3)}, f['torch'])
    f['empty'] = tmp_path / 'empty.pickle'; f['empty'].write_bytes(b'')
    f['nohistory'] = tmp_path / 'nohist.pickle'
    f['nohistory'].write_bytes(pickle.dumps({'segments': snap['segments'], 'device_traces': [[]],
                                             'allocator_settings': {}}))
    f['segments'] = tmp_path / 'segs.pickle'; f['segments'].write_bytes(pickle.dumps(snap['segments']))
    f['gzjunk'] = tmp_path / 'junk.pickle.gz'; f['gzjunk'].write_bytes(gzip.compress(b'hello world'))
    return f


@pytest.mark.parametrize('kind, says', [
    ('json', 'this is JSON text, not a pickle'), ('random', 'not a readable pickle: the bytes'),
    ('zip', 'zip archive'), ('torch', 'torch.save checkpoint'), ('empty', 'the file is empty'),
    ('nohistory', '_record_memory_history'), ('segments', 'torch.cuda.memory_snapshot()'),
    ('gzjunk', 'a gzip file whose contents are no pickle')])
def test_errors_say_what_the_file_is(kind, says, tmp_path, capsys):
    path = _bad_files(tmp_path)[kind]
    rc, out, err = run_main([path], capsys)
    assert rc == 2 and out == ''
    lines = err.strip().splitlines()
    assert len(lines) == 1 and says in lines[0], err
    assert kind == 'nohistory' or 'expected' in lines[0]
    if kind != 'nohistory':
        with pytest.raises(MalformedSnapshotError, match='malformed memory snapshot'): load_snapshot(path)
