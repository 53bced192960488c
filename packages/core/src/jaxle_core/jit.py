"""``jit``: staging a function into a ``jit`` primitive carrying its closed jaxpr.

At the top level a jitted call traces once per argument signature, compiles
the jaxpr with the current backend once, and afterwards only flattens its
arguments, looks the signature up and runs the compiled callable. Under
another transformation it binds ``jit_p``, which that transformation
interprets like any other primitive.
"""

from __future__ import annotations

import collections
import contextlib
import functools
import inspect
import itertools
import logging
import operator
import sys
import threading
import time
import traceback
import warnings
import weakref
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

import jaxle_tree as tree
from jaxle_core import backend as backend_module
from jaxle_core import cache_misses, core, dtypes, execution_checks, monitoring, trace_warnings
from jaxle_core import layout as layouts_module
from jaxle_core.array import Array
from jaxle_core.auto_mesh_types import context_typed
from jaxle_core.avals import (
    ShapedArray,
    ShapeDtypeStruct,
    abstract_argument_aval,
    argument_avals,
    aval_handlers,
    get_aval,
    is_array_like,
    not_a_jax_type,
    python_int_fits,
)
from jaxle_core.caches import LruCache
from jaxle_core.config import disable_jit as _disable_jit_flag
from jaxle_core.config import enable_checks, explain_cache_misses, log_compiles, no_tracing, trace_context
from jaxle_core.core import ClosedJaxpr, JaxprEqn, Primitive, Tracer
from jaxle_core.device_mismatch import is_device_mismatch, named_by_call
from jaxle_core.extended import physical_value
from jaxle_core.jaxpr_util import call_primitives, carried_jaxpr_dce_rule, check_jaxpr, dce_jaxpr, dce_rules
from jaxle_core.layout import Format, Layout, is_row_major
from jaxle_core.mesh import get_mesh
from jaxle_core.pretty import Doc, PpContext, pp_eqn_generic, pp_eqn_rules
from jaxle_core.sharding import NamedSharding, Sharding, flat_jit_layouts, flat_jit_shardings
from jaxle_core.source_info import current as current_source
from jaxle_core.source_info import summarize
from jaxle_core.staging import DebugInfo, StagingTrace, flatten_fun, made_by_enclosing_trace, trace_to_jaxpr
from jaxle_tree.equality_errors import equality_errors

# With jax_log_compiles, tracing reports at WARNING level (as JAX's), so that it shows without logging set up.
_logger = logging.getLogger(__name__)


def _source_info(fun: Callable) -> str:
    """``name at file:line`` for a Python function, as JAX names functions in its messages."""
    code = getattr(inspect.unwrap(fun), "__code__", None)
    name = getattr(fun, "__name__", repr(fun))
    return f"{name} at {code.co_filename}:{code.co_firstlineno}" if code is not None else name


# ---------------------------------------------------------------- the primitive

jit_p = Primitive("jit")
jit_p.multiple_results = True


@jit_p.def_abstract_eval
def _jit_aval(*avals, jaxpr: ClosedJaxpr, **params):
    return jaxpr.out_avals


@jit_p.def_impl
def _jit_impl(*args, jaxpr: ClosedJaxpr, **params):
    return core.eval_jaxpr(jaxpr.jaxpr, jaxpr.consts, *args)


def jit_params(jaxpr: ClosedJaxpr, name: str, donated_invars: Sequence[bool] | None = None,
               keep_unused: bool = False, inline: bool = False) -> dict:
    """The params of a ``jit`` equation, in JAX 0.10.2's order."""
    n = len(jaxpr.jaxpr.invars)
    return dict(jaxpr=jaxpr, in_shardings=(None,) * n, out_shardings=(None,) * len(jaxpr.jaxpr.outvars),
                in_layouts=(None,) * n, out_layouts=(None,) * len(jaxpr.jaxpr.outvars),
                donated_invars=tuple(donated_invars or (False,) * n), ctx_mesh=get_mesh(), name=name,
                keep_unused=keep_unused, inline=inline, compiler_options_kvs=())


def _is_empty_mesh(mesh: Any) -> bool:
    return mesh is None or bool(getattr(mesh, "empty", False))


class _Unspecified:
    """How a jit equation prints a sharding it was not given (None), as JAX's placeholder."""

    def __repr__(self) -> str:
        return "UnspecifiedValue"


_UNSPECIFIED = _Unspecified()


def _pp_jit(eqn: JaxprEqn, context: PpContext) -> Doc:
    """``name`` first, then the params that differ from their defaults; the inner jaxpr's variables are named
    after the equation's where it is printed inline."""
    params = eqn.params
    hidden = {"inline", "name"}
    if not any(params["donated_invars"]):
        hidden.add("donated_invars")
    for k in ("in_shardings", "out_shardings", "in_layouts", "out_layouts"):
        if all(s is None for s in params[k]):
            hidden.add(k)
    for k in ("in_shardings", "out_shardings"):  # those not given print as JAX's placeholder
        if k not in hidden and any(s is None for s in params[k]):
            params = {**params, k: tuple(_UNSPECIFIED if s is None else s for s in params[k])}
    if not params["keep_unused"]:
        hidden.add("keep_unused")
    if _is_empty_mesh(params["ctx_mesh"]):
        hidden.add("ctx_mesh")
    if not params["compiler_options_kvs"]:
        hidden.add("compiler_options_kvs")
    inner = params["jaxpr"].jaxpr
    if inner not in context.shared_jaxprs:
        context.suggest_names(inner.invars, eqn.invars)
        context.suggest_names(inner.outvars, eqn.outvars)
    return pp_eqn_generic(eqn, context, params, ["name"] + sorted(k for k in params if k not in hidden))


pp_eqn_rules[jit_p] = _pp_jit


dce_rules[jit_p] = carried_jaxpr_dce_rule(("in_shardings", "in_layouts", "donated_invars"),
                                          ("out_shardings", "out_layouts"))
call_primitives.add(jit_p)


def hoist_traced_consts(closed: ClosedJaxpr) -> tuple[ClosedJaxpr, list[Tracer]]:
    """Turn constants that are tracers of an outer trace, or mutable references, into leading inputs."""
    traced = [i for i, c in enumerate(closed.consts) if isinstance(c, Tracer) or type(c) in core.mutable_value_types]
    if not traced:
        return closed, []
    jaxpr = closed.jaxpr
    kept = [i for i in range(len(closed.consts)) if i not in traced]
    converted = jaxpr.replace(constvars=[jaxpr.constvars[i] for i in kept],
                              invars=[jaxpr.constvars[i] for i in traced] + jaxpr.invars)
    return ClosedJaxpr(converted, [closed.consts[i] for i in kept]), [closed.consts[i] for i in traced]


def jit_inputs(closed: ClosedJaxpr) -> tuple[ClosedJaxpr, list[Any], list[Any]]:
    """``(converted, leading, trailing)``: ``closed`` as JAX's ``jit`` equation takes what it closes over. With a
    tracer of an outer trace among its constants (or an array made while an enclosing trace was tracing, a tracer
    of it in JAX), every constant becomes a leading input; otherwise, where the equation is staged, the mutable
    references become trailing inputs (after the arguments) and the other constants stay (a transformation's rule
    sees them as constants)."""
    consts = closed.consts
    if any(isinstance(c, Tracer) or made_by_enclosing_trace(c) for c in consts):
        jaxpr = closed.jaxpr
        return ClosedJaxpr(jaxpr.replace(constvars=[], invars=[*jaxpr.constvars, *jaxpr.invars]), []), list(consts), []
    moved = [type(c) in core.mutable_value_types for c in consts]
    if not any(moved) or not isinstance(core.current_trace(), StagingTrace):
        return closed, [], []
    found = _refs_moved_last.lookup(closed)  # as JAX's, one jaxpr staged twice is converted once (printed once)
    if found is None:
        found = _refs_moved_last[closed] = _moved_last(closed, moved)
    return found


# ``jit_inputs``'s conversions of the jaxprs closing over references, by jaxpr
_refs_moved_last = LruCache(256)


