"""Golden records of make_scipy_signal_golden.py's cases (``jax.scipy.signal``, ``optimize``, ``sparse.linalg``,
``interpolate``) with 64-bit types enabled and their float32 and complex64 operands widened to float64 and
complex128 (see scipy_golden.py).

    /work/jaxpeer/bin/python packages/numpy-api/tests/golden/make_scipy_signal_x64_golden.py jax
"""

import importlib
import sys

import numpy as np
import scipy_golden
from make_scipy_signal_golden import CASES as _CASES

_WIDER = {np.dtype(np.float32): np.float64, np.dtype(np.complex64): np.complex128}


def _widen(x):
    if isinstance(x, np.ndarray) and x.dtype in _WIDER:
        return x.astype(_WIDER[x.dtype])
    return x


def _widened(build):
    def widened_build(m):
        fn, args = build(m)
        return fn, [_widen(a) for a in args]
    return widened_build


CASES = {name: _widened(build) for name, build in _CASES.items()}

if __name__ == "__main__":
    for submodule in ("signal", "optimize", "sparse.linalg", "interpolate"):
        importlib.import_module(f"{sys.argv[1]}.scipy.{submodule}")
    scipy_golden.write_x64(CASES, "scipy_signal_x64_golden.json")
