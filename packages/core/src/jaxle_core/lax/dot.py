"""Tensor contraction: dot_general, its precision settings, and the dot / batch_matmul wrappers."""

from __future__ import annotations

import enum
import math
import string
from collections.abc import Sequence
from typing import Any, Union

import numpy as np

from jaxle_core import dtypes
from jaxle_core.avals import ShapedArray, get_aval
from jaxle_core.core import JaxprEqn, Primitive
from jaxle_core.lax.dot_algorithm import DotAlgorithm, DotAlgorithmPreset, algorithm_types, check_runs_on_cpu
from jaxle_core.lax.standard import as_int_tuple
from jaxle_core.lax.structural import convert_element_type_p
from jaxle_core.pretty import Doc, PpContext, pp_eqn_generic, pp_eqn_rules
from jaxle_core.sharding_types import resolve_out_sharding

__all__ = ["DotDimensionNumbers", "Precision", "PrecisionLike", "batch_matmul", "dot", "dot_general", "dot_general_p"]


class Precision(enum.Enum):
    """Precision of a contraction on accelerators: DEFAULT (fastest), HIGH, HIGHEST (full float32)."""

    DEFAULT = 0
    HIGH = 1
    HIGHEST = 2

    @classmethod
    def _missing_(cls, value: Any) -> Precision | None:
        names = {"default": cls.DEFAULT, "bfloat16": cls.DEFAULT, "fastest": cls.DEFAULT,
                 "high": cls.HIGH, "bfloat16_3x": cls.HIGH, "tensorfloat32": cls.HIGH,
                 "highest": cls.HIGHEST, "float32": cls.HIGHEST}
        return names.get(value) if isinstance(value, str) else None

    def __repr__(self) -> str:
        return f"Precision.{self.name}"

    def __str__(self) -> str:
        return self.name


_PRECISION_ERROR = (
    "Precision argument must be one of:\n- None,\n- a string in ['highest', 'float32', 'high', 'bfloat16_3x', "
    "'tensorfloat32', 'default', 'bfloat16', 'fastest', None],\n- a lax.Precision value,\n- a tuple of two "
    "lax.Precision values or strings,\n- a lax.DotAlgorithmPreset or the name of one of these presets, or\n- a "
    "lax.DotAlgorithm value;\nbut got {}.")


Canonical = tuple[Precision, Precision] | DotAlgorithmPreset | DotAlgorithm | None

# Typing aliases of JAX's signatures: what ``precision=`` accepts, and dot_general's
# ``((lhs_contracting, rhs_contracting), (lhs_batch, rhs_batch))``.
PrecisionLike = Union[None, str, Precision, tuple[str, str], tuple[Precision, Precision],  # noqa: UP007
                      DotAlgorithm, DotAlgorithmPreset]
DotDimensionNumbers = tuple[tuple[Sequence[int], Sequence[int]], tuple[Sequence[int], Sequence[int]]]


def canonicalize_precision(precision: Any) -> Canonical:
    """``None``, the (lhs, rhs) pair of Precisions, or the dot algorithm a contraction's ``precision`` names."""
    if precision is None or isinstance(precision, (DotAlgorithmPreset, DotAlgorithm)):
        return precision
    if isinstance(precision, str) and precision in DotAlgorithmPreset.__members__:
        return DotAlgorithmPreset[precision]
    if isinstance(precision, (str, Precision)):
        single = _named_precision(precision)
        return single, single
    if isinstance(precision, (tuple, list)) and len(precision) == 2:
        if all(isinstance(p, Precision) for p in precision):
            return tuple(precision)
        if all(isinstance(p, str) for p in precision):  # each named alone; a bad name is the error's subject
            return tuple(_named_precision(p) for p in precision)
    raise ValueError(_PRECISION_ERROR.format(precision))


def _named_precision(precision: str | Precision) -> Precision:
    try:
        return Precision(precision)
    except ValueError:
        raise ValueError(_PRECISION_ERROR.format(precision)) from None


def _bit_width(dtype: np.dtype) -> int:
    if dtype == np.bool_:
        return 1
    info = dtypes.finfo(dtype) if dtypes.issubdtype(dtype, np.inexact) else dtypes.iinfo(dtype)
    return info.bits


def _precision_rank(dtype: np.dtype) -> tuple:
    """XLA's order of element types by precision: complex above real, then the wider exponent range, the more
    mantissa bits, the more bits, and signed above unsigned (bool and integers have no exponent or mantissa)."""
    floating = dtypes.issubdtype(dtype, np.inexact)
    info = dtypes.finfo(dtype) if floating else None
    return (dtypes.issubdtype(dtype, np.complexfloating), info.maxexp if floating else -1,
            info.nmant if floating else -1, _bit_width(dtype), not dtypes.issubdtype(dtype, np.unsignedinteger))


