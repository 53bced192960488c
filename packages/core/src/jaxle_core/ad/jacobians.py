"""Jacobians and Hessians: ``jacfwd``, ``jacrev`` and ``hessian``.

The function is linearized once; its jvp (``jacfwd``) or pullback (``jacrev``)
is then applied to each standard basis vector, and the results stacked into
arrays of shape ``output.shape + input.shape``, nested as a pytree of the
outputs whose leaves are pytrees of the inputs (the "tree product").

The basis vectors are applied one at a time; batching them into one
application is ``vmap``'s job and replaces the loop once ``vmap`` exists.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

import jaxle_tree as tree
from jaxle_core import dtypes, lax
from jaxle_core.ad.reverse import check_input_dtype, check_output_dtype, linearize, split_argnums, vjp
from jaxle_core.avals import ShapedArray, get_aval


def _basis(aval: ShapedArray) -> list[np.ndarray]:
    """The standard basis of arrays of ``aval``'s shape and dtype."""
    eye = np.eye(aval.size, dtype=aval.dtype)
    return [row.reshape(aval.shape) for row in eye]


def _stack(values: list[Any], leading: tuple[int, ...], aval: ShapedArray) -> Any:
    """Arrays of ``aval`` stacked into one of shape ``leading + aval.shape``."""
    shape = tuple(leading) + aval.shape
    if not values:
        return lax.full(shape, 0, aval.dtype)
    rows = [lax.reshape(v, (1, *aval.shape)) for v in values]
    joined = rows[0] if len(rows) == 1 else lax.concatenate(rows, 0)
    return lax.reshape(joined, shape)


def _move_leading_to_back(x: Any, n_leading: int) -> Any:
    ndim = get_aval(x).ndim
    perm = tuple(range(n_leading, ndim)) + tuple(range(n_leading))
    return x if perm == tuple(range(ndim)) else lax.transpose(x, perm)


def _tree_product(out_tree: Any, in_tree: Any, blocks: list[list[Any]]) -> Any:
    """``blocks[o][i]`` arranged as the output pytree whose leaves are input pytrees."""
    return tree.tree_unflatten(out_tree, [tree.tree_unflatten(in_tree, row) for row in blocks])


def _zeros_like(x: Any) -> np.ndarray:
    aval = get_aval(x)
    return np.zeros(aval.shape, aval.dtype)


def _check_jacfwd_input(x: Any, holomorphic: bool) -> None:
    dtype = get_aval(x).dtype
    if holomorphic:
        if not dtypes.issubdtype(dtype, np.complexfloating):
            raise TypeError(f"jacfwd with holomorphic=True requires inputs with complex dtype, but got {dtype.name}.")
    elif not dtypes.issubdtype(dtype, np.floating):
        raise TypeError(f"jacfwd requires real-valued inputs (input dtype that is a sub-dtype of np.floating), but "
                        f"got {dtype.name}. For holomorphic differentiation, pass holomorphic=True. For "
                        "differentiation of non-holomorphic functions involving complex inputs or integer inputs, "
                        "use jax.jvp directly.")


def jacfwd(fun: Callable, argnums: int | Sequence[int] = 0, has_aux: bool = False,
           holomorphic: bool = False) -> Callable:
    """The Jacobian of ``fun`` with respect to ``argnums`` by forward mode (one jvp per input element)."""

    @functools.wraps(fun)
    def jacfwd_fun(*args, **kwargs):
        partial_fun, dyn_args = split_argnums(fun, argnums, args, kwargs)
        dyn = dyn_args[0] if isinstance(argnums, int) else dyn_args
        in_flat, in_tree = tree.tree_flatten(dyn)
        for x in in_flat:
            _check_jacfwd_input(x, holomorphic)
        results = linearize(partial_fun, *dyn_args, has_aux=has_aux)
        out, f_jvp = results[:2]
        out_flat, out_tree = tree.tree_flatten(out)
        if holomorphic:
            for y in out_flat:
                check_output_dtype("jacfwd", get_aval(y).dtype, True)
        zeros = [_zeros_like(x) for x in in_flat]
        blocks: list[list[Any]] = [[] for _ in out_flat]
        for i, x in enumerate(in_flat):
            in_aval = get_aval(x)
            columns = []
            for e in _basis(in_aval):
                tangent = tree.tree_unflatten(in_tree, zeros[:i] + [e] + zeros[i + 1:])
                given = (tangent,) if isinstance(argnums, int) else tangent
                columns.append(tree.tree_leaves(f_jvp(*given)))
            for o, y in enumerate(out_flat):
                stacked = _stack([c[o] for c in columns], in_aval.shape, get_aval(y))
                blocks[o].append(_move_leading_to_back(stacked, in_aval.ndim))
        jac = _tree_product(out_tree, in_tree, blocks)
        return (jac, results[2]) if has_aux else jac

    return jacfwd_fun


def jacrev(fun: Callable, argnums: int | Sequence[int] = 0, has_aux: bool = False, holomorphic: bool = False,
           allow_int: bool = False) -> Callable:
    """The Jacobian of ``fun`` with respect to ``argnums`` by reverse mode (one pullback per output element)."""

    @functools.wraps(fun)
    def jacrev_fun(*args, **kwargs):
        partial_fun, dyn_args = split_argnums(fun, argnums, args, kwargs)
        dyn = dyn_args[0] if isinstance(argnums, int) else dyn_args
        in_flat, in_tree = tree.tree_flatten(dyn)
        for x in in_flat:
            check_input_dtype("jacrev", x, holomorphic, allow_int)
        results = vjp(partial_fun, *dyn_args, has_aux=has_aux)
        out, f_vjp = results[:2]
        out_flat, out_tree = tree.tree_flatten(out)
        for y in out_flat:
            check_output_dtype("jacrev", get_aval(y).dtype, holomorphic)
        zeros = [_zeros_like(y) for y in out_flat]
        blocks: list[list[Any]] = []
        for o, y in enumerate(out_flat):
            out_aval = get_aval(y)
            rows = []
            for e in _basis(out_aval.strip_weak_type()):
                ct = f_vjp(tree.tree_unflatten(out_tree, zeros[:o] + [e] + zeros[o + 1:]))
                rows.append(tree.tree_leaves(ct[0] if isinstance(argnums, int) else ct))
            blocks.append([_stack([r[i] for r in rows], out_aval.shape, get_aval(x).update(weak_type=False))
                           for i, x in enumerate(in_flat)])
        jac = _tree_product(out_tree, in_tree, blocks)
        return (jac, results[2]) if has_aux else jac

    return jacrev_fun


def hessian(fun: Callable, argnums: int | Sequence[int] = 0, has_aux: bool = False,
            holomorphic: bool = False) -> Callable:
    """The Hessian of scalar ``fun``: ``jacfwd(jacrev(fun))``."""
    return jacfwd(jacrev(fun, argnums, has_aux, holomorphic), argnums, has_aux, holomorphic)
