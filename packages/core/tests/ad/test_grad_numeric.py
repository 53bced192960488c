"""Reverse-mode differentiation of convolution, the windowed reductions (sum and max/min pooling), the reductions,
the special functions and dot_general: gradients against finite differences and the jvp (the dot-product identity
<ct, J t> = <J^T ct, t>), second order, dtypes, errors, and the equations JAX 0.10.2 emits."""

from __future__ import annotations

import json

import numpy as np
import pytest
from conftest import GOLDEN_DIR
from jvp_checks import finite_difference, x64_everywhere  # noqa: F401  (x64_everywhere: an autouse fixture)
from make_grad_numeric_golden import CONVS, POOLS, render

from jaxle_core import lax
from jaxle_core.ad import grad, jvp, vjp
from jaxle_core.config import enable_x64
from jaxle_core.lax import elementwise as lax_elementwise
from jaxle_core.lax import windowed as lax_windowed

rng = np.random.default_rng(7)


def check_vjp(fun, primals, rtol=1e-6, atol=1e-8):
    """``fun``'s vjp of a random cotangent agrees with its jvp and with central differences along random
    tangents (the dot-product identity); returns the cotangents of the primals."""
    out, pullback = vjp(fun, *primals)
    ct = rng.standard_normal(np.shape(out))
    cts = pullback(ct)
    for _ in range(2):
        tangents = [rng.standard_normal(np.shape(p)) for p in primals]
        _, t_out = jvp(fun, tuple(primals), tuple(tangents))
        backward = sum(float(np.vdot(np.asarray(c), t)) for c, t in zip(cts, tangents))
        np.testing.assert_allclose(backward, float(np.vdot(ct, np.asarray(t_out))), rtol=1e-10, atol=1e-10)
        numeric = float(np.vdot(ct, finite_difference(fun, primals, tangents)))
        np.testing.assert_allclose(backward, numeric, rtol=rtol, atol=atol)
    return [np.asarray(c) for c in cts]


def distinct(shape):
    """Values without ties (so max/min pooling is differentiable), spread over [-1, 1)."""
    size = int(np.prod(shape))
    return (rng.permutation(size) / size * 2 - 1).reshape(shape)


# ---------------------------------------------------------------- convolution


def _float64(kw: dict) -> dict:
    return {**kw, "preferred_element_type": None} if "preferred_element_type" in kw else kw


@pytest.mark.parametrize("name,lhs_shape,rhs_shape,kw", CONVS, ids=[c[0] for c in CONVS])
def test_conv_vjp_in_both_operands(name, lhs_shape, rhs_shape, kw):
    lhs, rhs = rng.standard_normal(lhs_shape), rng.standard_normal(rhs_shape)
    d_lhs, d_rhs = check_vjp(lambda x, w: lax.conv_general_dilated(x, w, **_float64(kw)), [lhs, rhs])
    assert d_lhs.shape == lhs_shape and d_rhs.shape == rhs_shape


