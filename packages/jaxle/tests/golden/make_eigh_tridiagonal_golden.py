"""Write eigh_tridiagonal_golden.json: JAX 0.10.2's ``jax.scipy.linalg.eigh_tridiagonal`` with eigenvectors
(inverse iteration from random start vectors): jaxprs, values and errors, in float32/complex64 and, with 64-bit
types enabled, float64/complex128.

    /work/jaxpeer/bin/python packages/jaxle/tests/golden/make_eigh_tridiagonal_golden.py jax
"""

import importlib
import json
import pathlib
import sys

import numpy as np

sys.path.insert(0, str(pathlib.Path(__file__).parents[3] / "numpy-api" / "tests" / "golden"))
import jnp_golden  # noqa: E402 - found through the path set above

_RNG = np.random.default_rng(17)
DIAGONAL = _RNG.standard_normal(6)
OFF_DIAGONAL = _RNG.standard_normal(5)
# Two pairs of eigenvalues closer than sqrt(eps) times the norm: their vectors are orthonormalized together.
CLUSTERED = (np.array([2.0, 2.0, 3.0, 5.0, 5.0, 5.0]), np.array([1e-6, 0.0, 0.0, 2e-6, 0.0]))


def case(d, e, **kwargs):
    """``eigh_tridiagonal(d, e, **kwargs)`` with ``d`` and ``e`` traced; a ``key`` kwarg is made by ``make_key``."""
    def build(m):
        options = dict(kwargs)
        if "make_key" in options:
            options["key"] = options.pop("make_key")(m)
        return (lambda d, e: m.scipy.linalg.eigh_tridiagonal(d, e, **options)), [d, e]
    return build


def cases(real, complex_):
    d, e = DIAGONAL.astype(real), OFF_DIAGONAL.astype(real)
    cd, ce = CLUSTERED[0].astype(real), CLUSTERED[1].astype(real)
    return {
        "vectors": case(d, e),
        "vectors_select": case(d, e, select="i", select_range=(1, 3)),
        "vectors_key": case(d, e, make_key=lambda m: m.random.key(3)),
        "vectors_raw_key": case(d, e, make_key=lambda m: m.random.PRNGKey(5)),
        "vectors_complex": case(d.astype(complex_), (e + 1j * e[::-1]).astype(complex_)),
        "vectors_clustered": case(cd, ce),
        "vectors_clustered_complex": case(cd.astype(complex_), (1j * ce).astype(complex_)),
        "vectors_tol": case(d, e, tol=1e-2),
        "vectors_one": case(d[:1], e[:0]),
        "vectors_two": case(d[:2], e[:1]),
        "vectors_mixed": case(d, e.astype(complex_)),
        "vectors_int": case(np.arange(3), np.arange(2)),
    }


CASES = cases(np.float32, np.complex64)
X64_CASES = cases(np.float64, np.complex128)

if __name__ == "__main__":
    jax = importlib.import_module(sys.argv[1])
    importlib.import_module(f"{sys.argv[1]}.scipy.linalg")
    records = {name: jnp_golden.run_case(jax, build) for name, build in CASES.items()}
    jax.config.update("jax_enable_x64", True)
    records.update({f"x64_{name}": jnp_golden.run_case(jax, build) for name, build in X64_CASES.items()})
    path = pathlib.Path(__file__).parent / "eigh_tridiagonal_golden.json"
    path.write_text(json.dumps(records, indent=1, sort_keys=True) + "\n")
    print(f"{len(records)} cases -> {path}")
