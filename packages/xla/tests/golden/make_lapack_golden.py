"""Write lapack_golden.json: the exact bits of every LAPACK-backed lax.linalg function compiled for CPU by the
named module, on fixed matrices:

    /work/jaxpeer/bin/python packages/xla/tests/golden/make_lapack_golden.py jax

``build(module)`` of each case returns ``(function, args)`` over ``module.lax.linalg``; the function is run under
``module.jit`` and each result recorded as dtype, shape and the hex of its bytes. ``X64_CASES`` run with 64-bit types
enabled. The test (test_lower_linalg.py) replays the cases with jaxle_core on XLA and compares the bits.
"""

from __future__ import annotations

import importlib
import json
import pathlib
import sys

import numpy as np

HERE = pathlib.Path(__file__).parent
GOLDEN = HERE / "lapack_golden.json"


def matrix(shape, dtype, seed=0, spd=False):
    """Fixed normal test data (complex with an imaginary part); ``spd`` makes each matrix Hermitian positive
    definite (``m m^H + n I``)."""
    rng = np.random.default_rng(seed)
    x = rng.standard_normal(shape)
    if np.issubdtype(np.dtype(dtype), np.complexfloating):
        x = x + 1j * rng.standard_normal(shape)
    if spd:
        x = x @ np.conj(np.swapaxes(x, -1, -2)) + shape[-1] * np.eye(shape[-1])
    return x.astype(dtype)


def _linalg(module):
    return module.lax.linalg


def _one(name, *arg_specs, **params):
    """A case calling ``lax.linalg.<name>(*args, **params)`` on matrices made from ``arg_specs``."""
    def build(module):
        fn = getattr(_linalg(module), name)
        return (lambda *args: fn(*args, **params)), tuple(matrix(*spec) if isinstance(spec, tuple) and
                                                          isinstance(spec[0], tuple) else spec for spec in arg_specs)
    return build


def _tridiagonal(n, dtype, batch=(), singular=False, **params):
    def build(module):
        d = matrix((*batch, n), dtype, 1) + 4
        if singular:
            d = np.zeros_like(d)
        dl, du = matrix((*batch, n), dtype, 2), matrix((*batch, n), dtype, 3)
        if singular:
            dl, du = np.zeros_like(dl), np.zeros_like(du)
        fn = _linalg(module).tridiagonal_solve
        return (lambda *args: fn(*args, **params)), (dl, d, du, matrix((*batch, n, 2), dtype, 4))
    return build


