"The test set-up itself: skipped torch comparisons are announced, and fail the run under CI."
import os, pathlib, shutil, subprocess, sys

# A missing torch, as Python reports one: the import system finds no module named torch and raises
# ModuleNotFoundError (an ImportError raised by a module that exists is another failure, which pytest >= 9.1's
# `importorskip` no longer skips). The finder goes first on sys.meta_path, loaded as a pytest plugin (`-p no_torch`)
# before any test file is collected.
_NO_TORCH = """import sys
class NoTorch:
    "Finds no module named torch (or torch.*): `import torch` fails as where torch is not installed."
    @staticmethod
    def find_spec(name, path=None, target=None):
        if name == 'torch' or name.startswith('torch.'): raise ModuleNotFoundError(f"No module named {name!r}", name=name)
sys.meta_path.insert(0, NoTorch)
"""

def _run(tmp_path, fake_torch:bool, ci:bool):
    d = tmp_path / 'suite'
    d.mkdir(exist_ok=True)
    shutil.copy(pathlib.Path(__file__).with_name('conftest.py'), d / 'conftest.py')
    (d / 'test_cmp.py').write_text('import pytest\ntorch = pytest.importorskip("torch")\ndef test_x(): assert torch is not None\n')
    (d / 'test_plain.py').write_text('def test_y(): pass\n')
    plugin = tmp_path / 'plugin'
    plugin.mkdir(exist_ok=True)
    (plugin / 'no_torch.py').write_text(_NO_TORCH)
    env = {k: v for k, v in os.environ.items() if k != 'CI'}
    env['PYTHONPATH'] = os.pathsep.join([str(plugin), env.get('PYTHONPATH', '')])
    if ci: env['CI'] = 'true'
    block = ['-p', 'no_torch'] if fake_torch else []
    r = subprocess.run([sys.executable, '-m', 'pytest', '-q', '-rs', '-p', 'no:cacheprovider', *block, str(d)], env=env, cwd=d,
                       capture_output=True, text=True, timeout=120)
    return r.returncode, r.stdout + r.stderr

def test_missing_torch_is_announced(tmp_path):
    rc, out = _run(tmp_path, fake_torch=True, ci=False)
    assert rc == 0, out
    assert "No module named 'torch'" in out, out                 # the error Python gives for a missing module
    assert 'torch comparison tests SKIPPED' in out and 'pip install torch==2.13.0' in out

def test_missing_torch_fails_under_ci(tmp_path):
    rc, out = _run(tmp_path, fake_torch=True, ci=True)
    assert rc == 1 and 'failing because CI is set' in out, out

def test_with_torch_ci_passes(tmp_path):
    rc, out = _run(tmp_path, fake_torch=False, ci=True)
    assert rc == 0 and 'SKIPPED' not in out, out
