"""``jax.experimental.sparse.api``: format-independent constructors (``empty``, ``eye``) and ``todense``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from jaxle import numpy as jnp
from jaxle.experimental.sparse._base import JAXSparse
from jaxle.experimental.sparse._primitives import define_primitive, jvp_rules, transpose_rules
from jaxle.experimental.sparse.bcoo import BCOO
from jaxle_core.ad.jvp import Zero
from jaxle_core.ad.reverse import vjp
from jaxle_core.avals import ShapedArray, get_aval
from jaxle_tree import tree_flatten, tree_unflatten

__all__ = ["empty", "eye", "todense", "todense_p"]


def _formats() -> dict[str, type[JAXSparse]]:
    from jaxle.experimental.sparse.bcsr import BCSR
    from jaxle.experimental.sparse.coo import COO
    from jaxle.experimental.sparse.csr import CSC, CSR

    return {"bcoo": BCOO, "bcsr": BCSR, "coo": COO, "csr": CSR, "csc": CSC}


def _todense_impl(*buffers: Any, tree: Any) -> Any:
    value = tree_unflatten(tree, buffers)
    return value.todense() if isinstance(value, JAXSparse) else value


def _todense_abstract_eval(*avals: Any, tree: Any) -> ShapedArray:
    value = tree_unflatten(tree, avals)
    return ShapedArray(tuple(value.shape), avals[0].dtype, weak_type=avals[0].weak_type and len(avals) == 1)


todense_p = define_primitive("todense", _todense_impl, _todense_abstract_eval)


def todense(arr: Any) -> Any:
    """The dense array of a sparse array (a dense array is returned as it is)."""
    buffers, tree = tree_flatten(arr if isinstance(arr, JAXSparse) else jnp.asarray(arr))
    return todense_p.bind(*buffers, tree=tree)


def _todense_jvp(primals, tangents, *, tree):
    out = todense_p.bind(*primals, tree=tree)
    if type(tangents[0]) is Zero:
        return out, Zero(get_aval(out))
    return out, todense_p.bind(tangents[0], *primals[1:], tree=tree)


def _todense_transpose(ct, data, *others, tree):
    if type(ct) is Zero:
        return [Zero(data.aval), *[None] * len(others)]
    _, pullback = vjp(lambda d: _todense_impl(d, *others, tree=tree), jnp.zeros(data.aval.shape, data.aval.dtype))
    return [pullback(ct)[0], *[None] * len(others)]


jvp_rules[todense_p] = _todense_jvp
transpose_rules[todense_p] = _todense_transpose


def _format(sparse_format: str) -> type[JAXSparse]:
    formats = _formats()
    if sparse_format not in formats:
        raise ValueError(f"sparse_format={sparse_format!r} not recognized; must be one of {list(formats)}")
    return formats[sparse_format]


def empty(shape: Sequence[int], dtype: Any = None, index_dtype: Any = "int32", sparse_format: str = "bcoo",
          **kwds: Any) -> JAXSparse:
    """An all-zero sparse array of ``shape`` in ``sparse_format`` ('bcoo', 'bcsr', 'coo', 'csr', 'csc')."""
    return _format(sparse_format)._empty(shape, dtype=dtype or jnp.float32, index_dtype=index_dtype, **kwds)


def eye(N: int, M: int | None = None, k: int = 0, dtype: Any = None, index_dtype: Any = "int32",
        sparse_format: str = "bcoo", **kwds: Any) -> JAXSparse:
    """The ``N x M`` sparse matrix of ones on diagonal ``k``."""
    return _format(sparse_format)._eye(N, N if M is None else M, k, dtype=dtype or jnp.float32,
                                       index_dtype=index_dtype, **kwds)
