"""Staging: tracing a Python function into a jaxpr (``make_jaxpr``, ``jit``).

``StagingTrace`` records each primitive application as an equation instead of
computing it. Values from outside the trace (arrays, outer tracers) become
constvars, or inline literals when they are scalars.
"""

from __future__ import annotations

import functools
import gc
import inspect
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import InitVar, dataclass, field
from typing import Any

import jaxle_tree as tree
from jaxle_core import core, source_info, vma
from jaxle_core.array import Array
from jaxle_core.avals import ShapedArray, get_aval, is_array_like
from jaxle_core.compute_types import current_compute_type
from jaxle_core.config import check_tracer_leaks
from jaxle_core.core import ClosedJaxpr, Jaxpr, JaxprEqn, Literal, Tracer, Var
from jaxle_core.mesh import get_abstract_mesh
from jaxle_core.shape_poly import DimExpr, dimension_as_value
from jaxle_core.source_info import equation_source

# Primitives that staging may skip (as JAX's forwarding and constant folding do): ``rule(args, params)``
# returns the result without recording an equation (an operand, or a folded constant), or None to stage it.
staging_rewrites: dict[core.Primitive, Callable[[Sequence[Any], dict], Any]] = {}
# Equations that JAX's tracing into jaxprs forwards (returns an operand for, ``rule(args, params)`` as above) but
# its partial-evaluation tracing, which ``linear_transpose`` traces with, records: a trace built with
# ``forwarding=False`` stages them (and so transposes them).
forwarding_rules: dict[core.Primitive, Callable[[Sequence[Any], dict], Any]] = {}


# Makes each staging trace's equation list: a plain list, except while source locations are being recorded
# (``jaxle_core.source_info``), so that ordinary tracing pays nothing for them.
new_equation_list: Callable[[], list] = list


@dataclass(slots=True, eq=False)
class DebugInfo:
    """Where a jaxpr came from: the traced function (its name and source line) and its argument names, for
    error messages."""

    traced_for: str
    fun: InitVar[Callable | None]
    arg_names: Sequence[str]
    func_name: str = field(init=False)
    qualified_name: str = field(init=False)  # ``outer.<locals>.f``: how JAX names it where arguments' devices clash
    source: str | None = field(init=False)
    traceback: Any = field(init=False, default=None)  # the stack that traced it (set by ``trace_to_jaxpr``)

    def __post_init__(self, fun: Callable | None):
        inner = fun
        while isinstance(inner, functools.partial):  # named, and located, by the function it calls, as JAX's
            inner = inner.func
        self.func_name = getattr(inner, "__name__", type(inner).__name__) if fun is not None else "<unknown>"
        # a partial (without a name of its own) by its repr, as JAX names it where arguments' devices clash
        self.qualified_name = getattr(fun, "__qualname__", getattr(fun, "__name__", str(fun))) \
            if isinstance(fun, functools.partial) else getattr(fun, "__qualname__", self.func_name)
        code = getattr(inner, "__code__", None)
        self.source = f"{code.co_filename}:{code.co_firstlineno}" if code is not None else None
        self.arg_names = tuple(self.arg_names)

    def describe_function(self) -> str:
        where = f" at {self.source}" if self.source else ""
        return f"the function {self.func_name}{where} for {self.traced_for}"


class DynamicJaxprTracer(Tracer):
    """A value being staged into a jaxpr (its var); named as JAX's, which Python's "unhashable type" error quotes."""

    __slots__ = ("_aval", "jaxpr_var")

    def __init__(self, trace: StagingTrace, aval: ShapedArray, var: Var):
        self._trace = trace
        self._aval = aval
        self.jaxpr_var = var  # not `var`: that is the Array method jnp installs

    @property
    def aval(self) -> ShapedArray:
        return self._aval

    def __repr__(self) -> str:
        # JAX names a staged value after jit and marks a weak type with "~".
        return f"JitTracer({'~' if self._aval.weak_type else ''}{self._aval.str_short()})"


