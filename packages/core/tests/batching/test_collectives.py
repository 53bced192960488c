"""Named-axis collectives under ``vmap(axis_name=...)``: values against NumPy, derivatives against finite
differences and the dot-product identity, jaxprs and values against JAX 0.10.2, and JAX's errors."""

from __future__ import annotations

import json

import numpy as np
import pytest
from conftest import GOLDEN_DIR
from jvp_checks import finite_difference
from make_api_errors_golden import render as render_errors
from make_collectives_golden import render

import jaxle_core as jc
from jaxle_core import lax
from jaxle_core.batching import vmap
from jaxle_core.config import enable_x64

f32 = np.float32
RNG = np.random.default_rng(0)
X = RNG.uniform(0.5, 2.0, (4, 3)).astype(f32)
CYCLE = [(0, 1), (1, 2), (2, 3), (3, 0)]
NESTED_X = RNG.normal(size=(2, 4, 3)).astype(f32)


def named(f, name="i", **kwargs):
    return vmap(f, axis_name=name, **kwargs)


def total(v):
    return lax.reduce_sum(v, tuple(range(len(v.shape))))


# ---------------------------------------------------------------- goldens

GOLDEN = json.loads((GOLDEN_DIR / "collectives_golden.json").read_text())
MINE = render("jaxle_core")
# Values agree; the text differs where JAX lowers differently: add_any's batching (batching/ad.py) broadcasts to [1,3]
# where JAX materialises [4,3]; reduce_sum's transpose with axes=() (ad/reductions) emits a broadcast_in_dim where JAX
# passes the ct on.
TEXT_DIFFERS = {"vmap_grad_normalised", "vmap_grad_psum_scatter"}


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_matches_jax(name):
    if name not in TEXT_DIFFERS:
        assert MINE[name]["jaxpr"] == GOLDEN[name]["jaxpr"]
    if GOLDEN[name]["value"] is not None:
        np.testing.assert_allclose(np.asarray(MINE[name]["value"]), np.asarray(GOLDEN[name]["value"]), rtol=1e-5,
                                   atol=1e-6)


# ---------------------------------------------------------------- values against NumPy


@pytest.mark.parametrize("in_axes", [0, 1])
def test_normalisation_and_centering(in_axes):
    x = X if in_axes == 0 else X.T
    out = named(lambda v: v / lax.psum(v, "i"), in_axes=in_axes)(x)
    np.testing.assert_allclose(np.asarray(out), X / X.sum(0), rtol=1e-6)
    out = named(lambda v: v - lax.pmean(v, "i"), in_axes=in_axes, out_axes=1)(x)
    np.testing.assert_allclose(np.asarray(out), (X - X.mean(0)).T, rtol=1e-5, atol=1e-6)


def test_pmax_pmin_and_integer_reductions():
    np.testing.assert_array_equal(np.asarray(named(lambda v: lax.pmax(v, "i"))(X)), np.broadcast_to(X.max(0), X.shape))
    np.testing.assert_array_equal(np.asarray(named(lambda v: lax.pmin(v, "i"))(X)), np.broadcast_to(X.min(0), X.shape))
    ints = np.arange(12, dtype=np.int32).reshape(4, 3)
    summed = named(lambda v: lax.psum(v, "i"))(ints)
    assert summed.dtype == np.int32
    np.testing.assert_array_equal(np.asarray(summed), np.broadcast_to(ints.sum(0), ints.shape))
    mean = named(lambda v: lax.pmean(v, "i"))(ints)
    assert mean.dtype == np.float32
    np.testing.assert_allclose(np.asarray(mean), np.broadcast_to(ints.mean(0), ints.shape))
    counts = named(lambda v: lax.psum(v > 4, "i"))(ints)
    assert counts.dtype == np.int32
    np.testing.assert_array_equal(np.asarray(counts), np.broadcast_to((ints > 4).sum(0), ints.shape))


