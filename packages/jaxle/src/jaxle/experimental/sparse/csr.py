"""``jax.experimental.sparse.csr``: the legacy compressed formats ``CSR`` (rows) and ``CSC`` (columns: the CSR
structure of the transpose), with the CSR primitives; they share the BCSR machinery."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from jaxle import numpy as jnp
from jaxle.experimental.sparse import bcoo, bcsr
from jaxle.experimental.sparse._base import JAXSparse
from jaxle.experimental.sparse._primitives import define_multilinear, define_primitive
from jaxle.experimental.sparse.coo import operand_of_rank
from jaxle.experimental.sparse.util import SparseInfo
from jaxle_core.avals import ShapedArray
from jaxle_tree import register_pytree_node_class

__all__ = ["CSC", "CSR", "csr_fromdense", "csr_fromdense_p", "csr_matmat", "csr_matmat_p", "csr_matvec",
           "csr_matvec_p", "csr_todense", "csr_todense_p"]


def _todense_impl(data, indices, indptr, *, shape):
    return bcsr._todense_impl(data, indices, indptr, spinfo=SparseInfo(tuple(shape)))


csr_todense_p = define_primitive("csr_todense", _todense_impl,
                                 lambda data, indices, indptr, *, shape: ShapedArray(tuple(shape), data.dtype))
define_multilinear(csr_todense_p, _todense_impl, [0])


def csr_todense(mat: CSR) -> Any:
    """The dense matrix of a CSR matrix."""
    return csr_todense_p.bind(mat.data, mat.indices, mat.indptr, shape=mat.shape)


def _fromdense_impl(mat, *, nse, index_dtype):
    return bcsr._fromdense_impl(mat, nse=nse, n_batch=0, n_dense=0, index_dtype=index_dtype)


def _fromdense_abstract_eval(mat, *, nse, index_dtype):
    return bcsr._fromdense_abstract_eval(mat, nse=nse, n_batch=0, n_dense=0, index_dtype=index_dtype)


csr_fromdense_p = define_primitive("csr_fromdense", _fromdense_impl, _fromdense_abstract_eval, True)


def csr_fromdense(mat: Any, *, nse: int | None = None, index_dtype: Any = np.int32) -> CSR:
    """The CSR matrix of ``mat``'s nonzero entries."""
    mat = jnp.asarray(mat)
    if mat.ndim != 2:
        raise ValueError(f"CSR matrices must be two-dimensional; got shape {mat.shape}")
    nse = bcoo.static_nse(mat, nse, 0, 0)
    data, indices, indptr = csr_fromdense_p.bind(mat, nse=nse, index_dtype=np.dtype(index_dtype))
    return CSR((data, indices, indptr), shape=mat.shape)


def _product_impl(data, indices, indptr, v, *, shape, transpose):
    dims = (((0 if transpose else 1,), (0,)), ((), ()))
    return bcsr._dot_general_impl(data, indices, indptr, v, dimension_numbers=dims,
                                  lhs_spinfo=SparseInfo(tuple(shape)),
                                  preferred_element_type=np.result_type(data.dtype, v.dtype))


def _product_abstract_eval(data, indices, indptr, v, *, shape, transpose):
    rows, cols = shape[::-1] if transpose else shape
    if v.shape[0] != cols:
        raise TypeError(f"matrix of shape {tuple(shape)} cannot multiply operand of shape {v.shape}")
    return ShapedArray((rows, *v.shape[1:]), np.result_type(data.dtype, v.dtype))


csr_matvec_p = define_primitive("csr_matvec", _product_impl, _product_abstract_eval)
csr_matmat_p = define_primitive("csr_matmat", _product_impl, _product_abstract_eval)
define_multilinear(csr_matvec_p, _product_impl, [0, 3])
define_multilinear(csr_matmat_p, _product_impl, [0, 3])


def csr_matvec(mat: CSR, v: Any, transpose: bool = False) -> Any:
    """The product of a CSR matrix (or its transpose) and a vector."""
    v = operand_of_rank("csr_matvec", "v", v, 1)
    return csr_matvec_p.bind(mat.data, mat.indices, mat.indptr, v, shape=mat.shape, transpose=transpose)


def csr_matmat(mat: CSR, B: Any, *, transpose: bool = False) -> Any:
    """The product of a CSR matrix (or its transpose) and a matrix."""
    B = operand_of_rank("csr_matmat", "B", B, 2)
    return csr_matmat_p.bind(mat.data, mat.indices, mat.indptr, B, shape=mat.shape, transpose=transpose)


