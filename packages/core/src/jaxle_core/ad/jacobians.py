"""Jacobians and Hessians: ``jacfwd``, ``jacrev`` and ``hessian``.

As in JAX, the derivative is applied to the whole standard basis at once under
``vmap``: ``jacfwd`` maps the jvp over a basis of the inputs, ``jacrev`` the
pullback over a basis of the outputs. The basis is one identity matrix over all
flattened leaves, cut into one block per leaf; the batched result is cut the
same way into arrays of shape ``output.shape + input.shape``, nested as a pytree
of the outputs whose leaves are pytrees of the inputs (the "tree product").
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

import jaxle_tree as tree
from jaxle_core import dtypes, lax
from jaxle_core.ad.jvp import jvp
from jaxle_core.ad.reverse import argument_dtype, check_input_dtype, check_output_dtype, split_argnums, vjp
from jaxle_core.avals import ShapedArray, get_aval
from jaxle_core.batching.api import vmap
from jaxle_core.core import check_callable
from jaxle_core.lax.structural import convert_element_type_p
from jaxle_core.sharding import NamedSharding, PartitionSpec


def _eye(n: int, dtype: np.dtype) -> Any:
    """The ``n x n`` identity of ``dtype``, built from iotas as ``jnp.eye`` does."""
    rows = lax.broadcasted_iota(np.int32, (n, n), 0)
    cols = lax.broadcasted_iota(np.int32, (n, n), 1)
    return lax.convert_element_type(lax.eq(lax.add(rows, np.int32(0)), cols), dtype)


def _cast(x: Any, aval: ShapedArray, layout: NamedSharding | None) -> Any:
    """``x`` converted to ``aval``'s dtype and weak type (real part of complex ``x`` for a real target); a conversion
    to its own type is staged only when it carries a ``layout``."""
    if dtypes.issubdtype(get_aval(x).dtype, np.complexfloating) and \
            not dtypes.issubdtype(aval.dtype, np.complexfloating):
        x = lax.real(x)
    current = get_aval(x)
    if layout is None and (current.dtype, current.weak_type) == (aval.dtype, aval.weak_type):
        return x
    return convert_element_type_p.bind(x, new_dtype=aval.dtype, weak_type=aval.weak_type, sharding=layout)


def _basis_layout(aval: ShapedArray) -> NamedSharding:
    """The layout JAX gives a block of the standard basis: the leaf's, after a leading unsharded dimension. JAX
    stages the block's conversion for it even where the type does not change."""
    leaf = aval.sharding
    return NamedSharding(leaf.mesh, PartitionSpec(None, *leaf.spec))


def _reshape(x: Any, shape: tuple[int, ...]) -> Any:
    """``x`` reshaped as JAX reshapes a Jacobian's blocks: through NumPy's ``reshape`` where arrays have the
    method (jaxle.numpy installs it), so NumPy's frames locate the operation as they locate JAX's."""
    return np.reshape(x, shape) if hasattr(type(x), "reshape") else lax.reshape(x, shape)


def _unravel(avals: Sequence[ShapedArray], axis: int, arr: Any, example: ShapedArray | None) -> list[Any]:
    """Dimension ``axis`` of ``arr`` cut into one array per leaf of ``avals``, shaped like it in its place.

    Each block takes the type of ``example`` (converted only where it differs) or, without one, that of its leaf
    (always converted, as the standard basis is).
    """
    shape = get_aval(arr).shape
    blocks = []
    for part, aval in zip(lax.split(arr, [np.int64(a.size) for a in avals], axis), avals):
        target = shape[:axis] + aval.shape + shape[axis + 1:]
        part = part if get_aval(part).shape == target else _reshape(part, target)
        blocks.append(_cast(part, aval, _basis_layout(aval)) if example is None else _cast(part, example, None))
    return blocks


def _type_example(aval: ShapedArray) -> Any:
    """A scalar of ``aval``'s type for ``result_type``: a Python scalar when weakly typed."""
    if aval.weak_type:
        return np.zeros((), aval.dtype).item()
    return np.zeros((), aval.dtype)


def _std_basis(avals: Sequence[ShapedArray]) -> list[Any]:
    """For each leaf, its part of the standard basis of all leaves: shape ``(total size,) + leaf.shape``."""
    if not avals:  # JAX takes the basis's dtype from the leaves: NumPy's error for none
        raise ValueError("at least one array or dtype is required")
    dtype = dtypes.result_type(*map(_type_example, avals))
    return _unravel(avals, 1, _eye(sum(a.size for a in avals), dtype), None)


def _tree_product(out_tree: Any, in_tree: Any, blocks: list[list[Any]]) -> Any:
    """``blocks[o][i]`` arranged as the output pytree whose leaves are input pytrees."""
    return tree.tree_unflatten(out_tree, [tree.tree_unflatten(in_tree, row) for row in blocks])


