"""``jaxle_core.test_util.check_grads``: it rejects wrong derivative rules, and a sweep checks every differentiable
primitive's forward and reverse derivatives to second order against finite differences (float64 and float32,
scalars and arrays, complex inputs where the primitive accepts them)."""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pytest

from jaxle_core import jit, lax, make_jaxpr
from jaxle_core.ad import add_any_p, jvp_rules
from jaxle_core.ad.jvp import instantiate
from jaxle_core.checkpoint import checkpoint, checkpoint_name
from jaxle_core.closed_call import bind_closed_call
from jaxle_core.config import enable_x64
from jaxle_core.core import Primitive
from jaxle_core.custom_derivatives import custom_jvp, custom_vjp
from jaxle_core.inspect_sharding import inspect_sharding_p  # noqa: F401  (registers its jvp rule)
from jaxle_core.lax import windowed
from jaxle_core.lax.eigen import eig, eigh
from jaxle_core.lax.elementwise import ge_p
from jaxle_core.lax.layout_constraints import with_layout_constraint
from jaxle_core.lax.standard import FLOATING, elementwise_primitive
from jaxle_core.lax.svd import svd
from jaxle_core.layout import Layout
from jaxle_core.linear_call import linear_call
from jaxle_core.sharding import Sharding
from jaxle_core.test_util import check_grads, check_jvp, check_vjp

# ---------------------------------------------------------------- the checker catches wrong rules


def like(x, value):
    """``value`` as a constant of ``x``'s dtype (constants must follow the run's precision)."""
    return np.asarray(value, dtype=x.dtype)


def _primitive_with_jvp(name: str, derivative: Callable) -> Primitive:
    """An elementwise sine whose jvp rule multiplies the tangent by ``derivative(x)``."""
    primitive = elementwise_primitive(name, np.sin, (FLOATING,))

    def rule(primals, tangents):
        (x,), (t,) = primals, tangents
        return primitive.bind(x), lax.mul(instantiate(t), derivative(x))

    jvp_rules[primitive] = rule
    return primitive


sine_right_p = _primitive_with_jvp("test_sine_right", lax.cos)
sine_wrong_p = _primitive_with_jvp("test_sine_wrong", lambda x: lax.mul(lax.cos(x), like(x, 1.01)))
sine_wrong_second_p = _primitive_with_jvp("test_sine_wrong_second", lambda x: lax.cos(lax.stop_gradient(x)))


@pytest.mark.parametrize("modes", [("fwd",), ("rev",)])
def test_a_wrong_first_derivative_is_caught(modes):
    x = np.array([0.3, -1.2, 2.0])
    with enable_x64(True):
        check_grads(sine_right_p.bind, (x,), 2)
        with pytest.raises(AssertionError, match="JVP tangent" if modes == ("fwd",) else "VJP cotangent"):
            check_grads(sine_wrong_p.bind, (x,), 1, modes=modes)


def test_a_wrong_second_derivative_is_caught_only_at_order_two():
    x = np.array([0.3, -1.2, 2.0])
    with enable_x64(True):
        check_grads(sine_wrong_second_p.bind, (x,), 1)
        with pytest.raises(AssertionError, match="JVP of JVP tangent"):
            check_grads(sine_wrong_second_p.bind, (x,), 2, modes=("fwd",))
        with pytest.raises(AssertionError, match="VJP of VJP"):
            check_grads(sine_wrong_second_p.bind, (x,), 2, modes=("rev",))


@pytest.mark.parametrize("modes", [("fwd",), ("rev",)])
def test_a_wrong_custom_jvp_rule_is_caught(modes):
    x = np.array([0.3, -1.2, 2.0])
    with enable_x64(True):
        check_grads(custom_jvp_sine(), (x,), 2, modes=modes)
        with pytest.raises(AssertionError):
            check_grads(custom_jvp_sine(0.99), (x,), 1, modes=modes)


def test_a_wrong_custom_vjp_rule_is_caught():
    x = np.array([0.3, -1.2, 2.0])
    with enable_x64(True):
        check_grads(custom_vjp_sine(), (x,), 2, modes=("rev",))
        with pytest.raises(AssertionError, match="VJP cotangent projection"):
            check_grads(custom_vjp_sine(1.01), (x,), 1, modes=("rev",))


def test_check_jvp_and_check_vjp_on_wrong_function_pairs():
    x = (np.array([0.5, 1.5]),)
    with enable_x64(True):
        check_jvp(lax.exp, lambda p, t: (lax.exp(p[0]), lax.exp(p[0]) * t[0]), x)
        with pytest.raises(AssertionError, match="tangent"):
            check_jvp(lax.exp, lambda p, t: (lax.exp(p[0]), t[0]), x)
        with pytest.raises(AssertionError, match="primal"):
            check_jvp(lax.exp, lambda p, t: (lax.sin(p[0]), lax.exp(p[0]) * t[0]), x)
        check_vjp(lax.exp, lambda p: (lax.exp(p), lambda ct: (ct * lax.exp(p),)), x)
        with pytest.raises(AssertionError, match="cotangent projection"):
            check_vjp(lax.exp, lambda p: (lax.exp(p), lambda ct: (ct * p,)), x)


