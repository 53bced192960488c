"""Host callbacks: ``pure_callback`` and ``io_callback`` call a Python function from inside a computation.

Both stage one primitive (``pure_callback``, ``io_callback``) whose ``callback`` param is a ``FlatCallback``: the
user's function with the pytree structure of its arguments, so the primitive itself only sees flat arrays. The
reference backend calls it directly; a compiling backend calls it from the compiled program on the host.
Either way the function receives the backend's Arrays and its results are checked against ``result_avals``.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import numpy as np

import jaxle_tree as tree
from jaxle_core import dtypes, vma
from jaxle_core.avals import ShapedArray
from jaxle_core.core import Primitive
from jaxle_core.jaxpr_util import ordered_effect_order, ordered_effect_rules

__all__ = ["FlatCallback", "io_callback", "io_callback_p", "pure_callback", "pure_callback_p"]

# JAX's logger name: libraries filter the "jax.<callback> failed" records of the errors they raise on purpose
# from a callback by it (equinox's runtime errors do).
logger = logging.getLogger("jax._src.callback")



class _ErrorsKept(threading.local):
    active = False


_errors_kept = _ErrorsKept()


def errors_kept() -> bool:
    """Whether a failing host callback leaves its error with the results of the program that called it (raised when
    they are read), as JAX's asynchronous dispatch does, rather than with the call."""
    return _errors_kept.active


@contextmanager
def errors_kept_with_results() -> Iterator[None]:
    """Run the block with callbacks' errors kept with the results (``errors_kept``)."""
    previous, _errors_kept.active = _errors_kept.active, True
    try:
        yield
    finally:
        _errors_kept.active = previous


VMAP_METHODS = ["sequential", "sequential_unrolled", "expand_dims", "broadcast_all", "legacy_vectorized", None]


@dataclass(frozen=True)
class FlatCallback:
    """A user's callback taking flat arrays: it rebuilds the pytree of arguments and flattens what it returns."""

    callback_func: Callable[..., Any]
    in_tree: Any

    def __call__(self, *flat_args: Any) -> list[Any]:
        args, kwargs = tree.tree_unflatten(self.in_tree, flat_args)
        return tree.tree_leaves(self.callback_func(*args, **kwargs))

    def __repr__(self) -> str:  # JAX prints its own class's name in jaxprs
        return f"_FlatCallback(callback_func={self.callback_func!r}, in_tree={self.in_tree!r})"


def result_avals_of(result_shape_dtypes: Any) -> tuple[tuple[ShapedArray, ...], Any]:
    """The flat result avals (dtypes canonicalised, never weak) of a pytree of shape-dtype structs, and its tree."""
    leaves, out_tree = tree.tree_flatten(result_shape_dtypes)
    avals = tuple(ShapedArray(tuple(leaf.shape), dtypes.canonicalize_dtype(leaf.dtype)) for leaf in leaves)
    return avals, out_tree


def check_results(results: Sequence[Any], result_avals: Sequence[ShapedArray]) -> list[np.ndarray]:
    """A callback's results as NumPy arrays of ``result_avals`` (canonical dtypes), or JAX's RuntimeError."""
    if len(results) != len(result_avals):
        raise RuntimeError("Mismatched number of outputs from callback. "
                           f"Expected: {len(result_avals)}, Actual: {len(results)}")
    checked = []
    for i, (value, aval) in enumerate(zip(results, result_avals)):
        value = np.asarray(value)
        value = value.astype(dtypes.canonicalize_dtype(value.dtype), copy=False)
        if value.shape != aval.shape:
            raise RuntimeError(f"Incorrect output shape for return value #{i}: "
                               f"Expected: {aval.shape}, Actual: {value.shape}")
        if value.dtype != aval.dtype:
            raise RuntimeError(f"Incorrect output dtype for return value #{i}: "
                               f"Expected: {aval.dtype}, Actual: {value.dtype}")
        checked.append(value)
    return checked


