"""``lax.scan`` and ``lax.map``: values against Python loops, JAX's errors, the jaxprs JAX prints (goldens)
and dead-code elimination inside scans."""

from __future__ import annotations

import json

import numpy as np
import pytest
from conftest import GOLDEN_DIR
from make_scan_golden import render

import jaxle_core as jc
import jaxle_tree as tree
from jaxle_core import lax
from jaxle_core.array import Array
from jaxle_core.config import enable_x64
from jaxle_core.jaxpr_util import dce_jaxpr

f32 = np.float32
RNG = np.random.default_rng(0)


def python_scan(f, init, xs, length=None, reverse=False):
    """The meaning of ``lax.scan``, as a Python loop over NumPy slices."""
    leaves = tree.tree_leaves(xs)
    length = len(leaves[0]) if leaves else length
    carry, ys = init, [None] * length
    for i in (reversed(range(length)) if reverse else range(length)):
        carry, ys[i] = f(carry, tree.tree_map(lambda x, i=i: x[i], xs))
    if length == 0:
        return carry, None
    stacked = tree.tree_map(lambda *y: np.stack([np.asarray(v) for v in y]), *ys) if ys[0] is not None else None
    return carry, stacked


def assert_trees_close(actual, expected, rtol=1e-6):
    a_leaves, a_tree = tree.tree_flatten(actual)
    e_leaves, e_tree = tree.tree_flatten(expected)
    assert a_tree == e_tree
    for a, e in zip(a_leaves, e_leaves):
        assert np.shape(a) == np.shape(e)
        np.testing.assert_allclose(np.asarray(a), np.asarray(e), rtol=rtol)


def affine(c, x):
    return c * 0.5 + x, c * x


@pytest.mark.parametrize("reverse", [False, True])
@pytest.mark.parametrize("unroll", [1, 3, True])
def test_values_match_a_python_loop(reverse, unroll):
    xs = RNG.standard_normal(7).astype(f32)
    got = lax.scan(affine, f32(1), xs, reverse=reverse, unroll=unroll)
    assert_trees_close(got, python_scan(affine, f32(1), xs, reverse=reverse))


def test_pytree_carry_and_xs():
    def body(c, x):
        a, b = x
        new = {"sum": c["sum"] + lax.reduce_sum(a, (0,)), "prod": c["prod"] * b}
        return new, (c["sum"], [b * 2, a])

    init = {"sum": f32(0), "prod": np.ones(2, f32)}
    xs = (RNG.standard_normal((5, 3)).astype(f32), RNG.standard_normal((5, 2)).astype(f32))
    for reverse in (False, True):
        assert_trees_close(lax.scan(body, init, xs, reverse=reverse), python_scan(body, init, xs, reverse=reverse))


def test_length_zero_returns_init_and_empty_ys():
    carry, ys = lax.scan(lambda c, x: (c + x, (c * x, x[None])), f32(3), np.zeros((0,), f32))
    assert float(carry) == 3.0
    assert np.shape(ys[0]) == (0,) and np.shape(ys[1]) == (0, 1)


def test_xs_none_with_length():
    carry, ys = lax.scan(lambda c, _: (c * 2, c), 1, length=5)
    assert int(carry) == 32
    np.testing.assert_array_equal(np.asarray(ys), [1, 2, 4, 8, 16])


def test_ys_none():
    carry, ys = lax.scan(lambda c, x: (c + x, None), f32(0), np.arange(5, dtype=f32))
    assert float(carry) == 10.0 and ys is None


def test_forwarded_carry_and_xs_values():
    xs = np.arange(4, dtype=f32)
    carry, (a, b, c) = lax.scan(lambda c, x: (c, (c * x, x, c)), f32(3), xs)
    assert float(carry) == 3.0
    np.testing.assert_array_equal(np.asarray(a), 3 * xs)
    np.testing.assert_array_equal(np.asarray(b), xs)
    assert isinstance(b, Array)  # an x returned unchanged comes back as an Array, as in JAX
    np.testing.assert_array_equal(np.asarray(c), [3, 3, 3, 3])


def test_weak_carry_is_promoted_to_the_body_dtype():
    carry, ys = lax.scan(lambda c, x: (c + x, c), 0, np.arange(3, dtype=f32))
    assert np.asarray(carry).dtype == np.float32 and float(carry) == 3.0
    carry, _ = lax.scan(lambda c, x: (c + 1.0, c * x), 0.0, np.arange(3, dtype=f32))
    assert carry.weak_type


def test_closure_over_traced_values_under_jit():
    @jc.jit
    def f(xs, w):
        return lax.scan(lambda c, x: (c * w + x, c), f32(0), xs)

    xs, w = np.arange(5, dtype=f32), f32(0.5)
    assert_trees_close(f(xs, w), python_scan(lambda c, x: (c * w + x, c), f32(0), xs))


