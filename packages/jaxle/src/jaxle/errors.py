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
from jaxle_core.jaxpr_util import JaxprTypeError
from jaxle_xla import JaxRuntimeError

__all__ = ["ConcretizationTypeError", "JAXIndexError", "JAXTypeError", "JaxRuntimeError", "JaxprTypeError",
           "KeyReuseError", "NonConcreteBooleanIndexError", "TracerArrayConversionError", "TracerBoolConversionError",
           "TracerIntegerConversionError", "UnexpectedTracerError"]
