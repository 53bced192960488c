"""einsum and einsum_path: opt_einsum picks the order of pairwise contractions, each staged as one dot_general
(with reduce_sum for indices only one side has, and an identity mask for repeated indices)."""

from __future__ import annotations

import collections
from collections.abc import Callable
from typing import Any

import numpy as np
import opt_einsum

from jaxle_core import dtypes
from jaxle_core.array import Array
from jaxle_core.avals import get_aval
from jaxle_core.device_mismatch import is_device_mismatch, named_by_call
from jaxle_core.lax import elementwise as lax_elementwise
from jaxle_core.lax import reductions as lax_reductions
from jaxle_core.lax import structural as lax_structural
from jaxle_core.lax.dot import dot_general
from jaxle_core.mesh import PartitionSpec
from jaxle_core.sharding_types import checked_out_sharding, resolve_out_sharding
from jaxle_numpy.creation import asarray
from jaxle_numpy.util import check_arraylike, eager_array, passed_through

__all__ = ["einsum", "einsum_path"]

# What opt_einsum needs to know of an operand to plan a contraction.
_ShapeOnly = collections.namedtuple("_ShapeOnly", ["shape", "dtype"])


class _InOrder(opt_einsum.paths.PathOptimizer):
    """``optimize=False``: contract the first two operands, then the result with the next, and so on."""

    def __call__(self, inputs, output, size_dict, memory_limit=None):
        return [(0, 1)] * (len(inputs) - 1)


