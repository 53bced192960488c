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
from jaxle_core.shape_poly import InconclusiveDimensionOperation
from jaxle_xla import JaxRuntimeError

__all__ = ["ConcretizationTypeError", "InconclusiveDimensionOperation", "JAXIndexError", "JAXTypeError",
           "JaxRuntimeError", "JaxprTypeError", "KeyReuseError", "NonConcreteBooleanIndexError",
           "TracerArrayConversionError", "TracerBoolConversionError", "TracerIntegerConversionError",
           "UnexpectedTracerError"]
