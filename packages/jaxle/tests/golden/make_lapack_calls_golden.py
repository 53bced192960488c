"""Write lapack_calls_golden.json: the LAPACK (and other jaxlib kernel) custom calls of JAX 0.10.2's lowered
StableHLO text of each linear-algebra function, for each element type and for no, one and two batch dimensions:

    /work/jaxpeer/bin/python packages/jaxle/tests/golden/make_lapack_calls_golden.py jax

Each case records the ``stablehlo.custom_call`` lines of ``jax.jit(f).lower(*args).as_text()`` by the function of
the module holding them, in order, with the names of values left out (``%4:2 = ...(%3)`` becomes ``% = ...(%)``):
the attributes (options, layouts, aliases, ``num_batch_dims``, Shardy's sharding rule) and the types are what is
compared, not the order in which the module lists its functions.
"""

import importlib
import pathlib
import re
import sys

import numpy as np
from golden_writer import write_golden

HERE = pathlib.Path(__file__).parent
DTYPES = ("float32", "float64", "complex64", "complex128")
BATCHES = {0: (), 1: (5,), 2: (5, 4)}


def _functions(m):
    """Each case's function and the shapes of its arguments after the batch dimensions."""
    lax, jnp, scipy = m.lax.linalg, m.numpy.linalg, m.scipy.linalg
    return {
        "cholesky": (jnp.cholesky, [(3, 3)]),
        "eigh": (jnp.eigh, [(3, 3)]),
        "eigvalsh": (jnp.eigvalsh, [(3, 3)]),
        "eig": (jnp.eig, [(3, 3)]),
        "eigvals": (jnp.eigvals, [(3, 3)]),
        # more factors in the sharding rule than letters from i to z (z_1, z_2, ... follow)
        "eig_nine_more_batch_dimensions": (jnp.eig, [(1,) * 9 + (2, 2)]),
        "svd": (jnp.svd, [(4, 3)]),
        "svd_reduced": (lambda x: jnp.svd(x, full_matrices=False), [(3, 4)]),
        "svd_values": (lambda x: jnp.svd(x, compute_uv=False), [(4, 3)]),
        "svd_qr_algorithm": (lambda x: lax.svd(x, algorithm=lax.SvdAlgorithm.QR), [(4, 3)]),
        "qr": (jnp.qr, [(4, 3)]),
        "qr_complete": (lambda x: jnp.qr(x, mode="complete"), [(3, 4)]),
        "qr_pivoting": (lambda x: scipy.qr(x, pivoting=True), [(4, 3)]),
        "householder_product": (lax.householder_product, [(4, 3), (3,)]),
        "lu": (lax.lu, [(4, 3)]),
        "inv": (jnp.inv, [(3, 3)]),
        "solve": (jnp.solve, [(3, 3), (3, 2)]),
        "slogdet": (jnp.slogdet, [(3, 3)]),
        "solve_triangular": (lambda a, b: scipy.solve_triangular(a, b, lower=True), [(3, 3), (3, 2)]),
        "triangular_solve_right": (lambda a, b: lax.triangular_solve(a, b, left_side=False), [(3, 3), (2, 3)]),
        "schur": (scipy.schur, [(3, 3)]),
        "hessenberg": (scipy.hessenberg, [(4, 4)]),
        "tridiagonal": (lax.tridiagonal, [(3, 3)]),
        "tridiagonal_solve": (lax.tridiagonal_solve, [(4,), (4,), (4,), (4, 2)]),
        "tridiagonal_solve_perturbed": (lambda *a: lax.tridiagonal_solve(*a, perturb_singular=True),
                                        [(4,), (4,), (4,), (4, 2)]),
    }


def _custom_calls(text):
    calls, function = {}, None
    for line in text.splitlines():
        declared = re.search(r"func\.func \w+ @(\w+)", line)
        function = declared.group(1) if declared else function
        if "stablehlo.custom_call" in line:
            calls.setdefault(function, []).append(re.sub(r"%[\w#:]+", "%", line.strip()))
    return calls


def _arguments(shapes, batch, dtype):
    rng = np.random.default_rng(0)
    return [rng.standard_normal(batch + shape).astype(dtype) for shape in shapes]


def custom_calls(m, case):
    """The custom-call lines of ``case`` (``"function/dtype/batch rank"``) with ``m`` as jax."""
    name, dtype, rank = case.split("/")
    f, shapes = _functions(m)[name]
    with m.enable_x64(True):
        return _custom_calls(m.jit(f).lower(*_arguments(shapes, BATCHES[int(rank)], dtype)).as_text())


def record(m):
    """Every case's custom-call lines with ``m`` as jax."""
    return {case: custom_calls(m, case) for case in
            (f"{name}/{dtype}/{rank}" for name in _functions(m) for dtype in DTYPES for rank in BATCHES)}


if __name__ == "__main__":
    module = importlib.import_module(sys.argv[1])
    write_golden(record(module), HERE / "lapack_calls_golden.json")
