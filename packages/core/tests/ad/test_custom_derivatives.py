"""``custom_jvp``, ``custom_vjp`` and ``closure_convert``: derivatives against analytic ones and finite differences,
under every transformation and their nestings, JAX's errors, and JAX 0.10.2's jaxprs."""

from __future__ import annotations

import functools
import pathlib
import sys

import numpy as np
import pytest
from jvp_checks import assert_jaxprs_match_golden, finite_difference, x64_everywhere  # noqa: F401  (autouse fixture)

import jaxle_core as jax
import jaxle_tree
from jaxle_core import dtypes, lax
from jaxle_core.custom_derivatives import CustomVJPPrimal, SymbolicZero, closure_convert, custom_jvp, custom_vjp
from jaxle_core.errors import UnexpectedTracerError

GOLDEN_DIR = pathlib.Path(__file__).parents[1] / "golden"
sys.path.insert(0, str(GOLDEN_DIR))
from make_custom_golden import examples, render  # noqa: E402

FORWARD_ERROR = r"can't apply forward-mode autodiff \(jvp\) to a custom_vjp function\."


def close(value, expected, rtol=1e-12, atol=1e-12):
    np.testing.assert_allclose(np.asarray(value), expected, rtol=rtol, atol=atol)


@pytest.fixture
def seed_functions():
    """The seed documents' examples: f (custom_jvp), h (defjvps), g (custom_vjp), clip_gradient, apply."""
    import jaxle_core.custom_derivatives as cd

    return examples(cd, lax)


# ---------------------------------------------------------------- custom_jvp


def test_custom_jvp_seed_example_under_every_mode(seed_functions):
    f, h, *_ = seed_functions
    x, y = 0.7, 1.3
    for fun in (f, h):
        close(fun(x, y), np.sin(x) * y)
        value, tangent = jax.jvp(fun, (x, y), (0.5, -2.0))
        close(value, np.sin(x) * y)
        close(tangent, np.cos(x) * 0.5 * y + np.sin(x) * -2.0)
        close(jax.grad(fun, (0, 1))(x, y), (np.cos(x) * y, np.sin(x)))
        close(jax.jit(jax.grad(fun))(x, y), np.cos(x) * y)
        close(jax.grad(jax.jit(fun), (0, 1))(x, y), (np.cos(x) * y, np.sin(x)))
        close(jax.linearize(fun, x, y)[1](1.0, 1.0), np.cos(x) * y + np.sin(x))
        close(jax.vjp(fun, x, y)[1](2.0), (2 * np.cos(x) * y, 2 * np.sin(x)))
    close(jax.grad(jax.grad(f))(x, y), -np.sin(x) * y)
    close(jax.jvp(lambda a: jax.grad(f)(a, y), (x,), (1.0,))[1], -np.sin(x) * y)


def test_custom_jvp_rule_is_used_instead_of_differentiating_the_function():
    @custom_jvp
    def log1pexp(x):
        return lax.log(1.0 + lax.exp(x))

    @log1pexp.defjvp
    def log1pexp_jvp(primals, tangents):
        (x,), (t,) = primals, tangents
        return log1pexp(x), t * (1.0 - 1.0 / (1.0 + lax.exp(x)))

    naive = jax.grad(lambda x: lax.log(1.0 + lax.exp(x)))(1000.0)
    assert np.isnan(naive)
    close(jax.grad(log1pexp)(1000.0), 1.0)
    close(jax.jit(jax.grad(log1pexp))(3.0), 1 / (1 + np.exp(-3.0)))
    close(jax.grad(log1pexp)(0.0), 0.5)
    sigmoid = 1 / (1 + np.exp(-0.3))
    close(jax.hessian(log1pexp)(0.3), sigmoid * (1 - sigmoid))  # the rule's tangent, differentiated as usual
    for x in (-2.0, 0.0, 3.0):
        close(jax.jvp(log1pexp, (x,), (1.0,))[1], finite_difference(log1pexp, (x,), (1.0,)), rtol=1e-7)


