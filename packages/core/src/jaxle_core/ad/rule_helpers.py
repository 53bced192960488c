"""Building blocks for derivative rules used by several families: per-operand jvp terms, linear and
zero-derivative primitives, and the transpose helpers of padded window sweeps and contractions."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from jaxle_core import lax
from jaxle_core.ad.jvp import Zero, add_tangents, host_value_as_array, instantiate, jvp_rules, tangent_aval
from jaxle_core.ad.transpose import is_undefined
from jaxle_core.avals import ShapedArray, get_aval
from jaxle_core.core import Primitive, Tracer
from jaxle_core.lax.placement import reshard_p
from jaxle_core.lax.structural import convert_element_type_p
from jaxle_core.lax.windowed import dilate_shape
from jaxle_core.mesh import AbstractMesh, PartitionSpec, get_abstract_mesh, get_mesh
from jaxle_core.sharding import NamedSharding


def const(like: Any, value: Any) -> Any:
    """The scalar ``value`` as a constant of ``like``'s dtype (weakly typed when ``like`` is and can be)."""
    aval = get_aval(like)
    if aval.weak_type and type(value) in (int, float) and get_aval(value).dtype == aval.dtype:
        return value
    return np.array(value, aval.dtype)[()]


def one(like: Any) -> Any:
    """The scalar one of ``like``'s dtype, as JAX's rules make it: resharded to a replicated scalar over the mesh
    when ``like`` is typed over Explicit axes (a ``reshard`` of the literal in a jaxpr), the literal elsewhere."""
    sharding = getattr(get_aval(like), "explicit_sharding", None)
    scalar = const(like, 1.0)
    if sharding is None or (not isinstance(like, Tracer) and get_mesh().empty):
        return scalar  # (evaluated now outside set_mesh: no devices to lay the abstract layout over)
    return reshard_p.bind(scalar, dst_sharding=sharding.update(spec=PartitionSpec()))


def full_like(like: Any, value: Any) -> Any:
    """An array of ``like``'s shape, dtype and layout filled with ``value`` (a literal when ``like`` is a
    scalar)."""
    aval = get_aval(like)
    scalar = const(like, value)
    if not aval.shape:
        return scalar
    # laid out as ``like`` (over Explicit mesh axes), as JAX's full_like
    return lax.broadcast_in_dim(scalar, aval.shape, (), out_sharding=aval.explicit_sharding)


def broadcast_to_aval(x: Any, aval: ShapedArray) -> Any:
    """``x`` stretched to ``aval``'s shape the way elementwise primitives broadcast (rank 0 or size-1 dims)."""
    shape = get_aval(x).shape
    if shape == aval.shape:
        # a tangent given as a NumPy array or Python number comes out as an array of the output's type, as in JAX
        return host_value_as_array(x, aval)
    if not shape:
        return lax.broadcast_in_dim(x, aval.shape, ())
    kept = tuple(i for i, d in enumerate(shape) if d == aval.shape[i])
    squeezed = lax.reshape(x, tuple(shape[i] for i in kept))
    return lax.broadcast_in_dim(squeezed, aval.shape, kept)


def defjvp(primitive: Primitive, *terms: Callable[..., Any] | None) -> None:
    """The rule of ``primitive`` as a sum of one term per operand.

    ``terms[i](t, ans, *primals, **params)`` is the contribution of operand ``i``'s tangent ``t``
    (``None``: the primitive is not differentiable in that operand). Zero tangents contribute nothing.
    """

    def rule(primals, tangents, **params):
        ans = primitive.bind(*primals, **params)
        out_aval = get_aval(ans)
        total = Zero(tangent_aval(out_aval))
        if total.aval.dtype != out_aval.dtype:  # integer or boolean result
            return ans, total
        for term, t in zip(terms, tangents):
            if term is None or type(t) is Zero:
                continue
            total = add_tangents(total, broadcast_to_aval(term(t, ans, *primals, **params), out_aval))
        return ans, total

    jvp_rules[primitive] = rule


def defzero(primitive: Primitive) -> None:
    """``primitive`` has derivative zero everywhere it is defined (rounding, comparisons, bit operations)."""

    def rule(primals, tangents, **params):
        ans = primitive.bind(*primals, **params)
        if primitive.multiple_results:
            return ans, [Zero(tangent_aval(get_aval(a))) for a in ans]
        return ans, Zero(tangent_aval(get_aval(ans)))

    jvp_rules[primitive] = rule


