"""``jax.experimental.sparse.transform``: ``sparsify``, which runs a function written for dense arrays on BCOO and
BCSR arguments.

The function is traced to a jaxpr on the dense types of its arguments; the jaxpr is then interpreted equation by
equation, each operand either a dense array or a sparse array. An equation of dense operands runs as it is; one
with a sparse operand runs the primitive's sparse rule (a rule per format), which computes on the stored entries
and returns dense or sparse results. Jaxprs inside equations (``jit``, ``cond``, loops, ``custom_jvp``) are
interpreted the same way. With ``use_tracer=True`` the function runs under a trace of ``SparseTracer``s instead,
with the same rules.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from jaxle import numpy as jnp
from jaxle.experimental.sparse._base import JAXSparse
from jaxle.experimental.sparse.api import todense_p
from jaxle.experimental.sparse.bcoo import (
    BCOO,
    bcoo_broadcast_in_dim,
    bcoo_concatenate,
    bcoo_dot_general,
    bcoo_dynamic_slice,
    bcoo_extract_p,
    bcoo_multiply_sparse,
    bcoo_reduce_sum,
    bcoo_reshape,
    bcoo_rev,
    bcoo_slice,
    bcoo_squeeze,
    bcoo_sum_duplicates,
    bcoo_todense_p,
    bcoo_transpose,
)
from jaxle.experimental.sparse.bcoo_conv import bcoo_conv_general_dilated
from jaxle.experimental.sparse.bcoo_gather import bcoo_gather
from jaxle.experimental.sparse.bcsr import (
    BCSR,
    bcsr_broadcast_in_dim,
    bcsr_concatenate,
    bcsr_dot_general,
    bcsr_sum_duplicates,
    bcsr_todense_p,
)
from jaxle_core import core
from jaxle_core import lax as lax_core
from jaxle_core.avals import ShapedArray, get_aval
from jaxle_core.core import ClosedJaxpr, Jaxpr, Literal, Primitive, Tracer
from jaxle_core.custom_derivatives import custom_jvp_call_p
from jaxle_core.jit import bind_jit, jit_p
from jaxle_core.lax.control_flow.common import check_carry
from jaxle_core.staging import DebugInfo, flatten_fun, trace_to_jaxpr
from jaxle_tree import tree_flatten, tree_unflatten

__all__ = ["SparseTrace", "SparseTracer", "eval_sparse", "sparsify"]

# A rule takes the operands (dense arrays and sparse arrays of one format) and the params; it returns the list of
# results.
SparseRule = Callable[[Sequence[Any], dict], list[Any]]

bcoo_rules: dict[Primitive, SparseRule] = {}
bcsr_rules: dict[Primitive, SparseRule] = {}

# Primitives mapping zero to a nonzero value: a sparse operand would give a dense result, which is refused.
_DENSIFYING = {lax_core.acos_p, lax_core.acosh_p, lax_core.bessel_i0e_p, lax_core.cos_p, lax_core.cosh_p,
               lax_core.eq_p, lax_core.exp_p, lax_core.ge_p, lax_core.gt_p, lax_core.le_p, lax_core.log_p,
               lax_core.lt_p, lax_core.ne_p, lax_core.xor_p}
# Elementwise maps with f(0) == 0: applied to the stored values (each index stored once first, f being nonlinear).
_ZERO_PRESERVING = [lax_core.abs_p, lax_core.asin_p, lax_core.asinh_p, lax_core.atan_p, lax_core.atanh_p,
                    lax_core.bessel_i1e_p, lax_core.convert_element_type_p, lax_core.expm1_p, lax_core.log1p_p,
                    lax_core.sign_p, lax_core.sin_p, lax_core.sinh_p, lax_core.sqrt_p, lax_core.square_p,
                    lax_core.tan_p, lax_core.tanh_p]
# Linear elementwise maps: applied to the stored values as they are (duplicates may stay).
_ZERO_PRESERVING_LINEAR = [lax_core.conj_p, lax_core.copy_p, lax_core.imag_p, lax_core.neg_p, lax_core.real_p]


def _is_sparse(x: Any) -> bool:
    return isinstance(x, JAXSparse)


def _unimplemented(primitive: Primitive) -> NotImplementedError:
    if primitive in _DENSIFYING:
        return NotImplementedError(
            f"sparse rule for {primitive} is not implemented because it would result in dense output. If this is "
            "your intent, use sparse.todense() to convert your arguments to dense matrices.")
    return NotImplementedError(f"sparse rule for {primitive} is not implemented.")


def apply_primitive(primitive: Primitive, values: Sequence[Any], params: dict) -> list[Any]:
    """``primitive`` applied to ``values`` (dense or sparse): bound as it is when every value is dense, by the
    sparse rule of the values' format otherwise."""
    formats = {type(x) for x in values if _is_sparse(x)}
    if not formats:
        out = primitive.bind(*values, **params)
        return list(out) if primitive.multiple_results else [out]
    rules = {frozenset([BCOO]): bcoo_rules, frozenset([BCSR]): bcsr_rules}.get(frozenset(formats), {})
    if primitive not in rules:
        raise _unimplemented(primitive)
    return rules[primitive](values, params)


