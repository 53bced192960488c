"""User-defined derivatives: ``custom_jvp``, ``custom_vjp``, ``custom_gradient`` and ``closure_convert``.

A ``custom_jvp`` function is staged as a ``custom_jvp_call`` equation carrying
the jaxpr of the function and the user's JVP rule; differentiation applies the
rule instead of differentiating the jaxpr. A ``custom_vjp`` function is staged
as a ``custom_vjp_call``; its JVP runs the user's forward function on the
primals and emits the output tangents through a ``custom_lin`` equation on the
residuals and input tangents. ``custom_lin`` is only ever transposed (calling
the user's backward function): evaluating it means forward-mode
differentiation was attempted, which is an error.

The rules themselves live in ``jaxle_core.ad.custom_derivatives``.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

import jaxle_tree as tree
from jaxle_core import core, dtypes
from jaxle_core.ad.jvp import Zero, add_tangents, instantiate, tangent_aval, zeros_like_aval
from jaxle_core.array import Array
from jaxle_core.avals import ShapedArray, get_aval, not_a_jax_type
from jaxle_core.closed_call import closed_call_p
from jaxle_core.core import ClosedJaxpr, Primitive
from jaxle_core.jaxpr_util import dce_jaxpr, dce_rules, with_fresh_vars
from jaxle_core.jit import hoist_traced_consts
from jaxle_core.lax.identity import stop_gradient
from jaxle_core.lax.structural import convert_element_type_p
from jaxle_core.pretty import PpContext, pp_eqn_generic, pp_eqn_rules
from jaxle_core.staging import DebugInfo, flatten_fun, trace_to_jaxpr

FORWARD_MODE_ERROR = "can't apply forward-mode autodiff (jvp) to a custom_vjp function."

# ---------------------------------------------------------------- primitives

custom_jvp_call_p = Primitive("custom_jvp_call")
custom_jvp_call_p.multiple_results = True
custom_vjp_call_p = Primitive("custom_vjp_call")
custom_vjp_call_p.multiple_results = True
custom_lin_p = Primitive("custom_lin")
custom_lin_p.multiple_results = True


def _call_avals(*avals: ShapedArray, call_jaxpr: ClosedJaxpr, **params) -> list[ShapedArray]:
    return call_jaxpr.out_avals


def _call_impl(*args: Any, call_jaxpr: ClosedJaxpr, **params) -> list[Any]:
    return core.eval_jaxpr(call_jaxpr.jaxpr, call_jaxpr.consts, *args)


for _p in (custom_jvp_call_p, custom_vjp_call_p):
    _p.def_abstract_eval(_call_avals)
    _p.def_impl(_call_impl)


@custom_lin_p.def_abstract_eval
def _custom_lin_avals(*avals: ShapedArray, out_avals: Sequence[ShapedArray], **params) -> list[ShapedArray]:
    return list(out_avals)


@custom_lin_p.def_impl
def _custom_lin_impl(*args: Any, **params) -> list[Any]:
    raise TypeError(FORWARD_MODE_ERROR)


def _pp_custom_jvp_call(eqn: core.JaxprEqn, context: PpContext):
    params = eqn.params
    shown = dict(name=_jaxpr_name(params["call_jaxpr"]), call_jaxpr=params["call_jaxpr"],
                 jvp=params["jvp_jaxpr_fun"], num_consts=params["num_consts"], symbolic_zeros=params["symbolic_zeros"])
    return _pp_shown(eqn, context, shown)


def _pp_custom_vjp_call(eqn: core.JaxprEqn, context: PpContext):
    params = eqn.params
    shown = dict(name=_jaxpr_name(params["call_jaxpr"]), bwd=params["bwd"], call_jaxpr=params["call_jaxpr"],
                 fwd=params["fwd_jaxpr_thunk"], num_consts=params["num_consts"],
                 symbolic_zeros=params["symbolic_zeros"])
    return _pp_shown(eqn, context, shown)


def _pp_shown(eqn: core.JaxprEqn, context: PpContext, shown: dict):
    """Print ``shown`` in its order, leaving out ``num_consts`` when zero (as JAX does)."""
    return pp_eqn_generic(eqn, context, shown, [k for k in shown if k != "num_consts" or shown[k]])


def _pp_custom_lin(eqn: core.JaxprEqn, context: PpContext):
    return pp_eqn_generic(eqn, context, eqn.params, ["bwd", "in_zeros", "num_res", "symbolic_zeros"])


pp_eqn_rules[custom_jvp_call_p] = _pp_custom_jvp_call
pp_eqn_rules[custom_vjp_call_p] = _pp_custom_vjp_call
pp_eqn_rules[custom_lin_p] = _pp_custom_lin


def _jaxpr_name(closed: ClosedJaxpr) -> str:
    info = closed.jaxpr.debug_info
    return info.func_name if info is not None else "<unknown>"


def _fun_name(fun: Any) -> str:
    """``fun``'s name; a ``functools.partial`` is named after the function it wraps, as in JAX."""
    if not hasattr(fun, "__name__") and isinstance(fun, functools.partial):
        return _fun_name(fun.func)
    return getattr(fun, "__name__", type(fun).__name__)