def _moved_last(closed: ClosedJaxpr, moved: list[bool]) -> tuple[ClosedJaxpr, list[Any], list[Any]]:
    consts = closed.consts
    jaxpr = closed.jaxpr
    converted = jaxpr.replace(constvars=[v for v, m in zip(jaxpr.constvars, moved) if not m],
                              invars=[*jaxpr.invars, *[v for v, m in zip(jaxpr.constvars, moved) if m]])
    return (ClosedJaxpr(converted, [c for c, m in zip(consts, moved) if not m]), [],
            [c for c, m in zip(consts, moved) if m])


def bind_jit(closed: ClosedJaxpr, args: Sequence[Any], name: str, keep_unused: bool = False,
             inline: bool = False, in_shardings: Sequence[Any] = (), out_shardings: Sequence[Any] = ()
             ) -> list[Any]:
    """Apply a ``jit`` equation of ``closed`` to ``args``, passing what it closes over as ``jit_inputs`` says; with
    the shardings of ``args`` and of the results (None: unspecified), as a transformed jit's equation keeps its
    own (each, or none, given)."""
    converted, leading, trailing = jit_inputs(closed)
    params = jit_params(converted, name, keep_unused=keep_unused, inline=inline)
    if any(s is not None for s in (*in_shardings, *out_shardings)):
        params.update(in_shardings=(None,) * len(leading) + tuple(in_shardings) + (None,) * len(trailing),
                      out_shardings=tuple(out_shardings))
    return jit_p.bind(*leading, *args, *trailing, **params)


# ---------------------------------------------------------------- the user-facing wrapper


def _hash_error_text(err: TypeError) -> str:
    """``err`` as jaxlib's jit reports an error from hashing a static argument: its type and message, after the
    traceback (frames without source lines, from the user's outermost one) when a Python ``__hash__`` raised it."""
    text = f"{type(err).__name__}: {err}\n"
    raised_in = err.__traceback__.tb_next if err.__traceback__ is not None else None
    if raised_in is None:  # raised by the interpreter itself (a list, a tracer): no frame to show
        return text
    callers = []
    frame = sys._getframe(1)
    while frame is not None:
        if not str(frame.f_globals.get("__name__", "")).startswith("jaxle"):
            callers.append((frame.f_code.co_filename, frame.f_lineno, frame.f_code.co_name))
        frame = frame.f_back
    raising = [(f.filename, f.lineno, f.name) for f in traceback.extract_tb(raised_in)]
    frames = "".join(f'  File "{file}", line {line}, in {name}\n' for file, line, name in [*callers[::-1], *raising])
    return f"Traceback (most recent call last):\n{frames}{text}"


def require_hashable(value: Any) -> None:
    """JAX's ValueError for a static argument that does not hash (a list, an array, a tracer), for functions
    that take one the way a jitted function does."""
    _StaticArgument(value)


def check_static_hashable(value: Any) -> None:
    """JAX's ValueError for a static argument that cannot be hashed (a list), as a jitted call raises it."""
    _StaticArgument(value)


class _StaticArgument:
    """A static argument in a cache key: hashed once, and compared with JAX's error when its ``__eq__`` raises.

    Values of different types never match (as in JAX's cache): ``f(x, n=2)`` and ``f(x, n=2.0)`` trace apart."""

    __slots__ = ("value", "_hash")

    def __init__(self, value: Any):
        try:
            self._hash = hash(value)
        except TypeError as err:
            raise ValueError(
                "Non-hashable static arguments are not supported. An error occurred while trying to hash an object "
                f"of type {type(value)}, {value}. The error was:\n{_hash_error_text(err)}") from None
        self.value = value

    def __hash__(self) -> int:
        return self._hash

    def __eq__(self, other: Any) -> bool:
        if not isinstance(other, _StaticArgument):
            return NotImplemented
        if type(self.value) is not type(other.value):
            return False
        try:
            return bool(self.value == other.value)
        except Exception:
            raise ValueError(
                "static arguments should be comparable using __eq__.The following error was raised when comparing "
                f"two objects of types {type(self.value)} and {type(other.value)}. The error was:\n"
                f"{traceback.format_exc()}") from None


@dataclass(frozen=True)
class ArgInfo:
    """What a stage knows of one argument (``jax.stages.ArgInfo``): its abstract value and whether it is
    donated."""

    _aval: Any
    donated: bool

    shape = property(lambda self: self._aval.shape)
    dtype = property(lambda self: self._aval.dtype)


class Traced:
    """The result of ``jit(f).trace(...)``: the jaxpr and what is needed to lower it."""

    def __init__(self, wrapped: JitWrapped, jaxpr: ClosedJaxpr, in_tree: Any, out_tree: Any,
                 donated: tuple[bool, ...], shardings: dict | None = None, arg_layouts: Sequence[Any] = (),
                 donate_argnums: tuple[int, ...] | None = None, reported_donation: Sequence[bool] | None = None,
                 arg_placements: Sequence[Any] = ()):
        self._wrapped = wrapped
        # which flat arguments args_info says are donated: those donated, unless a wrapper reports its own (pmap)
        self._reported_donation = tuple(donated) if reported_donation is None else tuple(reported_donation)
        # the donated positions a wrapper reports (pmap: its own), else the donated flat arguments'
        self.donate_argnums = donate_argnums if donate_argnums is not None else tuple(
            i for i, d in enumerate(donated) if d)
        # the arguments' own layouts (``_own_layout``) and the shardings of those committed to one device (else None),
        # as far as they place the program: the arguments it prunes place nothing (``unused_inputs``)
        placing = any(s is not None for s in (*arg_layouts, *arg_placements))
        unused = unused_inputs(jaxpr, getattr(wrapped, "keep_unused", True)) if placing else frozenset()
        self._arg_layouts = [None if i in unused else s for i, s in enumerate(arg_layouts)]
        self._arg_placements = [None if i in unused else s for i, s in enumerate(arg_placements)]
        self.jaxpr = jaxpr
        self.in_tree = in_tree  # of (args, kwargs) without the static arguments
        self.out_tree = out_tree
        self._donated = donated
        self._shardings = shardings or {}  # the in/out shardings jit was given, for the backend's compile

    @property
    def out_info(self) -> Any:
        """A ShapeDtypeStruct per result, with its sharding: the out_sharding given, else its type's layout over
        Explicit axes (over their abstract mesh: ``eval_shape`` tells it so)."""
        return self.placed_out_info(concrete=False)

    def placed_out_info(self, concrete: bool = True) -> Any:
        """``out_info`` as the lowered stage tells it: a type's layout over Explicit axes is over the concrete mesh
        of an argument laid out over it (``concrete``)."""
        avals = self.jaxpr.out_avals
        given = list(self._shardings.get("out_shardings") or ()) + [None] * len(avals)
        meshes = {s.mesh.abstract_mesh: s.mesh for s in self._arg_layouts if isinstance(s, NamedSharding)} \
            if concrete else {}
        structs = []
        for aval, sharding in zip(avals, given):
            typed = aval.explicit_sharding
            if sharding is None and typed is not None and typed.mesh in meshes:
                sharding = NamedSharding(meshes[typed.mesh], typed.spec)
            structs.append(ShapeDtypeStruct(aval.shape, aval.dtype, weak_type=aval.weak_type,
                                            sharding=sharding if sharding is not None else typed))
        return tree.tree_unflatten(self.out_tree, structs)

    @property
    def args_info(self) -> Any:
        """``(args, kwargs)`` with an ``ArgInfo`` for each array argument (static ones left out)."""
        infos = [ArgInfo(aval, donated) for aval, donated in zip(self.jaxpr.in_avals, self._reported_donation)]
        return tree.tree_unflatten(self.in_tree, infos)

    @property
    def in_avals(self) -> Any:
        """``(args, kwargs)`` with the abstract value of each array argument."""
        return tree.tree_unflatten(self.in_tree, list(self.jaxpr.in_avals))

    def lower(self) -> Lowered:
        return Lowered(self)

    def seen_through(self, in_tree: Any, arg_layouts: Sequence[Any], out_shardings: tuple,
                     reported_donation: Sequence[bool]) -> Traced:
        """This stage as a wrapper that flattens its own arguments into this one's presents it: the wrapper's
        argument structure, the layouts it gives its arguments and results, and which of its flat arguments it
        reports donated (``pmap(f).lower``: its ``donate_argnums`` are the positions of those)."""
        donate_argnums = tuple(i for i, donated in enumerate(reported_donation) if donated)
        return Traced(self._wrapped, self.jaxpr, in_tree, self.out_tree, self._donated,
                      {**self._shardings, "out_shardings": out_shardings}, arg_layouts, donate_argnums,
                      reported_donation)