def compute_dtype(*element_types: np.dtype) -> np.dtype:
    """The element type XLA contracts in: the most precise of ``element_types`` (operands, then result)."""
    return max(element_types, key=_precision_rank)


def _convert(x: np.ndarray, dtype: np.dtype) -> np.ndarray:
    """``x`` converted as XLA converts (float to int truncates and saturates, NaN to 0; complex drops the
    imaginary part; nonzero is True)."""
    if x.dtype == dtype:
        return x
    return convert_element_type_p.impl(x, new_dtype=dtype, weak_type=False, sharding=None)


def _accumulation_dtype(dtype: np.dtype) -> np.dtype:
    """The NumPy dtype a reference contraction in ``dtype`` accumulates in: narrow floats in float32, bool in
    int32."""
    if dtype == np.bool_:
        return np.dtype(np.int32)
    if dtypes.issubdtype(dtype, np.floating) and dtype.itemsize < 4:
        return np.dtype(np.float32)
    return dtype


def to_accumulator(x: np.ndarray, compute: np.dtype) -> np.ndarray:
    """An operand converted to the compute type (rounding it, for a less precise operand), then widened to that
    type's accumulation dtype."""
    return _convert(_convert(np.asarray(x), compute), _accumulation_dtype(compute))


def from_accumulator(total: np.ndarray, compute: np.dtype, out: np.dtype) -> np.ndarray:
    """A contraction's accumulated sums rounded to the compute type, then converted to the result type. Like
    XLA on CPU, sums in an 8-bit-or-narrower float type whose values float16 holds are rounded through float16."""
    total = np.asarray(total)
    if _rounds_through_float16(compute):
        total = _convert(total, np.dtype(np.float16))
    return _convert(_convert(total, compute), out)


def _rounds_through_float16(dtype: np.dtype) -> bool:
    if not dtypes.issubdtype(dtype, np.floating) or _bit_width(dtype) > 8:
        return False
    return float(dtypes.finfo(dtype).max) <= float(dtypes.finfo(np.float16).max)


# Mixed pairs of these are contracted as they are; other mixed operands are first converted to the result type.
_FLOAT8_NAMES = frozenset({"float8_e4m3fn", "float8_e5m2", "float8_e5m2fnuz", "float8_e4m3fnuz", "float8_e3m4",
                           "float8_e4m3", "float8_e8m0fnu"})


def contraction_dtype(lhs: np.dtype, rhs: np.dtype, preferred: np.dtype | None) -> np.dtype:
    """The result dtype of a contraction: ``preferred`` when given, else the more precise operand type (in XLA's
    order; distinct types of equal rank are an error). A non-float result may not be narrowed."""
    lhs_rank, rhs_rank = _precision_rank(lhs), _precision_rank(rhs)
    if lhs_rank == rhs_rank and lhs != rhs:
        raise TypeError(f"lax.dot_general argument type error: {lhs}, {rhs}")
    result = lhs if lhs_rank > rhs_rank else rhs
    if preferred is None or preferred == result:
        return result
    if not dtypes.issubdtype(result, np.floating) and _bit_width(preferred) < _bit_width(result):
        raise TypeError(f"`preferred_element_type` must not be narrower than the original type, got "
                        f"preferred_element_type of {preferred} for result type of {result}.")
    return preferred


# ---------------------------------------------------------------- dot_general

dot_general_p = Primitive("dot_general")


def _check_dims(side: str, aval: ShapedArray, batch: tuple[int, ...], contract: tuple[int, ...]) -> None:
    if not all(0 <= d < aval.ndim for d in batch + contract):
        raise TypeError(f"dot_general requires {side} dimension numbers to be nonnegative and less than the number "
                        f"of axes of the {side} value, got {side}_batch of {batch} and {side}_contracting of "
                        f"{contract} for {side} of rank {aval.ndim}")
    for kind, dims in (("batch", batch), ("contracting", contract)):
        if len(set(dims)) != len(dims):
            raise TypeError(f"dot_general requires {side} {kind} dimensions to be distinct, got {side}_{kind} {dims}.")
    if len(set(batch + contract)) != len(batch + contract):
        raise TypeError(f"dot_general requires no repeated axis among {side}_batch {batch} and {side}_contracting "
                        f"{contract}")


