"""The tracing machinery: primitives, traces, tracers, and the jaxpr IR.

Every transformation is an interpreter: a ``Trace`` subclass whose
``process_primitive`` says what applying a primitive means to its tracers.
The *current* trace lives in a thread-local context. ``Primitive.bind`` hands
the primitive to the current trace; a trace that needs its parent's
interpretation (a JVP computing primal values, say) makes the parent current
while it calls ``bind`` again. Values that belong to an outer trace are
constants to an inner one, so any transform nests inside any other.

A trace that has finished is invalidated; meeting one of its tracers later
means a tracer escaped its transformation (``UnexpectedTracerError``).
"""

from __future__ import annotations

import contextlib
import itertools
import operator
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass
from typing import Any

import numpy as np

from jaxle_core import dtypes, execution_checks
from jaxle_core.array import Array
from jaxle_core.avals import AvalProperties, ShapedArray, aval_handlers, get_aval, is_array_like
from jaxle_core.compute_types import computing_on
from jaxle_core.errors import (
    ConcretizationTypeError,
    TracerArrayConversionError,
    TracerBoolConversionError,
    TracerIntegerConversionError,
    UnexpectedTracerError,
)

# ---------------------------------------------------------------- primitives


class Primitive:
    """A named operation. Its meaning under each interpreter lives in rule tables."""

    multiple_results = False
    effectful = False  # effectful equations survive dead-code elimination
    unlowerable_effect: Any = None  # an effect XLA cannot lower: a program staging the primitive is refused
    calls_host = False  # a host callback: an eager shard_map runs its body's equations as the body reaches it

    def __init__(self, name: str):
        self.name = name
        self.abstract_eval: Callable[..., Any] | None = None
        self.impl: Callable[..., Any] | None = None

    def __repr__(self) -> str:
        return self.name

    def bind(self, *args, **params):
        if _context.vma_axes:  # inside a shard_map checking types: operands cast to the axes the primitive needs
            args = cast_operands(self, args, params)
        try:
            return _context.trace.process_primitive(self, args, params)
        except TypeError:
            check_operands(self, args)  # a non-array operand is reported as such, not by the rule it broke
            raise

    def forward(self, *args, **params):
        """Bind again, at the trace a trace forwards it to, what was bound at that trace (by default as ``bind``:
        a primitive whose bind adds work there overrides it, so it is added once)."""
        return self.bind(*args, **params)

    def def_abstract_eval(self, rule: Callable[..., Any]) -> Callable[..., Any]:
        """``rule(*avals, **params)`` returns the output aval (a list if multiple_results)."""
        self.abstract_eval = rule
        return rule

    def def_impl(self, impl: Callable[..., Any]) -> Callable[..., Any]:
        """``impl(*numpy_arrays, **params)``: the NumPy reference implementation."""
        self.impl = impl
        return impl


def check_callable(fun: Any) -> None:
    """JAX's TypeError when a transformation is given something that cannot be called."""
    if not callable(fun):
        raise TypeError(f"Expected a callable value, got {fun}")


def check_operands(primitive: Primitive, args: Sequence[Any]) -> None:
    """JAX's TypeError for the first of ``args`` that is not a JAX value (a string, an object array ...)."""
    for position, x in enumerate(args):
        if not is_array_like(x):
            raise TypeError(f"Error interpreting argument to {primitive} as a JAX value. The problematic value is of "
                            f"type {type(x)} and was passed to {primitive} at position {position}.\n") from None


# ---------------------------------------------------------------- traces


class Trace:
    """An interpreter of primitives. Subclasses define ``process_primitive``."""

    parent: Trace | None = None
    is_valid = True

    def process_primitive(self, primitive: Primitive, args: Sequence[Any], params: dict):
        raise NotImplementedError

    def invalidate(self) -> None:
        self.is_valid = False

    @property
    def main(self) -> Trace:
        """What identifies the transformation this trace runs (JAX's traces name it by a tag, read by libraries
        to tell their own tracers from others): the trace itself."""
        return self

    def describe(self) -> str:
        return type(self).__name__


