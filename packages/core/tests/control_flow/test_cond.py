"""``lax.cond`` and ``lax.switch``: values against Python, JAX's errors, params, weak types and the jaxprs JAX
prints (goldens)."""

from __future__ import annotations

import json

import numpy as np
import pytest
from conftest import GOLDEN_DIR
from make_cond_golden import render

import jaxle_core as jc
from jaxle_core import lax
from jaxle_core.config import disable_jit
from jaxle_core.lax.control_flow.conditionals import cond_p

f32 = np.float32

@pytest.fixture(scope="module")
def rendered():
    return render("jaxle_core")


with open(GOLDEN_DIR / "cond_golden.json") as f:
    GOLDEN = json.load(f)


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_jaxpr_text_matches_jax(rendered, name):
    assert rendered[name] == GOLDEN[name]


@pytest.mark.parametrize("pred", [True, False, np.bool_(True), np.int32(0), np.int32(-3), f32(0.5), f32(0.0)])
def test_cond_picks_the_branch(pred):
    x = f32(1.5)
    out = lax.cond(pred, lambda y: lax.sin(y), lambda y: lax.cos(y) * 2.0, x)
    want = np.sin(x) if bool(pred) else np.cos(x) * 2
    np.testing.assert_allclose(np.asarray(out), want, rtol=1e-6)


def test_cond_under_jit_both_ways():
    f = jc.jit(lambda p, x: lax.cond(p, lambda y: y * 3.0, lambda y: -y, x))
    assert float(f(True, f32(2.0))) == 6.0
    assert float(f(False, f32(2.0))) == -2.0


def test_pytree_operands_and_outputs():
    def true_fun(a, b):
        return {"s": a["u"] + b, "t": (b, a["v"])}

    def false_fun(a, b):
        return {"s": a["u"] - b, "t": (b * 2.0, a["v"] + 1)}

    ops = ({"u": np.arange(3, dtype=f32), "v": np.int32(4)}, f32(2.0))
    for p in (True, False):
        out = lax.cond(p, true_fun, false_fun, *ops)
        want = (true_fun if p else false_fun)(*ops)
        assert set(out) == {"s", "t"}
        np.testing.assert_allclose(np.asarray(out["s"]), want["s"])
        np.testing.assert_allclose(np.asarray(out["t"][0]), want["t"][0])
        assert int(out["t"][1]) == int(want["t"][1])


def test_legacy_operand_keyword():
    assert float(lax.cond(True, lambda y: y + 1.0, lambda y: y, operand=f32(1.0))) == 2.0
    assert float(lax.switch(1, [lambda y: y, lambda y: y + 1.0], operand=f32(1.0))) == 2.0
    with pytest.raises(TypeError, match="if 'operand' keyword is passed then no positional operands"):
        lax.switch(1, [lambda y: y, lambda y: y + 1.0], f32(2.0), operand=f32(1.0))


def test_legacy_operand_per_branch():
    # cond(pred, true_operand, true_fun, false_operand, false_fun): each branch gets its own operand; the jaxpr is
    # JAX 0.10.2's (both operands passed to both branches).
    pair = (np.ones(2, f32), np.zeros(2, f32))
    doubled, kept = lax.cond(True, pair, lambda x: (x[0] * 2.0, x[1]), pair, lambda x: x)
    np.testing.assert_array_equal(doubled, [2.0, 2.0])
    np.testing.assert_array_equal(kept, [0.0, 0.0])
    assert float(lax.cond(False, 1.0, lambda x: x * 2.0, 3.0, lambda x: x + 1.0)) == 4.0
    jaxpr = jc.make_jaxpr(lambda p: lax.cond(p, 1.0, lambda x: x * 2.0, 3.0, lambda x: x + 1.0))(True)
    assert str(jaxpr) == """{ lambda ; a:bool[]. let
    b:i32[] = convert_element_type[new_dtype=int32 weak_type=False] a
    c:f32[] = cond[
      branches=(
        { lambda ; d:f32[] e:f32[]. let f:f32[] = add e 1.0:f32[] in (f,) }
        { lambda ; g:f32[] h:f32[]. let i:f32[] = mul g 2.0:f32[] in (i,) }
      )
    ] b 1.0:f32[] 3.0:f32[]
  in (c,) }"""


def test_no_operands_and_closures_over_traced_values():
    f = jc.jit(lambda p, z: lax.cond(p, lambda: z * 2.0, lambda: z + 1.0))
    assert float(f(True, f32(3.0))) == 6.0 and float(f(False, f32(3.0))) == 4.0