# ---------------------------------------------------------------- the interpreter


def eval_sparse(jaxpr: Jaxpr, consts: Sequence[Any], args: Sequence[Any]) -> list[Any]:
    """Interpret ``jaxpr`` on ``args``, each a dense or a sparse array of the type its input variable has."""
    env: dict[Any, Any] = {}

    def read(atom: Any) -> Any:
        return atom.val if type(atom) is Literal else env[atom]

    env.update(zip(jaxpr.constvars, consts))
    env.update(zip(jaxpr.invars, args))
    for eqn in jaxpr.eqns:
        env.update(zip(eqn.outvars, apply_primitive(eqn.primitive, [read(a) for a in eqn.invars], eqn.params)))
    return [read(v) for v in jaxpr.outvars]


def _dense_aval(x: Any) -> ShapedArray:
    return ShapedArray(tuple(x.shape), x.dtype) if _is_sparse(x) else get_aval(x)


def _sparsified_jaxpr(closed: ClosedJaxpr, values: Sequence[Any]) -> tuple[ClosedJaxpr, list[Any], Any]:
    """The jaxpr over the buffers of ``values`` computing the buffers of ``closed``'s sparsified results, those
    input buffers, and the structure of the results (a list of dense and sparse arrays) over its outputs."""
    buffers, in_tree = tree_flatten(list(values))
    out_trees: list[Any] = []

    def run(*flat: Any) -> list[Any]:
        out_buffers, out_tree = tree_flatten(eval_sparse(closed.jaxpr, closed.consts, tree_unflatten(in_tree, flat)))
        out_trees.append(out_tree)
        return out_buffers

    new = trace_to_jaxpr(run, [get_aval(b) for b in buffers])
    return new, buffers, out_trees[0]


# ---------------------------------------------------------------- sparsify


def sparsify(f: Callable[..., Any], use_tracer: bool = False) -> Callable[..., Any]:
    """``f``, a function of dense arrays, made to accept and return sparse arrays (BCOO or BCSR) in its positional
    arguments (keyword arguments are passed as they are, static): each operation applied to a sparse array runs its
    sparse rule, and an operation without one raises ``NotImplementedError``."""
    run = _sparsify_with_tracer if use_tracer else _sparsify_with_interpreter

    @functools.wraps(f)
    def wrapped(*args: Any, **kwargs: Any) -> Any:
        return run(f, args, kwargs)

    return wrapped


def _sparsify_with_interpreter(f: Callable[..., Any], args: tuple, kwargs: dict) -> Any:
    leaves, in_tree = tree_flatten(args, is_leaf=_is_sparse)
    leaves = [x if _is_sparse(x) or isinstance(x, Tracer) else jnp.asarray(x) for x in leaves]
    flat, out_tree = flatten_fun(lambda *a: f(*a, **kwargs), in_tree, DebugInfo("sparsify", f, ()))
    closed = trace_to_jaxpr(flat, [_dense_aval(x) for x in leaves])
    return tree_unflatten(out_tree(), eval_sparse(closed.jaxpr, closed.consts, leaves))


class SparseTracer(Tracer):
    """A value of ``sparsify(f, use_tracer=True)``'s trace: a dense or sparse array standing for the dense array
    ``f`` computes with."""

    __slots__ = ("value",)

    def __init__(self, trace: SparseTrace, value: Any):
        self._trace = trace
        self.value = value

    @property
    def aval(self) -> ShapedArray:
        return _dense_aval(self.value)

    def __repr__(self) -> str:
        aval = self.aval
        return f"SparseTracer<{np.dtype(aval.dtype).name}[{','.join(map(str, aval.shape))}]>"


class SparseTrace(core.Trace):
    """Interprets primitives on SparseTracers by the sparse rules; the work is done by the parent trace."""

    def describe(self) -> str:
        return "a sparsify trace"

    def process_primitive(self, primitive: Primitive, args: Sequence[Any], params: dict) -> Any:
        values = [x.value if isinstance(x, SparseTracer) and x._trace is self else x for x in args]
        with core.set_current_trace(self.parent):
            outs = apply_primitive(primitive, values, params)
        outs = [SparseTracer(self, out) for out in outs]
        return outs if primitive.multiple_results else outs[0]


