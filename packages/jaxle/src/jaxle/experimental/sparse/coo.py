"""``jax.experimental.sparse.coo``: the legacy coordinate format ``COO`` (a matrix given by ``data``, ``row`` and
``col``), with its primitives; it shares the BCOO machinery."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np

from jaxle import numpy as jnp
from jaxle.experimental.sparse import bcoo
from jaxle.experimental.sparse._base import JAXSparse
from jaxle.experimental.sparse._primitives import define_multilinear, define_primitive
from jaxle.experimental.sparse.util import SparseInfo
from jaxle_core.avals import ShapedArray
from jaxle_tree import register_pytree_node_class

__all__ = ["COO", "COOInfo", "coo_fromdense", "coo_fromdense_p", "coo_matmat", "coo_matmat_p", "coo_matvec",
           "coo_matvec_p", "coo_todense", "coo_todense_p", "operand_of_rank"]


class COOInfo(NamedTuple):
    """The static part of a COO matrix: its shape and whether its rows (or columns) are sorted."""

    shape: tuple[int, ...]
    rows_sorted: bool = False
    cols_sorted: bool = False


def _indices(row, col):
    return jnp.stack([row, col], axis=-1)


def _todense_impl(data, row, col, *, spinfo):
    return bcoo._todense_impl(data, _indices(row, col), spinfo=SparseInfo(spinfo.shape))


coo_todense_p = define_primitive("coo_todense", _todense_impl,
                                 lambda data, row, col, *, spinfo: ShapedArray(tuple(spinfo.shape), data.dtype))
define_multilinear(coo_todense_p, _todense_impl, [0])


def coo_todense(mat: COO) -> Any:
    """The dense matrix of a COO matrix."""
    return coo_todense_p.bind(mat.data, mat.row, mat.col, spinfo=mat._info)


def _fromdense_impl(mat, *, nse, index_dtype):
    data, indices = bcoo._nonzero_entries(mat, nse=nse, n_dense=0, index_dtype=index_dtype)
    return data, indices[:, 0], indices[:, 1]


def _fromdense_abstract_eval(mat, *, nse, index_dtype):
    return [ShapedArray((nse,), mat.dtype), ShapedArray((nse,), np.dtype(index_dtype)),
            ShapedArray((nse,), np.dtype(index_dtype))]


coo_fromdense_p = define_primitive("coo_fromdense", _fromdense_impl, _fromdense_abstract_eval, True)


def coo_fromdense(mat: Any, *, nse: int | None = None, index_dtype: Any = jnp.int32) -> COO:
    """The COO matrix of ``mat``'s nonzero entries."""
    mat = jnp.asarray(mat)
    if mat.ndim != 2:
        raise ValueError(f"COO matrices must be two-dimensional; got shape {mat.shape}")
    nse = bcoo.static_nse(mat, nse, 0, 0)
    data, row, col = coo_fromdense_p.bind(mat, nse=nse, index_dtype=np.dtype(index_dtype).type)
    return COO((data, row, col), shape=mat.shape, rows_sorted=True)


def _product_impl(data, row, col, v, *, spinfo, transpose):
    dims = (((0 if transpose else 1,), (0,)), ((), ()))
    return bcoo._dot_general_impl(data, _indices(row, col), v, dimension_numbers=dims,
                                  lhs_spinfo=SparseInfo(spinfo.shape),
                                  preferred_element_type=np.result_type(data.dtype, v.dtype))


def _product_abstract_eval(data, row, col, v, *, spinfo, transpose):
    rows, cols = spinfo.shape[::-1] if transpose else spinfo.shape
    if v.shape[0] != cols:
        raise TypeError(f"matrix of shape {spinfo.shape} cannot multiply operand of shape {v.shape}")
    return ShapedArray((rows, *v.shape[1:]), np.result_type(data.dtype, v.dtype))


coo_matvec_p = define_primitive("coo_matvec", _product_impl, _product_abstract_eval)
coo_matmat_p = define_primitive("coo_matmat", _product_impl, _product_abstract_eval)
define_multilinear(coo_matvec_p, _product_impl, [0, 3])
define_multilinear(coo_matmat_p, _product_impl, [0, 3])