@pytest.mark.parametrize("index", [-5, -1, 0, 1, 2, 3, 100])
def test_switch_clamps_the_index(index):
    branches = [lambda y: y + 1.0, lambda y: y * 2.0, lambda y: -y]
    x = f32(3.0)
    out = lax.switch(index, branches, x)
    assert float(out) == float(branches[min(max(index, 0), 2)](x))
    traced = jc.jit(lambda i, y: lax.switch(i, branches, y))(np.int32(index), x)
    assert float(traced) == float(out)


def test_switch_one_branch_is_called_directly():
    closed = jc.make_jaxpr(lambda i, x: lax.switch(i, [lambda y: y + 1.0], x))(np.int32(0), f32(1.0))
    assert [e.primitive.name for e in closed.jaxpr.eqns] == ["add"]


def test_params_and_branch_order():
    closed = jc.make_jaxpr(lambda p, x: lax.cond(p, lambda y: y + 1.0, lambda y: y - 1.0, x))(True, f32(1.0))
    eqn = closed.jaxpr.eqns[-1]
    assert eqn.primitive is cond_p and list(eqn.params) == ["branches"]
    false_branch, true_branch = eqn.params["branches"]
    assert [e.primitive.name for e in false_branch.jaxpr.eqns] == ["sub"]
    assert [e.primitive.name for e in true_branch.jaxpr.eqns] == ["add"]
    assert eqn.invars[0].aval.dtype == np.int32


def test_weak_types_come_from_the_first_branch():
    # JAX 0.10.2 leaves each branch's outputs as they are and types the result by the first bound branch
    # (cond's false branch): no conversion is staged where branches disagree on weak types.
    weak_first = jc.make_jaxpr(lambda p, x: lax.cond(p, lambda y: y, lambda y: 1.0, x))(True, f32(1.0))
    assert weak_first.out_avals[0].weak_type
    assert [b.jaxpr.eqns for b in weak_first.jaxpr.eqns[-1].params["branches"]] == [[], []]
    strong_first = jc.make_jaxpr(lambda p, x: lax.cond(p, lambda y: 1.0, lambda y: y, x))(True, f32(1.0))
    assert not strong_first.out_avals[0].weak_type
    for order, weak in [("sww", False), ("wss", True)]:
        branches = [(lambda a, b: a) if c == "s" else (lambda a, b: b) for c in order]
        for index in range(3):
            out = lax.switch(index, branches, f32(0.0), 2.0)
            assert out.weak_type == weak and float(out) == (0.0 if order[index] == "s" else 2.0)
    both_weak = jc.make_jaxpr(lambda p: lax.cond(p, lambda: 2.0, lambda: 1.0))(True)
    assert both_weak.out_avals[0].weak_type
    assert all(b.out_avals[0].weak_type for b in both_weak.jaxpr.eqns[-1].params["branches"])


def test_consts_are_joined_once_in_order_of_use():
    c = np.arange(3, dtype=f32)

    def f(p, x, z):
        return lax.cond(p, lambda y: y + c * z, lambda y: y - z, x)

    closed = jc.make_jaxpr(f)(True, np.ones(3, f32), f32(2.0))
    eqn = closed.jaxpr.eqns[-1]
    assert len(eqn.invars) == 4  # index, c, z, x
    for branch in eqn.params["branches"]:
        assert [tuple(a.shape) for a in branch.in_avals] == [(3,), (), (3,)]
    for p in (True, False):
        want = np.ones(3, f32) + c * 2 if p else np.ones(3, f32) - 2
        np.testing.assert_allclose(np.asarray(jc.jit(f)(p, np.ones(3, f32), f32(2.0))), want)


def test_concrete_predicate_still_emits_cond():
    closed = jc.make_jaxpr(lambda x: lax.cond(True, lambda y: y + 1, lambda y: y - 1, x))(f32(1.0))
    assert [e.primitive.name for e in closed.jaxpr.eqns] == ["cond"]


def test_disable_jit_runs_the_chosen_branch_in_python():
    calls = []

    def true_fun(y):
        calls.append("true")
        return y

    def false_fun(y):
        calls.append("false")
        return y

    with disable_jit(True):
        lax.cond(True, true_fun, false_fun, f32(1.0))
        lax.switch(0, [true_fun, false_fun], f32(1.0))
    assert calls == ["true", "true"]


def _error(fn):
    with pytest.raises(Exception) as info:
        fn()
    return info.type, str(info.value)


