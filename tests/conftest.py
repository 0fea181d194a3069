"Shared pytest set-up: a clean-slate fixture for allocator statistics, and a loud note (a failure under CI) when torch is missing."
import gc, importlib.util, os, re
import pytest

@pytest.fixture
def clean_slate():
    "Collect garbage first, so allocator statistics start from what is really alive (request it where statistics are compared)."
    gc.collect()
    yield

# Note [torch comparisons]: most test files compare tinytensor with torch and skip as a whole (`importorskip`) when torch
# is missing. A skipped comparison is not a passed one: say so at the end of every run, and fail the run under CI.
_TORCH_HINT = "pip install torch==2.13.0"
_torch_skips = []


@pytest.fixture(params=['standin', pytest.param('cupy', marks=pytest.mark.cuda)])
def cuda(request):
    "Each CUDA test twice: on the strict CuPy stand-in (every machine), and on a GPU with CuPy under `-m cuda`."
    import gc, cuda_standin
    if request.param == 'standin':
        state = cuda_standin.install(1)
        try: yield
        finally:
            gc.collect()
            cuda_standin.uninstall(state)
    else:
        if not cuda_standin.cupy_ok(): pytest.skip('needs CuPy and an NVIDIA GPU')
        yield


def _is_torch_skip(report) -> bool:
    if not report.skipped: return False
    lr = report.longrepr
    msg = lr[2] if isinstance(lr, tuple) and len(lr) == 3 else str(lr)
    return "could not import 'torch'" in msg

def pytest_collectreport(report):
    if _is_torch_skip(report): _torch_skips.append(report.nodeid)

def pytest_runtest_logreport(report):
    if _is_torch_skip(report): _torch_skips.append(report.nodeid)

def pytest_report_header(config):
    if importlib.util.find_spec('torch') is None: return f"torch: not installed, comparison tests will be skipped ({_TORCH_HINT})"

def pytest_terminal_summary(terminalreporter, exitstatus, config):
    if _torch_skips:
        terminalreporter.write_line(f"torch comparison tests SKIPPED ({len(_torch_skips)} files or tests): torch is not installed; "
                                    f"enable them with `{_TORCH_HINT}`" + (" -- failing because CI is set" if os.environ.get('CI') else ""),
                                    yellow=True, bold=True)

def pytest_sessionfinish(session, exitstatus):
    if _torch_skips and os.environ.get('CI') and exitstatus == pytest.ExitCode.OK:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED

# Note [deterministic test ids]: `pytest -n auto` (pytest-xdist) collects the tests once in every worker and refuses to
# run when the lists differ. An id built from an object's default repr carries its address (`<object object at 0x..>`),
# which differs from process to process: refuse such ids at collection, on one process as on many.
_ADDRESS = re.compile(r' at 0x[0-9a-fA-F]+')

def pytest_collection_modifyitems(config, items):
    bad = [it.nodeid for it in items if _ADDRESS.search(it.nodeid)]
    if bad: raise pytest.UsageError("test ids must not depend on the process (an address in the id): " + ", ".join(bad[:5]))
