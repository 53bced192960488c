"""The sharding rules of indexing, scatter, dynamic slices, padding, sorting, joining, selection, convolution,
matrix decompositions and Fourier transforms over a mesh of Explicit axes on eight CPU devices, ``.at[]`` updates
given ``out_sharding``, types whose mesh axes do not divide their dimensions, and ``vmap`` over split dimensions:
jaxprs, types, layouts and errors as JAX 0.10.2's (golden/make_sharding_rules_golden.py and
golden/make_more_sharding_rules_golden.py); values against NumPy and SciPy."""

import importlib
import json

import numpy as np
import pytest
import scipy.linalg
from conftest import golden_cases_test

import jaxle
import jaxle.numpy as jnp
from jaxle import lax
from jaxle.sharding import AxisType, NamedSharding, PartitionSpec

GEN, GOLDEN, test_matches_jax = golden_cases_test("make_sharding_rules_golden")
MORE = importlib.import_module("make_more_sharding_rules_golden")
MORE_GOLDEN = json.loads((MORE.HERE / "more_sharding_rules_golden.json").read_text())


@pytest.mark.parametrize("name", sorted(MORE.CASES))
def test_more_cases_match_jax(name):
    assert MORE.CASES[name](jaxle) == MORE_GOLDEN[name]


@pytest.fixture
def mesh():
    explicit = jaxle.make_mesh((2, 4), ("x", "y"), axis_types=(AxisType.Explicit,) * 2)
    with jaxle.set_mesh(explicit):
        yield explicit


def _put(value, *spec):
    return jaxle.device_put(value, PartitionSpec(*spec))


def _spec(x):
    return x.sharding.spec


def test_indexing_and_updates_follow_numpy(mesh):
    x = np.arange(32.0, dtype=np.float32).reshape(8, 4)
    rows = np.array([5, 0, 7])
    columns = _put(x, None, "y")
    gathered = jaxle.jit(lambda u: u[rows])(columns)
    np.testing.assert_array_equal(np.asarray(gathered), x[rows])
    assert _spec(gathered) == PartitionSpec(None, "y")
    expected = x.copy()
    np.add.at(expected, rows, np.arange(4.0, dtype=np.float32))
    added = jaxle.jit(lambda u: u.at[rows].add(jnp.arange(4.0)))(columns)
    np.testing.assert_array_equal(np.asarray(added), expected)
    assert _spec(added) == PartitionSpec(None, "y")
    picks = np.array([[3, 0, 1, 2]] * 8, np.int32)
    along = jnp.take_along_axis(_put(x, "x"), _put(picks, "x"), axis=1)
    np.testing.assert_array_equal(np.asarray(along), np.take_along_axis(x, picks, axis=1))
    assert _spec(along) == PartitionSpec("x", None)
    window = lax.dynamic_update_slice(_put(x, "x"), _put(np.zeros((2, 4), np.float32), "x"), (jnp.int32(3), 0))
    np.testing.assert_array_equal(np.asarray(window), np.concatenate([x[:3], np.zeros((2, 4)), x[5:]]))
    padded = jnp.pad(_put(x, "x", "y"), ((1, 1), (0, 0)), constant_values=-1.0)
    np.testing.assert_array_equal(np.asarray(padded), np.pad(x, ((1, 1), (0, 0)), constant_values=-1.0))
    assert _spec(padded) == PartitionSpec("x", "y")


def test_ordering_and_joining_follow_numpy(mesh):
    rng = np.random.default_rng(0)
    x = rng.standard_normal((8, 4)).astype(np.float32)
    rows = _put(x, "x")
    np.testing.assert_array_equal(np.asarray(jnp.sort(rows, axis=1)), np.sort(x, axis=1))
    order = jnp.argsort(rows, axis=1)
    np.testing.assert_array_equal(np.asarray(order), np.argsort(x, axis=1, kind="stable"))
    assert _spec(order) == PartitionSpec("x", None)
    values, indices = lax.top_k(rows, 2)
    np.testing.assert_array_equal(np.asarray(values), -np.sort(-x, axis=1)[:, :2])
    np.testing.assert_array_equal(np.asarray(indices), np.argsort(-x, axis=1, kind="stable")[:, :2])
    halves = jnp.split(rows, 2, axis=0)
    assert [_spec(h) for h in halves] == [PartitionSpec("x", None)] * 2
    np.testing.assert_array_equal(np.asarray(jnp.stack(halves, 1)), np.stack(np.split(x, 2), 1))
    clamped = lax.clamp(np.float32(-0.5), rows, np.float32(0.5))
    np.testing.assert_array_equal(np.asarray(clamped), np.clip(x, -0.5, 0.5))