class EvalTrace(Trace):
    """The outermost trace: applies primitives to concrete values via the backend."""

    def process_primitive(self, primitive, args, params):
        for x in args:
            if isinstance(x, Tracer):
                # A live tracer here means ``ensure_compile_time_eval`` inside a transformation: the innermost
                # trace among the operands' interprets the primitive (an outer one would capture the inner
                # tracers as its constants, and they would escape).
                with set_current_trace(_innermost_trace(args)):
                    return primitive.bind(*args, **params)
            if type(x) in mutable_value_types:
                # A mutable reference (a loop closing over one, say): the primitive runs on the arrays it holds.
                from jaxle_core.discharge import apply_eagerly  # local: discharge imports the primitives

                return apply_eagerly(primitive, args, params)
        apply = (_backend_module or _import_backend_module()).current_backend().apply_primitive
        if execution_checks.armed:
            return execution_checks.apply_checked(apply, primitive, args, params)
        return apply(primitive, args, params)


def _innermost_trace(args: Sequence[Any]) -> Trace:
    """The trace of the operands' tracers that runs inside all the others (each one checked to be still live)."""
    innermost = None
    for x in args:
        if isinstance(x, Tracer):
            check_tracer_valid(x)
            if innermost is None or _runs_inside(x._trace, innermost):
                innermost = x._trace
    return innermost


def _runs_inside(trace: Trace, outer: Trace) -> bool:
    """Whether ``trace`` was started while ``outer`` was running (below it in the trace stack)."""
    while trace is not None:
        trace = trace.parent
        if trace is outer:
            return True
    return False


# Types of eager values that no backend takes as they are (``Ref``): a primitive given one is applied to the
# arrays they hold, through the discharge rules.
mutable_value_types: set[type] = set()

_backend_module: Any = None  # jaxle_core.backend, which imports this module: imported on first use


def _import_backend_module() -> Any:
    # Once, not on every eager primitive: an import statement in a function costs a call into importlib each time.
    global _backend_module
    from jaxle_core import backend

    _backend_module = backend
    return backend


class _Context(threading.local):
    def __init__(self):
        self.trace: Trace = EvalTrace()
        self.top_trace = self.trace  # the thread's own eager trace, below every transformation
        self.axis_env: tuple[tuple[Any, int], ...] = ()
        self.name_stack: tuple[str, ...] = ()
        # what equations staged now record of their source (source_info.py): the stack to record instead of the
        # calling one (while an equation staged earlier is interpreted again, its stack; else None), and the name
        # stack (scopes and transformations, from the start of the innermost staging trace)
        self.source: tuple[Any, tuple[Any, ...]] = (None, ())
        self.vma_axes: frozenset = frozenset()  # the manual axes whose types are checked (vma.py)


# ``cast_operands(primitive, args, params)``: the operands cast (``pvary``) to the manual axes ``primitive`` needs
# them to vary over; installed by vma.py, called by ``bind`` only while ``_context.vma_axes`` is set.
cast_operands: Callable[[Primitive, Sequence[Any], dict], Sequence[Any]] = lambda primitive, args, params: args


_context = _Context()


def current_trace() -> Trace:
    return _context.trace


def within_trace_of(kind: type) -> bool:
    """Whether the current trace, or one it runs inside, is a ``kind``."""
    trace = _context.trace
    while trace is not None:
        if isinstance(trace, kind):
            return True
        trace = trace.parent
    return False


def within_trace_having(flag: str) -> bool:
    """Whether the current trace, or one it runs inside, has the class attribute ``flag`` set."""
    trace = _context.trace
    while trace is not None:
        if getattr(trace, flag, False):
            return True
        trace = trace.parent
    return False


def is_top_level() -> bool:
    """Whether no transformation is running in this thread, nor a named axis bound: not even below an
    ``ensure_compile_time_eval`` block, whose eager trace is a fresh one."""
    return _context.trace is _context.top_trace and not _context.axis_env


def scope_key() -> tuple:
    """The named axes and name scopes in effect: with the flags, what a cached trace of a function depends on."""
    return _context.axis_env, _context.name_stack


def evaluates_eagerly(values: Sequence[Any]) -> bool:
    """Whether binding a primitive to ``values`` now evaluates it: no transformation is running and none of
    ``values`` belongs to one."""
    return isinstance(_context.trace, EvalTrace) and not any(isinstance(x, Tracer) for x in values)


