"""Chapter 07a: replaying torch memory snapshots through the simulated caching allocator."""
import io, os, pickle, random, subprocess, sys, contextlib
import pytest

from tinytensor.cuda.caching_allocator import DeviceCachingAllocator, SimulatedBackend, OutOfMemoryError
from tinytensor.cuda.replay import (replay, load_snapshot, plan_replay, recorded_stats, main, format_report, timeline_svg,
                                    MalformedSnapshotError, demo_snapshot, history_frames, usable_conf, sparkline, fidelity,
                                    validate_snapshot)
import tinytensor.cuda as ttc

MiB = 1 << 20
BASE = 139637976727552                     # a typical CUDA device address


def ev(action, addr, size, stream=0, t=[0], **kw):
    t[0] += 17
    e = {'action': action, 'addr': addr, 'size': size, 'stream': stream, 'time_us': 1_700_000_000_000_000 + t[0],
         'frames': [{'filename': 'train.py', 'line': 42, 'name': 'forward'}], 'compile_context': 'N/A', 'user_metadata': ''}
    if action == 'oom': e['device_free'] = e.pop('addr')
    e.update(kw)
    return e


def torch_like_snapshot():
    "A snapshot in the structure torch.cuda.memory._snapshot() produces, written by hand."
    P, X, A, B = BASE, BASE + 2 * MiB, BASE + 40 * MiB, BASE + 80 * MiB
    trace = [
        ev('free_requested', X, 2 * MiB), ev('free_completed', X, 2 * MiB),       # live before the trace began
        ev('segment_alloc', A, 20 * MiB), ev('alloc', A, 3 * MiB), ev('alloc', A + 3 * MiB, 3 * MiB),
        ev('free_requested', A, 3 * MiB), ev('free_completed', A, 3 * MiB),
        ev('segment_alloc', B, 50 * MiB), ev('alloc', B, 50 * MiB),
        ev('free_requested', A + 3 * MiB, 3 * MiB),                                  # used on stream 7: completes later
        ev('alloc', A, 3 * MiB),
        ev('free_completed', A + 3 * MiB, 3 * MiB),
        ev('oom', 123 * MiB, 900 * MiB), ev('snapshot', 0, 56 * MiB),
    ]
    def seg(addr, total, stream, blocks, kind='large'):
        return {'device': 0, 'address': addr, 'total_size': total, 'stream': stream, 'segment_type': kind,
                'segment_pool_id': (0, 0), 'is_expandable': False, 'frames': [],
                'allocated_size': sum(b['size'] for b in blocks if b['state'] == 'active_allocated'),
                'active_size': sum(b['size'] for b in blocks if b['state'] != 'inactive'),
                'requested_size': sum(b['requested_size'] for b in blocks if b['state'] != 'inactive'), 'blocks': blocks}
    blk = lambda a, s, r, st: {'address': a, 'size': s, 'requested_size': r, 'state': st, 'frames': []}
    segments = [seg(P, 20 * MiB, 0, [blk(P, MiB + 512, MiB + 5, 'active_allocated'), blk(P + MiB + 512, 19 * MiB - 512, 0, 'inactive')]),
                seg(A, 20 * MiB, 0, [blk(A, 3 * MiB, 3 * MiB, 'active_allocated'), blk(A + 3 * MiB, 17 * MiB, 3 * MiB, 'inactive')]),
                seg(B, 50 * MiB, 0, [blk(B, 50 * MiB, 50 * MiB, 'active_allocated')])]
    return {'segments': segments, 'device_traces': [trace],
            'allocator_settings': {'PYTORCH_CUDA_ALLOC_CONF': 'expandable_segments:False,max_split_size_mb:100',
                                   'max_split_size': 100 * MiB, 'garbage_collection_threshold': 0.0,
                                   'expandable_segments': False, 'pinned_num_register_threads': 1,
                                   'release_lock_on_cudamalloc': False, 'pinned_use_cuda_host_register': False,
                                   'roundup_power2_divisions': {str(1 << i): 0 for i in range(16)}}}


