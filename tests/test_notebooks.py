import json
from pathlib import Path
import pytest

NBS = sorted((Path(__file__).parent.parent / 'nbs').glob('*.ipynb'))

@pytest.mark.parametrize('nb', NBS, ids=lambda p: p.name)
def test_notebook_names_its_kernel(nb):
    "Every chapter names its kernel, so Jupyter opens it without asking which kernel to use."
    ks = json.loads(nb.read_text())['metadata'].get('kernelspec')
    assert ks and ks.get('name') == 'python3' and ks.get('language') == 'python', f'{nb.name}: kernelspec {ks!r}'
