"""``checkpoint``/``remat``: the jaxprs of its derivatives against JAX 0.10.2, and gradient values."""

from __future__ import annotations

import functools
import json
import pathlib
import sys

import numpy as np
import pytest
from jvp_checks import finite_difference, x64_everywhere  # noqa: F401

import jaxle_core as jc
from jaxle_core import lax
from jaxle_core.checkpoint import checkpoint, checkpoint_name, checkpoint_p, checkpoint_policies, name_p, remat
from jaxle_core.jaxpr_util import dce_jaxpr

GOLDEN_DIR = pathlib.Path(__file__).parents[1] / "golden"
sys.path.insert(0, str(GOLDEN_DIR))
from make_checkpoint_golden import mlp, render  # noqa: E402

GOLDEN = json.loads((GOLDEN_DIR / "checkpoint_golden.json").read_text())
CP = checkpoint_policies
POLICIES = {"default": None, "nothing": CP.nothing_saveable, "everything": CP.everything_saveable,
            "dots": CP.dots_saveable, "checkpoint_dots": CP.checkpoint_dots,
            "dots_no_batch": CP.dots_with_no_batch_dims_saveable,
            "checkpoint_dots_no_batch": CP.checkpoint_dots_with_no_batch_dims,
            "only_names": CP.save_only_these_names("act0", "dot1"), "but_names": CP.save_any_names_but_these("act1"),
            "except_names": CP.save_anything_except_these_names("dot0"),
            "both": CP.save_from_both_policies(CP.dots_saveable, CP.save_only_these_names("act1"))}


@pytest.fixture(scope="module")
def rendered():
    with jc.config.enable_x64(False):
        return render("jaxle_core")


@pytest.mark.parametrize("case", sorted(GOLDEN))
def test_jaxpr_text_matches_jax(rendered, case):
    assert rendered[case] == GOLDEN[case]


def net(w1, w2, x):
    return mlp(lax, checkpoint_name, (w1, w2), x)


def mlp_args():
    rng = np.random.default_rng(0)
    return rng.standard_normal((3, 4)), rng.standard_normal((4, 2)), rng.standard_normal((5, 3))


@pytest.mark.parametrize("key", sorted(POLICIES))
def test_mlp_gradients_equal_plain_gradients(key):
    policy = POLICIES[key]
    args = mlp_args()
    expected = jc.grad(net, argnums=(0, 1, 2))(*args)
    got = jc.grad(checkpoint(net, policy=policy), argnums=(0, 1, 2))(*args)
    for e, g in zip(expected, got):
        np.testing.assert_allclose(np.asarray(g), np.asarray(e), rtol=1e-12)
    direction = [np.ones_like(a) for a in args]
    along = sum(np.vdot(np.asarray(g), d) for g, d in zip(got, direction))
    np.testing.assert_allclose(along, finite_difference(net, args, direction), rtol=1e-6)


def test_seed_docstring_example():
    @checkpoint
    def g(x):
        return lax.sin(lax.sin(x))

    with jc.config.enable_x64(False):
        value = jc.grad(g)(2.0)
    assert np.asarray(value).dtype == np.float32
    np.testing.assert_allclose(np.asarray(value), np.float32(-0.25563914), rtol=1e-6)
    np.testing.assert_allclose(np.asarray(value), np.cos(np.sin(2.0)) * np.cos(2.0), rtol=1e-6)


