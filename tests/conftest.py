import gc
import pytest

@pytest.fixture(autouse=True)
def _collect():
    "Run each test from a clean slate, so allocator statistics are comparable."
    gc.collect()
    yield