def _sparsify_with_tracer(f: Callable[..., Any], args: tuple, kwargs: dict) -> Any:
    leaves, in_tree = tree_flatten(args, is_leaf=_is_sparse)
    trace = SparseTrace()
    with core.new_trace(trace):
        traced = tree_unflatten(in_tree, [SparseTracer(trace, x) for x in leaves])
        out_leaves, out_tree = tree_flatten(f(*traced, **kwargs))
        outs = [x.value if isinstance(x, SparseTracer) and x._trace is trace else x for x in out_leaves]
    return tree_unflatten(out_tree, outs)


# ---------------------------------------------------------------- rules shared by the formats


def _with_data(mat: JAXSparse, data: Any) -> JAXSparse:
    """``mat`` with its stored values replaced."""
    buffers, tree = tree_flatten(mat)
    return tree_unflatten(tree, [data, *buffers[1:]])


def _unique(mat: JAXSparse) -> JAXSparse:
    """``mat`` with each index stored once (duplicates summed), its number of entries kept."""
    if mat.unique_indices:
        return mat
    if isinstance(mat, BCOO):
        return bcoo_sum_duplicates(mat, nse=mat.nse)
    return bcsr_sum_duplicates(mat, nse=mat.nse)


def _unary_rule(primitive: Primitive, linear: bool) -> SparseRule:
    def rule(values, params):
        (mat,) = values
        mat = mat if linear else _unique(mat)
        return [_with_data(mat, primitive.bind(mat.data, **params))]

    return rule


def _integer_pow_rule(values, params):
    if params["y"] <= 0:
        raise NotImplementedError(
            f"sparse rule for integer_pow with non-positive exponent {params['y']} is not implemented because it "
            "would result in dense output. If this is your intent, use sparse.todense() to convert your argument to "
            "a dense array.")
    return _unary_rule(lax_core.integer_pow_p, False)(values, params)


def _todense_rule(values, params):
    return [todense_p.bind(*tree_flatten(values[0])[0], tree=tree_flatten(values[0])[1])]


def _jit_rule(values, params):
    new, buffers, out_tree = _sparsified_jaxpr(params["jaxpr"], values)
    return tree_unflatten(out_tree, bind_jit(new, buffers, params["name"], keep_unused=params["keep_unused"],
                                             inline=params["inline"]))


def _custom_jvp_rule(values, params):
    # The derivative rule is for dense arrays: the sparsified function runs without it, as its primal.
    call = params["call_jaxpr"]
    return eval_sparse(call.jaxpr, call.consts, values)


def _cond_rule(values, params):
    index, *operands = values
    sparsified = [_sparsified_jaxpr(branch, operands) for branch in params["branches"]]
    (new, buffers, out_tree), others = sparsified[0], sparsified[1:]
    for other, _, other_tree in others:
        if other_tree != out_tree or [a.strip_weak_type() for a in other.out_avals] != [
                a.strip_weak_type() for a in new.out_avals]:
            raise TypeError("sparsified true_fun output must have same type structure as sparsified false_fun "
                            f"output, but they differ: {other_tree} and {out_tree}")
    branches = tuple(branch for branch, _, _ in sparsified)
    return tree_unflatten(out_tree, lax_core.cond_p.bind(index, *buffers, branches=branches))


def _loop_body(body: ClosedJaxpr, consts: Sequence[Any], carry: Sequence[Any], xs: Sequence[Any], loop: str,
               name: str) -> tuple[ClosedJaxpr, list[Any], int, Any]:
    """A loop body sparsified for its constants, carry and (dense) scanned values: the new body, its input buffers,
    how many of them are constants, and the structure of its outputs. The carry must keep its sparse structure."""
    new, buffers, out_tree = _sparsified_jaxpr(body, [*consts, *carry, *xs])
    carry_buffers, carry_tree = tree_flatten(list(carry))
    n_consts = len(tree_flatten(list(consts))[0])
    n_carry = len(carry_buffers)
    out_carry_tree = tree_flatten(tree_unflatten(out_tree, new.out_avals)[:len(carry)])[1]
    check_carry(loop, name, carry_tree, [get_aval(b) for b in carry_buffers], out_carry_tree,
                list(new.out_avals[:n_carry]))
    return new, buffers, n_consts, out_tree


