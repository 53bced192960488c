"""``jax.debug``: printing and inspecting values from inside transformed functions.

``debug_callback`` and ``debug_print`` are effectful primitives with no outputs: dead-code elimination keeps
them, differentiation sees only primal values, and ``vmap`` calls them once per batch element. Arguments that
are not arrays (strings, for instance) are kept out of the operands and handed back to the callback as they
are. ``breakpoint`` is documented in the package's docs: it opens ``pdb`` on the values it is given.
"""

from __future__ import annotations

import copy
import functools
import logging
import string
import sys
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

import jaxle_tree as tree
from jaxle_core import vma
from jaxle_core.avals import is_array_like
from jaxle_core.callbacks import call_host, host_array
from jaxle_core.core import Primitive
from jaxle_core.jaxpr_util import ordered_effect_order, ordered_effect_rules

__all__ = ["DebugEffect", "OrderedDebugEffect", "breakpoint", "callback", "debug_callback_p", "debug_print_p", "log",
           "print"]

logger = logging.getLogger(__name__)


class DebugEffect:
    """The effect of a debug callback: it runs, in no particular order with the others."""

    ordered = False

    def __repr__(self) -> str:
        return "Debug"


class OrderedDebugEffect(DebugEffect):
    """The effect of an ordered debug callback: calls run in program order."""

    ordered = True

    def __repr__(self) -> str:
        return "OrderedDebug"


debug_effect = DebugEffect()
ordered_debug_effect = OrderedDebugEffect()
ordered_effect_order.append(ordered_debug_effect)


class DebugPrimitive(Primitive):
    """A primitive with no outputs that calls back into Python on the host."""

    multiple_results = True
    effectful = True
    calls_host = True


debug_callback_p = DebugPrimitive("debug_callback")
debug_callback_p.def_abstract_eval(lambda *avals, **params: [])

debug_print_p = DebugPrimitive("debug_print")
debug_print_p.def_abstract_eval(lambda *avals, **params: [])
ordered_effect_rules[debug_callback_p] = lambda params: params["effect"] if params["effect"].ordered else None
ordered_effect_rules[debug_print_p] = lambda params: ordered_debug_effect if params["ordered"] else None
vma.vma_rules[debug_callback_p] = vma.vma_rules[debug_print_p] = vma.operands_as_they_are


def split_static(leaves: Sequence[Any]) -> tuple[list[Any], tuple[tuple[int, Any], ...]]:
    """The array leaves (Python numbers and bools included) and the others with their positions."""
    dynamic, static = [], []
    for i, leaf in enumerate(leaves):
        if is_array_like(leaf):
            dynamic.append(leaf)
        else:
            static.append((i, leaf))
    return dynamic, tuple(static)


def merge_static(dynamic: Sequence[Any], static: Sequence[tuple[int, Any]]) -> list[Any]:
    """The leaves ``split_static`` split, back in their order."""
    leaves = list(dynamic)
    for i, value in static:
        leaves.insert(i, value)
    return leaves


# ---------------------------------------------------------------- running on the host


def run_debug_callback(*arrays: Any, callback: Callable[..., Any], **params) -> list:
    """Run a ``debug_callback`` equation's callback on its operands (Arrays)."""
    callback(*arrays)
    return []


def run_debug_print(*arrays: Any, fmt: str, in_tree: Any, static_args: tuple, np_printoptions: tuple,
                    logging_record: logging.LogRecord | None, **params) -> list:
    """Format and print a ``debug_print`` equation's operands (Arrays) with the NumPy print options it was staged
    with; ``debug.log``'s equations hand the text to ``logging`` instead, as a record of the staging call site."""
    call_args, call_kwargs = tree.tree_unflatten(in_tree, merge_static(arrays, static_args))
    with np.printoptions(**dict(np_printoptions)):
        text = fmt.format(*call_args, **call_kwargs)
    if logging_record is None:
        sys.stdout.write(text + "\n")
    else:
        record = copy.copy(logging_record)
        record.msg = text
        logger.handle(record)
    return []


# How each debug primitive runs on the host, given its operands as Arrays and its params.
host_runners = {debug_callback_p: run_debug_callback, debug_print_p: run_debug_print}


def _reference_impl(primitive: Primitive) -> Callable[..., list]:
    run = host_runners[primitive]

    def impl(*args: Any, **params: Any) -> list:
        return call_host(lambda *arrays: run(*arrays, **params), [host_array(a) for a in args], (), "debug.callback")

    return impl


debug_callback_p.def_impl(_reference_impl(debug_callback_p))
debug_print_p.def_impl(_reference_impl(debug_print_p))


# ---------------------------------------------------------------- public API


def callback(callback: Callable[..., None] | None = None, *args: Any, ordered: bool = False,
             partitioned: bool = False, **kwargs: Any) -> Callable[..., None] | None:
    """Call ``callback(*args, **kwargs)`` on the host for its side effects (it returns nothing).

    Under ``vmap`` it is called once per batch element, under differentiation with primal values only; with
    ``ordered=True`` calls run in program order. Without ``callback``, returns a decorator doing this.
    """
    if callback is None:
        def decorate(fun: Callable[..., None]) -> Callable[..., None]:
            return functools.wraps(fun)(lambda *a, **k: _stage_callback(fun, a, k, ordered, partitioned))
        return decorate
    _stage_callback(callback, args, kwargs, ordered, partitioned)
    return None


