"""Files that carry the newer dtypes, written by torch and read by tinytensor, and back: a float8 safetensors file from
`safetensors.torch.save_file`, and a torch zip checkpoint with uint16/32/64, all five float8 formats and complex32
(a conjugate view and a transposed one included). Every value is compared by its bits."""
import warnings
import numpy as np
import pytest
import tinytensor as tt
torch = pytest.importorskip("torch")
st_torch = pytest.importorskip("safetensors.torch")

F8 = ('float8_e4m3fn', 'float8_e4m3fnuz', 'float8_e5m2', 'float8_e5m2fnuz', 'float8_e8m0fnu')
INTS = {1: 'uint8', 2: 'int16', 4: 'int32', 8: 'int64'}


def torch_bits(x):
    x = x.resolve_conj().contiguous()
    return x.view(getattr(torch, INTS[x.dtype.itemsize])).numpy()


def tt_bits(x):
    x = x.resolve_conj().contiguous()
    return x.view(getattr(tt, INTS[x.dtype.itemsize])).numpy()


def test_float8_safetensors_both_ways(tmp_path):
    g = torch.Generator().manual_seed(0)
    w = {'e4m3': (torch.randn(64, 32, generator=g) * 100).to(torch.float8_e4m3fn),
         'e5m2': (torch.randn(16, 8, generator=g) * 1000).to(torch.float8_e5m2)}
    st_torch.save_file(w, tmp_path / 'w.safetensors')
    t = tt.safetensors.load_file(tmp_path / 'w.safetensors')
    for k, v in w.items():
        assert t[k].dtype.name == str(v.dtype)[6:] and t[k].shape == tuple(v.shape)
        assert np.array_equal(tt_bits(t[k]), torch_bits(v))
    tt.safetensors.save_file(t, tmp_path / 'back.safetensors')
    back = st_torch.load_file(tmp_path / 'back.safetensors')
    for k, v in w.items():
        assert back[k].dtype == v.dtype and np.array_equal(torch_bits(back[k]), torch_bits(v))


def checkpoint():
    ck = {'u16': torch.tensor([0, 1, 65535], dtype=torch.uint16),
          'u32': torch.tensor([0, 2 ** 32 - 1, 7], dtype=torch.uint32),
          'u64': torch.tensor([0, 2 ** 64 - 1, 5], dtype=torch.uint64)}
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')                  # torch's ComplexHalf warning
        ck['c32'] = torch.tensor([1 + 2j, -0.5 + 1e-3j, float('inf'), float('nan')], dtype=torch.complex32)
        ck['c32_conj'] = torch.tensor([1 + 2j, 3 - 1j], dtype=torch.complex32).conj()
        ck['c32_t'] = torch.tensor([[1 + 2j, 3 - 1j], [0.5j, 2]], dtype=torch.complex32).t()
    for n in F8: ck[n] = torch.arange(256, dtype=torch.uint8).view(getattr(torch, n))     # every code
    return ck


def test_zip_checkpoint_both_ways(tmp_path):
    ck = checkpoint()
    torch.save(ck, tmp_path / 'ck.pt')
    t = tt.load(tmp_path / 'ck.pt')
    for k, v in ck.items():
        assert t[k].dtype.name == str(v.dtype)[6:], k
        assert (t[k].shape, t[k].stride(), t[k].is_conj()) == (tuple(v.shape), v.stride(), v.is_conj()), k
        assert np.array_equal(tt_bits(t[k]), torch_bits(v)), k
    tt.save(t, tmp_path / 'back.pt')
    back = torch.load(tmp_path / 'back.pt')
    for k, v in ck.items():
        assert (back[k].dtype, back[k].stride(), back[k].is_conj()) == (v.dtype, v.stride(), v.is_conj()), k
        assert np.array_equal(torch_bits(back[k]), torch_bits(v)), k
