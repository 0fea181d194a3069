"The test set-up itself: skipped torch comparisons are announced, and fail the run under CI."
import os, pathlib, shutil, subprocess, sys

def _run(tmp_path, fake_torch:bool, ci:bool):
    d = tmp_path / 'suite'
    d.mkdir(exist_ok=True)
    shutil.copy(pathlib.Path(__file__).with_name('conftest.py'), d / 'conftest.py')
    (d / 'test_cmp.py').write_text('import pytest\ntorch = pytest.importorskip("torch")\ndef test_x(): assert torch is not None\n')
    (d / 'test_plain.py').write_text('def test_y(): pass\n')
    fake = tmp_path / 'fake'
    fake.mkdir(exist_ok=True)
    (fake / 'torch.py').write_text('raise ImportError("No module named torch (simulated)")\n')
    env = {k: v for k, v in os.environ.items() if k != 'CI'}
    if fake_torch: env['PYTHONPATH'] = os.pathsep.join([str(fake), env.get('PYTHONPATH', '')])
    if ci: env['CI'] = 'true'
    r = subprocess.run([sys.executable, '-m', 'pytest', '-q', '-p', 'no:cacheprovider', str(d)], env=env, cwd=d,
                       capture_output=True, text=True, timeout=120)
    return r.returncode, r.stdout + r.stderr

def test_missing_torch_is_announced(tmp_path):
    rc, out = _run(tmp_path, fake_torch=True, ci=False)
    assert rc == 0, out
    assert 'torch comparison tests SKIPPED' in out and 'pip install torch==2.13.0' in out

def test_missing_torch_fails_under_ci(tmp_path):
    rc, out = _run(tmp_path, fake_torch=True, ci=True)
    assert rc == 1 and 'failing because CI is set' in out, out

def test_with_torch_ci_passes(tmp_path):
    rc, out = _run(tmp_path, fake_torch=False, ci=True)
    assert rc == 0 and 'SKIPPED' not in out, out