# ---------------------------------------------------------------- shared plumbing


class _Signature:
    """How a custom function's arguments split into static ``nondiff_argnums`` and differentiable ones."""

    def __init__(self, fun: Callable, nondiff_argnums: Sequence[int]):
        self.fun = fun
        self.nondiff_argnums = tuple(nondiff_argnums)
        try:
            self.signature: inspect.Signature | None = inspect.signature(fun)
        except (TypeError, ValueError):
            self.signature = None

    def resolve(self, args: tuple, kwargs: dict) -> tuple:
        """Positional arguments only: keywords bound by the signature, defaults applied."""
        if self.signature is None:
            if kwargs:
                raise TypeError(f"keyword arguments could not be resolved to positions for {_fun_name(self.fun)}")
            return args
        bound = self.signature.bind(*args, **kwargs)
        bound.apply_defaults()
        if bound.kwargs:
            raise TypeError("keyword arguments could not be resolved to positions: "
                            f"{', '.join(bound.kwargs)}")
        return tuple(bound.args)

    def split(self, args: tuple) -> tuple[list[Any], tuple]:
        """(the nondiff arguments, the differentiable ones)."""
        nums = {i % len(args) for i in self.nondiff_argnums} if args else set()
        return ([a for i, a in enumerate(args) if i in nums],
                tuple(a for i, a in enumerate(args) if i not in nums))

    def merge(self, nondiff: Sequence[Any], diff: Sequence[Any]) -> tuple:
        """All arguments in their original order."""
        n = len(nondiff) + len(diff)
        nums = {i % n for i in self.nondiff_argnums}
        nd, d = iter(nondiff), iter(diff)
        return tuple(next(nd) if i in nums else next(d) for i in range(n))


def _trace_call(sig: _Signature, nondiff: list[Any], diff: tuple, traced_for: str
                ) -> tuple[ClosedJaxpr, list[Any], list[Any], Any, Any]:
    """Trace the function on the differentiable arguments.

    Returns the call jaxpr (every closed-over array turned into a leading input, as JAX does), those
    arrays, the flat arguments, and the input and output trees.
    """
    flat_args, in_tree = tree.tree_flatten(diff)
    flat_fun, out_tree = flatten_fun(lambda *diff_args: sig.fun(*sig.merge(nondiff, diff_args)), in_tree)
    names = [f"args[{i}]" for i in range(len(flat_args))]
    closed = trace_to_jaxpr(flat_fun, [get_aval(x) for x in flat_args], DebugInfo(traced_for, sig.fun, names))
    jaxpr = closed.jaxpr
    hoisted = ClosedJaxpr(jaxpr.replace(constvars=[], invars=jaxpr.constvars + jaxpr.invars), [])
    return hoisted, closed.consts, flat_args, in_tree, out_tree()


@dataclass(eq=False, repr=False)
class NamedRule:
    """A user rule carried in an equation's params; prints as the rule's name, as JAX does."""

    rule: Callable

    def __str__(self) -> str:
        return _fun_name(self.rule)

    __repr__ = __str__


def _aval_text(aval: ShapedArray) -> str:
    return aval.strip_weak_type().str_short(short_dtypes=False)


# ---------------------------------------------------------------- symbolic zeros


class SymbolicZero:
    """A zero tangent (or cotangent) given to, or returned by, rules defined with ``symbolic_zeros=True``."""

    def __init__(self, aval: ShapedArray):
        self.aval = aval

    shape = property(lambda self: self.aval.shape)
    dtype = property(lambda self: self.aval.dtype)

    @classmethod
    def from_primal_value(cls, value: Any) -> SymbolicZero:
        """The zero tangent of ``value``."""
        return cls(tangent_aval(get_aval(value)))

    def __repr__(self) -> str:
        return "SymbolicZero"


@dataclass
class CustomVJPPrimal:
    """A primal argument of a ``symbolic_zeros`` fwd rule: its value and whether it is being differentiated.

    A plain record, not a tuple, so that it is one pytree leaf, as in JAX: libraries map over trees of them
    (equinox's ``filter_custom_vjp`` does)."""

    value: Any
    perturbed: bool


