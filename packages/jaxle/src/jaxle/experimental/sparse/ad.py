"""``jax.experimental.sparse.ad``: derivatives with respect to sparse arrays, taken with respect to their stored
values only (the indices stay as they are); the results are sparse arrays of the same indices."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import jaxle
from jaxle.experimental.sparse._base import JAXSparse
from jaxle_tree import tree_flatten, tree_unflatten

__all__ = ["grad", "jacfwd", "jacobian", "jacrev", "value_and_grad"]


def _is_sparse(x: Any) -> bool:
    return isinstance(x, JAXSparse)


def _data_view(fun: Callable[..., Any], args: tuple, argnums: int | Sequence[int]):
    """``fun`` as a function of the data of the sparse arguments at ``argnums`` (dense ones as they are), those
    arguments' data, and a function rebuilding a derivative of the data into the argument's format."""
    nums = (argnums,) if isinstance(argnums, int) else tuple(argnums)
    structures = {}
    diff_args = []
    for i in nums:
        leaves, tree = tree_flatten(args[i], is_leaf=_is_sparse)
        structures[i] = (tree, leaves)
        diff_args.append([x.data if _is_sparse(x) else x for x in leaves])

    def wrapped(*values, **kwargs):
        full = list(args)
        for i, datas in zip(nums, values):
            tree, leaves = structures[i]
            full[i] = tree_unflatten(tree, [_with_data(x, d) if _is_sparse(x) else d for x, d in zip(leaves, datas)])
        return fun(*full, **kwargs)

    def rebuild(i: int, derivative: list, batch_shape: tuple = ()) -> Any:
        tree, leaves = structures[i]
        return tree_unflatten(tree, [_batched_like(x, d, batch_shape) if _is_sparse(x) else d
                                     for x, d in zip(leaves, derivative)])

    return wrapped, diff_args, nums, rebuild


def _with_data(x: JAXSparse, data: Any) -> JAXSparse:
    buffers, tree = tree_flatten(x)
    return tree_unflatten(tree, [data, *buffers[1:]])


def _batched_like(x: JAXSparse, data: Any, batch_shape: tuple) -> JAXSparse:
    """A sparse array of ``x``'s indices holding ``data``, whose leading ``batch_shape`` dimensions (a Jacobian's
    output dimensions) become leading batch dimensions."""
    if not batch_shape:
        return _with_data(x, data)
    buffers, tree = tree_flatten(x)
    expanded = [b.reshape((1,) * len(batch_shape) + b.shape) for b in buffers[1:]]
    rebuilt = tree_unflatten(tree, [data, *expanded])
    rebuilt.shape = tuple(batch_shape) + tuple(x.shape)
    return rebuilt


def _unpack(result: Any, nums: tuple, argnums: Any, rebuild: Callable[..., Any]):
    parts = [rebuild(i, d) for i, d in zip(nums, result)]
    return parts[0] if isinstance(argnums, int) else tuple(parts)


def value_and_grad(fun: Callable, argnums: int | Sequence[int] = 0, has_aux: bool = False,
                   **kwargs: Any) -> Callable[..., tuple[Any, Any]]:
    """``jax.value_and_grad`` whose gradient with respect to a sparse argument is a sparse array of its indices."""

    def vg(*args, **kw):
        wrapped, diff_args, nums, rebuild = _data_view(fun, args, argnums)
        value, grads = jaxle.value_and_grad(wrapped, argnums=tuple(range(len(nums))), has_aux=has_aux,
                                            **kwargs)(*diff_args, **kw)
        return value, _unpack(grads, nums, argnums, rebuild)

    return vg


def grad(fun: Callable, argnums: int | Sequence[int] = 0, has_aux: bool = False, **kwargs: Any) -> Callable:
    """``jax.grad`` whose gradient with respect to a sparse argument is a sparse array of its indices."""
    value_and_grad_fun = value_and_grad(fun, argnums, has_aux=has_aux, **kwargs)

    def g(*args, **kw):
        value, grads = value_and_grad_fun(*args, **kw)
        return (grads, value[1]) if has_aux else grads

    return g


def _jacobian(transform: Callable, fun: Callable, argnums: int | Sequence[int], has_aux: bool,
              **kwargs: Any) -> Callable:
    def jac(*args, **kw):
        wrapped, diff_args, nums, rebuild = _data_view(fun, args, argnums)
        out = transform(wrapped, argnums=tuple(range(len(nums))), has_aux=has_aux, **kwargs)(*diff_args, **kw)
        jacobians, aux = out if has_aux else (out, None)
        # a Jacobian's leading dimensions are the output's: the data's own shape follows them
        parts = []
        for i, per_arg in zip(nums, jacobians):
            leaves, _ = tree_flatten(args[i], is_leaf=_is_sparse)
            batch = [d.shape[:d.ndim - (x.data.ndim if _is_sparse(x) else jaxle.numpy.ndim(x))]
                     for x, d in zip(leaves, per_arg)]
            parts.append(_rebuild_jacobian(rebuild, i, per_arg, batch))
        result = parts[0] if isinstance(argnums, int) else tuple(parts)
        return (result, aux) if has_aux else result

    return jac


def _rebuild_jacobian(rebuild: Callable[..., Any], i: int, derivative: list, batches: list) -> Any:
    """The derivative of argument ``i`` rebuilt, each sparse leaf with its own leading output dimensions."""
    shapes = {len(b) for b in batches}
    return rebuild(i, derivative, tuple(batches[0]) if len(shapes) == 1 and batches else ())


def jacfwd(fun: Callable, argnums: int | Sequence[int] = 0, has_aux: bool = False, **kwargs: Any) -> Callable:
    """``jax.jacfwd`` whose Jacobian with respect to a sparse argument is sparse (output dimensions batch)."""
    return _jacobian(jaxle.jacfwd, fun, argnums, has_aux, **kwargs)


def jacrev(fun: Callable, argnums: int | Sequence[int] = 0, has_aux: bool = False, **kwargs: Any) -> Callable:
    """``jax.jacrev`` whose Jacobian with respect to a sparse argument is sparse (output dimensions batch)."""
    return _jacobian(jaxle.jacrev, fun, argnums, has_aux, **kwargs)


jacobian = jacrev
