"""Chapter 07a, Note [Snapshot versions]: snapshots in the forms older torch versions wrote, derived from the real
traces of tests/fixtures (fields removed or added as each version's snapshot code wrote them), replay as the
originals do."""
import copy, os, pytest

from tinytensor.cuda.replay import (load_snapshot, load_metadata, replay, plan_replay, recorded_setup,
                                    validate_snapshot)

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'fixtures')
PATHS = {f[:-len('.pickle.gz')]: os.path.join(HERE, d, f) for d in ('cuda_traces', 'cuda_traces_pools')
         for f in sorted(os.listdir(os.path.join(HERE, d))) if f.endswith('.pickle.gz')}
NOT_FIGURES = {'allocator', 'reading', 'pools', 'label', 'frames'}
SEGMENT_EXTRA = ('is_expandable', 'frames')
ENTRY_NEW = ('compile_context', 'user_metadata')


def _figures(r): return {k: v for k, v in r.items() if k not in NOT_FIGURES}


def _drop(snap, entry=(), segment=(), block=(), top=()):
    s = copy.deepcopy(snap)
    for k in top: s.pop(k, None)
    for t in s['device_traces']:
        for e in t:
            for k in entry: e.pop(k, None)
    for seg in s['segments']:
        for k in segment: seg.pop(k, None)
        for b in seg['blocks']:
            for k in block: b.pop(k, None)
    return s


def form_legacy(snap):
    "The oldest form (the legacy `_cuda_recordMemoryHistory`): blocks without 'address', stacks in a block 'history'."
    s = _drop(snap, entry=('time_us',) + ENTRY_NEW, segment=SEGMENT_EXTRA,
              top=('allocator_settings', 'external_annotations'))
    for seg in s['segments']:
        addr = seg['address']
        for b in seg['blocks']:
            a, frames = b.pop('address'), b.pop('frames', [])
            assert a == addr                       # the address the reader must work out
            if frames: b['history'] = [{'addr': a, 'real_size': b['requested_size'], 'frames': frames}]
            addr += b['size']
    return s


def form_time_us(snap):
    "Entries with 'time_us', blocks with 'address' and 'frames'; no settings, no annotations."
    return _drop(snap, entry=ENTRY_NEW, top=('allocator_settings', 'external_annotations'))


def form_settings(snap):
    "The same with 'allocator_settings' (without the keys later versions added to it)."
    s = _drop(snap, entry=ENTRY_NEW, top=('external_annotations',))
    s['allocator_settings'].pop('graph_capture_record_stream_reuse', None)
    return s


def form_annotations(snap):
    "With 'external_annotations'; entries without 'compile_context' and 'user_metadata'."
    return _drop(snap, entry=ENTRY_NEW)


def form_pool_id(snap):
    "Entries that also name their pool ('pool_id', in torch 2.13's description of a trace entry)."
    s = copy.deepcopy(snap)
    spans = [(seg['address'], seg['address'] + seg['total_size'], tuple(seg.get('segment_pool_id', (0, 0))))
             for seg in s['segments']]
    for t in s['device_traces']:
        for e in t:
            e['pool_id'] = next((p for lo, hi, p in spans if lo <= e.get('addr', -1) < hi), (0, 0))
    return s


FORMS = {'legacy': form_legacy, 'time_us': form_time_us, 'settings': form_settings,
         'annotations': form_annotations, 'pool_id': form_pool_id}
_cache = {}


def _original(name):
    if name not in _cache:
        snap, meta = load_snapshot(PATHS[name]), load_metadata(PATHS[name])
        _cache[name] = snap, meta, _figures(replay(snap, meta=meta))
    return _cache[name]


def _has_expandable(snap):
    return any(e['action'] in ('segment_map', 'segment_unmap') for t in snap['device_traces'] for e in t)


# the oldest form on every trace; the later ones on the traces under 10,000 entries
SMALL = [n for n in sorted(PATHS) if n.startswith('P_') or n in ('empty_cache_cycles', 'mlp_train', 'oom_retry',
                                                                'resnet_train', 'resnet_train_expandable')]
CASES = ([(n, 'legacy') for n in sorted(PATHS)]
         + [(n, f) for f in ('time_us', 'settings', 'annotations', 'pool_id') for n in SMALL])


@pytest.mark.parametrize("name,form", CASES)
def test_every_form_replays_as_the_original(name, form):
    snap, meta, figures = _original(name)
    if form == 'legacy' and _has_expandable(snap):
        pytest.skip("expandable segments came after the legacy form")
    derived = FORMS[form](snap)
    assert derived != snap
    validate_snapshot(derived)
    # the settings come from the snapshot where it has them, else from the notes beside it
    assert recorded_setup(derived, meta)['conf'] == recorded_setup(snap, meta)['conf']
    assert _figures(replay(derived, meta=meta)) == figures


@pytest.mark.parametrize("name", ['mlp_train', 'resnet_train', 'P_graph_mixed'])
def test_blocks_without_addresses_give_the_same_prelude(name):
    "A trace whose start the ring buffer dropped: the live blocks of the final segments are the prelude."
    snap, meta, _ = _original(name)
    late = copy.deepcopy(snap)
    t = late['device_traces'][0]
    late['device_traces'][0] = t[len(t) // 2:]
    plan = plan_replay(late)
    assert len(plan['prelude']) > 0
    legacy = form_legacy(late)
    assert not any('address' in b for seg in legacy['segments'] for b in seg['blocks'])
    assert plan_replay(legacy)['prelude'] == plan['prelude']
    assert _figures(replay(legacy, meta=meta)) == _figures(replay(late, meta=meta))


def test_without_settings_or_notes_the_settings_are_unknown():
    "Where the removed fields matter: a snapshot without 'allocator_settings' and without notes replays the defaults."
    snap, meta, figures = _original('P_graph_mixed')
    derived = form_time_us(snap)
    assert recorded_setup(derived) == {'conf': '', 'memory_fraction': None, 'capacity': None}
    assert recorded_setup(derived, meta)['conf'] == meta['PYTORCH_CUDA_ALLOC_CONF'] == 'max_split_size_mb:128'
    assert _figures(replay(derived, meta=meta)) == figures
    r = replay(derived)
    assert r['conf'] == '' and _figures(r) != figures


@pytest.mark.parametrize("name", SMALL)
def test_a_trace_that_starts_late_replays(name):
    """The ring buffer kept only the second half: segments released before the trace shows them made do not stop the
    replay (the cache at the start is unknown, so the replay may part from torch's run, and says where)."""
    snap, meta, _ = _original(name)
    late = copy.deepcopy(snap)
    t = late['device_traces'][0]
    late['device_traces'][0] = t[len(t) // 2:]
    r = replay(late, meta=meta)
    assert r['first_divergence'] is None or isinstance(r['first_divergence'][0], int)
    assert r['steps'] > 0