def zero_from_primal(val: Any, symbolic_zeros: bool = False) -> Any:
    """Zero tangents for the pytree of primal values ``val``: ``SymbolicZero``s with ``symbolic_zeros``, else arrays
    of zeros of the tangent types (``float0`` ones for integer primals)."""

    def zero(x: Any) -> Any:
        aval = tangent_aval(get_aval(x))
        return SymbolicZero(aval) if symbolic_zeros else zeros_like_aval(aval, as_residual=False)

    return tree.tree_map(zero, val)


def custom_vjp_primal_tree_values(primals: Any) -> Any:
    """The values of a tree of ``CustomVJPPrimal`` records (what a ``symbolic_zeros`` fwd rule receives)."""

    def value(leaf: Any) -> Any:
        if type(leaf) is not CustomVJPPrimal:
            raise TypeError(f"unexpected leaf type {type(leaf)}")
        return leaf.value

    return tree.tree_map(value, primals, is_leaf=lambda x: type(x) is CustomVJPPrimal)


def _to_symbolic(tangent: Any) -> Any:
    return SymbolicZero(tangent.aval) if type(tangent) is Zero else tangent


def _is_zero(tangent: Any) -> bool:
    return tangent is None or type(tangent) in (Zero, SymbolicZero)


# ---------------------------------------------------------------- custom_jvp


class JVPRule(NamedRule):
    """Applies the user's JVP rule to flat primals and tangents (``Zero`` allowed), checking what it returns."""

    def __init__(self, rule: Callable, sig: _Signature, nondiff: list[Any], in_tree: Any, out_tree: Any,
                 symbolic_zeros: bool):
        super().__init__(rule)
        self.sig, self.nondiff, self.in_tree, self.out_tree = sig, nondiff, in_tree, out_tree
        self.symbolic_zeros = symbolic_zeros

    def __call__(self, primals: Sequence[Any], tangents: Sequence[Any]) -> tuple[list[Any], list[Any]]:
        tangents = [_to_symbolic(t) if self.symbolic_zeros else instantiate(t) for t in tangents]
        primal_args = tree.tree_unflatten(self.in_tree, primals)
        tangent_args = tree.tree_unflatten(self.in_tree, tangents)
        result = self.rule(*self.nondiff, primal_args, tangent_args)
        name, fun_name = _fun_name(self.rule), _fun_name(self.sig.fun)
        if not (isinstance(result, (tuple, list)) and len(result) == 2):
            raise TypeError(f"Custom JVP rule {name} for function {fun_name} must produce a pair (list or tuple of "
                            "length two) representing primal and tangent outputs, but got "
                            f"{result}.")
        primals_out, primal_tree = tree.tree_flatten(result[0])
        tangents_out, tangent_tree = tree.tree_flatten(result[1])
        if primal_tree != tangent_tree:
            raise TypeError(f"Custom JVP rule {name} for function {fun_name} must produce primal and tangent "
                            "outputs with equal container (pytree) structures, but got "
                            f"{primal_tree} and {tangent_tree} respectively.")
        if primal_tree.num_leaves != self.out_tree.num_leaves:  # JAX only requires as many outputs
            raise TypeError(f"Custom JVP rule {name} for function {fun_name} must produce as many primal outputs as "
                            f"the function, but got {primal_tree} for a function whose output has structure "
                            f"{self.out_tree}.")
        return primals_out, [self._check_tangent(p, t) for p, t in zip(primals_out, tangents_out)]

    @staticmethod
    def _check_tangent(primal: Any, tangent: Any) -> Any:
        expected = tangent_aval(get_aval(primal))
        if _is_zero(tangent):
            return Zero(expected)
        got = get_aval(tangent)
        if got.shape != expected.shape or got.dtype != expected.dtype:
            raise TypeError("Custom JVP rule must produce primal and tangent outputs with corresponding shapes and "
                            f"dtypes. Expected {_aval_text(expected)} (tangent type of "
                            f"{_aval_text(get_aval(primal))}) but got {_aval_text(got)}.")
        return Zero(expected) if expected.dtype == dtypes.float0 else tangent


class _PrunedJVPRule(NamedRule):
    """A JVP rule whose outputs (primal and tangent) are cut to those a pruned ``custom_jvp_call`` still returns."""

    def __init__(self, inner: Callable, used_outputs: Sequence[bool]):
        super().__init__(getattr(inner, "rule", inner))
        self.inner, self.used_outputs = inner, tuple(used_outputs)

    def __call__(self, primals: Sequence[Any], tangents: Sequence[Any]) -> tuple[list[Any], list[Any]]:
        primals_out, tangents_out = self.inner(primals, tangents)
        return ([p for p, used in zip(primals_out, self.used_outputs) if used],
                [t for t, used in zip(tangents_out, self.used_outputs) if used])