def test_tolerances_are_per_dtype_and_scale_the_check():
    off = (lambda p, t: (lax.exp(p[0]), lax.exp(p[0]) * t[0] * 1.001))
    x = (np.array([0.5, 1.5], np.float32),)
    check_jvp(lax.exp, off, x)  # float32's default tolerance (2e-3 per element) accepts 1e-3
    with pytest.raises(AssertionError):
        check_jvp(lax.exp, off, x, atol=1e-5, rtol={np.float32: 1e-5})
    with enable_x64(True), pytest.raises(AssertionError):
        check_jvp(lax.exp, off, (x[0].astype(np.float64),))  # float64's default is 1e-5


# ---------------------------------------------------------------- the sweep over primitives


class OneDeviceSharding(Sharding):
    """A stand-in for a sharding over one device (jaxle_core has no devices of its own)."""

    device_set = frozenset({"the device"})

    def devices_indices_map(self, global_shape):
        return {"the device": (slice(None),) * len(global_shape)}


@dataclass(frozen=True)
class Case:
    """``fun`` of the float64 arguments ``make(rng)`` returns (cast to float32 in the 32-bit runs)."""
    primitive: str
    fun: Callable
    make: Callable
    label: str = ""
    order: int = 2
    modes: tuple = ("fwd", "rev")


def positive_definite(rng, n: int, is_complex: bool = False) -> np.ndarray:
    """A well-conditioned Hermitian positive definite matrix ``m m^H + n I``."""
    m = rng.uniform(-1, 1, (n, n)) + (0.5j * rng.uniform(-1, 1, (n, n)) if is_complex else 0)
    return m @ np.conj(m.T) + n * np.eye(n)


def uniform(lo: float, hi: float, signed: bool = False, is_complex: bool = False):
    """Values with magnitudes in [lo, hi] (random signs if ``signed``; a complex one gets a small imaginary part)."""
    def draw(rng, shape):
        x = rng.uniform(lo, hi, shape)
        if signed:
            x = x * rng.choice([-1.0, 1.0], shape)
        return x + 0.3j * rng.uniform(-1, 1, shape) if is_complex else x
    return draw


def elementwise(primitive: str, fun: Callable, *draws, complex_too: bool = False, real: bool = True,
                order: int = 2) -> list[Case]:
    """Cases of an elementwise ``fun`` at a scalar and a small array, real and (when asked) complex."""
    variants = ([False] if real else []) + ([True] if complex_too else [])
    cases = []
    for is_complex in variants:
        for shape in [(), (2, 3)]:
            parts = [d(is_complex) for d in draws]
            cases.append(Case(primitive, fun, functools.partial(lambda ps, sh, rng: tuple(p(rng, sh) for p in ps),
                                                                parts, shape),
                              f"{'c' if is_complex else 'r'}{len(shape)}", order))
    return cases


def u(lo, hi, signed=False):
    return lambda is_complex: uniform(lo, hi, signed, is_complex)


def real_u(lo, hi, signed=False):
    return lambda is_complex: uniform(lo, hi, signed, False)


def fixed(*shapes, complex_too=False, lo=-1.0, hi=1.0):
    """``make`` functions drawing arrays of ``shapes`` (and a complex variant)."""
    def make(is_complex, rng):
        return tuple(uniform(lo, hi, False, is_complex)(rng, s) for s in shapes)
    return [("r", functools.partial(make, False))] + ([("c", functools.partial(make, True))] if complex_too else [])


def structural(primitive: str, fun: Callable, *shapes, complex_too=False, lo=-1.0, hi=1.0, order=2) -> list[Case]:
    return [Case(primitive, fun, make, label, order) for label, make in fixed(*shapes, complex_too=complex_too,
                                                                               lo=lo, hi=hi)]


def separated(n: int):
    """``make``: one array of ``n`` distinct values at least 0.1 apart (no ties for sorts and extrema)."""
    return lambda rng: (rng.permutation(np.linspace(-1.0, 1.0, n)).reshape(-1) + 0.01 * rng.uniform(-1, 1, n),)


def separated_grid(shape):
    size = int(np.prod(shape))
    return lambda rng: (separated(size)(rng)[0].reshape(shape),)