def _check_jacfwd_input(x: Any, holomorphic: bool) -> None:
    dtype = argument_dtype(x)
    if holomorphic:
        if not dtypes.issubdtype(dtype, np.complexfloating):
            raise TypeError(f"jacfwd with holomorphic=True requires inputs with complex dtype, but got {dtype.name}.")
    elif not dtypes.issubdtype(dtype, np.floating):
        raise TypeError(f"jacfwd requires real-valued inputs (input dtype that is a sub-dtype of np.floating), but "
                        f"got {dtype.name}. For holomorphic differentiation, pass holomorphic=True. For "
                        "differentiation of non-holomorphic functions involving complex inputs or integer inputs, "
                        "use jax.jvp directly.")


def _split_in_bounds(fun: Callable, argnums: int | Sequence[int], args: tuple, kwargs: dict) -> tuple[Callable, tuple]:
    """``split_argnums``, a position outside the call's positional arguments being JAX's ValueError."""
    for i in (argnums,) if isinstance(argnums, int) else argnums:
        if not -len(args) <= i < len(args):
            raise ValueError("Positional argument indices, e.g. for `static_argnums`, must have value greater than "
                             f"or equal to -len(args) and less than len(args), but got value {i} for len(args) == "
                             f"{len(args)}.")
    return split_argnums(fun, argnums, args, kwargs)


def jacfwd(fun: Callable, argnums: int | Sequence[int] = 0, has_aux: bool = False,
           holomorphic: bool = False) -> Callable:
    """The Jacobian of ``fun`` with respect to ``argnums`` by forward mode (the jvp vmapped over a basis)."""
    check_callable(fun)

    @functools.wraps(fun)
    def jacfwd_fun(*args, **kwargs):
        partial_fun, dyn_args = _split_in_bounds(fun, argnums, args, kwargs)
        in_flat, in_tree = tree.tree_flatten(dyn_args[0] if isinstance(argnums, int) else dyn_args)
        for x in in_flat:
            _check_jacfwd_input(x, holomorphic)
        in_avals = [get_aval(x) for x in in_flat]
        basis = tree.tree_unflatten(tree.tree_structure(dyn_args), _std_basis(in_avals))

        def pushforward(tangents):
            return jvp(partial_fun, dyn_args, tangents, has_aux=has_aux)

        results = vmap(pushforward, out_axes=(None, -1, None) if has_aux else (None, -1))(basis)
        out_flat, out_tree = tree.tree_flatten(results[0])
        if holomorphic:
            for y in out_flat:
                check_output_dtype("jacfwd", get_aval(y).dtype, True)
        blocks = [_unravel(in_avals, get_aval(j).ndim - 1, j, get_aval(y))
                  for y, j in zip(out_flat, tree.tree_leaves(results[1]))]
        jac = _tree_product(out_tree, in_tree, blocks)
        return (jac, results[2]) if has_aux else jac

    return jacfwd_fun


def jacrev(fun: Callable, argnums: int | Sequence[int] = 0, has_aux: bool = False, holomorphic: bool = False,
           allow_int: bool = False) -> Callable:
    """The Jacobian of ``fun`` with respect to ``argnums`` by reverse mode (the pullback vmapped over a basis)."""
    check_callable(fun)

    @functools.wraps(fun)
    def jacrev_fun(*args, **kwargs):
        partial_fun, dyn_args = _split_in_bounds(fun, argnums, args, kwargs)
        in_flat, in_tree = tree.tree_flatten(dyn_args[0] if isinstance(argnums, int) else dyn_args)
        for x in in_flat:
            check_input_dtype("jacrev", x, holomorphic, allow_int)
        results = vjp(partial_fun, *dyn_args, has_aux=has_aux)
        out_flat, out_tree = tree.tree_flatten(results[0])
        out_avals = [get_aval(y) for y in out_flat]
        for aval in out_avals:
            check_output_dtype("jacrev", aval.dtype, holomorphic)
        cts = vmap(results[1])(tree.tree_unflatten(out_tree, _std_basis(out_avals)))
        columns = [_unravel(out_avals, 0, j, get_aval(x))
                   for x, j in zip(in_flat, tree.tree_leaves(cts[0] if isinstance(argnums, int) else cts))]
        jac = _tree_product(out_tree, in_tree, [list(row) for row in zip(*columns)] if columns else [])
        return (jac, results[2]) if has_aux else jac

    return jacrev_fun


def hessian(fun: Callable, argnums: int | Sequence[int] = 0, has_aux: bool = False,
            holomorphic: bool = False) -> Callable:
    """The Hessian of scalar ``fun``: ``jacfwd(jacrev(fun))``."""
    return jacfwd(jacrev(fun, argnums, has_aux, holomorphic), argnums, has_aux, holomorphic)