@pytest.fixture
def snap_path(tmp_path):
    p = tmp_path / "snapshot.pickle"
    with open(p, 'wb') as f: pickle.dump(torch_like_snapshot(), f)
    return str(p)


def run_main(argv):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err): rc = main(argv)
    return rc, out.getvalue(), err.getvalue()


def test_load_without_torch(snap_path):
    code = ("import sys; from tinytensor.cuda.replay import load_snapshot, replay; s = load_snapshot(sys.argv[1]); "
            "r = replay(s); assert 'torch' not in sys.modules; print(r['peak_reserved'])")
    env = dict(os.environ, PYTHONPATH=os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    out = subprocess.run([sys.executable, '-c', code, snap_path], capture_output=True, text=True, env=env, timeout=60)
    assert out.returncode == 0, out.stderr
    assert int(out.stdout) > 0


def test_plan_prelude_and_deferred():
    s = torch_like_snapshot()
    plan = plan_replay(s)
    X, P = BASE + 2 * MiB, BASE
    assert plan['prelude'] == [(P, MiB + 5, 0), (X, 2 * MiB, 0)]
    kinds = [op[0] for op in plan['program']]
    assert kinds == ['free', 'alloc', 'alloc', 'free', 'alloc', 'free_deferred', 'alloc', 'complete', 'oom']


def test_replay_torch_like_snapshot():
    r = replay(torch_like_snapshot(), capacity=100 * MiB)       # small enough for the recorded OOM to happen again
    assert r['num_ooms'] == 1
    big = replay(torch_like_snapshot())                          # on 80 GiB the 900 MiB request fits: a divergence
    assert big['first_divergence'] is not None and big['num_ooms'] == 0
    # prelude: 1 MiB+5 gets a 20 MiB segment, the 2 MiB block fits its remainder; 3, 3 MiB fit too; 50 MiB: new segment
    assert r['prelude'] == 2 and r['steps'] == 9 and r['skipped'] == 0
    assert r['peak_requested'] == MiB + 5 + 50 * MiB + 3 * MiB + 3 * MiB      # X freed; A' still pending at the peak
    assert r['segment_allocs'] == 2 and r['peak_reserved'] == 20 * MiB + 50 * MiB
    a = r['allocator']
    assert a.check_invariants()
    assert r['final_allocated'] == (MiB + 512) + 50 * MiB + 3 * MiB
    assert [b['state'] for b in a.snapshot()['segments'][0]['blocks']][:3] == [
        'active_allocated', 'active_allocated', 'inactive']     # completed where the trace says
    assert 0 < r['fragmentation'] < 1
    rec = recorded_stats(torch_like_snapshot())
    assert rec['segment_allocs'] == 2 and rec['num_ooms'] == 1 and rec['conf'].endswith('max_split_size_mb:100')
    assert rec['peak_requested'] == r['peak_requested']


def test_deferred_free_is_not_reused_before_completion():
    A = BASE
    base = [ev('alloc', A, 20 * MiB), ev('free_requested', A, 20 * MiB)]
    deferred = base + [ev('alloc', A + 20 * MiB, 20 * MiB), ev('free_completed', A, 20 * MiB), ev('alloc', A, 20 * MiB)]
    immediate = base + [ev('free_completed', A, 20 * MiB), ev('alloc', A, 20 * MiB), ev('alloc', A + 20 * MiB, 20 * MiB)]
    rd, ri = replay(deferred), replay(immediate)
    assert rd['segment_allocs'] == 2 and rd['peak_reserved'] == 40 * MiB     # third alloc reuses the completed block
    assert ri['segment_allocs'] == 2 and ri['final_allocated'] == 40 * MiB
    only_pending = base + [ev('alloc', A + 20 * MiB, 20 * MiB), ev('free_completed', A, 20 * MiB)]
    assert replay(only_pending)['segment_allocs'] == 2


@pytest.mark.parametrize("conf", ["", "max_split_size_mb:40", "roundup_power2_divisions:4"])
def test_replay_reproduces_a_recorded_run(conf):
    "Same settings, same capacity: the replay must make exactly the recorded allocator's segment decisions."
    rng = random.Random(len(conf))
    a = DeviceCachingAllocator(SimulatedBackend(capacity=64 << 30), conf=conf)
    a.record_memory_history()
    live = []
    sizes = [300, 5000, 200_000, MiB, MiB + 1, 3 * MiB, 9 * MiB, 12 * MiB, 25 * MiB, 60 * MiB, 150 * MiB]
    for i in range(3000):
        if live and (rng.random() < 0.47 or len(live) > 50):
            p, s = live.pop(rng.randrange(len(live)))
            if rng.random() < 0.15: a.record_stream(p, 1 - s)
            a.free(p)
        else:
            s = rng.randrange(2)
            live.append((a.malloc(rng.choice(sizes), stream=s), s))
        if rng.random() < 0.05: a.backend.synchronize(rng.randrange(2))
    snap = a.snapshot()
    r = replay(snap, conf, capacity=64 << 30)
    seg = lambda tr: [(e['action'], e['addr'], e['size']) for e in tr if e['action'].startswith('segment_')]
    assert seg(r['allocator'].snapshot()['device_traces'][0]) == seg(snap['device_traces'][0])
    assert r['peak_reserved'] == a.max_memory_reserved() and r['peak_allocated'] == a.max_memory_allocated()
    rec = recorded_stats(snap)
    assert rec['peak_reserved'] == a.max_memory_reserved() and rec['peak_requested'] == a.memory_stats()['requested_bytes.all.peak']


def test_replay_accepts_dict_settings_and_counts_ooms():
    s = demo_snapshot()
    r = replay(s, {'max_split_size_mb': 64})
    assert r['conf'] == 'max_split_size_mb:64'
    small = replay(s, "", capacity=200 * MiB)
    assert small['num_ooms'] > 0 and small['peak_reserved'] <= 200 * MiB
    assert small['allocator'].check_invariants()
    with pytest.raises(TypeError): replay(s, 5)
    with pytest.raises(RuntimeError, match="Unrecognized"): replay(s, "bogus:1")


def test_gc_threshold_in_replay():
    s = demo_snapshot(steps=4)
    r = replay(s, "garbage_collection_threshold:0.5", capacity=600 * MiB)
    assert r['memory_fraction'] == 1.0 and r['allocator'].check_invariants()


def test_main_prints_comparison(snap_path, tmp_path):
    svg = tmp_path / "t.svg"
    rc, out, err = run_main([snap_path, '--max-split-size-mb', '20', '200', '--roundup-power2-divisions', '4',
                             '--garbage-collection-threshold', '0.7', '--conf', 'max_split_size_mb:64', '--svg', str(svg)])
    assert rc == 0, err
    lines = out.splitlines()
    header = lines[[i for i, l in enumerate(lines) if l and set(l) == {'-'}][0] - 1]
    assert header.split()[:2] == ['recorded', 'expandable_segments:False,max_split_size_mb:100']
    for col in ('max_split_size_mb:20', 'max_split_size_mb:200', 'roundup_power2_divisions:4', 'garbage_collection_threshold:0.7'):
        assert col in out
    for row in ('peak allocated', 'peak reserved', 'fragmentation @peak', 'segment allocs', 'segment frees', 'alloc retries', 'OOMs'):
        assert any(l.startswith(row) for l in out.splitlines()), row
    assert 'reserved memory over the trace' in out and '2 allocations live before the trace began' in out
    assert svg.read_text().startswith('<svg')


def test_main_errors(tmp_path, snap_path):
    garbage = tmp_path / "garbage.pickle"; garbage.write_bytes(b"not a pickle at all")
    trunc = tmp_path / "trunc.pickle"; trunc.write_bytes(pickle.dumps(torch_like_snapshot())[:200])
    evil = tmp_path / "evil.pickle"; evil.write_bytes(pickle.dumps(os.getcwd))
    wrong = tmp_path / "wrong.pickle"; wrong.write_bytes(pickle.dumps({'segments': [], 'device_traces': [[{'action': 'fly'}]]}))
    notdict = tmp_path / "list.pickle"; notdict.write_bytes(pickle.dumps([1, 2, 3]))
    for path, msg in [(garbage, 'not a readable pickle'), (trunc, 'not a readable pickle'), (evil, 'only plain Python data'),
                      (wrong, "unknown action 'fly'"), (notdict, 'expected a dict'), (tmp_path / 'missing', 'No such file')]:
        rc, out, err = run_main([str(path)])
        assert rc == 2 and msg in err and out == '', (path, err)
        with pytest.raises((ValueError, OSError)): load_snapshot(str(path))
    rc, out, err = run_main([snap_path, '--max-split-size-mb', '5'])
    assert rc == 2 and 'too small' in err
    rc, out, err = run_main([snap_path, '--capacity', 'lots'])
    assert rc == 2
    rc, out, err = run_main([])
    assert rc == 2
    rc, out, err = run_main([snap_path, '--device', '3'])
    assert rc == 2 and 'no device_traces for device 3' in err


def test_malformed_snapshot_objects():
    for bad, msg in [({'segments': [{'address': 1}]}, "integer 'total_size'"),
                     ({'device_traces': [[{'action': 'alloc', 'addr': 1, 'size': -5}]]}, 'negative size'),
                     ({'device_traces': [[{'action': 'alloc', 'addr': 1, 'size': 5, 'stream': 'x'}]]}, "non-integer 'stream'"),
                     ({'device_traces': {}}, 'list of lists'), ({}, 'neither')]:
        with pytest.raises(MalformedSnapshotError, match=msg): replay(bad)


def test_small_capacity_and_sizes(snap_path):
    rc, out, err = run_main([snap_path, '--capacity', '48MiB'])
    assert rc == 0 and 'OOMs' in out
    oom_row = [l for l in out.splitlines() if l.startswith('OOMs')][0]
    assert oom_row.split()[-1] != '0'


def test_pictures_and_helpers():
    s = demo_snapshot(steps=2)
    rs = [replay(s, c) for c in ("", "max_split_size_mb:40")]
    svg = timeline_svg(rs)
    assert svg.count('<polyline') == 4 and 'max_split_size_mb:40' in svg
    rep = format_report(rs, recorded=recorded_stats(s))
    assert rep.splitlines()[0].split() == ['recorded', '(default)', 'max_split_size_mb:40']
    frames = history_frames(s, max_steps=10)
    assert len(frames) == 10 and all(isinstance(f, list) for f in frames)
    assert usable_conf("backend:native,expandable_segments:True,max_split_size_mb:64") == "expandable_segments:True,max_split_size_mb:64"
    assert sparkline([0, 1, 2, 3, 4, 5, 6, 7, 8], width=9) == " ▁▂▃▄▅▆▇█"
    assert ttc.replay(s, "")["peak_reserved"] == rs[0]["peak_reserved"] and ttc.replay.main is main


# ---------------------------------------------------------------- hardening: bad input gives one clear error

@pytest.mark.parametrize("change, msg", [
    (lambda s: s.update(allocator_settings=['max_split_size_mb:100']), "'allocator_settings' must be a dict"),
    (lambda s: s['allocator_settings'].update(PYTORCH_CUDA_ALLOC_CONF=5), "must be a string"),
    (lambda s: s['segments'][0]['blocks'][0].update(requested_size='5'), "bad 'requested_size'"),
    (lambda s: s['segments'][0].update(stream='7'), "non-integer 'stream'"),
    (lambda s: s['device_traces'][0][3].update(stream='7'), "non-integer 'stream'"),
    (lambda s: s['device_traces'][0][4].update(stream=-1), "non-integer 'stream' or a negative one"),
    (lambda s: s['segments'][0].update(total_size=-1), "non-negative integer 'total_size'"),
    (lambda s: s['segments'][0]['blocks'][0].update(size=-512), "non-negative integer 'size'"),
    (lambda s: s['device_traces'][0].append(ev('oom', 0, 'big')), "oom"),
])
def test_validation_catches_what_replay_would_trip_on(change, msg):
    s = torch_like_snapshot()
    change(s)
    with pytest.raises(MalformedSnapshotError, match=msg): replay(s)
    rc, out, err = run_main_obj(s)
    assert rc == 2 and msg.split("'")[0] in err and 'Traceback' not in err


ENTRY_CHANGES = [lambda e: e.pop('action'), lambda e: e.update(action=5), lambda e: e.update(action='allocate'),
                 lambda e: e.pop('addr', None), lambda e: e.update(addr='1'), lambda e: e.update(addr=True), lambda e: e.pop('size'),
                 lambda e: e.update(size=-1), lambda e: e.update(size=2.0), lambda e: e.update(stream=None), lambda e: e.update(stream=-3),
                 lambda e: e.pop('stream', None), lambda e: e.update(action='oom', size=-5), lambda e: e.update(action='oom'),
                 lambda e: e.update(action='snapshot'), lambda e: e.update(extra=[1])]

@pytest.mark.parametrize("seed", range(4))
def test_entries_fast_path_decides_as_the_checks_do(seed):
    """`_entries_ok` (speed only) passes a trace exactly when `_check_entries` does, over entries broken in many ways;
    an entry without 'stream' (torch always writes one) it leaves to the checks."""
    import tinytensor.cuda.replay_feed as rp
    rng = random.Random(seed)
    base = torch_like_snapshot()['device_traces'][0]
    for _ in range(300):
        t = [dict(e) for e in base]
        for _ in range(rng.choice([0, 1, 1, 2])):
            k = rng.randrange(len(t))
            if rng.random() < 0.1: t[k] = rng.choice([None, [1, 2], 'alloc', (('action', 'alloc'),)])
            elif type(t[k]) is dict: rng.choice(ENTRY_CHANGES)(t[k])
        try: rp._check_entries(t, 0); checked = True
        except MalformedSnapshotError: checked = False
        streamless = any(type(e) is dict and 'stream' not in e for e in t)
        assert rp._entries_ok(t) == (checked and not streamless), t
        if streamless and checked: assert load_snapshot(t)['device_traces'] == [t]     # the checks pass it


def run_main_obj(snap, *extra):
    import tempfile
    with tempfile.TemporaryDirectory() as d:
        p = os.path.join(d, 's.pickle')
        with open(p, 'wb') as f: pickle.dump(snap, f)
        return run_main([p, *extra])


def test_shared_references_validate_in_linear_time(monkeypatch):
    "A list shared 20,000 times is checked once (Note [Shared objects]): the work is counted, not timed."
    import tinytensor.cuda.replay_feed as rp          # where load_snapshot reads `_check` (the chapter's first part)
    entry_list = [ev('alloc', BASE + i * 512, 512) for i in range(50)] + [ev('free_requested', BASE, 512), ev('free_completed', BASE, 512)]
    s = {'segments': [], 'device_traces': [entry_list] * 20_000}
    data = pickle.dumps(s)
    assert len(data) < 100_000
    calls, check, entries_ok = [0], rp._check, rp._entries_ok
    def counted(*a): calls[0] += 1; return check(*a)
    def counted_entries(t): calls[0] += len(t); return entries_ok(t)    # the fast path's checks, an entry at a time
    monkeypatch.setattr(rp, '_check', counted)
    monkeypatch.setattr(rp, '_entries_ok', counted_entries)
    snap = load_snapshot(data)
    assert len(snap['device_traces']) == 20_000 and len(entry_list) < calls[0] < 20 * len(entry_list), calls   # one list's worth of checks


def test_huge_memo_index_refused_cheaply():
    import tracemalloc
    bad = b'\x80\x02]r\x00\x00\x00\x01.'                 # PROTO 2, EMPTY_LIST, LONG_BINPUT 2**24, STOP
    worse = b'\x80\x02]r' + (2 ** 32 - 1).to_bytes(4, 'little') + b'.'
    tracemalloc.start()
    for data in (bad, worse):
        with pytest.raises(MalformedSnapshotError, match='memo index'): load_snapshot(data)
    peak = tracemalloc.get_traced_memory()[1]; tracemalloc.stop()
    assert peak < 10 << 20
    ok = pickle.dumps({'segments': [], 'device_traces': [[ev('alloc', BASE, 512)] * 3]}, protocol=2)
    assert len(load_snapshot(ok)['device_traces'][0]) == 3        # ordinary memo use still reads


def test_gzip_zip_and_truncated_inputs(tmp_path):
    import gzip, zipfile
    good = tmp_path / "s.pickle.gz"; good.write_bytes(gzip.compress(pickle.dumps(torch_like_snapshot())))
    assert load_snapshot(str(good))['device_traces'][0][0]['action'] == 'free_requested'
    trunc = tmp_path / "t.pickle.gz"; trunc.write_bytes(good.read_bytes()[:-20])
    z = tmp_path / "model.pt"
    with zipfile.ZipFile(z, 'w') as f: f.writestr('archive/data.pkl', b'x')
    for path, msg in [(trunc, 'not a readable pickle'), (z, 'zip archive')]:
        rc, out, err = run_main([str(path)])
        assert rc == 2 and msg in err and len(err.strip().splitlines()) == 1 and 'Traceback' not in err


def test_cli_never_prints_a_traceback(snap_path, tmp_path, monkeypatch):
    rc, out, err = run_main([snap_path, '--svg', str(tmp_path / 'missing' / 'x.svg')])
    assert rc != 0 and 'does not exist' in err and len(err.strip().splitlines()) == 1 and out == ''
    import tinytensor.cuda.replay as R
    def boom(*a, **k): raise MemoryError()
    monkeypatch.setattr(R, 'load_snapshot', boom)
    rc, out, err = run_main([snap_path])
    assert rc == 1 and 'out of memory' in err and len(err.strip().splitlines()) == 1


def test_expandable_needs_a_mapping_backend():
    class NoVM:                                   # like CupyBackend: cudaMalloc only, no virtual memory mapping
        def __init__(self): self.b = SimulatedBackend()
        def __getattr__(self, name):
            if name in ('reserve', 'map', 'unmap', 'release'): raise AttributeError(name)
            return getattr(self.b, name)
    with pytest.raises(RuntimeError, match="reserve and map virtual memory"):
        DeviceCachingAllocator(NoVM(), conf="expandable_segments:True")
    assert DeviceCachingAllocator(NoVM(), conf="expandable_segments:False").malloc(512)


def test_cli_columns_help_and_recorded_fraction(snap_path, tmp_path):
    rc, out, err = run_main([snap_path, '--conf', 'backend:cudaMallocAsync', '--expandable-segments'])
    assert rc == 0, err
    assert 'cannot replay' in out and 'expandable_segments:True' in out
    s = torch_like_snapshot(); s['allocator_settings']['memory_fraction'] = 0.5
    rc, out, err = run_main_obj(s)
    assert rc == 0 and 'memory fraction 0.5' in out.splitlines()[0] and '40.00 GiB allowed' in out.splitlines()[0]
    helptext = io.StringIO()
    with contextlib.redirect_stdout(helptext): assert main(['--help']) == 0
    for flag in ('--max-split-size-mb', '--roundup-power2-divisions', '--garbage-collection-threshold',
                 '--max-non-split-rounding-mb', '--expandable-segments'):
        line = [l for l in helptext.getvalue().splitlines() if l.strip().startswith(flag)][0]
        rest = helptext.getvalue().split(line)[1].splitlines()[0].strip() or line
        assert len(line.split()) > 2 or rest, flag                # each what-if flag says what it does


def test_console_script_help_version_and_pipe():
    env = dict(os.environ, PYTHONPATH=os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    run = lambda *a, **k: subprocess.run([sys.executable, '-c', 'import sys; from tinytensor.cli import main; sys.exit(main())', *a],
                                          capture_output=True, text=True, env=env, timeout=120, **k)
    r = run('tour', '--help')
    assert r.returncode == 0 and 'usage: tinytensor tour' in r.stdout and '== 1.' not in r.stdout
    r = run('--version')
    assert r.returncode == 0 and r.stdout.startswith('tinytensor ')
    code = 'import sys; from tinytensor.cli import main; sys.exit(main())'
    p = subprocess.Popen(f'{sys.executable} -c "{code}" tour | head -1', shell=True, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True, env=env)
    out, err = p.communicate(timeout=120)
    assert out.startswith('==') and 'Traceback' not in err and 'BrokenPipe' not in err


# ---------------------------------------------------------------- private pools read from a trace (Note [Reading private pools])
# Runs recorded with chapter 07's own allocator (which has torch's private pools) under many seeds: the replay must read
# every allocation's pool back from the trace alone and reproduce the run exactly.
def _mempool_run(seed, conf=''):
    r = random.Random(seed); t = [0]
    def clock(): t[0] += 1; return t[0]
    a = DeviceCachingAllocator(SimulatedBackend(capacity=140 << 30), conf=conf, clock=clock)
    a.record_memory_history('all')
    pid = (0, 1); a.create_or_incref_pool(pid)
    live = []
    for i in range(600):
        n = r.choice([r.randint(1, 1 << 20), r.randint(1 << 20, 1 << 25)])
        if r.random() < 0.4:
            a.begin_allocate_to_pool(pid, lambda s: True)
            live.append(a.malloc(n)); a.end_allocate_to_pool(pid); a.release_pool(pid)
        else: live.append(a.malloc(n))
        if len(live) > 40: a.free(live.pop(r.randrange(len(live))))
    for p in live: a.free(p)
    a.release_pool(pid); a.empty_cache(pid); a.empty_cache()
    return a
def _graph_run(seed, conf='', mixed=False):
    r = random.Random(seed); t = [0]
    def clock(): t[0] += 1; return t[0]
    a = DeviceCachingAllocator(SimulatedBackend(capacity=140 << 30), conf=conf, clock=clock)
    a.record_memory_history('all')
    w = [a.malloc(r.randint(1 << 20, 1 << 25)) for _ in range(4)] + [a.malloc(r.randint(1, 1 << 16)) for _ in range(4)]
    side = 11
    for _ in range(3):                       # warm-up on a side stream
        acts = [a.malloc(r.randint(1, 1 << 25), side) for _ in range(8)]
        for p in acts: a.free(p)
    a.empty_cache()
    cap, gid = 22, (1, 0)
    rng_state = [a.malloc(8, cap), a.malloc(8, cap)]      # before capture_begin: default pool on the capture stream
    a.begin_allocate_to_pool(gid, lambda s: s == cap)
    outs = []
    for _ in range(10):
        p = a.malloc(r.choice([r.randint(1, 1 << 20), r.randint(1 << 20, 1 << 25)]), cap)
        if r.random() < 0.5: a.free(p)
        else: outs.append(p)
    a.end_allocate_to_pool(gid)
    side_l = []
    for i in range(12):
        x = a.malloc(1 << 19); a.free(x)
        if mixed:
            side_l.append(a.malloc(r.randint(1, 1 << 26)))
            if len(side_l) > 5: a.free(side_l.pop(r.randrange(len(side_l))))
    if mixed:
        for p in rng_state: a.free(p)
        for p in outs[: len(outs) // 2]: a.free(p)
        for p in side_l: a.free(p)
        a.release_pool(gid); a.empty_cache()
        xs = [a.malloc(r.randint(1, 1 << 25)) for _ in range(20)]
        for p in xs: a.free(p)
    return a

@pytest.mark.parametrize("kind", ['mempool', 'mempool_expandable', 'graph', 'graph_mixed'])
@pytest.mark.parametrize("seed", [101, 202, 303])
def test_private_pools_read_from_trace(kind, seed):
    a = (_mempool_run(seed) if kind == 'mempool' else _mempool_run(seed, 'expandable_segments:True') if kind == 'mempool_expandable'
         else _graph_run(seed) if kind == 'graph' else _graph_run(seed, 'max_split_size_mb:128', mixed=True))
    snap = a.snapshot()
    snap['device_traces'][0] = [e for e in snap['device_traces'][0] if e['action'] != 'snapshot']
    meta = {'memory_stats': a.memory_stats(), 'mem_get_info_total': 140 << 30}
    f = fidelity(snap, meta)
    assert f['exact'], f['first_divergence']
    assert f['result']['pools']['private'] == ([(-1, 1)] if kind.startswith('mempool') else [(1, 0)])
    assert all(not u['figures_differ'] for u in f['undecided'])
    plain = fidelity(snap, meta, replay(snap, meta=meta, private_pools=False))
    assert not plain['exact']                                           # the pools matter: the default pool alone is not the run


@pytest.mark.parametrize('proto', [0, 2, 4, 5])
@pytest.mark.parametrize('how', ['bytesio', 'file', 'gzip', 'pipe', 'raw pipe'])
def test_load_snapshot_reads_from_the_stream_position(proto, how, tmp_path):
    "Like `pickle.load` (Note [Reading at the stream's position]): from f's position, leaving f just past the snapshot."
    import gzip
    s1, s2 = torch_like_snapshot(), {'segments': [], 'device_traces': [[ev('alloc', BASE, 512)]]}
    f = io.BytesIO()
    for obj in ('before', s1, s2, 'after'): pickle.dump(obj, f, protocol=proto)
    raw = f.getvalue()
    (tmp_path / 's.bin').write_bytes(raw)
    with gzip.open(tmp_path / 's.gz', 'wb') as g: g.write(raw)
    def stream():
        if how == 'bytesio': return io.BytesIO(raw)
        if how == 'file': return open(tmp_path / 's.bin', 'rb')
        if how == 'gzip': return gzip.open(tmp_path / 's.gz', 'rb')
        r, w = os.pipe(); os.write(w, raw); os.close(w)               # no seek, no tell
        return open(r, 'rb', buffering=0 if how == 'raw pipe' else -1)
    with stream() as mine, stream() as ref:
        assert pickle.load(mine) == pickle.load(ref) == 'before'
        for want in (s1, s2):
            got = load_snapshot(mine)
            assert got == validate_snapshot(pickle.load(ref)) and got['device_traces'] == want['device_traces']
            if how not in ('pipe', 'raw pipe'): assert mine.tell() == ref.tell()
        assert pickle.load(mine) == pickle.load(ref) == 'after'


def test_gzipped_snapshot_after_other_data(tmp_path):
    "A gzip member that starts at the stream's position is found there, in a plain stream and in a file."
    import gzip
    snap = torch_like_snapshot()
    f = io.BytesIO(); pickle.dump('header', f); f.write(gzip.compress(pickle.dumps(snap)))
    f.seek(0); pickle.load(f)
    assert load_snapshot(f)['device_traces'] == snap['device_traces']
    (tmp_path / 'x.bin').write_bytes(f.getvalue())
    with open(tmp_path / 'x.bin', 'rb') as g:
        pickle.load(g)
        assert load_snapshot(g)['device_traces'] == snap['device_traces']