GDN = lax.GatherDimensionNumbers
SDN = lax.ScatterDimensionNumbers
ROWS = np.array([[2], [0]], np.int32)
ROW_GATHER = GDN(offset_dims=(1,), collapsed_slice_dims=(0,), start_index_map=(0,))
ROW_SCATTER = SDN(update_window_dims=(1,), inserted_window_dims=(0,), scatter_dims_to_operand_dims=(0,))
REPEATED_ROWS = np.array([[2], [0], [2]], np.int32)
WINDOW = dict(window_dimensions=(2, 2), window_strides=(1, 2), padding=((1, 0), (0, 1)), base_dilation=(1, 1),
              window_dilation=(1, 1))


def merge(a, b):
    """An associative, commutative computation with identity 0 that is no lax monoid: (1+a)(1+b) - 1."""
    return a + b + a * b


def scatter_case(name, scatter, unique=False, sign=1.0):
    def make(rng):
        operand, updates = rng.uniform(-1, 1, (3, 2)), rng.uniform(-1, 1, (2, 2))
        return operand, sign * (np.abs(updates) + 2.0) if name in ("scatter-max", "scatter-min") else updates
    indices = ROWS if unique else REPEATED_ROWS[:2]
    return [Case(name, lambda x, v: scatter(x, indices, v, ROW_SCATTER, unique_indices=unique), make)]


def select_and_gather(t, x):
    return windowed.select_and_gather_add_p.bind(t, x, select_prim=ge_p, **WINDOW)


def select_and_scatter(s, x):
    return windowed.select_and_scatter_add_p.bind(s, x, select_prim=ge_p, window_dimensions=(2, 2),
                                                  window_strides=(1, 2), padding=((1, 0), (0, 1)))


def custom_jvp_sine(scale: float = 1.0) -> custom_jvp:
    """A sine whose custom jvp rule scales the derivative by ``scale`` (1: right)."""
    @custom_jvp
    def sine(x):
        return lax.sin(x)

    @sine.defjvp
    def sine_jvp(primals, tangents):
        (x,), (t,) = primals, tangents
        return lax.sin(x), lax.cos(x) * like(x, scale) * t

    return sine


def custom_vjp_sine(scale: float = 1.0) -> custom_vjp:
    """A sine whose custom vjp scales the cotangent by ``scale`` (1: right)."""
    @custom_vjp
    def sine(x):
        return lax.sin(x)

    sine.defvjp(lambda x: (lax.sin(x), lax.cos(x)), lambda cos_x, g: (cos_x * like(cos_x, scale) * g,))
    return sine


def separated_spectrum(rng):
    """A symmetric 3x3 matrix whose eigenvalues lie far apart (eigenvectors change smoothly with it)."""
    a = rng.uniform(-0.3, 0.3, (3, 3))
    return (a + a.T + np.diag([0.0, 2.0, 4.0]),)


def to_complex(x):
    """A conversion from real to the complex type of the same width."""
    return lax.convert_element_type(x, np.complex128 if x.dtype == np.float64 else np.complex64)