class _Compressed(JAXSparse):
    """The buffers shared by CSR and CSC: ``data``, ``indices``, ``indptr``."""

    _bufs = ("data", "indices", "indptr")

    def __init__(self, args: tuple[Any, Any, Any], *, shape: Sequence[int]):
        self.data, self.indices, self.indptr = map(jnp.asarray, args)
        super().__init__(args, shape=shape)

    @property
    def dtype(self) -> Any:
        return self.data.dtype

    @property
    def nse(self) -> int:
        return self.data.shape[0]

    def tree_flatten(self):
        return (self.data, self.indices, self.indptr), {"shape": self.shape}

    @classmethod
    def _compressed_empty(cls, shape: Sequence[int], dtype: Any, index_dtype: Any, rows: int) -> Any:
        if len(shape) != 2:
            raise ValueError(f"{cls.__name__} must have ndim=2; got shape={tuple(shape)}")
        return cls((jnp.zeros(0, dtype), jnp.zeros(0, index_dtype), jnp.zeros(rows + 1, index_dtype)), shape=shape)


@register_pytree_node_class
class CSR(_Compressed):
    """A sparse matrix in compressed-row format: ``CSR((data, indices, indptr), shape=shape)``."""

    @classmethod
    def fromdense(cls, mat: Any, *, nse: int | None = None, index_dtype: Any = np.int32) -> CSR:
        """The CSR matrix of ``mat``'s nonzero entries."""
        return csr_fromdense(mat, nse=nse, index_dtype=index_dtype)

    @classmethod
    def _empty(cls, shape: Sequence[int], *, dtype: Any = None, index_dtype: Any = "int32") -> CSR:
        return cls._compressed_empty(shape, dtype, index_dtype, shape[0])

    @classmethod
    def _eye(cls, N: int, M: int, k: int, *, dtype: Any = None, index_dtype: Any = "int32") -> CSR:
        eye = bcsr.BCSR._eye(N, M, k, dtype=dtype, index_dtype=index_dtype)
        return cls((eye.data, eye.indices, eye.indptr), shape=(N, M))

    def todense(self) -> Any:
        """The dense matrix."""
        return csr_todense(self)

    def transpose(self, axes: Any = None) -> CSC:
        """The transposed matrix, in CSC format (the same buffers)."""
        if axes is not None and tuple(axes) != (1, 0):
            raise NotImplementedError("axes argument to transpose()")
        return CSC((self.data, self.indices, self.indptr), shape=self.shape[::-1])

    def __matmul__(self, other: Any) -> Any:
        if isinstance(other, JAXSparse):
            raise NotImplementedError("matmul between two sparse objects.")
        other = jnp.asarray(other)
        return csr_matvec(self, other) if other.ndim == 1 else csr_matmat(self, other)



@register_pytree_node_class
class CSC(_Compressed):
    """A sparse matrix in compressed-column format: ``CSC((data, indices, indptr), shape=shape)``, the CSR
    buffers of its transpose."""

    @classmethod
    def fromdense(cls, mat: Any, *, nse: int | None = None, index_dtype: Any = np.int32) -> CSC:
        """The CSC matrix of ``mat``'s nonzero entries."""
        return csr_fromdense(jnp.asarray(mat).T, nse=nse, index_dtype=index_dtype).T

    @classmethod
    def _empty(cls, shape: Sequence[int], *, dtype: Any = None, index_dtype: Any = "int32") -> CSC:
        return cls._compressed_empty(shape, dtype, index_dtype, shape[1])

    @classmethod
    def _eye(cls, N: int, M: int, k: int, *, dtype: Any = None, index_dtype: Any = "int32") -> CSC:
        return CSR._eye(M, N, -k, dtype=dtype, index_dtype=index_dtype).T

    def todense(self) -> Any:
        """The dense matrix."""
        return self.T.todense().T

    def transpose(self, axes: Any = None) -> CSR:
        """The transposed matrix, in CSR format (the same buffers)."""
        if axes is not None and tuple(axes) != (1, 0):
            raise NotImplementedError("axes argument to transpose()")
        return CSR((self.data, self.indices, self.indptr), shape=self.shape[::-1])

    def __matmul__(self, other: Any) -> Any:
        if isinstance(other, JAXSparse):
            raise NotImplementedError("matmul between two sparse objects.")
        other = jnp.asarray(other)
        return csr_matvec(self.T, other, transpose=True) if other.ndim == 1 else \
            csr_matmat(self.T, other, transpose=True)