def _dce_custom_jvp_call(eqn: core.JaxprEqn, used_outputs: list[bool]) -> tuple[list[bool], core.JaxprEqn | None]:
    """Unused outputs removed from the call and its rule, every operand kept (the rule may read those the function
    does not), as JAX prunes the equation; an equation with no output read goes."""
    if not any(used_outputs):
        return [False] * len(eqn.invars), None
    if all(used_outputs):
        return [True] * len(eqn.invars), eqn
    params = eqn.params
    pruned, _ = dce_jaxpr(params["call_jaxpr"].jaxpr, used_outputs, instantiate=True)
    new_params = dict(params, call_jaxpr=ClosedJaxpr(with_fresh_vars(pruned), params["call_jaxpr"].consts),
                      jvp_jaxpr_fun=_PrunedJVPRule(params["jvp_jaxpr_fun"], used_outputs))
    outvars = [v for v, used in zip(eqn.outvars, used_outputs) if used]
    return [True] * len(eqn.invars), eqn.replace(outvars=outvars, params=new_params)


dce_rules[custom_jvp_call_p] = _dce_custom_jvp_call


class _CustomFunction:
    """What ``custom_jvp`` and ``custom_vjp`` share: the wrapped function, its signature, method binding."""

    def __init__(self, fun: Callable, nondiff_argnums: Sequence[int] = ()):
        self._custom_fun = fun  # not ``fun``: functools.wraps copies instance attributes onto wrappers
        self.nondiff_argnums = tuple(nondiff_argnums)
        self.symbolic_zeros = False
        self._sig = _Signature(fun, self.nondiff_argnums)
        self.__name__ = _fun_name(fun)
        self.__doc__ = getattr(fun, "__doc__", None)
        self.__wrapped__ = fun

    fun = property(lambda self: self._custom_fun, doc="The undifferentiated function.")

    def __get__(self, obj: Any, objtype: Any = None) -> Any:
        return self if obj is None else functools.partial(self, obj)

    def _split_args(self, args: tuple, kwargs: dict) -> tuple[tuple, list[Any], tuple]:
        """All positional arguments, the non-differentiable ones and the differentiable ones."""
        args = self._sig.resolve(args, kwargs)
        nondiff, diff = self._sig.split(args)
        return args, nondiff, diff


class custom_jvp(_CustomFunction):  # noqa: N801  (JAX's name)
    """A function whose JVP (and so its derivatives) is given by a rule (``defjvp``/``defjvps``)."""

    def __init__(self, fun: Callable, nondiff_argnums: Sequence[int] = ()):
        super().__init__(fun, nondiff_argnums)
        self.jvp: Callable | None = None

    def defjvp(self, jvp: Callable, symbolic_zeros: bool = False) -> Callable:
        """Set the rule ``jvp(*nondiff_args, primals, tangents) -> (primal_out, tangent_out)``."""
        self.jvp = jvp
        self.symbolic_zeros = symbolic_zeros
        return jvp

    def defjvps(self, *jvps: Callable | None) -> None:
        """One rule per argument: ``jvps[i](tangent_i, primal_out, *primals)``; None for no dependence."""
        if self.nondiff_argnums:
            raise TypeError("Can't use ``defjvps`` with ``nondiff_argnums``.")

        def jvp(primals, tangents):
            primal_out = self(*primals)
            terms = [rule(t, primal_out, *primals) for rule, t in zip(jvps, tangents) if rule is not None]
            total = terms[0] if terms else tree.tree_map(lambda p: 0.0 * p, primal_out)
            for term in terms[1:]:
                total = tree.tree_map(add_tangents, total, term)  # add_any, as JAX sums them
            return primal_out, total

        self.defjvp(jvp)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if self.jvp is None:
            raise AttributeError(f"No JVP defined for custom_jvp function {self.__name__} using defjvp.")
        args, nondiff, diff = self._split_args(args, kwargs)
        core.check_operands(custom_jvp_call_p, tree.tree_leaves(diff))  # JAX's TypeError for a string, eagerly too
        if core.evaluates_eagerly(tree.tree_leaves(diff)):
            return self.fun(*args)
        # as JAX's, traced non-differentiable arguments reach the function through a stop_gradient
        nondiff = [tree.tree_map(lambda x: stop_gradient(x) if isinstance(x, core.Tracer) else x, a) for a in nondiff]
        call_jaxpr, consts, flat_args, in_tree, out_tree = _trace_call(self._sig, nondiff, diff, "custom_jvp fun")
        rule = JVPRule(self.jvp, self._sig, nondiff, in_tree, out_tree, self.symbolic_zeros)
        outs = custom_jvp_call_p.bind(*consts, *flat_args, call_jaxpr=call_jaxpr, jvp_jaxpr_fun=rule,
                                      num_consts=len(consts), symbolic_zeros=self.symbolic_zeros)
        return tree.tree_unflatten(out_tree, outs)


