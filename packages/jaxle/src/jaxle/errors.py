"""``jax.errors``: the exception types jaxle raises."""

from jaxle_core.errors import (
    ConcretizationTypeError,
    JAXIndexError,
    JAXTypeError,
    KeyReuseError,
    NonConcreteBooleanIndexError,
    TracerArrayConversionError,
    TracerBoolConversionError,
    TracerIntegerConversionError,
    UnexpectedTracerError,
)
from jaxle_xla import JaxRuntimeError

__all__ = ["ConcretizationTypeError", "JAXIndexError", "JAXTypeError", "JaxRuntimeError", "KeyReuseError",
           "NonConcreteBooleanIndexError", "TracerArrayConversionError", "TracerBoolConversionError",
           "TracerIntegerConversionError", "UnexpectedTracerError"]