class StagingTrace(core.Trace):
    """Records primitive applications into a list of equations."""

    tracer_type: type[DynamicJaxprTracer] = DynamicJaxprTracer  # the class of the values it stages
    # how many entries of the name stack its equations leave out: those the stack had where a linearization
    # (which stages its tangents here) began, as JAX names a linear jaxpr's equations from there
    name_stack_start = 0
    # the entries its equations' name stacks start with (see ``naming_after``)
    name_stack_prefix: tuple[Any, ...] = ()

    def __init__(self, debug_info: DebugInfo | None = None, forwarding: bool = True):
        self.debug_info = debug_info
        self.forwarding = forwarding
        self.eqns: list[JaxprEqn] = new_equation_list()
        self.invars: list[Var] = []
        self.constvars: dict[int, tuple[Var, Any]] = {}  # id(value) -> (var, value)
        # id(value) -> value: scalar zeros JVP rules instantiated under this trace (kept alive so ids stay unique),
        # and those made for the tangent side (see ``Literal``)
        self.rule_constants: dict[int, Any] = {}
        self.tangent_constants: dict[int, Any] = {}
        # id(value) -> value: arrays made from host values while this trace was tracing (see ``made_while_staging``)
        self.made_constants: dict[int, Any] = {}

    def describe(self) -> str:
        return f"tracing {self.debug_info.describe_function()}" if self.debug_info else "a staging trace"

    def new_arg(self, aval: ShapedArray) -> DynamicJaxprTracer:
        var = Var(aval)
        self.invars.append(var)
        return self.tracer_type(self, aval, var)

    def to_atom(self, x: Any) -> core.Atom:
        """The jaxpr atom standing for ``x``: its var, a literal, or a constvar."""
        if isinstance(x, DynamicJaxprTracer) and x._trace is self:
            return x.jaxpr_var
        if isinstance(x, Tracer):
            core.check_tracer_valid(x)
        elif core.is_scalar_literal(x):
            return make_literal(x, residual=id(x) in self.rule_constants, tangent=id(x) in self.tangent_constants)
        elif type(x) is DimExpr:  # a symbolic dimension as an operand: computed from the arguments' shapes
            return dimension_as_value(x).jaxpr_var
        entry = self.constvars.get(id(x))
        if entry is None:
            entry = self.constvars[id(x)] = (Var(get_aval(x)), x)
        return entry[0]

    def process_primitive(self, primitive, args, params):
        for rewrites in (staging_rewrites, forwarding_rules) if self.forwarding else (staging_rewrites,):
            rewrite = rewrites.get(primitive)
            if rewrite is not None:
                result = rewrite(args, params)
                if result is not None:
                    return result
        atoms = [self.to_atom(x) for x in args]
        # Inside a shard_map checking types ``bind`` has cast the operands; the results get the rule's axes.
        result_vma = reductions = None
        if vma.checked_axes():
            in_avals = [a.aval for a in atoms]
            result_vma = vma.operand_and_result_vmas(primitive, in_avals, params)[1]
            reductions = vma.result_reductions(primitive, in_avals, params)
        out_aval = core.abstract_eval(primitive, [a.aval for a in atoms], params)
        out_avals = out_aval if primitive.multiple_results else [out_aval]
        if result_vma is not None or reductions is not None:
            unreduced, reduced = reductions or (None, None)
            out_avals = [a.update(vma=result_vma, unreduced=unreduced, reduced=reduced) for a in out_avals]
        outvars = [Var(a) for a in out_avals]
        source = equation_source()
        if self.name_stack_start or self.name_stack_prefix:
            source = (source[0], self.name_stack_prefix + source[1][self.name_stack_start:])
        self.eqns.append(JaxprEqn(atoms, outvars, primitive, params, current_compute_type(),
                                  None if core.type_auto_meshes is None else get_abstract_mesh(), source))
        tracers = [self.tracer_type(self, v.aval, v) for v in outvars]
        return tracers if primitive.multiple_results else tracers[0]

    @contextmanager
    def naming_after(self, prefix: tuple[Any, ...]) -> Iterator[None]:
        """Within it, the equations staged here record ``prefix`` followed by the whole name stack at their
        staging, as JAX names the linear equations it stages for a checkpoint or a custom JVP rule."""
        saved = self.name_stack_start, self.name_stack_prefix
        self.name_stack_start, self.name_stack_prefix = 0, prefix
        try:
            yield
        finally:
            self.name_stack_start, self.name_stack_prefix = saved

    def to_closed_jaxpr(self, outs: Sequence[Any]) -> ClosedJaxpr:
        outvars = [self.to_atom(x) for x in outs]
        constvars = [var for var, _ in self.constvars.values()]
        consts = [value for _, value in self.constvars.values()]
        jaxpr = Jaxpr(constvars, self.invars, outvars, self.eqns, self.debug_info)
        return ClosedJaxpr(jaxpr, consts)

    def describe_tracer(self, tracer: Tracer) -> str:
        """Name the traced function and the arguments that ``tracer`` depends on."""
        if self.debug_info is None:
            return ""
        depends = _inputs_reaching(self, tracer.jaxpr_var) if isinstance(tracer, DynamicJaxprTracer) else []
        names = [self.debug_info.arg_names[i] for i in depends if i < len(self.debug_info.arg_names)]
        text = f"The error occurred while tracing {self.debug_info.describe_function()}."
        if names:
            plural = "s" if len(names) > 1 else ""
            text = (f"{text[:-1]}. This concrete value was not available in Python because it depends on the "
                    f"value of the argument{plural} {', '.join(names)}.")
        return text


