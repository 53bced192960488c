"""Write sparse_lobpcg_golden.json: the eigenvalues ``jax.experimental.sparse.linalg.lobpcg_standard`` finds on
small well-conditioned problems, and its errors, replayed by test_sparse_lobpcg.py.

    /work/jaxpeer/bin/python packages/jaxle/tests/golden/make_sparse_lobpcg_golden.py jax
"""

import importlib
import pathlib
import sys

import numpy as np
from golden_writer import write_golden

F32 = np.float32


def spectrum_matrix(n: int, seed: int) -> np.ndarray:
    """A symmetric matrix with eigenvalues spread evenly over [1, 10] (well separated at the top)."""
    q = np.linalg.qr(np.random.default_rng(seed).standard_normal((n, n)))[0]
    return ((q * np.linspace(1, 10, n)) @ q.T).astype(F32)


def start_block(n: int, k: int, seed: int) -> np.ndarray:
    return np.random.default_rng(seed + 100).standard_normal((n, k)).astype(F32)


DIAGONAL = np.diag(np.arange(1.0, 21.0)).astype(F32)

# name -> (A, X, keyword arguments)
CASES = {
    "dense_20_3": lambda: (spectrum_matrix(20, 0), start_block(20, 3, 0), {}),
    "dense_30_2": lambda: (spectrum_matrix(30, 1), start_block(30, 2, 1), {}),
    "diagonal": lambda: (DIAGONAL, start_block(20, 3, 2), {}),
    "no_iterations": lambda: (DIAGONAL, np.eye(20, 3, dtype=F32), {"m": 0}),
    "empty_block": lambda: (DIAGONAL, np.ones((20, 0), F32), {}),
    "vector_block": lambda: (DIAGONAL, np.ones(20, F32), {}),
    "rank3_block": lambda: (DIAGONAL, np.ones((20, 3, 1), F32), {}),
    "block_too_wide": lambda: (DIAGONAL, np.ones((20, 4), F32), {}),
    "wrong_operator": lambda: (DIAGONAL[:5], start_block(20, 3, 0), {}),
    "dtypes_differ": lambda: (DIAGONAL, np.eye(20, 3, dtype=np.int32), {}),
}


def run_case(m, name: str) -> dict:
    """The eigenvalues found (or the error) of one case with module ``m`` as ``jax``."""
    linalg = importlib.import_module(m.__name__ + ".experimental.sparse.linalg")
    A, X, kwargs = CASES[name]()
    try:
        theta, _, _ = linalg.lobpcg_standard(A, X, **kwargs)
    except Exception as e:  # noqa: BLE001 - the error is the result recorded
        return {"error": [type(e).__name__, str(e)]}
    return {"theta": np.asarray(theta).tolist(), "dtype": str(theta.dtype)}


if __name__ == "__main__":
    module = importlib.import_module(sys.argv[1])
    golden = {name: run_case(module, name) for name in CASES}
    out = pathlib.Path(__file__).parent / "sparse_lobpcg_golden.json"
    write_golden(golden, out)
