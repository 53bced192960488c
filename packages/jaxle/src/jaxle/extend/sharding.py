"""``jax.extend.sharding``: layouts named by XLA's HLO shardings (``GSPMDSharding``), jaxlib's ``xla_client`` and
the serialized-proto helpers between ``HloSharding``, ``OpSharding`` and bytes."""

from __future__ import annotations

from typing import Any

from jaxle_xla._jaxlib import xc as xla_client
from jaxle_xla.sharding import GSPMDSharding

__all__ = ["GSPMDSharding", "get_hlo_sharding_from_serialized_proto", "get_op_sharding_from_serialized_proto",
           "get_serialized_proto_from_hlo_sharding", "xla_client"]


def get_op_sharding_from_serialized_proto(serialized: bytes) -> Any:
    """The ``OpSharding`` a serialized OpSharding proto holds."""
    op_sharding = xla_client.OpSharding()
    op_sharding.ParseFromString(serialized)
    return op_sharding


def get_hlo_sharding_from_serialized_proto(serialized: bytes) -> Any:
    """The ``HloSharding`` a serialized OpSharding proto holds."""
    return xla_client.HloSharding.from_proto(get_op_sharding_from_serialized_proto(serialized))


def get_serialized_proto_from_hlo_sharding(hlo_sharding: Any) -> bytes:
    """``hlo_sharding`` as a serialized OpSharding proto."""
    return hlo_sharding.to_proto().SerializeToString()