def test_markov_chain_follows_its_transition_rule():
    cdf = np.cumsum(np.array([[0.9, 0.1, 0.0], [0.2, 0.5, 0.3], [0.1, 0.1, 0.8]], f32), axis=1)
    draws = RNG.uniform(size=50).astype(f32)

    def step(s, u):
        row = lax.dynamic_index_in_dim(cdf, s, 0, keepdims=False)
        nxt = lax.reduce_sum(lax.convert_element_type(lax.lt(row, u), np.int32), (0,))
        return nxt, nxt

    _, states = lax.scan(step, np.int32(0), draws)
    expected, s = [], 0
    for u in draws:
        s = int(np.sum(cdf[s] < u))
        expected.append(s)
    np.testing.assert_array_equal(np.asarray(states), expected)


def test_cumulative_sum():
    xs = RNG.standard_normal(9).astype(f32)
    total, partial = lax.scan(lambda c, x: (c + x, c + x), f32(0), xs)
    np.testing.assert_allclose(np.asarray(partial), np.cumsum(xs), rtol=1e-5)
    np.testing.assert_allclose(float(total), xs.sum(), rtol=1e-5)


@pytest.mark.parametrize("batch_size", [None, 1, 3, 5, 12])
def test_map_matches_a_loop(batch_size):
    xs = (RNG.standard_normal((10, 2)).astype(f32), np.arange(10, dtype=np.int32))
    got = lax.map(lambda x: (lax.reduce_sum(x[0], (x[0].ndim - 1,)) * x[1], x[0] + 1), xs, batch_size=batch_size)
    expected = (xs[0].sum(1) * xs[1], xs[0] + 1)
    assert_trees_close(got, expected, rtol=1e-5)


# ---------------------------------------------------------------- errors, as JAX words them


def _message(fun):
    with pytest.raises(Exception) as info:
        fun()
    return type(info.value), str(info.value)


XS = np.arange(4, dtype=f32)


def test_length_errors():
    assert _message(lambda: lax.scan(lambda c, x: (c, x), 0., (XS, np.ones(3, f32)))) == (
        ValueError, "scan got values with different leading axis sizes: 4, 3.")
    assert _message(lambda: lax.scan(lambda c, x: (c, x), 0., XS, length=3)) == (
        ValueError, "scan got `length` argument of 3 which disagrees with leading axis sizes [4].")
    assert _message(lambda: lax.scan(lambda c, x: (c, x), 0.)) == (
        ValueError, "scan got no values to scan over and `length` not provided.")


def test_body_must_return_a_pair():
    assert _message(lambda: lax.scan(lambda c, x: c, 0., XS)) == (
        TypeError, "scan body output must be a pair, got ~float32[].")
    assert _message(lambda: lax.scan(lambda c, x: (c, x, x), 0., XS)) == (
        TypeError, "scan body output must be a pair, got (ShapedArray(float32[], weak_type=True), "
        "ShapedArray(float32[]), ShapedArray(float32[])).")
    assert _message(lambda: lax.scan(lambda c, x: None, 0., XS)) == (
        TypeError, "scan body output must be a pair, got None.")
    assert _message(lambda: lax.scan(lambda c, x: (c, x), 0., XS, unroll=-1)) == (
        ValueError, "`unroll` must be a `bool` or a non-negative `int`.")


STRUCTURE = ("scan body function carry input and carry output must have the same pytree structure, but they "
             "differ:\n\n{}\n\nRevise the function so that the carry output has the same pytree structure as the "
             "carry input.")
TYPES = ("scan body function carry input and carry output must have equal types, but they differ:\n\n{}\n\n"
         "Revise the function so that all output types match the corresponding input types.")


def test_carry_structure_errors():
    assert _message(lambda: lax.scan(lambda c, x: ((c, c), x), 0., XS)) == (TypeError, STRUCTURE.format(
        "The input carry c is a <class 'jaxle_core.avals.ShapedArray'> but the corresponding component of the "
        "carry output is a <class 'tuple'>, so their Python types differ."))
    assert _message(lambda: lax.scan(lambda c, x: ((c[0],), x), (0., 1.), XS)) == (TypeError, STRUCTURE.format(
        "The input carry c is a tuple of length 2 but the corresponding component of the carry output is a tuple "
        "of length 1, so the lengths do not match."))
    assert _message(lambda: lax.scan(lambda c, x: ({"b": 1.}, x), {"a": 0.}, XS)) == (TypeError, STRUCTURE.format(
        "The input carry c is a <class 'dict'> with pytree metadata ('a',) but the corresponding component of the "
        "carry output is a <class 'dict'> with pytree metadata ('b',), so the pytree node metadata does not match."))


