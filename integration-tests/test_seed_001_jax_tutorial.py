"""Seed 001 (the pyprobml "Yet another JAX tutorial" notebook): its single-device examples run on ``import jaxle as
jax`` and give JAX 0.10.2's results, jaxprs and errors (golden/make_seed_001_golden.py), and the values the notebook
prints where they do not depend on its unseeded data or its older JAX.

The notebook's random numbers come from JAX 0.2.19's PRNG and its unseeded ``np.random``; JAX 0.10.2 draws other
numbers (golden): its linear regression draws weights and inputs from one key, so with JAX 0.10.2's draws the fitted
W no longer lands within 0.1 of the true one (JAX prints {'W': False, 'b': True} too). Its removed APIs
(``jax.tree_leaves``, ``jax.tree_map``, ``jax.ops.index_update``) fail as in JAX 0.10.2 and their successors
(``jax.tree.*``, ``.at[]``) run instead. Not here: ``distrax``/TFP and ``optax`` (other libraries),
``jax.tools.colab_tpu`` and the timings. Nothing in this notebook needs several devices.
"""

import numpy as np
import pytest
import seed_golden  # on the path set by conftest.py

import jaxle as jax

SEED = "001"
EXAMPLES = seed_golden.load_generator(SEED).EXAMPLES
GOLDEN = seed_golden.load(SEED)
# Their messages name a function by its address or JAX's internal classes (and jaxle has no ``jax.lib``, jaxlib's
# internals, where JAX's ``jax.lib`` lacks ``xla_bridge``); the exception types still match.
MESSAGE_NAMES_INTERNALS = {"strings_are_not_jax_types", "static_argnums_under_vmap_fails", "backend_through_jax_lib"}


def test_every_example_has_a_golden_record():
    assert GOLDEN.keys() == EXAMPLES.keys()


@pytest.mark.filterwarnings("ignore:backend and device argument on jit is deprecated")
@pytest.mark.parametrize("name", EXAMPLES)
def test_example_gives_jax_result(name):
    seed_golden.assert_matches(seed_golden.run_example(jax, EXAMPLES[name]), GOLDEN[name],
                               check_message=name not in MESSAGE_NAMES_INTERNALS)


@pytest.mark.parametrize(("name", "printed"), [
    ("derivatives_of_a_cubic", (4.0, 10.0, 6.0, 0.0)),
    ("partial_derivatives", (7.0, 4.0, 1.0)),
    ("auxiliary_return_values", (7.0, 42, 4.0)),
    ("stop_gradient_in_td_update", [-1.2, -2.4, 1.2]),
    ("fori_loop_sums", (55, 500500, 500500)),
    ("while_loop_sum", (55, 55)),
    ("diag_of_an_array", np.diag([1.0, 2.0, 3.0])),
    ("value_dependent_branch_with_static_argnums", (3, 3)),
    ("strings_work_eagerly", (43, 41)),
])
def test_values_the_notebook_prints(name, printed):
    np.testing.assert_allclose(EXAMPLES[name](jax), printed, rtol=1e-6)


def test_convolutions_print_the_notebooks_values():
    *batched, shape, transposed = EXAMPLES["convolution_batched_four_ways"](jax)
    np.testing.assert_array_equal(batched[0], [11., 20., 29.])
    for out in batched[1:]:
        np.testing.assert_array_equal(out, [[11., 20., 29.]] * 2)
    assert shape == (5, 2)
    np.testing.assert_array_equal(transposed, [[11., 11.], [20., 20.], [29., 29.]])


def test_gradient_tricks_print_the_notebooks_values():
    quantized, f, grad_f, f_ste, grad_f_ste = EXAMPLES["straight_through_estimator"](jax)
    np.testing.assert_array_equal(quantized, [0., 0., 1.])
    assert float(f) == float(f_ste) == 3.0
    np.testing.assert_array_equal(grad_f, [0., 0., 0.])
    np.testing.assert_array_equal(grad_f_ste, [1., 2., 3.])
    shape, *grads = EXAMPLES["per_example_gradients"](jax)
    assert shape == (2, 3)
    for out in grads:
        np.testing.assert_array_equal(out, [[1., 2., 3.], [2., 4., 6.]])


def test_side_effects_and_state_print_the_notebooks_values():
    assert [float(v) for v in EXAMPLES["python_map_of_shape_dependent_function"](jax)] == [4. * n for n in range(1, 10)]
    stateful, stateful_jitted, pure, pure_jitted = EXAMPLES["counters"](jax)
    assert [int(v) for v in stateful] == [int(v) for v in pure] == [int(v) for v in pure_jitted] == [0, 2, 4]
    assert [int(v) for v in stateful_jitted] == [0, 0, 0]
    printed = EXAMPLES["side_effects_run_once_under_jit"](jax).split("\n\n")
    assert printed[:2] == ["x 2\ny 4\nf 4", "call function a second time\nx 2\ny 4\nf 4"]
    assert printed[3] == "call jitted function a second time\nf 4\n"


def test_pytrees_print_the_notebooks_values():
    squares, sums, data2, joined = EXAMPLES["tree_map"](jax)
    assert squares == [1, {"k1": 4, "k2": (9, 16)}, 25]
    assert sums == [2, {"k1": 6, "k2": (12, 20)}, 30]
    assert data2 == joined == {"obs": ["a", "b", "c"], "t": [1, 2, 3], "val": [-1, -2, -3]}
    leaves, treedef, rebuilt = EXAMPLES["tree_flatten_and_unflatten"](jax)
    assert (leaves, treedef, rebuilt) == ([1, 2, 3, 4, 5], "PyTreeDef([*, {'k1': *, 'k2': (*, *)}, *])",
                                          [1, {"k1": 2, "k2": (3, 4)}, 5])


def test_jit_on_a_named_backend_warns_as_jax_does():
    with pytest.warns(DeprecationWarning, match="backend and device argument on jit is deprecated"):
        EXAMPLES["jit_on_cpu_backend"](jax)
