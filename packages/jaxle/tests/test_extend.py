"""Primitives defined through ``jaxle.extend`` and ``jaxle.interpreters``, as libraries define theirs: they run
eagerly, under jit (lowered by ``mlir.lower_fun``), grad, vmap and their compositions, against NumPy."""

import numpy as np
import pytest

import jaxle as jax
import jaxle.numpy as jnp
from jaxle import core, lax
from jaxle.extend import backend
from jaxle.extend import core as ext_core
from jaxle.extend import linear_util as lu
from jaxle.interpreters import ad, batching, mlir
from jaxle.interpreters import partial_eval as pe

X = np.array([0.3, -1.2, 2.0], np.float32)


def _unary(name, impl):
    """A primitive computing ``impl`` elementwise, with its abstract eval and lowering."""
    p = ext_core.Primitive(name)
    p.def_impl(impl)
    p.def_abstract_eval(lambda x: core.ShapedArray(x.shape, x.dtype))
    mlir.register_lowering(p, mlir.lower_fun(impl, multiple_results=False))
    return p


@pytest.fixture(scope="module")
def cube():
    """x**3 with a jvp written as a rule, its tangent a bilinear primitive (``scale``) with its transposes."""
    cube_p = _unary("test_cube", lambda x: x * x * x)
    scale_p = ext_core.Primitive("test_scale")  # t * factor
    scale_p.def_impl(lambda t, factor: t * factor)
    scale_p.def_abstract_eval(lambda t, factor: core.ShapedArray(np.broadcast_shapes(t.shape, factor.shape), t.dtype))
    mlir.register_lowering(scale_p, mlir.lower_fun(lambda t, factor: t * factor, multiple_results=False))
    ad.defbilinear(scale_p, lambda ct, t, factor: scale_p.bind(ct, factor), lambda ct, t, factor: scale_p.bind(t, ct))
    batching.defbroadcasting(scale_p)

    def cube_jvp(primals, tangents):
        (x,), (t,) = primals, tangents
        return cube_p.bind(x), scale_p.bind(ad.instantiate_zeros(t), 3 * x * x)

    ad.primitive_jvps[cube_p] = cube_jvp
    batching.defvectorized(cube_p)
    return cube_p


def test_eager_jit_and_jaxpr(cube):
    np.testing.assert_allclose(cube.bind(X), X ** 3, rtol=1e-6)
    np.testing.assert_allclose(jax.jit(cube.bind)(X), X ** 3, rtol=1e-6)
    jaxpr = jax.make_jaxpr(cube.bind)(X)
    assert [e.primitive for e in jaxpr.eqns] == [cube]
    assert str(jaxpr) == "{ lambda ; a:f32[3]. let b:f32[3] = test_cube a in (b,) }"


def test_grad_vmap_and_compositions(cube):
    f = lambda x: cube.bind(x).sum()
    np.testing.assert_allclose(jax.grad(f)(X), 3 * X ** 2, rtol=1e-6)
    np.testing.assert_allclose(jax.jit(jax.grad(f))(X), 3 * X ** 2, rtol=1e-6)
    np.testing.assert_allclose(jax.vmap(cube.bind)(X), X ** 3, rtol=1e-6)
    per_element = jax.jit(jax.vmap(jax.grad(lambda x: cube.bind(x))))(X)
    np.testing.assert_allclose(per_element, 3 * X ** 2, rtol=1e-6)
    hess = jax.jacfwd(jax.grad(f))(X)
    np.testing.assert_allclose(np.diag(hess), 6 * X, rtol=1e-6)


def test_multiple_results_primitive():
    p = ext_core.Primitive("test_sincos")
    p.multiple_results = True
    p.def_impl(lambda x: [jnp.sin(x), jnp.cos(x)])
    p.def_abstract_eval(lambda x: [core.ShapedArray(x.shape, x.dtype)] * 2)
    mlir.register_lowering(p, mlir.lower_fun(lambda x: [jnp.sin(x), jnp.cos(x)], multiple_results=True))

    def batcher(vals, dims):
        return p.bind(*vals), [dims[0], dims[0]]

    batching.primitive_batchers[p] = batcher
    for fun in (p.bind, jax.jit(p.bind), jax.vmap(p.bind)):
        s, c = fun(X)
        np.testing.assert_allclose(s, np.sin(X), rtol=1e-6)
        np.testing.assert_allclose(c, np.cos(X), rtol=1e-6)


def test_axis_primitive_batchers_see_the_mapped_axis():
    p = _unary("test_axis_scaled", lambda x: x)
    seen = []

    def batcher(axis_size, axis_name, trace_type, vals, dims):
        seen.append((axis_name, axis_size, trace_type))
        return vals[0] * axis_size, dims[0]

    batching.axis_primitive_batchers[p] = batcher
    assert batching.axis_primitive_batchers[p] is batcher
    np.testing.assert_allclose(jax.vmap(p.bind, axis_name="i")(X), X * 3)
    np.testing.assert_allclose(jax.jit(jax.vmap(p.bind))(X[:2]), X[:2] * 2)
    assert seen[:2] == [("i", 3, None), (None, 2, None)]