CASES: list[Case] = [
    # ---- elementwise arithmetic
    *elementwise("neg", lax.neg, u(0.2, 2, True), complex_too=True),
    *elementwise("add", lax.add, u(0.2, 2, True), u(0.2, 2, True), complex_too=True),
    *elementwise("sub", lax.sub, u(0.2, 2, True), u(0.2, 2, True), complex_too=True),
    *elementwise("mul", lax.mul, u(0.2, 2, True), u(0.2, 2, True), complex_too=True),
    *elementwise("div", lax.div, u(0.2, 2, True), u(0.5, 2, True), complex_too=True),
    *elementwise("rem", lax.rem, real_u(2.1, 2.4), real_u(1.0, 1.05)),
    *elementwise("pow", lax.pow, u(0.5, 2), u(0.2, 1.5, True), complex_too=True),
    *elementwise("integer_pow", lambda x: lax.integer_pow(x, 3), u(0.2, 2, True), complex_too=True),
    *elementwise("integer_pow", lambda x: lax.integer_pow(x, -2), u(0.5, 2, True), complex_too=True),
    *elementwise("square", lax.square, u(0.2, 2, True), complex_too=True),
    *elementwise("sign", lax.sign, u(0.2, 2, True)),
    *elementwise("floor", lax.floor, real_u(1.1, 1.4, True)),
    *elementwise("ceil", lax.ceil, real_u(1.1, 1.4, True)),
    *elementwise("round", lax.round, real_u(1.1, 1.4, True)),
    *elementwise("abs", lax.abs, u(0.2, 2, True), complex_too=True),
    *elementwise("max", lax.max, real_u(0.2, 1.0), real_u(1.2, 2.0)),
    *elementwise("max", lambda x, y: lax.max(y, x), real_u(0.2, 1.0), real_u(1.2, 2.0)),
    *elementwise("min", lax.min, real_u(0.2, 1.0), real_u(1.2, 2.0)),
    *elementwise("min", lambda x, y: lax.min(y, x), real_u(0.2, 1.0), real_u(1.2, 2.0)),
    # ---- transcendental
    *elementwise("exp", lax.exp, u(0.2, 1.5, True), complex_too=True),
    *elementwise("exp2", lax.exp2, u(0.2, 1.5, True), complex_too=True),
    *elementwise("log", lax.log, u(0.5, 2), complex_too=True),
    *elementwise("log1p", lax.log1p, u(0.1, 1.5), complex_too=True),
    *elementwise("expm1", lax.expm1, u(0.2, 1.5, True), complex_too=True),
    *elementwise("tanh", lax.tanh, u(0.2, 1.5, True), complex_too=True),
    *elementwise("logistic", lax.logistic, u(0.2, 1.5, True), complex_too=True),
    *elementwise("sin", lax.sin, u(0.2, 1.5, True), complex_too=True),
    *elementwise("cos", lax.cos, u(0.2, 1.5, True), complex_too=True),
    *elementwise("tan", lax.tan, u(0.2, 1.0, True), complex_too=True),
    *elementwise("asin", lax.asin, u(0.1, 0.7, True), complex_too=True),
    *elementwise("acos", lax.acos, u(0.1, 0.7, True), complex_too=True),
    *elementwise("atan", lax.atan, u(0.1, 1.5, True), complex_too=True),
    *elementwise("atan2", lax.atan2, real_u(0.3, 1.5, True), real_u(0.3, 1.5, True)),
    *elementwise("sinh", lax.sinh, u(0.2, 1.5, True), complex_too=True),
    *elementwise("cosh", lax.cosh, u(0.2, 1.5, True), complex_too=True),
    *elementwise("asinh", lax.asinh, u(0.2, 1.5, True), complex_too=True),
    *elementwise("acosh", lax.acosh, u(1.2, 2.5), complex_too=True),
    *elementwise("atanh", lax.atanh, u(0.1, 0.7, True), complex_too=True),
    *elementwise("sqrt", lax.sqrt, u(0.5, 2), complex_too=True),
    *elementwise("rsqrt", lax.rsqrt, u(0.5, 2), complex_too=True),
    *elementwise("cbrt", lax.cbrt, real_u(0.5, 2, True)),
    # ---- complex parts
    *elementwise("real", lax.real, u(0.2, 2, True), real=False, complex_too=True),
    *elementwise("imag", lax.imag, u(0.2, 2, True), real=False, complex_too=True),
    *elementwise("conj", lax.conj, u(0.2, 2, True), complex_too=True),
    *elementwise("complex", lax.complex, real_u(0.2, 2, True), real_u(0.2, 2, True)),
    # ---- special functions
    *elementwise("erf", lax.erf, real_u(0.1, 1.5, True)),
    *elementwise("erfc", lax.erfc, real_u(0.1, 1.5, True)),
    *elementwise("erf_inv", lax.erf_inv, real_u(0.1, 0.7, True)),
    *elementwise("lgamma", lax.lgamma, real_u(0.5, 3)),
    *elementwise("digamma", lax.digamma, real_u(0.5, 3)),
    *elementwise("polygamma", lambda x: lax.polygamma(like(x, 1.0), x), real_u(0.5, 3)),
    *elementwise("igamma", lambda x: lax.igamma(like(x, 1.7), x), real_u(0.5, 2.5)),
    *elementwise("igamma", lax.igamma, real_u(1.0, 3.0), real_u(0.5, 2.5), order=1),
    *elementwise("igammac", lambda x: lax.igammac(like(x, 1.7), x), real_u(0.5, 2.5)),
    *elementwise("igammac", lax.igammac, real_u(1.0, 3.0), real_u(0.5, 2.5), order=1),
    *elementwise("bessel_i0e", lax.bessel_i0e, real_u(0.2, 2, True)),
    *elementwise("bessel_i1e", lax.bessel_i1e, real_u(0.2, 2, True)),
    *elementwise("regularized_incomplete_beta", lambda x: lax.betainc(like(x, 2.5), like(x, 1.5), x),
                 real_u(0.2, 0.8)),
    # ---- types, identities and selection
    *elementwise("convert_element_type", to_complex, real_u(0.2, 2, True)),
    *elementwise("reduce_precision", lambda x: lax.reduce_precision(x, 11, 52 if x.dtype == np.float64 else 23),
                 real_u(0.2, 2, True)),
    *elementwise("copy", lax.copy_p.bind, u(0.2, 2, True), complex_too=True),
    *elementwise("add_any", add_any_p.bind, u(0.2, 2, True), u(0.2, 2, True), complex_too=True),
    *elementwise("jit", jit(lambda x, y: lax.sin(x) * y), u(0.2, 2, True), u(0.2, 2, True), complex_too=True),
    *elementwise("closed_call", lambda x, y: bind_closed_call(make_jaxpr(lambda a, b: lax.sin(a) * b)(x, y), [x, y])[0],
                 u(0.2, 2, True), u(0.2, 2, True), complex_too=True),
    *elementwise("custom_jvp_call", custom_jvp_sine(), u(0.2, 2, True)),
    # JAX rejects forward mode on a custom_vjp function: reverse mode only.
    *[Case(c.primitive, c.fun, c.make, c.label, modes=("rev",))
      for c in elementwise("custom_vjp_call", custom_vjp_sine(), u(0.2, 2, True))],
    *elementwise("remat2", checkpoint(lambda x, y: lax.sin(x) * y), u(0.2, 2, True), u(0.2, 2, True)),
    *elementwise("name", lambda x: lax.sin(checkpoint_name(x * x, "squared")), u(0.2, 2, True)),
    *elementwise("linear_call", lambda x: linear_call(lambda r, t: r * lax.sin(r) * t,
                                                       lambda r, ct: r * lax.sin(r) * ct, 1.5, x), u(0.2, 2, True)),
    *elementwise("select_n", lambda x, y: lax.select_n(x > 0, x * y, lax.sin(y)), real_u(0.2, 2, True),
                 real_u(0.2, 2, True)),
    *elementwise("clamp", lambda lo, x, hi: lax.clamp(lo, x, hi), real_u(-0.6, -0.5), real_u(0.1, 1.0, True),
                 real_u(0.5, 0.6)),
    # ---- shapes
    *structural("broadcast_in_dim", lambda x: lax.broadcast_in_dim(x, (2, 3, 4), (0, 2)), (2, 4), complex_too=True),
    *structural("broadcast_in_dim", lambda x: lax.broadcast_in_dim(x, (3, 2, 4), (2, 0, 1)), (1, 3, 2)),
    *structural("reshape", lambda x: lax.reshape(x, (3, 2), (1, 0)), (2, 3), complex_too=True),
    *structural("squeeze", lambda x: lax.squeeze(x, (1,)), (3, 1), complex_too=True),
    *structural("transpose", lambda x: lax.transpose(x, (1, 0, 2)), (2, 3, 2), complex_too=True),
    *structural("rev", lambda x: lax.rev(x, (0,)), (3, 2), complex_too=True),
    *structural("pad", lambda x, p: lax.pad(x, p, ((1, -1, 1), (0, 2, 0))), (3, 2), (), complex_too=True),
    *structural("concatenate", lambda x, y: lax.concatenate([x, y], 1), (2, 2), (2, 3), complex_too=True),
    *structural("split", lambda x: lax.split(x, (1, 0, 2), 1), (2, 3), complex_too=True),
    *structural("stack", lambda x, y: lax.stack([x, y, x], 1), (2, 3), (2, 3), complex_too=True),
    *structural("unstack", lambda x: lax.unstack(x, 1), (2, 3), complex_too=True),
    *structural("tile", lambda x: lax.tile(x, (2, 3)), (2, 1), complex_too=True),
    *structural("slice", lambda x: lax.slice(x, (0, 1), (3, 4), (2, 2)), (3, 4), complex_too=True),
    *structural("dynamic_slice", lambda x: lax.dynamic_slice(x, (np.int32(1), np.int32(2)), (2, 2)), (3, 4),
                complex_too=True),
    *structural("dynamic_update_slice", lambda x, v: lax.dynamic_update_slice(x, v, (np.int32(1), np.int32(0))),
                (3, 4), (2, 2), complex_too=True),
    *structural("gather", lambda x: lax.gather(x, REPEATED_ROWS, ROW_GATHER, (1, 2)), (3, 2), complex_too=True),
    *structural("select_n", lambda x, y: lax.select_n(np.array([[True, False], [False, True]]), x, y), (2, 2),
                (2, 2), complex_too=True),
    # ---- scatters
    *scatter_case("scatter", lax.scatter, unique=True),
    *scatter_case("scatter-add", lax.scatter_add),
    *scatter_case("scatter-sub", lax.scatter_sub),
    *scatter_case("scatter-mul", lax.scatter_mul, unique=True),
    *scatter_case("scatter-max", lax.scatter_max),
    *scatter_case("scatter-min", lax.scatter_min, sign=-1.0),
    # ---- reductions and scans
    *structural("reduce_sum", lambda x: lax.reduce_sum(x, (1,)), (2, 3), complex_too=True),
    *structural("reduce_prod", lambda x: lax.reduce_prod(x, (0, 1)), (2, 3), complex_too=True, lo=0.5, hi=1.5),
    Case("reduce_max", lambda x: lax.reduce_max(x, (1,)), separated_grid((2, 3))),
    Case("reduce_min", lambda x: lax.reduce_min(x, (0,)), separated_grid((2, 3))),
    *structural("reduce", lambda x: lax.reduce(x, 0.0, merge, (1,)), (2, 3), lo=-0.5, hi=0.5),
    *structural("cumsum", lambda x: lax.cumsum(x, 1), (2, 3), complex_too=True),
    *structural("cumprod", lambda x: lax.cumprod(x, 0, reverse=True), (3, 2), lo=0.5, hi=1.5),
    Case("cummax", lambda x: lax.cummax(x, 0), separated(5)),
    Case("cummin", lambda x: lax.cummin(x, 0, reverse=True), separated(5)),
    *structural("cumlogsumexp", lambda x: lax.cumlogsumexp(x, 1), (2, 3)),
    Case("sort", lambda x: lax.sort(x, dimension=1), separated_grid((2, 3))),
    Case("sort", lambda x: lax.sort((x, lax.sin(x)), num_keys=1)[1], separated(5), "pair"),
    Case("top_k", lambda x: lax.top_k(x, 2)[0], separated_grid((2, 3))),
    Case("approx_top_k", lambda x: lax.approx_min_k(x, 2, reduction_dimension=0)[0], separated_grid((3, 2))),
    # ---- Fourier transforms
    *structural("fft", lambda x: lax.fft(x, "FFT", (2, 3)), (2, 3), complex_too=True),
    Case("fft", lambda x: lax.fft(x, "RFFT", (4,)), fixed((2, 4))[0][1], "rfft"),
    Case("fft", lambda x: lax.fft(x, "IRFFT", (3, 4)), fixed((3, 3), complex_too=True)[1][1], "irfft"),
    # ---- windows, contractions, convolutions
    *structural("reduce_window_sum", lambda x: lax.reduce_window(x, 0.0, lax.add, **WINDOW), (3, 4)),
    Case("reduce_window_max", lambda x: lax.reduce_window(x, -np.inf, lax.max, **WINDOW), separated_grid((3, 4))),
    Case("reduce_window_min", lambda x: lax.reduce_window(x, np.inf, lax.min, **WINDOW), separated_grid((3, 4))),
    # JAX has no reverse mode for a generic reduce_window (its linearization fails): forward mode only.
    Case("reduce_window", lambda x: lax.reduce_window(x, 0.0, merge, **WINDOW), fixed((3, 4), lo=-0.5, hi=0.5)[0][1],
         modes=("fwd",)),
    Case("select_and_gather_add", select_and_gather,
         lambda rng: (rng.uniform(-1, 1, (3, 4)), separated_grid((3, 4))(rng)[0])),
    Case("select_and_scatter_add", select_and_scatter,
         lambda rng: (rng.uniform(-1, 1, (3, 2)), separated_grid((3, 4))(rng)[0])),
    *structural("dot_general", lambda x, y: lax.dot_general(x, y, (((2,), (1,)), ((0,), (0,)))), (2, 3, 2),
                (2, 2, 3), complex_too=True),
    # First order only: as in JAX, the rhs cotangent is a contracting-mode ragged_dot, which has no transpose.
    *structural("ragged_dot_general", lambda x, y: lax.ragged_dot(x, y, np.array([2, 1], np.int32)), (4, 3),
                (2, 3, 2), order=1),
    *structural("conv_general_dilated", lambda x, w: lax.conv_general_dilated(x, w, (2,), "VALID"), (1, 2, 5),
                (3, 2, 2)),
    Case("conv_general_dilated", lambda x, w: lax.conv_general_dilated(
        x, w, (1,), ((1, 0),), lhs_dilation=(2,), rhs_dilation=(2,), feature_group_count=2),
         lambda rng: (rng.uniform(-1, 1, (1, 4, 3)), rng.uniform(-1, 1, (2, 2, 2))), "dilated"),
    # ---- compiler hints and placement (identities)
    *structural("optimization_barrier", lambda x, y: lax.optimization_barrier((x, lax.sin(y)))[1] * x, (2, 3),
                (2, 3), complex_too=True),
    *structural("dce_sink", lambda x: [lax.dce_sink(lax.cos(x)), lax.sin(x)][1], (2, 3)),
    *structural("device_put", lambda x: lax.device_put_p.bind(
        x, devices=(None,), srcs=(None,), copy_semantics=(lax.ArrayCopySemantics.REUSE_INPUT,))[0] * x, (2, 3)),
    *structural("sharding_constraint", lambda x: lax.with_sharding_constraint(x, OneDeviceSharding()) * x, (2, 3)),
    *structural("reshard", lambda x: lax.reshard_p.bind(x, dst_sharding=OneDeviceSharding()) * x, (2, 3)),
    # ---- decompositions: functions of the vectors their signs do not change
    Case("eigh", lambda x: [eigh(x)[1], lax.square(eigh(x)[0])], separated_spectrum),
    # first order only: as in JAX, the rule's own eig asks for eigenvectors, which have no derivative by default
    Case("eig", lambda x: lax.real(eig(x, compute_left_eigenvectors=False, compute_right_eigenvectors=False)[0]),
         separated_spectrum, order=1),
    Case("svd", lambda x: [svd(x, compute_uv=False), lax.square(svd(x, full_matrices=False)[0])],
         lambda rng: (rng.uniform(-0.3, 0.3, (3, 2)) + np.array([[3.0, 0.0], [0.0, 1.0], [0.0, 0.0]]),)),
    # ---- linear algebra (well-conditioned matrices: positive definite, dominant diagonals)
    Case("cholesky", lax.linalg.cholesky, lambda rng: (positive_definite(rng, 3),)),
    Case("cholesky", lax.linalg.cholesky, lambda rng: (positive_definite(rng, 3, True),), "complex"),
    Case("triangular_solve", lambda a, b: lax.linalg.triangular_solve(a, b, left_side=True, lower=True),
         lambda rng: (np.tril(positive_definite(rng, 3)), rng.uniform(-1, 1, (3, 2)))),
    Case("triangular_solve", lambda a, b: lax.linalg.triangular_solve(a, b, transpose_a=True, conjugate_a=True,
                                                                      unit_diagonal=True),
         lambda rng: (np.triu(positive_definite(rng, 3, True)), rng.uniform(-1, 1, (2, 2, 3))[0] + 0.5j),
         "right-adjoint-unit"),
    Case("lu", lambda x: lax.linalg.lu(x)[0], lambda rng: (rng.uniform(-1, 1, (3, 3)) + 3 * np.eye(3),)),
    Case("lu", lambda x: lax.linalg.lu(x)[0], lambda rng: (rng.uniform(-1, 1, (2, 4, 3)),), "batched-tall"),
    Case("qr", lax.linalg.qr, lambda rng: (rng.uniform(-1, 1, (3, 3)) + 2 * np.eye(3),)),
    Case("qr", lambda x: lax.linalg.qr(x, full_matrices=False), lambda rng: (rng.uniform(-1, 1, (4, 3)),),
         "economic"),
    Case("qr", lax.linalg.qr, lambda rng: (rng.uniform(-1, 1, (4, 3)) + 0.5j * rng.uniform(-1, 1, (4, 3)),),
         "tall-complex"),
    Case("qr", lax.linalg.qr, lambda rng: (rng.uniform(-1, 1, (2, 4)) + np.eye(2, 4),), "wide"),
    Case("qr", lambda x: lax.linalg.qr(x, pivoting=True, full_matrices=False)[:2],
         lambda rng: (rng.uniform(-1, 1, (4, 3)),), "pivoting"),
    Case("layout_constraint", lambda x: with_layout_constraint(x, Layout((1, 0))),
         lambda rng: (rng.uniform(-1, 1, (2, 3)),)),
    Case("tridiagonal_solve", lax.linalg.tridiagonal_solve,
         lambda rng: (rng.uniform(-1, 1, (4,)), rng.uniform(3, 4, (4,)), rng.uniform(-1, 1, (4,)),
                      rng.uniform(-1, 1, (4, 2)))),
]