def _while_rule(values, params):
    n_cond, n_body = params["cond_nconsts"], params["body_nconsts"]
    cond_consts, body_consts, carry = values[:n_cond], values[n_cond:n_cond + n_body], values[n_cond + n_body:]
    body, body_buffers, n_body_buffers, out_tree = _loop_body(params["body_jaxpr"], body_consts, carry, (),
                                                              "while_loop", "while_carry")
    cond, cond_buffers, _ = _sparsified_jaxpr(params["cond_jaxpr"], [*cond_consts, *carry])
    n_cond_buffers = len(cond_buffers) - (len(body_buffers) - n_body_buffers)
    outs = lax_core.while_p.bind(*cond_buffers[:n_cond_buffers], *body_buffers, cond_nconsts=n_cond_buffers,
                                 cond_jaxpr=cond, body_nconsts=n_body_buffers, body_jaxpr=body)
    return tree_unflatten(out_tree, outs)


def _scan_rule(values, params):
    n_consts, n_carry = params["num_consts"], params["num_carry"]
    consts, carry, xs = values[:n_consts], values[n_consts:n_consts + n_carry], values[n_consts + n_carry:]
    if xs:  # as in JAX: only a scan over no values (a loop of ``length`` steps) is sparsified
        raise NotImplementedError("sparse rule for scan with x values.")
    body, buffers, n_const_buffers, out_tree = _loop_body(params["jaxpr"], consts, carry, xs, "scan", "carry")
    outs = tree_unflatten(out_tree, body.out_avals)
    if any(_is_sparse(y) for y in outs[n_carry:]):
        raise NotImplementedError("sparse rule for scan with sparse y values.")
    n_carry_buffers = len(tree_flatten(outs[:n_carry])[0])
    results = lax_core.scan_p.bind(*buffers, **dict(params, jaxpr=body, num_consts=n_const_buffers,
                                                    num_carry=n_carry_buffers))
    return tree_unflatten(out_tree, results)


for _p in _ZERO_PRESERVING:
    bcoo_rules[_p] = bcsr_rules[_p] = _unary_rule(_p, False)
for _p in _ZERO_PRESERVING_LINEAR:
    bcoo_rules[_p] = bcsr_rules[_p] = _unary_rule(_p, True)
for _rules, _todense in ((bcoo_rules, bcoo_todense_p), (bcsr_rules, bcsr_todense_p)):
    _rules[lax_core.integer_pow_p] = _integer_pow_rule
    _rules[todense_p] = _rules[_todense] = _todense_rule
    _rules[jit_p] = _jit_rule
    _rules[custom_jvp_call_p] = _custom_jvp_rule
bcoo_rules.update({lax_core.cond_p: _cond_rule, lax_core.while_p: _while_rule, lax_core.scan_p: _scan_rule})


# ---------------------------------------------------------------- BCOO rules


def _stored_values_of(mat: BCOO, dense: Any) -> Any:
    """The values of ``dense`` (broadcast to ``mat``'s shape) at ``mat``'s stored indices."""
    dense = jnp.asarray(dense)
    if dense.ndim == 0:
        return dense
    if tuple(np.broadcast_shapes(mat.shape, dense.shape)) != mat.shape:
        raise NotImplementedError("sparse-dense elementwise operations with a dense array of larger shape "
                                  f"{dense.shape} than the sparse array {mat.shape} are not implemented")
    return bcoo_extract_p.bind(mat.indices, jnp.broadcast_to(dense, mat.shape), assume_unique=True)


def _mul_rule(values, params):
    lhs, rhs = values
    if _is_sparse(lhs) and _is_sparse(rhs):
        if lhs.indices is rhs.indices and lhs.unique_indices and lhs.shape == rhs.shape:
            return [_with_data(lhs, lhs.data * rhs.data)]
        return [bcoo_multiply_sparse(lhs, rhs)]
    mat, dense = (lhs, rhs) if _is_sparse(lhs) else (rhs, lhs)
    return [_with_data(mat, mat.data * _stored_values_of(mat, dense))]


def _div_rule(values, params):
    lhs, rhs = values
    if _is_sparse(rhs):
        raise NotImplementedError(
            "Division by a sparse array is not implemented because it would result in dense output. If this is "
            "your intent, use sparse.todense() to convert your arguments to a dense array.")
    return [_with_data(lhs, lhs.data / _stored_values_of(lhs, rhs))]


def _add_rule(values, params):
    lhs, rhs = values
    if _is_sparse(lhs) and _is_sparse(rhs) and lhs.indices is rhs.indices and lhs.shape == rhs.shape:
        return [_with_data(lhs, lhs.data + rhs.data)]
    return [lhs + rhs]


