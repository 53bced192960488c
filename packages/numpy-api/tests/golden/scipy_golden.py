"""What the ``jax.scipy`` golden generators and their tests share: the ``m`` namespace with ``m.scipy``, a case's
replay and a writer that imports the named module's ``scipy.special`` and ``scipy.stats`` first.

    /work/jaxpeer/bin/python packages/numpy-api/tests/golden/make_scipy_<family>_golden.py jax
"""

from __future__ import annotations

import importlib
import sys
import types

import jnp_golden

# ``special`` functions jaxle evaluates with its own series, quadratures and recurrences (test_scipy_series.py): their
# jaxprs differ from JAX's, their values agree with JAX's to float rounding.
OWN_ALGORITHMS = tuple(f"special.{name}" for name in (
    "sici", "spence", "owens_t", "hyp2f1", "bernoulli", "sph_harm_y"))


def cases_of(names, *functions: str) -> list[str]:
    """The case names among ``names`` that call one of ``functions`` (``special.erf`` names ``special.erf``,
    ``special.erf_edges``, ``special.erf_py``, ...)."""
    return [name for name in names if any(name == f or name.startswith(f"{f}_") for f in functions)]


def jaxle_namespace() -> types.SimpleNamespace:
    """``jnp_golden.jaxle_namespace`` with jaxle_numpy's ``scipy`` beside ``numpy``."""
    import jaxle_numpy.scipy

    return types.SimpleNamespace(**vars(jnp_golden.jaxle_namespace()), scipy=jaxle_numpy.scipy)


def assert_case_matches(case, expected: dict, jaxpr_differs: bool = False) -> None:
    """One golden case run on ``jaxle_namespace`` against JAX's record, jaxprs left out where ``jaxpr_differs``."""
    actual = jnp_golden.run_case(jaxle_namespace(), case)
    if jaxpr_differs:
        actual, expected = {**actual, "jaxpr": ""}, {**expected, "jaxpr": ""}
    jnp_golden.assert_case_matches(actual, expected)


def _import_scipy() -> None:
    for submodule in ("scipy.special", "scipy.stats"):
        importlib.import_module(f"{sys.argv[1]}.{submodule}")


def write(cases: dict, filename: str) -> None:
    _import_scipy()
    jnp_golden.write(cases, filename)


def write_x64(cases: dict, filename: str) -> None:
    _import_scipy()
    jnp_golden.write_x64(cases, filename)
