"""Tracing entry points: ``make_jaxpr``, ``eval_shape`` and the context managers around staging."""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import jaxle_tree as tree
from jaxle_core import core
from jaxle_core.avals import ShapeDtypeStruct
from jaxle_core.config import config
from jaxle_core.jit import JitWrapped, jit, jit_wrapped


def make_jaxpr(fun: Callable, static_argnums: int | Sequence[int] = (), axis_env=None,
               return_shape: bool = False) -> Callable[..., Any]:
    """A function returning the ``ClosedJaxpr`` of ``fun`` traced on the given arguments."""
    if not callable(fun):
        raise TypeError("the first argument must be callable")  # JAX's words
    static = (static_argnums,) if isinstance(static_argnums, int) else tuple(static_argnums)

    @functools.wraps(fun)
    def make(*args, **kwargs):
        # As JAX's: the jaxpr is jit's traced stage (static arguments checked at the call).
        with _axis_env(axis_env or ()):
            traced = jit(fun, static_argnums=static).trace(*args, **kwargs)
        closed = traced.jaxpr
        if return_shape:
            shapes = [ShapeDtypeStruct.of(a) for a in closed.out_avals]
            return closed, tree.tree_unflatten(traced.out_tree, shapes)
        return closed

    make.__name__ = f"make_jaxpr({getattr(fun, '__name__', fun)})"
    return make


@contextmanager
def _axis_env(frames: Sequence[tuple[Any, int]]) -> Iterator[None]:
    if not frames:
        yield
        return
    (name, size), *rest = frames
    with core.extend_axis_env(name, size), _axis_env(rest):
        yield


def eval_shape(fun: Callable, *args, **kwargs) -> Any:
    """The shapes and dtypes of ``fun``'s outputs, as ``ShapeDtypeStruct``s, without computing them."""
    core.check_callable(fun)
    # a jitted function is traced as it is (its static arguments and options its own), as JAX traces it; a bound
    # method of one is a function to jit like any other
    wrapped = jit_wrapped(fun)
    if isinstance(wrapped, JitWrapped) and not inspect.ismethod(fun):
        return wrapped.eval_shape(*args, **kwargs)
    return jit(fun).eval_shape(*args, **kwargs)


@contextmanager
def disable_jit(disable: bool = True) -> Iterator[None]:
    """Within the block, jitted functions run op by op in Python (useful for debugging)."""
    previous = config.jax_disable_jit
    config.update("jax_disable_jit", disable)
    try:
        yield
    finally:
        config.update("jax_disable_jit", previous)


@contextmanager
def ensure_compile_time_eval() -> Iterator[None]:
    """Within the block, operations on concrete values compute now even inside ``jit``."""
    with core.set_current_trace(core.EvalTrace()):
        yield


@contextmanager
def named_scope(name: str) -> Iterator[None]:
    """Prefix the names of operations staged within the block (seen in lowered HLO metadata)."""
    if not isinstance(name, str):
        raise TypeError("named_scope name argument must be a string.")
    with core.extend_name_stack(name):
        yield


def named_call(fun: Callable, *, name: str | None = None) -> Callable:
    """``fun``, with its staged operations named under ``name`` (default: the function's name)."""
    scope = name or getattr(fun, "__name__", "named_call")

    @functools.wraps(fun)
    def named(*args, **kwargs):
        with named_scope(scope):
            return fun(*args, **kwargs)

    return named


_batch_waits: dict[type, Callable[[list], Any]] = {}


def register_batch_wait(array_type: type, wait_all: Callable[[list], Any]) -> None:
    """Make ``block_until_ready`` wait for all its ``array_type`` leaves with one call of ``wait_all`` (a backend's
    runtime waits for many buffers at once for less than one call per buffer)."""
    _batch_waits[array_type] = wait_all


def block_until_ready(x: Any) -> Any:
    """Wait until every array leaf of the pytree ``x`` is computed; returns ``x``. Other leaves are ignored."""
    leaves = tree.tree_leaves(x)
    for kind, wait_all in _batch_waits.items():
        batch = [leaf for leaf in leaves if type(leaf) is kind]
        if batch:
            wait_all(batch)
            if len(batch) == len(leaves):  # the common case: one backend's arrays only
                return x
    for leaf in leaves:
        if type(leaf) not in _batch_waits:
            wait = getattr(leaf, "block_until_ready", None)
            if wait is not None:
                wait()
    return x


def copy_to_host_async(x: Any) -> Any:
    """Start copying every array leaf of the pytree ``x`` to the host without waiting; returns ``x``."""
    for leaf in tree.tree_leaves(x):
        start = getattr(leaf, "copy_to_host_async", None)
        if start is not None:
            start()
    return x


__all__ = ["make_jaxpr", "eval_shape", "jit", "disable_jit", "ensure_compile_time_eval", "named_scope",
           "named_call", "block_until_ready", "copy_to_host_async", "register_batch_wait"]
