"""Forward-mode differentiation: the JVP interpreter and ``jvp``.

A ``JVPTracer`` carries a primal value and its tangent. The tangent may be the
symbolic ``Zero``, which stands for an array of zeros that is never built: a
primitive whose operands all have zero tangents is applied to the primals
alone, and rules skip the terms of zero operands. Integer and boolean primals
have ``float0`` tangents, which are always symbolic zeros inside the trace.

Rules live in ``jvp_rules``: ``rule(primals, tangents, **params)`` returns
``(primal_out, tangent_out)`` (lists for primitives with multiple results) and
runs under the parent trace, so the lax operations it applies to tangents are
staged, evaluated or differentiated again as the parent decides.
"""

from __future__ import annotations

import operator
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, nullcontext
from typing import Any

import numpy as np

import jaxle_tree as tree
from jaxle_core import core, dtypes
from jaxle_core.array import Array
from jaxle_core.avals import ShapedArray, get_aval
from jaxle_core.backend import current_backend
from jaxle_core.core import Primitive, Tracer
from jaxle_core.lax.structural import broadcast_in_dim
from jaxle_core.staging import StagingTrace, flatten_fun

# ---------------------------------------------------------------- symbolic zeros and tangent types


class Zero:
    """A tangent known to be all zeros, of abstract value ``aval``; never materialised inside a trace."""

    __slots__ = ("aval",)

    def __init__(self, aval: ShapedArray):
        self.aval = aval

    def __repr__(self) -> str:
        return f"Zero({self.aval.str_short()})"


def tangent_dtype(dtype: np.dtype) -> np.dtype:
    """The dtype of tangents to values of ``dtype``: itself when inexact, the one an extended dtype names
    (``primal_tangent_dtype``), ``float0`` otherwise."""
    named = getattr(dtype, "tangent_dtype", None) if isinstance(dtype, dtypes.ExtendedDType) else None
    if named is not None:
        return named
    return dtype if dtypes.issubdtype(dtype, np.inexact) else dtypes.float0


def tangent_aval(aval: ShapedArray) -> ShapedArray:
    dtype = tangent_dtype(aval.dtype)
    return aval.update(dtype=dtype, weak_type=aval.weak_type and dtype != dtypes.float0)


class _RuleZeros(threading.local):
    """Per thread: whether a jit's JVP is being traced to be linearized (``traces_linearized_jit``), and whether
    the scalar zeros rules instantiate are written inline (``inline``): JAX linearizes a custom_jvp rule by its JVP
    then partial evaluation, which writes known scalars inline where its direct linearization passes residuals."""

    traces_linearized_jit = False
    inline = False
    tangent_side = False  # whether the zeros made are for the tangent side (see ``Literal``)


rule_zeros = _RuleZeros()


@contextmanager
def rule_zeros_state(traces_linearized_jit: bool, inline: bool, tangent_side: bool = False) -> Iterator[None]:
    """Within it, ``rule_zeros`` has these values."""
    before = rule_zeros.traces_linearized_jit, rule_zeros.inline, rule_zeros.tangent_side
    rule_zeros.traces_linearized_jit, rule_zeros.inline, rule_zeros.tangent_side = \
        traces_linearized_jit, inline, tangent_side
    try:
        yield
    finally:
        rule_zeros.traces_linearized_jit, rule_zeros.inline, rule_zeros.tangent_side = before