dispatch_state_observer: Callable[[], None] | None = None
"""Set by a backend that runs cached jitted calls outside Python (jaxle_xla): called in a thread whenever what
``jit.runs_cached_calls`` answers there may have changed (the thread starts or stops running a transformation, ...)."""


def dispatch_state_changed() -> None:
    """Tell the backend's ``dispatch_state_observer``, if any, that this thread's dispatch state may have changed."""
    if dispatch_state_observer is not None:
        dispatch_state_observer()


class set_current_trace:
    """Make ``trace`` current for the duration of the block (a class rather than a generator: transformations enter
    it for every primitive they apply)."""

    __slots__ = ("_trace", "_previous", "_switches")

    def __init__(self, trace: Trace):
        self._trace = trace

    def __enter__(self) -> Trace:
        trace = self._trace
        self._previous = previous = _context.trace
        _context.trace = trace
        # Only moving between eager evaluation and a transformation changes the dispatch state.
        self._switches = switches = dispatch_state_observer is not None and \
            (type(trace) is EvalTrace) is not (type(previous) is EvalTrace)
        if switches:
            dispatch_state_observer()
        return trace

    def __exit__(self, *exc_info: Any) -> None:
        _context.trace = self._previous
        if self._switches:
            dispatch_state_observer()


def context_snapshot() -> tuple:
    """This thread's trace, named axes, name scopes and checked manual axes, for ``restored_context``."""
    return _context.trace, _context.axis_env, _context.name_stack, _context.vma_axes


@contextmanager
def restored_context(snapshot: tuple):
    """Run the block in the trace context ``snapshot`` (from ``context_snapshot``) recorded: eager evaluation done
    from inside a body being traced, as if outside it."""
    trace, *rest = snapshot
    with set_current_trace(trace):
        previous = _context.axis_env, _context.name_stack, _context.vma_axes
        _context.axis_env, _context.name_stack, _context.vma_axes = rest
        try:
            yield
        finally:
            _context.axis_env, _context.name_stack, _context.vma_axes = previous


@contextmanager
def new_trace(trace: Trace):
    """Run a transformation's body under ``trace``, invalidating it afterwards."""
    trace.parent = _context.trace
    with set_current_trace(trace):
        try:
            yield trace
        finally:
            trace.invalidate()


# Named axes (vmap's and pmap's ``axis_name``): a stack of (name, size) frames.


@contextmanager
def extend_axis_env(name: Any, size: int):
    previous = _context.axis_env
    _context.axis_env = previous + ((name, size),)
    try:
        yield
    finally:
        _context.axis_env = previous


@contextmanager
def extend_name_stack(name: str):
    """Scope names recorded for staged operations (``named_scope``)."""
    previous, source = _context.name_stack, _context.source
    _context.name_stack = previous + (name,)
    _context.source = (source[0], source[1] + (name,))
    try:
        yield
    finally:
        _context.name_stack, _context.source = previous, source


@dataclass(frozen=True, slots=True)
class NameTransform:
    """A transformation in a name stack (``jvp``, ``vmap``, ``transpose``): it wraps the name that follows it."""

    name: str


@contextmanager
def transform_name_stack(name: str):
    """The equations staged within the block are named as staged under the transformation ``name``."""
    previous = _context.source
    _context.source = (previous[0], previous[1] + (NameTransform(name),))
    try:
        yield
    finally:
        _context.source = previous


class located_at:
    """The equations staged within the block (interpreting ``eqn``, staged earlier) record ``eqn``'s stack, and its
    name stack after the current one (a class rather than a generator: ``equation_context`` enters it for every
    equation interpreted)."""

    __slots__ = ("_eqn", "_previous")

    def __init__(self, eqn: JaxprEqn):
        self._eqn = eqn

    def __enter__(self) -> None:
        source = self._eqn.source
        self._previous = previous = _context.source
        if source is not None:
            _context.source = (source[0], previous[1] + source[1]) if previous[1] else source

    def __exit__(self, *exc_info: Any) -> None:
        _context.source = self._previous


def name_stack_depth() -> int:
    """How many entries (names and transformations) the name stack of equations staged now has."""
    return len(_context.source[1])


def current_name_stack() -> tuple[Any, ...]:
    """The name stack of equations staged now: ``named_scope`` names and ``NameTransform``s, outermost first."""
    return _context.source[1]


