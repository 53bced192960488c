"""The exceptions JAX 0.10.2 raises for bad uses of the collectives and of the jit/vmap API, as JSON.

Usage: ``python make_api_errors_golden.py jax api_errors_golden.json`` (with JAX 0.10.2's interpreter) writes the
goldens; with ``jaxle_core`` it prints jaxle's. Cases come in sections (``SECTIONS``); each entry is
``{"type": exception class name or null, "message": str(exception), "compare": how many leading characters of
the message to compare (null: all)}``; a message whose tail names a memory address, a source line or a set's
order is compared up to it (source paths and object addresses are left out).
"""

from __future__ import annotations

import importlib
import os
import re
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from make_jvp_golden import write_golden  # noqa: E402

f32 = np.float32
X = np.arange(12, dtype=f32).reshape(4, 3)
INDICES = np.array([0, 1], np.int32)


def collective_cases(impl, lax):
    """``(name, thunk, marker)``: the message is compared up to ``marker`` (all of it if None)."""
    vmap, make_jaxpr = impl.vmap, impl.make_jaxpr

    def named(f):
        return vmap(f, axis_name="i")

    def env(f):
        return make_jaxpr(f, axis_env=[("i", 4)])

    def both(f):  # "i" over the rows, "j" over the columns
        return vmap(vmap(f, axis_name="j"), axis_name="i")

    def ragged(*index_operands, **kwargs):
        operands = index_operands + (INDICES,) * (4 - len(index_operands))
        return lambda v: lax.ragged_all_to_all(v[0], v[1], *operands, axis_name="i", **kwargs)

    return [
        ("axis_size_unbound", lambda: lax.axis_size("i"), None),
        ("axis_size_unnamed_vmap", lambda: vmap(lambda v: v * lax.axis_size("i"))(X), None),
        ("pbroadcast_eager", lambda: lax.pbroadcast(X, "i", 0), None),
        ("pbroadcast_staged_unbound", lambda: make_jaxpr(lambda v: lax.pbroadcast(v, "j", 2))(X), None),
        ("pbroadcast_computed_operand", lambda: named(lambda v: lax.pbroadcast(2 * v, "i", 1))(X), None),
        ("pbroadcast_staged_vmap", lambda: make_jaxpr(named(lambda v: lax.pbroadcast(v, "i", 1)))(X), None),
        ("pbroadcast_transpose_of_an_array",
         lambda: env(lambda v: impl.vjp(lambda u: lax.pbroadcast(u, "i", 1), v)[1](v))(X[0]), None),
        ("pbroadcast_source_too_large", lambda: named(lambda v: lax.pbroadcast(v, "i", 4))(X), None),
        ("pbroadcast_source_negative", lambda: named(lambda v: lax.pbroadcast(v, "i", -1))(X), None),
        ("pshuffle_not_a_permutation", lambda: named(lambda v: lax.pshuffle(v, "i", [1, 1, 3, 0]))(X), None),
        ("pshuffle_wrong_size", lambda: named(lambda v: lax.pshuffle(v, "i", [1, 0]))(X), None),
        ("pshuffle_eager", lambda: lax.pshuffle(X, "i", [1, 0]), None),
        ("ppermute_eager", lambda: lax.ppermute(X, "i", [(0, 1)]), None),
        ("ppermute_partial_under_vmap", lambda: named(lambda v: lax.ppermute(v, "i", [(0, 1)]))(X), None),
        ("pswapaxes_size_mismatch", lambda: named(lambda v: lax.pswapaxes(v, "i", 0))(X), None),
        ("pswapaxes_axis_out_of_range", lambda: env(lambda v: lax.pswapaxes(v, "i", 2))(X), None),
        ("pswapaxes_unbound", lambda: lax.pswapaxes(X, "i", 0), None),
        ("pcast_unknown_target", lambda: lax.pcast(X, "i", to="invariant"), "values are:"),
        ("pcast_unreduced", lambda: named(lambda v: lax.pcast(v, "i", to="unreduced"))(X), None),
        ("pcast_varying_eager", lambda: lax.pcast(X, "i", to="varying"), None),
        ("pcast_varying_vmap", lambda: named(lambda v: lax.pcast(v, ("i",), to="varying"))(X), None),
        ("pcast_varying_staged", lambda: env(lambda v: lax.pcast(v, "i", to="varying"))(X), None),
        ("pcast_varying_jit_of_vmap", lambda: impl.jit(named(lambda v: lax.pcast(v, "i", to="varying")))(X), None),
        ("pcast_varying_staged_unbound", lambda: make_jaxpr(lambda v: lax.pcast(v, "j", to="varying"))(X), None),
        ("pcast_reduced_eager", lambda: lax.pcast(X, "i", to="reduced"), None),
        ("pcast_reduced_vmap", lambda: named(lambda v: lax.pcast(v, "i", to="reduced"))(X), None),
        ("pcast_reduced_staged", lambda: env(lambda v: lax.pcast(v, "i", to="reduced"))(X), None),
        ("psend_eager", lambda: lax.psend(X, "i", [(0, 1)]), None),
        ("psend_staged_unbound", lambda: make_jaxpr(lambda v: lax.psend(v, "i", [(0, 1)]))(X), None),
        ("psend_partial_under_vmap", lambda: named(lambda v: lax.psend(v, "i", [(0, 1)]))(X), None),
        ("psend_derivative", lambda: env(impl.grad(lambda v: 0.0 * lax.psend(v, "i", [(0, 1)])))(1.0), None),
        ("precv_eager", lambda: lax.precv(lax.create_token(), X, "i", [(0, 1)]), None),
        ("precv_under_vmap", lambda: named(lambda v: lax.precv(lax.create_token(), v, "i", [(0, 1)]))(X), None),
        ("precv_shape_not_an_array", lambda: env(lambda v: lax.precv(lax.create_token(), (3,), "i", [(0, 1)]))(X),
         None),
        ("ragged_eager", lambda: ragged()(X), None),
        ("ragged_list_operand", lambda: ragged([0, 1])(X), None),
        ("ragged_staged_unbound", lambda: make_jaxpr(ragged())(X), None),
        ("ragged_float_sizes", lambda: env(ragged(INDICES, INDICES.astype(f32)))(X), None),
        ("ragged_dtype_before_rank", lambda: env(ragged(INDICES[None], INDICES.astype(f32)))(X), None),
        ("ragged_rank", lambda: env(ragged(INDICES, INDICES, INDICES[None]))(X), None),
        ("ragged_empty", lambda: env(ragged(INDICES[:0]))(X), None),
        ("ragged_vmap", lambda: vmap(ragged(), in_axes=None, axis_size=2, axis_name="i")(X), None),
        ("ragged_vmap_other_axis", lambda: vmap(ragged(), in_axes=None, axis_size=2, axis_name="j")(X), None),
        # several names including the mapped axes: vmap gathers and scatters over the product of their sizes
        ("several_axes_all_gather", lambda: both(lambda v: lax.all_gather(v, ("i", "j")))(X), None),
        ("several_axes_all_gather_others_of_size_one", lambda: both(lambda v: lax.all_gather(v, ("i", "j")))(
            X[:1]), None),
        ("several_axes_all_gather_groups", lambda: both(lambda v: lax.all_gather(
            v, ("i", "j"), axis_index_groups=[[0, 1], [2, 3]]))(X[:2, :2]), None),
        ("several_axes_psum_scatter", lambda: both(lambda v: lax.psum_scatter(v, ("i", "j"), tiled=True))(
            X[:2, :2].reshape(2, 2, 1) * np.ones(4, f32)), None),
        ("several_axes_psum_scatter_others_of_size_one", lambda: both(lambda v: lax.psum_scatter(v, ("i", "j")))(
            X[:1, :1].reshape(1, 1, 1)), None),
        ("several_axes_ppermute_over_every_member", lambda: both(lambda v: lax.ppermute(
            v, ("i", "j"), [(k, (k + 1) % 12) for k in range(12)]))(X), None),
        # an axis name bound by no vmap or shard_map: a reduction of a value that is not traced looks its size up
        # as axis_size does (the shorter NameError, naming the whole string), a traced one names psum
        ("psum_unbound_string", lambda: lax.psum(X, "ij"), None),
        ("psum_unbound_tuple", lambda: lax.psum(X, ("i", "j")), None),
        ("psum_unbound_python_int", lambda: lax.psum(1, "i"), None),
        ("psum_unbound_with_positional_axis", lambda: lax.psum(X, ("i", 0)), None),
        ("pmean_unbound", lambda: lax.pmean(X, "i"), None),
        ("pmax_unbound", lambda: lax.pmax(X, "i"), None),
        ("psum_unbound_constant_under_jit", lambda: impl.jit(lambda: lax.psum(X, "i"))(), None),
        ("pmean_unbound_constant_under_jit", lambda: impl.jit(lambda: lax.pmean(X, "i"))(), None),
        ("psum_unbound_traced_under_jit", lambda: impl.jit(lambda v: lax.psum(v, "ij"))(X), None),
        ("pmean_unbound_traced_under_jit", lambda: impl.jit(lambda v: lax.pmean(v, "i"))(X), None),
        ("psum_unbound_constant_under_vmap", lambda: named(lambda v: lax.psum(2, ("i", "j")))(X), None),
        ("psum_unbound_traced_under_vmap", lambda: named(lambda v: lax.psum(v, ("i", "j")))(X), None),
        ("several_axes_all_to_all_groups", lambda: both(lambda v: lax.all_to_all(
            v * np.ones(4, f32), ("i", "j"), 0, 0, axis_index_groups=[[0, 1, 2, 3]]))(X[:2, :2]), None),
    ]


