"""``jaxle.example_libraries``: stax networks and optimizers give JAX 0.10.2's shapes, parameters and numbers
(golden/example_libraries_golden.json from the shared programs of example_libraries_cases.py), and JAX's errors."""

import json
import pathlib

import numpy as np
import pytest
from example_libraries_cases import optimizer_trajectories, stax_networks

import jaxle as jax
import jaxle.numpy as jnp
from jaxle.example_libraries import optimizers, stax

GOLDEN = json.loads((pathlib.Path(__file__).parent / "golden" / "example_libraries_golden.json").read_text())


def _flat(nested) -> tuple[list[str], list[float]]:
    """The structure (as a list of markers) and the numbers of nested dicts and (ragged) lists."""
    if isinstance(nested, dict):
        parts = [_flat(nested[key]) for key in sorted(nested)]
        return [f"dict{sorted(nested)}"] + [m for p in parts for m in p[0]], [x for p in parts for x in p[1]]
    if isinstance(nested, list):
        parts = [_flat(item) for item in nested]
        return [f"list{len(nested)}"] + [m for p in parts for m in p[0]], [x for p in parts for x in p[1]]
    return [], [float(nested)]


def _assert_close(actual, expected, path=""):
    actual_structure, actual_numbers = _flat(actual)
    expected_structure, expected_numbers = _flat(expected)
    assert actual_structure == expected_structure, path
    np.testing.assert_allclose(actual_numbers, expected_numbers, rtol=2e-5, atol=2e-6, err_msg=path)


@pytest.fixture(scope="module")
def networks():
    return stax_networks(jax)


@pytest.mark.parametrize("name", sorted(GOLDEN["stax"]))
def test_stax_network_matches_jax(networks, name):
    _assert_close(networks[name], GOLDEN["stax"][name], name)


def test_optimizer_trajectories_match_jax():
    _assert_close(optimizer_trajectories(jax), GOLDEN["optimizers"])


def test_dropout_needs_a_key():
    _, apply_fun = stax.Dropout(0.5, mode="test")
    with pytest.raises(ValueError, match="Dropout layer requires apply_fun to be called with a PRNG key"):
        apply_fun((), jnp.ones(3))


def test_update_with_a_mismatched_gradient_tree():
    init_fun, update_fun, _ = optimizers.sgd(0.1)
    state = init_fun({"a": jnp.ones(2), "b": jnp.zeros(())})
    with pytest.raises(TypeError, match="did not match the parameter tree structure with which it was initialized"):
        update_fun(0, {"a": jnp.ones(2)}, state)


def test_optimizer_state_is_a_pytree_of_its_per_leaf_states():
    init_fun, _, get_params = optimizers.adam(0.1)
    state = init_fun({"a": jnp.ones(2), "b": (jnp.zeros(()),)})
    assert len(jax.tree_util.tree_leaves(state)) == 6  # params, first and second moments per leaf
    doubled = jax.tree_util.tree_map(lambda leaf: 2 * leaf, state)
    np.testing.assert_array_equal(get_params(doubled)["a"], [2.0, 2.0])


def test_schedules_and_their_errors():
    assert optimizers.make_schedule(0.1)(3) == 0.1
    np.testing.assert_allclose(optimizers.polynomial_decay(1.0, 10, 0.1)(3), 0.73, rtol=1e-6)
    np.testing.assert_allclose(optimizers.polynomial_decay(1.0, 10, 0.1)(30), 0.1, rtol=1e-6)
    assert float(optimizers.piecewise_constant([2, 4], [1.0, 0.5, 0.1])(5)) == np.float32(0.1)
    with pytest.raises(TypeError):
        optimizers.make_schedule(jnp.ones(2))
    with pytest.raises(ValueError, match="boundaries length must be one shorter than values length"):
        optimizers.piecewise_constant([1, 2], [1.0, 2.0])
    with pytest.raises(ValueError, match="boundaries and values must be sequences"):
        optimizers.piecewise_constant(1, [1.0, 2.0])


def test_pack_optimizer_state_needs_join_points():
    with pytest.raises(AssertionError):
        optimizers.pack_optimizer_state([1])
