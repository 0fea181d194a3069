"""Save/load throughput: tinytensor (tt.save/tt.load, mmap, safetensors) vs torch.save/torch.load vs the safetensors package.

Run: `python bench/bench_serialization.py [--sizes 256,1024] [--repeat 3]`. Files go to a temporary directory
that is removed at the end; memory is released between cases. Each figure is the median of `--repeat` runs
(page cache warm: every run after the first reads a file the kernel already holds, for every library alike).
Before each timed save the previous file is removed and `os.sync()` flushes dirty pages, so no writer pays
for another's writeback.
"""
import argparse, gc, os, shutil, statistics, tempfile, time
import numpy as np
import torch
import safetensors.torch as st_torch
import tinytensor as tt
from tinytensor import safetensors as tst
from tinytensor.factories import from_numpy

def state_dict(mib):
    "A transformer-like state dict of float32 tensors totalling `mib` MiB (layers of 4 MiB + a few small ones)."
    rng = np.random.default_rng(0)
    n, arrays = mib << 20, {}
    i = 0
    while n > 0:
        k = min(n, 4 << 20)
        arrays[f'layer{i}.weight'] = rng.standard_normal(k // 4, dtype=np.float32)
        arrays[f'layer{i}.bias'] = rng.standard_normal(256, dtype=np.float32)
        n -= k; i += 1
    return arrays

def timed(fn, repeat, target=None):
    "Median time of `fn()`; for saves, the old file is removed and dirty pages flushed first (outside the timing)."
    ts = []
    for _ in range(repeat):
        if target is not None:
            if os.path.exists(target): os.remove(target)
            os.sync()
        gc.collect()
        t0 = time.perf_counter(); r = fn(); ts.append(time.perf_counter() - t0)
        del r
    return statistics.median(ts)

def touch(sd):
    "Read one byte per page of every tensor, so mapped loads pay for their reads too."
    s = 0
    for v in sd.values():
        a = v.numpy() if not isinstance(v, np.ndarray) else v
        s += int(a.view(np.uint8)[::4096].sum())
    return s

def run(mib, repeat, d):
    arrays = state_dict(mib)
    nbytes = sum(a.nbytes for a in arrays.values())
    tsd = {k: from_numpy(v) for k, v in arrays.items()}
    psd = {k: torch.from_numpy(v) for k, v in arrays.items()}
    p_tt, p_pt, p_st, p_tst = (os.path.join(d, n) for n in ('tt.pt', 'torch.pt', 'st.safetensors', 'tst.safetensors'))
    rows = []
    rows.append(('save', 'torch.save', timed(lambda: torch.save(psd, p_pt), repeat, p_pt)))
    rows.append(('save', 'tt.save', timed(lambda: tt.save(tsd, p_tt), repeat, p_tt)))
    rows.append(('save', 'safetensors.torch.save_file', timed(lambda: st_torch.save_file(psd, p_st), repeat, p_st)))
    rows.append(('save', 'tt.safetensors.save_file', timed(lambda: tst.save_file(tsd, p_tst), repeat, p_tst)))
    del psd, tsd, arrays; gc.collect()
    rows.append(('load', 'torch.load', timed(lambda: torch.load(p_pt, weights_only=True), repeat)))
    rows.append(('load', 'tt.load', timed(lambda: tt.load(p_tt), repeat)))
    rows.append(('load', 'tt.load (torch file)', timed(lambda: tt.load(p_pt), repeat)))
    rows.append(('load', 'torch.load mmap=True', timed(lambda: torch.load(p_pt, weights_only=True, mmap=True), repeat)))
    rows.append(('load', 'tt.load mmap=True', timed(lambda: tt.load(p_tt, mmap=True), repeat)))
    rows.append(('load', 'tt.load mmap=True weights_only=False', timed(lambda: tt.load(p_tt, mmap=True, weights_only=False), repeat)))
    rows.append(('load', 'safetensors.torch.load_file', timed(lambda: st_torch.load_file(p_st), repeat)))
    rows.append(('load', 'tt.safetensors.load_file', timed(lambda: tst.load_file(p_tst), repeat)))
    rows.append(('load+touch', 'torch.load mmap=True', timed(lambda: touch(torch.load(p_pt, weights_only=True, mmap=True)), repeat)))
    rows.append(('load+touch', 'tt.load mmap=True', timed(lambda: touch(tt.load(p_tt, mmap=True)), repeat)))
    rows.append(('load+touch', 'safetensors.torch.load_file', timed(lambda: touch(st_torch.load_file(p_st)), repeat)))
    for p in (p_tt, p_pt, p_st, p_tst): os.remove(p)
    gc.collect()
    return nbytes, rows

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--sizes', default='256,1024', help='state dict sizes in MiB')
    ap.add_argument('--repeat', type=int, default=3)
    args = ap.parse_args()
    d = tempfile.mkdtemp(prefix='tt-bench-ser-')
    try:
        for mib in (int(s) for s in args.sizes.split(',')):
            nbytes, rows = run(mib, args.repeat, d)
            ref = {('save', 'torch'): [r for r in rows if r[1] == 'torch.save'][0][2],
                   ('load', 'torch'): [r for r in rows if r[1] == 'torch.load'][0][2],
                   ('load', 'st'): [r for r in rows if r[1] == 'safetensors.torch.load_file'][0][2]}
            print(f'\n## state dict of {nbytes / 2**20:.0f} MiB (float32, {nbytes / 2**22:.0f} x 4 MiB layers), median of {args.repeat}')
            print(f'| op | implementation | time (ms) | GB/s | vs torch | vs safetensors load_file |')
            print('|---|---|---:|---:|---:|---:|')
            for op, name, t in rows:
                vs_t = ref[('save', 'torch')] / t if op == 'save' else ref[('load', 'torch')] / t
                vs_s = ref[('load', 'st')] / t if op == 'load' else float('nan')
                print(f'| {op} | {name} | {t * 1e3:.1f} | {nbytes / t / 1e9:.2f} | {vs_t:.2f}x | '
                      f'{"" if vs_s != vs_s else f"{vs_s:.2f}x"} |')
            gc.collect()
    finally:
        shutil.rmtree(d, ignore_errors=True)
    print('\n"vs" columns: speed relative to the reference (>1 = faster). load+touch reads one byte per page of every tensor.')

if __name__ == '__main__':
    main()