class _StageInfo:
    """What the lowered and compiled stages tell of the traced one: structures, abstract values, donation."""

    _traced: Traced
    args_info = property(lambda self: self._traced.args_info)
    in_tree = property(lambda self: self._traced.in_tree)
    out_tree = property(lambda self: self._traced.out_tree)
    in_avals = property(lambda self: self._traced.in_avals)
    out_info = property(lambda self: self._traced.placed_out_info())
    donate_argnums = property(lambda self: self._traced.donate_argnums)


class Lowered(_StageInfo):
    """A jitted function lowered for the current backend."""

    def __init__(self, traced: Traced):
        self._traced = traced
        self._backend, self._device = traced._wrapped._backend_and_device()
        # JAX refuses what it cannot lower when it lowers (a committed argument its in_sharding does not take;
        # under set_mesh, an argument committed to one device)
        shardings = _annotations(traced, 0, placements=True)
        self._backend.check_lowering(traced.jaxpr, traced._wrapped.__name__, shardings.get("in_shardings", ()),
                                     shardings.get("out_shardings", ()), pinned=self._device is not None,
                                     arg_shardings=_arg_shardings(traced),
                                     given=traced._shardings.get("in_shardings") or ())
        # Lowered now, as JAX lowers: its warnings (donations no result can reuse) come from ``lower``.
        self._text = self._lower_text(None, False)

    def as_text(self, dialect: str | None = None, *, debug_info: bool = False) -> str:
        """The backend's program (StableHLO for XLA; 'hlo': XLA's HLO), with donation and unused-argument pruning
        applied; ``debug_info`` adds locations (the arguments' names)."""
        if dialect in (None, "stablehlo") and not debug_info:
            return self._text
        return self._lower_text(dialect, debug_info)

    def _lower_text(self, dialect: str | None, debug_info: bool) -> str:
        traced = self._traced
        jaxpr, aliases, names = traced.jaxpr, (), result_names(traced)
        refs = _uses_refs(jaxpr)
        if refs:
            from jaxle_core import discharge  # local: discharge imports this module

            # as JAX's lowering, what no result needs is pruned before the references are discharged (what their
            # discharge computes and leaves unused stays)
            jaxpr = ClosedJaxpr(dce_jaxpr(jaxpr.jaxpr, instantiate=True)[0], jaxpr.consts)
            if not traced._wrapped.keep_unused:
                jaxpr = discharge.untouched_references_as_arrays(jaxpr)
            discharged, ref_consts = discharge.discharged_program(jaxpr)
            # as JAX's, each reference's array is aliased to the result holding its final value (after the results)
            finals = itertools.count(len(traced.jaxpr.out_avals))
            aliases = [next(finals) if ref else None for ref in discharge.reference_inputs(jaxpr, ref_consts)]
            jaxpr = discharged
            if ref_consts or any(a is not None for a in aliases):
                names = [""] * len(jaxpr.out_avals)  # JAX names no result of a program taking references
        extra = len(jaxpr.in_avals) - len(traced.jaxpr.in_avals)
        # as JAX's text, it annotates the arguments committed to one device, and with jit's device= or backend=
        # every argument and result
        annotations = _annotations(traced, extra, placements=True)
        if extra:
            annotations["layouts"] = _closed_reference_layouts(jaxpr, extra, annotations.get("layouts"))
        return self._backend.lower_text(jaxpr, traced._wrapped.__name__, traced._donated,
                                        traced._wrapped.keep_unused, **annotations, dialect=dialect,
                                        debug_info=debug_info, result_names=names, pinned=self._device is not None,
                                        aliases=aliases, equations_pruned=refs)

    def compiler_ir(self, dialect: str | None = None) -> Any:
        """The program as the backend's IR object: on XLA an MLIR module (``dialect`` None or 'stablehlo') or
        XLA's HLO computation ('hlo', printed by its ``as_hlo_text()``)."""
        return self._backend.compiler_ir(self.as_text(), dialect)

    def cost_analysis(self) -> Any:
        """The backend's cost estimates of the program before optimisation (None where it has none)."""
        return self._backend.cost_analysis(self.as_text())

    def compile(self, compiler_options: dict[str, Any] | None = None) -> Compiled:
        """The program compiled, with ``compiler_options`` overriding jit's (and the compiler's) by name."""
        traced = self._traced
        # arguments' own layouts (over a mesh, in a host memory) and devices fix the compilation's, as the lowered
        # text says
        shardings = _annotations(traced, 0, placements=True) or traced._shardings
        options = {**getattr(traced._wrapped, "compiler_options", {}), **(compiler_options or {})}
        executable = compile_jaxpr(self._backend, traced.jaxpr, traced._wrapped.__name__, traced._donated,
                                   traced._wrapped.keep_unused, self._device, options, **shardings)
        if options and hasattr(executable, "runtime_executable"):
            executable.runtime_executable()  # compiled now, as JAX compiles it: options XLA refuses fail here
        return Compiled(executable, traced)


def _own_layout(x: Any) -> Any:
    """The sharding of an argument (an array, or a ShapeDtypeStruct given one) that a program taking it is
    annotated with: a NamedSharding, or the sharding of a device's memory other than its default one; else None."""
    if isinstance(x, core.Tracer):
        return None
    sharding = getattr(x, "sharding", None)
    if isinstance(sharding, NamedSharding) or getattr(sharding, "memory_kind", None) not in (None, "device"):
        return sharding
    # another layout over several devices (a GSPMDSharding), which the backend reads as it places arrays
    return sharding if isinstance(sharding, Sharding) and sharding.num_devices > 1 else None


def _own_memory_layout(x: Any) -> Layout | None:
    """The memory layout of an argument other than the default row-major one: a ShapeDtypeStruct's ``Format``'s,
    or the layout an array was put in, else None."""
    if isinstance(x, core.Tracer):
        return None
    layout = getattr(getattr(x, "format", None), "layout", None)
    return layout if isinstance(layout, Layout) and not is_row_major(layout, len(x.shape)) else None


def _with_own_memory_layouts(shardings: dict, flat: Sequence[Any]) -> dict:
    """``shardings`` (a cache entry's keywords for the backend) asking, as JAX's lowering does, for the memory
    layout each argument without one asked for has of its own."""
    own = [_own_memory_layout(x) for x in flat]
    if all(layout is None for layout in own):
        return shardings
    given_in, given_out = shardings.get("layouts") or ((None,) * len(flat), ())
    return {"in_shardings": (None,) * len(flat), "out_shardings": (), **shardings,
            "layouts": (tuple(g if g is not None else o for g, o in zip(given_in, own)), given_out)}


def _placement(x: Any) -> Any:
    """The sharding of an argument committed to one device (an array put there, keys whose data is, or a
    ShapeDtypeStruct given it), else None."""
    sharding = getattr(x, "sharding", None)
    if (isinstance(x, core.Tracer) or not isinstance(sharding, Sharding) or isinstance(sharding, NamedSharding)
            or not getattr(physical_value(x), "committed", True) or len(sharding.device_set) != 1):
        return None
    return sharding


def _arg_shardings(traced: Traced) -> list[Any]:
    """The sharding each argument of ``traced`` lies on (its own layout, or the device it is committed to), else
    None."""
    n = len(traced.jaxpr.in_avals)
    layouts = traced._arg_layouts or [None] * n
    placements = traced._arg_placements or [None] * n
    return [layout if layout is not None else placement for layout, placement in zip(layouts, placements)]


def _annotations(traced: Traced, extra: int, placements: bool = False) -> dict:
    """The shardings annotating a lowered program's arguments (the in_shardings given, else the arguments' own
    layouts, else with ``placements`` the devices arguments are committed to), its ``extra`` last inputs (none: the
    references it closes over) and its results (the out_shardings)."""
    given = traced._shardings.get("in_shardings") or [None] * len(traced.jaxpr.in_avals)
    layouts = traced._arg_layouts or [None] * len(given)
    inputs = [g if g is not None else layout for g, layout in zip(given, layouts)]
    if placements and traced._arg_placements:
        inputs = [i if i is not None else p for i, p in zip(inputs, traced._arg_placements)]
    if not any(s is not None for s in inputs) and not traced._shardings:
        return {}
    layouts = traced._shardings.get("layouts")
    return {"in_shardings": tuple(inputs) + (None,) * extra,
            "out_shardings": tuple(traced._shardings.get("out_shardings") or ()),
            **({"layouts": (layouts[0] + (None,) * extra, layouts[1])} if layouts else {})}