def test_nested_structure_errors_are_all_listed():
    leaf = "<class 'jaxle_core.avals.ShapedArray'>"
    assert _message(lambda: lax.scan(lambda c, x: (((c[0], c[0]),), x), ((0., 1.),), XS)) == (
        TypeError, STRUCTURE.format(
            f"  * the input carry component c[0][0] is a {leaf} but the corresponding component of the carry output "
            "is a <class 'tuple'>, so their Python types differ;\n"
            f"  * the input carry component c[0][1] is a {leaf} but the corresponding component of the carry output "
            "is a <class 'tuple'>, so their Python types differ."))


def test_carry_type_errors():
    assert _message(lambda: lax.scan(lambda c, x: (np.ones(3, f32), x), f32(0), XS)) == (TypeError, TYPES.format(
        "The input carry c has type float32[] but the corresponding output carry component has type float32[3], "
        "so the shapes do not match."))
    to_int = lambda x: lax.convert_element_type(x, np.int32)  # noqa: E731
    assert _message(lambda: lax.scan(lambda c, x: ((x, to_int(x)), x), (0., np.ones(2, f32)), XS)) == (
        TypeError, TYPES.format("The input carry component c[1] has type float32[2] but the corresponding output "
                                "carry component has type int32[], so the dtypes do not match, and the shapes do "
                                "not match."))

    def body(carry, x):
        return (x, x), x

    assert _message(lambda: lax.scan(body, (np.int32(0), np.int32(0)), XS)) == (TypeError, TYPES.format(
        "  * the input carry component carry[0] has type int32[] but the corresponding output carry component has "
        "type float32[], so the dtypes do not match;\n  * the input carry component carry[1] has type int32[] but "
        "the corresponding output carry component has type float32[], so the dtypes do not match."))


# ---------------------------------------------------------------- jaxprs as JAX prints them


def test_jaxprs_match_jax():
    with open(GOLDEN_DIR / "scan_golden.json") as f:
        golden = json.load(f)
    with enable_x64(False):
        ours = render("jaxle_core")
    assert set(ours) == set(golden)
    for name, text in golden.items():
        assert ours[name] == text, name


# What JAX 0.10.2's dce_jaxpr makes of the scans below (printed on the peer).
DCE_CARRIES = """{ lambda ; a:f32[4]. let
    _:f32[] b:f32[] c:f32[4] = scan[
      jaxpr={ lambda ; d:f32[] e:f32[] f:f32[]. let
          g:f32[] = add d f
          h:f32[] = add e d
          i:f32[] = add f 1.0:f32[]
        in (g, h, i) }
      length=4
      num_carry=2
      num_consts=0
      reverse=False
      unroll=1
    ] 0.0:f32[] 0.0:f32[] a
  in (b, c) }"""
DCE_CONSTS = """{ lambda ; a:f32[4]. let
    b:f32[4] = scan[
      jaxpr={ lambda ; c:f32[]. let d:f32[] = add c 1.0:f32[] in (d,) }
      length=4
      num_carry=0
      num_consts=0
      reverse=False
      unroll=1
    ] a
  in (b,) }"""


def test_dce_drops_unused_ys_and_the_carries_they_do_not_need():
    def f(xs):
        (a, b, c), ys = lax.scan(lambda c, x: ((c[0] + x, c[1] + c[0], c[2] * 2), (c[0] * x, x + 1)),
                                 (f32(0), f32(0), f32(1)), xs)
        return b, ys[1]

    closed = jc.make_jaxpr(f)(XS)
    pruned, used = dce_jaxpr(closed.jaxpr)
    assert str(pruned) == DCE_CARRIES and used == [True]
    out = jc.core.eval_jaxpr(pruned, closed.consts, XS)
    np.testing.assert_allclose(np.asarray(out[0]), 0 + 0 + 1 + 3)
    np.testing.assert_allclose(np.asarray(out[1]), XS + 1)


def test_dce_drops_unused_consts():
    def g(xs, w):
        (a, b), ys = lax.scan(lambda c, x: ((c[0] + x, c[1] * w), (c[0] * w, x + 1)), (f32(0), f32(1)), xs)
        return ys[1]

    pruned, used = dce_jaxpr(jc.make_jaxpr(g)(XS, f32(2)).jaxpr)
    assert str(pruned) == DCE_CONSTS and used == [True, False]


def test_dce_removes_a_scan_whose_outputs_are_unused():
    closed = jc.make_jaxpr(lambda xs: (lax.scan(lambda c, x: (c + x, x), f32(0), xs), xs)[1])(XS)
    pruned, _ = dce_jaxpr(closed.jaxpr)
    assert pruned.eqns == []