def test_convolution_follows_numpy(mesh):
    rng = np.random.default_rng(1)
    images = rng.standard_normal((2, 3, 8, 8)).astype(np.float32)
    kernel = rng.standard_normal((4, 3, 1, 1)).astype(np.float32)
    out = lax.conv_general_dilated(_put(images, "x", None, "y"), kernel, (1, 1), "VALID")
    assert _spec(out) == PartitionSpec("x", None, "y", None)
    np.testing.assert_allclose(np.asarray(out), np.einsum("nchw,oc->nohw", images, kernel[:, :, 0, 0]),
                               rtol=1e-5, atol=1e-5)


def test_pooling_follows_numpy(mesh):
    images = np.random.default_rng(3).standard_normal((2, 3, 8, 8)).astype(np.float32)
    pooled = jaxle.jit(lambda u: lax.reduce_window(u, -np.inf, lax.max, (1, 1, 2, 2), (1, 1, 2, 2), "VALID"))(
        _put(images, "x", None, "y"))
    assert _spec(pooled) == PartitionSpec("x", None, "y", None)
    np.testing.assert_array_equal(np.asarray(pooled), images.reshape(2, 3, 4, 2, 4, 2).max(axis=(3, 5)))
    spread = jaxle.jit(jaxle.grad(lambda u: lax.reduce_window(u, -np.inf, lax.max, (1, 1, 2, 2), (1, 1, 2, 2),
                                                              "VALID").sum()))(_put(images, "x", None, "y"))
    assert _spec(spread) == PartitionSpec("x", None, "y", None)
    blocks = images.reshape(2, 3, 4, 2, 4, 2)
    winners = blocks == blocks.max(axis=(3, 5), keepdims=True)
    np.testing.assert_array_equal(np.asarray(spread), winners.astype(np.float32).reshape(2, 3, 8, 8))


def test_decompositions_follow_numpy(mesh):
    rng = np.random.default_rng(2)
    m = rng.standard_normal((2, 4, 4)).astype(np.float32)
    spd = m @ m.transpose(0, 2, 1) + 4 * np.eye(4, dtype=np.float32)
    batch = _put(spd, "x")
    w = np.linalg.eigvalsh(spd)
    vectors, values = jaxle.jit(lax.linalg.eigh)(batch)
    np.testing.assert_allclose(np.asarray(values), w, rtol=1e-4, atol=1e-4)
    assert _spec(vectors) == PartitionSpec("x", None, None)
    s = jaxle.jit(lambda a: lax.linalg.svd(a, compute_uv=False))(batch)
    np.testing.assert_allclose(np.asarray(s), np.linalg.svd(spd, compute_uv=False), rtol=1e-4)
    lower = np.linalg.cholesky(spd)
    solved = lax.linalg.triangular_solve(_put(lower, "x"), batch, left_side=True, lower=True)
    np.testing.assert_allclose(np.asarray(solved), np.linalg.solve(lower, spd), rtol=1e-4, atol=1e-4)
    assert _spec(solved) == PartitionSpec("x", None, None)
    rhs = rng.standard_normal((2, 4, 3)).astype(np.float32)
    x = jnp.linalg.solve(batch, _put(rhs, "x"))
    np.testing.assert_allclose(np.asarray(x), np.linalg.solve(spd, rhs), rtol=1e-4, atol=1e-4)
    assert _spec(x) == PartitionSpec("x", None, None)
    q, r = jaxle.jit(lax.linalg.qr)(_put(spd))
    np.testing.assert_allclose(np.asarray(q) @ np.asarray(r), spd, rtol=1e-4, atol=1e-4)
    spectrum = jnp.fft.rfft(_put(m.reshape(8, 4), "x"))
    np.testing.assert_allclose(np.asarray(spectrum), np.fft.rfft(m.reshape(8, 4)), rtol=1e-5, atol=1e-5)
    assert spectrum.sharding == NamedSharding(mesh, PartitionSpec("x", None))


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