def _plan(subscripts: Any, operands: tuple, optimize: Any) -> tuple[list, list]:
    """opt_einsum's contraction list for the arrays among einsum's arguments, and the arrays in the order it refers
    to them. opt_einsum sees shape-only stand-ins of arrays (so nothing is computed) and other values as given."""
    path_type = "optimal" if optimize is True else _InOrder() if optimize is False else optimize
    arguments = [subscripts, *operands]
    if isinstance(subscripts, str):
        array_positions = range(1, len(arguments))
    else:  # interleaved: array, sublist, array, sublist, ..., [output sublist]
        array_positions = range(0, 2 * (len(arguments) // 2), 2)
    arrays = [arguments[i] for i in array_positions]
    stand_ins = {}
    for i in array_positions:
        if hasattr(arguments[i], "dtype") or isinstance(arguments[i], (bool, int, float, complex)):
            aval = get_aval(arguments[i])
            # opt_einsum plans with int sizes: a symbolic one stands in as 8
            stand_ins[i] = _ShapeOnly(tuple(d if type(d) is int else 8 for d in aval.shape), aval.dtype)
    positions = {id(stand_in): arguments[i] for i, stand_in in stand_ins.items()}
    planned, contractions = opt_einsum.contract_path(*(stand_ins.get(i, x) for i, x in enumerate(arguments)),
                                                     einsum_call=True, use_blas=True, optimize=path_type)
    check_arraylike("einsum", *arrays)  # after planning, as JAX's (opt_einsum reads a list's shape first)
    return [positions[id(p)] for p in planned], list(contractions)


def einsum(subscripts, /, *operands, out: None = None, optimize: str | bool | list = "auto", precision=None,
           preferred_element_type=None, _dot_general: Callable[..., Any] = dot_general, out_sharding=None) -> Any:
    """Einstein summation (``"ij,jk->ik"`` or the interleaved ``einsum(a, [0, 1], b, [1, 2])`` form).

    ``optimize`` chooses the contraction order as opt_einsum does (``"auto"``, ``"greedy"``, ``"optimal"``, a path,
    True for "optimal", False for left to right); ``precision`` and ``preferred_element_type`` go to each dot_general,
    ``out_sharding`` (over a mesh of Explicit axes) to the last.
    """
    if out is not None:
        raise NotImplementedError("The 'out' argument to jnp.einsum is not supported.")
    planned, contractions = _plan(subscripts, operands, optimize)
    checked_out_sharding(out_sharding, "einsum")  # after planning, as JAX's
    planned = [eager_array(p) for p in planned]
    if preferred_element_type is None:
        out_dtype, weak = dtypes.result_type(*planned, return_weak_type_flag=True)
    else:
        out_dtype = dtypes.canonicalize_dtype(dtypes.dtype(preferred_element_type, requested_in="einsum"))
        weak = False
    try:
        result = _contract_all(planned, contractions, precision, out_dtype, _dot_general, out_sharding)
    except ValueError as error:  # named by the operands of JAX's jitted ``_einsum``, which would have met it first
        if not is_device_mismatch(error):
            raise
        raise named_by_call(error, planned, [f"operands[{i}]" for i in range(len(planned))], "_einsum") from None
    if get_aval(result).dtype != out_dtype or get_aval(result).weak_type != weak:
        result = lax_structural.convert_keeping_weak_type(result, out_dtype, weak)
    if isinstance(result, Array) and any(result is operand for operand in operands):
        return passed_through(result)  # JAX's einsum is jitted: an operand left untouched comes as a new array
    return asarray(result)  # an operand returned untouched may be a Python scalar


def _sum(x: Any, axes: list[int], out_dtype: np.dtype) -> Any:
    """Sum out ``axes`` (an or for booleans), first converting to the dtype the sum is computed in."""
    dtype = dtypes.result_type(x, out_dtype)
    if dtype != get_aval(x).dtype:
        x = lax_structural.convert_element_type(x, dtype)
    if dtype == np.bool_:
        return lax_reductions.reduce_or(x, tuple(axes))
    return lax_reductions.reduce_sum(x, tuple(axes))


def _without(names: str, removed: str) -> str:
    return "".join(n for n in names if n not in removed)


def _sum_unique(x: Any, names: str, unique: list[str], out_dtype: np.dtype) -> tuple[Any, str]:
    """Sum out the contracted indices that appear once and nowhere else."""
    if not unique:
        return x, names
    return _sum(x, [names.index(n) for n in unique], out_dtype), _without(names, "".join(unique))


def _identity_mask(shape: tuple[int, ...], axes: list[int]) -> Any:
    """True where the coordinates along ``axes`` are all equal, broadcast to ``shape``."""
    base = tuple(shape[a] for a in axes)
    iotas = [lax_structural.broadcasted_iota(np.uint32, base, i) for i in range(len(base))]
    mask = lax_elementwise.eq(iotas[0], iotas[1])
    for first, second in zip(iotas[1:-1], iotas[2:]):
        mask = lax_elementwise.bitwise_and(mask, lax_elementwise.eq(first, second))
    if base == shape:
        return mask
    return lax_structural.broadcast_in_dim(mask, shape, tuple(axes))


def _sum_repeated(x: Any, names: str, counts: collections.Counter, kept: str, out_dtype: np.dtype
                  ) -> tuple[Any, str]:
    """Take the diagonal of every index repeated within one operand: mask off-diagonal elements, then sum along
    all but one occurrence (all of them, when the index is not ``kept``)."""
    for name, count in counts.items():
        if count < 2:
            continue
        axes = [i for i, n in enumerate(names) if n == name]
        aval = get_aval(x)
        on_diagonal = _identity_mask(aval.shape, axes)
        zeros = lax_structural.broadcast_in_dim(np.zeros((), aval.dtype)[()], aval.shape, ())
        x = lax_structural.select_n(on_diagonal, zeros, x)
        if name in kept:
            x = _sum(x, axes[:-1], out_dtype)
            names = names.replace(name, "", count - 1)
        else:
            x = _sum(x, axes, out_dtype)
            names = names.replace(name, "")
    return x, names


def _squeeze_unmatched_ones(x: Any, names: str, other_shape: tuple[int, ...], other_names: str) -> tuple[Any, str]:
    """Squeeze size-1 dimensions whose index has a larger size on the other operand (NumPy broadcasting)."""
    shape = get_aval(x).shape
    squeezed = [i for i, n in enumerate(names)
                if shape[i] == 1 and other_names.find(n) != -1 and other_shape[other_names.find(n)] != 1]
    if not squeezed:
        return x, names
    return lax_structural.squeeze(x, squeezed), "".join(n for i, n in enumerate(names) if i not in squeezed)


def _contract_pair(lhs: Any, rhs: Any, lhs_names: str, rhs_names: str, contracted: list[str], result_names: str,
                   precision, out_dtype: np.dtype, dot: Callable[..., Any],
                   layout_of: Callable[[str], Any] | None = None) -> tuple[Any, str]:
    """One contraction of two operands; ``layout_of(names)``, when given, is the ``out_sharding`` of a result
    whose indices are ``names``."""
    lhs, lhs_names = _squeeze_unmatched_ones(lhs, lhs_names, get_aval(rhs).shape, rhs_names)
    rhs, rhs_names = _squeeze_unmatched_ones(rhs, rhs_names, get_aval(lhs).shape, lhs_names)
    lhs_counts, rhs_counts = collections.Counter(lhs_names), collections.Counter(rhs_names)
    lhs, lhs_names = _sum_unique(lhs, lhs_names, [n for n in contracted if lhs_counts[n] == 1 and not rhs_counts[n]],
                                 out_dtype)
    rhs, rhs_names = _sum_unique(rhs, rhs_names, [n for n in contracted if rhs_counts[n] == 1 and not lhs_counts[n]],
                                 out_dtype)
    lhs, lhs_names = _sum_repeated(lhs, lhs_names, lhs_counts, result_names + rhs_names, out_dtype)
    rhs, rhs_names = _sum_repeated(rhs, rhs_names, rhs_counts, result_names + lhs_names, out_dtype)
    contracted = [n for n in contracted if n in lhs_names or n in rhs_names]
    batch = [n for n in result_names if n in lhs_names and n in rhs_names]
    lhs_batch, rhs_batch = tuple(lhs_names.find(n) for n in batch), tuple(rhs_names.find(n) for n in batch)
    lhs_contract = tuple(lhs_names.index(n) for n in contracted)
    rhs_contract = tuple(rhs_names.index(n) for n in contracted)
    removed = "".join(batch) + "".join(contracted)
    lhs_rest, rhs_rest = _without(lhs_names, removed), _without(rhs_names, removed)
    # rhs first when that already gives the result's order (opt_einsum tends to contract right to left)
    names = "".join(batch) + rhs_rest + lhs_rest
    swapped = names == result_names
    if not swapped:
        names = "".join(batch) + lhs_rest + rhs_rest
    extra = {} if layout_of is None else {"out_sharding": layout_of(names)}
    if swapped:
        return dot(rhs, lhs, ((rhs_contract, lhs_contract), (rhs_batch, lhs_batch)), precision,
                   preferred_element_type=out_dtype, **extra), names
    return dot(lhs, rhs, ((lhs_contract, rhs_contract), (lhs_batch, rhs_batch)), precision,
               preferred_element_type=out_dtype, **extra), names


def _layout_by_names(out_sharding: Any, result_names: str) -> Callable[[str], Any]:
    """The ``out_sharding`` of a result whose indices are ``names``: ``out_sharding`` (for ``result_names``)
    permuted to their order (its unreduced and reduced axes kept)."""
    sharding = resolve_out_sharding(out_sharding)
    spec = tuple(sharding.spec) + (None,) * (len(result_names) - len(sharding.spec))
    return lambda names: sharding.update(spec=PartitionSpec(
        *[spec[result_names.index(n)] for n in names], unreduced=sharding.spec.unreduced,
        reduced=sharding.spec.reduced))


def _contract_all(operands: list, contractions: list, precision, out_dtype: np.dtype,
                  dot: Callable[..., Any], out_sharding: Any = None) -> Any:
    """Run opt_einsum's contraction list: each step takes one or two operands and appends its result; the last
    is laid out as ``out_sharding`` when given."""
    operands = list(operands)
    for step, (indices, removed, einsum_string, *_) in enumerate(contractions):
        contracted = sorted(removed)
        inputs, result_names = einsum_string.split("->")
        input_names = inputs.split(",")
        if len(indices) == 1:
            x, names = operands.pop(indices[0]), input_names[0]
            counts = collections.Counter(names)
            x, names = _sum_unique(x, names, [n for n in contracted if counts[n] == 1], out_dtype)
            x, names = _sum_repeated(x, names, counts, result_names, out_dtype)
        else:
            lhs = operands.pop(indices[0])
            rhs = operands.pop(indices[1])
            last = step == len(contractions) - 1 and out_sharding is not None
            x, names = _contract_pair(lhs, rhs, input_names[0], input_names[1], contracted, result_names, precision,
                                      out_dtype, dot, _layout_by_names(out_sharding, result_names) if last else None)
        if names != result_names:
            x = lax_structural.transpose(x, tuple(names.index(n) for n in result_names))
        operands.append(x)
    return operands[0]


def einsum_path(subscripts, /, *operands, optimize: bool | str | list = "auto") -> tuple[list, Any]:
    """opt_einsum's contraction path for these operands and its report (``optimize=True`` means "greedy")."""
    if optimize is True:
        optimize = "greedy"
    return opt_einsum.contract_path(subscripts, *operands, optimize=optimize)
