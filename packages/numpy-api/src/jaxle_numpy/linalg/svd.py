"""The singular value decomposition: ``svd`` (through ``eigh`` for Hermitian matrices, as JAX 0.10.2 does) and
``svdvals``."""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from jaxle_core.avals import get_aval
from jaxle_core.lax import linalg as lax_linalg
from jaxle_core.lax import sorting as lax_sorting
from jaxle_core.lax import structural as lax_structural
from jaxle_numpy import ufuncs
from jaxle_numpy.linalg.factorizations import conjugate_transpose, inexact_operand
from jaxle_numpy.selection import take_along_axis
from jaxle_numpy.util import check_arraylike, named_jit

__all__ = ["SVDResult", "svd", "svdvals"]


class SVDResult(NamedTuple):
    """``svd``'s result: ``U``, the descending singular values ``S`` and ``Vh`` (``a = U diag(S) Vh``)."""
    U: Any
    S: Any
    Vh: Any


def _hermitian_svd(a: Any, compute_uv: bool, subset_by_index: tuple[int, int] | None) -> Any:
    """The SVD of Hermitian matrices from their eigendecomposition: the singular values are the eigenvalues'
    magnitudes in descending order, the eigenvectors (reordered the same way) U, and Vh = (U sign(w))^H."""
    vectors, values = lax_linalg.eigh(a, subset_by_index=subset_by_index)
    magnitudes = ufuncs.abs(values)
    last = get_aval(magnitudes).ndim - 1
    if not compute_uv:
        return lax_structural.rev(lax_sorting.sort(magnitudes, dimension=last), (last,))
    signs = ufuncs.sign(values)
    order = lax_structural.broadcasted_iota(np.uint32, get_aval(magnitudes).shape, last)
    magnitudes, order, signs = (lax_structural.rev(x, (last,)) for x in lax_sorting.sort(
        (magnitudes, order, signs), dimension=last, num_keys=1))
    u = take_along_axis(vectors, lax_structural.expand_dims(order, (last,)), axis=-1)
    vh = conjugate_transpose(ufuncs.multiply(u, lax_structural.expand_dims(signs, (last,))))
    return SVDResult(u, magnitudes, vh)


@named_jit("svd", ("full_matrices", "compute_uv", "hermitian", "subset_by_index"))
def svd(a: Any, full_matrices: bool = True, compute_uv: bool = True, hermitian: bool = False,
        subset_by_index: tuple[int, int] | None = None) -> Any:
    """The singular value decomposition of each matrix: ``SVDResult(U, S, Vh)`` with ``a = U diag(S) Vh`` and S
    descending, or ``S`` alone without ``compute_uv``; ``hermitian`` matrices are decomposed through ``eigh``."""
    a = inexact_operand("svd", a)
    if hermitian:
        return _hermitian_svd(a, compute_uv, subset_by_index)
    if not compute_uv:
        return lax_linalg.svd(a, full_matrices=full_matrices, compute_uv=False, subset_by_index=subset_by_index)
    u, s, vh = lax_linalg.svd(a, full_matrices=full_matrices, compute_uv=True, subset_by_index=subset_by_index)
    return SVDResult(u, s, vh)


def svdvals(x: Any, /) -> Any:
    """The singular values of each matrix, descending."""
    check_arraylike("jnp.linalg.svdvals", x)
    return svd(x, compute_uv=False, hermitian=False)
