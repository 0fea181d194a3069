"""Replay speed: trace entries per second of chapter 07a's replay over the recorded traces (the 13 H100 traces in
tests/fixtures/cuda_traces and the 4 private-pool traces in tests/fixtures/cuda_traces_pools), each under its recorded setup. Loading (gunzip + the restricted unpickler) is timed separately. Prints a table; no timed assertions.

Each trace's figure is the best of N replays, as timeit takes it (the least disturbed run). The N rounds go over all
traces in turn, so a trace's replays are spread over the whole run rather than taken back to back: on a shared
machine a slow phase lasts seconds and would otherwise hit all N replays of the traces it falls on. Each replay
starts after a `gc.collect()`, so none pays for the garbage of the one before.

    python bench/bench_replay.py [--repeat N] [NAME ...]
    python bench/bench_replay.py --advise [NAME ...]   # seconds of `tinytensor replay --advise` (search_settings)
"""
import argparse, gc, os, sys, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
from tinytensor.cuda.replay import load_snapshot, load_metadata, replay
from tinytensor.cuda.caching_allocator import DeviceCachingAllocator
from tinytensor.cuda import replay_feed

DIRS = [os.path.join(ROOT, 'tests', 'fixtures', d) for d in ('cuda_traces', 'cuda_traces_pools')]


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument('names', nargs='*')
    p.add_argument('--repeat', type=int, default=5, help='best of N replays per trace (as timeit: the minimum is the least disturbed)')
    p.add_argument('--plain', action='store_true',
                   help="the plain paths of chapters 07 and 07a only, without chapter 12's hooks (hot path, trace check)")
    p.add_argument('--advise', action='store_true',
                   help='time the settings search of `tinytensor replay --advise` per trace (best of --repeat)')
    args = p.parse_args()
    if args.plain: DeviceCachingAllocator.hot_path, replay_feed._entries_ok = False, None
    paths = {f[:-len('.pickle.gz')]: os.path.join(d, f) for d in DIRS for f in os.listdir(d) if f.endswith('.pickle.gz')}
    names = args.names or sorted(paths)
    loaded = {}
    for n in names:
        t = time.perf_counter(); snap = load_snapshot(paths[n]); load = time.perf_counter() - t
        loaded[n] = (snap, load_metadata(paths[n]), load)
    if args.advise: return _advise(names, loaded, args.repeat)
    best = {n: float('inf') for n in names}
    for _ in range(args.repeat):                       # round-robin: a trace's replays are spread over the run
        for n in names: best[n] = min(best[n], _timed(*loaded[n][:2]))
    print(f"{'trace':30} {'entries':>8} {'load s':>7} {'replay s':>9} {'entries/s':>10}")
    tot_n = tot_t = tot_load = 0
    for n in names:
        snap, meta, load = loaded[n]
        entries = sum(len(x) for x in snap['device_traces'])
        tot_n += entries; tot_t += best[n]; tot_load += load
        print(f"{n:30} {entries:8d} {load:7.2f} {best[n]:9.3f} {entries / best[n]:10,.0f}")
    print(f"{'all':30} {tot_n:8d} {tot_load:7.2f} {tot_t:9.3f} {tot_n / tot_t:10,.0f}")


def _advise(names, loaded, repeat):
    from tinytensor.cuda.advise import search_settings
    print(f"{'trace':30} {'entries':>8} {'settings':>8} {'advise s':>9}")
    for n in names:
        snap, meta, _ = loaded[n]
        best = float('inf')
        for _ in range(repeat):
            gc.collect(); t = time.perf_counter(); res = search_settings(snap, meta)
            best = min(best, time.perf_counter() - t)
        entries = sum(len(x) for x in snap['device_traces'])
        print(f"{n:30} {entries:8d} {len(res['candidates']) + 1:8d} {best:9.2f}")


def _timed(snap, meta):
    gc.collect()
    t = time.perf_counter(); replay(snap, meta=meta); return time.perf_counter() - t


if __name__ == '__main__':
    main()
