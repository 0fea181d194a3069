"Sizes that do not fit in int64, and negative sizes, given to the sized factories: torch's exception types and words."
import numpy as np
import pytest
import tinytensor as tt

torch = pytest.importorskip("torch")
from ttgen import check_results, run_both

BIG = [2**63, 2**64, -2**64, -2**63 - 1]


def _cases(lib, v):
    return {
        'empty': lambda: lib.empty(v), 'empty(2, v)': lambda: lib.empty(2, v), 'empty((v,))': lambda: lib.empty((v,)),
        'empty([3, v])': lambda: lib.empty([3, v]), 'empty(size=)': lambda: lib.empty(size=(v,)),
        'empty(-1, v)': lambda: lib.empty(-1, v), 'empty(np.int64(3), v)': lambda: lib.empty(np.int64(3), v),
        'empty out': lambda: lib.empty(v, out=lib.empty(0)), 'zeros': lambda: lib.zeros(3, v),
        'ones': lambda: lib.ones(v), 'full': lambda: lib.full((v,), 1), 'zeros out': lambda: lib.zeros(v, out=lib.empty(0)),
        'ones out': lambda: lib.ones((1, v), out=lib.empty(0)), 'full out': lambda: lib.full((v,), 1., out=lib.empty(0)),
        'empty_strided size': lambda: lib.empty_strided((v,), (1,)),
        'empty_strided stride': lambda: lib.empty_strided((2,), (v,)),
    }


@pytest.mark.parametrize('v', BIG)
def test_size_outside_int64(v):
    tt_cases, th_cases = _cases(tt, v), _cases(torch, v)
    for name in tt_cases:
        r_tt, r_th = run_both(tt_cases[name], th_cases[name])
        m = check_results(r_tt, r_th, 'empty', ctx=f'{name} {v}')
        assert m is None, m
        assert isinstance(r_th, TypeError)
        # torch's message then carries the C++ stack and closes its quote after it
        assert str(r_tt).rstrip('"') == str(r_th).split('\nException raised')[0], name


def torch_err(f):
    try: f()
    except Exception as e: return e


def test_negative_sizes_keep_their_error():
    for f in (lambda m: m.empty(-1), lambda m: m.zeros(2, -3), lambda m: m.full((-1,), 2.), lambda m: m.ones(-2, out=m.empty(0))):
        r_tt, r_th = run_both(lambda: f(tt), lambda: f(torch))
        assert type(r_tt) is type(r_th) is RuntimeError
    assert str(run_both(lambda: tt.empty(2, -1), lambda: torch.empty(2, -1))[0]) == str(torch_err(lambda: torch.empty(2, -1)))
    assert tt.empty(2**62, device='meta').shape == (2**62,)


INT_ARGS = {
    'sum(2**64)': lambda L, x: x.sum(2**64), 'sum(np.uint64)': lambda L, x: x.sum(np.uint64(2**63)),
    'mean(2**64)': lambda L, x: x.mean(2**64), 'cumsum(2**64)': lambda L, x: x.cumsum(2**64),
    'softmax(2**64)': lambda L, x: x.softmax(2**64), 'narrow': lambda L, x: x.narrow(2**64, 0, 1),
    'select': lambda L, x: x.select(0, 2**64), 'x[2**64]': lambda L, x: x[2**64],
    'x[-2**64]': lambda L, x: x[-2**64], 'transpose': lambda L, x: x.transpose(0, 2**63),
    'unsqueeze': lambda L, x: x.unsqueeze(-2**63 - 1), 'flip': lambda L, x: x.flip(2**64),
    'view': lambda L, x: x.view(2**64), 'view(2, 2**64)': lambda L, x: x.view(2, 2**64),
    'sum(2**63 - 1)': lambda L, x: x.sum(2**63 - 1),
}

@pytest.mark.parametrize('name', list(INT_ARGS))
def test_int_arguments_past_int64(name):
    "A plain `int` past int64 is torch's ValueError, an element of an `int[]` its TypeError."
    f = INT_ARGS[name]
    ra, rb = run_both(lambda: f(tt, tt.ones(2, 3)), lambda: f(torch, torch.ones(2, 3)))
    assert isinstance(rb, Exception) and type(ra) is type(rb), (ra, rb)
    if 'Overflow' in str(rb) and 'pos' not in str(rb): assert str(ra) == str(rb)