@contextmanager
def new_name_stack():
    """The equations staged within the block record name stacks that start empty (a jaxpr's are its own)."""
    previous = _context.source
    _context.source = (previous[0], ())
    try:
        yield
    finally:
        _context.source = previous


def axis_size(name: Any) -> int:
    for frame_name, size in reversed(_context.axis_env):
        if frame_name == name:
            return size
    raise NameError(f"unbound axis name: {name}. The following axis names (e.g. defined by pmap) are available "
                    f"to collective operations: {[n for n, _ in _context.axis_env]}")


# ---------------------------------------------------------------- tracers


class Tracer(AvalProperties):
    """A value being traced by a ``Trace``; it knows its abstract value (``aval``, which subclasses provide).

    Python operators and array methods are installed by ``jaxle_core.lax``.
    """

    __slots__ = ("_trace",)
    __array_priority__ = 1000

    def __getattr__(self, name: str) -> Any:
        # Methods of abstract values other than arrays (a traced reference's ``addupdate``), from ``aval_methods``.
        if not name.startswith("_") and name != "aval":
            own = aval_methods.get(type(self.aval))
            if own is not None and name in own:
                return lambda *args, **kwargs: own[name](self, *args, **kwargs)
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    # bool(), int() and operator.index() read the value where its trace knows it (``concrete_value``), as JAX's.
    def __bool__(self):
        value = concrete_value(self)
        if value is not None:
            return bool(value)
        if self.aval.size > 1:  # ambiguous whatever the value, as for a NumPy array
            raise ValueError("The truth value of an array with more than one element is ambiguous. Use a.any() or "
                             "a.all()")
        raise TracerBoolConversionError(
            self._with_origin(f"Attempted boolean conversion of traced array with shape {self.aval.str_short()}."))

    def _with_origin(self, text: str) -> str:
        """``text`` followed by the line saying where this value comes from, when there is one."""
        origin = self._origin()
        return f"{text}\n{origin}" if origin else text

    def concretization_error(self, context: str) -> ConcretizationTypeError:
        """JAX's error for this value used where a concrete one is needed, ``context`` saying where."""
        return ConcretizationTypeError(self._with_origin(
            "Abstract tracer value encountered where concrete value is expected: traced array with shape "
            f"{self.aval.str_short()}\n{context}") + "\n")

    def _concretization_error(self, function: str, advice: str):
        return self.concretization_error(f"The problem arose with the `{function}` function. {advice}")

    def __int__(self):
        value = concrete_value(self)
        if value is not None:
            return int(value)
        raise self._concretization_error(
            "int", "If trying to convert the data type of a value, try using `x.astype(int)` or "
            "`jnp.array(x, int)` instead.")

    def __float__(self):
        raise self._concretization_error(
            "float", "If trying to convert the data type of a value, try using `x.astype(float)` or "
            "`jnp.array(x, float)` instead.")

    def __complex__(self):
        raise self._concretization_error(
            "complex", "If trying to convert the data type of a value, try using `x.astype(complex)` or "
            "`jnp.array(x, complex)` instead.")

    def __index__(self):
        value = concrete_value(self)
        if value is not None:
            return operator.index(value)
        raise TracerIntegerConversionError(self._with_origin(
            f"The __index__() method was called on traced array with shape {self.aval.str_short()}"))

    def __array__(self, dtype=None, copy=None):
        raise TracerArrayConversionError(self._with_origin(
            "The numpy.ndarray conversion method __array__() was called on traced array with shape "
            f"{self.aval.str_short()}"))

    # Unhashable as JAX's tracers: Python's own TypeError names the class, raised without a Python frame (so
    # jit's error for a tracer given as a static argument shows no traceback).
    __hash__ = None

    def _origin(self) -> str:
        """Which traced function and argument this value came from, for error messages."""
        return self._trace.describe_tracer(self) if hasattr(self._trace, "describe_tracer") else (
            f"This value is a tracer of {self._trace.describe()}.")

    def __repr__(self) -> str:
        return f"Traced<{self.aval.str_short()}>with<{type(self._trace).__name__}>"

    def item(self):
        raise self.concretization_error("This occurred in the item() method of jax.Array")

    def tolist(self):
        # JAX's message names where the value comes from twice
        raise self.concretization_error(self._with_origin(
            f"The tolist() method was called on traced array with shape {self.aval.str_short()}."))


