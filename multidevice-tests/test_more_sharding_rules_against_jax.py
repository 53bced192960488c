"""``.at[]`` updates given ``out_sharding``, types whose mesh axes do not divide their dimensions, and the linear
algebra of batches split over a mesh axis, over a mesh of Explicit axes on eight CPU devices: jaxprs, types and
errors as JAX 0.10.2's (golden/make_more_sharding_rules_golden.py); values against NumPy and SciPy."""

import importlib
import json

import numpy as np
import pytest
import scipy.linalg

import jaxle
import jaxle.numpy as jnp
from jaxle import lax
from jaxle.sharding import AxisType, PartitionSpec

GEN = importlib.import_module("make_more_sharding_rules_golden")
GOLDEN = json.loads((GEN.HERE / "more_sharding_rules_golden.json").read_text())


@pytest.mark.parametrize("name", sorted(GEN.CASES))
def test_matches_jax(name):
    assert GEN.CASES[name](jaxle) == GOLDEN[name]


@pytest.fixture
def mesh():
    explicit = jaxle.make_mesh((2, 4), ("x", "y"), axis_types=(AxisType.Explicit,) * 2)
    with jaxle.set_mesh(explicit):
        yield explicit


def _put(value, *spec):
    return jaxle.device_put(value, PartitionSpec(*spec))


def test_divide_and_power_in_place_follow_numpy(mesh):
    x = np.arange(1.0, 33.0, dtype=np.float32).reshape(8, 4)
    rows = np.array([5, 0, 5])
    values = np.arange(1.0, 13.0, dtype=np.float32).reshape(3, 4)
    split = _put(x, "x", "y")
    divided = jaxle.jit(lambda u, v: u.at[rows].divide(v, out_sharding=PartitionSpec("x")))(split, values)
    expected = x.copy()
    np.divide.at(expected, rows, values)
    np.testing.assert_allclose(np.asarray(divided), expected, rtol=1e-6)
    # the operand's layout and the factors' (as out_sharding says) combine
    assert divided.sharding.spec == PartitionSpec("x", "y")
    powered = split.at[1:3].power(2.0, out_sharding=PartitionSpec(None, "y"))
    expected = x.copy()
    expected[1:3] **= 2
    np.testing.assert_allclose(np.asarray(powered), expected, rtol=1e-6)
    assert powered.sharding.spec == PartitionSpec("x", "y")


def test_condensed_forms_of_a_split_batch_follow_scipy(mesh):
    rng = np.random.default_rng(4)
    a = rng.standard_normal((2, 4, 4)).astype(np.float32)
    symmetric = a + a.transpose(0, 2, 1)
    factored, taus = lax.linalg.hessenberg(_put(a, "x"))
    assert factored.sharding.spec == PartitionSpec("x", None, None)
    assert taus.sharding.spec == PartitionSpec("x", None)
    factored = np.asarray(factored)
    for i in range(2):
        upper = np.triu(factored[i], -1)
        np.testing.assert_allclose(np.linalg.eigvals(upper).real.sum(), np.trace(a[i]), rtol=1e-4, atol=1e-4)
        np.testing.assert_allclose(np.abs(np.diag(upper, -1)), np.abs(np.diag(scipy.linalg.hessenberg(a[i]), -1)),
                                   rtol=1e-4, atol=1e-4)
    _, diagonal, off_diagonal, _ = jaxle.jit(lax.linalg.tridiagonal)(_put(symmetric, "x"))
    assert diagonal.sharding.spec == PartitionSpec("x", None)
    diagonal, off_diagonal = np.asarray(diagonal), np.asarray(off_diagonal)
    for i in range(2):
        tridiagonal = np.diag(diagonal[i]) + np.diag(off_diagonal[i], 1) + np.diag(off_diagonal[i], -1)
        np.testing.assert_allclose(np.linalg.eigvalsh(tridiagonal), np.linalg.eigvalsh(symmetric[i]), rtol=1e-4,
                                   atol=1e-4)


def test_vmap_over_split_dimensions_follows_numpy(mesh):
    x = np.arange(32.0, dtype=np.float32).reshape(8, 4) / 8
    rows = _put(x, "x")
    doubled = jaxle.vmap(jaxle.jit(lambda u: jnp.sin(u) * 2))(rows)
    np.testing.assert_allclose(np.asarray(doubled), np.sin(x) * 2, rtol=1e-6)
    assert doubled.sharding.spec == PartitionSpec("x", None)
    # a loop whose carry is batched from the start runs over each row's values
    totals, partials = jaxle.jit(jaxle.vmap(lambda u: lax.scan(lambda c, v: (c + v, c * v), u[0], u)))(rows)
    np.testing.assert_allclose(np.asarray(totals), x[:, 0] + x.sum(axis=1), rtol=1e-6)
    carries = x[:, :1] + np.concatenate([np.zeros((8, 1), np.float32), np.cumsum(x, axis=1)[:, :-1]], axis=1)
    np.testing.assert_allclose(np.asarray(partials), carries * x, rtol=1e-6)
    assert totals.sharding.spec == PartitionSpec("x")
    columns = jaxle.vmap(jaxle.jit(lambda u: u * 2), in_axes=1, out_axes=1)(_put(x, None, "y"))
    np.testing.assert_array_equal(np.asarray(columns), x * 2)
    assert columns.sharding.spec == PartitionSpec(None, "y")