def test_custom_jvp_nondiff_argnums_and_integer_arguments(seed_functions):
    *_, apply = seed_functions
    close(apply(lax.sin, 0.3), np.sin(0.3))
    close(jax.grad(lambda x: apply(lax.sin, x))(0.3), 2.0)  # the rule's derivative, not cos
    close(jax.jvp(lambda x: apply(lax.exp, x), (0.3,), (1.5,))[1], 3.0)

    @custom_jvp
    def scale(x, n):
        return x * n

    scale.defjvp(lambda p, t: (scale(*p), t[0] * p[1] + 100.0))
    close(jax.grad(scale)(2.0, 3), 3.0)
    value, tangent = jax.jvp(scale, (2.0, 3), (1.0, np.zeros((), dtypes.float0)))
    close(value, 6.0)
    close(tangent, 103.0)

    @functools.partial(custom_jvp, nondiff_argnums=(1,))
    def power(x, k):
        return x ** k

    @power.defjvp
    def power_jvp(k, primals, tangents):
        (x,), (t,) = primals, tangents
        return power(x, k), k * x ** (k - 1) * t

    close(jax.grad(power)(1.5, 3), 3 * 1.5 ** 2)
    close(jax.grad(jax.grad(power))(1.5, 3), 6 * 1.5)


def test_custom_jvp_pytrees_and_keyword_arguments():
    @custom_jvp
    def stats(d, scale=2.0):
        return {"sum": d["a"] + d["b"], "prod": d["a"] * d["b"] * scale}

    @stats.defjvp
    def stats_jvp(primals, tangents):
        (d, scale), (t, _) = primals, tangents
        out = stats(d, scale)
        return out, {"sum": t["a"] + t["b"], "prod": (t["a"] * d["b"] + d["a"] * t["b"]) * scale}

    d = {"a": 1.5, "b": -0.5}
    close(stats(d)["prod"], -1.5)
    g = jax.grad(lambda d: stats(d=d)["prod"])(d)
    close(g["a"], -1.0)
    close(g["b"], 3.0)
    _, tangent = jax.jvp(lambda d: stats(d, scale=1.0), (d,), ({"a": 1.0, "b": 1.0},))
    close(tangent["sum"], 2.0)
    close(tangent["prod"], 1.0)


def test_custom_jvp_with_symbolic_zeros_sees_zero_tangents():
    seen = []

    @custom_jvp
    def f(x, y):
        return x * y

    def f_jvp(primals, tangents):
        seen.append(tuple(type(t).__name__ for t in tangents))
        x, y = primals
        tx, ty = tangents
        return f(x, y), tx * y

    f.defjvp(f_jvp, symbolic_zeros=True)
    close(jax.grad(f)(2.0, 3.0), 3.0)
    assert seen[-1][1] == "SymbolicZero"
    assert jax.make_jaxpr(f)(2.0, 3.0).eqns[0].params["symbolic_zeros"] is True

    @custom_jvp
    def pair(x, y):
        return x * y, x

    pair.defjvp(lambda p, t: (pair(*p), (t[0] * p[1], SymbolicZero.from_primal_value(p[0]))), symbolic_zeros=True)
    _, tangents = jax.jvp(pair, (2.0, 3.0), (1.0, 1.0))
    close(tangents, (3.0, 0.0))


def test_custom_vjp_with_symbolic_zeros_sees_perturbation_and_zero_cotangents():
    seen = []

    @custom_vjp
    def g(x, y):
        return x * y, x

    def fwd(x, y):
        seen.append((x.perturbed, y.perturbed))
        return g(x.value, y.value), (x.value, y.value)

    def bwd(res, ct):
        seen.append(repr(ct[1]))
        return ct[0] * res[1], SymbolicZero.from_primal_value(res[1])

    g.defvjp(fwd, bwd, symbolic_zeros=True)
    close(jax.grad(lambda a, b: g(a, b)[0])(2.0, 3.0), 3.0)
    assert seen == [(True, False), "SymbolicZero"]
    primal = CustomVJPPrimal(1.0, True)
    assert jaxle_tree.tree_leaves([primal]) == [primal] and (primal.value, primal.perturbed) == (1.0, True)


# ---------------------------------------------------------------- custom_vjp


def test_custom_vjp_seed_example_under_reverse_mode(seed_functions):
    _, _, g, *_ = seed_functions
    x, y = 0.7, 1.3
    close(g(x, y), np.sin(x) * y)
    close(jax.grad(g, (0, 1))(x, y), (np.cos(x) * y, np.sin(x)))
    close(jax.jit(jax.grad(g))(x, y), np.cos(x) * y)
    close(jax.grad(jax.jit(g), (0, 1))(x, y), (np.cos(x) * y, np.sin(x)))
    value, pullback = jax.vjp(g, x, y)
    close(value, np.sin(x) * y)
    close(pullback(2.0), (2 * np.cos(x) * y, 2 * np.sin(x)))
    close(jax.grad(jax.grad(g))(x, y), -np.sin(x) * y)  # the bwd rule differentiated
    with pytest.raises(TypeError, match=FORWARD_ERROR):  # fwd calls g, whose primal is then pushed forward
        jax.jvp(lambda a: jax.grad(g)(a, y), (x,), (1.0,))
    close(jax.value_and_grad(lambda a: g(a, y) * 3.0)(x), (3 * np.sin(x) * y, 3 * np.cos(x) * y))


