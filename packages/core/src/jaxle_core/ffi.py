"""Foreign function calls: ``ffi_call`` stages a call of a compiled kernel registered with XLA by name.

The primitive ``ffi_call`` carries the target's name, the result avals, the operands' and results' layouts
(minor-to-major dimension orders), buffer aliases and the keyword attributes the kernel reads. Only a compiling
backend can run it: the kernel lives in XLA's registry, out of the reference backend's reach.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

import jaxle_tree as tree
from jaxle_core.avals import ShapedArray, get_aval
from jaxle_core.callbacks import VMAP_METHODS, result_avals_of
from jaxle_core.core import Primitive
from jaxle_core.jaxpr_util import dce_rules

__all__ = ["HashableArray", "default_layout", "ffi_call", "ffi_call_p"]


class HashableArray:
    """A NumPy array attribute, hashable by its contents, so that it can be a primitive's parameter."""

    def __init__(self, value: np.ndarray):
        self.value = np.array(value)  # a private copy: later changes to the caller's array must not leak in

    def __hash__(self) -> int:
        return hash((self.value.shape, self.value.dtype, self.value.tobytes()))

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, HashableArray) and self.value.shape == other.value.shape
                and self.value.dtype == other.value.dtype and np.array_equal(self.value, other.value))

    def __repr__(self) -> str:
        return f"HashableArray({self.value!r})"

    def __str__(self) -> str:  # how a jaxpr prints it as a parameter
        return f"HashableArray({self.value})"


def default_layout(ndim: int) -> tuple[int, ...]:
    """Row-major order, minor-to-major: ``(ndim - 1, ..., 0)``."""
    return tuple(range(ndim - 1, -1, -1))


def _layouts(given: Any, avals: Sequence[ShapedArray], mismatch: str) -> tuple[tuple[int, ...], ...]:
    """Layouts given major-to-minor (None for row-major), as the minor-to-major orders the primitive carries."""
    if given is None:
        return tuple(default_layout(a.ndim) for a in avals)
    given = list(given)
    if len(given) != len(avals):
        raise ValueError(mismatch.format(len(avals), len(given)))
    layouts = tuple(default_layout(a.ndim) if layout is None else tuple(int(d) for d in reversed(layout))
                    for layout, a in zip(given, avals))
    for layout, aval in zip(layouts, avals):
        if sorted(layout) != list(range(aval.ndim)):
            raise ValueError(f"incorrect layout {tuple(reversed(layout))} for an array of shape {aval.shape}: layout "
                             f"must be a permutation of [0, {aval.ndim})")
    return layouts


def _check_aliases(aliases: Sequence[tuple[int, int]], n_in: int, n_out: int) -> None:
    for i, o in aliases:
        if not 0 <= i < n_in:
            raise ValueError(f"input_output_aliases contains the mapping '{i}:{o}' with input index {i} outside the "
                             f"range [0, {n_in}).")
        if not 0 <= o < n_out:
            raise ValueError(f"input_output_aliases contains the mapping '{i}:{o}' with output index {o} outside the "
                             f"range [0, {n_out}).")


def _attribute(name: str, value: Any) -> Any:
    if isinstance(value, np.ndarray):
        return HashableArray(value)
    try:
        hash(value)
    except TypeError:
        raise TypeError(f"Non-hashable keyword argument to ffi_call {name}: {value}") from None
    return value


def ffi_call(target_name: str, result_shape_dtypes: Any, *, has_side_effect: bool = False,
             vmap_method: str | None = None, input_layouts: Sequence[Any] | None = None,
             output_layouts: Any = None, input_output_aliases: dict[int, int] | None = None,
             custom_call_api_version: int = 4, legacy_backend_config: str | None = None) -> Callable[..., Any]:
    """A function calling the XLA FFI target ``target_name`` on its arrays.

    ``result_shape_dtypes`` (one object with ``shape`` and ``dtype``, or a sequence of them) describes the
    results; the returned function takes the operands positionally and the kernel's attributes as keyword
    arguments (scalars, strings, NumPy arrays). ``vmap_method`` says how ``vmap`` batches the call, as for
    ``pure_callback``; ``input_output_aliases`` maps an operand index to the result that reuses its buffer.
    A layout is a major-to-minor order of an array's dimensions (None: row-major)."""
    if vmap_method not in VMAP_METHODS:
        raise ValueError(f"vmap_method must be on of the allowed methods {VMAP_METHODS}, but got: {vmap_method}")
    result_avals, out_tree = result_avals_of(result_shape_dtypes)
    if output_layouts is not None and not isinstance(result_shape_dtypes, (list, tuple)):
        output_layouts = [output_layouts]
    out_layouts = _layouts(output_layouts, result_avals,
                           "The number of outputs ({}) must equal the number of output layouts ({}).")
    aliases = tuple(sorted((int(i), int(o)) for i, o in (input_output_aliases or {}).items()))

    def call(*args: Any, **kwargs: Any) -> Any:
        avals_in = [get_aval(a) for a in args]
        in_layouts = _layouts(input_layouts, avals_in,
                              "The number of input arguments ({}) must equal the number of input layouts ({}).")
        _check_aliases(aliases, len(args), len(result_avals))
        attributes = tuple((name, _attribute(name, value)) for name, value in sorted(kwargs.items()))
        outs = ffi_call_p.bind(
            *args, attributes=attributes, custom_call_api_version=custom_call_api_version,
            has_side_effect=has_side_effect, input_layouts=in_layouts,
            input_output_aliases=aliases, legacy_backend_config=legacy_backend_config, output_layouts=out_layouts,
            result_avals=result_avals, target_name=target_name, vmap_method=vmap_method)
        return tree.tree_unflatten(out_tree, outs)

    return call


def _ffi_abstract_eval(*avals: ShapedArray, result_avals: tuple[ShapedArray, ...], **params: Any):
    return list(result_avals)


def _ffi_impl(*args: Any, target_name: str, **params: Any):
    raise RuntimeError(f"ffi_call of the target `{target_name}` needs a compiling backend (XLA): the reference "
                       "backend cannot run foreign functions")


ffi_call_p = Primitive("ffi_call")
ffi_call_p.multiple_results = True
ffi_call_p.def_abstract_eval(_ffi_abstract_eval)
ffi_call_p.def_impl(_ffi_impl)


def _ffi_call_dce(eqn: Any, used_outputs: list[bool]) -> tuple[list[bool], Any]:
    # A call with a side effect stays even when nothing reads its results, as XLA keeps its custom call.
    if eqn.params["has_side_effect"] or any(used_outputs):
        return [True] * len(eqn.invars), eqn
    return [False] * len(eqn.invars), None


dce_rules[ffi_call_p] = _ffi_call_dce