def test_unbatched_operands():
    y = np.ones(3, f32)
    np.testing.assert_allclose(np.asarray(named(lambda v, w: lax.psum(w, "i") + v, in_axes=(0, None))(X, y)), X + 4)
    np.testing.assert_allclose(np.asarray(named(lambda v, w: lax.pmax(w, "i") * v, in_axes=(0, None))(X, 2 * y)),
                               2 * X)
    gathered = named(lambda v, w: lax.all_gather(w, "i"), in_axes=(0, None))(X, y)
    np.testing.assert_array_equal(np.asarray(gathered), np.ones((4, 4, 3)))
    square = np.arange(4, dtype=f32)
    scattered = named(lambda v, w: lax.psum_scatter(w, "i"), in_axes=(0, None))(X, square)
    np.testing.assert_allclose(np.asarray(scattered), 4 * square)


def test_all_gather_then_sum_and_tiled():
    gathered = named(lambda v: lax.all_gather(v, "i", axis=1))(X)
    np.testing.assert_array_equal(np.asarray(gathered), np.broadcast_to(X.T, (4, 3, 4)))
    sums = named(lambda v: lax.reduce_sum(lax.all_gather(v, "i"), (0,)))(X)
    np.testing.assert_allclose(np.asarray(sums), np.broadcast_to(X.sum(0), X.shape), rtol=1e-6)
    tiled = named(lambda v: lax.all_gather(v, "i", tiled=True))(X)
    np.testing.assert_array_equal(np.asarray(tiled), np.broadcast_to(X.reshape(-1), (4, 12)))


def test_axis_index_and_ppermute_cyclic_shift():
    np.testing.assert_array_equal(np.asarray(named(lambda v: lax.axis_index("i"))(X)), np.arange(4))
    shifted = named(lambda v: lax.ppermute(v, "i", CYCLE), in_axes=1, out_axes=1)(X.T)
    np.testing.assert_array_equal(np.asarray(shifted), np.roll(X, 1, axis=0).T)
    # a member no pair sends to keeps its value (JAX's batching); a permutation of another size is refused
    repeated = named(lambda v: lax.ppermute(v, "i", [(0, 2), (3, 1), (1, 1), (2, 3)]))(X)
    np.testing.assert_array_equal(np.asarray(repeated), X[[0, 1, 0, 2]])
    with pytest.raises(AssertionError, match="Permutation doesn't match the axis size!"):
        named(lambda v: lax.ppermute(v, "i", [(0, 2), (3, 1)]))(X)


def test_all_to_all_on_a_two_dimensional_batch():
    x = RNG.normal(size=(4, 4, 3)).astype(f32)  # member k holds x[k], split along its axis 0
    out = named(lambda v: lax.all_to_all(v, "i", 0, 1))(x)
    # member j receives chunk j of every member k, stacked along the concat axis: out[j][:, k] = x[k][j]
    np.testing.assert_array_equal(np.asarray(out), np.transpose(x, (1, 2, 0)))
    tiled = named(lambda v: lax.all_to_all(v, "i", 0, 1, tiled=True))(RNG.normal(size=(4, 8, 3)).astype(f32))
    assert tiled.shape == (4, 2, 12)
    y = RNG.normal(size=(4, 8, 3)).astype(f32)
    out = np.asarray(named(lambda v: lax.all_to_all(v, "i", 0, 1, tiled=True))(y))
    expected = np.stack([np.concatenate([y[k, 2 * j:2 * j + 2] for k in range(4)], axis=1) for j in range(4)])
    np.testing.assert_array_equal(out, expected)


def test_psum_scatter():
    x = RNG.normal(size=(4, 4, 3)).astype(f32)
    out = named(lambda v: lax.psum_scatter(v, "i"))(x)
    np.testing.assert_allclose(np.asarray(out), x.sum(0), rtol=1e-5)
    y = RNG.normal(size=(4, 3, 8)).astype(f32)
    out = named(lambda v: lax.psum_scatter(v, "i", scatter_dimension=1, tiled=True))(y)
    expected = np.stack([y.sum(0)[:, 2 * j:2 * j + 2] for j in range(4)])
    np.testing.assert_allclose(np.asarray(out), expected, rtol=1e-5, atol=1e-6)