@pytest.mark.parametrize("kw", [
    dict(window_strides=(3, 2), padding=((2, 0), (1, 3)), lhs_dilation=(1, 3), rhs_dilation=(2, 2)),
    dict(window_strides=(2, 2), padding="SAME", batch_group_count=3, dimension_numbers=("NWHC", "WIOH", "HNCW")),
    dict(window_strides=(1, 3), padding=((-1, 1), (0, 0)), feature_group_count=3, rhs_dilation=(1, 2)),
], ids=["all_dilations", "batch_groups_layout", "depthwise_negative_pad"])
def test_conv_vjp_option_combinations(kw):
    layouts = kw.get("dimension_numbers")
    groups = kw.get("feature_group_count", 1) * kw.get("batch_group_count", 1)
    lhs_logical = (6, 3 if "feature_group_count" in kw else 2, 7, 8)  # N, C, H, W
    rhs_logical = (groups * 2, lhs_logical[1] // kw.get("feature_group_count", 1), 3, 2)  # O, I, H, W
    lhs_shape = lhs_logical if layouts is None else tuple(dict(zip("NCHW", lhs_logical))[c] for c in layouts[0])
    rhs_shape = rhs_logical if layouts is None else tuple(dict(zip("OIHW", rhs_logical))[c] for c in layouts[1])
    check_vjp(lambda x, w: lax.conv_general_dilated(x, w, **kw), [rng.standard_normal(lhs_shape),
                                                                 rng.standard_normal(rhs_shape)])


def test_conv_gradient_of_one_operand_is_exact_per_element():
    """The lhs gradient of <ct, conv(x, w)> is, element by element, <ct, conv(e_i, w)>."""
    lhs, rhs = rng.standard_normal((1, 2, 4, 3)), rng.standard_normal((4, 1, 2, 2))
    kw = dict(window_strides=(2, 1), padding=((1, 0), (0, 1)), rhs_dilation=(1, 2), feature_group_count=2)
    ct = rng.standard_normal(np.shape(lax.conv_general_dilated(lhs, rhs, **kw)))
    gradient = np.asarray(grad(lambda x: lax.reduce_sum(lax.mul(lax.conv_general_dilated(x, rhs, **kw), ct),
                                                        (0, 1, 2, 3)))(lhs))
    expected = np.zeros(lhs.size)
    for i in range(lhs.size):
        basis = np.zeros(lhs.size)
        basis[i] = 1.0
        expected[i] = np.vdot(ct, np.asarray(lax.conv_general_dilated(basis.reshape(lhs.shape), rhs, **kw)))
    np.testing.assert_allclose(gradient, expected.reshape(lhs.shape), rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("argnum", [0, 1])
def test_conv_second_order(argnum):
    lhs, rhs = rng.standard_normal((2, 2, 5, 4)), rng.standard_normal((2, 2, 2, 3))
    kw = dict(window_strides=(2, 1), padding="SAME", rhs_dilation=(1, 2))

    def loss(x, w):
        return lax.reduce_sum(lax.sin(lax.conv_general_dilated(x, w, **kw)), (0, 1, 2, 3))

    check_vjp(grad(loss, argnums=argnum), [lhs, rhs], rtol=1e-5)


def test_conv_preferred_element_type_keeps_operand_dtypes():
    lhs, rhs = rng.standard_normal((2, 3, 6)).astype(np.float32), rng.standard_normal((4, 3, 2)).astype(np.float32)

    def loss(x, w):
        y = lax.conv_general_dilated(x, w, (2,), ((1, 0),), preferred_element_type=np.float64)
        return lax.reduce_sum(lax.sin(y), (0, 1, 2))

    d_lhs, d_rhs = grad(loss, argnums=(0, 1))(lhs, rhs)
    assert np.asarray(d_lhs).dtype == np.float32 and np.asarray(d_rhs).dtype == np.float32
    wide = grad(loss, argnums=(0, 1))(lhs.astype(np.float64), rhs.astype(np.float64))
    np.testing.assert_allclose(np.asarray(d_lhs), np.asarray(wide[0]), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(np.asarray(d_rhs), np.asarray(wide[1]), rtol=1e-5, atol=1e-6)


def test_complex_conv_vjp_is_the_transpose():
    """For complex operands the vjp is the plain (unconjugated) transpose: sum(ct * J t) = sum(J^T ct * t)."""
    def cplx(*shape):
        return rng.standard_normal(shape) + 1j * rng.standard_normal(shape)

    lhs, rhs = cplx(2, 4, 5, 4), cplx(6, 2, 2, 3)
    kw = dict(window_strides=(2, 1), padding=((1, 1), (0, 2)), feature_group_count=2, lhs_dilation=(1, 2))
    out, pullback = vjp(lambda x, w: lax.conv_general_dilated(x, w, **kw), lhs, rhs)
    ct, t_lhs, t_rhs = cplx(*np.shape(out)), cplx(*lhs.shape), cplx(*rhs.shape)
    d_lhs, d_rhs = pullback(ct)
    _, t_out = jvp(lambda x, w: lax.conv_general_dilated(x, w, **kw), (lhs, rhs), (t_lhs, t_rhs))
    np.testing.assert_allclose(np.sum(np.asarray(d_lhs) * t_lhs) + np.sum(np.asarray(d_rhs) * t_rhs),
                               np.sum(ct * np.asarray(t_out)), rtol=1e-10)


def test_conv_empty_output_has_zero_kernel_gradient():
    lhs, rhs = rng.standard_normal((0, 2, 5)), rng.standard_normal((3, 2, 2))
    _, pullback = vjp(lambda x, w: lax.conv_general_dilated(x, w, (1,), "VALID"), lhs, rhs)
    d_lhs, d_rhs = pullback(np.zeros((0, 3, 4)))
    assert np.shape(d_lhs) == (0, 2, 5)
    np.testing.assert_array_equal(np.asarray(d_rhs), np.zeros((3, 2, 2)))


# ---------------------------------------------------------------- windowed reductions


def pooling(op, init, window, strides, padding, base, dilation):
    return lambda x: lax.reduce_window(x, init, getattr(lax, op), window, strides, padding, base, dilation)


@pytest.mark.parametrize("case", POOLS, ids=[p[0] for p in POOLS])
def test_pooling_vjp(case):
    _, *spec = case
    check_vjp(pooling(*spec), [distinct((5, 7))])


@pytest.mark.parametrize("spec", [
    ("add", 0.0, (3, 2), (2, 2), ((2, 1), (1, 1)), (2, 3), (1, 2)),
    ("max", -np.inf, (2, 2), (3, 1), ((1, 2), (0, 1)), (2, 2), None),
    ("min", np.inf, (1, 3), (1, 2), "SAME", (1, 3), None),
    ("max", -np.inf, (4, 4), (1, 1), ((2, 2), (2, 2)), None, None),
], ids=["sum_everything", "max_base_dilation", "min_base_dilation", "max_padding_only_windows"])
def test_pooling_vjp_dilations_and_padding(spec):
    check_vjp(pooling(*spec), [distinct((4, 5))])


def test_max_pool_gradient_goes_to_the_first_maximum():
    x = np.array([[1.0, 3.0, 3.0, 0.0]])
    g = grad(lambda x: lax.reduce_sum(lax.reduce_window(x, -np.inf, lax.max, (1, 2), (1, 1), "VALID"), (0, 1)))(x)
    np.testing.assert_array_equal(np.asarray(g), [[0.0, 2.0, 1.0, 0.0]])


def test_max_pool_with_window_dilation_has_no_vjp():
    x = distinct((3, 5))
    with pytest.raises(NotImplementedError, match="window dilation"):
        grad(lambda x: lax.reduce_sum(pooling("max", -np.inf, (1, 2), (1, 1), "VALID", None, (1, 2))(x),
                                      (0, 1)))(x)


@pytest.mark.parametrize("op,init", [("max", -np.inf), ("min", np.inf), ("add", 0.0)])
def test_pooling_second_order(op, init):
    pool = pooling(op, init, (2, 3), (1, 2), "SAME", None, None)
    check_vjp(grad(lambda x: lax.reduce_sum(lax.sin(pool(x)), (0, 1))), [distinct((4, 6))], rtol=1e-5)


def test_select_and_scatter_add_transposes_to_select_and_gather_add():
    operand = distinct((5, 6))
    params = dict(select_prim=lax_elementwise.ge_p, window_dimensions=(2, 3), window_strides=(2, 1),
                  padding=((1, 0), (1, 1)))
    source = rng.standard_normal(np.shape(lax_windowed.select_and_gather_add_p.bind(
        operand, operand, base_dilation=(1, 1), window_dilation=(1, 1), **params)))
    check_vjp(lambda s: lax_windowed.select_and_scatter_add_p.bind(s, operand, **params), [source])


# ---------------------------------------------------------------- reductions, special functions, dot_general


def test_reduce_max_and_min_split_ties_evenly():
    x = np.array([[1.0, 4.0, 4.0], [2.0, -1.0, 0.5]])
    g_max = grad(lambda x: lax.reduce_sum(lax.reduce_max(x, (1,)), (0,)))(x)
    np.testing.assert_array_equal(np.asarray(g_max), [[0.0, 0.5, 0.5], [1.0, 0.0, 0.0]])
    check_vjp(lambda x: lax.reduce_min(lax.sin(x), (0,)), [distinct((3, 4))])


@pytest.mark.parametrize("axes", [(1,), (0, 2), ()])
def test_reduce_prod_and_generic_reduce(axes):
    x = rng.uniform(0.5, 1.5, (3, 4, 5)) * rng.choice([-1.0, 1.0], (3, 4, 5))
    check_vjp(lambda x: lax.reduce_prod(x, axes), [x])
    check_vjp(lambda x: lax.reduce(x, 0.0, lambda a, b: a * b + a + b, axes), [x])


def test_argmax_contributes_nothing():
    x = distinct((3, 4))
    g = grad(lambda x: lax.reduce_sum(x, (0, 1)) * lax.convert_element_type(lax.argmax(x, 0, np.int32)[1],
                                                                            np.float64))(x)
    np.testing.assert_array_equal(np.asarray(g), np.full((3, 4), float(np.argmax(x[:, 1]))))


SPECIAL = {
    "erf": (lax.erf, (-1.5, 1.5)),
    "erfc": (lax.erfc, (-1.5, 1.5)),
    "erf_inv": (lax.erf_inv, (-0.9, 0.9)),
    "lgamma": (lax.lgamma, (0.3, 4.0)),
    "digamma": (lax.digamma, (0.3, 4.0)),
    "polygamma": (lambda x: lax.polygamma(np.full(6, 2.0), x), (0.5, 4.0)),
    "igamma": (lambda x: lax.igamma(np.full(6, 2.5), x), (0.2, 4.0)),
    "igammac": (lambda x: lax.igammac(np.full(6, 2.5), x), (0.2, 4.0)),
    "bessel_i0e": (lax.bessel_i0e, (-3.0, 3.0)),
    "bessel_i1e": (lax.bessel_i1e, (-3.0, 3.0)),
    "betainc": (lambda x: lax.betainc(np.full(6, 2.0), np.full(6, 3.5), x), (0.1, 0.9)),
}


@pytest.mark.parametrize("name", SPECIAL)
def test_special_function_gradients(name):
    fn, (lo, hi) = SPECIAL[name]
    x = rng.uniform(lo, hi, 6)
    check_vjp(fn, [x], rtol=1e-5)
    elementwise = np.asarray(grad(lambda x: lax.reduce_sum(fn(x), (0,)))(x))
    np.testing.assert_allclose(elementwise, finite_difference(fn, [x], [np.ones(6)]), rtol=1e-5, atol=1e-8)


def test_dot_general_batch_dimensions_and_preferred_type():
    a, b = rng.standard_normal((2, 3, 4)), rng.standard_normal((5, 4, 2))
    dims = (((2,), (1,)), ((0,), (2,)))
    check_vjp(lambda a, b: lax.dot_general(a, b, dims), [a, b])
    narrow = [a.astype(np.float32), b.astype(np.float32)]

    def loss(a, b):
        return lax.reduce_sum(lax.sin(lax.dot_general(a, b, dims, preferred_element_type=np.float64)), (0, 1, 2))

    cts = grad(loss, argnums=(0, 1))(*narrow)
    wide = grad(loss, argnums=(0, 1))(*[x.astype(np.float64) for x in narrow])
    for ct, reference in zip(cts, wide):
        assert np.asarray(ct).dtype == np.float32
        np.testing.assert_allclose(np.asarray(ct), np.asarray(reference), rtol=1e-5, atol=1e-6)


# ---------------------------------------------------------------- equations

with open(GOLDEN_DIR / "grad_numeric_golden.json") as _f:
    GOLDEN = json.load(_f)


@pytest.fixture(scope="module")
def rendered():
    with enable_x64(False):
        return render("jaxle_core")


def test_golden_cases_are_all_rendered(rendered):
    assert set(rendered) == set(GOLDEN)


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_grad_jaxpr_text_matches_jax(name, rendered):
    assert rendered[name] == GOLDEN[name]
