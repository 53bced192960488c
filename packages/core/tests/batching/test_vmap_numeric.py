"""``vmap`` of contractions, convolutions, windowed reductions and special functions: values against
per-example loops, jaxprs against JAX 0.10.2."""

from __future__ import annotations

import json

import numpy as np
import pytest
from conftest import GOLDEN_DIR
from make_vmap_numeric_golden import arr, render

import jaxle_core as jc
from jaxle_core import lax
from jaxle_core.batching import vmap

f32 = np.float32


def check_batched(f, in_axes, *args, rtol=1e-5, atol=1e-6):
    """``vmap(f, in_axes)`` equals ``f`` applied to each example and stacked along axis 0; returns the result."""
    size = next(np.shape(a)[ax] for a, ax in zip(args, in_axes) if ax is not None)
    expected = np.stack([np.asarray(f(*[a if ax is None else np.take(a, i, axis=ax) for a, ax in zip(args, in_axes)]))
                         for i in range(size)])
    out = np.asarray(vmap(f, in_axes=in_axes)(*args))
    assert out.shape == expected.shape and out.dtype == expected.dtype
    np.testing.assert_allclose(out, expected, rtol=rtol, atol=atol)
    return out


def matvec(m, v):
    return lax.dot_general(m, v, (((1,), (0,)), ((), ())))


def bmm(a, b):
    return lax.dot_general(a, b, (((2,), (1,)), ((0,), (0,))))


# ---------------------------------------------------------------- dot_general


@pytest.mark.parametrize("in_axes, shapes", [
    ((0, None), ((5, 3, 4), (4,))), ((None, 0), ((3, 4), (5, 4))), ((0, 0), ((5, 3, 4), (5, 4))),
    ((1, 1), ((3, 5, 4), (4, 5))), ((2, None), ((3, 4, 5), (4,))), ((None, 1), ((3, 4), (4, 5))),
    ((1, 0), ((3, 5, 4), (5, 4))),
])
def test_vmap_of_matrix_vector_products(in_axes, shapes):
    out = check_batched(matvec, in_axes, *[arr(*s) for s in shapes])
    m, v = (np.moveaxis(arr(*s), ax, 0) if ax is not None else arr(*s) for s, ax in zip(shapes, in_axes))
    np.testing.assert_allclose(out, np.einsum("...ij,...j->...i", m, v), rtol=1e-6)


def test_vmap_of_a_matrix_vector_product_is_one_dot_general():
    jaxpr = jc.make_jaxpr(vmap(matvec, in_axes=(None, 0)))(arr(3, 4), arr(5, 4))
    assert [e.primitive.name for e in jaxpr.jaxpr.eqns] == ["dot_general", "transpose"]
    assert str(jaxpr) == ("{ lambda ; a:f32[3,4] b:f32[5,4]. let\n"
                          "    c:f32[3,5] = dot_general[dimension_numbers=(([1], [1]), ([], []))] a b\n"
                          "    d:f32[5,3] = transpose[permutation=(1, 0)] c\n  in (d,) }")


def test_vmap_of_elementwise_lines_operands_up_one_by_one_as_jax():
    """An unbatched operand before a batched one is expanded before the other's batch dimension moves (JAX's
    equation order, from make_jaxpr in JAX 0.10.2)."""
    batched_add = vmap(lax.add, in_axes=(None, 1))
    jaxpr = jc.make_jaxpr(batched_add)(arr(3, 4), arr(3, 2, 4))
    assert [e.primitive.name for e in jaxpr.jaxpr.eqns] == ["broadcast_in_dim", "transpose", "add"]
    np.testing.assert_allclose(batched_add(arr(3, 4), arr(3, 2, 4)), arr(3, 4) + np.moveaxis(arr(3, 2, 4), 1, 0))


@pytest.mark.parametrize("in_axes, shapes", [
    ((1, None), ((2, 5, 3, 4), (2, 4, 6))), ((None, 2), ((2, 3, 4), (2, 4, 5, 6))),
    ((3, 0), ((2, 3, 4, 5), (5, 2, 4, 6))), ((0, 3), ((5, 2, 3, 4), (2, 4, 6, 5))),
])
def test_vmap_of_batched_matrix_products(in_axes, shapes):
    check_batched(bmm, in_axes, *[arr(*s) for s in shapes])


def test_vmap_of_dot_general_with_free_dimensions_on_both_sides_and_preferred_type():
    def outer_contract(a, b):
        return lax.dot_general(a, b, (((1,), (0,)), ((), ())), preferred_element_type=np.float32)

    a, b = arr(2, 3, 5).astype(np.float16), arr(3, 5, 4).astype(np.float16)
    for in_axes in [(2, None), (None, 1), (2, 1)]:
        out = check_batched(outer_contract, in_axes, a if in_axes[0] is not None else a[..., 0],
                            b if in_axes[1] is not None else b[:, 0], rtol=1e-3)
        assert out.dtype == np.float32


# ---------------------------------------------------------------- conv_general_dilated


def conv1d(**kw):
    return lambda x, w: lax.conv_general_dilated(x, w, (1,), "SAME", dimension_numbers=("NCH", "OIH", "NCH"), **kw)