def test_nested_vmaps_and_tuples_of_names():
    x = RNG.normal(size=(2, 4, 3)).astype(f32)
    both = named(named(lambda v: lax.psum(v, ("i", "j")), "j"), "i")(x)
    np.testing.assert_allclose(np.asarray(both), np.broadcast_to(x.sum((0, 1)), x.shape), rtol=1e-5)
    outer = named(named(lambda v: lax.pmean(v, "i"), "j"), "i")(x)
    np.testing.assert_allclose(np.asarray(outer), np.broadcast_to(x.mean(0), x.shape), rtol=1e-5, atol=1e-6)
    inner = named(named(lambda v: lax.pmax(v, "j"), "j"), "i")(x)
    np.testing.assert_allclose(np.asarray(inner), np.broadcast_to(x.max(1, keepdims=True), x.shape))
    index = named(named(lambda v: lax.axis_index(("i", "j")), "j"), "i")(x)
    np.testing.assert_array_equal(np.asarray(index), np.arange(8).reshape(2, 4))
    gathered = named(named(lambda v: lax.all_gather(v, "i"), "j"), "i")(x)
    np.testing.assert_array_equal(np.asarray(gathered), np.broadcast_to(x[None], (2, 2, 4, 3)).swapaxes(1, 2))
    shifted = named(named(lambda v: lax.ppermute(v, "i", [(0, 1), (1, 0)]), "j"), "i")(x)
    np.testing.assert_array_equal(np.asarray(shifted), x[::-1])


@pytest.mark.parametrize("names", [("i", "j"), ("j", "i")])
def test_all_to_all_over_both_names_of_nested_vmaps(names):
    # Member (i, j) is number i * 4 + j over ("i", "j"), j * 2 + i over ("j", "i"); each sends chunk k of its 8
    # values to member k and receives one chunk from every member, in member order.
    x = RNG.normal(size=(2, 4, 8)).astype(f32)
    out = named(named(lambda v: lax.all_to_all(v, names, 0, 0, tiled=True), "j"), "i")(x)
    member = np.arange(8).reshape(2, 4) if names == ("i", "j") else np.arange(8).reshape(4, 2).T
    by_member = x.reshape(8, 8)[np.argsort(member.reshape(-1))]
    expected = np.stack([by_member[:, m].reshape(-1) for m in range(8)])[member]
    np.testing.assert_array_equal(np.asarray(out), expected)


def test_ppermute_over_both_names_permutes_the_outer_axis_as_jax_vmap_does():
    # JAX's vmap drops the inner mapped axis from the names: the permutation applies along "i" alone.
    x = RNG.normal(size=(2, 4, 3)).astype(f32)
    out = named(named(lambda v: lax.ppermute(v, ("i", "j"), [(0, 1), (1, 0)]), "j"), "i")(x)
    np.testing.assert_array_equal(np.asarray(out), x[::-1])


def test_collectives_over_axis_env_stage_and_abstract_evals():
    env = [("i", 4)]
    ints = np.ones((4, 3), np.int32)
    out = jc.make_jaxpr(lambda v: lax.pmean(v, "i"), axis_env=env)(ints).out_avals[0]
    assert (out.shape, out.dtype) == ((4, 3), np.float32)
    out = jc.make_jaxpr(lambda v: lax.psum(v == 1, "i"), axis_env=env)(ints).out_avals[0]
    assert out.dtype == np.int32
    closed = jc.make_jaxpr(lambda: lax.psum(lax.add(f32(1), 1.0) * 2.0, "i"), axis_env=env)()
    assert not closed.out_avals[0].weak_type
    out = jc.make_jaxpr(lambda v: lax.all_gather(v, "i", axis=1), axis_env=env)(X).out_avals[0]
    assert out.shape == (4, 4, 3)
    out = jc.make_jaxpr(lambda v: lax.psum_scatter(v, "i", tiled=True), axis_env=env)(np.ones((8, 3), f32))
    assert out.out_avals[0].shape == (2, 3)
    out = jc.make_jaxpr(lambda: lax.axis_index("i"), axis_env=env)().out_avals[0]
    assert (out.shape, out.dtype) == ((), np.int32)


