"""Bad uses of jit and vmap (arguments of compiled functions, static and donated arguments, axis specifications,
non-array results), of the differentiation API (argnums, inputs, outputs, tangents, custom rules) and fori_loop's
bounds raise JAX 0.10.2's exceptions; the uses JAX accepts give its values.
Recorded from JAX by golden/make_api_errors_golden.py."""

from __future__ import annotations

import json

import numpy as np
import pytest
from conftest import GOLDEN_DIR
from make_api_errors_golden import render

import jaxle_core as jc
from jaxle_core import lax

RECORDED = json.loads((GOLDEN_DIR / "api_errors_golden.json").read_text())
MINE = render("jaxle_core", ["api", "autodiff"])


@pytest.mark.parametrize("section, name", [(s, n) for s in ("api", "autodiff") for n in sorted(RECORDED[s])])
def test_matches_jax(section, name):
    expected, actual = RECORDED[section][name], MINE[section][name]
    assert actual["type"] == expected["type"], actual["message"]
    if expected["type"] is not None:
        assert actual["message"][:expected["compare"]] == expected["message"][:expected["compare"]]
    elif expected["value"] is not None:
        np.testing.assert_allclose(np.asarray(actual["value"]), np.asarray(expected["value"]))


def test_compiled_functions_take_dynamic_arguments_only():
    compiled = jc.jit(lambda a, n, *, k: a * n + k, static_argnums=1, static_argnames="k").lower(
        np.ones(2, np.float32), 3, k=1).compile()
    np.testing.assert_array_equal(np.asarray(compiled(np.arange(2, dtype=np.float32))), [1, 4])


def test_a_static_argument_compared_equal_reuses_the_trace():
    class Key:
        def __init__(self, value):
            self.value = value

        def __eq__(self, other):
            return self.value == other.value

        def __hash__(self):
            return 0

    f = jc.jit(lambda a, k: a * k.value, static_argnums=1)
    for value in (2, 2, 3):
        np.testing.assert_array_equal(np.asarray(f(np.ones(2, np.float32), Key(value))), [value] * 2)
    assert f.trace_count == 2


def test_fori_loop_counter_types():
    # static bounds count with a weakly typed int32, traced ones with the bounds' type
    assert jc.eval_shape(lambda: lax.fori_loop(np.int16(0), 3, lambda i, c: c + i, 0)).weak_type
    out = jc.eval_shape(lambda n: lax.fori_loop(0, n, lambda i, c: c + i, 0), np.int16(3))
    assert (out.dtype, out.weak_type) == (np.dtype(np.int16), False)
    np.testing.assert_allclose(np.asarray(jc.jit(lambda n: lax.fori_loop(0.5, n, lambda i, c: c + i, 0.0))(3.0)),
                               0.5 + 1.5 + 2.5)
