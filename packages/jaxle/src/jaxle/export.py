"""``jax.export``: jitted functions saved as StableHLO, called or compiled later."""

from jaxle_xla.export import (
    DisabledSafetyCheck,
    Exported,
    default_export_platform,
    deserialize,
    export,
    maximum_supported_calling_convention_version,
    minimum_supported_calling_convention_version,
    register_namedtuple_serialization,
    register_pytree_node_serialization,
)

__all__ = ["DisabledSafetyCheck", "Exported", "default_export_platform", "deserialize", "export",
           "maximum_supported_calling_convention_version", "minimum_supported_calling_convention_version",
           "register_namedtuple_serialization", "register_pytree_node_serialization"]
