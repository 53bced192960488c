"""Primitives that place values without changing them: ``stage`` (into the current trace) and
``device_put`` (onto a device, as ``jax.device_put`` stages inside a traced function).

With one device these are identities; their parameters are recorded as JAX records them.
"""

from __future__ import annotations

import enum
from typing import Any

from jaxle_core.core import Primitive
from jaxle_core.staging import staging_rewrites

__all__ = ["ArrayCopySemantics", "device_put_p", "stage", "stage_p"]

stage_p = Primitive("stage")
stage_p.def_abstract_eval(lambda aval: aval)
stage_p.def_impl(lambda x: x)
# Staging records nothing: a host value becomes a constant (or literal) of the jaxpr, a tracer stays itself.
staging_rewrites[stage_p] = lambda args, params: args[0]


def stage(x: Any, /) -> Any:
    """``x`` lifted into the current trace: an Array outside any transformation, else the trace's value."""
    return stage_p.bind(x)


class ArrayCopySemantics(enum.Enum):
    """Whether ``device_put`` copies its operand, may reuse its buffer, or donates it."""

    ALWAYS_COPY = 0
    REUSE_INPUT = 1
    DONATE_INPUT = 2

    def __repr__(self) -> str:
        return str(self)  # as jaxprs print it: ArrayCopySemantics.REUSE_INPUT


device_put_p = Primitive("device_put")
device_put_p.multiple_results = True


@device_put_p.def_abstract_eval
def _device_put_aval(*avals, devices, srcs, copy_semantics):
    if not len(avals) == len(devices) == len(srcs) == len(copy_semantics):
        raise ValueError(f"device_put: {len(avals)} operands need as many devices, sources and copy semantics; "
                         f"got {len(devices)}, {len(srcs)} and {len(copy_semantics)}")
    return list(avals)


device_put_p.def_impl(lambda *values, devices, srcs, copy_semantics: list(values))
