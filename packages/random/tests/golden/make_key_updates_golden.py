"""Write key_updates_golden.json: ``.at[].apply`` on typed keys and arrays of keys filled with a value (``lax.full``,
``full_like``, ``jnp.zeros`` of a key dtype), recorded from the module named on the command line:

    /work/jaxpeer/bin/python packages/random/tests/golden/make_key_updates_golden.py jax

Each case records its key data (or, for staged ones, the jaxpr printed; for lowered ones, that lowering succeeds),
or the exception it raises: its type and the first two lines of its message (the third locates the operation
MLIR's verifier refuses: JAX's names the source line, jaxle's says ``loc(unknown)``).
"""

from __future__ import annotations

import importlib
import json
import pathlib
import sys

import numpy as np

HERE = pathlib.Path(__file__).parent
GOLDEN = HERE / "key_updates_golden.json"


def _keys(random, shape=(4,)):
    return random.split(random.key(0), shape)


APPLIED = {  # functions applied to the keys one index selects
    "identity": lambda r: lambda k: k,
    "clone": lambda r: r.clone,
    "wrap_unwrap": lambda r: lambda k: r.wrap_key_data(r.key_data(k)),
    "key_data": lambda r: r.key_data,
    "fold_in": lambda r: lambda k: r.fold_in(k, 2),
    "split": lambda r: lambda k: r.split(k)[0],
    "other_key": lambda r: lambda k: r.key(3),
    "bits": lambda r: r.bits,
}

CASES = {
    **{f"apply_{name}": lambda jax, n=name: _data(jax, _keys(jax.random).at[1].apply(APPLIED[n](jax.random)))
       for name in APPLIED},
    **{f"apply_{name}_in_jit": lambda jax, n=name: _data(jax, jax.jit(
        lambda ks: ks.at[1].apply(APPLIED[n](jax.random)))(_keys(jax.random))) for name in APPLIED},
    **{f"lower_apply_{name}": lambda jax, n=name: _lowered(
        jax, lambda ks: ks.at[1].apply(APPLIED[n](jax.random))) for name in APPLIED},
    "apply_to_a_slice": lambda jax: _data(jax, _keys(jax.random).at[1:3].apply(jax.random.clone)),
    "jaxpr_apply": lambda jax: str(jax.make_jaxpr(lambda ks: ks.at[1].apply(lambda k: k))(_keys(jax.random))),
    "jaxpr_apply_to_a_slice": lambda jax: str(jax.make_jaxpr(
        lambda ks: ks.at[1:3].apply(lambda k: jax.random.fold_in(k, 1)))(_keys(jax.random))),
    "jaxpr_apply_to_rows": lambda jax: str(jax.make_jaxpr(
        lambda ks: ks.at[1].apply(jax.random.clone))(_keys(jax.random, (4, 3)))),
    "jaxpr_apply_gathered": lambda jax: str(jax.make_jaxpr(
        lambda ks: ks.at[np.array([0, 0, 2])].apply(lambda k: k, mode="clip"))(_keys(jax.random))),
    "full": lambda jax: _data(jax, jax.lax.full((3,), 0, jax.random.key(0).dtype)),
    "full_of_ones": lambda jax: _data(jax, jax.lax.full((2,), 1, jax.random.key(0).dtype)),
    "full_like": lambda jax: _data(jax, jax.lax.full_like(jax.random.key(0), 7)),
    "full_of_a_key": lambda jax: _data(jax, jax.lax.full((2,), jax.random.key(5), jax.random.key(0).dtype)),
    "zeros": lambda jax: _data(jax, importlib.import_module(jax.__name__ + ".numpy").zeros(
        (2,), jax.random.key(0).dtype)),
    "jaxpr_full": lambda jax: str(jax.make_jaxpr(lambda: jax.lax.full((3,), 0, _key_dtype(jax)))()),
    "jaxpr_full_like": lambda jax: str(jax.make_jaxpr(lambda k: jax.lax.full_like(k, 0, shape=()))(
        jax.random.key(0))),
    "jaxpr_full_of_a_key": lambda jax: str(jax.make_jaxpr(lambda k: jax.lax.full((2,), k, k.dtype))(
        jax.random.key(0))),
    "jaxpr_full_broadcast": lambda jax: str(jax.make_jaxpr(lambda k: jax.lax.full((2,), k))(jax.random.key(0))),
}


def _key_dtype(jax):
    return jax.random.key(0).dtype


def _lowered(jax, f) -> str:
    """Whether ``jit(f).lower`` succeeds for four keys: MLIR's verifier refuses a program already when it is lowered
    (its text is not compared)."""
    jax.jit(f).lower(_keys(jax.random))
    return "lowered"


def _data(jax, keys) -> list:
    return np.asarray(jax.random.key_data(keys)).tolist()


def run(jax, name: str):
    try:
        return CASES[name](jax)
    except Exception as error:  # noqa: BLE001 - the golden records which exception a case raises
        return [type(error).__name__, str(error).splitlines()[:2]]


def record(jax) -> dict:
    return {name: run(jax, name) for name in CASES}


if __name__ == "__main__":
    GOLDEN.write_text(json.dumps(record(importlib.import_module(sys.argv[1])), indent=1, sort_keys=True) + "\n")