@pytest.mark.parametrize("groups, in_axes, shapes", [
    ({}, (0, None), ((5, 2, 3, 8), (4, 3, 3))), ({}, (None, 1), ((2, 3, 8), (4, 5, 3, 3))),
    ({}, (0, 3), ((5, 2, 3, 8), (4, 3, 3, 5))), ({}, (3, 2), ((2, 3, 8, 5), (4, 3, 5, 3))),
    ({"feature_group_count": 3}, (1, None), ((2, 5, 6, 8), (6, 2, 3))),
    ({"feature_group_count": 3}, (None, 0), ((2, 6, 8), (5, 6, 2, 3))),
    ({"feature_group_count": 3}, (0, 0), ((5, 2, 6, 8), (5, 6, 2, 3))),
    ({"batch_group_count": 2}, (0, None), ((5, 4, 3, 8), (6, 3, 3))),
    ({"batch_group_count": 2}, (2, None), ((4, 3, 5, 8), (6, 3, 3))),
    ({"batch_group_count": 2}, (None, 0), ((4, 3, 8), (5, 6, 3, 3))),
    ({"batch_group_count": 2}, (0, 1), ((5, 4, 3, 8), (6, 5, 3, 3))),
])
def test_vmap_of_conv_general_dilated(groups, in_axes, shapes):
    check_batched(conv1d(**groups), in_axes, *[arr(*s) for s in shapes])


def test_vmap_of_a_2d_convolution_with_dilation_and_strides():
    def conv(x, w):
        return lax.conv_general_dilated(x, w, (2, 1), ((1, 0), (0, 1)), lhs_dilation=(1, 2), rhs_dilation=(2, 1),
                                        dimension_numbers=("NHWC", "HWIO", "NHWC"))

    x, w = arr(2, 7, 5, 4, 3), arr(3, 2, 3, 4, 4)
    for in_axes in [(3, None), (None, 4), (3, 4)]:
        check_batched(conv, in_axes, x if in_axes[0] is not None else x[:, :, :, 0],
                      w if in_axes[1] is not None else w[..., 0])


# ---------------------------------------------------------------- windowed reductions


@pytest.mark.parametrize("computation, init", [(lax.add, 0.0), (lax.max, -np.inf), (lax.min, np.inf),
                                               (lax.mul, 1.0)])
@pytest.mark.parametrize("axis", [0, 1, 2])
def test_vmap_of_reduce_window(computation, init, axis):
    def f(x):
        return lax.reduce_window(x, init, computation, (2, 2), (1, 2), "SAME", window_dilation=(2, 1))

    check_batched(f, (axis,), arr(4, 5, 6))


@pytest.mark.parametrize("in_axes", [(0, 1), (1, None), (None, 0)])
def test_vmap_of_select_and_gather_add(in_axes):
    def tangent(x, t):
        return jc.jvp(lambda a: lax.reduce_window(a, -np.inf, lax.max, (2,), (1,), "SAME"), (x,), (t,))[1]

    x, t = arr(5, 6) * np.arange(1, 31, dtype=f32).reshape(5, 6), arr(6, 5) + 1
    check_batched(tangent, in_axes, x if in_axes[0] == 0 else (x.T if in_axes[0] else x[0]),
                  t if in_axes[1] == 1 else (t.T if in_axes[1] == 0 else t[:, 0]))


@pytest.mark.parametrize("in_axes", [(1, 0), (0, None), (None, 1)])
def test_vmap_of_select_and_scatter_add(in_axes):
    def cotangent(x, c):
        return jc.vjp(lambda a: lax.reduce_window(a, np.inf, lax.min, (3,), (2,), ((1, 1),)), x)[1](c)[0]

    x, c = arr(6, 5) * np.arange(1, 31, dtype=f32).reshape(6, 5), arr(5, 3) + 2
    check_batched(cotangent, in_axes, x if in_axes[0] == 1 else (x.T if in_axes[0] == 0 else x[:, 0]),
                  c if in_axes[1] == 0 else (c.T if in_axes[1] == 1 else c[0]))


# ---------------------------------------------------------------- special functions


@pytest.mark.parametrize("name", ["erf", "erfc", "erf_inv", "lgamma", "digamma", "bessel_i0e", "bessel_i1e"])
def test_vmap_of_unary_special_functions(name):
    x = arr(3, 5) / 4 + (0.1 if name == "erf_inv" else 1.0)
    for axis in (0, 1):
        check_batched(getattr(lax, name), (axis,), x)


@pytest.mark.parametrize("name", ["igamma", "igammac", "igamma_grad_a", "random_gamma_grad", "zeta", "polygamma"])
@pytest.mark.parametrize("in_axes", [(0, None), (None, 1), (1, 0)])
def test_vmap_of_binary_special_functions(name, in_axes):
    first = np.arange(1, 16, dtype=f32).reshape(3, 5) % 3 + 1 if name == "polygamma" else arr(3, 5) + 2
    second = arr(3, 5) + 3

    def batched(v, axis):
        return v[:, 0] if axis is None else np.moveaxis(v, 1, axis)

    check_batched(getattr(lax, name), in_axes, batched(first, in_axes[0]), batched(second, in_axes[1]), rtol=1e-4)


@pytest.mark.parametrize("in_axes", [(None, 1, 0), (0, None, None), (0, 0, 1)])
def test_vmap_of_betainc(in_axes):
    a, b, x = np.full((5, 3), 2, f32), arr(3, 5) + 2, arr(5, 3) / 4 + 0.5
    args = [a if in_axes[0] is not None else f32(2.0), b if in_axes[1] is not None else b[:, 0],
            x if in_axes[2] is not None else x[0]]
    if in_axes[1] == 0:
        args[1] = b.T
    if in_axes[2] == 1:
        args[2] = x.T
    check_batched(lax.betainc, in_axes, *args, rtol=1e-4)


# ---------------------------------------------------------------- jaxprs


def test_jaxprs_match_jax():
    with open(GOLDEN_DIR / "vmap_numeric_golden.json") as f:
        golden = json.load(f)
    ours = render("jaxle_core")
    assert set(ours) == set(golden)
    for name, text in golden.items():
        assert ours[name] == text, name