def test_defjvp_deflinear_defbilinear_and_reducer():
    sq = _unary("test_square", lambda x: x * x)
    ad.defjvp(sq, lambda g, x: g * 2 * x)
    np.testing.assert_allclose(jax.grad(lambda x: sq.bind(x).sum())(X), 2 * X, rtol=1e-6)

    neg = _unary("test_neg", lambda x: -x)
    ad.deflinear2(neg, lambda ct, x: [neg.bind(ct)])
    np.testing.assert_allclose(jax.grad(lambda x: (neg.bind(x) * X).sum())(X), -X)
    np.testing.assert_allclose(jax.jvp(neg.bind, (X,), (X,))[1], -X)

    mul = ext_core.Primitive("test_mul")
    mul.def_impl(lambda x, y: x * y)
    mul.def_abstract_eval(lambda x, y: core.ShapedArray(x.shape, x.dtype))
    ad.defbilinear(mul, lambda ct, x, y: mul.bind(ct, y), lambda ct, x, y: mul.bind(x, ct))
    y = X[::-1].copy()
    gx, gy = jax.grad(lambda a, b: mul.bind(a, b).sum(), argnums=(0, 1))(X, y)
    np.testing.assert_allclose(gx, y)
    np.testing.assert_allclose(gy, X)

    total = ext_core.Primitive("test_sum")
    total.def_impl(lambda x, *, axes: jnp.sum(x, axis=axes))
    total.def_abstract_eval(
        lambda x, *, axes: core.ShapedArray(tuple(d for i, d in enumerate(x.shape) if i not in axes), x.dtype))
    batching.defreducer(total)
    m = np.arange(24.0, dtype=np.float32).reshape(2, 3, 4)
    np.testing.assert_allclose(jax.vmap(lambda a: total.bind(a, axes=(1,)), in_axes=2)(m), m.sum(1).T)


def test_missing_rules_name_the_primitive():
    p = ext_core.Primitive("test_unruled")
    p.def_impl(lambda x: x)
    p.def_abstract_eval(lambda x: x)
    with pytest.raises(NotImplementedError, match="Differentiation rule for 'test_unruled' not implemented"):
        jax.grad(lambda x: p.bind(x))(1.0)
    with pytest.raises(NotImplementedError, match="Batching rule for 'test_unruled' not implemented"):
        jax.vmap(p.bind)(X)


def test_platform_specific_lowering_wins():
    p = ext_core.Primitive("test_platformed")
    p.def_impl(lambda x: x + 1)
    p.def_abstract_eval(lambda x: x)
    mlir.register_lowering(p, mlir.lower_fun(lambda x: x + 1, multiple_results=False))
    mlir.register_lowering(p, mlir.lower_fun(lambda x: x + 2, multiple_results=False), platform="cpu")
    platform = backend.get_backend().platform
    np.testing.assert_allclose(jax.jit(p.bind)(X), X + (2 if platform == "cpu" else 1))


def test_linear_util_and_partial_eval():
    def scale_args(f, k, *args):
        return [o * k for o in f(*(a + 1 for a in args))]

    def count_outputs(f, store, *args):
        outs = f(*args)
        store.store(len(outs))
        return outs

    wrapped = lu.transformation2(scale_args, lu.wrap_init(lambda x, y: [x * y, x - y]), 10.0)
    wrapped, n_out = lu.transformation_with_aux2(count_outputs, wrapped)
    assert wrapped.call_wrapped(1.0, 2.0) == [60.0, -10.0]
    assert n_out() == 2

    jaxpr, out_avals, consts = pe.trace_to_jaxpr_dynamic(lu.wrap_init(lambda a, b: [lax.mul(a, b)]),
                                                        [core.ShapedArray((3,), np.float32)] * 2)
    assert [e.primitive.name for e in jaxpr.eqns] == ["mul"] and consts == []
    assert out_avals == [core.ShapedArray((3,), np.float32)]

    f = lu.wrap_init(lambda x, y: [lax.mul(x, lax.add(y, 1.0)), lax.add(y, 1.0)])
    jaxpr, out_pvals, consts = pe.trace_to_jaxpr_nounits(
        f, [pe.PartialVal.unknown(core.ShapedArray((3,), np.float32)), pe.PartialVal.known(np.float32(2.0))])
    assert [e.primitive.name for e in jaxpr.eqns] == ["mul"]
    assert not out_pvals[0].is_known() and out_pvals[1].is_known()
    assert float(out_pvals[1].get_known()) == 3.0 and [float(c) for c in consts] == [3.0]
    np.testing.assert_allclose(ext_core.jaxpr_as_fun(ext_core.ClosedJaxpr(jaxpr, consts), X)[0], X * 3.0)


