"""Primitives that move, select or retype elements without arithmetic: conversions, selects, iota,
broadcasts, reshapes, transposes, reversal, padding, concatenation, splitting, stacking and tiling."""

from __future__ import annotations

import math
import operator
from collections.abc import Sequence

import ml_dtypes
import numpy as np

from jaxle_core import core, dtypes, trace_warnings
from jaxle_core.array import Array
from jaxle_core.avals import ShapedArray, canonicalize_shape, get_aval
from jaxle_core.backend import put_host_value
from jaxle_core.core import Primitive
from jaxle_core.lax import placement
from jaxle_core.lax.elementwise import add, eq
from jaxle_core.lax.standard import (
    FLOATING,
    NUMBER,
    as_int_tuple,
    canonical_shape,
    check_dtype,
    check_element_count,
    check_integer_elements,
    check_nonnegative,
    check_same_dtypes,
    lenient_axis,
    normalize_axis,
)
from jaxle_core.mesh import AbstractMesh
from jaxle_core.pretty import pp_eqn_rules, pp_hiding
from jaxle_core.sharding_types import resolve_out_sharding, type_in_context_only, typed_as
from jaxle_core.staging import forwarding_rules, staging_rewrites, transforms_eager_code

__all__ = ["bitcast_convert_type", "bitcast_convert_type_p", "broadcast", "broadcast_in_dim", "broadcast_in_dim_p",
           "broadcast_like", "broadcast_shapes", "broadcast_to_rank", "broadcasted_iota", "clamp", "clamp_p",
           "collapse", "concatenate", "concatenate_p", "convert_element_type", "convert_element_type_p", "expand_dims",
           "iota", "iota_p", "pad", "pad_p", "reduce_precision", "reduce_precision_p", "reshape", "reshape_p", "rev",
           "rev_p", "select", "select_n", "select_n_p", "split", "split_p", "squeeze", "squeeze_p", "stack", "stack_p",
           "tile", "tile_p", "transpose", "transpose_p", "unstack", "unstack_p"]

_PYTHON_SCALARS = (bool, int, float, complex)


# ---------------------------------------------------------------- select_n

select_n_p = Primitive("select_n")


@select_n_p.def_abstract_eval
def _select_n_aval(which, *cases):
    if not cases:
        raise ValueError("select_n() must have at least one case")
    if which.dtype != np.bool_ and not np.issubdtype(which.dtype, np.integer):
        raise TypeError(f"select `which` must be boolean or integer type, got {which.dtype.name}.")
    if which.dtype == np.bool_ and len(cases) > 2:
        raise TypeError("select with boolean `which` cannot have > 2 cases.")
    if len({c.shape for c in cases}) > 1:
        raise TypeError(f"select cases must have the same shapes, got [{', '.join(str(c.shape) for c in cases)}].")
    check_same_dtypes("select", cases, "where")
    if which.shape and which.shape != cases[0].shape:
        raise TypeError(f"select `which` must be scalar or have the same shape as cases, got `which` shape "
                        f"{which.shape} but case shape {cases[0].shape}.")
    return ShapedArray(cases[0].shape, cases[0].dtype, all(c.weak_type for c in cases))


@select_n_p.def_impl
def _select_n_impl(which, *cases):
    chosen = np.clip(which.astype(np.int64), 0, len(cases) - 1)
    out = np.array(cases[0], copy=True)
    out = np.broadcast_to(out, np.broadcast_shapes(out.shape, chosen.shape)).copy()
    for k, case in enumerate(cases[1:], start=1):
        out = np.where(chosen == k, case, out)
    return out


def select_n(which, *cases):
    """``cases[which]`` elementwise; ``which`` is bool (two cases) or an integer array or scalar."""
    return select_n_p.bind(which, *cases)


def select(pred, on_true, on_false):
    """``on_true`` where ``pred`` else ``on_false``."""
    return select_n(pred, on_false, on_true)


# ---------------------------------------------------------------- clamp

clamp_p = Primitive("clamp")


@clamp_p.def_abstract_eval
def _clamp_aval(lo, x, hi):
    for name, bound in (("min", lo), ("max", hi)):
        if bound.shape and bound.shape != x.shape:
            raise TypeError(f"clamp requires {name}.shape == operand.shape or {name}.shape == (), got "
                            f"{name}.shape={bound.shape}, operand.shape={x.shape}.")
    check_same_dtypes("clamp", (lo, x, hi), "clip")
    return ShapedArray(x.shape, x.dtype, lo.weak_type and x.weak_type and hi.weak_type)


@clamp_p.def_impl
def _clamp_impl(lo, x, hi):
    return np.minimum(np.maximum(x, lo), hi)


def clamp(min, x, max):  # noqa: A002 - lax's argument names
    """``x`` clamped elementwise to ``[min, max]``."""
    return clamp_p.bind(min, x, max)


# ---------------------------------------------------------------- convert_element_type

class _ConvertElementType(Primitive):
    """``convert_element_type``, whose bind constrains a value converted for a sharding naming devices (no abstract
    mesh) to it, at the level it is bound at, as JAX's bind does: so each level of differentiation (or batching)
    constrains it again, and a trace whose primitives JAX binds again inside it (``linearizes_by_staging``) twice."""

    def bind(self, *args, **params):
        out = super().bind(*args, **params)
        sharding = params.get("sharding")
        if sharding is None or isinstance(getattr(sharding, "mesh", None), AbstractMesh):
            return out
        for _ in range(2 if getattr(core.current_trace(), "linearizes_by_staging", False) else 1):
            out = placement.with_sharding_constraint(out, sharding)
        return out

    def forward(self, *args, **params):
        return super().bind(*args, **params)  # constrained where it was bound already


