"""The exception types jaxle raises, with JAX's names and class hierarchy."""

from __future__ import annotations

_DOCS = "See https://docs.jax.dev/en/latest/errors.html#jax.errors."


class _JaxleErrorMixin:
    """Appends a pointer to the documentation page of the error."""

    def __init__(self, message: str):
        super().__init__(f"{message}\n{_DOCS}{type(self).__name__}")


class JAXTypeError(_JaxleErrorMixin, TypeError):
    """Base class for jaxle's TypeErrors."""


class JAXIndexError(_JaxleErrorMixin, IndexError):
    """Base class for jaxle's IndexErrors."""


class ConcretizationTypeError(JAXTypeError):
    """A traced (abstract) value was used where Python needs a concrete one."""


class TracerBoolConversionError(ConcretizationTypeError):
    """``bool()`` of a traced value, typically an ``if`` on a traced condition."""


class TracerIntegerConversionError(JAXTypeError):
    """``__index__`` of a traced value, for example ``range(x)`` or ``l[x]``."""


class TracerArrayConversionError(JAXTypeError):
    """``np.asarray`` of a traced value."""


class UnexpectedTracerError(JAXTypeError):
    """A tracer was used after the transformation that made it had finished."""


class KeyReuseError(JAXTypeError):
    """A PRNG key was consumed twice."""


class NonConcreteBooleanIndexError(JAXIndexError):
    """A boolean mask used as an index is traced, so the shape of the result is unknown."""
