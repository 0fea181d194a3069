"range(out=) over out= layouts against torch (the other range factories' layouts are in tests/test_factories.py)."
import warnings
import pytest
import tinytensor as tt

torch = pytest.importorskip("torch")
from ttgen import check_results, run_both

VIEWS = {
    'narrowed': lambda L: (lambda b: (b, b.narrow(1, 1, 2)))(L.zeros(2, 3)),
    'transposed': lambda L: (lambda b: (b, b.t()))(L.zeros(2, 2)),
    'permuted': lambda L: (lambda b: (b, b.permute(2, 0, 1)))(L.zeros(2, 1, 2)),
    'offset': lambda L: (lambda b: (b, b[2:6]))(L.zeros(7)),
    'strided': lambda L: (lambda b: (b, b[::2]))(L.zeros(8)),
    'same numel': lambda L: (lambda b: (b, b))(L.zeros(2, 2)),
    'int64': lambda L: (lambda b: (b, b.t()))(L.zeros(2, 2, dtype=L.int64)),
    'expanded': lambda L: (lambda b: (b, b.expand(4)))(L.zeros(1)),
    'too small': lambda L: (lambda b: (b, b))(L.zeros(3)),
    'too big': lambda L: (lambda b: (b, b))(L.zeros(2, 3)),
}


@pytest.mark.parametrize('view', VIEWS)
@pytest.mark.parametrize('args', [(0, 3), (1, 2.5, 0.5), (3, 0, -1)])
def test_range_out_layouts(view, args):
    if view == 'int64' and any(isinstance(a, float) for a in args):
        pytest.skip('torch.range into an int64 out with step 0.5 truncates the step to 0 and dies of SIGFPE')
    def run(L):
        base, out = VIEWS[view](L)
        with warnings.catch_warnings():
            warnings.simplefilter('ignore')
            r = L.range(*args, out=out)
        return r is out, tuple(out.shape), out.stride(), out.storage_offset(), out, base
    r_tt, r_th = run_both(lambda: run(tt), lambda: run(torch))
    if isinstance(r_th, Exception):
        assert type(r_tt) is type(r_th), (r_tt, r_th)
        return
    assert r_tt[:4] == r_th[:4]
    for a, b in zip(r_tt[4:], r_th[4:]):
        m = check_results(a, b, 'arange', ctx=f'{view} {args}')
        assert m is None, m


def test_range_out_dtype_rules():
    for f in (lambda L: L.range(0, 3, out=L.zeros(2, 2), dtype=L.float64),
              lambda L: L.range(0, 3, out=L.zeros(4, dtype=L.bool))):
        r_tt, r_th = run_both(lambda: f(tt), lambda: f(torch))
        assert type(r_tt) is type(r_th) and str(r_tt) == str(r_th)
