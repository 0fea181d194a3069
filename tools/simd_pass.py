"""Which of numpy's SIMD dispatch targets to turn off for CI's second pass, and a check that they are off.

numpy compiles its hot loops (exp, log, power, sin, ...) once per CPU level and picks the highest level the CPU has
when it is imported (`numpy._core._multiarray_umath.__cpu_dispatch__` lists the levels it was built with). The
environment variable NPY_DISABLE_CPU_FEATURES turns dispatch targets off, so one machine can run two kernel paths:
its best one, and the one below. `python tools/simd_pass.py` prints the targets to turn off: the highest x86 level
this CPU has (X86_V4 on an AVX-512 machine, X86_V3 on an AVX2 one) and every target numpy lists after it. Run as
`NPY_DISABLE_CPU_FEATURES="..." python -W error::ImportWarning tools/simd_pass.py --check`, it asserts that numpy
imported without a warning (a name numpy does not know only gives an ImportWarning) and that those targets are off.
"""
import os, sys

def _umath():
    import numpy
    try: from numpy._core import _multiarray_umath as m          # numpy 2
    except ImportError: from numpy.core import _multiarray_umath as m  # numpy 1
    return m

def targets_to_disable() -> list:
    "The highest x86 level present and every dispatch target after it (numpy lists them from low to high)."
    m = _umath()
    dispatch, have = list(m.__cpu_dispatch__), m.__cpu_features__
    levels = [t for t in dispatch if t.startswith('X86_V') and have.get(t)]
    if not levels:                                   # not x86: the highest target this CPU has, if any
        levels = [t for t in dispatch if have.get(t)]
    return dispatch[dispatch.index(levels[-1]):] if levels else []

def main(argv) -> int:
    if '--check' in argv:
        off = os.environ.get('NPY_DISABLE_CPU_FEATURES', '').split()
        assert off, 'NPY_DISABLE_CPU_FEATURES is not set'
        have = _umath().__cpu_features__
        still = [t for t in off if have.get(t)]
        assert not still, f'numpy still uses {still} (NPY_DISABLE_CPU_FEATURES={" ".join(off)})'
        on = [t for t in _umath().__cpu_dispatch__ if have.get(t)]
        print(f'second SIMD pass: numpy dispatch targets off: {" ".join(off)}; still on: {" ".join(on) or "none (baseline only)"}')
        return 0
    print(' '.join(targets_to_disable()))
    return 0

if __name__ == '__main__': sys.exit(main(sys.argv[1:]))