# Primitives with a jvp rule the sweep leaves out, and why.
NOT_SWEPT = {
    **dict.fromkeys(["and", "or", "xor", "not", "clz", "population_count", "shift_left", "shift_right_arithmetic",
                     "shift_right_logical", "mulhi", "reduce_and", "reduce_or", "reduce_xor"],
                    "integer/boolean operands only: float0 tangents"),
    **dict.fromkeys(["eq", "ne", "lt", "le", "gt", "ge", "eq_to", "le_to", "lt_to", "is_finite"],
                    "boolean result: float0 tangent"),
    **dict.fromkeys(["argmax", "argmin"], "integer result: float0 tangent"),
    "iota": "no operands",
    **dict.fromkeys(["new_ref", "empty_ref", "get", "swap", "addupdate", "freeze", "free_ref"],
                    "operate on mutable references: checked against JAX's gradients in lax/test_refs_grad.py"),
    "bitcast_convert_type": "reinterprets bits; no derivative is defined through it",
    "stop_gradient": "zero derivative by definition, which finite differences contradict",
    **dict.fromkeys(["psum", "all_gather", "reduce_scatter", "all_to_all", "ppermute"],
                    "needs a bound axis name: checked under vmap in batching/test_collectives.py"),
    **dict.fromkeys(["pvary", "psum_invariant", "all_gather_invariant"],
                    "only inside a shard_map checking types: its gradients are checked against JAX's on eight devices "
                    "in multidevice-tests/test_vma_against_jax.py"),
    **dict.fromkeys(["all_gather_reduced", "unreduced_reduce_scatter", "preduced", "unreduced_psum",
                     "reduced_vary_cast_p", "vary_unreduced_cast_p"],
                    "only inside a shard_map checking types, on values (un)reduced over its axes: their gradients are "
                    "checked against JAX's on eight devices in multidevice-tests/test_unreduced_against_jax.py"),
    "ragged_all_to_all": "needs a bound axis name and is not batched: its jvp and transpose are checked against "
                         "JAX's jaxprs under make_jaxpr(axis_env=...) in batching/test_collectives.py",
    "pbroadcast": "needs a bound axis name, and JAX batches it for NumPy operands only: its jvp is checked against "
                  "JAX's jaxpr under make_jaxpr(axis_env=...) in batching/test_collectives.py",
    **dict.fromkeys(["cond", "scan", "while"], "carries jaxprs: checked in control_flow/test_*_transforms.py and "
                    "test_scan_grad.py with finite differences"),
    "custom_linear_solve": "carries jaxprs: checked in control_flow/test_solves.py with finite differences",
    "remat_opt": "a custom_vjp's staged forward function, whose forward mode is refused as JAX refuses it: "
                 "checked in ad/test_remat_opt.py",
    "shard_map": "carries a jaxpr over a mesh: checked in test_shard_map.py with finite differences",
    "compute_on": "carries a jaxpr run on a compute type: checked in test_compute_on.py against analytic "
                  "derivatives",
    "custom_vmap_call": "carries a jaxpr and a user rule; forward mode only, as in JAX: checked in "
                        "test_custom_batching.py",
    "stage": "staging records no equation for it (the operand itself): its jvp is checked in lax/test_barriers.py",
    "composite": "not differentiable, as in JAX (its jvp raises): checked in lax/test_platform_composite.py",
    **dict.fromkeys(["pure_callback", "io_callback"], "not differentiable, as in JAX (the jvp raises): checked in "
                    "test_callbacks.py"),
    "ffi_call": "not differentiable, as in JAX (the jvp raises): checked in test_ffi.py",
    **dict.fromkeys(["debug_callback", "debug_print"], "no outputs: the rule sees primal values only, checked in "
                    "test_callbacks.py"),
    "inspect_sharding": "no outputs: the rule inspects the primal only, checked on eight devices in multidevice-tests",
}