def deflinear(primitive: Primitive, instantiate_zeros: bool = False) -> None:
    """``primitive`` is linear in all its operands jointly: the tangent is ``primitive`` of the tangents.

    With ``instantiate_zeros`` zero tangents become arrays (for primitives of several operands).
    """

    def rule(primals, tangents, **params):
        ans = primitive.bind(*primals, **params)
        ts = [instantiate(t) for t in tangents] if instantiate_zeros else tangents
        return ans, primitive.bind(*ts, **params)

    jvp_rules[primitive] = rule


def defbilinear(primitive: Primitive) -> None:
    """``primitive`` is linear in each of its two operands (a product): d(x·y) = dx·y + x·dy, zero terms skipped."""

    def rule(primals, tangents, **params):
        lhs, rhs = primals
        t_lhs, t_rhs = tangents
        ans = primitive.bind(lhs, rhs, **params)
        total = Zero(tangent_aval(get_aval(ans)))
        if type(t_lhs) is not Zero:
            total = add_tangents(total, primitive.bind(t_lhs, rhs, **params))
        if type(t_rhs) is not Zero:
            total = add_tangents(total, primitive.bind(lhs, t_rhs, **params))
        return ans, total

    jvp_rules[primitive] = rule


def deflinear_first(primitive: Primitive, instantiated: int = 1) -> None:
    """Linear in its first ``instantiated`` operands; the rest (indices) are passed through as primals."""

    def rule(primals, tangents, **params):
        ans = primitive.bind(*primals, **params)
        ts = [instantiate(t) for t in tangents[:instantiated]]
        return ans, primitive.bind(*ts, *primals[instantiated:], **params)

    jvp_rules[primitive] = rule


def manual_layout(ndim: int) -> NamedSharding | None:
    """Inside a ``shard_map`` body, the layout JAX's types give every rank-``ndim`` value there (over the manual
    mesh, no dimension split), which a transposition rule records as its result's ``out_sharding``; None
    elsewhere."""
    mesh = get_abstract_mesh()
    if not mesh.manual_axes or mesh.explicit_axes:  # (the other axes of a partly manual body: Auto)
        return None
    return NamedSharding(mesh, PartitionSpec(*[None] * ndim))


def auto_layout(aval: Any, ndim: int) -> NamedSharding | None:
    """Outside ``shard_map``, the layout a transposition records as the ``out_sharding`` of a rank-``ndim`` result
    standing for a value of ``aval`` typed over a mesh of Auto axes (that mesh, no dimension split, as JAX's record
    the operand's type); None elsewhere."""
    mesh = getattr(aval, "auto_mesh", None)
    if mesh is None or get_abstract_mesh().manual_axes:
        return None
    return NamedSharding(mesh, PartitionSpec(*[None] * ndim))


def typed_auto_mesh(aval: Any) -> Any:
    """The mesh of Auto axes a value of ``aval`` is typed over (that of ``set_mesh`` for a type naming none; none for
    a type over Explicit axes, such as a placement's result, whatever mesh its operand named)."""
    if getattr(aval, "explicit_sharding", None) is not None:
        return None
    mesh = getattr(aval, "auto_mesh", None)
    if mesh is None:
        context = get_abstract_mesh()
        mesh = None if context.empty or not context.are_all_axes_auto else context
    return mesh


def retyped_to_mesh(x: Any, mesh: Any) -> Any:
    """The traced ``x`` resharded to a type over ``mesh`` (of Auto axes, or none) when its own names another, as
    JAX's rules retype a tangent or cotangent; ``x`` itself otherwise."""
    if not isinstance(x, Tracer) or typed_auto_mesh(get_aval(x)) == mesh:
        return x
    return reshard_p.bind(x, dst_sharding=NamedSharding(mesh or AbstractMesh((), ()), PartitionSpec()))


def typed_layout(aval: Any, dropped: Sequence[int] = ()) -> NamedSharding | None:
    """The layout a transposition records as the ``out_sharding`` of a result standing for a value of ``aval`` typed
    over Explicit mesh axes (its type's, without the ``dropped`` dimensions, as JAX's record the operand's type);
    None for another."""
    sharding = getattr(aval, "explicit_sharding", None)
    if sharding is None or not dropped:
        return sharding
    spec = sharding.spec
    kept = [entry for i, entry in enumerate(spec.partitions) if i not in dropped]
    return sharding.update(spec=PartitionSpec(*kept, unreduced=spec.unreduced, reduced=spec.reduced))


