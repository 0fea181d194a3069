"Misuse raises what torch raises: the same call in both libraries, the same exception class, torch's key words."
import numpy as np
import pytest
torch = pytest.importorskip("torch")
import tinytensor as tt
from ttgen import run_both

T = {'tt': tt, 'torch': torch}

# (id, call taking the library module, key words torch's message and ours share or None)
CASES = [
    ('add bool alpha on float', lambda m: m.add(m.tensor([1., 2.]), m.tensor([1., 2.]), alpha=True), 'Boolean alpha only supported for Boolean results'),
    ('add bool alpha on int', lambda m: m.add(m.tensor([1, 2]), m.tensor([1, 2]), alpha=True), 'Boolean alpha'),
    ('sub bool alpha', lambda m: m.sub(m.tensor([1, 2]), m.tensor([1, 2]), alpha=True), 'Boolean alpha'),
    ('add float alpha on int', lambda m: m.add(m.tensor([1, 2]), m.tensor([1, 2]), alpha=0.5), 'alpha must not be a floating point'),
    ('pow bool tensors', lambda m: m.pow(m.tensor([True, False]), m.tensor([True, True])), '"pow" not implemented for \'Bool\''),
    ('bool ** bool', lambda m: m.tensor([True]) ** m.tensor([True]), 'not implemented'),
    ('clamp bool tensor bounds', lambda m: m.clamp(m.tensor([True, False]), m.tensor([False]), m.tensor([True])), '"clamp_cpu" not implemented'),
    ('clamp complex', lambda m: m.clamp(m.tensor([1j]), 0, 1), 'clamp is not supported for complex types'),
    ('clamp bool scalar bounds', lambda m: m.clamp(m.tensor([True]), False, True), '"clamp_scalar_cpu" not implemented for \'Bool\''),
    ('clamp bool scalar min', lambda m: m.tensor([True]).clamp(min=True), '"clamp_min_scalar_cpu" not implemented'),
    ('clamp bool scalar max', lambda m: m.clamp_max(m.tensor([True]), True), '"clamp_max_scalar_cpu" not implemented'),
    ('clamp uint8 bound 300', lambda m: m.tensor([2], dtype=m.uint8).clamp(min=300), 'uint8_t without overflow'),
    ('clamp int8 bound 1000', lambda m: m.tensor([2], dtype=m.int8).clamp(0, 1000), 'int8_t without overflow'),
    ('clamp float16 bound 1e10', lambda m: m.tensor([2.], dtype=m.float16).clamp(min=1e10), 'c10::Half without overflow'),
    ('clamp float32 bound 1e39', lambda m: m.tensor([2.]).clamp(max=-1e39), 'type float without overflow'),
    ('clamp int64 bound 2**70', lambda m: m.tensor([2]).clamp(min=2**70), 'int too big to convert'),
    ('pow float16 exponent 1e10', lambda m: m.tensor([2.], dtype=m.float16) ** 1e10, 'c10::Half without overflow'),
    ('pow bfloat16 exponent 1e39', lambda m: m.tensor([2.], dtype=m.bfloat16) ** 1e39, 'c10::BFloat16 without overflow'),
    ('pow int8 exponent 200', lambda m: m.tensor([1], dtype=m.int8) ** 200, 'int8_t without overflow'),
    ('pow uint8 exponent 256', lambda m: m.tensor([1], dtype=m.uint8) ** 256, 'uint8_t without overflow'),
    ('where int8 number 1000', lambda m: m.where(m.tensor([True]), m.tensor([2], dtype=m.int8), 1000), 'int8_t without overflow'),
    ('where int8 number -129 first', lambda m: m.where(m.tensor([True]), -129, m.tensor([2], dtype=m.int8)), 'int8_t without overflow'),
    ('where float32 number 1e39', lambda m: m.where(m.tensor([True]), m.tensor([2.]), 1e39), 'type float without overflow'),
    ('where complex64 number 1e39', lambda m: m.where(m.tensor([True]), m.tensor([2 + 1j]), 1e39), 'c10::complex<float> without overflow'),
    ('floor_divide complex', lambda m: m.tensor([1 + 2j]) // m.tensor([2]), '"div_floor_cpu" not implemented for \'ComplexFloat\''),
    ('floor_divide complex by number', lambda m: m.tensor([1 + 2j]) // 2.0, '"div_floor_cpu" not implemented'),
    ('div trunc complex', lambda m: m.div(m.tensor([1 + 2j]), 2, rounding_mode='trunc'), '"div_trunc_cpu" not implemented for \'ComplexFloat\''),
    ('remainder complex', lambda m: m.tensor([1 + 2j]) % 2, '"remainder_cpu" not implemented for \'ComplexFloat\''),
    ('amax empty dim before repeats', lambda m: m.zeros(1, 0).amax((1, -1)), 'Expected reduction dim 1 to have non-zero size'),
    ('amin empty dim as given', lambda m: m.zeros(2, 0).amin([-1, 1]), 'Expected reduction dim -1 to have non-zero size'),
    ('amax empty bool dim', lambda m: m.zeros(0).amax((True,)), None),
    ('max complex empty dim', lambda m: m.zeros(2, 0, dtype=m.complex64).max(-1), 'max(): Expected reduction dim 1 to have non-zero size'),
    ('median bool empty dim', lambda m: m.zeros(2, 0, dtype=m.bool).median(-1), 'median(): Expected reduction dim 1 to have non-zero size'),
    ('nanmedian empty dim', lambda m: m.zeros(2, 0).nanmedian(0 - 1), 'median(): Expected reduction dim 1 to have non-zero size'),
    ('nansum complex bad dim', lambda m: m.zeros(1, 1, dtype=m.complex64).nansum(3), 'Dimension out of range'),
    ('cummax complex', lambda m: m.cummax(m.tensor([1 + 2j, 3j]), 0), '"cummax_cpu" not implemented for \'ComplexFloat\''),
    ('cummin complex', lambda m: m.tensor([[1 + 2j]], dtype=m.complex128).cummin(1), '"cummin_cpu" not implemented for \'ComplexDouble\''),
    ('clamp complex tensor', lambda m: m.clamp(m.tensor([1j]), m.tensor([0j])), 'clamp is not supported for complex types'),
    ('rand_like int', lambda m: m.rand_like(m.tensor([1, 2])), '"check_uniform_bounds" not implemented for \'Long\''),
    ('randn_like int', lambda m: m.randn_like(m.tensor([1, 2])), '"normal_kernel_cpu" not implemented for \'Long\''),
    ('randn int', lambda m: m.randn(2, dtype=m.int64), '"normal_kernel_cpu" not implemented'),
    ('rand bool', lambda m: m.rand(2, dtype=m.bool), '"check_uniform_bounds" not implemented for \'Bool\''),
    ('arange int64 fractional step', lambda m: m.arange(0, 1, 0.1, dtype=m.int64), 'step must be nonzero'),
    ('arange zero step', lambda m: m.arange(0, 1, 0), 'step must be nonzero'),
    ('arange bool', lambda m: m.arange(0, 2, dtype=m.bool), '"arange_cpu" not implemented for \'Bool\''),
    ('arange complex', lambda m: m.arange(3, dtype=m.complex64), '"arange_cpu" not implemented'),
    ('arange inf', lambda m: m.arange(0, float('inf')), 'unsupported range'),
    ('arange wrong sign', lambda m: m.arange(0, 3, -0.5, dtype=m.int64), 'upper bound and lower bound inconsistent with step sign'),
    ('full uint8 256', lambda m: m.full((2,), 256, dtype=m.uint8), 'value cannot be converted to type uint8_t without overflow'),
    ('full uint8 -256', lambda m: m.full((2,), -256, dtype=m.uint8), 'without overflow'),
    ('full uint8 -1.0', lambda m: m.full((2,), -1.0, dtype=m.uint8), 'without overflow'),
    ('full int8 200', lambda m: m.full((2,), 200, dtype=m.int8), 'int8_t without overflow'),
    ('full float16 1e40', lambda m: m.full((2,), 1e40, dtype=m.float16), 'c10::Half without overflow'),
    ('full float16 65519.', lambda m: m.full((2,), 65519., dtype=m.float16), 'without overflow'),
    ('full float32 1e39', lambda m: m.full((2,), 1e39, dtype=m.float32), 'type float without overflow'),
    ('full complex64 1e40', lambda m: m.full((2,), 1e40, dtype=m.complex64), 'c10::complex<float> without overflow'),
    ('full int64 inf', lambda m: m.full((2,), float('inf'), dtype=m.int64), 'without overflow'),
    ('full int32 nan', lambda m: m.full((2,), float('nan'), dtype=m.int32), 'without overflow'),
    ('full float16 complex', lambda m: m.full((2,), 1 + 1j, dtype=m.float16), 'without overflow'),
    ('fill_ uint8 -300', lambda m: m.zeros(2, dtype=m.uint8).fill_(-300), 'without overflow'),
    ('fill_ int64 2**63', lambda m: m.zeros(2, dtype=m.int64).fill_(2 ** 63), 'int64_t without overflow'),
    ('fill_ float16 1e40', lambda m: m.zeros(2, dtype=m.float16).fill_(1e40), 'without overflow'),
    ('full_like int8 1000', lambda m: m.full_like(m.zeros(2, dtype=m.int8), 1000), 'without overflow'),
    ('new_full float 1e40', lambda m: m.zeros(2).new_full((2,), 1e40), 'without overflow'),
    ('minimum scalar first', lambda m: m.minimum(2, m.tensor([1, 2])), "argument 'input' (position 1) must be Tensor, not int"),
    ('maximum scalar first', lambda m: m.maximum(2.5, m.tensor([1., 2.])), "must be Tensor, not float"),
    ('minimum scalar second', lambda m: m.minimum(m.tensor([1, 2]), 2), "argument 'other' (position 2) must be Tensor"),
    ('eq scalar first', lambda m: m.eq(2, m.tensor([1, 2])), 'eq() received an invalid combination of arguments'),
    ('lt scalar first', lambda m: m.lt(2, m.tensor([1, 2])), 'received an invalid combination of arguments'),
    ('logical_and scalar first', lambda m: m.logical_and(True, m.tensor([True])), "must be Tensor, not bool"),
    ('fmod scalar first', lambda m: m.fmod(2, m.tensor([1, 2])), 'fmod() received an invalid combination of arguments'),
    ('atan2 scalar first', lambda m: m.atan2(2, m.tensor([1., 2.])), "must be Tensor, not int"),
    ('lt complex', lambda m: m.lt(m.tensor([1j]), m.tensor([2j])), '"lt_cpu" not implemented for \'ComplexFloat\''),
    ('gt complex scalar', lambda m: m.tensor([1j]) > 1, '"gt_cpu" not implemented'),
    ('le complex', lambda m: m.tensor([1j]) <= m.tensor([1j]), '"le_cpu" not implemented'),
    ('ge complex out', lambda m: m.ge(m.tensor([1j]), m.tensor([1j]), out=m.empty(1, dtype=m.bool)), '"ge_cpu" not implemented'),
    ('maximum complex', lambda m: m.maximum(m.tensor([1j]), m.tensor([2j])), 'maximum not implemented for complex tensors.'),
    ('minimum complex', lambda m: m.minimum(m.tensor([1j]), m.tensor([2j])), 'minimum not implemented for complex tensors.'),
    ('abs_ complex', lambda m: m.tensor([1j]).abs_(), 'In-place abs is not supported for complex tensors.'),
    ('abs complex out int', lambda m: m.abs(m.tensor([1j]), out=m.empty(1, dtype=m.int64)), "can't be cast to the desired output type"),
    ('add str first', lambda m: m.add('a', m.tensor([1])), "must be Tensor"),
    ('add str second', lambda m: m.add(m.tensor([1]), 'a'), "must be Tensor"),
    ('exp list', lambda m: m.exp([1, 2]), "exp(): argument 'input' (position 1) must be Tensor, not list"),
    ('neg list', lambda m: m.neg([1, 2]), "neg(): argument 'input' (position 1) must be Tensor, not list"),
    ('abs list', lambda m: m.abs([1, 2]), "abs(): argument 'input' (position 1) must be Tensor, not list"),
    ('sqrt int', lambda m: m.sqrt(5), "must be Tensor, not int"),
    ('clamp list', lambda m: m.clamp([1, 2], 0), None),
    ('relu list', lambda m: m.relu([1, 2]), None),
    ('logical_not list', lambda m: m.logical_not([True]), "must be Tensor"),
    ('bitwise_not list', lambda m: m.bitwise_not([1]), "must be Tensor"),
    ('floor complex', lambda m: m.floor(m.tensor([1j])), 'floor is not supported for complex inputs'),
    ('round int decimals', lambda m: m.round(m.tensor([15]), decimals=-1), '"round_cpu" not implemented'),
    ('round int decimals 0', lambda m: m.round(m.tensor([15]), decimals=0), '"round_vml_cpu" not implemented'),
    ('frac int', lambda m: m.frac(m.tensor([1])), '"frac_cpu" not implemented'),
    ('sign complex', lambda m: m.sign(m.tensor([1j])), 'Please use torch.sgn instead'),
    ('signbit complex', lambda m: m.signbit(m.tensor([1j])), 'signbit is not implemented for complex tensors'),
    ('erf complex', lambda m: m.erf(m.tensor([1j])), '"erf_vml_cpu" not implemented'),
    ('isposinf complex', lambda m: m.isposinf(m.tensor([1j])), 'isposinf does not support complex inputs.'),
    ('isneginf float out', lambda m: m.isneginf(m.tensor([1.]), out=m.empty(1)), 'isneginf does not support non-boolean outputs.'),
    ('nan_to_num out dtype', lambda m: m.nan_to_num(m.tensor([1.]), out=m.empty(1, dtype=m.float64)), 'nan_to_num: dtype of out'),
    ('fmod int by zero', lambda m: m.fmod(m.tensor([5]), 0), 'ZeroDivisionError'),
    ('fmod bool', lambda m: m.fmod(m.tensor([True]), m.tensor([True])), '"fmod_cpu" not implemented'),
    ('hypot int', lambda m: m.hypot(m.tensor([3]), m.tensor([4])), '"hypot_cpu" not implemented'),
    ('hypot number', lambda m: m.hypot(m.tensor([3.]), 4), "argument 'other' (position 2) must be Tensor"),
    ('atan2 complex', lambda m: m.atan2(m.tensor([1j]), m.tensor([1j])), '"atan2_cpu" not implemented'),
    ('lerp int', lambda m: m.lerp(m.tensor([1]), m.tensor([2]), 0.5), '"lerp_kernel_scalar" not implemented'),
    ('lerp end dtype', lambda m: m.lerp(m.tensor([1.]), m.tensor([2.], dtype=m.float64), 0.5), 'expected dtype float for `end` but got dtype double'),
    ('lerp weight dtype', lambda m: m.lerp(m.tensor([1.]), m.tensor([2.]), m.tensor([0.5], dtype=m.float64)), 'for `weight` but got dtype double'),
    ('addcmul bool', lambda m: m.addcmul(m.tensor([True]), m.tensor([True]), m.tensor([True])), '"addcmul_cpu_out" not implemented'),
    ('addcmul value overflow', lambda m: m.addcmul(m.tensor([1], dtype=m.uint8), m.tensor([1], dtype=m.uint8), m.tensor([1], dtype=m.uint8), value=-2.0), 'without overflow'),
    ('addcdiv ints', lambda m: m.addcdiv(m.tensor([1.]), m.tensor([2]), m.tensor([3])), 'Integer division with addcdiv is no longer supported'),
    ('isclose dtypes', lambda m: m.isclose(m.tensor([1.]), m.tensor([1.], dtype=m.float64)), 'Float did not match Double'),
    ('isclose rtol', lambda m: m.isclose(m.tensor([1.]), m.tensor([1.]), rtol=-1), 'rtol must be greater than or equal to zero'),
    ('isclose atol', lambda m: m.isclose(m.tensor([1.]), m.tensor([1.]), atol=-1), 'atol must be greater than or equal to zero'),
    ('allclose dtypes', lambda m: m.allclose(m.tensor([1.]), m.tensor([1])), 'Float did not match Long'),
    ('equal number', lambda m: m.equal(m.tensor([1.]), 1.), "must be Tensor"),
    ('sqrt_ int', lambda m: m.tensor([4]).sqrt_(), "can't be cast to the desired output type"),
    ('square_ bool', lambda m: m.tensor([True]).square_(), "can't be cast to the desired output type"),
    ('floor out dtype', lambda m: m.floor(m.tensor([1.5]), out=m.empty(1, dtype=m.float64)), 'Found dtype Double but expected Float'),
    ('linspace negative steps', lambda m: m.linspace(0, 1, -1), 'number of steps must be non-negative'),
    ('linspace float steps', lambda m: m.linspace(0, 1, 2.0), None),
    ('linspace bool', lambda m: m.linspace(0, 1, 5, dtype=m.bool), '"linspace_cpu" not implemented'),
    ('eye negative', lambda m: m.eye(-1), 'n must be greater or equal to 0, got -1'),
    ('eye negative m', lambda m: m.eye(2, -1), 'm must be greater or equal to 0, got -1'),
    ('randint empty range', lambda m: m.randint(5, 5, (2,)), "expects 'from' to be less than 'to', but got from=5 >= to=5"),
    ('randint uint8 high', lambda m: m.randint(0, 300, (2,), dtype=m.uint8), 'to - 1 is out of bounds for unsigned char'),
    ('randint uint8 low', lambda m: m.randint(-1, 3, (2,), dtype=m.uint8), 'from is out of bounds for unsigned char'),
    ('randint bool', lambda m: m.randint(3, (2,), dtype=m.bool), 'to - 1 is out of bounds for bool'),
    ('randint float bound', lambda m: m.randint(0, 3.5, (2,)), None),
    ('type_as number', lambda m: m.tensor([1]).type_as(2), None),
    # the exception classes torch's Python layer and its parser give (a string bound, a dims pair, a list of tensors)
    ('manual_seed string', lambda m: m.manual_seed('a'), 'invalid literal for int()'),
    ('clamp string min', lambda m: m.clamp(m.ones(2), 'a'), 'received an invalid combination of arguments'),
    ('clamp string min kw', lambda m: m.clamp(m.ones(2), min='a'), 'received an invalid combination of arguments'),
    ('clamp string max', lambda m: m.clamp(m.ones(2), 0, 'a'), 'received an invalid combination of arguments'),
    ('clamp method string', lambda m: m.ones(2).clamp(None, []), None),
    ('tensordot one dims list', lambda m: m.tensordot(m.ones(2, 3), m.ones(3, 4), dims=([1],)),
     'not enough values to unpack (expected 2, got 1)'),
    ('tensordot three dims lists', lambda m: m.tensordot(m.ones(2, 3), m.ones(3, 4), dims=([1], [0], [1])),
     'too many values to unpack (expected 2)'),
    ('tensordot nested one list', lambda m: m.tensordot(m.ones(2, 3), m.ones(3, 4), dims=[[1]]), 'not enough values'),
    ('tensordot string dims', lambda m: m.tensordot(m.ones(2, 3), m.ones(3, 4), dims='a'),
     'tensordot expects dims to be int or tuple[list[int], list[int]]'),
    ('addbmm 2-d batches', lambda m: m.addbmm(m.ones(2, 2), m.ones(2, 2), m.ones(2, 2)),
     'Dimension out of range (expected to be in range of [-2, 1], but got 2)'),
    ('addbmm 2-d batch2', lambda m: m.addbmm(m.ones(2, 2), m.ones(1, 2, 2), m.ones(2, 2)), 'Dimension out of range'),
    ('addbmm 2-d batch1', lambda m: m.addbmm(m.ones(2, 2), m.ones(2, 2), m.ones(1, 2, 2)), 'batch1 must be a 3D tensor'),
    ('addbmm 1-d batch1', lambda m: m.addbmm(m.ones(2, 2), m.ones(2), m.ones(1, 2, 2)),
     'expected to be in range of [-1, 0], but got 1'),
    ('addbmm 0-d batch1', lambda m: m.addbmm(m.ones(2, 2), m.ones(()), m.ones(1, 2, 2)),
     'Dimension specified as 1 but tensor has no dimensions'),
    ('addbmm_ 2-d batch2', lambda m: m.ones(2, 2).addbmm_(m.ones(2, 2, 2), m.ones(2, 2)), 'Dimension out of range'),
    ('addbmm out 2-d', lambda m: m.addbmm(m.ones(2, 2), m.ones(2, 2), m.ones(2, 2), out=m.ones(2, 2)), 'out of range'),
    ('baddbmm 2-d batches', lambda m: m.baddbmm(m.ones(2, 2), m.ones(2, 2), m.ones(2, 2)), 'Dimension out of range'),
    ('baddbmm 1-d batch2', lambda m: m.baddbmm(m.ones(1, 2, 2), m.ones(1, 2, 2), m.ones(2)),
     'expected to be in range of [-1, 0], but got 2'),
    ('baddbmm 2-d batch1', lambda m: m.baddbmm(m.ones(2, 2), m.ones(2, 2), m.ones(1, 2, 2)), 'batch1 must be a 3D'),
    ('broadcast_tensors list', lambda m: m.broadcast_tensors([m.ones(2), m.ones(2)]),
     'expected Tensor as element 0 in argument 0, but got list'),
    ('broadcast_tensors tuple', lambda m: m.broadcast_tensors((m.ones(2),)), 'but got tuple'),
    ('broadcast_tensors number', lambda m: m.broadcast_tensors(m.ones(2), 1), 'expected Tensor as element 1'),
]


@pytest.mark.parametrize('case', CASES, ids=[c[0] for c in CASES])
def test_same_exception_as_torch(case):
    name, call, words = case
    r_tt, r_th = run_both(lambda: call(tt), lambda: call(torch))
    assert isinstance(r_th, Exception), f'torch did not raise: {r_th}'
    assert isinstance(r_tt, Exception), f'tinytensor did not raise (torch: {type(r_th).__name__}: {r_th})'
    assert type(r_tt) is type(r_th), f'{type(r_tt).__name__}({r_tt}) != {type(r_th).__name__}({r_th})'
    if words is not None:
        assert words in str(r_th), f'torch no longer says {words!r}: {r_th}'
        assert words in str(r_tt).replace('tinytensor', 'torch'), f'{r_tt!r} lacks {words!r}'


# fill values: c10's overflow rule, wrapping for unsigned, checked in both directions
FILL_CASES = [(v, d) for d in ['bool', 'uint8', 'int8', 'int16', 'int32', 'int64', 'float16', 'bfloat16', 'float32', 'float64', 'complex64']
              for v in [0, 1, -1, -128, -129, 127, 128, 255, 256, -255, -256, 32767, 32768, -32769, 2 ** 31, -2 ** 31 - 1, 2 ** 62,
                        1.5, -1.0, -0.5, 255.9, 256.0, 65504.0, 65519.0, 65520.0, 70000, 3.4e38, 3.5e38, 1e300, float('inf'),
                        float('-inf'), float('nan'), True, False, 1 + 0j, 1 + 1j, complex(1e40, 0)]]

@pytest.mark.parametrize('v,d', FILL_CASES, ids=[f'{v!r}-{d}' for v, d in FILL_CASES])
def test_full_and_fill_overflow_like_torch(v, d):
    for call in (lambda m: m.full((3,), v, dtype=getattr(m, d)), lambda m: m.zeros(3, dtype=getattr(m, d)).fill_(v),
                 lambda m: m.full((1,), v, dtype=getattr(m, d)), lambda m: m.zeros(1, dtype=getattr(m, d)).fill_(v)):
        r_tt, r_th = run_both(lambda: call(tt), lambda: call(torch))
        if isinstance(r_th, Exception):
            assert type(r_tt) is type(r_th), f'{v!r} -> {d}: {r_tt!r} vs {r_th!r}'
        else:
            assert not isinstance(r_tt, Exception), f'{v!r} -> {d}: tinytensor raised {r_tt!r}, torch gave {r_th}'
            a, b = np.asarray(r_tt.tolist(), dtype=complex), np.asarray(r_th.tolist(), dtype=complex)
            assert np.array_equal(a, b, equal_nan=True), f'{v!r} -> {d}: {a} vs {b}'


def test_requires_grad_is_refused():
    for f in (lambda: tt.zeros(2, requires_grad=True), lambda: tt.tensor([1.], requires_grad=True), lambda: tt.ones(2, requires_grad=True),
              lambda: tt.full((2,), 1., requires_grad=True), lambda: tt.arange(3., requires_grad=True), lambda: tt.rand(2, requires_grad=True),
              lambda: tt.empty(2, requires_grad=True), lambda: tt.zeros_like(tt.zeros(2), requires_grad=True),
              lambda: tt.linspace(0, 1, 3, requires_grad=True), lambda: tt.eye(2, requires_grad=True),
              lambda: tt.zeros(2).new_zeros(2, requires_grad=True), lambda: tt.zeros(2).requires_grad_()):
        with pytest.raises(RuntimeError, match='autograd is not implemented in tinytensor'): f()
    t = tt.zeros(2)
    assert t.requires_grad is False and t.requires_grad_(False) is t and tt.zeros(2, requires_grad=False).requires_grad is False


@pytest.mark.skipif(tt.cuda.is_available(), reason='a CUDA device is present')
@pytest.mark.parametrize('call', [lambda m: m.ones(2).cuda(), lambda m: m.ones(2, device='cuda'),
                                  lambda m: m.ones(2).to('cuda'), lambda m: m.zeros(2).to('cuda:1'),
                                  lambda m: m.cuda.current_device()], ids=['cuda()', 'device=', 'to', 'to cuda:1', 'current_device'])
def test_no_cuda_is_an_assertion_error(call):
    "Without CUDA, torch's CPU build raises AssertionError (torch.cuda._lazy_init); tinytensor says the same words first "
    "and its hint after them."
    r_tt, r_th = run_both(lambda: call(tt), lambda: call(torch))
    if not isinstance(r_th, AssertionError): pytest.skip(f'this torch has CUDA: {r_th!r}')
    assert type(r_tt) is AssertionError, repr(r_tt)
    assert str(r_tt).startswith(str(r_th)), (str(r_tt), str(r_th))
