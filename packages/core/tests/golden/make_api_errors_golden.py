"""The exceptions JAX 0.10.2 raises for bad uses of the collectives and of the jit/vmap API, as JSON.

Usage: ``python make_api_errors_golden.py jax api_errors_golden.json`` (with JAX 0.10.2's interpreter) writes the
goldens; with ``jaxle_core`` it prints jaxle's. Cases come in sections (``SECTIONS``); each entry is
``{"type": exception class name or null, "message": str(exception), "compare": how many leading characters of
the message to compare (null: all)}``; a message whose tail names a memory address, a source line or a set's
order is compared up to it.
"""

from __future__ import annotations

import importlib
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from make_jvp_golden import write_golden  # noqa: E402

f32 = np.float32
X = np.arange(12, dtype=f32).reshape(4, 3)
INDICES = np.array([0, 1], np.int32)


def collective_cases(impl, lax):
    """``(name, thunk, marker)``: the message is compared up to ``marker`` (all of it if None)."""
    vmap, make_jaxpr = impl.vmap, impl.make_jaxpr

    def named(f):
        return vmap(f, axis_name="i")

    def env(f):
        return make_jaxpr(f, axis_env=[("i", 4)])

    def ragged(*index_operands, **kwargs):
        operands = index_operands + (INDICES,) * (4 - len(index_operands))
        return lambda v: lax.ragged_all_to_all(v[0], v[1], *operands, axis_name="i", **kwargs)

    return [
        ("axis_size_unbound", lambda: lax.axis_size("i"), None),
        ("axis_size_unnamed_vmap", lambda: vmap(lambda v: v * lax.axis_size("i"))(X), None),
        ("pbroadcast_eager", lambda: lax.pbroadcast(X, "i", 0), None),
        ("pbroadcast_staged_unbound", lambda: make_jaxpr(lambda v: lax.pbroadcast(v, "j", 2))(X), None),
        ("pbroadcast_computed_operand", lambda: named(lambda v: lax.pbroadcast(2 * v, "i", 1))(X), None),
        ("pbroadcast_staged_vmap", lambda: make_jaxpr(named(lambda v: lax.pbroadcast(v, "i", 1)))(X), None),
        ("pbroadcast_source_too_large", lambda: named(lambda v: lax.pbroadcast(v, "i", 4))(X), None),
        ("pbroadcast_source_negative", lambda: named(lambda v: lax.pbroadcast(v, "i", -1))(X), None),
        ("pshuffle_not_a_permutation", lambda: named(lambda v: lax.pshuffle(v, "i", [1, 1, 3, 0]))(X), None),
        ("pshuffle_wrong_size", lambda: named(lambda v: lax.pshuffle(v, "i", [1, 0]))(X), None),
        ("pshuffle_eager", lambda: lax.pshuffle(X, "i", [1, 0]), None),
        ("ppermute_eager", lambda: lax.ppermute(X, "i", [(0, 1)]), None),
        ("ppermute_partial_under_vmap", lambda: named(lambda v: lax.ppermute(v, "i", [(0, 1)]))(X), None),
        ("pswapaxes_size_mismatch", lambda: named(lambda v: lax.pswapaxes(v, "i", 0))(X), None),
        ("pswapaxes_axis_out_of_range", lambda: env(lambda v: lax.pswapaxes(v, "i", 2))(X), None),
        ("pswapaxes_unbound", lambda: lax.pswapaxes(X, "i", 0), None),
        ("pcast_unknown_target", lambda: lax.pcast(X, "i", to="invariant"), "values are:"),
        ("pcast_unreduced", lambda: named(lambda v: lax.pcast(v, "i", to="unreduced"))(X), None),
        ("pcast_varying_eager", lambda: lax.pcast(X, "i", to="varying"), None),
        ("pcast_varying_vmap", lambda: named(lambda v: lax.pcast(v, ("i",), to="varying"))(X), None),
        ("pcast_varying_staged", lambda: env(lambda v: lax.pcast(v, "i", to="varying"))(X), None),
        ("pcast_varying_jit_of_vmap", lambda: impl.jit(named(lambda v: lax.pcast(v, "i", to="varying")))(X), None),
        ("pcast_varying_staged_unbound", lambda: make_jaxpr(lambda v: lax.pcast(v, "j", to="varying"))(X), None),
        ("pcast_reduced_eager", lambda: lax.pcast(X, "i", to="reduced"), None),
        ("pcast_reduced_vmap", lambda: named(lambda v: lax.pcast(v, "i", to="reduced"))(X), None),
        ("pcast_reduced_staged", lambda: env(lambda v: lax.pcast(v, "i", to="reduced"))(X), None),
        ("ragged_eager", lambda: ragged()(X), None),
        ("ragged_list_operand", lambda: ragged([0, 1])(X), None),
        ("ragged_staged_unbound", lambda: make_jaxpr(ragged())(X), None),
        ("ragged_float_sizes", lambda: env(ragged(INDICES, INDICES.astype(f32)))(X), None),
        ("ragged_dtype_before_rank", lambda: env(ragged(INDICES[None], INDICES.astype(f32)))(X), None),
        ("ragged_rank", lambda: env(ragged(INDICES, INDICES, INDICES[None]))(X), None),
        ("ragged_empty", lambda: env(ragged(INDICES[:0]))(X), None),
        ("ragged_vmap", lambda: vmap(ragged(), in_axes=None, axis_size=2, axis_name="i")(X), None),
        ("ragged_vmap_other_axis", lambda: vmap(ragged(), in_axes=None, axis_size=2, axis_name="j")(X), None),
    ]


def _outcome(thunk, marker):
    try:
        thunk()
    except Exception as e:  # noqa: BLE001 - recording whatever the library raises is the point
        message = str(e)
        compare = None if marker is None else message.index(marker) + len(marker)
        return {"type": type(e).__name__, "message": message, "compare": compare}
    return {"type": None, "message": None, "compare": None}


SECTIONS = {"collectives": collective_cases}


def render(module_name: str, sections=tuple(SECTIONS)) -> dict[str, dict[str, dict]]:
    """``{section: {case: outcome}}`` for the named ``sections``."""
    impl = importlib.import_module(module_name)
    lax = importlib.import_module(f"{module_name}.lax")
    return {section: {name: _outcome(thunk, marker) for name, thunk, marker in SECTIONS[section](impl, lax)}
            for section in sections}


if __name__ == "__main__":
    write_golden(render)
