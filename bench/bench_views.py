"Median latency of view ops: tinytensor vs torch, measured in the same run (interleaved, so machine load hits both)."
import timeit, statistics, gc
import torch
import tinytensor as tt

CASES = [
    ('view(128, 32)', lambda x: x.view(128, 32)),
    ('view(-1)', lambda x: x.view(-1)),
    ('transpose(0, 2)', lambda x: x.transpose(0, 2)),
    ('t[1:3]', lambda x: x[1:3]),
    ('t[..., 0]', lambda x: x[..., 0]),
    ('t[1]', lambda x: x[1]),
    ('expand(4, 8, 16, 32)', lambda x: x.expand(4, 8, 16, 32)),
    ('permute(2, 0, 1)', lambda x: x.permute(2, 0, 1)),
    ('unsqueeze(1)', lambda x: x.unsqueeze(1)),
    ('reshape(16, 256)', lambda x: x.reshape(16, 256)),
]

def main(number=1000, repeat=21):
    a, b = tt.zeros(8, 16, 32), torch.zeros(8, 16, 32)
    gc.disable()
    print(f"{'op':24s} {'tinytensor us':>14s} {'torch us':>10s} {'ratio':>7s}")
    worst = 0
    for name, f in CASES:
        fa, fb = (lambda: f(a)), (lambda: f(b))
        fa(); fb()
        ta, tb = [], []
        for _ in range(repeat):                      # interleave the two libraries
            ta.append(timeit.timeit(fa, number=number) / number * 1e6)
            tb.append(timeit.timeit(fb, number=number) / number * 1e6)
        ma, mb = statistics.median(ta), statistics.median(tb)
        worst = max(worst, ma / mb)
        print(f"{name:24s} {ma:14.2f} {mb:10.2f} {ma / mb:7.2f}x")
    gc.enable()
    print(f"worst ratio: {worst:.2f}x (target: every view op within 4x of torch)")

if __name__ == '__main__': main()
