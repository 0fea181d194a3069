"""Alloc+free pairs per second of tinytensor's caching allocator (simulated backend), next to CuPy's MemoryPool
when CuPy and a GPU are present. Prints a table; no timed assertions.

    python bench/bench_caching_allocator.py [--pairs N]

Size distribution ("realistic mix", roughly what a transformer training step asks for): 60 % small tensors
(512 B .. 1 MiB, log-uniform), 30 % medium (1 .. 64 MiB), 10 % large (64 .. 512 MiB); sizes are not multiples
of 512. Two patterns: 'window' keeps 256 allocations live and replaces a random one each iteration (the cache
fragments and splits/merges happen), 'immediate' frees each allocation right away (pure cache hits).
"""
import argparse, math, os, random, sys, time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from tinytensor.cuda.caching_allocator import DeviceCachingAllocator, SimulatedBackend, cupy_device_count

MiB = 1 << 20


def sizes(n, seed=0):
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        r = rng.random()
        lo, hi = (512, MiB) if r < 0.6 else (MiB, 64 * MiB) if r < 0.9 else (64 * MiB, 512 * MiB)
        out.append(int(math.exp(rng.uniform(math.log(lo), math.log(hi)))) + rng.randrange(1, 511))
    return out


def bench_tt(n, pattern, conf="", streams=1):
    a = DeviceCachingAllocator(SimulatedBackend(capacity=1 << 50), conf=conf)
    sz = sizes(4096)
    rng = random.Random(1)
    victims = [rng.randrange(256) for _ in range(4096)]
    malloc, free = a.malloc, a.free
    if pattern == 'immediate':
        for s in sz: free(malloc(s))                       # warm the cache
        t = time.perf_counter()
        for i in range(n): free(malloc(sz[i & 4095], i % streams))
        dt = time.perf_counter() - t
    else:
        live = [malloc(s, 0) for s in sz[:256]]
        t = time.perf_counter()
        for i in range(n):
            j = victims[i & 4095]
            free(live[j])
            live[j] = malloc(sz[i & 4095], i % streams)
        dt = time.perf_counter() - t
    a.check_invariants()
    return n / dt


def bench_cupy(n, pattern):
    import cupy
    pool = cupy.cuda.MemoryPool()
    sz = sizes(4096)
    rng = random.Random(1)
    victims = [rng.randrange(256) for _ in range(4096)]
    malloc = pool.malloc
    if pattern == 'immediate':
        for s in sz: malloc(s)
        t = time.perf_counter()
        for i in range(n): malloc(sz[i & 4095])            # the MemoryPointer dies at once: freed to the pool
        dt = time.perf_counter() - t
    else:
        live = [malloc(s) for s in sz[:256]]
        t = time.perf_counter()
        for i in range(n):
            j = victims[i & 4095]
            live[j] = None
            live[j] = malloc(sz[i & 4095])
        dt = time.perf_counter() - t
    del live
    pool.free_all_blocks()
    return n / dt


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--pairs', type=int, default=200_000)
    ap.add_argument('--plain', action='store_true',
                    help="chapter 07's plain path only, without chapter 12's hot path (Note [Hot path])")
    args = ap.parse_args()
    if args.plain: DeviceCachingAllocator.hot_path = False
    rows = []
    for pattern in ('window', 'immediate'):
        rows.append((f"tinytensor (simulated), {pattern}", bench_tt(args.pairs, pattern)))
        rows.append((f"tinytensor (simulated), {pattern}, 2 streams", bench_tt(args.pairs, pattern, streams=2)))
        rows.append((f"tinytensor (simulated), {pattern}, max_split_size_mb:128,roundup_power2_divisions:4",
                     bench_tt(args.pairs, pattern, "max_split_size_mb:128,roundup_power2_divisions:4")))
    cupy_note = None
    if cupy_device_count() > 0:
        for pattern in ('window', 'immediate'):
            rows.append((f"cupy.cuda.MemoryPool, {pattern}", bench_cupy(args.pairs, pattern)))
    else:
        cupy_note = "CuPy MemoryPool: skipped (CuPy or a GPU not available)"
    w = max(len(r[0]) for r in rows)
    print(f"{'allocator, pattern'.ljust(w)}  alloc+free pairs/s")
    print("-" * (w + 20))
    for name, v in rows: print(f"{name.ljust(w)}  {v:>18,.0f}")
    if cupy_note: print(cupy_note)


if __name__ == '__main__':
    main()