def _sub_rule(values, params):
    lhs, rhs = values
    if not (_is_sparse(lhs) and _is_sparse(rhs)):
        raise NotImplementedError("Subtraction between sparse and dense array.")
    if lhs.indices is rhs.indices and lhs.shape == rhs.shape:
        return [_with_data(lhs, lhs.data - rhs.data)]
    return [lhs + -rhs]


def _reduce_sum_rule(values, params):
    (mat,) = values
    out = bcoo_reduce_sum(mat, axes=params["axes"])
    return [out.data.sum() if out.ndim == 0 else out]


def _dot_general_rule(values, params):
    lhs, rhs = values
    return [bcoo_dot_general(lhs, rhs, dimension_numbers=params["dimension_numbers"],
                             preferred_element_type=params["preferred_element_type"])]


def _reshape_rule(values, params):
    return [bcoo_reshape(values[0], new_sizes=params["new_sizes"], dimensions=params["dimensions"])]


def _concatenate_rule(values, params):
    if not all(_is_sparse(x) for x in values):
        operands = tuple(x if _is_sparse(x) else jnp.asarray(x) for x in values)
        raise ValueError(f"bcoo_concatenate: expected operands to be a sequence of BCOO arrays. Got {operands}")
    return [bcoo_concatenate(values, dimension=params["dimension"])]


def _dynamic_slice_rule(values, params):
    mat, *starts = values
    if any(_is_sparse(s) for s in starts):
        raise _unimplemented(lax_core.dynamic_slice_p)
    return [bcoo_dynamic_slice(mat, starts, params["slice_sizes"])]


def _gather_rule(values, params):
    operand, indices = values
    if _is_sparse(indices):
        raise _unimplemented(lax_core.gather_p)
    # the index clamping of bcoo_dynamic_slice stands for any mode
    return [bcoo_gather(operand, indices, params["dimension_numbers"], params["slice_sizes"])]


def _conv_rule(values, params):
    lhs, rhs = values
    return [bcoo_conv_general_dilated(
        lhs, rhs, window_strides=params["window_strides"], padding=params["padding"],
        lhs_dilation=params["lhs_dilation"], rhs_dilation=params["rhs_dilation"],
        dimension_numbers=params["dimension_numbers"], feature_group_count=params["feature_group_count"],
        batch_group_count=params["batch_group_count"], preferred_element_type=params["preferred_element_type"])]


def _operand_rule(apply: Callable[..., Any], *names: str) -> SparseRule:
    """A rule calling ``apply(mat, **{name: params[name]})`` on the one sparse operand."""
    return lambda values, params: [apply(values[0], **{name: params[name] for name in names})]


bcoo_rules.update({
    lax_core.mul_p: _mul_rule,
    lax_core.div_p: _div_rule,
    lax_core.add_p: _add_rule,
    lax_core.sub_p: _sub_rule,
    lax_core.reduce_sum_p: _reduce_sum_rule,
    lax_core.dot_general_p: _dot_general_rule,
    lax_core.reshape_p: _reshape_rule,
    lax_core.concatenate_p: _concatenate_rule,
    lax_core.dynamic_slice_p: _dynamic_slice_rule,
    lax_core.gather_p: _gather_rule,
    lax_core.conv_general_dilated_p: _conv_rule,
    lax_core.transpose_p: _operand_rule(bcoo_transpose, "permutation"),
    lax_core.squeeze_p: _operand_rule(bcoo_squeeze, "dimensions"),
    lax_core.rev_p: lambda values, params: [bcoo_rev(values[0], params["dimensions"])],
    lax_core.slice_p: _operand_rule(bcoo_slice, "start_indices", "limit_indices", "strides"),
    lax_core.broadcast_in_dim_p: _operand_rule(bcoo_broadcast_in_dim, "shape", "broadcast_dimensions"),
})


# ---------------------------------------------------------------- BCSR rules


def _bcsr_dot_general_rule(values, params):
    lhs, rhs = values
    if not _is_sparse(lhs) or _is_sparse(rhs):
        raise _unimplemented(lax_core.dot_general_p)
    return [bcsr_dot_general(lhs, rhs, dimension_numbers=params["dimension_numbers"],
                             preferred_element_type=params["preferred_element_type"])]


def _bcsr_concatenate_rule(values, params):
    if not all(_is_sparse(x) for x in values):
        raise _unimplemented(lax_core.concatenate_p)
    return [bcsr_concatenate(values, dimension=params["dimension"])]


bcsr_rules.update({
    lax_core.dot_general_p: _bcsr_dot_general_rule,
    lax_core.concatenate_p: _bcsr_concatenate_rule,
    lax_core.broadcast_in_dim_p: _operand_rule(bcsr_broadcast_in_dim, "shape", "broadcast_dimensions"),
})