def concrete_or_error(value: Any, context: str) -> Any:
    """``value`` itself when it is concrete; JAX's ConcretizationTypeError when it is a tracer, ``context`` saying
    which argument of which function needed a concrete value and how to avoid the need."""
    if isinstance(value, Tracer):
        raise value.concretization_error(context)
    return value


def escaped_tracer_error(tracer: Tracer) -> UnexpectedTracerError:
    """JAX's error for ``tracer`` used outside its transformation; a staged value's names the finished trace."""
    message = (
        f"Encountered an unexpected tracer. A function transformed by JAX had a side effect, allowing for a "
        f"reference to an intermediate value with type {tracer.aval.str_short()} wrapped in a "
        f"{type(tracer).__name__} to escape the scope of the transformation.\n"
        "JAX transformations require that functions explicitly return their outputs, and disallow saving "
        "intermediate values to global state.\n")
    if hasattr(tracer._trace, "debug_info"):
        message += (f"The tracer was created by {tracer._trace.describe()}, which has already finished. Return the "
                    "value from the transformed function instead of storing it, or pass it in as an argument.")
    else:  # a value of jvp, grad or vmap: JAX's words
        message += ("To catch the leak earlier, try setting the environment variable JAX_CHECK_TRACER_LEAKS or using "
                    "the `jax.checking_leaks` context manager.")
    return UnexpectedTracerError(message)


def check_tracer_valid(x: Tracer) -> None:
    if not x._trace.is_valid:
        raise escaped_tracer_error(x)


# Per type of abstract value other than ShapedArray: methods its tracers have instead of the array ones
# (``__getitem__``, ``__setitem__``) or besides them.
aval_methods: dict[type, dict[str, Callable[..., Any]]] = {}

aval_handlers[Tracer] = lambda x: x.aval
dtypes.register_uncanonicalized_type(Tracer)


def typeof(x: Any) -> ShapedArray:
    """The abstract value of ``x`` (``jax.typeof``)."""
    return get_aval(x)


def cur_qdd(x: Any) -> Any:
    """The quasi-dynamic data ``x`` has now (``jax.experimental.cur_qdd``): what its own ``cur_qdd()`` gives, read
    outside any transformation. Arrays, references and tracers of them carry none (AttributeError, as in JAX)."""
    with set_current_trace(EvalTrace()):
        return x.cur_qdd()


def concrete_value(x: Any) -> Any:
    """The concrete value behind ``x``, or None when it is only known abstractly."""
    if isinstance(x, Tracer):
        return x._trace.concrete_value(x) if hasattr(x._trace, "concrete_value") else None
    return x


# ---------------------------------------------------------------- the jaxpr IR

_var_ids = itertools.count()


class Var:
    """A typed variable of a jaxpr. Names are assigned when printing."""

    __slots__ = ("aval", "id")

    def __init__(self, aval: ShapedArray):
        self.aval = aval
        self.id = next(_var_ids)

    def __repr__(self) -> str:
        return f"Var(id={self.id}){self.aval.str_short(short_dtypes=True)}"