def _stage_callback(fun: Callable[..., None], args: Sequence[Any], kwargs: dict, ordered: bool,
                    partitioned: bool) -> None:
    if not callable(fun):
        raise TypeError("first argument to jax.debug.callback must be callable, but got an object of type "
                        f"{type(fun)}")
    leaves, in_tree = tree.tree_flatten((tuple(args), kwargs))
    dynamic, static = split_static(leaves)

    def flat_callback(*dynamic_args: Any) -> None:
        call_args, call_kwargs = tree.tree_unflatten(in_tree, merge_static(dynamic_args, static))
        fun(*call_args, **call_kwargs)

    # Printed in jaxprs under the name JAX's own function has.
    flat_callback.__qualname__ = "debug_callback.<locals>._debug_callback.<locals>._flat_callback"
    debug_callback_p.bind(*dynamic, callback=flat_callback, effect=ordered_debug_effect if ordered else debug_effect,
                          partitioned=partitioned)


class _CheckingFormatter(string.Formatter):
    """Checks a format string as ``str.format`` reads it and refuses unused arguments, as ``jax.debug.print`` does
    (without formatting the values: a traced one may be read only when printed)."""

    def format_field(self, value: Any, format_spec: str) -> str:
        return ""

    def check_unused_args(self, used_args: Any, args: Sequence[Any], kwargs: dict) -> None:
        unused_kwargs = sorted(k for k in kwargs if k not in used_args)
        if unused_kwargs:
            raise ValueError(f"Unused keyword arguments to `jax.debug.print`: {unused_kwargs}. You may be passing an "
                             'f-string (i.e, `f"{x}"`) into `jax.debug.print` and instead should pass in a regular '
                             "string.")
        unused = [a for i, a in enumerate(args) if i not in used_args]
        if unused:
            raise ValueError(f"Unused positional arguments to `jax.debug.print`: {unused}")


def print(fmt: str | None = None, *args: Any, ordered: bool = False, partitioned: bool = False,  # noqa: A001
          skip_format_check: bool = False, _use_logging: bool = False, **kwargs: Any) -> Callable[..., None] | None:
    """Print ``fmt.format(*args, **kwargs)`` on the host with the values the computation has at that point.

    ``fmt`` is a regular (not f-) string; the values are printed with the NumPy print options in force when
    the call is staged. ``ordered=True`` prints in program order.
    """
    if fmt is None:
        return functools.partial(print, ordered=ordered, partitioned=partitioned, skip_format_check=skip_format_check,
                                 _use_logging=_use_logging)
    if not isinstance(fmt, str):
        raise TypeError(f"expected str, got {type(fmt).__name__}")
    if not skip_format_check:
        _CheckingFormatter().format(fmt, *args, **kwargs)
    leaves, in_tree = tree.tree_flatten((args, kwargs))
    dynamic, static = split_static(leaves)
    has_placeholders = any(field is not None for _, field, _, _ in string.Formatter().parse(fmt))
    record = None
    if _use_logging:
        caller = sys._getframe(2 if sys._getframe(1).f_code is log.__code__ else 1)
        record = logger.makeRecord(logger.name, logging.INFO, caller.f_code.co_filename, caller.f_lineno, "", None,
                                   None)
    debug_print_p.bind(*dynamic, fmt=fmt, has_placeholders=has_placeholders, in_tree=in_tree, logging_record=record,
                       np_printoptions=tuple(np.get_printoptions().items()), ordered=ordered,
                       partitioned=partitioned, static_args=static)
    return None


def log(fmt: str | None = None, *args: Any, ordered: bool = False, partitioned: bool = False,
        skip_format_check: bool = False, **kwargs: Any) -> Callable[..., None] | None:
    """``print``, but the text goes to this module's logger at level INFO, recorded at the calling line."""
    return print(fmt, *args, ordered=ordered, partitioned=partitioned, skip_format_check=skip_format_check,
                 _use_logging=True, **kwargs)


def breakpoint(*, backend: str | None = None, filter_frames: bool = True, num_frames: int | None = None,  # noqa: A001
               ordered: bool = False, token: Any = None, **kwargs: Any) -> Any:
    """Stop in ``pdb`` when the computation reaches this point, with the caller's local arrays as values.

    The traced function's local variables that are arrays are handed to a ``debug_callback``; when it runs,
    ``pdb`` starts with them in its namespace (``kwargs`` are added). The other arguments are accepted as
    JAX's are; ``token`` is returned unchanged.
    """
    frame = sys._getframe(1)
    names = [name for name, value in frame.f_locals.items() if is_array_like(value) and not isinstance(value, str)]
    values = [frame.f_locals[name] for name in names]

    def enter_debugger(*arrays: Any) -> None:
        namespace = dict(zip(names, arrays), **kwargs)
        import pdb  # here, not at the top: only a reached breakpoint needs the debugger, not every import of jaxle

        debugger = pdb.Pdb()
        debugger.prompt = "(jdb) "
        debugger.reset()
        exec_globals = dict(frame.f_globals)
        exec_globals.update(namespace)
        debugger.run("pass", exec_globals, namespace)

    _stage_callback(enter_debugger, values, {}, ordered, False)
    return token