def _closed_reference_layouts(discharged: ClosedJaxpr, extra: int, given: tuple | None) -> tuple:
    """The memory layouts a program with its references discharged asks for (``given``, None where none was): as
    JAX's, the arrays of the ``extra`` references it closes over (its last inputs, and its last results) row-major."""
    n_in, n_out = len(discharged.in_avals), len(discharged.out_avals)
    ins, outs = given or ((None,) * n_in, (None,) * (n_out - extra))
    ins, outs = list(ins) + [None] * (n_in - len(ins)), list(outs) + [None] * (n_out - len(outs))
    for avals, side in ((discharged.in_avals, ins), (discharged.out_avals, outs)):
        for i in range(len(side) - extra, len(side)):
            side[i] = Layout(tuple(range(avals[i].ndim)))
    return tuple(ins), tuple(outs)


def result_names(traced: Traced) -> list[str]:
    """What JAX's lowered text names each result (its ``jax.result_info``): ``result`` and the result's path in the
    output pytree (``result[0]['a']``)."""
    leaves = tree.tree_unflatten(traced.out_tree, range(len(traced.jaxpr.out_avals)))
    return [f"result{tree.keystr(path)}" for path, _ in tree.tree_leaves_with_path(leaves)]


def _uses_refs(closed: ClosedJaxpr) -> bool:
    from jaxle_core.discharge import jaxpr_uses_refs  # local: discharge imports this module

    return jaxpr_uses_refs(closed.jaxpr)


def unused_inputs(closed: ClosedJaxpr, keep_unused: bool) -> frozenset[int]:
    """The positions of the arguments a program compiled from ``closed`` prunes (none with ``keep_unused``, nor
    where it takes mutable references), which JAX prunes before placing the program: where they lie places
    nothing."""
    if keep_unused or _uses_refs(closed):
        return frozenset()
    _, used = dce_jaxpr(closed.jaxpr)
    return frozenset(i for i, u in enumerate(used) if not u)


def without_unused(args: Sequence[Any], unused: frozenset[int]) -> Sequence[Any]:
    """``args`` with each ``unused`` one that lies on devices replaced by a host value of its type, which the
    program never reads (so neither its devices nor its layout place it); keys and float0 values stay."""
    if not unused:
        return args
    args = list(args)
    for i in unused:
        if getattr(args[i], "committed", False):
            aval = get_aval(args[i])
            if not dtypes.is_extended(aval.dtype) and aval.dtype != dtypes.float0:
                args[i] = np.broadcast_to(np.zeros((), aval.dtype), aval.shape)
    return args


def compile_jaxpr(backend: Any, closed: ClosedJaxpr, name: str, donated: Sequence[bool], keep_unused: bool,
                  device: Any, compiler_options: dict[str, Any] | None = None,
                  **shardings: Any) -> Callable[..., list[Any]]:
    """``backend``'s executable of ``closed`` (compiled with ``compiler_options`` overriding the compiler's own,
    when any are given); a program using mutable references is discharged first, and its executable reads and
    writes the references it is given (``discharge.compile_with_refs``)."""
    compile = functools.partial(backend.compile, compiler_options=compiler_options) if compiler_options else \
        backend.compile
    if _uses_refs(closed):
        from jaxle_core.discharge import compile_with_refs  # local: discharge imports this module

        return compile_with_refs(compile, closed, name, donated, keep_unused, device)
    return compile(closed, name, donated, keep_unused, device, **shardings)


class Compiled(_StageInfo):
    """A compiled jitted function, callable on arguments of the signature it was lowered for."""

    def __init__(self, executable: Callable[..., list[Any]], traced: Traced):
        self._executable = executable
        self._traced = traced
        self._input_formats: list[Format] | None = None  # read once its arguments' layouts are checked
        self._unused = unused_inputs(traced.jaxpr, getattr(traced._wrapped, "keep_unused", True))

    def as_text(self) -> str:
        """The compiled program's text (XLA's optimised HLO)."""
        text = getattr(self._executable, "as_text", None)
        return text() if text else str(self._traced.jaxpr)

    def _executable_method(self, name: str, asked: str | None = None) -> Callable:
        """The compiled executable's method ``name`` (for ``Compiled.<asked>``); the reference backend's programs
        (plain functions) have none."""
        method = getattr(self._executable, name, None)
        if method is None:
            raise RuntimeError(f"Compiled.{asked or name} needs a program compiled by XLA (jaxlib); this one runs on "
                               "the NumPy reference backend")
        return method

    def cost_analysis(self) -> Any:
        return self._executable_method("cost_analysis")()

    def memory_analysis(self) -> Any:
        return self._executable_method("memory_analysis")()

    @property
    def input_shardings(self) -> tuple[tuple, dict]:
        """The shardings the compiled program takes its ``(args, kwargs)`` in (static arguments left out; None for
        an argument it prunes)."""
        return self._traced.in_tree.unflatten(self._executable_method("shardings", "input_shardings")()[0])

    def runtime_executable(self) -> Any:
        """The backend's executable object (on XLA, jaxlib's ``LoadedExecutable``)."""
        return self._executable_method("runtime_executable")()

    @property
    def output_shardings(self) -> Any:
        """The shardings of the compiled program's results, in the results' pytree structure."""
        return self._traced.out_tree.unflatten(self._executable_method("shardings", "output_shardings")()[1])

    def _formats(self) -> tuple[list[Format], list[Format]]:
        """The arguments' and results' Formats: the compiled layout and sharding of each (an argument the program
        prunes has neither)."""
        shardings = self._executable_method("shardings", "input_formats")()
        layouts = self._executable_method("layouts", "input_formats")()
        return tuple([Format(None, None) if sharding is None else Format(Layout.from_pjrt_layout(layout), sharding)
                      for sharding, layout in zip(these_shardings, these_layouts)]
                     for these_shardings, these_layouts in zip(shardings, layouts))

    @property
    def input_formats(self) -> tuple[tuple, dict]:
        """The layouts and shardings the compiled program takes its ``(args, kwargs)`` in (``Format``s; static
        arguments left out)."""
        return self._traced.in_tree.unflatten(self._formats()[0])

    @property
    def output_formats(self) -> Any:
        """The layouts and shardings of the compiled program's results, in the results' pytree structure."""
        return self._traced.out_tree.unflatten(self._formats()[1])

    def __call__(self, *args, **kwargs):
        """Runs on ``args``/``kwargs`` of the lowered signature, static arguments left out (JAX's convention)."""
        traced = self._traced
        flat, in_tree = tree.tree_flatten((args, kwargs))
        if in_tree != traced.in_tree:
            raise _structure_mismatch(traced.in_tree, (args, kwargs))
        names = traced.jaxpr.jaxpr.debug_info.arg_names
        avals = argument_avals(traced._wrapped.fun, flat, lambda: names)
        # the types without their layouts over a mesh: those are the shardings', checked below
        mismatches = [f"Argument '{name}' compiled with {want.str_short()} and called with {got.str_short()}"
                      for name, want, got in zip(names, traced.jaxpr.in_avals, avals)
                      if _unlaid(got) != _unlaid(want)]
        if mismatches:
            raise TypeError("Argument types differ from the types for which this computation was compiled. Perhaps "
                            "you are calling the compiled executable with a different enable_x64 mode than when it "
                            "was AOT compiled? The mismatches are:\n" + "\n".join(mismatches))
        flat = without_unused(flat, self._unused)
        self._check_shardings(flat, names)
        if layouts_module.custom_layouts_in_use:
            self._check_layouts(flat, names)
        return traced.out_tree.unflatten(self._executable(*flat))

    def _check_layouts(self, flat: Sequence[Any], names: Sequence[str]) -> None:
        """JAX's error for committed arguments in other memory layouts than the program reads (others are
        converted)."""
        if self._input_formats is None:
            self._input_formats = self._formats()[0]
        mismatches = []
        for x, name, aval, required in zip(flat, names, self._traced.jaxpr.in_avals, self._input_formats):
            if not getattr(x, "committed", False) or required.layout is None:
                continue
            passed = x.format.layout
            if passed != required.layout:
                mismatches.append(f"Argument {name} with shape {_unlaid(aval).str_short()}:\n  Passed layout: "
                                  f"{passed}\n  Required layout: {required.layout}")
        if mismatches:
            raise ValueError("Computation was compiled for input layouts that disagree with the layouts of arguments "
                             f"passed to it. Here are the {len(mismatches)} mismatches:\n" + "\n".join(mismatches))

    def _check_shardings(self, flat: Sequence[Any], names: Sequence[str]) -> None:
        """JAX's error for committed arguments laid out otherwise than the program takes them."""
        shardings = getattr(self._executable, "shardings", None)
        if shardings is None:
            return
        mismatches = []
        for x, name, aval, required in zip(flat, names, self._traced.jaxpr.in_avals, shardings()[0]):
            passed = getattr(x, "sharding", None) if getattr(x, "committed", False) else None
            if passed is None or required is None or _same_placement(passed, required, aval.shape):
                continue
            mismatches.append(f"Argument {name} with shape {_unlaid(aval).str_short()}:\n  Passed sharding: {passed}\n"
                              f"  Required sharding: {required}")
        if mismatches:
            raise ValueError("Computation was compiled for input shardings that disagree with the shardings of "
                             f"arguments passed to it. Here are the {len(mismatches)} mismatches:\n"
                             + "\n".join(mismatches))