def test_custom_vjp_rule_replaces_the_derivative(seed_functions):
    *_, clip_gradient, _ = seed_functions
    close(clip_gradient(2.5, 0.5), 2.5)
    close(jax.grad(lambda x: clip_gradient(x, 0.5) * 3.0)(1.0), 0.5)
    close(jax.grad(lambda x: clip_gradient(x, 0.5) * 0.25)(1.0), 0.25)
    close(jax.grad(lambda x: clip_gradient(lax.sin(x), 0.5) * -3.0)(0.2), -0.5 * np.cos(0.2))
    close(jax.jit(jax.grad(lambda x: clip_gradient(x, 2.0) * 3.0))(1.0), 2.0)


def test_custom_vjp_pytrees_none_cotangents_and_static_residuals():
    @custom_vjp
    def f(pair, k):
        a, b = pair
        return {"out": a * b * k}

    def fwd(pair, k):
        return f(pair, k), {"pair": pair, "k": k, "tag": "static"}

    def bwd(res, ct):
        assert res["tag"] == "static"
        a, b = res["pair"]
        g = ct["out"] * res["k"]
        return (g * b, g * a), None

    f.defvjp(fwd, bwd)
    grads = jax.grad(lambda p, k: f(p, k)["out"], (0, 1))((2.0, 5.0), 3.0)
    close(grads[0], (15.0, 6.0))
    close(grads[1], 0.0)


def test_custom_vjp_refuses_forward_mode(seed_functions):
    _, _, g, *_ = seed_functions
    with pytest.raises(TypeError, match=FORWARD_ERROR):
        jax.jvp(g, (1.0, 2.0), (1.0, 1.0))
    with pytest.raises(TypeError, match=FORWARD_ERROR):
        jax.jit(lambda x: jax.jvp(g, (x, 2.0), (x, 0.0)))(1.0)
    with pytest.raises(TypeError, match=FORWARD_ERROR):
        jax.linearize(lambda x: g(x, 2.0), 1.0)[1](1.0)
    with pytest.raises(TypeError, match=FORWARD_ERROR):
        jax.jacfwd(lambda x: g(x, 2.0))(1.0)
    # staged but not evaluated: JAX prints the custom_lin equation
    assert "custom_lin" in str(jax.make_jaxpr(lambda x: jax.jvp(g, (x, 2.0), (x, 1.0)))(1.0))
    close(jax.jacrev(lambda x: g(x, 2.0))(1.0), 2 * np.cos(1.0))


def test_custom_vjp_nondiff_function_argument_with_closure_convert():
    @functools.partial(custom_vjp, nondiff_argnums=(0,))
    def apply(fn, x, *args):
        return fn(x, *args)

    def apply_fwd(fn, x, *args):
        return apply(fn, x, *args), (x, args)

    def apply_bwd(fn, res, ct):
        x, args = res
        return jax.vjp(fn, x, *args)[1](ct)

    apply.defvjp(apply_fwd, apply_bwd)

    def outer(x, y):
        converted, consts = closure_convert(lambda z: lax.sin(z) * y, x)
        return apply(converted, x, *consts)

    close(outer(0.4, 3.0), np.sin(0.4) * 3.0)
    close(jax.grad(outer, (0, 1))(0.4, 3.0), (np.cos(0.4) * 3.0, np.sin(0.4)))
    close(jax.jit(jax.grad(outer, 1))(0.4, 3.0), np.sin(0.4))


def test_closure_convert_hoists_only_traced_values():
    w = np.array([1.0, 2.0])
    converted, consts = closure_convert(lambda x: x * w, 3.0)
    assert consts == []
    close(converted(2.0), [2.0, 4.0])

    hoisted = []

    def traced(x, y):
        converted, consts = closure_convert(lambda z: z * y + x, x)
        hoisted.append(len(consts))
        return converted(2.0, *consts)

    close(traced(1.0, 5.0), 11.0)
    close(jax.jit(traced)(1.0, 5.0), 11.0)
    assert hoisted == [0, 2]  # concrete values stay closed over; tracers become arguments
    close(jax.grad(traced, (0, 1))(1.0, 5.0), (1.0, 2.0))