def test_errors_match_jax():
    o2 = np.ones(2, f32)
    kind, msg = _error(lambda: lax.cond(o2 > 0, lambda: 1.0, lambda: 2.0))
    assert kind is TypeError and msg == "Pred must be a scalar, got [ True  True] of shape (2,)."
    kind, msg = _error(lambda: lax.cond("a", lambda: 1.0, lambda: 2.0))
    assert kind is TypeError and msg == "Pred must be a scalar, got a of type <class 'str'>"
    kind, msg = _error(lambda: lax.cond(True, 1.0, lambda: 2.0))
    assert kind is TypeError and msg == "lax.cond: true_fun and false_fun arguments should be callable."
    kind, msg = _error(lambda: lax.cond(True, lambda x: x, lambda x: x, 1.0, operand=2.0))
    assert kind is TypeError and msg == ("if 'operand' keyword is passed then no positional operands can be passed, "
                                         "got operand=2.0 and positional operands (1.0,)")
    kind, msg = _error(lambda: lax.cond(True, lambda x: x, lambda x: x, 1.0, 2.0))
    assert kind is TypeError and "positional argument" in msg
    kind, msg = _error(lambda: lax.switch(0, [], 1.0))
    assert kind is ValueError and msg == "Empty branch sequence"
    kind, msg = _error(lambda: lax.switch(1.5, [lambda x: x], 1.0))
    assert kind is TypeError and msg == "Index type must be an integer, got 1.5 as float32"
    kind, msg = _error(lambda: lax.switch(True, [lambda x: x, lambda x: x], 1.0))
    assert kind is TypeError and msg == "Index type must be an integer, got True as bool"
    kind, msg = _error(lambda: lax.switch(np.ones(2, np.int32), [lambda x: x], 1.0))
    assert kind is TypeError and msg == "Branch index must be scalar, got [1 1] of shape (2,)."


def test_branch_mismatch_errors_match_jax():
    kind, msg = _error(lambda: lax.cond(True, lambda x: x, lambda x: np.ones(2, f32), 1.0))
    assert kind is TypeError
    assert msg.startswith("cond branches must have equal output types but they differ.\n\ntrue_fun is <lambda> at ")
    assert msg.endswith("The output of true_fun has type float32[] but the corresponding output of false_fun has "
                        "type float32[2], so the shapes do not match.\n\n"
                        "Revise true_fun and/or false_fun so that all output types match.")
    kind, msg = _error(lambda: lax.cond(True, lambda: np.int32(1), lambda: f32(1)))
    assert "so the dtypes do not match" in msg
    kind, msg = _error(lambda: lax.cond(True, lambda x: x, lambda x: (x, x), 1.0))
    assert kind is TypeError
    assert msg.startswith("cond branch outputs must have the same pytree structure, but they differ:\n\n")
    assert ("true_fun output is a pytree leaf but false_fun output is a <class 'tuple'>, so their Python types "
            "differ.\n\nRevise true_fun and/or false_fun so that they have the same pytree structure.") in msg
    kind, msg = _error(lambda: lax.switch(2, [lambda x: x, lambda x: 2.0, lambda x: x, lambda x: (x,)], 1.0))
    assert "branch 0 output is a pytree leaf but branch3 output is a <class 'tuple'>" in msg
    assert "\nbranch3 is <lambda> at " in msg


def test_predicate_traced_inside_branch_is_a_concretization_error():
    with pytest.raises(jc.errors.ConcretizationTypeError):
        jc.jit(lambda x: lax.cond(x > 0, lambda y: y if y > 0 else -y, lambda y: y, x))(f32(1.0))


def test_dce_prunes_unused_outputs_in_every_branch_and_unread_operands():
    from jaxle_core.jaxpr_util import dce_jaxpr

    def f(p, x, y, z):
        a, _, _ = lax.cond(p, lambda u, v, w: (u * 2, v + 1, w), lambda u, v, w: (u, v * 3, u), x, y, z)
        return a

    closed = jc.make_jaxpr(f)(True, f32(1.0), f32(2.0), f32(3.0))
    pruned, used = dce_jaxpr(closed.jaxpr, [True])
    assert used == [True, True, False, False]
    eqn = pruned.eqns[-1]
    assert len(eqn.invars) == 2 and len(eqn.outvars) == 1
    assert [[e.primitive.name for e in b.jaxpr.eqns] for b in eqn.params["branches"]] == [[], ["mul"]]
    assert all(len(b.jaxpr.invars) == 1 for b in eqn.params["branches"])