# ---------------------------------------------------------------- derivatives


def test_grad_of_normalised_values_against_finite_differences():
    with enable_x64(True):
        x = RNG.uniform(0.5, 2.0, (4, 3))
        loss = lambda v: total(named(lambda u: u / lax.psum(u, "i"))(v) ** 2)  # noqa: E731
        g = np.asarray(jc.grad(loss)(x))
        s = x.sum(0)
        analytic = 2 * x / s ** 2 - 2 * (x ** 2).sum(0) / s ** 3
        np.testing.assert_allclose(g, analytic, rtol=1e-10)
        t = RNG.normal(size=x.shape)
        np.testing.assert_allclose(np.sum(g * t), finite_difference(loss, (x,), (t,)), rtol=1e-6)
        _, tangent = jc.jvp(named(lambda u: u / lax.psum(u, "i")), (x,), (t,))
        np.testing.assert_allclose(np.asarray(tangent),
                                   finite_difference(named(lambda u: u / lax.psum(u, "i")), (x,), (t,)), rtol=1e-6)


def test_vmap_of_grad_transposes_psum_to_psum():
    # As in JAX, the cotangent of a psum is psummed: each member's loss counts once per member.
    x = X[:, 0]
    g = named(jc.grad(lambda v: lax.psum(v ** 2, "i")))(x)
    np.testing.assert_allclose(np.asarray(g), 2 * 4 * x, rtol=1e-6)
    g = named(jc.grad(lambda v: lax.pmean(v, "i") ** 2))(x)
    np.testing.assert_allclose(np.asarray(g), np.full(4, 2 * x.mean()), rtol=1e-6)


LINEAR = {
    "psum": lambda v: lax.psum(v, "i"),
    "pmean": lambda v: lax.pmean(v, "i"),
    "all_gather": lambda v: lax.all_gather(v, "i", axis=1),
    "all_gather_tiled": lambda v: lax.all_gather(v, "i", tiled=True),
    "psum_scatter": lambda v: lax.psum_scatter(v, "i"),
    "psum_scatter_tiled": lambda v: lax.psum_scatter(v, "i", tiled=True),
    "all_to_all": lambda v: lax.all_to_all(v, "i", 0, 1),
    "ppermute": lambda v: lax.ppermute(v, "i", CYCLE),
    "ppermute_reversed": lambda v: lax.ppermute(v, "i", [(0, 3), (1, 2), (2, 1), (3, 0)]),
    "pshuffle": lambda v: lax.pshuffle(v, "i", [2, 0, 3, 1]),
    "pswapaxes": lambda v: lax.pswapaxes(v, "i", 0),
}


@pytest.mark.parametrize("name", sorted(LINEAR))
def test_transposes_satisfy_the_dot_product_identity(name):
    f = LINEAR[name]
    x = RNG.normal(size=(4, 4, 2)).astype(f32)
    t = RNG.normal(size=x.shape).astype(f32)
    out_shape = named(f)(x).shape
    ct = RNG.normal(size=out_shape).astype(f32)
    # the transpose inside the vmap (the linear jaxpr holds the collective over 'i')
    pulled = named(lambda v, c: jc.vjp(f, v)[1](c)[0])(x, ct)
    # and outside it (the linear jaxpr holds the batched form)
    pulled_outside = jc.vjp(named(f), x)[1](ct)[0]
    forward = np.asarray(named(f)(t))
    for p in (pulled, pulled_outside):
        np.testing.assert_allclose(np.sum(ct * forward), np.sum(np.asarray(p) * t), rtol=1e-4)
    _, tangent = jc.jvp(named(f), (x,), (t,))
    np.testing.assert_allclose(np.asarray(tangent), forward, rtol=1e-6)


