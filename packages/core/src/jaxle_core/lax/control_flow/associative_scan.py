"""``associative_scan``: the inclusive scan of an associative operator as a tree of slices and pads.

No primitive of its own: the scan combines neighbouring pairs (the even-indexed
elements with the odd-indexed ones), scans that half-length sequence
recursively, combines the results once more to fill in the remaining positions,
and interleaves the two halves with strided pads. Every step is an ordinary lax
operation, so the result differentiates and batches like any other function.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

import jaxle_tree as tree
from jaxle_core.avals import get_aval
from jaxle_core.lax.elementwise import add, bitwise_or
from jaxle_core.lax.slicing import slice_in_dim
from jaxle_core.lax.structural import concatenate, pad, rev


def _interleave(evens: Any, odds: Any, axis: int) -> Any:
    """``evens[0], odds[0], evens[1], ...`` along ``axis`` (``evens`` has as many or one more elements)."""
    even_aval, odd_aval = get_aval(evens), get_aval(odds)
    same = even_aval.shape[axis] == odd_aval.shape[axis]
    even_pads = [(0, 0, 0)] * even_aval.ndim
    odd_pads = [(0, 0, 0)] * odd_aval.ndim
    even_pads[axis] = (0, 1 if same else 0, 1)
    odd_pads[axis] = (1, 0 if same else 1, 1)
    merge = bitwise_or if even_aval.dtype == np.bool_ else add
    return merge(pad(evens, np.zeros((), even_aval.dtype)[()], even_pads),
                 pad(odds, np.zeros((), odd_aval.dtype)[()], odd_pads))


def _canonical_axis(axis: int, ndim: int) -> int:
    if not -ndim <= axis < ndim:
        raise ValueError(f"axis {axis} is out of bounds for array of dimension {ndim}")
    return axis % ndim


def associative_scan(fn: Callable, elems: Any, reverse: bool = False, axis: int = 0) -> Any:
    """Inclusive scan of ``elems`` (a pytree of arrays) along ``axis`` with the associative ``fn(a, b)``.

    Element ``k`` of the result is ``fn`` folded over elements ``0..k`` (``k..end`` with ``reverse``).
    """
    if not callable(fn):
        raise TypeError("lax.associative_scan: fn argument should be callable.")
    leaves, treedef = tree.tree_flatten(elems)
    if reverse:
        leaves = [rev(x, (axis,)) for x in leaves]

    def combine(left: list[Any], right: list[Any]) -> list[Any]:
        return tree.tree_leaves(fn(tree.tree_unflatten(treedef, left), tree.tree_unflatten(treedef, right)))

    axis = _canonical_axis(axis, get_aval(leaves[0]).ndim)
    shapes = [get_aval(x).shape for x in leaves]
    if any(shape[axis] != shapes[0][axis] for shape in shapes[1:]):
        raise ValueError(f"Array inputs to associative_scan must have the same first dimension. (saw: {shapes})")

    def scan(xs: list[Any]) -> list[Any]:
        size = get_aval(xs[0]).shape[axis]
        if size < 2:
            return xs
        pairs = combine([slice_in_dim(x, 0, -1, stride=2, axis=axis) for x in xs],
                        [slice_in_dim(x, 1, None, stride=2, axis=axis) for x in xs])
        odds = scan(pairs)
        prefixes = [slice_in_dim(o, 0, -1, axis=axis) for o in odds] if size % 2 == 0 else odds
        evens = combine(prefixes, [slice_in_dim(x, 2, None, stride=2, axis=axis) for x in xs])
        evens = [concatenate([slice_in_dim(x, 0, 1, axis=axis), e], axis) for x, e in zip(xs, evens)]
        return [_interleave(e, o, axis) for e, o in zip(evens, odds)]

    scanned = scan(leaves)
    if reverse:
        scanned = [rev(x, (axis,)) for x in scanned]
    return tree.tree_unflatten(treedef, scanned)


__all__ = ["associative_scan"]
