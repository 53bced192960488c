"""``jax.export``: jitted functions saved as StableHLO, called or compiled later."""

from jaxle_core.shape_poly import SymbolicScope, is_symbolic_dim, symbolic_args_specs, symbolic_shape
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

__all__ = ["DisabledSafetyCheck", "Exported", "SymbolicScope", "default_export_platform", "deserialize", "export",
           "is_symbolic_dim", "maximum_supported_calling_convention_version",
           "minimum_supported_calling_convention_version", "register_namedtuple_serialization",
           "register_pytree_node_serialization", "symbolic_args_specs", "symbolic_shape"]
