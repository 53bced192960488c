"""``jax.api_util``: helpers for libraries that build their own transformations on wrapped functions
(``jaxle.extend.linear_util``): flattening a function's pytree arguments and results, fixing static arguments,
donation flags and debug information."""

from __future__ import annotations

import inspect
from collections.abc import Callable, Sequence
from typing import Any

import jaxle_tree as tree
from jaxle.extend.linear_util import WrappedFun, transformation2, transformation_with_aux2
from jaxle_core.avals import ShapedArray, abstract_argument_aval
from jaxle_core.staging import DebugInfo

__all__ = ["argnums_partial", "debug_info", "donation_vector", "flatten_axes", "flatten_fun", "flatten_fun_nokwargs",
           "rebase_donate_argnums", "safe_map", "shaped_abstractify"]


def _flat_call_with_kwargs(f: Callable, store: Any, in_tree: Any, *leaves: Any) -> list[Any]:
    args, kwargs = tree.tree_unflatten(in_tree, leaves)
    out_leaves, out_tree = tree.tree_flatten(f(*args, **kwargs))
    store.store(out_tree)
    return out_leaves


def _flat_call(f: Callable, store: Any, in_tree: Any, *leaves: Any) -> list[Any]:
    out_leaves, out_tree = tree.tree_flatten(f(*tree.tree_unflatten(in_tree, leaves)))
    store.store(out_tree)
    return out_leaves


def flatten_fun(fun: WrappedFun, in_tree: Any, **options: Any) -> tuple[WrappedFun, Callable[[], Any]]:
    """``fun`` taking the leaves of ``(args, kwargs)`` (tree ``in_tree``) and returning its output's leaves; the
    thunk gives the output's tree after a call."""
    return transformation_with_aux2(_flat_call_with_kwargs, fun, in_tree)


def flatten_fun_nokwargs(fun: WrappedFun, in_tree: Any, **options: Any) -> tuple[WrappedFun, Callable[[], Any]]:
    """As ``flatten_fun``, ``in_tree`` being the tree of the positional arguments alone."""
    return transformation_with_aux2(_flat_call, fun, in_tree)


def _with_static(f: Callable, dyn_argnums: tuple[int, ...], static: tuple[tuple[int, Any], ...], *dyn_args: Any,
                 **kwargs: Any) -> Any:
    args: list[Any] = [None] * (len(dyn_argnums) + len(static))
    for i, value in static:
        args[i] = value.value if isinstance(value, _Static) else value
    for i, value in zip(dyn_argnums, dyn_args):
        args[i] = value
    return f(*args, **kwargs)


class _Static:
    """A static argument compared by identity when it does not hash."""

    __slots__ = ("value",)

    def __init__(self, value: Any):
        self.value = value

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Static) and self.value is other.value

    def __hash__(self) -> int:
        return id(self.value)


def argnums_partial(f: WrappedFun, dyn_argnums: int | Sequence[int], args: Sequence[Any],
                    require_static_args_hashable: bool = True) -> tuple[WrappedFun, tuple[Any, ...]]:
    """``f`` taking only the arguments at ``dyn_argnums`` (the others fixed to their ``args`` values), and those
    dynamic arguments."""
    dyn = (dyn_argnums,) if isinstance(dyn_argnums, int) else tuple(dyn_argnums)
    dyn = tuple(i % len(args) for i in dyn)
    static = []
    for i, value in enumerate(args):
        if i in dyn:
            continue
        if require_static_args_hashable:
            try:
                hash(value)
            except TypeError:
                raise ValueError("Non-hashable static arguments are not supported, as this can lead to unexpected "
                                 f"cache-misses. Static argument (index {i}) of type {type(value)} for function "
                                 f"{f.__name__} is non-hashable.") from None
        else:
            value = _Static(value)
        static.append((i, value))
    return transformation2(_with_static, f, dyn, tuple(static)), tuple(args[i] for i in dyn)


def donation_vector(donate_argnums: Sequence[int], donate_argnames: Sequence[str], in_tree: Any,
                    kws: bool = True) -> tuple[bool, ...]:
    """Per leaf of the arguments (tree ``in_tree`` of ``(args, kwargs)``, or of ``args`` alone without ``kws``),
    whether it is donated."""
    args_tree, kwargs_tree = (tree.treedef_children(in_tree) if kws else (in_tree, None))
    flags: list[bool] = []
    for i, child in enumerate(tree.treedef_children(args_tree)):
        flags += [i in donate_argnums] * child.num_leaves
    if kwargs_tree is not None:
        kwargs = tree.tree_unflatten(kwargs_tree, [None] * kwargs_tree.num_leaves)
        for name in sorted(kwargs):
            flags += [name in donate_argnames] * tree.tree_structure(kwargs[name]).num_leaves
    return tuple(flags)


def rebase_donate_argnums(donate_argnums: Sequence[int], static_argnums: Sequence[int]) -> tuple[int, ...]:
    """The donated positions counted among the dynamic arguments only (static ones removed)."""
    static = sorted(static_argnums)
    if set(donate_argnums) & set(static):
        raise ValueError(f"`static_argnums` {tuple(static)} and `donate_argnums` {tuple(donate_argnums)} cannot "
                         "intersect.")
    return tuple(sorted(i - sum(s < i for s in static) for i in donate_argnums))


def flatten_axes(name: str, treedef: Any, axis_tree: Any, *, kws: bool = False, tupled_args: bool = False
                 ) -> list[Any]:
    """``axis_tree`` (a tree prefix of ``treedef``; a None leaf covers its whole subtree) repeated over each leaf of
    ``treedef``: one axis per leaf."""
    placeholders = tree.tree_unflatten(treedef, [object()] * treedef.num_leaves)
    if kws:
        axis_tree = (axis_tree, 0)
    try:
        broadcast = tree.tree_broadcast(axis_tree, placeholders, is_leaf=lambda x: x is None)
    except ValueError:
        raise ValueError(f"{name} specification must be a tree prefix of the corresponding value, got specification "
                         f"{axis_tree} for value tree {treedef}.") from None
    return tree.tree_leaves(broadcast, is_leaf=lambda x: x is None)


def safe_map(f: Callable[..., Any], *args: Sequence[Any]) -> list[Any]:
    """``list(map(f, *args))``, the sequences required to have one length."""
    n = len(args[0])
    for arg in args[1:]:
        if len(arg) != n:
            raise ValueError(f"length mismatch: {list(map(len, args))}")
    return list(map(f, *args))


def shaped_abstractify(x: Any) -> ShapedArray:
    """The abstract value of an array, a scalar or anything with ``shape`` and ``dtype``."""
    return abstract_argument_aval(x)


def debug_info(traced_for: str, fun: Callable, args: Sequence[Any], kwargs: dict[str, Any], *,
               static_argnums: Sequence[int] = (), static_argnames: Sequence[str] = (), **unused: Any) -> DebugInfo:
    """What a jaxpr traced from ``fun(*args, **kwargs)`` came from: the function and its flat argument paths."""
    try:
        parameters = list(inspect.signature(fun).parameters)
    except (TypeError, ValueError):
        parameters = []
    names: list[str] = []
    for i, value in enumerate(args):
        if i in static_argnums:
            continue
        base = parameters[i] if i < len(parameters) else f"args[{i}]"
        names += [base + tree.keystr(path) for path, _ in tree.tree_flatten_with_path(value)[0]]
    for key in sorted(k for k in kwargs if k not in static_argnames):
        names += [key + tree.keystr(path) for path, _ in tree.tree_flatten_with_path(kwargs[key])[0]]
    return DebugInfo(traced_for, fun, names)
