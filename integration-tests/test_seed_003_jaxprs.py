"""Seed 003 ("Understanding Jaxprs"): every example's jaxpr, printed by ``make_jaxpr`` on ``import jaxle as jax``, is
JAX 0.10.2's text character for character, and the functions give JAX 0.10.2's values
(golden/make_seed_003_golden.py).

The page shows the jaxprs of an older JAX: untyped variables, ``xla_call`` where a nested ``jit`` now stages ``jit``,
``cond``'s ``linear`` and ``reduce_sum``'s ``input_shape`` parameters that no longer exist. The golden texts are JAX
0.10.2's; what the page explains still holds and is checked here on jaxle's jaxprs: the same jaxpr for ``func1``,
``func3`` (Python control flow inlined) and ``func4`` (a pytree argument flattened), scalar literals inline and
non-scalar constants hoisted as constvars, and the operand layout of ``cond``, ``while`` and ``scan``.

``func13`` (``pmap`` with ``lax.psum``; JAX 0.10.2 stages a ``jit`` around a ``shard_map`` where the page shows
``xla_pmap``) is checked on eight devices in multidevice-tests/test_pmap.py.
"""

import numpy as np
import pytest
import seed_golden  # on the path set by conftest.py

import jaxle as jax

SEED = "003"
EXAMPLES = seed_golden.load_generator(SEED).EXAMPLES
GOLDEN = seed_golden.load(SEED)


def test_every_example_has_a_golden_record():
    assert GOLDEN.keys() == EXAMPLES.keys()


@pytest.mark.parametrize("name", EXAMPLES)
def test_example_gives_jax_jaxpr_and_value(name):
    seed_golden.assert_matches(seed_golden.run_example(jax, EXAMPLES[name]), GOLDEN[name])


def test_tracing_inlines_python_functions_control_flow_and_pytrees():
    texts = {EXAMPLES[name](jax)[0] for name in ("func1", "func3_inlines_python_control_flow",
                                                 "func4_flattens_pytrees")}
    assert len(texts) == 1
    assert "3.0:f32[]" in texts.pop()  # the scalar literal stays inline


def test_non_scalar_constant_is_hoisted_as_a_constvar():
    text = EXAMPLES["func8_cond_with_constants"](jax)[0]
    assert text.startswith("{ lambda a:i32[1]; b:f32[] c:f32[1] d:f32[]. let")
    assert "] f a c d\n" in text  # the branch index, then the constvar and the flattened operands


def test_values_the_page_describes():
    one_of_three = EXAMPLES["one_of_three_by_switch"](jax)
    # switch clamps its index into range: 1 -> x - 2, 0 -> x + 1, 7 -> the last branch, -1 -> the first.
    np.testing.assert_array_equal([float(v) for v in one_of_three[1:]], [3.0, 6.0, 8.0, 6.0])
    np.testing.assert_array_equal([float(v) for v in EXAMPLES["func7_by_cond"](jax)[1:]], [8.0, -8.0])
    # fori_loop: carry starts at arg + 1 = 2 and gains 3 + 1 five times.
    np.testing.assert_array_equal(EXAMPLES["func10_fori_loop"](jax)[1], np.full(16, 22.0))
    carry, stacked = EXAMPLES["func11_scan"](jax)[1]
    np.testing.assert_array_equal(stacked, 6.0 * np.arange(16))
    assert float(carry) == 6.0 * 16