# ---------------------------------------------------------------- custom_vjp


def _host_value_as_array(value: Any) -> Any:
    if isinstance(value, (Array, core.Tracer)) or not isinstance(value, (np.ndarray, np.generic, int, float, complex)):
        return value
    aval = get_aval(value)
    return convert_element_type_p.bind(value, new_dtype=aval.dtype, weak_type=aval.weak_type, sharding=None)


class FwdRule(NamedRule):
    """Runs the user's forward function on flat primals: returns flat outputs, flat residuals and the bwd."""

    def __init__(self, rule: Callable, bwd: Callable, sig: _Signature, nondiff: list[Any], in_tree: Any,
                 in_avals: list[ShapedArray], out_tree: Any, symbolic_zeros: bool):
        super().__init__(rule)
        self.bwd, self.sig, self.nondiff, self.in_tree, self.out_tree = bwd, sig, nondiff, in_tree, out_tree
        self.in_avals = in_avals
        self.symbolic_zeros = symbolic_zeros
        self.trees: tuple[Any, Any] | None = None

    def __call__(self, primals: Sequence[Any], perturbed: Sequence[bool]) -> tuple[list[Any], list[Any], BwdRule]:
        """Run fwd (with ``symbolic_zeros`` each primal comes as a ``CustomVJPPrimal`` saying if it is perturbed)."""
        # JAX traces fwd on abstract values: a primal given as a Python number reaches it as an array
        primals = [_host_value_as_array(p) for p in primals]
        if self.symbolic_zeros:
            primals = [CustomVJPPrimal(p, bool(d)) for p, d in zip(primals, perturbed)]
        primal_args = tree.tree_unflatten(self.in_tree, primals)
        result = self.rule(*self.sig.merge(self.nondiff, primal_args))
        name, fun_name = _fun_name(self.rule), _fun_name(self.sig.fun)
        if not (isinstance(result, (tuple, list)) and len(result) == 2):
            raise TypeError(f"Custom VJP fwd rule {name} for function {fun_name} must produce a pair (list or tuple "
                            "of length two) where the first element represents the primal output (equal to those "
                            f"of the custom_vjp-decorated function {fun_name}) and the second element represents "
                            "residuals (i.e. values stored from the forward pass for use on the backward pass), but "
                            f"instead of a pair the fwd rule {name} produced {result}.")
        outs, out_tree = tree.tree_flatten(result[0])
        if out_tree != self.out_tree:
            raise TypeError(f"Custom VJP fwd rule {name} for function {fun_name} must produce a pair (list or tuple "
                            "of length two) where the first element represents the primal output (equal to the "
                            f"output of the custom_vjp-decorated function {fun_name}) and the second element "
                            "represents residuals (i.e. values stored from the forward pass for use on the backward "
                            "pass), but the fwd rule's primal output has container (pytree) structure "
                            f"{out_tree} while the custom_vjp-decorated function {fun_name} had output container "
                            f"structure {self.out_tree}.")
        leaves, res_tree = tree.tree_flatten(result[1])
        is_array = [_is_array_leaf(x) for x in leaves]
        self.trees = (out_tree, res_tree)
        bwd = BwdRule(self.bwd, self, res_tree, is_array, [x for x, a in zip(leaves, is_array) if not a])
        return outs, [x for x, a in zip(leaves, is_array) if a], bwd

    def out_trees(self) -> tuple[Any, Any] | None:
        """The (output, residual) trees of the last forward run (JAX's ``out_trees`` thunk)."""
        return self.trees


def _is_array_leaf(x: Any) -> bool:
    try:
        get_aval(x)
    except TypeError:
        return False
    return True