def test_pmax_has_no_derivative_and_axis_index_no_tangent():
    with pytest.raises(NotImplementedError, match="Differentiation rule for 'pmax' not implemented"):
        jc.grad(lambda v: total(named(lambda u: lax.pmax(u, "i"))(v)))(X)
    g = jc.grad(lambda v: total(named(lambda u: u * lax.axis_index("i"))(v)))(X)
    np.testing.assert_array_equal(np.asarray(g), np.broadcast_to(np.arange(4, dtype=f32)[:, None], X.shape))


# ---------------------------------------------------------------- errors


def test_unbound_axis_names_raise_name_error():
    message = "Found an unbound axis name: k. To fix this, please call psum under `jax.shard_map`."
    with pytest.raises(NameError, match=message.replace(".", r"\.").replace("`", ".")):
        named(lambda v: lax.psum(v, "k"))(X)
    with pytest.raises(NameError, match="please call psum under"):
        jc.make_jaxpr(lambda v: lax.pmax(v, "k"), axis_env=[("i", 4)])(X)
    with pytest.raises(NameError, match="please call axis_index under"):
        jc.make_jaxpr(lambda: lax.axis_index("k"))()
    with pytest.raises(NameError, match="please call ppermute under"):
        named(lambda v: lax.ppermute(v, "k", CYCLE))(X)
    for f in (lambda v: lax.all_gather(v, "k"), lambda v: lax.psum_scatter(v, "k"),
              lambda v: lax.all_to_all(v, "k", 0, 0)):
        with pytest.raises(NameError, match="^unbound axis name: k$"):
            named(f)(X)
    with pytest.raises(NameError, match="unbound axis name: i"):
        lax.psum(lax.add(X, X), "i")


def test_invalid_uses_raise_like_jax():
    with pytest.raises(NotImplementedError, match="axis_index_groups not supported in vmap collectives"):
        named(lambda v: lax.psum(v, "i", axis_index_groups=[[0, 1], [2, 3]]))(X)
    with pytest.raises(ValueError, match="to equal x.shape\\[split_axis\\], but they are 4 and 3 respectively"):
        named(lambda v: lax.all_to_all(v, "i", 0, 0))(X)
    with pytest.raises(ValueError, match="has to be divisible by the size of the named axis i"):
        named(lambda v: lax.all_to_all(v, "i", 0, 0, tiled=True))(X)
    with pytest.raises(ValueError, match="scatter dimension size 3 must match shard count 4"):
        jc.make_jaxpr(lambda v: lax.psum_scatter(v, "i", scatter_dimension=1), axis_env=[("i", 4)])(X)
    with pytest.raises(ValueError, match="axis 3 is out of bounds for array of dimension 3"):
        named(lambda v: lax.all_gather(v, "i", axis=3), in_axes=0)(np.ones((4, 2, 2), f32))


def test_collectives_inside_jit_inside_vmap():
    f = named(jc.jit(lambda v: v / lax.psum(v, "i")))
    np.testing.assert_allclose(np.asarray(f(X)), X / X.sum(0), rtol=1e-6)
    eqn = jc.make_jaxpr(f)(X).jaxpr.eqns[0]
    inner = eqn.params["jaxpr"].jaxpr.eqns[0]
    assert (eqn.primitive.name, inner.primitive.name, inner.params["axes"]) == ("jit", "psum", (0,))
    x = RNG.normal(size=(2, 4, 3)).astype(f32)
    both = named(named(jc.jit(lambda v: lax.psum(v, ("i", "j"))), "j"))(x)
    np.testing.assert_allclose(np.asarray(both), np.broadcast_to(x.sum((0, 1)), x.shape), rtol=1e-5)
    g = jc.grad(lambda v: total(f(v) ** 2))(X)
    s = X.sum(0)
    np.testing.assert_allclose(np.asarray(g), 2 * X / s ** 2 - 2 * (X ** 2).sum(0) / s ** 3, rtol=1e-4, atol=1e-6)