def _unlaid(aval: Any) -> Any:
    """``aval`` without its weak type and its layout over a mesh."""
    aval = aval.strip_weak_type()
    return aval.update(sharding=None, auto_mesh=None) if isinstance(aval, ShapedArray) else aval


def _same_placement(passed: Any, required: Any, shape: tuple) -> bool:
    """Whether two shardings put the same parts of an array of ``shape`` on the same devices, in one memory."""
    return (getattr(passed, "memory_kind", None) == getattr(required, "memory_kind", None)
            and passed.devices_indices_map(shape) == required.devices_indices_map(shape))


def _structure_mismatch(compiled_tree: Any, given: tuple[tuple, dict]) -> TypeError:
    """JAX's error for a compiled function called with arguments of another pytree structure."""
    seen = tree.tree_unflatten(compiled_tree, [object()] * compiled_tree.num_leaves)
    lines = [f"    * at {name}{tree.keystr(path)}, {reason}"
             for name, seen_part, given_part in zip(("args", "kwargs"), seen, given)
             for path, reason in equality_errors(seen_part, given_part)]
    return TypeError("Function compiled with input pytree does not match the input pytree it was called with. "
                     f"There are {len(lines)} mismatches, including:\n" + "\n".join(lines))


# the traces of each function jitted (its signatures' jaxprs and output structures), shared by its jits: by the
# function's id, while it lives (a callable's own equality and hash are not asked)
_shared_traces: dict[int, tuple[weakref.ref, LruCache]] = {}


def _traces_of(fun: Callable) -> LruCache | None:
    """The traces every jit of ``fun`` shares; None for a callable that cannot be referred to weakly (each jit of
    it traces on its own)."""
    key = id(fun)
    known = _shared_traces.get(key)
    if known is not None and known[0]() is fun:
        return known[1]
    try:
        ref = weakref.ref(fun, lambda _: _shared_traces.pop(key, None))
    except TypeError:
        return None
    traces = LruCache()
    _shared_traces[key] = (ref, traces)
    return traces


