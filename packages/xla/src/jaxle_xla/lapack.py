"""Calling jaxlib's LAPACK kernels from a lowering, as JAX 0.10.2 calls them on CPU (same kernels, same bits).

jaxlib ships LAPACK routines as typed-FFI custom-call targets named ``lapack_<t><routine>_ffi``, ``<t>`` being
``s``, ``d``, ``c`` or ``z`` for float32, float64, complex64 and complex128 (``lapack_dgetrf_ffi``). A lowering
rule emits one with ``lapack_call``::

    factor, info = lapack_call(ctx, "potrf", [x], [x.aval, info_aval(x)], attributes={"uplo": char("L")},
                               aliases={0: 0})
    return nan_where_failed(ctx, info, [factor])[0]

- Operands and results carry leading batch dimensions; the kernel loops over them. ``info`` results have the batch
  shape and type int32 (also with x64), as do pivots.
- Arrays of the largest operand rank are passed column-major (LAPACK's order), lower-rank ones (vectors of a
  batch, scalars) row-major; ``lapack_call`` writes these layouts.
- Character options are ``ui8`` ASCII codes (``char("L")``), booleans ``flag(True)``, integers ``int32(n)``.
- Every call carries the attributes JAX gives it for partitioning: its number of batch dimensions (the frontend
  attribute ``num_batch_dims``) and Shardy's sharding rule (``sharding_rule``), which shares the batch dimensions of
  all operands and results and gives every matrix (or vector) dimension a factor of its own.
- The targets are registered with XLA on the first call, so importing jaxle does not load LAPACK.
- A call on a matrix with no elements crashes the kernel (a division by zero): rules handle empty operands
  without calling LAPACK. LAPACK takes the four types above only: rules check with ``check_lapack_dtype`` first.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np

from jaxle_core.avals import ShapedArray
from jaxle_core.lax.linalg_support import nan_of
from jaxle_xla import _jaxlib
from jaxle_xla.lowering.context import LoweringContext, Value, i64_array

__all__ = ["char", "empty_results", "filled", "flag", "identity_matrices", "info_aval", "int32", "lapack_call",
           "lapack_target", "nan_where_failed", "operand_alias", "sharding_rule"]

_TYPE_LETTERS = {np.dtype(np.float32): "s", np.dtype(np.float64): "d", np.dtype(np.complex64): "c",
                 np.dtype(np.complex128): "z"}
# Routines whose complex (Hermitian, unitary) versions LAPACK names differently.
_COMPLEX_NAMES = {"orgqr": "ungqr", "ormqr": "unmqr", "syevd": "heevd", "sytrd": "hetrd"}


# jaxlib's own kernels beside LAPACK: one target for every element type.
_TYPE_GENERIC = {"tridiagonal_solve_perturbed"}


def lapack_target(routine: str, dtype: np.dtype) -> str:
    """The custom-call target of ``routine`` (its real name, ``"orgqr"``) for ``dtype``: ``lapack_cungqr_ffi``."""
    if routine in _TYPE_GENERIC:
        return f"{routine}_ffi"
    letter = _TYPE_LETTERS[np.dtype(dtype)]
    name = _COMPLEX_NAMES.get(routine, routine) if letter in "cz" else routine
    return f"lapack_{letter}{name}_ffi"


def char(value: str) -> str:
    """A character option (``"L"``, ``"N"``) as the ``ui8`` attribute the kernels read."""
    return f"{ord(value)} : ui8"


def flag(value: bool) -> str:
    """A boolean option."""
    return "true" if value else "false"


def int32(value: int) -> str:
    """An integer option."""
    return f"{int(value)} : i32"


def _layout(rank: int, matrix_rank: int) -> str:
    if rank >= 2 and rank == matrix_rank:  # column-major matrices: minor-to-major rows, columns, then the batch
        order = [rank - 2, rank - 1, *range(rank - 3, -1, -1)]
    else:
        order = list(range(rank - 1, -1, -1))
    return f"dense<{order}> : tensor<{rank}xindex>" if rank else "dense<> : tensor<0xindex>"


def operand_alias(result: int, operand: int, single_result: bool) -> str:
    """A custom call's ``output_operand_aliases`` entry: ``result`` may reuse the buffer of ``operand``."""
    index = "[]" if single_result else f"[{result}]"
    return f"#stablehlo.output_operand_alias<output_tuple_indices = {index}, operand_index = {operand}, " \
           "operand_tuple_indices = []>"


