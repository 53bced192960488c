"""Dot algorithms: an explicit choice of the element types a contraction computes and accumulates in, given as the
``precision`` of ``dot_general``, ``dot`` or a convolution (``DotAlgorithm``, or one of ``DotAlgorithmPreset``)."""

from __future__ import annotations

import enum
from typing import Any, NamedTuple

import ml_dtypes
import numpy as np

__all__ = ["DotAlgorithm", "DotAlgorithmPreset"]


class DotAlgorithm(NamedTuple):
    """The operand and accumulation types of a contraction, how many components each operand is split into and how
    many primitive products are summed (XLA's ``algorithm`` attribute of ``dot_general``)."""

    lhs_precision_type: Any
    rhs_precision_type: Any
    accumulation_type: Any
    lhs_component_count: int = 1
    rhs_component_count: int = 1
    num_primitive_operations: int = 1
    allow_imprecise_accumulation: bool = False


_F16, _BF16, _F32, _F64 = np.float16, ml_dtypes.bfloat16, np.float32, np.float64


class DotAlgorithmPreset(enum.Enum):
    """Named dot algorithms: ``<lhs>_<rhs>_<accumulation>`` types, ``_X<n>`` for n bfloat16 products per float32
    product; DEFAULT leaves the choice to the backend."""

    DEFAULT = enum.auto()
    ANY_F8_ANY_F8_F32 = enum.auto()
    ANY_F8_ANY_F8_F32_FAST_ACCUM = enum.auto()
    ANY_F8_ANY_F8_ANY = enum.auto()
    ANY_F8_ANY_F8_ANY_FAST_ACCUM = enum.auto()
    F16_F16_F16 = enum.auto()
    F16_F16_F32 = enum.auto()
    BF16_BF16_BF16 = enum.auto()
    BF16_BF16_F32 = enum.auto()
    BF16_BF16_F32_X3 = enum.auto()
    BF16_BF16_F32_X6 = enum.auto()
    BF16_BF16_F32_X9 = enum.auto()
    TF32_TF32_F32 = enum.auto()
    TF32_TF32_F32_X3 = enum.auto()
    F32_F32_F32 = enum.auto()
    F64_F64_F64 = enum.auto()

    def __repr__(self) -> str:
        return f"DotAlgorithmPreset.{self.name}"

    def __str__(self) -> str:
        return self.name

    @property
    def supported_lhs_types(self) -> tuple | None:
        """The operand types the algorithm takes as they are (others are converted to the first); None: any."""
        return _OPERAND_TYPES.get(self)

    @property
    def supported_rhs_types(self) -> tuple | None:
        return _OPERAND_TYPES.get(self)

    @property
    def accumulation_type(self) -> Any:
        """The type products are summed in (None: the backend's choice)."""
        return _ACCUMULATION_TYPES.get(self)

    def supported_output_types(self, lhs_dtype: Any, rhs_dtype: Any) -> tuple | None:
        """The result types the algorithm can produce directly for operands of these types."""
        if self.accumulation_type is None:
            return None
        if self is DotAlgorithmPreset.BF16_BF16_F32 and np.dtype(lhs_dtype) == np.dtype(_BF16):
            return _F32, _BF16
        return (self.accumulation_type,)


_OPERAND_TYPES = {
    DotAlgorithmPreset.F16_F16_F16: (_F16,), DotAlgorithmPreset.F16_F16_F32: (_F16,),
    DotAlgorithmPreset.BF16_BF16_BF16: (_BF16, _F32), DotAlgorithmPreset.BF16_BF16_F32: (_BF16, _F32),
    DotAlgorithmPreset.BF16_BF16_F32_X3: (_F32,), DotAlgorithmPreset.BF16_BF16_F32_X6: (_F32,),
    DotAlgorithmPreset.BF16_BF16_F32_X9: (_F32,), DotAlgorithmPreset.TF32_TF32_F32: (_F32,),
    DotAlgorithmPreset.TF32_TF32_F32_X3: (_F32,), DotAlgorithmPreset.F32_F32_F32: (_F32,),
    DotAlgorithmPreset.F64_F64_F64: (_F64,),
}
_ACCUMULATION_TYPES = {
    DotAlgorithmPreset.ANY_F8_ANY_F8_F32: _F32, DotAlgorithmPreset.ANY_F8_ANY_F8_F32_FAST_ACCUM: _F32,
    DotAlgorithmPreset.F16_F16_F16: _F16, DotAlgorithmPreset.F16_F16_F32: _F32,
    DotAlgorithmPreset.BF16_BF16_BF16: _BF16, DotAlgorithmPreset.BF16_BF16_F32: _F32,
    DotAlgorithmPreset.BF16_BF16_F32_X3: _F32, DotAlgorithmPreset.BF16_BF16_F32_X6: _F32,
    DotAlgorithmPreset.BF16_BF16_F32_X9: _F32, DotAlgorithmPreset.TF32_TF32_F32: _F32,
    DotAlgorithmPreset.TF32_TF32_F32_X3: _F32, DotAlgorithmPreset.F32_F32_F32: _F32,
    DotAlgorithmPreset.F64_F64_F64: _F64,
}

# What XLA's CPU backend can run: every other algorithm is refused when lowering, as JAX does.
_CPU_PRESETS = frozenset({
    DotAlgorithmPreset.DEFAULT, DotAlgorithmPreset.F16_F16_F16, DotAlgorithmPreset.BF16_BF16_F32,
    DotAlgorithmPreset.BF16_BF16_F32_X3, DotAlgorithmPreset.BF16_BF16_F32_X6, DotAlgorithmPreset.F32_F32_F32,
    DotAlgorithmPreset.F64_F64_F64})


def check_runs_on_cpu(precision: Any) -> None:
    """JAX's error for a dot algorithm the CPU backend cannot run."""
    if isinstance(precision, DotAlgorithm) or (isinstance(precision, DotAlgorithmPreset)
                                               and precision not in _CPU_PRESETS):
        raise ValueError(f"The precision '{precision}' is not supported by dot_general on CPU")


def algorithm_types(preset: DotAlgorithmPreset, lhs: np.dtype, rhs: np.dtype,
                    out: np.dtype) -> tuple[np.dtype, np.dtype, np.dtype]:
    """The types a preset's contraction takes and gives: operands of an unsupported type are converted to the
    preset's first, and a result type the preset cannot produce is computed in its accumulation type first."""

    def operand(dtype: np.dtype, supported: tuple) -> np.dtype:
        return dtype if any(dtype == np.dtype(t) for t in supported) else np.dtype(supported[0])

    lhs, rhs = operand(lhs, preset.supported_lhs_types), operand(rhs, preset.supported_rhs_types)
    outputs = preset.supported_output_types(lhs, rhs)
    produced = out if any(out == np.dtype(t) for t in outputs) else np.dtype(preset.accumulation_type)
    return lhs, rhs, produced
