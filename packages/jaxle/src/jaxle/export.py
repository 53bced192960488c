"""``jax.export``: jitted functions saved as StableHLO, called or compiled later."""

from jaxle_xla.export import (
    Exported,
    default_export_platform,
    deserialize,
    export,
    maximum_supported_calling_convention_version,
    minimum_supported_calling_convention_version,
)

__all__ = ["Exported", "default_export_platform", "deserialize", "export",
           "maximum_supported_calling_convention_version", "minimum_supported_calling_convention_version"]
