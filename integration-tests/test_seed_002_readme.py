"""Seed 002 (JAX's README): its single-device examples run on ``import jaxle as jax`` and give JAX 0.10.2's results
(golden/make_seed_002_golden.py), and the values the README prints.

Its ``pmap`` examples (the 8-GPU matmul of random matrices, ``normalize`` with ``lax.psum`` over a pmapped axis, and
``grad`` through nested ``pmap``s) run on eight devices in multidevice-tests/test_pmap.py.
"""

import numpy as np
import pytest
import seed_golden  # on the path set by conftest.py

import jaxle as jax

SEED = "002"
EXAMPLES = seed_golden.load_generator(SEED).EXAMPLES
GOLDEN = seed_golden.load(SEED)


def test_every_example_has_a_golden_record():
    assert GOLDEN.keys() == EXAMPLES.keys()


@pytest.mark.parametrize("name", EXAMPLES)
def test_example_gives_jax_result(name):
    seed_golden.assert_matches(seed_golden.run_example(jax, EXAMPLES[name]), GOLDEN[name])


@pytest.mark.parametrize(("name", "printed"), [
    ("grad_tanh", 0.4199743),
    ("third_derivative_of_tanh", 0.62162673),
    ("grad_of_python_control_flow", (1.0, -1.0)),
])
def test_values_the_readme_prints(name, printed):
    np.testing.assert_allclose(EXAMPLES[name](jax), printed, rtol=1e-6)