def zeros_like_aval(aval: ShapedArray, as_residual: bool = True) -> Any:
    """A concrete (or staged) array of zeros of ``aval``; ``float0`` zeros are plain NumPy arrays.

    A scalar zero made under a staging trace is, with ``as_residual`` (and unless ``rule_zeros.inline``), a
    constant that partial evaluation of the staged jaxpr passes from the known side as a residual, as JAX's
    linearization does with the zeros differentiation rules instantiate (the zero carries loops start from stay
    inline). With ``rule_zeros.tangent_side``, an array of zeros made under a staging trace is marked to be made
    on the tangent side when the staged jaxpr is split (see ``Literal``).
    """
    eager = isinstance(core.current_trace(), core.EvalTrace)
    if aval.dtype == dtypes.float0 and (eager or not aval.shape):
        return np.zeros(aval.shape, dtypes.float0)
    scalar = np.zeros((), aval.dtype)
    layout = getattr(aval, "explicit_sharding", None)  # zeros laid out as the values they stand beside
    if eager and layout is None:
        return current_backend().device_put(np.zeros(aval.shape, aval.dtype), weak_type=aval.weak_type)
    zero = scalar[()]
    if aval.weak_type:  # weakly typed as its aval, as JAX's zeros are (each its own constant, as each of JAX's)
        zero = current_backend().device_put(zero, weak_type=True)
        core.mark_inline(zero)
    if not aval.shape:
        trace = core.current_trace()
        if as_residual and not rule_zeros.inline and isinstance(trace, StagingTrace):
            trace.rule_constants[id(zero)] = zero
        return zero
    trace = core.current_trace()
    if rule_zeros.tangent_side and isinstance(trace, StagingTrace):
        trace.tangent_constants[id(zero)] = zero
    return broadcast_in_dim(zero, aval.shape, (), out_sharding=layout)


def instantiate(tangent: Any, as_residual: bool = True) -> Any:
    """``tangent`` as an array: symbolic zeros become real zeros (see ``zeros_like_aval``)."""
    return zeros_like_aval(tangent.aval, as_residual) if type(tangent) is Zero else tangent


def as_output(value: Any) -> Any:
    """A derivative returned to the user: symbolic zeros become zeros and, outside any trace, NumPy and
    Python values (a tangent passed straight through) become Arrays; ``float0`` zeros stay NumPy arrays."""
    return host_value_as_array(instantiate(value))


def host_value_as_array(value: Any, aval: ShapedArray | None = None) -> Any:
    """Outside any trace, a NumPy or Python value as an Array of ``aval`` (its own by default), as JAX's rules give
    one; arrays, tracers and ``float0`` values are returned as they are."""
    if isinstance(value, (Array, Tracer)) or not isinstance(core.current_trace(), core.EvalTrace):
        return value
    aval = get_aval(value) if aval is None else aval
    if aval.dtype == dtypes.float0:
        return value
    return current_backend().device_put(np.asarray(value, aval.dtype), weak_type=aval.weak_type)


# ---------------------------------------------------------------- add_any: the sum of two tangents

add_any_p = Primitive("add_any")


@add_any_p.def_abstract_eval
def _add_any_aval(x: ShapedArray, y: ShapedArray) -> ShapedArray:
    if (x.shape, x.dtype) != (y.shape, y.dtype):  # tangents of one value; a transformation's rule got them wrong
        raise TypeError(f"add_any takes two tangents of the same type, got {x.str_short()} and {y.str_short()}")
    return x


add_any_p.def_impl(np.add)


def add_tangents(x: Any, y: Any) -> Any:
    """The sum of two tangents of the same type, skipping symbolic zeros."""
    if type(x) is Zero:
        return y
    if type(y) is Zero:
        return x
    return add_any_p.bind(x, y)


# ---------------------------------------------------------------- the interpreter

def _add_any_jvp(primals: Sequence[Any], tangents: Sequence[Any]) -> tuple[Any, Any]:
    # linear, as JAX's: a zero tangent beside a nonzero one is instantiated
    out = add_any_p.bind(*primals)
    if all(type(t) is Zero for t in tangents):
        return out, tangents[0]
    return out, add_any_p.bind(*[instantiate(t) for t in tangents])


jvp_rules: dict[Primitive, Callable[..., tuple[Any, Any]]] = {add_any_p: _add_any_jvp}
# Primitives whose rule runs even when every operand's tangent is zero: those making or reading mutable references,
# whose tangents live beside the reference rather than in its operands.
jvp_always: set[Primitive] = set()

