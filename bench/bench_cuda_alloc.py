"""Where the microseconds of one CUDA `empty` + free go: the chain timed whole, then one layer peeled off at a time.

    python bench/bench_cuda_alloc.py [PAIRS=20000]

Each row makes and drops a 1 MiB float32 CUDA allocation PAIRS times (min of 5 runs) through less and less of the
chain: `tt.empty(262144, device='cuda')` (chapter 00's argument binder, the device check, chapter 04c's one-frame
result, the allocator front of 07b, 07's `DeviceCachingAllocator`), down to the caching allocator's `malloc` + `free`
alone. With a GPU, torch's `torch.empty` and CuPy's pool are timed in the same run and the last column is
tinytensor's rate over torch's. Without one, the rows run on the CPU stand-in of the tests (host memory), which
times the same Python code without the CUDA runtime calls. No timed assertions: it prints a table.
"""
import gc, os, sys, timeit

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def main(pairs: int = 20000) -> int:
    import tinytensor as tt
    gpu = tt.cuda.is_available()
    if not gpu:
        from tests.cuda_standin import install
        install()
    from tinytensor.cuda import caching_allocator as ca
    from tinytensor.cuda.tensors import _cuda
    from tinytensor.factories import _empty_impl
    k = 1 << 18                                                   # 1 MiB of float32
    dev = tt.device('cuda:0')
    front, dca, f32 = _cuda().allocator(dev), ca.get_allocator(0), tt.float32

    def p_empty(): x = tt.empty(k, device='cuda'); del x
    def p_empty_dev(): x = tt.empty(k, device=dev); del x
    def p_impl(): x = _empty_impl((k,), None, f32, dev); del x
    def p_allocate(): x = front.allocate(4 * k); del x
    def p_malloc(): dca.free(dca.malloc(4 * k, 0))
    def check(): _cuda().check_device(tt.device('cuda'))
    rows = [("tt.empty(262144, device='cuda')", p_empty),
            ("tt.empty(262144, device=cuda:0 Device)", p_empty_dev),
            ("_empty_impl: no argument binding", p_impl),
            ("CUDAAllocator.allocate: a DataPtr alone", p_allocate),
            ("DeviceCachingAllocator.malloc + free", p_malloc),
            ("(device check of 'cuda' alone)", check)]
    torch = cp = None
    if gpu:
        try:
            import torch
            if not torch.cuda.is_available(): torch = None
        except ImportError: torch = None
        import cupy as cp
        if torch is not None:
            def p_torch(): x = torch.empty(k, device='cuda'); del x
            rows.append(("torch.empty(262144, device='cuda')", p_torch))
        def p_cupy(): x = cp.empty(k, cp.float32); del x
        rows.append(("cupy.empty (tinytensor's allocator routes it)", p_cupy))
    gc.collect(); gc.disable()                # a collection inside one run would time the collector
    res = {}
    try:
        for name, f in rows:
            for _ in range(1000): f()
            res[name] = min(timeit.repeat(f, number=pairs, repeat=5)) / pairs
    finally: gc.enable()
    print(f"{'CUDA' if gpu else 'CPU stand-in (no GPU)'}: {pairs} pairs per run, min of 5 runs")
    t_torch = res.get("torch.empty(262144, device='cuda')")
    print(f"{'made and dropped':48s} {'us/pair':>8s} {'pairs/s':>10s} {'/ torch':>8s}")
    for name, s in res.items():
        ratio = f"{t_torch / s:7.3f}x" if t_torch else '-'
        print(f"{name:48s} {s * 1e6:8.2f} {1 / s:10,.0f} {ratio:>8s}")
    return 0


if __name__ == '__main__': sys.exit(main(*(int(a) for a in sys.argv[1:2])))