def lapack_call(ctx: LoweringContext, routine: str, operands: Sequence[Value], results: Sequence[ShapedArray], *,
                attributes: Mapping[str, str] | None = None, aliases: Mapping[int, int] | None = None,
                dtype: np.dtype | None = None) -> list[Value]:
    """Emit the LAPACK kernel ``routine`` (``"getrf"``) on ``operands``, returning its ``results``.

    The element type (``dtype``, by default the first operand's) picks the kernel; ``attributes`` are its options
    (values written with ``char``, ``flag``, ``int32``); ``aliases`` maps a result to the operand whose buffer it
    may reuse, as JAX declares them."""
    _jaxlib.register_lapack_targets()
    target = lapack_target(routine, operands[0].aval.dtype if dtype is None else dtype)
    matrix_rank = max(v.aval.ndim for v in operands)
    options = ", ".join(f"{name} = {value}" for name, value in (attributes or {}).items())
    call_attributes = {
        "call_target_name": f'"{target}"',
        "backend_config": '""',
        "mhlo.backend_config": "{" + options + "}",
        "operand_layouts": "[" + ", ".join(_layout(v.aval.ndim, matrix_rank) for v in operands) + "]",
        "result_layouts": "[" + ", ".join(_layout(a.ndim, matrix_rank) for a in results) + "]",
        **sharding_rule([v.aval for v in operands], results),
    }
    if aliases:
        call_attributes["output_operand_aliases"] = "[" + ", ".join(
            operand_alias(r, o, len(results) == 1) for r, o in aliases.items()) + "]"
    return ctx.op("stablehlo.custom_call", operands, results, call_attributes)


def _factor_name(index: int) -> str:
    """Shardy's ``index``-th factor name as JAX writes them: ``i`` to ``z``, then ``z_1``, ``z_2``, ..."""
    letters = "ijklmnopqrstuvwxyz"
    return letters[index] if index < len(letters) else f"z_{index - len(letters) + 1}"


def sharding_rule(operands: Sequence[ShapedArray], results: Sequence[ShapedArray]) -> dict[str, str]:
    """The partitioning attributes of a kernel call on ``operands`` giving ``results``: the number of batch
    dimensions (those the largest operand has beyond one matrix) as a frontend attribute, and a Shardy sharding rule
    in which the batch dimensions of every operand and result are the same factors and each other dimension a factor
    of its own (so that the partitioner may split the batch but keeps each matrix whole)."""
    batch = max(a.ndim for a in operands) - 2
    sizes = list(operands[0].shape[:batch])
    def factors(aval: ShapedArray) -> str:
        names = [_factor_name(i) for i in range(batch)]
        for size in aval.shape[batch:]:
            names.append(_factor_name(len(sizes)))
            sizes.append(size)
        return "[" + ", ".join(names) + "]"
    inputs, outputs = ", ".join(map(factors, operands)), ", ".join(map(factors, results))
    declared = ", ".join(f"{_factor_name(i)}={size}" for i, size in enumerate(sizes))
    return {"mhlo.frontend_attributes": f'{{num_batch_dims = "{batch}"}}',
            "sdy.sharding_rule": f"#sdy.op_sharding_rule<({inputs})->({outputs}) {{{declared}}}, custom>"}


def nan_where_failed(ctx: LoweringContext, info: Value, values: Sequence[Value],
                     accept_positive: bool = False) -> list[Value]:
    """``values`` where the batch element's ``info`` is 0 (or positive too, with ``accept_positive``), NaN in the
    elements of failed ones: how JAX reports a LAPACK failure, written as JAX writes it (the test once, then for each
    value the test broadcast over the value's own dimensions, a NaN filling the value, and a select)."""
    ok = ctx.compare("GE" if accept_positive else "EQ", info, filled(ctx, 0, info.aval))
    return [_nan_where_not(ctx, ok, value) for value in values]


def _nan_where_not(ctx: LoweringContext, ok: Value, value: Value) -> Value:
    batch = ok.aval.shape
    padded = ShapedArray(batch + (1,) * (value.aval.ndim - len(batch)), np.bool_)
    mask = _broadcast(ctx, ok, padded, range(len(batch)))
    nan = filled(ctx, nan_of(value.aval.dtype), value.aval)
    if mask.aval.shape != value.aval.shape:
        mask = _broadcast(ctx, mask, padded.update(shape=value.aval.shape), range(value.aval.ndim))
    return ctx.select(mask, value, nan)


def filled(ctx: LoweringContext, scalar: Any, aval: ShapedArray) -> Value:
    """``scalar`` filling ``aval``, as JAX's rules write it: a scalar constant broadcast (even to a scalar)."""
    return _broadcast(ctx, ctx.constant(np.array(scalar, aval.dtype)), aval, ())


def _broadcast(ctx: LoweringContext, value: Value, aval: ShapedArray, dims: Iterable[int]) -> Value:
    return ctx.op1("stablehlo.broadcast_in_dim", [value], aval, {"broadcast_dimensions": i64_array(dims)})


def info_aval(x: Value) -> ShapedArray:
    """The aval of a kernel's status result for the operand ``x``: one int32 per matrix."""
    return ShapedArray(x.aval.shape[:-2], np.int32)


def empty_results(ctx: LoweringContext, avals: Sequence[ShapedArray]) -> list[Value]:
    """Zero-filled results of ``avals``, for rules whose operand has no elements (every such result is empty, or an
    identity the rule builds with ``identity_matrices``)."""
    return [ctx.full_like(0, aval) for aval in avals]


def identity_matrices(ctx: LoweringContext, aval: ShapedArray) -> Value:
    """Identity matrices of ``aval`` (square in its two minor dimensions, under any batch dimensions)."""
    eye = np.broadcast_to(np.eye(aval.shape[-1], dtype=aval.dtype), aval.shape)
    return ctx.constant(eye, aval.dtype, aval.shape)