def check_dimension_numbers(lhs: ShapedArray, rhs: ShapedArray, dimension_numbers) -> None:
    """JAX's checks of a contraction's dimension numbers against its operands (ranges, repeats, matching sizes)."""
    (lhs_contract, rhs_contract), (lhs_batch, rhs_batch) = dimension_numbers
    _check_dims("lhs", lhs, lhs_batch, lhs_contract)
    _check_dims("rhs", rhs, rhs_batch, rhs_contract)
    if len(lhs_batch) != len(rhs_batch):
        raise TypeError(f"dot_general requires equal numbers of lhs_batch and rhs_batch dimensions, got "
                        f"lhs_batch {lhs_batch} and rhs_batch {rhs_batch}.")
    lhs_batch_shape = tuple(lhs.shape[d] for d in lhs_batch)
    if lhs_batch_shape != tuple(rhs.shape[d] for d in rhs_batch):
        raise TypeError(f"dot_general requires lhs batch dimensions and rhs batch dimensions to have the same "
                        f"shape, got {lhs_batch_shape} and {tuple(rhs.shape[d] for d in rhs_batch)}.")
    lhs_contract_shape = tuple(lhs.shape[d] for d in lhs_contract)
    rhs_contract_shape = tuple(rhs.shape[d] for d in rhs_contract)
    if lhs_contract_shape != rhs_contract_shape:
        raise TypeError(f"dot_general requires contracting dimensions to have the same shape, got "
                        f"{lhs_contract_shape} and {rhs_contract_shape}.")


@dot_general_p.def_abstract_eval
def _dot_general_aval(lhs, rhs, *, dimension_numbers, precision, preferred_element_type, out_sharding):
    check_dimension_numbers(lhs, rhs, dimension_numbers)
    (lhs_contract, rhs_contract), (lhs_batch, rhs_batch) = dimension_numbers
    lhs_batch_shape = tuple(lhs.shape[d] for d in lhs_batch)
    lhs_free = [s for i, s in enumerate(lhs.shape) if i not in lhs_batch + lhs_contract]
    rhs_free = [s for i, s in enumerate(rhs.shape) if i not in rhs_batch + rhs_contract]
    dtype = contraction_dtype(lhs.dtype, rhs.dtype, preferred_element_type)
    return ShapedArray(lhs_batch_shape + tuple(lhs_free) + tuple(rhs_free), dtype, lhs.weak_type and rhs.weak_type)


def _products(lhs, rhs, dimension_numbers) -> np.ndarray:
    """A contraction over no more than one term: the products themselves (a -0 product stays -0, where adding it
    to a zero sum would not)."""
    (lhs_contract, rhs_contract), (lhs_batch, rhs_batch) = dimension_numbers
    lhs_free = [d for d in range(lhs.ndim) if d not in lhs_batch + lhs_contract]
    rhs_free = [d for d in range(rhs.ndim) if d not in rhs_batch + rhs_contract]
    batch_shape = tuple(lhs.shape[d] for d in lhs_batch)
    lhs_free_shape, rhs_free_shape = tuple(lhs.shape[d] for d in lhs_free), tuple(rhs.shape[d] for d in rhs_free)
    lhs = np.transpose(lhs, lhs_batch + tuple(lhs_free) + lhs_contract).reshape(
        batch_shape + lhs_free_shape + (1,) * len(rhs_free))
    rhs = np.transpose(rhs, rhs_batch + tuple(rhs_free) + rhs_contract).reshape(
        batch_shape + (1,) * len(lhs_free) + rhs_free_shape)
    return lhs * rhs


def _sums_of_products(lhs, rhs, dimension_numbers) -> np.ndarray:
    (lhs_contract, rhs_contract), (lhs_batch, rhs_batch) = dimension_numbers
    letters = iter(string.ascii_letters)
    lhs_sub = [next(letters) for _ in range(lhs.ndim)]
    rhs_sub = [next(letters) for _ in range(rhs.ndim)]
    for l_dim, r_dim in zip(lhs_batch + lhs_contract, rhs_batch + rhs_contract):
        rhs_sub[r_dim] = lhs_sub[l_dim]
    out_sub = ([lhs_sub[d] for d in lhs_batch]
               + [c for i, c in enumerate(lhs_sub) if i not in lhs_batch + lhs_contract]
               + [c for i, c in enumerate(rhs_sub) if i not in rhs_batch + rhs_contract])
    return np.einsum(f"{''.join(lhs_sub)},{''.join(rhs_sub)}->{''.join(out_sub)}", lhs, rhs)


