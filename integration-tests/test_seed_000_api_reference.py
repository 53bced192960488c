"""Seed 000 (JAX's API reference page of the ``jax`` package): its single-device examples run on
``import jaxle as jax`` and give JAX 0.10.2's results, jaxprs and errors (golden/make_seed_000_golden.py), and the
values the page prints where JAX 0.10.2 still prints them.

Where the page's older JAX differs from 0.10.2, the golden values rule: ``selu``'s normal draws (the page's PRNG
predates today's threefry partitioning), the jaxprs (now typed: ``a:f32[]``), the tracer printed under jit
(``JitTracer(int32[3])``) and the error messages.

Its ``pmap`` examples (maps, ``psum`` collectives, nested pmaps, ``devices=``) run on eight devices in
multidevice-tests/test_pmap.py; those of ``xla_computation``, ``device_put_replicated`` and ``device_put_sharded``
(gone from JAX 0.10.2, kept in jaxle) in multidevice-tests/test_seed_000_older_api.py.
"""

import numpy as np
import pytest
import seed_golden  # on the path set by conftest.py

import jaxle as jax

SEED = "000"
EXAMPLES = seed_golden.load_generator(SEED).EXAMPLES
GOLDEN = seed_golden.load(SEED)
JACOBIAN = [[1., 0., 0.], [0., 0., 5.], [0., 16., -2.], [1.6209, 0., 0.84147]]


def test_every_example_has_a_golden_record():
    assert GOLDEN.keys() == EXAMPLES.keys()


@pytest.mark.parametrize("name", EXAMPLES)
def test_example_gives_jax_result(name):
    seed_golden.assert_matches(seed_golden.run_example(jax, EXAMPLES[name]), GOLDEN[name])


@pytest.mark.parametrize(("name", "printed", "digits"), [
    ("value_of_sin_cos", -0.83602, 5),
    ("grad_of_tanh", 0.961043, 6),
    ("jacfwd", JACOBIAN, 4),
    ("jacrev", JACOBIAN, 4),
    ("hessian", [[6., -2.], [-2., -480.]], 6),
    ("jvp_of_sin", (0.09983342, 0.19900084), 8),
    ("linear_transpose", (0.5, -0.5), 6),
    ("checkpoint", -0.25563914, 8),
    ("vmap_over_dict_axes", [1., 2., 3., 4., 5.], 6),
])
def test_values_the_page_prints(name, printed, digits):
    np.testing.assert_allclose(EXAMPLES[name](jax), printed, rtol=0, atol=10.0 ** -digits)


def test_linearize_and_vjp_print_the_pages_values():
    (jvp_out, y, at_3, at_4) = EXAMPLES["linearize"](jax)
    np.testing.assert_allclose([*jvp_out, y, at_3, at_4], [3.26819, -5.00753, 3.2681944, -5.007528, -6.676704],
                               atol=1e-5)
    _, xbar, ybar = EXAMPLES["vjp"](jax)
    np.testing.assert_allclose([xbar, ybar], [-0.61430776, -0.2524413], atol=1e-7)


def test_hessian_of_pytrees_prints_the_pages_values():
    out = EXAMPLES["hessian_of_pytrees"](jax)["c"]
    np.testing.assert_allclose(out["a"]["a"], [[[2., 0.], [0., 0.]], [[0., 0.], [0., 12.]]])
    np.testing.assert_allclose(out["a"]["b"], [[[1., 0.], [0., 0.]], [[0., 0.], [0., 12.317766]]], atol=1e-6)
    np.testing.assert_allclose(out["b"]["a"], out["a"]["b"])
    np.testing.assert_allclose(out["b"]["b"], [[[0., 0.], [0., 0.]], [[0., 0.], [0., 3.843624]]], atol=1e-6)


def test_shapes_the_page_prints():
    assert EXAMPLES["eval_shape_of_duck_typed_arguments"](jax) == ((2000, 1000), "float32")
    assert EXAMPLES["vmap_over_tree_axes"](jax)[1] == (6, 2, 5)
    assert EXAMPLES["vectorize_shapes"](jax) == ((3,), (2, 3), (2, 2, 3), (2,), (4, 2))
    printed, jitted, eager = EXAMPLES["disable_jit_shows_concrete_values"](jax)
    assert printed.endswith("Value of y is [2 4 6]\n")
    assert jitted.tolist() == eager.tolist() == [5, 7, 9]