class JitWrapped:
    """A function staged out and compiled by ``jit``."""

    api_name = "jit"  # the function that made it, as errors name it
    traced_name: str | None = None  # the name its jaxprs and errors give the function, where not its own

    def __init__(self, fun: Callable, static_argnums=(), static_argnames=(), donate_argnums=(),
                 donate_argnames=(), keep_unused: bool = False, inline: bool = False, device=None, backend=None,
                 in_shardings=None, out_shardings=None, *, compiler_options: dict[str, Any] | None = None):
        functools.update_wrapper(self, fun)  # copies fun.__dict__, so set our own attributes after it
        self.fun = fun
        named = fun
        while isinstance(named, functools.partial):  # JAX names a partial application by its function
            named = named.func
        self.__name__ = getattr(named, "__name__", "<unnamed function>")  # as JAX names a callable object
        self._signature = _signature_or_none(fun)
        static_argnums, donate_argnums = _index_tuple(static_argnums), _index_tuple(donate_argnums)
        if self._signature is not None:
            for kind, argnums in (("static_argnums", static_argnums), ("donate_argnums", donate_argnums)):
                _check_argnums(kind, _as_tuple(argnums), self._signature)
            for kind, argnames in (("static_argnames", static_argnames), ("donate_argnames", donate_argnames)):
                _check_argnames(kind, _as_tuple(argnames), self._signature)
        self.static_argnums = _resolve_argnums(static_argnums, static_argnames, self._signature)
        self.static_argnames = _resolve_argnames(static_argnames, static_argnums, self._signature)
        self.donate_argnums = _resolve_argnums(donate_argnums, donate_argnames, self._signature)
        self.donate_argnames = _resolve_argnames(donate_argnames, donate_argnums, self._signature)
        both = set(self.static_argnames) & set(self.donate_argnames)
        if both:
            raise ValueError(f"static_argnames and donate_argnames cannot intersect. Argument names {both} appear in "
                             "both static_argnames and donate_argnames")
        self.keep_unused = keep_unused
        self.inline = inline
        self.device = device
        self.backend = backend
        self.in_shardings = in_shardings
        self.out_shardings = out_shardings
        # the compiler's options overridden for its programs, by name (XLA's ``xla_*`` flags), values as given
        self.compiler_options = dict(compiler_options or {})
        self._has_static = bool(self.static_argnums or self.static_argnames)
        self._static_names = frozenset(self.static_argnames)
        # Positional arguments before this index are never static (none are when a static index is negative).
        self._first_static = -1 if any(i < 0 for i in self.static_argnums) else min(self.static_argnums,
                                                                                     default=sys.maxsize)
        self._traces = LruCache()
        # Calls whose positional arguments are all arrays and whose keywords are all static are looked up by
        # (avals, static keywords, trace context) alone, skipping flattening.
        self._array_calls = LruCache()
        # The same entries of calls with only Array arguments, by the identities of their avals (see
        # _remember_arrays).
        self._known_arrays = LruCache()
        self.trace_count = 0
        self._seen_keys: collections.deque = collections.deque(maxlen=16)  # recent cache misses, for explaining

    def _split_static(self, args: tuple, kwargs: dict) -> tuple[tuple, tuple]:
        if not self.static_argnums and not self.static_argnames:  # the common case, on every call
            return (args, kwargs), ((), ())
        n = len(args)
        for i in self.static_argnums:
            if i < -n:
                raise ValueError("Positional argument indices, e.g. for `static_argnums`, must have value greater "
                                 "than or equal to -len(args) and less than len(args), but got value "
                                 f"{i} for len(args) == {n}.")
        # As JAX: a static position the call does not reach is not static (the function reports a missing one).
        static_nums = [i % n for i in self.static_argnums if i < n]
        dynamic = tuple(a for i, a in enumerate(args) if i not in static_nums)
        dynamic_kwargs = {k: v for k, v in kwargs.items() if k not in self.static_argnames}
        static = (tuple((i, _StaticArgument(args[i])) for i in sorted(static_nums)),
                  tuple((k, _StaticArgument(kwargs[k])) for k in sorted(kwargs) if k in self.static_argnames))
        return (dynamic, dynamic_kwargs), static

    def _arg_names(self, args: tuple, kwargs: dict, dynamic) -> list[str]:
        static_nums = {i if i >= 0 else i + len(args) for i in self.static_argnums}
        return flat_argument_names(self._signature, args, static_nums, dynamic[1])

    def _trace(self, args: tuple, kwargs: dict, abstractify: Callable[[Any], ShapedArray] = get_aval
               ) -> tuple[_CacheEntry, list]:
        """The cache entry for this call's signature (tracing on a miss) and the flat dynamic arguments."""
        fast_key = self._array_call_key(args, kwargs)
        if fast_key is not None:
            entry = self._array_call(fast_key)
            if entry is None:
                entry, flat = self._trace_general(args, kwargs)
                if entry.cacheable:
                    self._array_calls[fast_key] = entry
            return entry, args
        return self._trace_general(args, kwargs, abstractify)

    def _array_call_key(self, args: tuple, kwargs: dict) -> tuple | None:
        """The key of a call in ``_array_calls``, or None when it is not such a call (a pytree or non-array
        argument, a dynamic keyword or positional static argument, a static value that does not hash)."""
        if len(args) > self._first_static or (kwargs and not self._static_names.issuperset(kwargs)):
            return None
        if any(type(x) is int and not python_int_fits(x) for x in args):  # the general path raises JAX's error
            return None
        try:
            key = (tuple([aval_handlers[type(x)](x) for x in args]),
                   tuple(sorted((k, type(v), v) for k, v in kwargs.items())) if kwargs else (), _tracing_context())
            hash(key)
        except Exception:  # the general path reports what is wrong, with JAX's errors
            return None
        return key

    def _remember_arrays(self, args: tuple, ids: tuple, entry: _CacheEntry) -> None:
        """Find ``entry`` by ``ids`` from now on: the identities of ``args``' aval objects (the types of Python
        floats, bools and complexes, whose avals only the trace context decides) and of the trace context object.
        That key hashes in C, where equal avals hash through Python. The stored value keeps those objects alive,
        so their ids stay theirs."""
        avals = tuple([x.aval if isinstance(x, Array) else None for x in args])
        if all(aval is None or aval is aval_handlers[type(x)](x) for x, aval in zip(args, avals)):
            context = trace_context()
            self._known_arrays[(ids, id(context))] = ((avals, context), entry)

    def _array_call(self, key: tuple) -> _CacheEntry | None:
        try:
            return self._array_calls.lookup(key)
        except Exception:  # a static value's __eq__ raised: the general path gives JAX's error
            return None

    def _trace_general(self, args: tuple, kwargs: dict, abstractify: Callable[[Any], ShapedArray] = get_aval
                       ) -> tuple[_CacheEntry, list]:
        if (self.device is not None or self.backend is not None) and not get_mesh().empty:
            raise ValueError("Mesh context manager should not be used with jit when backend or device is also "
                             "specified as an argument to jit.")
        dynamic, static = self._split_static(args, kwargs)
        flat, in_tree = tree.tree_flatten(dynamic)
        avals = argument_avals(self.fun, flat, lambda: self._arg_names(args, kwargs, dynamic), abstractify)
        if core.within_trace_of(StagingTrace):  # staged into a program: typed as JAX types its arguments there
            avals = context_typed(avals, flat)
        key = (in_tree, avals, static, _tracing_context())
        entry = self._traces.lookup(key)
        if entry is None:
            if explain_cache_misses.value:
                cache_misses.explain(self.fun, self._seen_keys, key, self._arg_names(args, kwargs, dynamic))
            self._seen_keys.append(key)
            entry = _CacheEntry(in_tree, *self._shared_trace(args, kwargs, dynamic, in_tree, avals, key))
            if self.in_shardings is not None or self.out_shardings is not None:
                given = (self.in_shardings, self.out_shardings, tuple(dynamic[0]), len(tree.tree_leaves(dynamic[1])),
                         avals, entry.out_tree.unflatten(entry.jaxpr.out_avals), entry.jaxpr.out_avals)
                entry.in_shardings, entry.out_shardings = flat_jit_shardings(*given, entry.jaxpr.jaxpr.debug_info,
                                                                             api=self.api_name)
                entry.layouts = flat_jit_layouts(*given, entry.jaxpr.jaxpr.debug_info)
            if entry.cacheable:
                self._traces[key] = entry
        return entry, flat

    def _shared_trace(self, args, kwargs, dynamic, in_tree, avals, key):
        """``_trace_uncached``, through the traces every jit of this function shares, as JAX's: another jit of it
        does not trace a signature one traced again (its jaxpr, the locations of its equations included, is that
        one's); the donations are its own."""
        traces = _traces_of(self.fun)
        shared_key = (type(self), self.traced_name, self.static_argnums, self.static_argnames, key)
        traced = None if traces is None else traces.lookup(shared_key)
        if traced is None:
            traced = self._trace_uncached(args, kwargs, dynamic, in_tree, avals)
            if traces is not None and not any(isinstance(c, Tracer) for c in traced[0].consts):
                traces[shared_key] = traced
        static_nums = {i if i >= 0 else i + len(args) for i in self.static_argnums}
        return (*traced, _donated_leaves(self.donate_argnums, self.donate_argnames, args, dynamic[1], static_nums))

    def _trace_uncached(self, args, kwargs, dynamic, in_tree, avals):
        if no_tracing.value:
            raise RuntimeError(f"re-tracing function {_source_info(self.fun)} for `jit`, but 'no_tracing' is set")
        self.trace_count += 1
        started = time.perf_counter()
        static_nums = {i if i >= 0 else i + len(args) for i in self.static_argnums}
        debug = DebugInfo("jit", self.fun, self._arg_names(args, kwargs, dynamic))
        if self.traced_name is not None:
            debug.func_name = debug.qualified_name = self.traced_name

        def with_static_args(positional, keywords):
            it = iter(positional)
            full_args = [args[i] if i in static_nums else next(it) for i in range(len(args))]
            full_kwargs = {**keywords, **{k: v for k, v in kwargs.items() if k in self.static_argnames}}
            return self.fun(*full_args, **full_kwargs)

        flat_fun, out_tree = flatten_fun(with_static_args, in_tree, debug)
        closed = trace_warnings.run_in(self.warning_scope(args, kwargs), trace_to_jaxpr, flat_fun, avals, debug)
        if enable_checks.value:  # jax_enable_checks: type-check what was traced (JaxprTypeError)
            check_jaxpr(closed)
        if execution_checks.armed:  # jax_debug_key_reuse: JAX's KeyReuseError for a key the function uses twice
            execution_checks.check_traced_jaxpr(closed.jaxpr)
        if log_compiles.value:
            _logger.warning("Finished tracing %s for jit in %.9f sec", debug.func_name, time.perf_counter() - started)
        monitoring.record_compile_step("/jax/core/compile/jaxpr_trace_duration", started, debug.func_name)
        return closed, out_tree()

    def warning_scope(self, args: tuple, kwargs: dict) -> trace_warnings.Scope | None:
        """The scope of warnings given while tracing a call (see trace_warnings): a neutral one, as this cache
        traces each signature once."""
        return None

    def __call__(self, *args, **kwargs):
        if _disable_jit_flag.value:
            return self.fun(*args, **kwargs)
        return self.call_entry(args, kwargs)[0]

    def call_entry(self, args: tuple, kwargs: dict) -> tuple[Any, _CacheEntry | None]:
        """A call on core's own path: its result, and the cache entry whose executable ran it (None when it was
        staged into an outer trace or run unjitted)."""
        if type(core._context.trace) is core.EvalTrace:
            # The hot path: array arguments (static ones by keyword) whose signature was compiled before.
            ids = None if kwargs else tuple([id(x.aval) if isinstance(x, Array) else _SCALAR_KEYS.get(type(x))
                                             for x in args])
            entry = None
            if ids is not None and None not in ids:
                known = self._known_arrays.lookup((ids, id(trace_context())))
                entry = None if known is None else known[1]
            if entry is None:
                key = self._array_call_key(args, kwargs)
                entry = None if key is None else self._array_call(key)
                if entry is not None and ids is not None and None not in ids and entry.executable is not None:
                    self._remember_arrays(args, ids, entry)
            if entry is not None and entry.executable is not None:
                args = without_unused(args, entry.unused)
                if execution_checks.armed:
                    outs = execution_checks.call_jit_checked(self.__name__, entry.jaxpr, entry.executable, args)
                else:
                    outs = entry.executable(*args)
                return outs[0] if entry.single_output else entry.out_tree.unflatten(outs), entry
        # As JAX's, an abstract argument (anything with shape and dtype) is traced, then refused as a value.
        entry, flat = self._trace(args, kwargs, abstract_argument_aval)
        if type(core.current_trace()) is core.EvalTrace and any(isinstance(x, core.Tracer) for x in flat):
            # ensure_compile_time_eval inside a transformation: the tracers' own traces interpret the equations
            closed = entry.jaxpr
            return entry.out_tree.unflatten(core.eval_jaxpr(closed.jaxpr, closed.consts, *flat)), None
        if type(core.current_trace()) is core.EvalTrace:
            for x in flat:
                if type(x) not in aval_handlers and not is_array_like(x):
                    raise not_a_jax_type(x, full_stop=True)
            executable = entry.executable
            if executable is None:
                backend, device = self._backend_and_device()
                executable = entry.executable = compile_jaxpr(backend, entry.jaxpr, self.__name__, entry.donated,
                                                              self.keep_unused, device, self.compiler_options,
                                                              **entry.shardings())
                entry.unused = unused_inputs(entry.jaxpr, self.keep_unused)
            flat = without_unused(flat, entry.unused)
            if execution_checks.armed:
                outs = execution_checks.call_jit_checked(self.__name__, entry.jaxpr, executable, flat)
            else:
                outs = executable(*flat)
            return outs[0] if entry.single_output else entry.out_tree.unflatten(outs), entry
        closed = entry.jaxpr
        if self.compiler_options and (core.within_trace_of(StagingTrace)
                                      or core.within_trace_having("linearizes_by_staging")):
            raise ValueError(f"`compiler_options` can only be passed to top-level `jax.jit`. Got compiler_options="
                             f"{self.compiler_options} specified on a nested jit with name: {self.__name__} and source "
                             f"info: {summarize(current_source())}")
        if self.inline and core.within_trace_of(StagingTrace):
            # inlined where it is staged, as JAX's; differentiated or batched eagerly it runs as one call
            return entry.out_tree.unflatten(core.eval_jaxpr(closed.jaxpr, closed.consts, *flat)), None
        converted, leading, trailing = jit_inputs(closed)
        params = jit_params(converted, self.__name__,
                            (False,) * len(leading) + entry.donated + (False,) * len(trailing), self.keep_unused,
                            self.inline)
        if entry.in_shardings or entry.out_shardings:
            params.update(in_shardings=(None,) * len(leading) + entry.in_shardings + (None,) * len(trailing),
                          out_shardings=entry.out_shardings)
        placed = self._device_sharding()
        if placed is not None:  # every argument and result on jit's device, as JAX's equation says
            params.update(in_shardings=(placed,) * len(params["in_shardings"]),
                          out_shardings=(placed,) * len(params["out_shardings"]))
        try:
            outs = jit_p.bind(*leading, *flat, *trailing, **params)
        except ValueError as error:  # a device mismatch is named by this call's arguments (tracers: none), as JAX's
            if not is_device_mismatch(error):
                raise
            debug = closed.jaxpr.debug_info
            raise named_by_call(error, flat, debug.arg_names or (), debug.qualified_name) from None
        return entry.out_tree.unflatten(outs), None

    def _backend_and_device(self) -> tuple[Any, Any]:
        """The core backend to compile with, and the device (or platform name) to ask it for.

        ``backend=`` may name a core backend ("reference", "xla") or a platform of the current
        backend ("cpu", "gpu"), which the backend resolves like a device.
        """
        if self.backend is not None and self.backend in backend_module.backends():
            return backend_module.get_backend(self.backend), self.device
        device = self.device if self.device is not None else self.backend
        return backend_module.current_backend(), device

    def _device_sharding(self) -> Any:
        """The sharding of the one device a jit given ``device=`` or ``backend=`` runs on (None otherwise, or on a
        backend without shardings)."""
        if self.device is None and self.backend is None:
            return None
        backend, device = self._backend_and_device()
        return None if device is None else backend.device_sharding(device)

    def trace(self, *args, **kwargs) -> Traced:
        """The traced stage; arguments may be abstract (anything with ``shape`` and ``dtype``)."""
        entry, flat = self._trace_general(args, kwargs, abstract_argument_aval)
        return Traced(self, entry.jaxpr, entry.in_tree, entry.out_tree, entry.donated,
                      _with_own_memory_layouts(entry.shardings(), flat), [_own_layout(x) for x in flat],
                      arg_placements=[_placement(x) for x in flat])

    def lower(self, *args, **kwargs) -> Lowered:
        return self.trace(*args, **kwargs).lower()

    def eval_shape(self, *args, **kwargs) -> Any:
        """The outputs' shapes, dtypes and shardings (``trace(...).out_info``), computing nothing."""
        return self.trace(*args, **kwargs).out_info

    def clear_cache(self) -> None:
        """Forget this function's traced jaxprs (those its other jits share too) and compiled executables."""
        traces = _traces_of(self.fun)
        if traces is not None:
            traces.clear()
        self._traces.clear()
        self._array_calls.clear()
        self._known_arrays.clear()

    def __get__(self, instance, owner=None):
        return self if instance is None else functools.partial(self, instance)

    @property
    def __signature__(self) -> inspect.Signature | None:
        """The wrapped function's signature, for ``inspect.signature`` (which does not look through ``__wrapped__``
        with ``follow_wrapped=False``)."""
        return self._signature


