"""Chapter 07a against real torch: traces recorded on an H100 (torch 2.11) must replay exactly under their recorded setup."""
import json, os, pytest

from tinytensor.cuda.replay import load_snapshot, load_metadata, replay, fidelity, recorded_stats, main, FIDELITY_FIGURES

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'fixtures', 'cuda_traces')
NAMES = sorted(f[:-len('.pickle.gz')] for f in os.listdir(HERE) if f.endswith('.pickle.gz'))
STAT = {'peak_reserved': 'reserved_bytes.all.peak', 'peak_allocated': 'allocated_bytes.all.peak',
        'final_reserved': 'reserved_bytes.all.current', 'num_alloc_retries': 'num_alloc_retries', 'num_ooms': 'num_ooms',
        'num_device_alloc': 'num_device_alloc', 'num_device_free': 'num_device_free'}


def test_all_fixtures_present():
    assert len(NAMES) == 13 and all(os.path.exists(os.path.join(HERE, n + '.json')) for n in NAMES)


@pytest.mark.parametrize("name", NAMES)
def test_fixture_replays_exactly(name):
    path = os.path.join(HERE, name + '.pickle.gz')
    snap, meta = load_snapshot(path), load_metadata(path)
    stats = meta['memory_stats']
    r = replay(snap, meta=meta)
    for fig in FIDELITY_FIGURES:                              # torch's own counters, straight from memory_stats()
        assert r[fig] == stats[STAT[fig]], (name, fig, r[fig], stats[STAT[fig]])
    theirs = [(e['action'], e['size']) for e in snap['device_traces'][0] if e['action'].startswith('segment_')]
    assert [(e['action'], e['size']) for e in r['segment_events']] == theirs
    assert r['first_divergence'] is None                      # every allocation landed at torch's address
    f = fidelity(snap, meta, r)
    assert f['exact'] and all(ok for *_, ok in f['rows'])


def test_fixture_what_if_expandable_and_cli(capsys):
    path = os.path.join(HERE, 'transformer_varlen.pickle.gz')
    base, exp = replay(path, meta=load_metadata(path)), replay(path, meta=load_metadata(path), expandable_segments=True)
    real = load_metadata(os.path.join(HERE, 'transformer_varlen_expandable.pickle.gz'))['memory_stats']
    assert exp['conf'] == 'expandable_segments:True' and exp['peak_reserved'] < base['peak_reserved']
    assert abs(exp['peak_reserved'] - real['reserved_bytes.all.peak']) < 0.1 * real['reserved_bytes.all.peak']
    assert main([path, '--expandable-segments']) == 0
    out = capsys.readouterr().out
    assert 'expandable_segments:True' in out and 'exact' in out and 'recorded' in out.splitlines()[1]


def test_cli_reports_divergence(capsys, tmp_path):
    path = os.path.join(HERE, 'oom_retry.pickle.gz')
    assert main([path]) == 0
    out = capsys.readouterr().out
    assert 'memory fraction 0.02' in out and ': exact (' in out
    lines = {l.split()[0] + ' ' + l.split()[1]: l.split() for l in out.splitlines() if l.startswith(('alloc retries', 'OOMs '))}
    assert lines['alloc retries'][2:4] == ['185', '185']
    # the same trace on a device with a different memory fraction is not torch's run any more
    snap, meta = load_snapshot(path), dict(load_metadata(path), memory_fraction=0.03)
    f = fidelity(snap, meta)
    assert not f['exact'] and f['first_divergence']
