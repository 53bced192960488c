"""Write warning_sources_golden.json: where the warning for a 64-bit dtype asked for with x64 off is attributed
(the file its ``stacklevel`` names), recorded from the module named on the command line:

    /work/jaxpeer/bin/python packages/random/tests/golden/make_warning_sources_golden.py jax

A warning attributed to the line that made the call is recorded as ``"caller"``, one attributed inside the library
by the name of the module (jaxle's modules are named as JAX's where they play the same part: a ``dtype`` asked of
an array's ``astype`` method is attributed to ``array_methods.py``, which calls ``jnp.astype``).
"""

from __future__ import annotations

import importlib
import json
import pathlib
import sys
import warnings

import numpy as np

HERE = pathlib.Path(__file__).parent
GOLDEN = HERE / "warning_sources_golden.json"
PROBABILITIES = np.array([0.2, 0.3, 0.5], np.float32)

CASES = {
    "multinomial": lambda jax, jnp: jax.random.multinomial(jax.random.key(0), 5.0, PROBABILITIES, dtype="float64"),
    "multinomial_in_jit": lambda jax, jnp: jax.jit(lambda k: jax.random.multinomial(
        k, 5.0, PROBABILITIES, dtype="float64"))(jax.random.key(1)),
    "normal": lambda jax, jnp: jax.random.normal(jax.random.key(0), (2,), "float64"),
    "uniform": lambda jax, jnp: jax.random.uniform(jax.random.key(0), (2,), "float64"),
    "astype_method": lambda jax, jnp: jnp.ones(3).astype("float64"),
    "astype": lambda jax, jnp: jnp.astype(jnp.ones(3), "float64"),
    "zeros": lambda jax, jnp: jnp.zeros(3, "float64"),
    "ones": lambda jax, jnp: jnp.ones(3, "float64"),
    "full": lambda jax, jnp: jnp.full(3, 1, "float64"),
    "full_like": lambda jax, jnp: jnp.full_like(jnp.ones(3), 1, "float64"),
    "zeros_like": lambda jax, jnp: jnp.zeros_like(jnp.ones(3), "float64"),
    "array": lambda jax, jnp: jnp.array([1.0], "float64"),
    "asarray": lambda jax, jnp: jnp.asarray([1.0], "float64"),
}


def sources(jax, name: str) -> list[str]:
    """Where each warning of case ``name`` is attributed."""
    jnp = importlib.import_module(jax.__name__ + ".numpy")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        CASES[name](jax, jnp)
    return ["caller" if pathlib.Path(w.filename) == pathlib.Path(__file__) else pathlib.Path(w.filename).name
            for w in caught if "Explicitly requested dtype" in str(w.message)]


def record(jax) -> dict:
    return {name: sources(jax, name) for name in CASES}


if __name__ == "__main__":
    GOLDEN.write_text(json.dumps(record(importlib.import_module(sys.argv[1])), indent=1, sort_keys=True) + "\n")