@dot_general_p.def_impl
def _dot_general_impl(lhs, rhs, *, dimension_numbers, precision, preferred_element_type, out_sharding):
    out_dtype = contraction_dtype(lhs.dtype, rhs.dtype, preferred_element_type)
    check_runs_on_cpu(precision)
    if isinstance(precision, DotAlgorithmPreset) and precision is not DotAlgorithmPreset.DEFAULT:
        # The preset's types, as the CPU lowering converts to them.
        lhs_dtype, rhs_dtype, produced = algorithm_types(precision, lhs.dtype, rhs.dtype, out_dtype)
        total = _dot_general_impl(_convert(lhs, lhs_dtype), _convert(rhs, rhs_dtype),
                                  dimension_numbers=dimension_numbers, precision=None,
                                  preferred_element_type=produced, out_sharding=out_sharding)
        return _convert(total, out_dtype)
    if lhs.dtype != rhs.dtype and not {lhs.dtype.name, rhs.dtype.name} <= _FLOAT8_NAMES:
        lhs, rhs = _convert(lhs, out_dtype), _convert(rhs, out_dtype)
    compute = compute_dtype(lhs.dtype, rhs.dtype, out_dtype)
    lhs_contract = dimension_numbers[0][0]
    contract = _products if math.prod(lhs.shape[d] for d in lhs_contract) == 1 else _sums_of_products
    with np.errstate(over="ignore", invalid="ignore"):
        total = contract(to_accumulator(lhs, compute), to_accumulator(rhs, compute), dimension_numbers)
    return from_accumulator(total, compute, out_dtype)


def _pp_dot_general(eqn: JaxprEqn, context: PpContext) -> Doc:
    """Without the None params and ``out_sharding``; dimension numbers print as lists, as JAX does."""
    params = {k: v for k, v in eqn.params.items() if v is not None and k != "out_sharding"}
    (lhs_contract, rhs_contract), (lhs_batch, rhs_batch) = eqn.params["dimension_numbers"]
    params["dimension_numbers"] = ((list(lhs_contract), list(rhs_contract)), (list(lhs_batch), list(rhs_batch)))
    return pp_eqn_generic(eqn, context, params)


pp_eqn_rules[dot_general_p] = _pp_dot_general


def dot_general(lhs, rhs, dimension_numbers, precision=None, preferred_element_type=None, *, out_sharding=None):
    """General contraction. ``dimension_numbers`` is ``((lhs_contract, rhs_contract), (lhs_batch, rhs_batch))``;
    the result's dimensions are the batch ones, then lhs's free ones, then rhs's free ones."""
    (lhs_contract, rhs_contract), (lhs_batch, rhs_batch) = dimension_numbers
    numbers = ((as_int_tuple(lhs_contract), as_int_tuple(rhs_contract)),
               (as_int_tuple(lhs_batch), as_int_tuple(rhs_batch)))
    preferred = None if preferred_element_type is None else dtypes.canonicalize_dtype(
        dtypes.dtype(preferred_element_type, requested_in="dot"))
    return dot_general_p.bind(lhs, rhs, dimension_numbers=numbers, precision=canonicalize_precision(precision),
                              preferred_element_type=preferred,
                              out_sharding=resolve_out_sharding(out_sharding, "dot_general"))


def dot(lhs, rhs, *, dimension_numbers=None, precision=None, preferred_element_type=None, out_sharding=None):
    """Vector/matrix product (contracting lhs's last and rhs's first dimension), or ``dot_general`` when
    ``dimension_numbers`` is given."""
    if dimension_numbers is None:
        lhs_shape, rhs_shape = get_aval(lhs).shape, get_aval(rhs).shape
        if not (1 <= len(lhs_shape) <= 2 and 1 <= len(rhs_shape) <= 2 and lhs_shape[-1] == rhs_shape[0]):
            raise ValueError("jax.lax.dot: dimension_numbers must be specified when not performing simple "
                             "un-batched matrix-matrix, matrix-vector, or vector-vector products; got "
                             f"lhs_shape={lhs_shape} rhs_shape={rhs_shape}")
        dimension_numbers = (((len(lhs_shape) - 1,), (0,)), ((), ()))
    return dot_general(lhs, rhs, dimension_numbers, precision, preferred_element_type, out_sharding=out_sharding)


def batch_matmul(lhs, rhs, precision=None):
    """Matrix products batched over all leading dimensions of equal-rank operands."""
    lhs_aval, rhs_aval = get_aval(lhs), get_aval(rhs)
    if lhs_aval.ndim != rhs_aval.ndim:
        raise ValueError(f"Arguments to batch_matmul must have same ndim, got {lhs_aval.ndim}, {rhs_aval.ndim}")
    if lhs_aval.ndim < 2:
        raise ValueError(f"batch_matmul requires arguments of rank at least 2, got {lhs_aval.ndim}")
    batch: Sequence[int] = tuple(range(lhs_aval.ndim - 2))
    return dot_general(lhs, rhs, (((lhs_aval.ndim - 1,), (rhs_aval.ndim - 2,)), (batch, batch)), precision)