def api_cases(impl, lax):
    """``(name, thunk, marker)`` for jit's and vmap's arguments and results, fori_loop's bounds, the cotangents of
    vjp's pullback, has_aux functions of jvp, non-linear functions given to linear_transpose, reduce_axes and a
    custom_vjp's backward rule returning a list."""
    jit, vmap = impl.jit, impl.vmap
    x = X[0]

    def add(a, b):
        return a + b

    def scale(a, n):
        return a * n

    def first(a, b):
        return a

    compiled = jit(add).lower(x, x).compile()

    @impl.custom_vjp
    def bwd_as_list(a):
        return lax.sin(a)

    bwd_as_list.defvjp(lambda a: (lax.sin(a), lax.cos(a)), lambda cos_a, ct: [cos_a * ct])
    nested = jit(first).lower(x, {"p": x, "q": (x, x)}).compile()
    static = jit(scale, static_argnums=1).lower(x, 2).compile()
    static_name = jit(scale, static_argnames="n").lower(x, n=2).compile()
    keep = jit(lambda a, n: a, static_argnums=1)

    def count(i, c):
        return c + i

    return [
        ("compiled_leaf_given_a_tuple", lambda: compiled((x,), x), None),
        ("compiled_leaf_given_a_list", lambda: compiled(x, [x]), None),
        ("compiled_given_a_keyword", lambda: compiled(x, b=x), None),
        ("compiled_given_an_extra_argument", lambda: compiled(x, x, x), None),
        ("compiled_given_another_shape", lambda: compiled(x, X[:, 0]), None),
        ("compiled_given_another_dtype", lambda: compiled(x, x.astype(np.int32)), None),
        ("compiled_dict_keys_differ", lambda: nested(x, {"p": x, "r": (x, x)}), None),
        ("compiled_dict_gains_a_key", lambda: nested(x, {"p": x, "q": (x, x), "r": x}), None),
        ("compiled_tuple_length_differs", lambda: nested(x, {"p": x, "q": (x,)}), None),
        ("compiled_none_for_a_leaf", lambda: nested(x, {"p": None, "q": (x, x)}), None),
        ("compiled_several_mismatches", lambda: nested((x,), {"p": [x], "q": [x, x]}), None),
        ("compiled_given_the_static_argument", lambda: static(x, 2), None),
        ("compiled_without_the_static_argument", lambda: static(x), None),
        ("compiled_given_the_static_keyword", lambda: static_name(x, n=2), None),
        ("compiled_without_the_static_keyword", lambda: static_name(x), None),
        ("static_argnames_not_a_parameter", lambda: jit(add, static_argnames="c"), None),
        ("static_argnames_two_not_parameters", lambda: jit(add, static_argnames=("a", "zz", "yy")), "argnames "),
        ("static_argnames_with_var_keywords", lambda: jit(lambda a, **kw: a, static_argnames="zz")(x, zz=1), None),
        ("static_argnums_out_of_range", lambda: jit(add, static_argnums=(0, 5)), None),
        ("static_argnums_negative_out_of_range", lambda: jit(add, static_argnums=-3), None),
        ("static_argnums_with_var_positional", lambda: jit(lambda *a: a[0], static_argnums=5), None),
        ("donate_argnums_out_of_range", lambda: jit(add, donate_argnums=2), None),
        ("donate_argnums_negative", lambda: jit(add, donate_argnums=-1)(x, x), None),
        ("donate_argnames_not_a_parameter", lambda: jit(add, donate_argnames="zz"), None),
        ("donate_and_static_argnums_intersect", lambda: jit(add, donate_argnums=(0, 1), static_argnums=1), None),
        ("donate_and_static_argnames_intersect", lambda: jit(add, donate_argnames="b", static_argnames="b"), None),
        ("static_argument_eq_raises", lambda: (keep(x, RaisingEq()), keep(x, RaisingEq())), "The error was:\n"),
        ("static_argument_hash_raises", lambda: jit(scale, static_argnums=1)(x, RaisingHash()), None),
        ("static_argument_unhashable", lambda: jit(scale, static_argnums=1)(x, [1, 2]), None),
        ("static_argument_hash_raises_type_error", lambda: jit(scale, static_argnums=1)(x, TypeErrorHash()),
         "Traceback (most recent call last):\n"),
        ("static_argument_jit_tracer", lambda: after_first_line(lambda: jit(lambda a: keep(x, a))(1.0)), None),
        ("static_argument_grad_tracer", lambda: after_first_line(lambda: impl.grad(lambda a: keep(a, a))(1.0)), None),
        ("static_argument_jvp_tracer",
         lambda: after_first_line(lambda: impl.jvp(lambda a: keep(a, a), (1.0,), (1.0,))), None),
        ("static_argument_vmap_tracer", lambda: after_first_line(lambda: vmap(lambda a: keep(a, a))(x)), None),
        ("static_argument_vmap_of_grad_tracer",
         lambda: after_first_line(lambda: vmap(impl.grad(lambda a: keep(a, a)))(x)), None),
        ("jit_called_with_an_abstract_argument", lambda: jit(add)(x, AbstractArgument()), None),
        ("make_jaxpr_bool_of_a_tracer", lambda: impl.make_jaxpr(lambda a: bool(a[0] > 0))(x), None),
        ("eval_shape_bool_of_a_tracer", lambda: impl.eval_shape(lambda a, b: bool(b[0] > 0), x, b=x), None),
        ("jit_returns_a_string", lambda: jit(lambda a: "s")(x), None),
        ("jit_returns_an_object", lambda: jit(lambda a: object())(x), None),
        ("jit_returns_a_dtype", lambda: jit(lambda a: a.dtype)(x), None),
        ("jit_returns_a_string_in_a_tuple", lambda: jit(lambda a: (a, "s"))(x), None),
        ("jit_returns_a_string_deep_inside", lambda: jit(lambda a: [a, (a, {"k": "v"})])(x), None),
        ("jit_trace_returns_a_string", lambda: jit(lambda a: "s").trace(x), None),
        ("make_jaxpr_returns_a_string", lambda: impl.make_jaxpr(lambda a: "s")(x), None),
        ("eval_shape_returns_a_string", lambda: impl.eval_shape(lambda a: "s", x), None),
        ("vmap_returns_a_string", lambda: vmap(lambda a: "s")(x), None),
        ("while_body_returns_a_string", lambda: lax.while_loop(lambda c: False, lambda c: "s", 0), None),
        ("while_body_returns_an_object", lambda: lax.while_loop(lambda c: False, lambda c: object(), 0), None),
        ("while_body_returns_a_string_in_a_tuple",
         lambda: lax.while_loop(lambda c: False, lambda c: (c[0], "s"), (0, 1)), None),
        ("while_cond_returns_a_string", lambda: lax.while_loop(lambda c: "s", lambda c: c, 0), None),
        ("fori_body_returns_a_string", lambda: lax.fori_loop(0, 2, lambda i, c: "s", 0), None),
        ("fori_body_returns_a_string_in_a_tuple", lambda: lax.fori_loop(0, 2, lambda i, c: (c[0], "s"), (0, 1)),
         None),
        ("fori_traced_bound_body_returns_a_string", lambda: jit(lambda n: lax.fori_loop(0, n, lambda i, c: "s", 0))(3),
         None),
        ("scan_body_returns_a_string_carry", lambda: lax.scan(lambda c, v: ("s", v), 0, x), None),
        ("scan_body_returns_a_string_output", lambda: lax.scan(lambda c, v: (c, "s"), 0, x), None),
        ("cond_branch_returns_a_string", lambda: lax.cond(True, lambda: "s", lambda: "s"), None),
        ("switch_branch_returns_a_string_in_a_tuple", lambda: lax.switch(0, [lambda: (1, "s"), lambda: (1, "s")]),
         None),
        ("vmap_in_axes_a_string", lambda: vmap(add, in_axes="x"), None),
        ("vmap_in_axes_a_float", lambda: vmap(add, in_axes=0.0), None),
        ("vmap_in_axes_a_dict", lambda: vmap(add, in_axes={"a": 0}), None),
        ("vmap_in_axes_a_numpy_int", lambda: vmap(add, in_axes=np.int64(0)), None),
        ("vmap_in_axes_a_bool", lambda: vmap(add, in_axes=True), None),
        ("vmap_in_axes_a_float_inside", lambda: vmap(add, in_axes=(0, 1.0)), None),
        ("vmap_in_axes_a_string_inside_a_list", lambda: vmap(add, in_axes=[0, ["x"]]), None),
        ("vmap_out_axes_a_string", lambda: vmap(add, out_axes="x"), None),
        ("vmap_out_axes_a_float_inside", lambda: vmap(add, out_axes=(0.0,)), None),
        ("vmap_in_axes_a_list", lambda: vmap(add, in_axes=[0, None])(X, x), None),
        ("fori_numpy_and_python_ints", lambda: lax.fori_loop(np.int32(1), 4, count, 0), None),
        ("fori_int64_and_int32", lambda: lax.fori_loop(np.int64(0), np.int32(3), count, 0), None),
        ("fori_int16_and_python_int", lambda: lax.fori_loop(np.int16(0), 3, count, 0), None),
        ("fori_static_floats", lambda: lax.fori_loop(0.0, 3.0, count, 0), None),
        ("fori_int16_and_int8", lambda: lax.fori_loop(np.int16(0), np.int8(3), count, 0), None),
        ("fori_uint8_and_python_int", lambda: lax.fori_loop(np.uint8(0), 3, count, 0), None),
        ("fori_float_and_int", lambda: lax.fori_loop(0.0, 3, count, 0), None),
        ("fori_bool_and_int", lambda: lax.fori_loop(True, 3, count, 0), None),
        ("fori_string_bound", lambda: lax.fori_loop("a", 3, count, 0), None),
        ("fori_none_bound", lambda: lax.fori_loop(None, 3, count, 0), None),
        ("fori_vector_bound", lambda: lax.fori_loop(np.array([0, 1]), 3, count, 0), None),
        ("fori_traced_upper", lambda: jit(lambda n: lax.fori_loop(0, n, count, 0))(5), None),
        ("fori_traced_int16_upper", lambda: jit(lambda n: lax.fori_loop(0, n, count, 0))(np.int16(5)), None),
        ("fori_traced_uint8_upper", lambda: jit(lambda n: lax.fori_loop(0, n, count, 0))(np.uint8(5)), None),
        ("fori_traced_float_upper", lambda: jit(lambda n: lax.fori_loop(0, n, count, 0))(5.0), None),
        ("fori_traced_float_bounds", lambda: jit(lambda n: lax.fori_loop(0.0, n, count, 0.0))(2.5), None),
        # a pullback's cotangent of another structure than the output; has_aux with one array returned
        ("vjp_cotangent_leaf_for_tuple", lambda: impl.vjp(lambda a: (a, a), x)[1](x), None),
        ("vjp_cotangent_short_tuple", lambda: impl.vjp(lambda a: (a, a), x)[1]((x,)), None),
        ("vjp_cotangent_missing_key", lambda: impl.vjp(lambda a: {"x": a, "y": a}, x)[1]({"x": x}), None),
        ("vjp_cotangent_list_for_tuple", lambda: impl.vjp(lambda a: [a, (a, a)], x)[1]([x, [x, x]]), None),
        ("vjp_cotangent_other_key", lambda: impl.vjp(lambda a: {"x": a}, x)[1]({"z": x}), None),
        ("jacfwd_has_aux_one_array", lambda: impl.jacfwd(lax.sin, has_aux=True)(x), None),
        ("jvp_has_aux_one_array", lambda: impl.jvp(lax.sin, (x,), (x,), has_aux=True), None),
        ("jvp_has_aux_scalar", lambda: impl.jvp(lax.sin, (x[0],), (x[0],), has_aux=True), None),
        ("linear_transpose_sin", lambda: impl.linear_transpose(lax.sin, x)(x), None),
        ("linear_transpose_quotient", lambda: impl.linear_transpose(lambda a: a / a, x)(x), None),
        ("grad_reduce_axes", lambda: impl.grad(lax.sin, reduce_axes=("i",)), None),
        ("value_and_grad_reduce_axes", lambda: impl.value_and_grad(lax.sin, reduce_axes=("i",)), None),
        ("vjp_reduce_axes", lambda: impl.vjp(lax.sin, x, reduce_axes=("i",)), None),
        ("linear_transpose_reduce_axes", lambda: impl.linear_transpose(lambda a: a, x, reduce_axes=("i",)), None),
        ("custom_vjp_bwd_list", lambda: impl.grad(lambda a: lax.reduce_sum(bwd_as_list(a), (0,)))(x), None),
    ]