@pytest.mark.parametrize("body", ["jit", "cond", "while", "scan", "checkpoint"])
def test_collectives_in_bodies_whose_operands_are_not_batched(body):
    # The body's operand y is the same for every member, so psum(y, "i") is 3 * y (JAX gives the same).
    bodies = {
        "jit": lambda y: jc.jit(lambda v: lax.psum(v, "i"))(y),
        "cond": lambda y: lax.cond(y > 0, lambda v: lax.psum(v, "i"), lambda v: v, y),
        "while": lambda y: lax.while_loop(lambda c: c < 10.0, lambda c: c + lax.psum(c, "i"), y),
        "scan": lambda y: lax.scan(lambda c, _: (c + lax.psum(c, "i"), None), y, None, length=2)[0],
        "checkpoint": lambda y: jc.checkpoint(lambda v: lax.psum(v, "i") * v)(y),
    }
    expected = {"jit": 6.0, "cond": 6.0, "while": 32.0, "scan": 32.0, "checkpoint": 12.0}[body]
    out = jc.vmap(lambda x, y: x * bodies[body](y), in_axes=(0, None), axis_name="i")(np.arange(3.0, dtype=f32),
                                                                                      f32(2.0))
    np.testing.assert_allclose(np.asarray(out), np.arange(3.0) * expected)


# ---------------------------------------------------------------- axis_size, pbroadcast, pshuffle, pswapaxes


def test_axis_size_is_a_python_int():
    sizes = []
    named(named(lambda v: sizes.append((lax.axis_size("i"), lax.axis_size(("i", "j")))) or v, "j"))(NESTED_X)
    assert sizes == [(2, 8)] and all(type(s) is int for s in sizes[0])


def test_pbroadcast_replicates_the_source_member():
    # vmapped NumPy arguments are broadcast (JAX's rule indexes them with a list; see the error test below)
    np.testing.assert_array_equal(np.asarray(named(lambda v: lax.pbroadcast(v, "i", 2))(X)), X[[2, 2, 2, 2]])
    np.testing.assert_array_equal(np.asarray(named(lambda v: lax.pbroadcast(v, ("i",), 1), in_axes=1)(X.T)),
                                  X[[1, 1, 1, 1]])
    both = named(named(lambda v: lax.pbroadcast(v, "i", 1), "j"), "i")(NESTED_X)
    np.testing.assert_array_equal(np.asarray(both), NESTED_X[[1, 1]])
    unbatched = named(lambda v, w: lax.pbroadcast(w, "i", 3), in_axes=(0, None))(X, X[0])
    np.testing.assert_array_equal(np.asarray(unbatched), X[[0, 0, 0, 0]])


def test_pshuffle_receives_from_the_listed_member():
    perm = [2, 0, 3, 1]
    out = named(lambda v: lax.pshuffle((v, 2 * v), "i", perm))(X)
    np.testing.assert_array_equal(np.asarray(out[0]), X[perm])
    np.testing.assert_array_equal(np.asarray(out[1]), 2 * X[perm])


def test_pswapaxes_swaps_the_named_and_positional_axes():
    x = RNG.normal(size=(4, 3, 4)).astype(f32)  # member k holds x[k]; its axis 1 has the axis size
    out = named(lambda v: lax.pswapaxes(v, "i", 1))(x)
    np.testing.assert_array_equal(np.asarray(out), np.swapaxes(x, 0, 2))
    negative = named(lambda v: lax.pswapaxes(v, "i", -1))(x)
    np.testing.assert_array_equal(np.asarray(negative), np.swapaxes(x, 0, 2))


def test_pcast_without_axes_is_the_identity():
    assert lax.pcast(X, (), to="varying") is X
    assert named(lambda v: lax.pcast(v, (), to="reduced"))(X) is X


# ---------------------------------------------------------------- JAX's errors, recorded (make_api_errors_golden.py)

ERRORS = json.loads((GOLDEN_DIR / "api_errors_golden.json").read_text())["collectives"]
MY_ERRORS = render_errors("jaxle_core", ["collectives"])["collectives"]


@pytest.mark.parametrize("name", sorted(ERRORS))
def test_errors_match_jax(name):
    expected, actual = ERRORS[name], MY_ERRORS[name]
    assert actual["type"] == expected["type"], actual["message"]
    assert actual["message"][:expected["compare"]] == expected["message"][:expected["compare"]]