convert_element_type_p = _ConvertElementType("convert_element_type")


def _convert_element_type_staging(args, params):
    """Staging skips a conversion to the operand's own type (unless it lays the value out) and folds conversions of
    host scalars and of the arrays jnp makes of them (dropping their layout, as JAX's constant folding does)."""
    (x,) = args
    aval, new_dtype, weak = get_aval(x), params["new_dtype"], params["weak_type"]
    if params["sharding"] is None and aval.dtype == new_dtype and aval.weak_type == weak:
        return x
    if not isinstance(x, core.Tracer) and core.is_scalar_literal(x):  # a host scalar, or an array made of one
        folded = _convert_element_type_impl(np.asarray(x), new_dtype=new_dtype, weak_type=weak, sharding=None)[()]
        if not weak:
            return folded
        if get_aval(folded.item()).dtype == new_dtype:  # a weak result is a Python scalar
            return folded.item()
    return None


staging_rewrites[convert_element_type_p] = _convert_element_type_staging
type_in_context_only(convert_element_type_p)


@convert_element_type_p.def_abstract_eval
def _convert_element_type_aval(x, *, new_dtype, weak_type, sharding):
    return ShapedArray(x.shape, new_dtype, weak_type)


@convert_element_type_p.def_impl
def _convert_element_type_impl(x, *, new_dtype, weak_type, sharding):
    new_dtype = np.dtype(new_dtype)
    if x.dtype == dtypes.float0:
        return np.zeros(x.shape, new_dtype)  # a float0 (integer input's) tangent converts to zeros
    if np.issubdtype(x.dtype, np.complexfloating) and not np.issubdtype(new_dtype, np.complexfloating):
        x = np.real(x)  # XLA drops the imaginary part
    if new_dtype == np.bool_:
        return x != 0
    if np.issubdtype(new_dtype, np.integer) and dtypes.issubdtype(x.dtype, np.inexact):
        return _float_to_int(x, new_dtype)
    with np.errstate(over="ignore", invalid="ignore"):
        return x.astype(new_dtype)


# The binder's type already says the sharding.
pp_eqn_rules[convert_element_type_p] = pp_hiding(lambda params: ("sharding",))


def _float_to_int(x: np.ndarray, dtype: np.dtype) -> np.ndarray:
    """Truncate toward zero, saturating at the integer range and sending NaN to 0, as XLA does."""
    info = np.iinfo(dtype)
    wide = np.trunc(x.astype(np.float64))
    wide = np.where(np.isnan(wide), 0, wide)
    # float64 cannot hold the 64-bit limits exactly; saturate before and after the (then overflowing) cast.
    with np.errstate(invalid="ignore", over="ignore"):
        result = np.clip(wide, float(info.min), float(info.max)).astype(dtype)
    result = np.where(wide >= float(info.max), info.max, result)
    return np.where(wide <= float(info.min), info.min, result).astype(dtype)


def host_python_complex(operand, new_dtype: np.dtype):
    """A Python complex converted on the host as JAX converts it: ``bool(z)`` for booleans, Python's own TypeError
    (``int(z)``, ``float(z)``) for integers and real floats; other operands (NumPy complexes too) unchanged."""
    if type(operand) is not complex or dtypes.issubdtype(new_dtype, np.complexfloating):
        return operand
    if new_dtype == np.bool_:
        return bool(operand)
    return (float if dtypes.issubdtype(new_dtype, np.floating) else int)(operand)


def warn_complex_to_real(old_dtype: np.dtype, new_dtype: np.dtype, stacklevel: int = 2) -> None:
    """JAX's ComplexWarning for a conversion from a complex dtype to a real (or integer, boolean) one."""
    if dtypes.issubdtype(old_dtype, np.complexfloating) and not dtypes.issubdtype(new_dtype, np.complexfloating):
        trace_warnings.warn("Casting complex values to real discards the imaginary part",
                            np.exceptions.ComplexWarning, stacklevel=stacklevel + 1)


def _warn_numpy_scalar_complex(operand, new_dtype: np.dtype) -> None:
    """NumPy's ComplexWarning for a complex NumPy scalar converted to a real dtype: JAX converts NumPy scalars on
    the host, where NumPy warns too (after any warning of JAX's own)."""
    if isinstance(operand, np.generic):
        warn_complex_to_real(operand.dtype, new_dtype, stacklevel=4)


def convert_element_type(operand, new_dtype):
    """``operand`` converted to ``new_dtype`` (canonicalised), as a strongly typed value; a complex operand
    converted to a real dtype warns (``ComplexWarning``), as in JAX.

    Python scalars are converted on the host, as JAX does (no equation is staged).
    """
    return convert_unchecked(operand, new_dtype, warn_complex=True)