_ONE_LEAF = tree.tree_structure(0)

backend_jit: Callable[[JitWrapped], Callable | None] | None = None
"""Set by a backend that dispatches cached jitted calls itself (jaxle_xla: jaxlib's C++ ``PjitFunction``), None
otherwise. ``jit`` returns what it gives for a ``JitWrapped`` (a callable whose calls it cannot run go to
``JitWrapped.call_entry``, with the ``JitWrapped`` as its ``_jaxle_jit``), or the ``JitWrapped`` itself where it gives
None."""


def set_backend_jit(make: Callable[[JitWrapped], Callable | None] | None) -> None:
    """Install (or, with None, remove) a backend's jitted functions: see ``backend_jit``."""
    global backend_jit
    backend_jit = make


def backend_function(wrapped: JitWrapped) -> Callable:
    """What ``jit`` returns for ``wrapped``: the backend's callable where it gives one (see ``backend_jit``), else
    ``wrapped``."""
    made = None if backend_jit is None else backend_jit(wrapped)
    return wrapped if made is None else made


def jit_wrapped(function: Callable) -> JitWrapped:
    """The ``JitWrapped`` behind what ``jit`` returned."""
    return getattr(function, "_jaxle_jit", function)


def runs_cached_calls() -> bool:
    """Whether a jitted call in this thread may run a compiled executable of its signature as it is: no
    transformation running, no custom_vjp backward rule running (whose calls are traced apart), no execution check
    armed. A backend dispatching cached calls itself keys them by this (see ``core.dispatch_state_observer``)."""
    return (type(core._context.trace) is core.EvalTrace and not _backward_rule_scope.inside
            and not execution_checks.armed)


# Python scalars whose aval follows from their type and the trace context alone (ints also need a range check).
_SCALAR_KEYS = {float: float, bool: bool, complex: complex}

class _BackwardRuleScope(threading.local):
    """Whether a custom_vjp's backward rule or a transposition is running, per thread (as the trace state is). As
    in JAX, jitted functions it calls are traced apart from the same calls in the forward computation: the printed
    jaxpr shares inner jaxprs within the backward computation only."""

    inside = False


_backward_rule_scope = _BackwardRuleScope()


@contextlib.contextmanager
def backward_rule_scope() -> Iterator[None]:
    """Trace the jitted functions called inside apart from the same calls outside (see ``_backward_rule_scope``)."""
    outer = _backward_rule_scope.inside
    _backward_rule_scope.inside = True
    core.dispatch_state_changed()
    try:
        yield
    finally:
        _backward_rule_scope.inside = outer
        core.dispatch_state_changed()


def _tracing_context() -> tuple:
    """The trace context of a cache key: the flags', marked inside a backward rule."""
    context = trace_context()
    return context + ("backward rule",) if _backward_rule_scope.inside else context