class JVPTracer(Tracer):
    """A primal value with its tangent (an array or ``Zero``)."""

    __slots__ = ("primal", "tangent")

    def __init__(self, trace: JVPTrace, primal: Any, tangent: Any):
        self._trace = trace
        self.primal = primal
        self.tangent = tangent

    @property
    def aval(self) -> ShapedArray:
        return get_aval(self.primal)

    def __repr__(self) -> str:
        return f"{self._trace.tracer_name}(primal={self.primal!s}, {self._trace.describe_tangent(self.tangent)})"

    def _concrete(self) -> Any:
        core.check_tracer_valid(self)
        return core.concrete_value(self.primal)

    # Python control flow on a concrete primal is allowed, as in JAX outside jit.
    def __bool__(self):
        value = self._concrete()
        return bool(value) if value is not None else Tracer.__bool__(self)

    def __int__(self):
        value = self._concrete()
        return int(value) if value is not None else Tracer.__int__(self)

    def __float__(self):
        value = self._concrete()
        return float(value) if value is not None else Tracer.__float__(self)

    def __complex__(self):
        value = self._concrete()
        return complex(value) if value is not None else Tracer.__complex__(self)

    def __index__(self):
        value = self._concrete()
        return operator.index(value) if value is not None else Tracer.__index__(self)  # TypeError for floats


class JVPTrace(core.Trace):
    """Interprets each primitive by its JVP rule, carrying tangents beside primals."""

    tracer_name = "JVPTracer"  # how JAX prints a value traced by jvp
    tracer_type = JVPTracer  # the class of this trace's tracers

    def describe(self) -> str:
        return "a jvp trace"

    def describe_tangent(self, tangent: Any) -> str:
        return f"tangent={tangent!s}"

    def to_primal_tangent(self, x: Any) -> tuple[Any, Any]:
        if isinstance(x, JVPTracer) and x._trace is self:
            return x.primal, x.tangent
        if isinstance(x, Tracer):
            core.check_tracer_valid(x)
        return x, Zero(tangent_aval(get_aval(x)))

    def process_primitive(self, primitive, args, params):
        primals, tangents = zip(*map(self.to_primal_tangent, args)) if args else ((), ())
        if all(type(t) is Zero for t in tangents) and primitive not in jvp_always:
            with core.set_current_trace(self.parent):
                return primitive.bind(*primals, **params)
        rule = jvp_rules.get(primitive)
        if rule is None:
            raise NotImplementedError(f"Differentiation rule for '{primitive.name}' not implemented")
        with core.set_current_trace(self.rule_trace()):
            primal_out, tangent_out = rule(list(primals), list(tangents), **params)
        if primitive.multiple_results:
            return [self.output(p, t) for p, t in zip(primal_out, tangent_out)]
        return self.output(primal_out, tangent_out)

    def output(self, primal: Any, tangent: Any) -> Any:
        """A primitive's output: its primal alone where its tangent is a symbolic zero (as JAX, so code that
        looks for this trace's tracers, such as equinox's ``filter_jvp``, sees which outputs carry a tangent)."""
        return primal if type(tangent) is Zero else self.tracer_type(self, primal, tangent)

    def rule_trace(self) -> core.Trace:
        """The trace that interprets what a rule applies to primals and tangents: the parent's."""
        return self.parent

    def concrete_value(self, x: JVPTracer) -> Any:
        return core.concrete_value(x.primal)


def jvp_flat(fun: Callable[..., Sequence[Any]], primals: Sequence[Any], tangents: Sequence[Any],
             trace: JVPTrace | None = None, transform_stack: bool = True) -> tuple[list[Any], list[Any], Any]:
    """Run ``fun`` (flat in, ``(flat_outs, extra)`` out) under a JVP trace (a new ``JVPTrace`` unless given).
    With ``transform_stack`` the equations staged inside are named under ``jvp`` (as JAX names those of its
    ``jvp``, ``linearize`` and ``grad``; not those of a jaxpr's JVP, such as a jitted body's).

    Tangents may be ``Zero``; output tangents are returned as produced (possibly ``Zero``).
    ``extra`` is returned with this trace's tracers replaced by their primals.
    """
    trace = JVPTrace() if trace is None else trace
    with core.new_trace(trace), core.transform_name_stack("jvp") if transform_stack else nullcontext():
        tracers = [trace.tracer_type(trace, p, t) for p, t in zip(primals, tangents)]
        outs, extra = fun(*tracers)
        pairs = [trace.to_primal_tangent(x) for x in outs]
        extra = tree.tree_map(lambda x: x.primal if isinstance(x, JVPTracer) and x._trace is trace else x, extra)
    return [p for p, _ in pairs], [t for _, t in pairs], extra


