"""Replay speed: trace entries per second of chapter 07a's replay over the recorded traces (the 13 H100 traces in
tests/fixtures/cuda_traces and the 4 private-pool traces in tests/fixtures/cuda_traces_pools), each under its recorded setup. Loading (gunzip + the restricted unpickler) is timed separately. Prints a table; no timed assertions.

    python bench/bench_replay.py [--repeat N] [NAME ...]
"""
import argparse, os, sys, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
from tinytensor.cuda.replay import load_snapshot, load_metadata, replay

DIRS = [os.path.join(ROOT, 'tests', 'fixtures', d) for d in ('cuda_traces', 'cuda_traces_pools')]


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument('names', nargs='*')
    p.add_argument('--repeat', type=int, default=5, help='best of N replays per trace (as timeit: the minimum is the least disturbed)')
    args = p.parse_args()
    paths = {f[:-len('.pickle.gz')]: os.path.join(d, f) for d in DIRS for f in os.listdir(d) if f.endswith('.pickle.gz')}
    names = args.names or sorted(paths)
    print(f"{'trace':30} {'entries':>8} {'load s':>7} {'replay s':>9} {'entries/s':>10}")
    tot_n = tot_t = tot_load = 0
    for n in names:
        path = paths[n]
        t = time.perf_counter(); snap = load_snapshot(path); load = time.perf_counter() - t
        meta = load_metadata(path)
        entries = sum(len(x) for x in snap['device_traces'])
        best = min(_timed(snap, meta) for _ in range(args.repeat))
        tot_n += entries; tot_t += best; tot_load += load
        print(f"{n:30} {entries:8d} {load:7.2f} {best:9.3f} {entries / best:10,.0f}")
    print(f"{'all':30} {tot_n:8d} {tot_load:7.2f} {tot_t:9.3f} {tot_n / tot_t:10,.0f}")


def _timed(snap, meta):
    t = time.perf_counter(); replay(snap, meta=meta); return time.perf_counter() - t


if __name__ == '__main__':
    main()