@dataclass(slots=True, eq=False)
class _CacheEntry:
    """What one argument signature of a jitted function traced to, and its executable once compiled."""

    in_tree: Any  # of (args, kwargs) without the static arguments
    jaxpr: ClosedJaxpr
    out_tree: Any
    donated: tuple[bool, ...]
    executable: Callable[..., list[Any]] | None = field(default=None, init=False)
    # per flat argument and output: the Sharding asked for, or None (empty when jit was given none)
    in_shardings: tuple = field(default=(), init=False)
    out_shardings: tuple = field(default=(), init=False)
    # per flat argument and output: the memory layout a Format asked for, or None (empty when none was)
    layouts: tuple = field(default=((), ()), init=False)
    # the flat arguments its program prunes (``unused_inputs``), once compiled
    unused: frozenset = field(default=frozenset(), init=False)
    single_output: bool = field(init=False)
    cacheable: bool = field(init=False)

    def shardings(self) -> dict:
        """The keywords telling a backend's ``compile`` the shardings (and layouts) asked for (none when there are
        none)."""
        if not self.in_shardings and not self.out_shardings:
            return {}
        layouts = {"layouts": self.layouts} if any(self.layouts) else {}
        return {"in_shardings": self.in_shardings, "out_shardings": self.out_shardings, **layouts}

    def __post_init__(self):
        self.single_output = self.out_tree == _ONE_LEAF
        # A jaxpr closing over an outer trace's tracers is only valid inside that trace.
        self.cacheable = not any(isinstance(c, Tracer) for c in self.jaxpr.consts)


def flat_argument_names(signature: inspect.Signature | None, args: tuple, static_nums: set[int],
                        dynamic_kwargs: dict) -> list[str]:
    """Paths of a call's flat dynamic arguments, for messages: ``x``, ``params['w']``, keywords by name."""
    bound_names = _positional_names(signature, len(args))
    names = []
    for i, value in enumerate(args):
        if i not in static_nums:
            names += [bound_names[i] + tree.keystr(path) for path, _ in tree.tree_flatten_with_path(value)[0]]
    for key in sorted(dynamic_kwargs):
        name = _keyword_name(signature, key)
        names += [name + tree.keystr(path) for path, _ in tree.tree_flatten_with_path(dynamic_kwargs[key])[0]]
    return names


def _keyword_name(signature: inspect.Signature | None, key: str) -> str:
    """How JAX names keyword argument ``key``: by its parameter, else as an entry of the function's ``**kwargs``
    parameter (``kw['key']``), else of ``kwargs``."""
    parameters = {} if signature is None else signature.parameters
    p = parameters.get(key)
    if p is not None and p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY):
        return key
    var_keyword = next((p.name for p in parameters.values() if p.kind == p.VAR_KEYWORD), "kwargs")
    return f"{var_keyword}[{key!r}]"


def _signature_or_none(fun: Callable) -> inspect.Signature | None:
    try:
        return inspect.signature(fun)
    except (TypeError, ValueError):
        return None


def _positional_names(signature: inspect.Signature | None, n: int) -> list[str]:
    names = []
    if signature is not None:
        for p in signature.parameters.values():
            if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD):
                names.append(p.name)
            elif p.kind == p.VAR_POSITIONAL:
                names += [f"{p.name}[{i}]" for i in range(n - len(names))]
    return (names + [f"args[{i}]" for i in range(len(names), n)])[:n]


def _index_tuple(argnums) -> tuple[int, ...]:
    """Argument numbers (one or a sequence) as ints; JAX's TypeError for anything else (a name, a float)."""
    if argnums is None:
        return ()
    if hasattr(argnums, "__index__"):
        return (operator.index(argnums),)
    return tuple(operator.index(i) for i in argnums)


def _as_tuple(x) -> tuple:
    if x is None:
        return ()
    return (x,) if isinstance(x, (int, str)) else tuple(x)


def _check_argnums(kind: str, argnums: tuple, signature: inspect.Signature) -> None:
    """JAX's error for argument numbers a function without ``*args`` cannot receive."""
    params = signature.parameters.values()
    if any(p.kind == p.VAR_POSITIONAL for p in params):
        return
    n = sum(p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) for p in params)
    if any(not -n <= i < n for i in argnums):
        raise ValueError(f"Jitted function has {kind}={argnums}, but only accepts {n} positional arguments.")


def _check_argnames(kind: str, argnames: tuple, signature: inspect.Signature) -> None:
    """JAX's error for argument names a function without ``**kwargs`` does not take."""
    params = signature.parameters.values()
    if any(p.kind == p.VAR_KEYWORD for p in params):
        return
    invalid = set(argnames) - {p.name for p in params if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)}
    if invalid:
        raise ValueError(f"Jitted function has invalid argnames {invalid} in {kind}. Function does not take these "
                         "args.")


def _resolve_argnums(argnums, argnames, signature) -> tuple[int, ...]:
    nums = list(_as_tuple(argnums))
    if signature is not None:
        positional = [p.name for p in signature.parameters.values()
                      if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
        nums += [positional.index(n) for n in _as_tuple(argnames) if n in positional]
    return tuple(sorted(set(nums)))


def _resolve_argnames(argnames, argnums, signature) -> tuple[str, ...]:
    names = list(_as_tuple(argnames))
    if signature is not None:
        positional = [p.name for p in signature.parameters.values()
                      if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
        names += [positional[i] for i in _as_tuple(argnums) if -len(positional) <= i < len(positional)]
    return tuple(sorted(set(names)))


def _donated_leaves(donate_argnums, donate_argnames, args, dynamic_kwargs, static_nums) -> tuple[bool, ...]:
    """One flag per flat dynamic argument: positional leaves first, then keyword leaves in sorted-key order."""
    flags = []
    for i, a in enumerate(args):
        if i not in static_nums:
            flags += [i in donate_argnums] * len(tree.tree_leaves(a))
    for key in sorted(dynamic_kwargs):
        flags += [key in donate_argnames] * len(tree.tree_leaves(dynamic_kwargs[key]))
    return tuple(flags)


def jit(fun: Callable | None = None, *, in_shardings=None, out_shardings=None, static_argnums=(),
        static_argnames=(), donate_argnums=(), donate_argnames=(), keep_unused: bool = False, inline: bool = False,
        device=None, backend=None, compiler_options: dict[str, Any] | None = None):
    """Compile ``fun`` with the current backend, tracing once per argument signature.

    ``in_shardings`` and ``out_shardings`` (Shardings, or PartitionSpecs over the current mesh; pytree prefixes of
    the positional arguments and of the outputs) lay the arrays out over several devices; ``compiler_options``
    override the compiler's options by name (XLA's ``xla_*`` flags) for its programs, which are then not staged
    into other functions."""
    if fun is None:
        return functools.partial(jit, in_shardings=in_shardings, out_shardings=out_shardings,
                                 static_argnums=static_argnums, static_argnames=static_argnames,
                                 donate_argnums=donate_argnums, donate_argnames=donate_argnames,
                                 keep_unused=keep_unused, inline=inline, device=device, backend=backend,
                                 compiler_options=compiler_options)
    return make_jit(JitWrapped, fun, in_shardings=in_shardings, out_shardings=out_shardings,
                    static_argnums=static_argnums, static_argnames=static_argnames, donate_argnums=donate_argnums,
                    donate_argnames=donate_argnames, keep_unused=keep_unused, inline=inline, device=device,
                    backend=backend, compiler_options=compiler_options)


def make_jit(kind: type[JitWrapped], fun: Callable, *, in_shardings: Any, out_shardings: Any, static_argnums: Any,
             static_argnames: Any, donate_argnums: Any, donate_argnames: Any, keep_unused: bool, inline: bool,
             device: Any, backend: Any, compiler_options: dict[str, Any] | None = None) -> Callable:
    """``fun`` staged out by a ``JitWrapped`` of ``kind`` (``jit``'s, or another API's built on it), as the backend
    dispatches it; JAX's refusals of what no jitted function takes."""
    if not callable(fun):
        raise TypeError(f"Expected a callable value, got {fun}")
    if device is not None or backend is not None:
        warnings.warn("backend and device argument on jit is deprecated. You can use `jax.device_put(..., "
                      "jax.local_devices(backend=\"cpu\")[0])` on the inputs to the jitted function to get the same "
                      "behavior.", DeprecationWarning, stacklevel=3)
    if device is not None and backend is not None:
        raise ValueError(f"can't specify both a device and a backend for jit, got device={device} and "
                         f"backend={backend!r}")
    return backend_function(kind(fun, static_argnums, static_argnames, donate_argnums, donate_argnames,
                                 keep_unused, inline, device, backend, in_shardings, out_shardings,
                                 compiler_options=compiler_options))