def _case_id(case: Case) -> str:
    return f"{case.primitive}-{case.label}" if case.label else case.primitive


def _ids(cases: list[Case]) -> list[str]:
    seen: dict[str, int] = {}
    out = []
    for case in cases:
        name = _case_id(case)
        seen[name] = seen.get(name, 0) + 1
        out.append(name if seen[name] == 1 else f"{name}-{seen[name]}")
    return out


def test_the_sweep_covers_every_primitive_with_a_jvp_rule():
    with_rules = {p.name for p in jvp_rules if not p.name.startswith("test_")}
    swept = {case.primitive for case in CASES}
    assert swept.isdisjoint(NOT_SWEPT)
    assert swept | set(NOT_SWEPT) == with_rules, (sorted(with_rules - swept - set(NOT_SWEPT)),
                                                  sorted((swept | set(NOT_SWEPT)) - with_rules))


def _as_precision(x: np.ndarray, x64: bool) -> np.ndarray:
    if x64 or np.asarray(x).dtype.kind not in "fc":
        return np.asarray(x)
    return np.asarray(x, np.complex64 if np.iscomplexobj(x) else np.float32)


def _primitive_names(jaxpr) -> set[str]:
    names = set()
    for eqn in jaxpr.eqns:
        names.add(eqn.primitive.name)
        for value in eqn.params.values():
            inner = getattr(value, "jaxpr", None)
            if inner is not None:
                names |= _primitive_names(inner)
    return names


@pytest.mark.parametrize("case", CASES, ids=_ids(CASES))
def test_each_case_binds_its_primitive(case):
    with enable_x64(True):
        args = case.make(np.random.default_rng(0))
        assert case.primitive in _primitive_names(make_jaxpr(case.fun)(*args).jaxpr)


@pytest.mark.parametrize("x64", [True, False], ids=["f64", "f32"])
@pytest.mark.parametrize("case", CASES, ids=_ids(CASES))
def test_sweep(case, x64):
    tolerance = {} if x64 else dict(atol=5e-3, rtol=5e-3, eps=1e-3)
    with enable_x64(x64):
        args = tuple(_as_precision(a, x64) for a in case.make(np.random.default_rng(0)))
        check_grads(case.fun, args, case.order, modes=case.modes, **tolerance)