def test_argnums_partial_refuses_an_unhashable_static_argument_with_jaxs_message():
    from jaxle import api_util

    def scaled(x, factor, bias):
        return x * factor[0] + bias

    args = (1.0, [2.0], 3.0)
    wrapped = lu.wrap_init(scaled, debug_info=api_util.debug_info("test", scaled, args, {}))
    # JAX 0.10.2's message, word for word
    with pytest.raises(ValueError, match=r"^Non-hashable static arguments are not supported, as this can lead to "
                       r"unexpected cache-misses\. Static argument \(index 1\) of type <class 'list'> for function "
                       r"scaled is non-hashable\.$"):
        api_util.argnums_partial(wrapped, (0, 2), args)
    partial, dynamic = api_util.argnums_partial(wrapped, (0, 2), args, require_static_args_hashable=False)
    assert dynamic == (1.0, 3.0) and partial.call_wrapped(2.0, 1.0) == 5.0


def test_core_helpers_and_backend():
    aval = core.ShapedArray((2, 5, 3), np.float32)
    assert ext_core.mapped_aval(5, 1, aval) == core.ShapedArray((2, 3), np.float32)
    assert ext_core.unmapped_aval(4, 0, aval) == core.ShapedArray((4, 2, 5, 3), np.float32)
    assert ext_core.primal_dtype_to_tangent_dtype(np.int32) == jax.dtypes.float0
    assert ext_core.valid_jaxtype(X) and not ext_core.valid_jaxtype("text")
    closed = jax.make_jaxpr(lambda x: jax.jit(jnp.sin)(x))(X)
    assert [j.eqns[0].primitive.name for j in ext_core.subjaxprs(closed.jaxpr)] == ["sin"]
    assert backend.get_backend() is backend.backends()[backend.get_backend().platform]
    assert backend.get_default_device() == jax.devices()[0]
    with pytest.raises(jax.errors.ConcretizationTypeError):
        jax.jit(lambda x: ext_core.concrete_or_error(float, x))(1.0)


def test_call_primitives_apply_the_called_function():
    from jaxle.extend.core.primitives import call_p, closed_call_p

    closed = jax.make_jaxpr(lambda x, y: (x * y + 1.0,))(2.0, 3.0)
    (out,) = closed_call_p.bind(jnp.float32(2.0), jnp.float32(3.0), call_jaxpr=closed)
    assert float(out) == 7.0
    (staged,) = jax.jit(lambda x: closed_call_p.bind(x, 3.0, call_jaxpr=closed))(4.0)
    assert float(staged) == 13.0
    (called,) = call_p.bind(lu.wrap_init(lambda x: [x - 1.0], debug_info=None), 5.0)
    assert float(called) == 4.0


def test_traced_values_are_jax_arrays():
    seen = []
    jax.jit(lambda x: seen.append(isinstance(x, jax.Array)))(1.0)
    jax.vmap(lambda x: seen.append(isinstance(x, jax.Array)))(jnp.ones(2))
    assert seen == [True, True]
    assert isinstance(jnp.ones(2), jax.Array) and not isinstance(1.0, jax.Array)


def test_find_top_trace_is_the_running_transformation_and_main_identifies_it():
    seen = []

    def f(x):
        trace = ext_core.find_top_trace([1.0])  # JAX 0.10.2: the current trace, whatever the values given
        seen.append((type(trace).__name__, trace.main is ext_core.find_top_trace([x]).main,
                     isinstance(x, ad.JVPTracer) and x._trace.main is trace.main))
        return x

    jax.jvp(f, (1.0,), (1.0,))
    assert seen == [("JVPTrace", True, True)]


def test_to_tangent_aval():
    assert jax.typeof(jnp.float32(1)).to_tangent_aval() == core.ShapedArray((), jnp.float32)
    assert jax.typeof(1.0).to_tangent_aval() == core.ShapedArray((), jnp.float32, weak_type=True)
    assert jax.typeof(jnp.arange(3)).to_tangent_aval() == core.ShapedArray((3,), jax.dtypes.float0)


def test_lowering_of_a_primitive_with_params_named_prim_and_ctx():
    p = ext_core.Primitive("test_named_params")
    p.def_impl(lambda x, prim, ctx: x * prim + ctx)
    p.def_abstract_eval(lambda x, prim, ctx: core.ShapedArray(x.shape, x.dtype))
    mlir.register_lowering(p, mlir.lower_fun(lambda x, prim, ctx: x * prim + ctx, multiple_results=False))
    np.testing.assert_allclose(jax.jit(lambda x: p.bind(x, prim=2.0, ctx=1.0))(X), X * 2 + 1, rtol=1e-6)


def test_a_rule_calling_the_host_through_emit_python_callback():
    p = ext_core.Primitive("test_host_sine")
    p.def_impl(lambda x: np.sin(x))
    p.def_abstract_eval(lambda x: core.ShapedArray(x.shape, x.dtype))
    calls = []

    def host(x):
        calls.append(x.shape)
        return [np.sin(x).astype(x.dtype)]

    def rule(ctx, x):
        results, token, _ = mlir.emit_python_callback(ctx, host, None, [x], ctx.avals_in, ctx.avals_out,
                                                      has_side_effect=False)
        ctx.module_context.add_keepalive(None)
        assert token is None
        return results

    mlir.register_lowering(p, rule)
    np.testing.assert_allclose(jax.jit(p.bind)(X), np.sin(X), rtol=1e-6)
    assert calls == [(3,)]
