"""Pretend this machine has many cores (tests only): `PYTHONPATH=tools/many_cores` makes `os.cpu_count()` and
`os.sched_getaffinity(0)` report `TINYTENSOR_FAKE_CORES` (default 16), so tinytensor's default thread count is that
many threads on whatever cores the machine really has. `.ci/run` runs the notebooks and the tests once this way."""
import os

_n = int(os.environ.get('TINYTENSOR_FAKE_CORES', '16'))
os.cpu_count = lambda: _n
if hasattr(os, 'sched_getaffinity'): os.sched_getaffinity = lambda pid: set(range(_n))
