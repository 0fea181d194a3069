"The strict CuPy stand-in refuses what CuPy refuses: each restriction fires (and the real CuPy agrees, on a GPU)."
import numpy as np
import pytest
import cuda_standin as cs


def _modules():
    yield pytest.param(cs.xp, id='standin')
    try:
        import cupy
        ok = cupy.cuda.runtime.getDeviceCount() > 0
    except Exception: ok = False
    yield pytest.param(cupy if ok else None, id='cupy', marks=pytest.mark.cuda)


@pytest.fixture(params=list(_modules()))
def xp(request):
    if request.param is None: pytest.skip('needs CuPy and an NVIDIA GPU')
    return request.param


def test_arrays_are_not_numpy_arrays(xp):
    a = xp.asarray(np.arange(6.).reshape(2, 3))
    assert not isinstance(a, np.ndarray) and isinstance(a, xp.ndarray)
    with pytest.raises(TypeError, match='Implicit conversion to a NumPy array is not allowed'): np.asarray(a)
    with pytest.raises(TypeError, match='Implicit conversion'): np.array(a)
    assert xp.asnumpy(a).tolist() == a.get().tolist() == [[0., 1., 2.], [3., 4., 5.]]    # the explicit copies
    assert isinstance(a.sum(), xp.ndarray) and a.sum().ndim == 0                       # reductions stay on the device
    assert isinstance(a[0, 1], xp.ndarray) and float(a[0, 1]) == 1.0                     # so does scalar indexing


def test_ufuncs_refuse_numpy_operands(xp):
    a = xp.asarray(np.arange(3.))
    for bad in (np.array(2.0), np.arange(3.)):                 # a 0-d numpy array too
        with pytest.raises(TypeError, match='Unsupported type'): np.multiply(a, bad)
        with pytest.raises(TypeError, match='Unsupported type'): a * bad
        with pytest.raises(TypeError, match='Unsupported type'): xp.add(a, bad)
    with pytest.raises(TypeError, match='Unsupported type'): np.add(a, 1, out=np.empty(3))
    assert (a * 2).tolist() == [0., 2., 4.] and (a + np.float32(1)).tolist() == [1., 2., 3.]   # scalars are fine
    assert (np.multiply(a, 2.5)).tolist() == [0., 2.5, 5.]


def test_ufunc_methods_only_where_cupy_has_them(xp):
    a = xp.asarray(np.array([3., 1., 2.]))
    assert float(np.add.reduce(a)) == 6.0 and float(np.multiply.reduce(a)) == 6.0
    assert np.add.accumulate(a).tolist() == [3., 4., 6.]
    for uf in (np.maximum, np.minimum, np.logical_and, np.logical_or):
        with pytest.raises(NotImplementedError, match='reduce` is not supported yet'): uf.reduce(a)
    with pytest.raises(NotImplementedError, match='accumulate` is not supported yet'): np.maximum.accumulate(a)
    with pytest.raises(NotImplementedError, match='at` is not supported yet'): np.multiply.at(a, xp.asarray(np.array([0])), 2)
    np.add.at(a, xp.asarray(np.array([0, 0])), 1.0)
    assert a.tolist() == [5., 1., 2.]
    m = xp.asarray(np.zeros((2, 2)))
    with pytest.raises(TypeError): np.add.at(m, (xp.asarray(np.array([1, 1])), slice(None)), 1.0)   # a tuple index: not through numpy
    xp.add.at(m, (xp.asarray(np.array([1, 1])), slice(None)), 1.0)                                   # CuPy's own ufunc takes it
    assert m.tolist() == [[0., 0.], [2., 2.]]
    with pytest.raises(TypeError, match='Wrong arguments'): np.add(a, a, out=xp.empty(3), where=a > 2)   # no `where=`
    with pytest.raises(TypeError, match="unexpected keyword argument 'mode'"): xp.take(a, xp.asarray(np.array([0])), mode='clip')
    if xp is cs.xp:                         # CuPy 14's CUB segmented min/max with `out=` (seen on an H200): modelled here
        with pytest.raises(TypeError): xp.amin(m, axis=1, out=xp.empty(2))
    assert xp.amin(m, axis=1).tolist() == [0., 2.]
    assert float(a.max()) == 5.0 and float(xp.max(a)) == 5.0 and bool(xp.all(a > 0))    # the array-API reductions exist


def test_missing_functions_are_missing(xp):
    a = xp.asarray(np.array([1., 2., 4.]))
    with pytest.raises(TypeError): np.busday_count(a, a)       # numpy's dispatch finds no CuPy implementation
    with pytest.raises(TypeError): np.isnat(a)                 # nor a CuPy ufunc
    with pytest.raises(TypeError): np.frompyfunc(lambda v: v, 1, 1)(a)
    assert not hasattr(xp, 'frompyfunc') and not hasattr(xp, 'busday_count') and not hasattr(xp, 'isnat')
    with pytest.raises(TypeError): np.concatenate([a, np.ones(2)])   # a numpy array given to a CuPy function
    assert np.concatenate([a, a]).tolist() == [1., 2., 4., 1., 2., 4.] and np.diff(a).tolist() == [1., 2.]