def recursive_checkpoint(funs):
    """The seed documentation's nesting of checkpoints over a list of functions."""
    if len(funs) == 1:
        return funs[0]
    if len(funs) == 2:
        f1, f2 = funs
        return lambda x: f1(f2(x))
    f1 = recursive_checkpoint(funs[:len(funs) // 2])
    f2 = recursive_checkpoint(funs[len(funs) // 2:])
    return lambda x: f1(checkpoint(f2)(x))


def test_seed_recursive_checkpoint():
    funs = [lax.sin, lax.cos, lax.tanh, lax.exp, lax.sin, lax.logistic, lax.cos]
    plain = lambda x: functools.reduce(lambda acc, f: f(acc), reversed(funs), x)  # funs[0] outermost
    nested = recursive_checkpoint(funs)
    x = 0.7
    np.testing.assert_allclose(np.asarray(nested(x)), np.asarray(plain(x)), rtol=1e-14)
    np.testing.assert_allclose(np.asarray(jc.grad(nested)(x)), np.asarray(jc.grad(plain)(x)), rtol=1e-12)
    np.testing.assert_allclose(np.asarray(jc.grad(nested)(x)), finite_difference(plain, [x], [1.0]), rtol=1e-7)
    text = str(jc.make_jaxpr(nested)(x))
    assert text.count("remat2[") == 3 and "differentiated=False" in text


def sin_sin(x):
    return lax.sin(lax.sin(x))


def test_evaluation_runs_the_inner_jaxpr():
    x = np.linspace(-2, 2, 5)
    np.testing.assert_allclose(np.asarray(checkpoint(sin_sin)(x)), np.sin(np.sin(x)), rtol=1e-15)
    pair = checkpoint(lambda d: {"s": lax.sin(d["a"]), "c": lax.cos(d["b"])})({"a": x, "b": 2 * x})
    np.testing.assert_allclose(np.asarray(pair["c"]), np.cos(2 * x), rtol=1e-15)


def test_jvp_keeps_the_boundary_and_is_correct():
    x, t = 0.3, 1.7
    value, tangent = jc.jvp(checkpoint(sin_sin), (x,), (t,))
    np.testing.assert_allclose(np.asarray(tangent), np.cos(np.sin(x)) * np.cos(x) * t, rtol=1e-14)
    eqns = jc.make_jaxpr(lambda a: jc.jvp(checkpoint(sin_sin), (a,), (a,)))(x).jaxpr.eqns
    assert [e.primitive for e in eqns] == [checkpoint_p] and not eqns[0].params["differentiated"]


def test_grad_of_grad_and_jit():
    x = 0.9
    second = -np.sin(np.sin(x)) * np.cos(x) ** 2 - np.cos(np.sin(x)) * np.sin(x)
    np.testing.assert_allclose(np.asarray(jc.grad(jc.grad(checkpoint(sin_sin)))(x)), second, rtol=1e-12)
    np.testing.assert_allclose(np.asarray(jc.jit(jc.grad(checkpoint(sin_sin)))(x)),
                               np.cos(np.sin(x)) * np.cos(x), rtol=1e-14)
    np.testing.assert_allclose(np.asarray(jc.grad(checkpoint(jc.jit(sin_sin)))(x)),
                               np.cos(np.sin(x)) * np.cos(x), rtol=1e-14)


def test_jit_inside_checkpoint_with_policy():
    f = checkpoint(lambda w, x: lax.reduce_sum(jc.jit(lambda a, b: lax.tanh(a @ b))(x, w), (0, 1)),
                   policy=CP.dots_saveable)
    w, x = np.full((3, 2), 0.3), np.linspace(0, 1, 12).reshape(4, 3)
    expected = np.ones((4, 2)) * (1 - np.tanh(x @ w) ** 2)
    np.testing.assert_allclose(np.asarray(jc.grad(f)(w, x)), x.T @ expected, rtol=1e-12)


def test_static_argnums_and_names():
    f = checkpoint(lambda x, n: lax.integer_pow(lax.sin(x), n), static_argnums=(1,))
    np.testing.assert_allclose(np.asarray(jc.grad(f)(0.4, 3)), 3 * np.sin(0.4) ** 2 * np.cos(0.4), rtol=1e-13)
    g = checkpoint(lambda x, *, n: lax.integer_pow(x, n), static_argnames="n")
    np.testing.assert_allclose(np.asarray(jc.grad(g)(0.4, n=4)), 4 * 0.4 ** 3, rtol=1e-13)
    r = remat(lambda x, n: x * n, static_argnums=1)
    assert "mul" in str(jc.make_jaxpr(lambda x: r(x, 2.5))(1.0))
    with pytest.raises(ValueError, match="static_argnums"):
        f(0.4)


def test_prevent_cse_and_policy_params():
    eqn = jc.make_jaxpr(checkpoint(sin_sin, prevent_cse=False, policy=CP.dots_saveable))(1.0).jaxpr.eqns[0]
    assert list(eqn.params) == ["jaxpr", "prevent_cse", "differentiated", "policy"]
    assert eqn.params["prevent_cse"] is False and eqn.params["policy"] is CP.dots_saveable
    assert repr(CP.dots_with_no_batch_dims_saveable) == "DotsSaveable(only_if_no_batch_dims=True)"
    assert repr(CP.save_only_these_names("a")) == "SaveOnlyTheseNames(saveable_names=frozenset({'a'}))"
    assert CP.checkpoint_dots is CP.dots_saveable


def test_policies_decide_on_primitive_and_params():
    dot = jc.make_jaxpr(lambda a, b: lax.dot_general(a, b, (((2,), (1,)), ((0,), (0,)))))(
        np.ones((2, 3, 4)), np.ones((2, 4, 5))).jaxpr.eqns[0]
    call = lambda policy, eqn: policy(eqn.primitive, *[v.aval for v in eqn.invars], **eqn.params)
    assert call(CP.dots_saveable, dot) and not call(CP.dots_with_no_batch_dims_saveable, dot)
    named = jc.make_jaxpr(lambda x: checkpoint_name(x, "h"))(1.0).jaxpr.eqns[0]
    assert named.primitive is name_p and named.params == {"name": "h"}
    assert call(CP.save_only_these_names("h"), named) and not call(CP.save_any_names_but_these("h"), named)
    # JAX 0.10.2's save_anything_except_these_names ignores its names: it saves the named value too
    assert call(CP.save_anything_except_these_names("h"), named) and call(CP.everything_saveable, dot)
    assert not call(CP.nothing_saveable, dot)


def test_checkpoint_name_is_identity_on_pytrees():
    out = checkpoint_name({"a": np.arange(3.0), "b": (2.0,)}, "n")
    np.testing.assert_array_equal(np.asarray(out["a"]), np.arange(3.0))
    assert np.asarray(out["b"][0]) == 2.0


def test_dce_prunes_inside_checkpoint():
    closed = jc.make_jaxpr(checkpoint(lambda x: (lax.sin(x), lax.cos(x))))(1.0)
    pruned, used = dce_jaxpr(closed.jaxpr, [False, True])
    inner = pruned.eqns[0].params["jaxpr"]
    assert [e.primitive.name for e in inner.eqns] == ["cos"] and used == [True]
    assert dce_jaxpr(closed.jaxpr, [False, False])[0].eqns == []