def call_host(callback: Callable[..., Any], arrays: Sequence[Any], result_avals: Sequence[ShapedArray],
              name: str) -> list[np.ndarray]:
    """Call ``callback`` on ``arrays`` and check its results; a failure is logged as JAX logs it
    (``jax.<name> failed``) before it propagates."""
    try:
        return check_results(callback(*arrays), result_avals)
    except BaseException:
        logger.exception("jax.%s failed", name)
        raise


def host_array(x: np.ndarray) -> Any:
    """A host value as an Array of the current backend (what the reference backend hands to callbacks)."""
    from jaxle_core.backend import current_backend  # the backend module imports the primitives' users

    return current_backend().device_put(x)


def _callback_impl(name: str) -> Callable[..., list[np.ndarray]]:
    def impl(*args, callback, result_avals, **params):
        return call_host(callback, [host_array(a) for a in args], result_avals, name)

    return impl


def _result_avals_rule(*avals, result_avals, **params) -> list[ShapedArray]:
    return list(result_avals)


class CallbackPrimitive(Primitive):
    """A primitive calling back into Python on the host."""

    multiple_results = True
    calls_host = True


pure_callback_p = CallbackPrimitive("pure_callback")
pure_callback_p.def_abstract_eval(_result_avals_rule)
pure_callback_p.def_impl(_callback_impl("pure_callback"))

io_callback_p = CallbackPrimitive("io_callback")
io_callback_p.effectful = True
io_callback_p.def_abstract_eval(_result_avals_rule)
io_callback_p.def_impl(_callback_impl("io_callback"))


class OrderedIOEffect:
    """The effect of an ordered ``io_callback``: its calls run in program order, threaded by a token of their own."""

    def __repr__(self) -> str:
        return "OrderedIOEffect"


ordered_io_effect = OrderedIOEffect()
ordered_effect_order.append(ordered_io_effect)
ordered_effect_rules[io_callback_p] = lambda params: ordered_io_effect if params["ordered"] else None
vma.vma_rules[pure_callback_p] = vma.vma_rules[io_callback_p] = vma.operands_as_they_are


def _bind_callback(primitive: Primitive, callback: Callable[..., Any], result_shape_dtypes: Any, args: Any,
                   kwargs: dict, **params: Any) -> Any:
    flat_args, in_tree = tree.tree_flatten((args, kwargs))
    result_avals, out_tree = result_avals_of(result_shape_dtypes)
    outs = primitive.bind(*flat_args, callback=FlatCallback(callback, in_tree), result_avals=result_avals, **params)
    return tree.tree_unflatten(out_tree, outs)


def pure_callback(callback: Callable[..., Any], result_shape_dtypes: Any, *args: Any, sharding: Any = None,
                  vmap_method: str | None = None, **kwargs: Any) -> Any:
    """Call the side-effect-free Python function ``callback(*args, **kwargs)`` from a computation.

    ``result_shape_dtypes`` is a pytree of objects with ``shape`` and ``dtype`` describing its results.
    The compiler may drop or repeat calls (the function must be pure). ``vmap_method`` says how ``vmap``
    batches it: ``"sequential"`` (one call per element), ``"expand_dims"`` (one call, unbatched arguments with a
    size-1 batch dimension), ``"broadcast_all"`` (one call, every argument batched) or ``"legacy_vectorized"``
    (one call, unbatched arguments as they are).
    """
    if vmap_method not in VMAP_METHODS:
        raise ValueError(f"vmap_method must be on of the allowed methods {VMAP_METHODS}, but got: {vmap_method}")
    return _bind_callback(pure_callback_p, callback, result_shape_dtypes, args, kwargs, sharding=sharding,
                          vmap_method=vmap_method)


def io_callback(callback: Callable[..., Any], result_shape_dtypes: Any, *args: Any, sharding: Any = None,
                ordered: bool = False, **kwargs: Any) -> Any:
    """Call the Python function ``callback(*args, **kwargs)``, which may have side effects, from a computation.

    Every staged call runs exactly once. With ``ordered=True`` the calls run in program order (and cannot be
    vmapped); ``result_shape_dtypes`` describes the results as for ``pure_callback``.
    """
    return _bind_callback(io_callback_p, callback, result_shape_dtypes, args, kwargs, sharding=sharding,
                          ordered=ordered)