def convert_unchecked(operand, new_dtype, warn_complex: bool = False):
    """``convert_element_type`` without its ComplexWarning (unless ``warn_complex``): for conversions that
    discard an imaginary part on purpose or warn in their own words."""
    new_dtype = dtypes.canonicalize_dtype(dtypes.dtype(new_dtype, requested_in="convert_element_type"))
    try:
        old_dtype = get_aval(operand).dtype
    except TypeError:
        dtypes.dtype(operand)  # JAX's TypeError for a value without a dtype ("Cannot determine dtype of [...]")
        # one that has a dtype (a tuple of traced values) is refused as the primitive's operand, as in JAX
        return convert_element_type_p.bind(operand, new_dtype=new_dtype, weak_type=False, sharding=None)
    if (dtypes.is_extended(old_dtype) or dtypes.is_extended(new_dtype)) and old_dtype != new_dtype:
        # a key converts to its own dtype alone (its bits are reached through random.key_data)
        raise ValueError(f"Cannot convert_element_type from {old_dtype} to {new_dtype}")
    if warn_complex:
        warn_complex_to_real(old_dtype, new_dtype, stacklevel=4)
    _warn_numpy_scalar_complex(operand, new_dtype)
    if type(operand) in _PYTHON_SCALARS:
        operand = host_python_complex(operand, new_dtype)
        value = _convert_element_type_impl(np.asarray(operand), new_dtype=new_dtype, weak_type=False, sharding=None)
        return _host_constant(np.asarray(value, new_dtype))
    aval = get_aval(operand)
    if aval.dtype == new_dtype and not aval.weak_type:
        if isinstance(operand, (np.ndarray, np.generic)) and (
                transforms_eager_code() or isinstance(core.current_trace(), core.EvalTrace)):
            return _host_constant(np.asarray(operand, new_dtype))  # JAX's conversion makes an Array there
        return operand
    return convert_element_type_p.bind(operand, new_dtype=new_dtype, weak_type=False, sharding=None)


def _host_constant(value: np.ndarray, weak_type: bool = False):
    """A constant computed on the host: an Array eagerly (under ``set_mesh`` replicated over the mesh, where JAX's
    eager conversion puts it; a function tracing later closes over it as a constvar, as over any computed array),
    an inline literal when staging."""
    if transforms_eager_code():
        # JAX converts on the device there: a concrete Array, which a derivative holds as a residual (a leaf of
        # vjp's pullback), not a literal.
        return put_host_value(value, weak_type, eager=True)
    eager = isinstance(core.current_trace(), core.EvalTrace)
    if weak_type or eager:
        array = put_host_value(value, weak_type)
        if value.ndim == 0 and not eager:
            core.mark_inline(array)
        return array
    return value


def convert_keeping_weak_type(operand, new_dtype, weak_type: bool):
    """Convert, keeping the weak type given; scalar constants are converted on the host, as JAX does."""
    new_dtype = np.dtype(new_dtype)
    _warn_numpy_scalar_complex(operand, new_dtype)
    operand = host_python_complex(operand, new_dtype)
    if not isinstance(operand, core.Tracer) and core.is_scalar_literal(operand):
        value = _convert_element_type_impl(np.asarray(operand), new_dtype=new_dtype, weak_type=weak_type,
                                           sharding=None)
        return _host_constant(np.asarray(value, new_dtype), weak_type)
    return convert_element_type_p.bind(operand, new_dtype=new_dtype, weak_type=weak_type, sharding=None)


# ---------------------------------------------------------------- bitcast_convert_type

bitcast_convert_type_p = Primitive("bitcast_convert_type")