def _staging_traces() -> Iterator[StagingTrace]:
    """The staging traces from the current trace outwards."""
    trace = core.current_trace()
    while trace is not None:
        if isinstance(trace, StagingTrace):
            yield trace
        trace = trace.parent


def made_while_staging(value: Any) -> Any:
    """Note that ``value``, an array ``jnp`` made from a host value, was made while the innermost staging trace was
    tracing: in JAX it is a value of that trace, so a ``jit`` closing over it takes it as an argument (see
    ``made_by_enclosing_trace``). Returns ``value``."""
    trace = next(_staging_traces(), None)
    if trace is not None:
        trace.made_constants[id(value)] = value
    return value


def made_by_enclosing_trace(value: Any) -> bool:
    """Whether ``value`` was made (``made_while_staging``) by a staging trace tracing now."""
    return any(id(value) in trace.made_constants for trace in _staging_traces())


def flatten_outputs(out: Any, debug_info: DebugInfo) -> tuple[list[Any], Any]:
    """The leaves and tree of a traced function's output, with JAX's TypeError for a leaf that is no array."""
    leaves, out_tree = tree.tree_flatten(out)
    for i, leaf in enumerate(leaves):
        if not isinstance(leaf, Tracer) and not is_array_like(leaf):
            path = tree.tree_flatten_with_path(out)[0][i][0]
            where = f" at output component {tree.keystr(path)}" if path else ""
            source = f" at {debug_info.source}" if debug_info.source else ""
            raise TypeError(f"function {debug_info.func_name}{source} traced for {debug_info.traced_for} returned a "
                            f"value of type {type(leaf)}{where}, which is not a valid JAX type")
    return leaves, out_tree


def flatten_fun(fun: Callable[..., Any], in_tree: Any, debug_info: DebugInfo | None = None,
                returns_aux: bool = False) -> tuple[Callable[..., Any], Callable[[], Any]]:
    """``(flat_fun, out_tree)``: ``flat_fun(*leaves)`` calls ``fun`` on the arguments that ``in_tree`` builds from
    ``leaves`` and returns its output's leaves; ``out_tree()`` is that output's tree once ``flat_fun`` has run.

    With ``debug_info``, an output leaf that is not an array raises JAX's TypeError (``flatten_outputs``). With
    ``returns_aux``, ``fun`` returns a pair ``(output, aux)`` and ``flat_fun`` returns ``(leaves, aux)``, ``aux``
    untouched.
    """
    out_trees: list[Any] = []

    def flat_fun(*leaves: Any) -> Any:
        out = fun(*tree.tree_unflatten(in_tree, leaves))
        if returns_aux:
            out, aux = out
        out_leaves, out_tree = tree.tree_flatten(out) if debug_info is None else flatten_outputs(out, debug_info)
        out_trees.append(out_tree)
        return (out_leaves, aux) if returns_aux else out_leaves

    return flat_fun, lambda: out_trees[0]