class AbstractArgument:
    """An object with a shape and dtype, standing for an array."""

    shape = (3,)
    dtype = np.dtype(np.float32)


class RaisingEq:
    """A static argument whose comparison fails."""

    def __eq__(self, other):
        raise ValueError("comparison failed")

    def __hash__(self):
        return 1


def autodiff_cases(impl, lax):
    """``(name, thunk, marker)`` for bad arguments of the differentiation API (argnums, inputs and outputs of the
    wrong type or shape, has_aux functions without aux, tangents and cotangents that do not fit) and custom rules
    returning the wrong things."""
    x = X[0]

    def dot(a, b):
        return lax.dot(a, b)

    def total(a):
        return lax.dot(a, a)

    def custom_vjp(bwd, fwd=None):
        @impl.custom_vjp
        def fun(a):
            return lax.sin(a)

        fun.defvjp(fwd or (lambda a: (lax.sin(a), lax.cos(a))), bwd)
        return lambda a: total(fun(a))

    def custom_jvp(rule):
        @impl.custom_jvp
        def fun(a):
            return lax.sin(a)

        if rule is not None:
            fun.defjvp(rule)
        return fun

    grad = impl.grad
    return [
        ("grad_argnums_past_the_arguments", lambda: grad(dot, argnums=2)(x, x), None),
        ("grad_argnums_negative_past_the_arguments", lambda: grad(dot, argnums=-3)(x, x), None),
        ("grad_argnums_negative_in_range", lambda: grad(dot, argnums=-2)(x, 2 * x), None),
        ("grad_argnums_empty", lambda: grad(dot, argnums=())(x, x), ""),
        ("jacrev_argnums_past_the_arguments", lambda: impl.jacrev(dot, argnums=(0, 5))(x, x), None),
        ("jacfwd_argnums_negative_past_the_arguments", lambda: impl.jacfwd(dot, argnums=-4)(x, x), None),
        ("grad_of_an_array_output", lambda: grad(lax.sin)(x), None),
        ("grad_of_a_tuple_output", lambda: grad(lambda a: (total(a), total(a)))(x), "Output was ("),
        ("grad_of_an_integer_input", lambda: grad(lambda a: a * 2)(3), None),
        ("grad_of_a_complex_output", lambda: grad(lambda a: lax.complex(total(a), total(a)))(x), None),
        ("grad_holomorphic_of_a_real_input", lambda: grad(total, holomorphic=True)(x), None),
        ("grad_has_aux_without_aux", lambda: grad(total, has_aux=True)(x), "but got type"),
        ("value_and_grad_has_aux_without_aux", lambda: impl.value_and_grad(total, has_aux=True)(x), "but got type"),
        ("vjp_has_aux_without_aux", lambda: impl.vjp(lax.sin, x, has_aux=True), "but got type"),
        ("grad_of_a_string", lambda: grad(lax.sin)("a"), None),
        ("vjp_of_a_string", lambda: impl.vjp(lax.sin, "a"), None),
        ("vjp_of_bytes", lambda: impl.vjp(lax.sin, b"a"), None),
        ("jacfwd_of_none", lambda: impl.jacfwd(lambda a: a)(None), None),
        ("hessian_of_none", lambda: impl.hessian(lambda a: a)(None), None),
        ("jacfwd_of_integers", lambda: impl.jacfwd(lambda a: a * 2)(np.arange(3)), None),
        ("hessian_of_integers", lambda: impl.hessian(lambda a: a * 2)(np.arange(3)), None),
        ("jvp_primals_not_a_tuple", lambda: impl.jvp(lax.sin, x, x), None),
        ("jvp_tangent_of_another_shape", lambda: impl.jvp(lax.sin, (x,), (x[:2],)), None),
        ("jvp_tangent_of_another_dtype", lambda: impl.jvp(lax.sin, (x,), (x.astype(np.float16),)), None),
        ("jvp_integer_tangent_of_an_integer_primal",
         lambda: impl.jvp(lambda a: a * 2, (np.arange(3),), (np.arange(3),)), None),
        ("linearize_tangent_of_another_tree", lambda: impl.linearize(lax.sin, x)[1]([x, x]), None),
        ("linearize_tangent_none", lambda: impl.linearize(lax.sin, x)[1](None), None),
        ("vmap_of_none", lambda: impl.vmap(lax.sin)(None), None),
        ("vmap_of_a_string_beside_a_scalar", lambda: impl.vmap(lambda a: a)([1, "a"]), None),
        ("custom_vjp_bwd_too_many_cotangents", lambda: grad(custom_vjp(lambda r, ct: (ct, ct)))(x), None),
        ("custom_vjp_bwd_not_a_tuple", lambda: grad(custom_vjp(lambda r, ct: ct))(x), None),
        ("custom_vjp_bwd_wrong_shape", lambda: grad(custom_vjp(lambda r, ct: (ct[:2],)))(x), None),
        ("custom_vjp_bwd_wrong_dtype", lambda: grad(custom_vjp(lambda r, ct: (ct.astype(np.float16),)))(x), None),
        ("custom_vjp_fwd_not_a_pair", lambda: grad(custom_vjp(lambda r, ct: (ct,), lambda a: lax.sin(a)))(x),
         "produced "),
        ("custom_vjp_without_rule", lambda: grad(lambda a: total(impl.custom_vjp(lax.sin)(a)))(x), None),
        ("custom_jvp_without_rule", lambda: impl.jvp(custom_jvp(None), (x,), (x,)), None),
        ("custom_jvp_tangent_of_another_shape",
         lambda: impl.jvp(custom_jvp(lambda p, t: (lax.sin(p[0]), t[0][:2])), (x,), (x,)), None),
        ("custom_jvp_tangent_of_another_dtype", lambda: impl.jvp(custom_jvp(
            lambda p, t: (lax.sin(p[0]), t[0].astype(np.float16))), (x,), (x,)), None),
        ("custom_jvp_rule_not_a_pair", lambda: impl.jvp(custom_jvp(lambda p, t: lax.sin(p[0])), (x,), (x,)),
         "but got "),
    ]