def _cases(dtypes):
    cases = {}
    for dtype in dtypes:
        cases.update({
            f"cholesky-{dtype}": _one("cholesky", ((5, 5), dtype, 0, True)),
            f"cholesky-batched-{dtype}": _one("cholesky", ((2, 3, 4, 4), dtype, 1, True)),
            f"cholesky-not-positive-{dtype}": _one("cholesky", ((4, 4), dtype, 2)),
            f"cholesky-lower-only-{dtype}": _one("cholesky", ((4, 4), dtype, 3, True), symmetrize_input=False),
            f"lu-{dtype}": _one("lu", ((5, 5), dtype)),
            f"lu-wide-{dtype}": _one("lu", ((3, 5), dtype, 1)),
            f"lu-tall-batched-{dtype}": _one("lu", ((2, 5, 3), dtype, 2)),
            f"qr-{dtype}": _one("qr", ((4, 4), dtype)),
            f"qr-tall-{dtype}": _one("qr", ((5, 3), dtype, 1)),
            f"qr-tall-economic-{dtype}": _one("qr", ((5, 3), dtype, 1), full_matrices=False),
            f"qr-wide-batched-{dtype}": _one("qr", ((2, 3, 5), dtype, 2)),
            f"qr-pivoting-{dtype}": _one("qr", ((5, 4), dtype, 3), pivoting=True),
            f"qr-pivoting-economic-{dtype}": _one("qr", ((5, 4), dtype, 3), pivoting=True, full_matrices=False),
            f"householder_product-{dtype}": _one("householder_product", ((5, 3), dtype, 4), ((3,), dtype, 5)),
            f"householder_product-batched-{dtype}": _one("householder_product", ((2, 4, 4), dtype, 4),
                                                         ((2, 2), dtype, 5)),
            f"ormqr-{dtype}": _one("ormqr", ((5, 3), dtype, 4), ((3,), dtype, 5), ((5, 2), dtype, 6)),
            f"ormqr-right-transpose-{dtype}": _one("ormqr", ((4, 3), dtype, 4), ((3,), dtype, 5),
                                                   ((2, 4), dtype, 6), left=False, transpose=True),
            f"triangular_solve-{dtype}": _one("triangular_solve", ((4, 4), dtype, 7), ((4, 3), dtype, 8),
                                              left_side=True, lower=True),
            f"triangular_solve-right-{dtype}": _one("triangular_solve", ((4, 4), dtype, 7), ((3, 4), dtype, 8)),
            f"triangular_solve-transpose-unit-{dtype}": _one(
                "triangular_solve", ((2, 4, 4), dtype, 7), ((2, 4, 3), dtype, 8), left_side=True, transpose_a=True,
                unit_diagonal=True),
            f"triangular_solve-conjugate-{dtype}": _one(
                "triangular_solve", ((4, 4), dtype, 7), ((4, 3), dtype, 8), left_side=True, lower=True,
                conjugate_a=True),
            f"triangular_solve-adjoint-{dtype}": _one(
                "triangular_solve", ((4, 4), dtype, 7), ((3, 4), dtype, 8), lower=True, transpose_a=True,
                conjugate_a=True),
            f"tridiagonal_solve-{dtype}": _tridiagonal(5, dtype),
            f"tridiagonal_solve-batched-{dtype}": _tridiagonal(4, dtype, (2,)),
            f"tridiagonal_solve-singular-{dtype}": _tridiagonal(4, dtype, singular=True),
            f"tridiagonal_solve-perturbed-{dtype}": _tridiagonal(4, dtype, singular=True, perturb_singular=True),
        })
    for dtype in [d for d in dtypes if d.startswith("float")]:
        cases.update({
            f"symmetric_product-{dtype}": _one("symmetric_product", ((4, 3), dtype, 9), ((4, 4), dtype, 10),
                                               alpha=0.5, beta=2.0),
            f"cholesky_update-{dtype}": _one("cholesky_update", ((4, 4), dtype, 11, True), ((4,), dtype, 12)),
        })
    cases.update({
        f"lu_pivots_to_permutation-{n}": _one("lu_pivots_to_permutation",
                                              np.array([[2, 2, 1], [4, 3, 2]], np.int32)[:n], permutation_size=5)
        for n in (1, 2)})
    cases.update({  # one matrix's pivots (swapped in place), and pivots out of range (read clamped, never written)
        "lu_pivots_to_permutation-unbatched": _one("lu_pivots_to_permutation", np.array([3, 3, 4, 4], np.int32),
                                                   permutation_size=6),
        "lu_pivots_to_permutation-out-of-range": _one("lu_pivots_to_permutation",
                                                      np.array([-9, 7, 2], np.int32), permutation_size=5),
        "lu_pivots_to_permutation-out-of-range-batch": _one("lu_pivots_to_permutation",
                                                            np.array([[7, 1, -9], [1, 9, 0]], np.int32),
                                                            permutation_size=5),
    })
    return cases


CASES = _cases(["float32", "complex64"])
CASES.update({
    "cholesky-empty": _one("cholesky", ((0, 0), "float32")),
    "cholesky-empty-batch": _one("cholesky", ((0, 3, 3), "float32")),
    "lu-no-rows": _one("lu", ((0, 3), "float32")),
    "lu-no-columns": _one("lu", ((3, 0), "float32")),
    "qr-no-columns": _one("qr", ((3, 0), "float32")),
    "qr-no-rows-economic": _one("qr", ((0, 3), "float32"), full_matrices=False),
    "triangular_solve-empty": _one("triangular_solve", ((0, 0), "float32"), ((0, 2), "float32"), left_side=True),
    "triangular_solve-float16": _one("triangular_solve", ((3, 3), "float16", 7), ((3, 2), "float16", 8),
                                     left_side=True),
})
X64_CASES = _cases(["float64", "complex128"])


def _record(x) -> dict:
    x = np.ascontiguousarray(np.asarray(x))
    return {"dtype": x.dtype.name, "shape": list(x.shape), "hex": x.tobytes().hex()}


def run_case(module, build) -> dict:
    """{'outs': [{dtype, shape, hex}...]} or {'error': type, 'message': first line}."""
    fn, args = build(module)
    try:
        outs = module.jit(fn)(*args)
    except Exception as error:  # noqa: BLE001 - the error is what we record
        return {"error": type(error).__name__, "message": str(error).split("\n")[0]}
    outs = list(outs) if isinstance(outs, (tuple, list)) else [outs]
    return {"outs": [_record(o) for o in outs]}


def x64_flag(module):
    """The context manager enabling 64-bit types: ``jax.enable_x64`` or ``jaxle_core.config.enable_x64``."""
    return module.enable_x64 if hasattr(module, "enable_x64") else module.config.enable_x64


def record(module) -> dict:
    golden = {name: run_case(module, build) for name, build in CASES.items()}
    with x64_flag(module)(True):
        golden.update({name: run_case(module, build) for name, build in X64_CASES.items()})
    return golden


if __name__ == "__main__":
    GOLDEN.write_text(json.dumps(record(importlib.import_module(sys.argv[1])), indent=1, sort_keys=True) + "\n")
