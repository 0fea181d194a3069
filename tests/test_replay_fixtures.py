"""Chapter 07a against real torch: traces recorded on an H100 (torch 2.11), and four with private pools (CUDA graphs,
MemPool) recorded on an H200, must replay exactly under their recorded setup."""
import json, os, pytest

from tinytensor.cuda.replay import load_snapshot, load_metadata, replay, fidelity, recorded_stats, main, FIDELITY_FIGURES

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'fixtures', 'cuda_traces')
POOLS = os.path.join(os.path.dirname(HERE), 'cuda_traces_pools')
NAMES = sorted(f[:-len('.pickle.gz')] for f in os.listdir(HERE) if f.endswith('.pickle.gz'))
POOL_NAMES = sorted(f[:-len('.pickle.gz')] for f in os.listdir(POOLS) if f.endswith('.pickle.gz'))
PATHS = {n: os.path.join(HERE, n + '.pickle.gz') for n in NAMES} | {n: os.path.join(POOLS, n + '.pickle.gz') for n in POOL_NAMES}
STAT = {'peak_reserved': 'reserved_bytes.all.peak', 'peak_allocated': 'allocated_bytes.all.peak',
        'final_reserved': 'reserved_bytes.all.current', 'num_alloc_retries': 'num_alloc_retries', 'num_ooms': 'num_ooms',
        'num_device_alloc': 'num_device_alloc', 'num_device_free': 'num_device_free'}


def test_all_fixtures_present():
    assert len(NAMES) == 13 and all(os.path.exists(os.path.join(HERE, n + '.json')) for n in NAMES)
    assert POOL_NAMES == ['P_graph_capture', 'P_graph_mixed', 'P_mempool', 'P_mempool_expandable']
    assert all(os.path.exists(os.path.join(POOLS, n + '.json')) for n in POOL_NAMES)


@pytest.mark.parametrize("name", NAMES + POOL_NAMES)
def test_fixture_replays_exactly(name):
    path = PATHS[name]
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


@pytest.mark.parametrize("name", POOL_NAMES)
def test_pool_trace_reading(name):
    "Private pools are read from the trace; where it cannot decide, the report says which entry, and no figure depends on it."
    path = PATHS[name]
    snap, meta = load_snapshot(path), load_metadata(path)
    r = replay(snap, meta=meta)
    assert r['pools'] is not None and r['pools']['private']
    assert r['pools']['inferred_id'] == name.startswith('P_mempool')      # no MemPool segment survives: its id is unknown
    assert r['pools']['private'] == ([(1, 0)] if name.startswith('P_graph') else [(-1, 1)])
    f = fidelity(snap, meta, r)
    assert f['exact'] and all(not u['figures_differ'] for u in f['undecided'])
    assert all(u['entry'] < 188 for u in f['undecided'])                # only the warm-up's segments, freed before capture
    # the old replay (every allocation in the default pool) is not torch's run
    plain = replay(snap, meta=meta, private_pools=False)
    assert 'default pool' in plain['pools']['assumed']
    assert (plain['peak_reserved'], plain['num_device_alloc']) != (r['peak_reserved'], r['num_device_alloc'])


def test_pool_trace_what_ifs():
    path = PATHS['P_mempool']
    snap, meta = load_snapshot(path), load_metadata(path)
    base = replay(snap, meta=meta)
    exp = replay(snap, meta=meta, expandable_segments=True)             # each allocation stays in the pool it was read in
    assert "recorded run's reading" in exp['pools']['assumed'] and exp['pools']['private'] == [(-1, 1)]
    assert exp['peak_allocated'] <= base['peak_allocated'] + (64 << 20) and exp['final_reserved'] == 0
    real = load_metadata(PATHS['P_mempool_expandable'])['memory_stats']  # another seed, same workload: same scale
    assert abs(exp['peak_reserved'] - real['reserved_bytes.all.peak']) < 0.25 * real['reserved_bytes.all.peak']
    plain = replay(snap, meta=meta, private_pools=False)
    assert plain['peak_reserved'] < base['peak_reserved']               # one pool shares its cache: less reserved


def test_pool_trace_cli(capsys):
    path = PATHS['P_mempool']
    assert main([path, '--expandable-segments', '--without-private-pools']) == 0
    out = capsys.readouterr().out
    assert ': exact (' in out and 'private pools read from the trace: (-1, 1)' in out
    assert "expandable_segments:True: each allocation in the pool the recorded run's reading gave it" in out
    assert '(default), no private pool: every allocation in the default pool' in out
    assert main([PATHS['P_graph_capture']]) == 0
    out = capsys.readouterr().out
    assert ': exact (' in out and 'undecided pool: trace entry 37' in out and 'every figure agrees' in out


# --- Note [A what-if's pool reading]: a what-if is a function of (trace, settings, capacity, fraction) ---
from tinytensor.cuda.replay import recorded_setup
import tinytensor.cuda.replay_run as _run

NOT_FIGURES = {'allocator', 'reading', 'pools', 'label', 'frames'}

def _figures(r):
    "Every figure and event of a replay (statistics, timeline, segment events, divergence), not its objects."
    return {k: v for k, v in r.items() if k not in NOT_FIGURES}


@pytest.mark.parametrize("name", NAMES + POOL_NAMES)
def test_what_if_with_the_recorded_settings_is_the_recorded_run(name):
    "The recorded settings passed explicitly, without the recording's notes, replay torch's run exactly."
    path = PATHS[name]
    snap, meta = load_snapshot(path), load_metadata(path)
    rec = recorded_setup(snap, meta)
    recorded = replay(snap, meta=meta)
    _run._READINGS.clear()                                    # the what-if takes its own reading
    what_if = replay(snap, meta['PYTORCH_CUDA_ALLOC_CONF'], capacity=rec['capacity'],
                     memory_fraction=rec['memory_fraction'])
    assert what_if['pools'] is None or "recorded run's reading" in what_if['pools']['assumed']
    assert _figures(what_if) == _figures(recorded)


# each what-if keeps every recorded setting but one (the capacity and fraction given, as without the notes)
ONE_CHANGE = [dict(conf='max_split_size_mb:64'), dict(conf='garbage_collection_threshold:0.8'),
              dict(expandable_segments=True), dict(capacity_scale=0.5), dict(fraction_scale=1.5)]

@pytest.mark.parametrize("name", ['oom_retry', 'mlp_train', 'P_mempool'])
def test_what_ifs_do_not_depend_on_what_ran_before(name):
    path = PATHS[name]
    snap, meta = load_snapshot(path), load_metadata(path)
    rec = recorded_setup(snap, meta)
    def what_if(change):
        conf = change.get('conf', meta['PYTORCH_CUDA_ALLOC_CONF'])
        cap = int(rec['capacity'] * change.get('capacity_scale', 1))
        frac = rec['memory_fraction']
        if 'fraction_scale' in change: frac = min(1.0, (frac or 0.5) * change['fraction_scale'])
        return _figures(replay(snap, conf, capacity=cap, memory_fraction=frac,
                               expandable_segments=change.get('expandable_segments')))
    fresh = []
    for c in ONE_CHANGE:
        _run._READINGS.clear(); fresh.append(what_if(c))
    # the same what-ifs in a row, forwards and backwards, each after the others' readings
    assert [what_if(c) for c in ONE_CHANGE] == fresh
    assert [what_if(c) for c in reversed(ONE_CHANGE)] == fresh[::-1]