class TypeErrorHash:
    """A static argument whose Python ``__hash__`` raises TypeError."""

    def __hash__(self):
        raise TypeError("unhashable type: 'TypeErrorHash'")


def after_first_line(thunk):
    """Run ``thunk``, re-raising its error with the lines after the first (which names a tracer's class by its
    module path)."""
    try:
        return thunk()
    except Exception as e:  # noqa: BLE001 - any error is re-raised
        raise type(e)(str(e).split("\n", 1)[1]) from None


class RaisingHash:
    """A static argument whose hash fails (not with TypeError)."""

    def __hash__(self):
        raise ValueError("hash failed")


HERE = os.path.dirname(os.path.abspath(__file__)) + os.sep


def _outcome(thunk, marker):
    try:
        result = thunk()
    except Exception as e:  # noqa: BLE001 - recording whatever the library raises is the point
        # source locations relative to this directory, classes defined here without their module's name, objects
        # without their address
        message = str(e).replace(HERE, "").replace(f"'{__name__}.", "'").replace(f"<{__name__}.", "<")
        message = re.sub(r" at 0x[0-9a-f]+", "", message)
        compare = None if marker is None else message.index(marker) + len(marker)
        return {"type": type(e).__name__, "message": message, "compare": compare}
    value = np.asarray(result).tolist() if hasattr(result, "dtype") else None
    return {"type": None, "message": None, "compare": None, "value": value}


SECTIONS = {"collectives": collective_cases, "api": api_cases, "autodiff": autodiff_cases}


def render(module_name: str, sections=tuple(SECTIONS)) -> dict[str, dict[str, dict]]:
    """``{section: {case: outcome}}`` for the named ``sections``."""
    impl = importlib.import_module(module_name)
    lax = importlib.import_module(f"{module_name}.lax")
    return {section: {name: _outcome(thunk, marker) for name, thunk, marker in SECTIONS[section](impl, lax)}
            for section in sections}


if __name__ == "__main__":
    write_golden(render)