class DropVar(Var):
    """An equation output that nothing reads (printed ``_``)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "_"


class Literal:
    """A scalar constant written inline in a jaxpr (``2.0:f32[]``).

    ``residual`` marks a constant a JVP rule made (an instantiated zero tangent): partially evaluating the
    jaxpr passes it from the known side as a residual when unknown equations read it, as JAX's linearization
    does, instead of writing it inline there. ``tangent`` marks a zero a rule made for the tangent side (a loop's
    initial carry tangent): partially evaluating the jaxpr stages the equations reading it with the unknown ones,
    as JAX's linearization makes such zeros among the tangents.
    """

    __slots__ = ("val", "aval", "residual", "tangent")

    def __init__(self, val: Any, aval: ShapedArray, residual: bool = False, tangent: bool = False):
        self.val = val
        self.aval = aval
        self.residual = residual
        self.tangent = tangent

    def __repr__(self) -> str:
        return f"Literal({self.val})"


Atom = Var | Literal


class JaxprEqn:
    """``outvars = primitive[params] invars``."""

    __slots__ = ("invars", "outvars", "primitive", "params", "compute_type", "mesh", "source")

    def __init__(self, invars: list[Atom], outvars: list[Var], primitive: Primitive, params: dict,
                 compute_type: str | None = None, mesh: Any = None, source: Any = None):
        self.invars = invars
        self.outvars = outvars
        self.primitive = primitive
        self.params = params
        self.compute_type = compute_type  # of the ``compute_on`` block it was staged in (compute_types.py)
        # the abstract mesh current where it was staged (None: none, or no mesh of Auto axes seen yet), which its
        # lowering checks its operands' types against where JAX's does (a sort's comparison)
        self.mesh = mesh
        # where it was staged: ``(stack, name stack)`` (see source_info.py), None when unknown
        self.source = source

    def replace(self, **changes) -> JaxprEqn:
        fields = dict(invars=self.invars, outvars=self.outvars, primitive=self.primitive, params=self.params,
                      compute_type=self.compute_type, mesh=self.mesh, source=self.source)
        fields.update(changes)
        return JaxprEqn(**fields)

    def __repr__(self) -> str:
        from jaxle_core.pretty import pp_eqn  # local: pretty imports core

        return pp_eqn(self)


class Jaxpr:
    """A typed, first-order program: constvars and invars in, outvars out."""

    __slots__ = ("constvars", "invars", "outvars", "eqns", "debug_info", "__weakref__")  # weakly keyed by caches

    def __init__(self, constvars, invars, outvars, eqns, debug_info=None):
        self.constvars = list(constvars)
        self.invars = list(invars)
        self.outvars = list(outvars)
        self.eqns = list(eqns)
        self.debug_info = debug_info

    in_avals = property(lambda self: [v.aval for v in self.invars])
    out_avals = property(lambda self: [v.aval for v in self.outvars])

    def __str__(self) -> str:
        from jaxle_core.pretty import pp_jaxpr  # local: pretty imports core

        return pp_jaxpr(self)

    __repr__ = __str__

    def replace(self, **changes) -> Jaxpr:
        fields = dict(constvars=self.constvars, invars=self.invars, outvars=self.outvars, eqns=self.eqns,
                      debug_info=self.debug_info)
        fields.update(changes)
        return Jaxpr(**fields)


class ClosedJaxpr:
    """A jaxpr together with the values of its constvars."""

    __slots__ = ("jaxpr", "consts")

    def __init__(self, jaxpr: Jaxpr, consts: Sequence[Any]):
        assert len(consts) == len(jaxpr.constvars)
        self.jaxpr = jaxpr
        self.consts = list(consts)

    in_avals = property(lambda self: self.jaxpr.in_avals)
    out_avals = property(lambda self: self.jaxpr.out_avals)
    eqns = property(lambda self: self.jaxpr.eqns)

    def __str__(self) -> str:
        return str(self.jaxpr)

    __repr__ = __str__

    def __call__(self, *args):
        return eval_jaxpr(self.jaxpr, self.consts, *args)


def eval_jaxpr(jaxpr: Jaxpr, consts: Sequence[Any], *args: Any) -> list[Any]:
    """Interpret ``jaxpr`` under the current trace."""
    env: dict[Var, Any] = {}

    def read(atom: Atom) -> Any:
        return atom.val if type(atom) is Literal else env[atom]

    if len(args) != len(jaxpr.invars):
        raise TypeError(f"eval_jaxpr: expected {len(jaxpr.invars)} arguments, got {len(args)}")
    env.update(zip(jaxpr.constvars, consts))
    env.update(zip(jaxpr.invars, args))
    context = _context
    outer = context.source
    try:
        for eqn in jaxpr.eqns:
            source = eqn.source
            if source is not None:  # what it stages again is located where it was staged
                context.source = (source[0], outer[1] + source[1]) if outer[1] else source
            if eqn.compute_type is None and equation_mesh is None:
                outs = eqn.primitive.bind(*map(read, eqn.invars), **eqn.params)
            else:  # staged again (or evaluated) on the compute it was staged for, under the mesh it was traced under
                with equation_context(eqn):
                    outs = eqn.primitive.bind(*map(read, eqn.invars), **eqn.params)
            if not eqn.primitive.multiple_results:
                outs = (outs,)
            env.update(zip(eqn.outvars, outs))
    finally:
        context.source = outer
    return [read(v) for v in jaxpr.outvars]


def equation_context(eqn: JaxprEqn) -> AbstractContextManager[None]:
    """A block where ``eqn`` is interpreted as it was staged: what it stages again located where it was staged
    (source_info.py), on its compute type (``compute_on``) and, staged again, under the mesh it was traced under
    (``equation_mesh``; evaluated eagerly, its operands are arrays typed by the meshes they are laid out over)."""
    if eqn.compute_type is None and (equation_mesh is None or isinstance(_context.trace, EvalTrace)):
        return located_at(eqn)  # the usual case, entered for every equation a transformation interprets
    return _staged_context(eqn)


@contextmanager
def _staged_context(eqn: JaxprEqn) -> Iterator[None]:
    with located_at(eqn), contextlib.ExitStack() as stack:
        if eqn.compute_type is not None:
            stack.enter_context(computing_on(eqn.compute_type))
        if equation_mesh is not None and not isinstance(_context.trace, EvalTrace):
            stack.enter_context(equation_mesh([v.aval for v in eqn.outvars], eqn.mesh))
        yield


def jaxpr_as_fun(closed: ClosedJaxpr) -> Callable[..., list[Any]]:
    return lambda *args: eval_jaxpr(closed.jaxpr, closed.consts, *args)


# ``type_shardings(primitive, avals, params, outs)``: ``outs`` typed by the primitive's sharding rule; installed by
# sharding_types.py once the first mesh of Explicit axes (or array laid out over one) appears, None until then.
type_shardings: Callable[[Primitive, Sequence[Any], dict, Any], Any] | None = None
# ``type_memory_spaces(primitive, avals, params, outs)``: ``outs`` in their operands' memory space; installed by
# memory_spaces.py once an aval outside device memory appears.
type_memory_spaces: Callable[[Primitive, Sequence[Any], dict, Any], Any] | None = None
# ``type_auto_meshes(primitive, avals, params, outs)``: ``outs`` typed over their operands' mesh of Auto axes;
# installed by auto_mesh_types.py once the first such mesh (or array laid out over one) appears.
type_auto_meshes: Callable[[Primitive, Sequence[Any], dict, Any], Any] | None = None
# ``equation_mesh(avals_out, staged_under)``: a block under the mesh (of retyped axes) an equation with these results
# was traced under (``staged_under``, its recorded ``mesh``, where known), where that is not the current one (inside
# ``auto_axes``); installed by auto_mesh_types.py with the typing above, None until then.
equation_mesh: Callable[[Sequence[Any], Any], AbstractContextManager] | None = None


def abstract_eval(primitive: Primitive, avals: Sequence[ShapedArray], params: dict):
    """The output aval(s) of ``primitive`` applied to ``avals``."""
    if primitive.abstract_eval is None:
        raise NotImplementedError(f"primitive {primitive.name} has no abstract evaluation rule")
    if type_shardings is None and type_memory_spaces is None and type_auto_meshes is None:
        return primitive.abstract_eval(*avals, **params)
    out = primitive.abstract_eval(*avals, **params)
    if type_memory_spaces is not None:
        out = type_memory_spaces(primitive, avals, params, out)
    if type_shardings is not None:
        out = type_shardings(primitive, avals, params, out)
    return out if type_auto_meshes is None else type_auto_meshes(primitive, avals, params, out)


def mark_inline(array: Array, python_scalar: Any = None) -> None:
    """Record that the scalar ``array`` stands for a Python or NumPy scalar (staged inline, as a literal);
    ``python_scalar``: the Python scalar it was made from, which its literal keeps (as JAX's keeps the value a
    weakly typed scalar was given as: ``0.3:f32[]``, not the float32 it becomes)."""
    array._inline = True
    if python_scalar is not None:
        array._python_scalar = python_scalar


def is_scalar_literal(x: Any) -> bool:
    """Constants that a jaxpr keeps inline rather than hoisting to a constvar: Python and NumPy scalars,
    including those already converted to a dtype (computed arrays are hoisted, even 0-d ones)."""
    t = type(x)
    if t in (int, float, complex, bool):
        return True
    if isinstance(x, Array):
        return getattr(x, "_inline", False)
    return isinstance(x, (np.generic, np.ndarray)) and np.shape(x) == () and dtypes.is_valid_dtype(x.dtype)