def transposed_layout(aval: Any, ndim: int, dropped: Sequence[int] = ()) -> NamedSharding | None:
    """``manual_layout`` inside a ``shard_map`` body, ``typed_layout`` or ``auto_layout`` elsewhere (of a result of
    rank ``ndim``: ``aval``'s without its ``dropped`` dimensions)."""
    return manual_layout(ndim) or typed_layout(aval, dropped) or auto_layout(aval, ndim)


def operand_aval(x: Any) -> ShapedArray:
    """The abstract value of a transpose rule's operand, linear (``UndefinedPrimal``) or known."""
    return x.aval if is_undefined(x) else get_aval(x)


def lhs_transpose_padding(in_shape: Sequence[int], window: Sequence[int], strides: Sequence[int],
                          out_shape: Sequence[int], padding: Sequence[tuple[int, int]], lhs_dilation: Sequence[int],
                          rhs_dilation: Sequence[int]) -> tuple[tuple[int, int], ...]:
    """Pads making a sweep of the reversed window over the stride-dilated cotangent land on every input element."""
    pads = []
    for n, w, o, (lo, _) in zip(dilate_shape(in_shape, lhs_dilation), dilate_shape(window, rhs_dilation),
                                dilate_shape(out_shape, strides), padding):
        before = w - lo - 1
        pads.append((before, n + w - 1 - o - before))
    return tuple(pads)


def remaining_dims(ndim: int, *excluded: Sequence[int]) -> list[int]:
    """The dimensions of ``range(ndim)`` in none of the ``excluded`` groups, in order."""
    dropped = {int(d) for group in excluded for d in group}
    return [d for d in range(ndim) if d not in dropped]


Contract = Callable[[Any, Any, tuple, Any], Any]  # (x, y, dimension_numbers, out_sharding)


def dot_transpose_first(ct: Any, first: ShapedArray, second: Any, contracting: tuple, batch: tuple,
                        first_is_lhs: bool, contract: Contract, second_grouped: Sequence[int] = ()) -> Any:
    """The cotangent of ``first`` in ``dot_general(first, second)`` (operands possibly swapped).

    The result's dimensions are batch, lhs free, rhs free: ``ct`` is contracted with ``second`` over
    ``second``'s free dimensions (and batched over the batch ones) by ``contract(ct, second, dimension_numbers)``,
    then permuted into ``first``'s layout. ``second_grouped`` (a ragged rhs's group dimension) is not free.
    """
    first_contract, second_contract = contracting
    first_batch, second_batch = batch
    first_free = remaining_dims(first.ndim, first_contract, first_batch)
    second_free = remaining_dims(len(get_aval(second).shape), second_contract, second_batch, second_grouped)
    n_batch = len(first_batch)
    start = n_batch + (len(first_free) if first_is_lhs else len(second_free))
    ct_second_free = list(range(start, start + len(second_free))) if first_is_lhs else \
        list(range(n_batch, n_batch + len(second_free)))
    dims = ((tuple(ct_second_free), tuple(second_free)), (tuple(range(n_batch)), tuple(second_batch)))
    contract_in_second_order = [first_contract[i] for i in np.argsort(second_contract)]
    layout = list(first_batch) + first_free + contract_in_second_order
    product = contract(ct, second, dims, _product_sharding(first, layout))
    return as_operand_dtype(lax.transpose(product, tuple(int(i) for i in np.argsort(layout))), first)


def _product_sharding(first: ShapedArray, layout: list[int]) -> Any:
    """The layout of ``first``'s cotangent before its final transpose (dimension ``k`` is ``first``'s ``layout[k]``):
    ``first``'s own over Explicit mesh axes, as JAX's transpose asks of the contraction; None without one."""
    sharding = getattr(first, "explicit_sharding", None)
    if sharding is None:
        return None
    return sharding.update(spec=PartitionSpec(*(sharding.spec[d] for d in layout)))


def as_operand_dtype(ct: Any, operand: ShapedArray) -> Any:
    """A contraction's cotangent converted to its operand's dtype (it has the result's)."""
    if get_aval(ct).dtype != operand.dtype:
        ct = convert_element_type_p.bind(ct, new_dtype=operand.dtype, weak_type=operand.weak_type, sharding=None)
    return ct