def transforms_eager_code() -> bool:
    """Whether the current trace is a transformation (grad, vjp, vmap) of eager code: no staging trace below it."""
    trace = core.current_trace()
    if isinstance(trace, core.EvalTrace):
        return False
    while trace is not None and not isinstance(trace, StagingTrace):
        if isinstance(trace, core.EvalTrace):
            return True
        trace = trace.parent
    return False


def make_literal(x: Any, residual: bool = False, tangent: bool = False) -> Literal:
    """``x`` as an inline constant: Python scalars keep their exact value (JAX prints ``0.1:f32[]``), and so do
    arrays made from one (``core.mark_inline``); NumPy scalars are cast to their canonical dtype
    (``np.float64(0.1)`` prints as the float32 it becomes)."""
    aval = get_aval(x)
    if isinstance(x, Array):  # the literal keeps the array's weak type
        return Literal(getattr(x, "_python_scalar", x), aval, residual, tangent)
    keep = type(x) in (bool, int, float, complex)
    return Literal(x if keep else _scalar_value(x, aval), aval, residual, tangent)


def _scalar_value(x: Any, aval: ShapedArray) -> Any:
    import numpy as np

    value = np.asarray(x)
    if value.dtype != aval.dtype:
        value = value.astype(aval.dtype)
    return value[()]


def _inputs_reaching(trace: StagingTrace, var: Var) -> list[int]:
    """Indices of the trace's inputs that ``var`` was computed from."""
    needed = {var}
    for eqn in reversed(trace.eqns):
        if any(v in needed for v in eqn.outvars):
            needed.update(a for a in eqn.invars if isinstance(a, Var))
    return [i for i, v in enumerate(trace.invars) if v in needed]


def trace_to_jaxpr(fun: Callable[..., Sequence[Any]], in_avals: Sequence[ShapedArray],
                   debug_info: DebugInfo | None = None, forwarding: bool = True,
                   trace: StagingTrace | None = None) -> ClosedJaxpr:
    """Trace ``fun`` (flat arrays in, flat list out) on abstract inputs (``forwarding``: see ``forwarding_rules``),
    recording into ``trace`` (default: a new ``StagingTrace``)."""
    trace = StagingTrace(debug_info, forwarding) if trace is None else trace
    if debug_info is not None:
        debug_info.traceback = source_info.capture_traceback()
    with core.new_trace(trace), core.new_name_stack():
        args = [trace.new_arg(aval) for aval in in_avals]
        outs = fun(*args)
        closed = trace.to_closed_jaxpr(outs)
    if check_tracer_leaks.value:
        del args, outs
        _check_leaks(trace)
    return closed


def _check_leaks(trace: StagingTrace) -> None:
    """With ``jax_check_tracer_leaks``: JAX's error when a tracer of the finished ``trace`` is still referenced
    (stored in a global, a closure, an object...)."""
    gc.collect()
    leaked = [x for x in gc.get_objects() if isinstance(x, DynamicJaxprTracer) and x._trace is trace]
    if not leaked:
        return
    described = []
    for tracer in leaked:
        lines = [f"JitTracer(~{tracer.aval.str_short()})", tracer._origin()]
        for holder in gc.get_referrers(tracer):
            if holder is not leaked and not inspect.isframe(holder):
                lines.append(f"<DynamicJaxprTracer {id(tracer)}> is referred to by <{type(holder).__name__} "
                             f"{id(holder)}>")
        described.append("\n".join(lines))
    raise Exception("Leaked trace DynamicJaxprTrace. Leaked tracer(s):\n\n" + "\n".join(described))