# ---------------------------------------------------------------- the public function


def _check_pair(primal: Any, tangent: Any) -> None:
    primal_aval = get_aval(primal)
    tangent_dt = tangent.dtype if isinstance(tangent, np.ndarray) and tangent.dtype == dtypes.float0 \
        else get_aval(tangent).dtype
    expected = tangent_dtype(primal_aval.dtype)
    if tangent_dt != expected:
        expected_name, got_name = str(expected), str(tangent_dt)  # float0 printed as its fields, as JAX prints it
        raise TypeError(
            "primal and tangent arguments to jax.jvp do not match; dtypes must be equal, or in case of int/bool "
            f"primal dtype the tangent dtype must be float0.Got primal dtype {primal_aval.dtype.name} and so "
            f"expected tangent dtype {expected_name}, but got tangent dtype {got_name} instead.")
    if np.shape(tangent) != primal_aval.shape:
        raise ValueError("jvp called with different primal and tangent shapes;Got primal shape "
                         f"{primal_aval.shape} and tangent shape as {tuple(np.shape(tangent))}")


def _output_and_aux(pair: Any) -> tuple[Any, Any]:
    """A ``has_aux`` function's result unpacked as JAX's ``jvp`` unpacks it, once the JVP trace is no longer
    current: an array of this trace (a function returning one array, not a pair) escapes it (UnexpectedTracerError,
    as in JAX)."""
    if isinstance(pair, JVPTracer) and pair._trace is core.current_trace() and pair.aval.shape:
        raise core.escaped_tracer_error(pair)
    out, aux = pair
    return out, aux


def jvp(fun: Callable, primals: Sequence[Any], tangents: Sequence[Any], has_aux: bool = False) -> tuple:
    """``(fun(*primals), J tangents)``: the value of ``fun`` and its directional derivative.

    ``primals`` and ``tangents`` are tuples (or lists) of pytrees of the same structure; with
    ``has_aux`` ``fun`` returns ``(output, aux)`` and ``aux`` is returned third, undifferentiated.
    """
    if not callable(fun):
        raise TypeError(f"Expected a callable value, got {fun}")
    if not isinstance(primals, (tuple, list)) or not isinstance(tangents, (tuple, list)):
        raise TypeError("primal and tangent arguments to jax.jvp must be tuples or lists; found "
                        f"{type(primals).__name__} and {type(tangents).__name__}.")
    flat_primals, in_tree = tree.tree_flatten(primals)
    flat_tangents, tangent_tree = tree.tree_flatten(tangents)
    if in_tree != tangent_tree:
        raise TypeError("primal and tangent arguments to jax.jvp must have the same tree structure; primals have "
                        f"tree structure {in_tree} whereas tangents have tree structure {tangent_tree}.")
    for p, t in zip(flat_primals, flat_tangents):
        _check_pair(p, t)
    in_tangents = [Zero(tangent_aval(get_aval(p))) if tangent_dtype(get_aval(p).dtype) == dtypes.float0 else t
                   for p, t in zip(flat_primals, flat_tangents)]
    fun_and_aux = (lambda *args: _output_and_aux(fun(*args))) if has_aux else lambda *args: (fun(*args), None)
    flat_fun, out_tree_thunk = flatten_fun(fun_and_aux, in_tree, returns_aux=True)
    primals_out, tangents_out, aux = jvp_flat(flat_fun, flat_primals, in_tangents)
    for p in primals_out:
        get_aval(p)  # rejects outputs that are not arrays, as JAX does
    out_tree = out_tree_thunk()
    result = (tree.tree_unflatten(out_tree, primals_out),
              tree.tree_unflatten(out_tree, [instantiate(t) for t in tangents_out]))
    return (*result, aux) if has_aux else result