class BwdRule(NamedRule):
    """Applies the user's backward function to flat residuals and output cotangents.

    Returns one cotangent per flat differentiable input (``Zero`` where the rule gave ``None``).
    """

    def __init__(self, rule: Callable, fwd: FwdRule, res_tree: Any, is_array: list[bool], static_res: list[Any]):
        super().__init__(rule)
        self.fwd, self.res_tree, self.is_array, self.static_res = fwd, res_tree, is_array, static_res

    def __call__(self, residuals: Sequence[Any], cotangents: Sequence[Any]) -> list[Any]:
        fwd = self.fwd
        arrays, static = iter(residuals), iter(self.static_res)
        res = tree.tree_unflatten(self.res_tree, [next(arrays) if a else next(static) for a in self.is_array])
        ct = tree.tree_unflatten(fwd.out_tree, cotangents)
        result = self.rule(*fwd.nondiff, res, ct)
        return _flatten_bwd_output(result, fwd.in_tree, fwd.in_avals)


def _flatten_bwd_output(result: Any, in_tree: Any, in_avals: list[ShapedArray]) -> list[Any]:
    """The flat cotangents of the bwd rule's output, ``None`` subtrees standing for zeros."""
    args_structure = tree.tree_structure(tree.tree_unflatten(in_tree, [0] * in_tree.num_leaves))
    children = tree.treedef_children(in_tree)
    if isinstance(result, list) and len(result) == len(children):  # a list of one cotangent per argument will do
        result = tuple(result)
    mismatch = not isinstance(result, tuple) or len(result) != len(children)
    flat: list[Any] = []
    if not mismatch:
        for child, value in zip(children, result):
            if value is None:
                flat.extend([None] * child.num_leaves)
                continue
            leaves, structure = tree.tree_flatten(value)
            if structure != child:
                mismatch = True
                break
            flat.extend(leaves)
    if mismatch:
        raise TypeError("Custom VJP bwd rule must produce an output with the same container (pytree) structure as "
                        "the args tuple of the primal function, and in particular must produce a tuple of length "
                        "equal to the number of arguments to the primal function, but got bwd output structure "
                        f"{tree.tree_structure(result)} for primal input structure {args_structure}.")
    paths = [tree.keystr(p) for p, _ in tree.tree_flatten_with_path(tree.tree_unflatten(in_tree, in_avals))[0]]
    cts = []
    for ct, aval, path in zip(flat, in_avals, paths):
        expected = tangent_aval(aval)
        if _is_zero(ct) or expected.dtype == dtypes.float0:
            cts.append(Zero(expected))
            continue
        got = get_aval(ct)
        # Inside a shard_map checking types, a cotangent varying over axes its input does not is refused too.
        problem = ("shapes" if got.shape != expected.shape else
                   "manual axis types" if got.vma - expected.vma else None)
        if problem:
            raise ValueError("Custom VJP bwd rule must produce an output with the same type as the args tuple of "
                             f"the primal function, but at output{path} the bwd rule produced an output of type "
                             f"{_aval_text(got)} corresponding to an input of type {_aval_text(aval)}, so the "
                             f"{problem} do not match")
        cts.append(ct)
    return cts


# ---------------------------------------------------------------- optimize_remat: the remat_opt primitive
# With ``defvjp(..., optimize_remat=True)`` the forward function is not inlined into the differentiated program
# but staged as one ``remat_opt`` equation: its jaxpr computes the residuals (those that are not simply inputs,
# which are passed on as they are) and then the primal outputs. When only the primal outputs are needed (the
# residuals are dead, as when a checkpointed function is recomputed), dead-code elimination swaps it for the
# primal function; when only residuals are needed, it drops the primal outputs from the forward jaxpr.

remat_opt_p = Primitive("remat_opt")
remat_opt_p.multiple_results = True


@remat_opt_p.def_abstract_eval
def _remat_opt_avals(*avals: ShapedArray, fwd_jaxpr: ClosedJaxpr, **params) -> list[ShapedArray]:
    return fwd_jaxpr.out_avals


@remat_opt_p.def_impl
def _remat_opt_impl(*args: Any, fwd_jaxpr: ClosedJaxpr, **params) -> list[Any]:
    return core.eval_jaxpr(fwd_jaxpr.jaxpr, fwd_jaxpr.consts, *args)


class PrimalJaxprThunk:
    """The ``fun_jaxpr_thunk`` of a ``remat_opt`` equation: gives the primal function's jaxpr on the equation's
    primal inputs, or None when the primal function takes other inputs too (values it closes over); printed as
    JAX prints its memoized thunk."""

    def __init__(self, get: Callable[[], ClosedJaxpr | None]):
        self._get = get

    def __call__(self) -> ClosedJaxpr | None:
        return self._get()

    def __repr__(self) -> str:
        return f"<function _memoize.<locals>.memoized at {id(self):#x}>"

    __str__ = __repr__