def test_custom_functions_closing_over_outer_tracers():
    def under_jit(x, y):
        @custom_jvp
        def f(a):
            return a * y

        f.defjvp(lambda p, t: (f(p[0]), t[0] * 7.0))
        return f(x), jax.grad(f)(x)

    value, derivative = jax.jit(under_jit)(2.0, 3.0)
    close(value, 6.0)
    close(derivative, 7.0)

    def differentiated(y):
        @custom_vjp
        def c(x):
            return x * y

        c.defvjp(lambda x: (x * y, None), lambda r, ct: (ct * 2,))
        return c(1.0)

    with pytest.raises(UnexpectedTracerError):
        jax.grad(differentiated)(3.0)


def test_eager_calls_run_the_python_function():
    calls = []

    @custom_jvp
    def f(x):
        calls.append(type(x).__name__)
        return x * 2.0

    f.defjvp(lambda p, t: (f(p[0]), t[0]))
    close(f(np.float64(1.5)), 3.0)
    assert calls == ["float64"]


# ---------------------------------------------------------------- errors


def test_rule_errors():
    @custom_jvp
    def f(x):
        return lax.sin(x)

    with pytest.raises(AttributeError, match="No JVP defined for custom_jvp function f using defjvp."):
        f(1.0)
    f.defjvp(lambda p, t: (f(p[0]),))
    with pytest.raises(TypeError, match="must produce a pair"):
        jax.jvp(f, (1.0,), (1.0,))
    f.defjvp(lambda p, t: ((f(p[0]),), t[0]))
    with pytest.raises(TypeError, match="equal container"):
        jax.jvp(f, (1.0,), (1.0,))
    f.defjvp(lambda p, t: (f(p[0]), lax.convert_element_type(t[0], np.float32)))
    with pytest.raises(TypeError, match=r"Expected float64\[\] \(tangent type of float64\[\]\) but got float32\[\]"):
        jax.jvp(f, (1.0,), (1.0,))

    @custom_vjp
    def g(x):
        return lax.sin(x)

    with pytest.raises(AttributeError, match="No VJP defined for custom_vjp function g using defvjp."):
        g(1.0)
    g.defvjp(lambda x: (lax.sin(x), lax.cos(x)), lambda r, ct: r * ct)
    with pytest.raises(TypeError, match=r"bwd output structure PyTreeDef\(\*\) for primal input structure "
                                        r"PyTreeDef\(\(\*,\)\)"):
        jax.grad(g)(1.0)
    g.defvjp(lambda x: (lax.sin(x), lax.cos(x)), lambda r, ct: (lax.broadcast_in_dim(ct, (3,), ()),))
    with pytest.raises(ValueError, match=r"at output\[0\] the bwd rule produced an output of type float64\[3\]"):
        jax.grad(g)(1.0)
    g.defvjp(lambda x: lax.sin(x), lambda r, ct: (ct,))
    with pytest.raises(TypeError, match="Custom VJP fwd rule <lambda> for function g must produce a pair"):
        jax.grad(g)(1.0)


# ---------------------------------------------------------------- jaxprs against JAX 0.10.2

def test_jaxprs_match_jax():
    assert_jaxprs_match_golden("custom_golden.json", render)


def test_zero_from_primal_and_primal_tree_values():
    from jaxle_core.custom_derivatives import custom_vjp_primal_tree_values, zero_from_primal

    ints = zero_from_primal({"a": np.ones(2, np.int32)})["a"]
    assert ints.dtype == dtypes.float0 and ints.shape == (2,)
    zero = zero_from_primal(1.0)
    assert float(zero) == 0.0 and zero.weak_type
    symbolic = zero_from_primal(np.ones(2, np.float32), symbolic_zeros=True)
    assert isinstance(symbolic, SymbolicZero) and symbolic.aval.shape == (2,)
    assert custom_vjp_primal_tree_values([CustomVJPPrimal(1.0, True), (CustomVJPPrimal(2.0, False),)]) == [1.0, (2.0,)]
    with pytest.raises(TypeError, match="unexpected leaf type <class 'float'>"):
        custom_vjp_primal_tree_values([1.0])