def operand_of_rank(function: str, name: str, x: Any, ndim: int) -> Any:
    """``x`` as an array, which must have ``ndim`` dimensions (JAX's ValueError otherwise)."""
    x = jnp.asarray(x)
    if x.ndim != ndim:
        raise ValueError(f"{function}: {name} must be {('one', 'two')[ndim - 1]}-dimensional; got shape {x.shape}")
    return x


def coo_matvec(mat: COO, v: Any, transpose: bool = False) -> Any:
    """The product of a COO matrix (or its transpose) and a vector."""
    v = operand_of_rank("coo_matvec", "v", v, 1)
    return coo_matvec_p.bind(mat.data, mat.row, mat.col, v, spinfo=mat._info, transpose=transpose)


def coo_matmat(mat: COO, B: Any, *, transpose: bool = False) -> Any:
    """The product of a COO matrix (or its transpose) and a matrix."""
    B = operand_of_rank("coo_matmat", "B", B, 2)
    return coo_matmat_p.bind(mat.data, mat.row, mat.col, B, spinfo=mat._info, transpose=transpose)


@register_pytree_node_class
class COO(JAXSparse):
    """A sparse matrix in coordinate format: ``COO((data, row, col), shape=shape)``."""

    _bufs = ("data", "row", "col")

    def __init__(self, args: tuple[Any, Any, Any], *, shape: Sequence[int], rows_sorted: bool = False,
                 cols_sorted: bool = False):
        self.data, self.row, self.col = map(jnp.asarray, args)
        self.rows_sorted, self.cols_sorted = rows_sorted, cols_sorted
        super().__init__(args, shape=shape)

    @property
    def dtype(self) -> Any:
        return self.data.dtype

    @property
    def nse(self) -> int:
        return self.data.shape[0]

    @property
    def _info(self) -> COOInfo:
        return COOInfo(self.shape, self.rows_sorted, self.cols_sorted)

    def tree_flatten(self):
        return (self.data, self.row, self.col), self._info._asdict()

    @classmethod
    def fromdense(cls, mat: Any, *, nse: int | None = None, index_dtype: Any = np.int32) -> COO:
        """The COO matrix of ``mat``'s nonzero entries."""
        return coo_fromdense(mat, nse=nse, index_dtype=index_dtype)

    @classmethod
    def _empty(cls, shape: Sequence[int], *, dtype: Any = None, index_dtype: Any = "int32") -> COO:
        if len(shape) != 2:
            raise ValueError(f"COO must have ndim=2; got shape={tuple(shape)}")
        empty = jnp.zeros(0, index_dtype)
        return cls((jnp.zeros(0, dtype), empty, empty), shape=shape, rows_sorted=True, cols_sorted=True)

    @classmethod
    def _eye(cls, N: int, M: int, k: int, *, dtype: Any = None, index_dtype: Any = "int32") -> COO:
        eye = bcoo.BCOO._eye(N, M, k, dtype=dtype, index_dtype=index_dtype)
        return cls((eye.data, eye.indices[:, 0], eye.indices[:, 1]), shape=(N, M), rows_sorted=True,
                   cols_sorted=True)

    def _sort_indices(self) -> COO:
        """The matrix with its entries sorted by row."""
        if self.rows_sorted:
            return self
        order = jnp.lexsort((self.col, self.row))
        return COO((self.data[order], self.row[order], self.col[order]), shape=self.shape, rows_sorted=True)

    def todense(self) -> Any:
        """The dense matrix."""
        return coo_todense(self)

    def transpose(self, axes: Any = None) -> COO:
        """The transposed matrix."""
        if axes is not None and tuple(axes) != (1, 0):
            raise NotImplementedError("axes argument to transpose()")
        return COO((self.data, self.col, self.row), shape=self.shape[::-1], rows_sorted=self.cols_sorted,
                   cols_sorted=self.rows_sorted)

    def __matmul__(self, other: Any) -> Any:
        if isinstance(other, JAXSparse):
            raise NotImplementedError("matmul between two sparse objects.")
        other = jnp.asarray(other)
        return coo_matvec(self, other) if other.ndim == 1 else coo_matmat(self, other)