class RematFwdRule(FwdRule):
    """The forward function of a ``custom_vjp`` with ``optimize_remat``: staged as one ``remat_opt`` equation."""

    def __init__(self, *args: Any, call_jaxpr: ClosedJaxpr, num_consts: int, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.call_jaxpr, self.num_consts = call_jaxpr, num_consts

    def __call__(self, primals: Sequence[Any], perturbed: Sequence[bool]) -> tuple[list[Any], list[Any], BwdRule]:
        ran: list = []

        def forward(*xs: Any) -> list[Any]:
            outs, residuals, bwd = FwdRule.__call__(self, xs, perturbed)
            if bwd.static_res:  # residuals are outputs of the staged forward function: arrays only
                raise not_a_jax_type(bwd.static_res[0])
            ran[:] = [len(outs), bwd]
            return [*residuals, *outs]

        traced = trace_to_jaxpr(forward, [get_aval(x) for x in primals],
                                DebugInfo("custom_vjp fwd", self.rule, [f"args[{i}]" for i in range(len(primals))]))
        num_outs, bwd = ran
        jaxpr = traced.jaxpr
        res_vars = jaxpr.outvars[:len(jaxpr.outvars) - num_outs]
        # a residual that is an input is passed to the backward function as it is, not computed by remat_opt
        forwarded = [jaxpr.invars.index(v) if v in jaxpr.invars else None for v in res_vars]
        computed = [v for v, i in zip(res_vars, forwarded) if i is None]
        fwd_jaxpr, hoisted = hoist_traced_consts(
            ClosedJaxpr(jaxpr.replace(outvars=[*computed, *jaxpr.outvars[len(res_vars):]]), traced.consts))
        primal_jaxpr = PrimalJaxprThunk(lambda: None if self.num_consts else self.call_jaxpr)
        results = remat_opt_p.bind(*hoisted, *primals, fwd_jaxpr=fwd_jaxpr, fun_jaxpr_thunk=primal_jaxpr,
                                   num_consts=len(hoisted), num_res=len(computed))
        computed_values = iter(results[:len(computed)])
        residuals = [next(computed_values) if i is None else primals[i] for i in forwarded]
        return list(results[len(computed):]), residuals, bwd


def _dce_remat_opt(eqn: core.JaxprEqn, used_outputs: list[bool]) -> tuple[list[bool], core.JaxprEqn | None]:
    params = eqn.params
    num_consts, num_res = params["num_consts"], params["num_res"]
    if not any(used_outputs):
        return [False] * len(eqn.invars), None
    outvars = [v for v, u in zip(eqn.outvars, used_outputs) if u]
    # only primal outputs read: a closed_call of the primal function (when it takes the same inputs), pruned to
    # them, as JAX swaps the equation for one
    primal = None if any(used_outputs[:num_res]) or num_consts else params["fun_jaxpr_thunk"]()
    if primal is not None:
        pruned, used_inputs = dce_jaxpr(primal.jaxpr, used_outputs[num_res:])
        call = ClosedJaxpr(with_fresh_vars(pruned), primal.consts)
        return used_inputs, eqn.replace(invars=[v for v, u in zip(eqn.invars, used_inputs) if u], outvars=outvars,
                                        primitive=closed_call_p, params=dict(call_jaxpr=call))
    # the forward jaxpr, pruned to the outputs still read
    pruned, _ = dce_jaxpr(params["fwd_jaxpr"].jaxpr, used_outputs, instantiate=True)
    fwd_jaxpr = ClosedJaxpr(with_fresh_vars(pruned), params["fwd_jaxpr"].consts)
    new_params = dict(params, fwd_jaxpr=fwd_jaxpr, num_res=sum(used_outputs[:num_res]))
    return [True] * len(eqn.invars), eqn.replace(outvars=outvars, params=new_params)


dce_rules[remat_opt_p] = _dce_remat_opt


class custom_vjp(_CustomFunction):  # noqa: N801  (JAX's name)
    """A function whose reverse-mode derivative is given by ``defvjp(fwd, bwd)``; forward mode is refused."""

    def __init__(self, fun: Callable, nondiff_argnums: Sequence[int] = ()):
        super().__init__(fun, nondiff_argnums)
        self.fwd: Callable | None = None
        self.bwd: Callable | None = None
        self.optimize_remat = False

    def defvjp(self, fwd: Callable, bwd: Callable, symbolic_zeros: bool = False,
               optimize_remat: bool = False) -> None:
        """``fwd(*args) -> (out, residuals)``; ``bwd(*nondiff_args, residuals, out_cotangent) -> input cotangents``.
        With ``optimize_remat``, differentiation stages ``fwd`` as one ``remat_opt`` equation, which a
        rematerializing transformation can replace by the primal function where the residuals are not needed."""
        if optimize_remat and symbolic_zeros:
            raise NotImplementedError("remat optimization for custom_vjp does not support symbolic zeros")
        self.fwd, self.bwd, self.symbolic_zeros = fwd, bwd, symbolic_zeros
        self.optimize_remat = optimize_remat

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if self.fwd is None or self.bwd is None:
            raise AttributeError(f"No VJP defined for custom_vjp function {self.__name__} using defvjp.")
        args, nondiff, diff = self._split_args(args, kwargs)
        for leaf in tree.tree_leaves(diff):
            get_aval(leaf)  # JAX's TypeError for a value that is not an array (a string), eagerly too
        if core.evaluates_eagerly(tree.tree_leaves(diff)):
            return self.fun(*args)
        call_jaxpr, consts, flat_args, in_tree, out_tree = _trace_call(self._sig, nondiff, diff, "custom_vjp fun")
        fwd_args = (self.fwd, self.bwd, self._sig, nondiff, in_tree, [get_aval(x) for x in flat_args], out_tree,
                    self.symbolic_zeros)
        fwd = RematFwdRule(*fwd_args, call_jaxpr=call_jaxpr, num_consts=len(consts)) if self.optimize_remat \
            else FwdRule(*fwd_args)
        outs = custom_vjp_call_p.bind(*consts, *flat_args, call_jaxpr=call_jaxpr, fwd_jaxpr_thunk=fwd,
                                      num_consts=len(consts), bwd=NamedRule(self.bwd), out_trees=fwd.out_trees,
                                      symbolic_zeros=self.symbolic_zeros)
        return tree.tree_unflatten(out_tree, outs)


# ---------------------------------------------------------------- closure_convert


def closure_convert(fun: Callable, *example_args: Any) -> tuple[Callable, list[Any]]:
    """``(converted, consts)``: ``converted(*args, *consts)`` computes ``fun(*args)``, where ``consts`` are the
    traced values ``fun`` closes over (specialised to the types of ``example_args``)."""
    flat, in_tree = tree.tree_flatten(example_args)
    flat_fun, out_tree_thunk = flatten_fun(fun, in_tree)
    names = [f"args[{i}]" for i in range(len(flat))]
    closed = trace_to_jaxpr(flat_fun, [get_aval(x) for x in flat], DebugInfo("closure_convert", fun, names))
    converted, hoisted = hoist_traced_consts(closed)
    out_tree = out_tree_thunk()

    def converted_fun(*args_and_consts: Any) -> Any:
        n = len(args_and_consts) - len(hoisted)
        flat_args, args_tree = tree.tree_flatten(args_and_consts[:n])
        if args_tree != in_tree:
            raise TypeError(f"closure_convert: the converted function was traced for arguments of structure "
                            f"{in_tree} but called with {args_tree}.")
        outs = core.eval_jaxpr(converted.jaxpr, converted.consts, *args_and_consts[n:], *flat_args)
        return tree.tree_unflatten(out_tree, outs)

    converted_fun.__name__ = _fun_name(fun)
    return converted_fun, hoisted


# ---------------------------------------------------------------- custom_gradient


def custom_gradient(fun: Callable) -> custom_vjp:
    """A custom_vjp from one function: ``fun(*args) -> (out, vjp)`` where ``vjp(out_cotangent)`` gives the
    cotangents of the arguments (a tuple, or a single value for a function of one argument)."""

    def wrapped_fun(*args: Any, **kwargs: Any) -> Any:
        out, _ = fun(*args, **kwargs)
        return out

    def fwd(*args: Any, **kwargs: Any) -> tuple[Any, tuple[Callable, list[Any]]]:
        out, rule = fun(*args, **kwargs)
        # The rule closes over values traced in fwd: hoist them out as residuals, keep the rest as a function.
        converted, consts = closure_convert(rule, out)
        return out, (converted, consts)

    def bwd(residuals: tuple[Callable, list[Any]], cotangent: Any) -> tuple:
        converted, consts = residuals
        cotangents = converted(cotangent, *consts)
        return (cotangents,) if tree.treedef_is_leaf(tree.tree_structure(cotangents)) else cotangents

    function = custom_vjp(wrapped_fun)
    function.defvjp(fwd, bwd)
    return function


__all__ = ["FORWARD_MODE_ERROR", "CustomVJPPrimal", "SymbolicZero", "closure_convert", "custom_gradient",
           "custom_jvp", "custom_jvp_call_p", "custom_lin_p", "custom_vjp", "custom_vjp_call_p",
           "custom_vjp_primal_tree_values", "remat_opt_p", "zero_from_primal"]
