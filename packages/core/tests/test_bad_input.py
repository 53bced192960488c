"""Bad input raises JAX 0.10.2's exception type and message (golden/make_bad_input_golden.py)."""

import importlib

import numpy as np
import pytest

import jaxle_core

GEN = importlib.import_module("make_bad_input_golden")
GOLDEN = GEN.load_golden()


def test_golden_covers_every_case():
    assert set(GOLDEN) == set(GEN.CASES)
    assert len(GOLDEN) >= 120


@pytest.mark.parametrize("name", sorted(GEN.CASES))
def test_raises_like_jax(name):
    GEN.assert_matches(GEN.record_case(jaxle_core, GEN.CASES[name]), GOLDEN[name])


# JAX 0.10.2 traces these and then aborts the process inside XLA ("overflow in static extent product"), so they
# have no golden: jaxle rejects the shape while tracing, with XLA's words.
OVERFLOWING = {
    "broadcast": lambda: jaxle_core.lax.broadcast(np.float32(1), (2**62, 2**62)),
    "broadcast-under-make_jaxpr": lambda: jaxle_core.make_jaxpr(
        lambda: jaxle_core.lax.broadcast(1.0, (2**40, 2**40)))(),
    "iota": lambda: jaxle_core.lax.iota(np.int32, 2**64),
    "broadcasted_iota": lambda: jaxle_core.lax.broadcasted_iota(np.int32, (2**62, 2**62), 0),
    "reshape-with-zero": lambda: jaxle_core.lax.reshape(np.ones(0, np.float32), (2**62, 2**62, 0)),
}


@pytest.mark.parametrize("name", sorted(OVERFLOWING))
def test_overflowing_shape_is_rejected_while_tracing(name):
    with pytest.raises(ValueError, match=r"^overflow in static extent product: dimensions=\["):
        OVERFLOWING[name]()


@pytest.mark.parametrize("value", [np.datetime64("2020-01-01"), np.longdouble(1), np.str_("a")],
                         ids=["datetime64", "longdouble", "str_"])
def test_non_numeric_scalar_is_not_an_abstract_value(value):
    """JAX 0.10.2's make_jaxpr and eval_shape let a datetime64 or long double scalar through (its jit does not);
    jaxle rejects them everywhere, naming the argument."""
    message = r"Error interpreting argument to .* as an abstract array\. .* passed to the function at path x\."
    with pytest.raises(TypeError, match=message):
        jaxle_core.make_jaxpr(lambda x: x)(value)
    with pytest.raises(TypeError, match=message):
        jaxle_core.eval_shape(lambda x: x, value)