@bitcast_convert_type_p.def_abstract_eval
def _bitcast_convert_type_aval(x, *, new_dtype):
    old_dtype = x.dtype
    if old_dtype != new_dtype and any(d == np.bool_ or np.issubdtype(d, np.complexfloating)
                                      for d in (old_dtype, new_dtype)):
        raise TypeError(f"lax.bitcast_convert_type does not support bool or complex values unless the operand and "
                        f"destination types match. Got operand dtype={old_dtype.name}, new_dtype={new_dtype!r}. "
                        "Consider using the arr.view() method instead.")
    old_bits, new_bits = old_dtype.itemsize * 8, new_dtype.itemsize * 8
    shape = x.shape
    if old_bits > new_bits:
        shape = shape + (old_bits // new_bits,)
    elif old_bits < new_bits:
        if not shape or shape[-1] * old_bits != new_bits:
            last = shape[-1] if shape else 1
            raise ValueError(f"Attempting to convert array of shape {shape} from {old_dtype.name} of size "
                             f"{old_bits} bits to {new_dtype.name} of size {new_bits}, bits but {last} * {old_bits} "
                             f"!= {new_bits}")
        shape = shape[:-1]
    return ShapedArray(shape, new_dtype, False)


@bitcast_convert_type_p.def_impl
def _bitcast_convert_type_impl(x, *, new_dtype):
    x = np.array(x, order="C")
    old_size, new_size = x.dtype.itemsize, np.dtype(new_dtype).itemsize
    if old_size > new_size:
        return x.reshape(x.shape + (1,)).view(new_dtype).reshape(x.shape + (old_size // new_size,))
    return x.view(new_dtype).reshape(x.shape[:-1] if old_size < new_size else x.shape)


def bitcast_convert_type(operand, new_dtype):
    """Reinterpret the bits of ``operand`` as ``new_dtype``.

    A narrower ``new_dtype`` adds a trailing dimension; a wider one consumes the trailing dimension.
    """
    new_dtype = dtypes.canonicalize_dtype(dtypes.dtype(new_dtype, requested_in="bitcast_convert_type"))
    return bitcast_convert_type_p.bind(operand, new_dtype=new_dtype)


# ---------------------------------------------------------------- reduce_precision

reduce_precision_p = Primitive("reduce_precision")


@reduce_precision_p.def_abstract_eval
def _reduce_precision_aval(x, *, exponent_bits, mantissa_bits):
    check_dtype("reduce_precision", x.dtype, (FLOATING,))
    if exponent_bits < 1:
        raise ValueError(f"reduce_precision: exponent_bits must be positive; got {exponent_bits}")
    if mantissa_bits < 0:
        raise ValueError(f"reduce_precision: mantissa_bits must be non-negative; got {mantissa_bits}")
    return ShapedArray(x.shape, x.dtype, x.weak_type)


_UINT_OF_WIDTH = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}


@reduce_precision_p.def_impl
def _reduce_precision_impl(x, *, exponent_bits, mantissa_bits):
    """XLA's algorithm on the bit pattern: round the mantissa to nearest even, then flush the exponent range
    (overflow to signed infinity, values below the smallest normal to signed zero); NaN stays NaN."""
    info = ml_dtypes.finfo(x.dtype)
    src_mantissa, src_exponent = int(info.nmant), int(info.nexp)
    utype = _UINT_OF_WIDTH[x.dtype.itemsize]
    bits = np.array(x, order="C").view(utype)
    one = utype(1)
    if mantissa_bits < src_mantissa:
        shift = utype(src_mantissa - mantissa_bits)
        last_kept = one << shift
        base_bias = (last_kept >> one) - one
        bias = ((bits & last_kept) >> shift) + base_bias
        bits = (bits + bias) & ~(last_kept - one)
    if exponent_bits < src_exponent:
        sign_mask = one << utype(src_exponent + src_mantissa)
        exponent_mask = (sign_mask - one) & ~((one << utype(src_mantissa)) - one)
        src_bias = (1 << (src_exponent - 1)) - 1
        reduced_bias = (1 << (exponent_bits - 1)) - 1
        exponent = bits & exponent_mask
        overflows = exponent > utype((src_bias + reduced_bias) << src_mantissa)
        underflows = exponent <= utype((src_bias - reduced_bias) << src_mantissa)
        signed_zero = bits & sign_mask
        bits = np.where(overflows, signed_zero | exponent_mask, np.where(underflows, signed_zero, bits))
    result = bits.astype(utype).view(x.dtype)
    return np.where(np.isnan(x), x, result)


def reduce_precision(operand, exponent_bits: int, mantissa_bits: int):
    """Round ``operand`` to a float format with the given exponent and mantissa widths, keeping its dtype."""
    return reduce_precision_p.bind(operand, exponent_bits=operator.index(exponent_bits),
                                   mantissa_bits=operator.index(mantissa_bits))


# ---------------------------------------------------------------- iota

iota_p = Primitive("iota")


@iota_p.def_abstract_eval
def _iota_aval(*, dtype, shape, dimension, sharding):
    check_dtype("iota", dtype, NUMBER)
    check_nonnegative("iota", "shape", shape)
    check_element_count(shape)
    if not 0 <= dimension < len(shape):
        raise ValueError(f"iota dimension must be between 0 and len(shape), got dimension={dimension} for "
                         f"shape={shape}")
    return ShapedArray(shape, dtype, False)


@iota_p.def_impl
def _iota_impl(*, dtype, shape, dimension, sharding):
    counts = np.arange(shape[dimension]).astype(dtype)
    return np.broadcast_to(counts.reshape([-1 if d == dimension else 1 for d in range(len(shape))]), shape)


def broadcasted_iota(dtype, shape: Sequence[int], dimension: int, *, out_sharding=None):
    """An array of ``shape`` counting 0, 1, ... along ``dimension``."""
    dtype = dtypes.canonicalize_dtype(dtypes.dtype(dtype, requested_in="broadcasted_iota"))
    return iota_p.bind(dtype=dtype, shape=canonicalize_shape(shape), dimension=lenient_axis(dimension),
                       sharding=resolve_out_sharding(out_sharding, "broadcasted_iota"))


def iota(dtype, size: int):
    """``[0, 1, ..., size - 1]`` as ``dtype``."""
    return broadcasted_iota(dtype, (size,), 0)


def eye(dtype, shape: tuple[int, int]):
    """The identity matrix of ``shape`` as ``dtype``, built from iotas in the order JAX's lax traces them
    (``jnp.eye``, which the jacobians follow, traces both iotas first)."""
    rows = add(broadcasted_iota(np.int32, shape, 0), np.int32(0))
    return convert_element_type(eq(rows, broadcasted_iota(np.int32, shape, 1)), dtype)


# ---------------------------------------------------------------- broadcast_in_dim

broadcast_in_dim_p = Primitive("broadcast_in_dim")


@broadcast_in_dim_p.def_abstract_eval
def _broadcast_in_dim_aval(x, *, shape, broadcast_dimensions, sharding):
    # The checks run in JAX's order, so that input breaking several rules gets JAX's message.
    check_nonnegative("broadcast_in_dim", "shape", shape)
    check_element_count(shape)
    check_nonnegative("broadcast_in_dim", "broadcast_dimensions", broadcast_dimensions)
    if len(broadcast_dimensions) != x.ndim:
        raise TypeError(f"broadcast_in_dim broadcast_dimensions must have length equal to operand ndim; got "
                        f"broadcast_dimensions {broadcast_dimensions} for operand ndim {x.ndim}.")
    if len(shape) < x.ndim:
        raise TypeError(f"broadcast_in_dim target broadcast shape must have equal or higher rank to the operand "
                        f"shape; got operand ndim {x.ndim} and target broadcast ndim {len(shape)}.")
    if not all(d < len(shape) for d in broadcast_dimensions):
        raise TypeError(f"broadcast_in_dim broadcast_dimensions must be a subset of output dimensions, got "
                        f"{broadcast_dimensions} for operand ndim {x.ndim} and shape {shape}.")
    for in_dim, out_dim in enumerate(broadcast_dimensions):
        if x.shape[in_dim] not in (1, shape[out_dim]):
            raise TypeError(f"broadcast_in_dim operand dimension sizes must either be 1, or be equal to their "
                            f"corresponding dimensions in the target broadcast shape; got operand of shape "
                            f"{x.shape}, target broadcast shape {shape}, broadcast_dimensions "
                            f"{broadcast_dimensions} ")
    # Any order is allowed (operand dimensions may be permuted), but each output dimension takes at most one.
    if len(set(broadcast_dimensions)) != len(broadcast_dimensions):
        raise TypeError(f"broadcast_in_dim broadcast_dimensions must not contain duplicates, got "
                        f"broadcast_dimensions {broadcast_dimensions}")
    return ShapedArray(shape, x.dtype, x.weak_type)


@broadcast_in_dim_p.def_impl
def _broadcast_in_dim_impl(x, *, shape, broadcast_dimensions, sharding):
    # Put the operand's dimensions in the order they take in the output, then add the new ones as size 1.
    in_output_order = np.transpose(x, np.argsort(broadcast_dimensions))
    expanded = [1] * len(shape)
    for in_dim, out_dim in enumerate(broadcast_dimensions):
        expanded[out_dim] = x.shape[in_dim]
    return np.broadcast_to(in_output_order.reshape(expanded), shape)


# The binder's type already says the shape and sharding; empty broadcast_dimensions are not printed.
pp_eqn_rules[broadcast_in_dim_p] = pp_hiding(
    lambda params: ("shape", "sharding") + (() if params.get("broadcast_dimensions") else ("broadcast_dimensions",)))


def broadcast_in_dim(operand, shape: Sequence[int], broadcast_dimensions: Sequence[int], *, out_sharding=None):
    """Broadcast ``operand`` to ``shape``, its dimension i becoming ``broadcast_dimensions[i]``."""
    shape = check_integer_elements("broadcast_in_dim", "shape", shape)
    dims = check_integer_elements("broadcast_in_dim", "broadcast_dimensions", broadcast_dimensions)
    sharding = resolve_out_sharding(out_sharding, "broadcast_in_dim")
    aval = get_aval(operand)
    if not shape and not aval.shape and isinstance(operand, Array) and sharding is None:
        return operand  # a scalar array as it is; any other identity is bound, an eager one making a new array
    # as in JAX (a traced one too: staging forwards it, linear_transpose's trace keeps it and its transpose stages
    # a reduce_sum over no axes, as JAX's)
    if aval.shape == shape and dims == tuple(range(aval.ndim)) and sharding is not None \
            and not typed_as(aval, sharding):
        return placement.reshard(operand, out_sharding)  # only the layout changes: JAX stages a reshard
    return broadcast_in_dim_p.bind(operand, shape=shape, broadcast_dimensions=dims, sharding=sharding)


def _is_identity(operand_shape: tuple[int, ...], shape: tuple[int, ...], dims: tuple[int, ...]) -> bool:
    return operand_shape == shape and dims == tuple(range(len(shape)))


def _forward_identity_broadcast(args, params):
    (x,) = args
    sharding, aval = params["sharding"], get_aval(x)
    if (sharding is None or typed_as(aval, sharding)) and _is_identity(aval.shape, params["shape"],
                                                                       params["broadcast_dimensions"]):
        return x
    return None


forwarding_rules[broadcast_in_dim_p] = _forward_identity_broadcast


def broadcast(operand, sizes: Sequence[int], *, out_sharding=None):
    """Add leading dimensions of the given ``sizes``."""
    aval = get_aval(operand)
    sizes = tuple(sizes)
    if not sizes and out_sharding is None and isinstance(operand, Array):
        return operand  # as JAX's, which binds nothing then
    dims = tuple(range(len(sizes), len(sizes) + aval.ndim))
    return broadcast_in_dim(operand, sizes + aval.shape, dims, out_sharding=out_sharding)


def broadcast_to_rank(x, rank: int):
    """``x`` with leading size-1 dimensions added up to ``rank`` (unchanged if already that rank or more)."""
    ndim = get_aval(x).ndim
    if ndim >= rank:  # as JAX's, a NumPy value is made an array
        return convert_element_type(x, get_aval(x).dtype) if isinstance(x, (np.ndarray, np.generic)) else x
    return broadcast(x, (1,) * (rank - ndim))


def expand_dims(array, dimensions: Sequence[int]):
    """Insert size-1 dimensions at ``dimensions`` (positions in the result)."""
    aval = get_aval(array)
    out_ndim = aval.ndim + len(dimensions)
    dims = [normalize_axis(d, out_ndim) for d in as_int_tuple(dimensions)]
    if len(set(dims)) != len(dims):
        raise ValueError(f"repeated axis in lax.expand_dims: {tuple(dimensions)}")
    kept = [d for d in range(out_ndim) if d not in dims]
    shape = [1] * out_ndim
    for d, size in zip(kept, aval.shape):
        shape[d] = size
    return broadcast_in_dim(array, shape, kept)


def broadcast_shapes(*shapes: Sequence[int]) -> tuple[int, ...]:
    """The shape NumPy's broadcasting gives arrays of ``shapes`` (aligned at their last dimensions)."""
    assert shapes  # JAX's own check, kept so that no shapes fail as they do in JAX
    ndim = max(len(s) for s in shapes)
    shapes = [canonical_shape(s) for s in shapes]
    for shape in shapes:
        if any(d < 0 for d in shape):
            raise TypeError(f"Only non-negative indices are allowed when broadcasting static shapes, but got shape "
                            f"{shape}.")
    padded = [(1,) * (ndim - len(s)) + s for s in shapes]
    result = []
    for sizes in zip(*padded):
        stretched = {d for d in sizes if d != 1}
        if len(stretched) > 1:
            raise ValueError(f"Incompatible shapes for broadcasting: shapes={list(shapes)}")
        result.append(stretched.pop() if stretched else 1)
    return tuple(result)


def broadcast_like(arr, like_arr):
    """``arr`` broadcast (NumPy's way: trailing dimensions aligned, size 1 stretching) to ``like_arr``'s shape."""
    aval, shape = get_aval(arr), tuple(like_arr.shape if hasattr(like_arr, "shape") else np.shape(like_arr))
    if aval.shape == shape:
        return arr
    lead = len(shape) - aval.ndim
    if lead < 0:
        raise ValueError(f"Cannot broadcast to shape with fewer dimensions: arr_shape={aval.shape} shape={shape}")
    if any(d not in (1, target) for d, target in zip(aval.shape, shape[lead:])):
        given, requested = (f"{aval.dtype.name}[{','.join(map(str, dims))}]" for dims in (aval.shape, shape))
        raise ValueError(f"Incompatible types for broadcasting: input type={given} and requested type={requested}")
    return broadcast_in_dim(arr, shape, range(lead, len(shape)))


# ---------------------------------------------------------------- reshape

reshape_p = Primitive("reshape")


@reshape_p.def_abstract_eval
def _reshape_aval(x, *, new_sizes, dimensions, sharding):
    if any(d < 0 for d in new_sizes):
        raise TypeError(f"reshape new_sizes must all be positive, got {new_sizes}.")
    check_element_count(new_sizes)
    if math.prod(new_sizes) != x.size:  # exact: check_element_count bounds the product
        raise TypeError(f"reshape total size must be unchanged, got new_sizes {new_sizes} (of total size "
                        f"{math.prod(new_sizes)}) for shape {x.shape} (of total size {x.size}).")
    if dimensions is not None and sorted(dimensions) != list(range(x.ndim)):
        raise TypeError(f"reshape dimensions must be a permutation of operand dimensions, got dimensions "
                        f"{dimensions} for shape {x.shape}.")
    return ShapedArray(new_sizes, x.dtype, x.weak_type)


@reshape_p.def_impl
def _reshape_impl(x, *, new_sizes, dimensions, sharding):
    if dimensions is not None:
        x = np.transpose(x, dimensions)
    return np.reshape(x, new_sizes)


def reshape(operand, new_sizes: Sequence[int], dimensions: Sequence[int] | None = None, *, out_sharding=None):
    """``operand`` with a new shape of the same size (after transposing by ``dimensions`` if given)."""
    new_sizes = canonical_shape(new_sizes)
    aval = get_aval(operand)
    dims = None if dimensions is None or tuple(dimensions) == tuple(range(aval.ndim)) else as_int_tuple(dimensions)
    sharding = resolve_out_sharding(out_sharding, "reshape")
    if aval.shape == new_sizes and dims is None and aval.ndim and _is_array(operand) and (
            sharding is None or typed_as(aval, sharding)):  # as JAX's, a 0-d operand is always reshaped
        return operand
    return reshape_p.bind(operand, new_sizes=new_sizes, dimensions=dims, sharding=sharding)


def collapse(operand, start_dimension: int, stop_dimension: int | None = None):
    """``operand`` with dimensions ``start_dimension:stop_dimension`` (a Python slice of its shape) merged into one."""
    shape = operand.shape
    start, stop, _ = slice(start_dimension, stop_dimension).indices(len(shape))
    if stop < start:
        raise ValueError(f"Invalid dimension range passed to collapse: {shape}[{start_dimension}:{stop_dimension}]")
    size = int(np.prod(shape[start:stop], dtype=np.int64))
    return reshape(operand, shape[:start] + (size,) + shape[stop:])


# ---------------------------------------------------------------- squeeze

squeeze_p = Primitive("squeeze")


@squeeze_p.def_abstract_eval
def _squeeze_aval(x, *, dimensions):
    for d in dimensions:
        if not 0 <= d < x.ndim or x.shape[d] != 1:
            raise ValueError(f"cannot select an axis to squeeze out which has size not equal to one, got "
                             f"shape={x.shape} and dimensions={dimensions}")
    return ShapedArray([s for i, s in enumerate(x.shape) if i not in dimensions], x.dtype, x.weak_type)


@squeeze_p.def_impl
def _squeeze_impl(x, *, dimensions):
    return np.squeeze(x, axis=dimensions)


def _is_array(x) -> bool:
    """Whether ``x`` is an array or a tracer: what an operation that changes nothing returns as it is (as JAX's
    do; a NumPy or Python value is made an array by binding the operation)."""
    return isinstance(x, (Array, core.Tracer))


def squeeze(array, dimensions: Sequence[int]):
    """Remove the size-1 ``dimensions``."""
    ndim = get_aval(array).ndim
    dimensions = as_int_tuple(dimensions)
    if ndim == 0 and dimensions:  # normalize_axis lets axis 0 of a scalar through; a scalar has no axis to drop
        raise ValueError(f"axis {dimensions[0]} is out of bounds for array of dimension 0")
    dims = tuple(sorted({normalize_axis(d, ndim) for d in dimensions}))
    if not dims and _is_array(array):
        return array
    return squeeze_p.bind(array, dimensions=dims)


# ---------------------------------------------------------------- transpose

transpose_p = Primitive("transpose")


@transpose_p.def_abstract_eval
def _transpose_aval(x, *, permutation):
    if sorted(permutation) != list(range(x.ndim)):
        raise TypeError(f"transpose permutation isn't a permutation of operand dimensions, got permutation "
                        f"{permutation} for operand shape {x.shape}.")
    return ShapedArray([x.shape[p] for p in permutation], x.dtype, x.weak_type)


@transpose_p.def_impl
def _transpose_impl(x, *, permutation):
    return np.transpose(x, permutation)


def transpose(operand, permutation: Sequence[int]):
    """Permute the dimensions of ``operand``."""
    permutation = as_int_tuple(permutation)
    if permutation == tuple(range(len(permutation))) and _is_array(operand):
        _transpose_aval(get_aval(operand), permutation=permutation)
        return operand
    return transpose_p.bind(operand, permutation=permutation)


# ---------------------------------------------------------------- rev

rev_p = Primitive("rev")


@rev_p.def_abstract_eval
def _rev_aval(x, *, dimensions):
    if any(d < 0 for d in dimensions):
        raise TypeError(f"rev dimensions must have every element be nonnegative, got {dimensions}.")
    if len(set(dimensions)) != len(dimensions):
        raise TypeError(f"rev dimensions must be unique, got {dimensions}.")
    if dimensions and max(dimensions) >= x.ndim:
        raise TypeError(f"rev dimensions must all be less than operand ndim, got dimensions {dimensions} for "
                        f"operand ndim {x.ndim}.")
    return ShapedArray(x.shape, x.dtype, x.weak_type)


@rev_p.def_impl
def _rev_impl(x, *, dimensions):
    return np.flip(x, dimensions) if dimensions else x


def rev(operand, dimensions: Sequence[int]):
    """``operand`` reversed along ``dimensions``."""
    return rev_p.bind(operand, dimensions=check_integer_elements("rev", "dimensions", dimensions))


# ---------------------------------------------------------------- pad

pad_p = Primitive("pad")


@pad_p.def_abstract_eval
def _pad_aval(x, padding_value, *, padding_config):
    if x.dtype != padding_value.dtype:
        raise TypeError(f"pad operand and padding_value must be same dtype: got {x.dtype.name} and "
                        f"{padding_value.dtype.name}.")
    if padding_value.shape:
        raise ValueError(f"padding_value must be a scalar; got np.shape(padding_value)={padding_value.shape}")
    if len(padding_config) != x.ndim:
        raise ValueError(f"length of padding_config must equal the number of axes of operand, got padding_config "
                         f"{padding_config} for operand shape {x.shape}")
    if any(interior < 0 for _, _, interior in padding_config):
        raise ValueError(f"interior padding in padding_config must be nonnegative, got padding_config "
                         f"{padding_config}")
    shape = tuple(_padded_size(size, *config) for size, config in zip(x.shape, padding_config))
    if any(d < 0 for d in shape):
        raise ValueError(f"Dimension size after padding is not at least 0, got result shape {shape}, for "
                         f"padding_config {padding_config} and operand shape {x.shape}")
    return ShapedArray(shape, x.dtype, x.weak_type)


def _padded_size(size: int, low: int, high: int, interior: int) -> int:
    return low + high + size + max(size - 1, 0) * interior


@pad_p.def_impl
def _pad_impl(x, padding_value, *, padding_config):
    for axis, (low, high, interior) in enumerate(padding_config):
        size = x.shape[axis]
        if interior and size > 1:
            spread_shape = list(x.shape)
            spread_shape[axis] = (size - 1) * (interior + 1) + 1
            spread = np.full(spread_shape, padding_value, x.dtype)
            index = [slice(None)] * x.ndim
            index[axis] = slice(None, None, interior + 1)
            spread[tuple(index)] = x
            x = spread
        edge_shape = list(x.shape)
        edge_shape[axis] = max(low, 0)
        before = np.full(edge_shape, padding_value, x.dtype)
        edge_shape[axis] = max(high, 0)
        after = np.full(edge_shape, padding_value, x.dtype)
        x = np.concatenate([before, x, after], axis=axis)
        index = [slice(None)] * x.ndim
        index[axis] = slice(max(-low, 0), x.shape[axis] - max(-high, 0))
        x = x[tuple(index)]
    return x


def pad(operand, padding_value, padding_config: Sequence[tuple[int, int, int]]):
    """Pad ``operand`` with ``padding_value``: ``(low, high, interior)`` per dimension; negative low/high crop."""
    config = tuple(tuple(dim) for dim in padding_config)
    if not all(isinstance(p, (int, np.integer)) for dim in config for p in dim):
        # JAX meets a float while forming the result's shape: report that shape
        canonicalize_shape(tuple(_padded_size(size, *dim) for size, dim in zip(get_aval(operand).shape, config)))
    for dim in config:
        as_int_tuple(dim)  # each entry an integer
    # The entries are kept as given (NumPy integers too), as JAX's parameters print them.
    return pad_p.bind(operand, padding_value, padding_config=config)


# ---------------------------------------------------------------- concatenate

concatenate_p = Primitive("concatenate")


@concatenate_p.def_abstract_eval
def _concatenate_aval(*operands, dimension):
    if not operands:
        raise ValueError("concatenate requires a non-empty sequences of arrays")
    shapes = ", ".join(str(x.shape) for x in operands)
    if len({x.ndim for x in operands}) != 1:
        raise TypeError(f"Cannot concatenate arrays with different numbers of dimensions: got {shapes}.")
    if not 0 <= dimension < operands[0].ndim:
        raise TypeError(f"concatenate dimension out of bounds: dimension {dimension} for shapes {shapes}.")
    if len({x.shape[:dimension] + x.shape[dimension + 1:] for x in operands}) != 1:
        raise TypeError(f"Cannot concatenate arrays with shapes that differ in dimensions other than the one being "
                        f"concatenated: concatenating along dimension {dimension} for shapes {shapes}.")
    check_same_dtypes("concatenate", operands, "concatenate")
    shape = list(operands[0].shape)
    shape[dimension] = sum(x.shape[dimension] for x in operands)
    return ShapedArray(shape, operands[0].dtype, all(x.weak_type for x in operands))


@concatenate_p.def_impl
def _concatenate_impl(*operands, dimension):
    return np.concatenate(operands, axis=dimension)


def concatenate(operands: Sequence, dimension: int):
    """Join ``operands`` along ``dimension``."""
    operands = list(operands)
    dimension = operator.index(dimension)
    if len(operands) == 1 and _is_array(operands[0]):
        _concatenate_aval(get_aval(operands[0]), dimension=dimension)
        return operands[0]
    return concatenate_p.bind(*operands, dimension=dimension)


# ---------------------------------------------------------------- split

split_p = Primitive("split")
split_p.multiple_results = True


@split_p.def_abstract_eval
def _split_aval(x, *, sizes, axis):
    if any(s < 0 for s in sizes):
        raise ValueError(f"Sizes passed to split must be nonnegative, got {list(sizes)}")
    if sum(sizes) != x.shape[axis]:
        raise ValueError(f"Sum of sizes {sum(sizes)} must be equal to dimension {axis} of the operand shape "
                         f"{list(x.shape)}")
    return [ShapedArray(x.shape[:axis] + (int(s),) + x.shape[axis + 1:], x.dtype, x.weak_type) for s in sizes]


@split_p.def_impl
def _split_impl(x, *, sizes, axis):
    return np.split(x, np.cumsum(sizes[:-1], dtype=np.int64), axis=axis) if sizes else []


def split(operand, sizes: Sequence[int], axis: int = 0):
    """Cut ``operand`` along ``axis`` into consecutive pieces of ``sizes`` (which must add up to its length)."""
    shape = get_aval(operand).shape
    axis = operator.index(axis)
    if not -len(shape) <= axis < len(shape):
        raise ValueError(f"axis {axis} is out of bounds for array of dimension {len(shape)}")
    axis %= len(shape)
    for size in sizes:  # each piece's shape must be a valid shape (a float size is not)
        canonicalize_shape(shape[:axis] + (size,) + shape[axis + 1:])
    # The sizes are kept as given (NumPy integers too), as JAX's parameters print them.
    return split_p.bind(operand, sizes=tuple(sizes), axis=axis)


# ---------------------------------------------------------------- stack, unstack, tile

stack_p = Primitive("stack")


@stack_p.def_abstract_eval
def _stack_aval(*operands, axis):
    if len({x.ndim for x in operands}) > 1:
        raise ValueError("Cannot stack arrays with different numbers of dimensions: got "
                         f"{', '.join(str(x.shape) for x in operands)}.")
    if len({x.shape for x in operands}) > 1:
        raise ValueError(f"All input arrays must have the same shape. Got {', '.join(str(x.shape) for x in operands)}.")
    check_same_dtypes("stack", operands, None)
    shape = operands[0].shape
    return ShapedArray(shape[:axis] + (len(operands),) + shape[axis:], operands[0].dtype,
                       all(x.weak_type for x in operands))


@stack_p.def_impl
def _stack_impl(*operands, axis):
    return np.stack(operands, axis=axis)


def stack(operands: Sequence, axis: int = 0):
    """Join ``operands`` (of one shape and dtype) along a new dimension ``axis``."""
    operands = list(operands)
    # JAX reads the rank off the first operand before anything else: an empty list fails right here
    ndim = get_aval(operands[0]).ndim
    axis = normalize_axis(operator.index(axis), ndim + 1)
    return stack_p.bind(*operands, axis=axis)


unstack_p = Primitive("unstack")
unstack_p.multiple_results = True


@unstack_p.def_abstract_eval
def _unstack_aval(x, *, axis):
    shape = x.shape[:axis] + x.shape[axis + 1:]
    return [ShapedArray(shape, x.dtype, x.weak_type)] * x.shape[axis]


@unstack_p.def_impl
def _unstack_impl(x, *, axis):
    return [np.take(x, i, axis=axis) for i in range(x.shape[axis])]


def unstack(x, axis: int = 0) -> tuple:
    """The slices of ``x`` along ``axis``, that dimension removed, as a tuple."""
    ndim, axis = get_aval(x).ndim, operator.index(axis)
    if not -ndim <= axis < ndim:
        raise ValueError(f"axis {axis} is out of bounds for array of dimension {ndim}")
    return tuple(unstack_p.bind(x, axis=axis % ndim))


tile_p = Primitive("tile")


@tile_p.def_abstract_eval
def _tile_aval(x, *, reps):
    if len(reps) != x.ndim:
        raise TypeError(f"reps length must be equal to the ndim of x, got len(reps)={len(reps)} and x.ndim={x.ndim}.")
    # NumPy products, so that non-integer reps are reported (as JAX reports them) by the shape check
    return ShapedArray(canonical_shape(tuple(np.multiply(x.shape, reps))), x.dtype, x.weak_type)


@tile_p.def_impl
def _tile_impl(x, *, reps):
    return np.tile(x, reps)


def tile(operand, reps: Sequence[int]):
    """``operand`` repeated ``reps[i]`` times along each dimension ``i`` (one entry per dimension)."""
    return tile_p.bind(operand, reps=tuple(reps))


# ---------------------------------------------------------------- reshapes shared by AD and batching rules


def split_axis(x, axis: int, parts: int):
    """``x`` with dimension ``axis`` reshaped into ``(parts, rest)``."""
    shape = list(get_aval(x).shape)
    shape[axis:axis + 1] = [parts, shape[axis] // parts]
    return reshape(x, tuple(shape))


def merge_axis(x, src: int, dst: int):
    """``x`` with dimension ``src`` folded (as the major part) into dimension ``dst`` (counted without ``src``)."""
    shape = get_aval(x).shape
    order = [i for i in range(len(shape)) if i != src]
    order.insert(dst, src)
    merged = [d for i, d in enumerate(shape) if i != src]
    merged[dst] *= shape[src]
    return reshape(x, tuple(merged), tuple(order))

