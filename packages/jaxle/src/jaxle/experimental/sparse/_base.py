"""``JAXSparse``: the base class of every sparse array format (shape, dtype and the derived sizes, operators shared
by the formats)."""

from __future__ import annotations

import abc
import math
from typing import Any

import numpy as np

__all__ = ["JAXSparse"]


class JAXSparse(abc.ABC):
    """A sparse array: a pytree of buffers with a static shape. Subclasses define the buffers and ``todense``."""

    data: Any
    shape: tuple[int, ...]
    nse: property
    dtype: property

    __array_priority__ = 2000  # NumPy and jaxle arrays defer their binary operators to ours

    def __init__(self, args: tuple[Any, ...], *, shape: Any):
        self.shape = tuple(int(d) for d in shape)

    @property
    def size(self) -> int:
        return math.prod(self.shape)

    @property
    def ndim(self) -> int:
        return len(self.shape)

    def __len__(self) -> int:
        return self.shape[0]

    def __repr__(self) -> str:
        name = type(self).__name__
        try:
            nse, dtype = self.nse, np.dtype(self.dtype).name
        except Exception:  # a pytree of placeholders (object leaves): no buffers to describe
            return f"{name}(<invalid>)"
        extra = "".join(f", {field}={value}" for field in ("n_batch", "n_dense")
                        if (value := getattr(self, field, 0)))
        shape = ", ".join(map(str, self.shape))
        text = f"{name}({dtype}[{shape}], nse={nse}{extra})"
        from jaxle_core.core import Tracer

        if isinstance(self.data, Tracer):
            text = f"{type(self.data).__name__}[{text}]"
        return text

    @abc.abstractmethod
    def tree_flatten(self) -> tuple[tuple[Any, ...], dict[str, Any]]:
        """The buffers and the static fields."""

    @classmethod
    def tree_unflatten(cls, aux_data: dict[str, Any], children: Any) -> JAXSparse:
        """The array of buffers ``children`` and static fields ``aux_data``."""
        obj = object.__new__(cls)
        obj.__dict__.update(aux_data)
        for name, value in zip(cls._bufs, children):
            setattr(obj, name, value)
        return obj

    @abc.abstractmethod
    def todense(self) -> Any:
        """The dense array."""

    @abc.abstractmethod
    def transpose(self, axes: Any = None) -> JAXSparse:
        """The array with its dimensions permuted (reversed by default)."""

    @property
    def T(self) -> JAXSparse:
        return self.transpose()

    def block_until_ready(self) -> JAXSparse:
        """Wait until every buffer is computed; returns the array."""
        for name in self._bufs:
            getattr(self, name).block_until_ready()
        return self

    def sum(self, *args: Any, **kwargs: Any) -> Any:
        """The sum over ``axis`` (every axis by default)."""
        return self.todense().sum(*args, **kwargs)

    _bufs: tuple[str, ...] = ()

    # Operators a format does not define are refused, naming the format and the operator.
    def _unsupported(self, operator: str) -> Any:
        raise NotImplementedError(f"{self.__class__}.{operator}")

    def __neg__(self) -> Any:
        return self._unsupported("__neg__")

    def __matmul__(self, other: Any) -> Any:
        return self._unsupported("__matmul__")

    def __rmatmul__(self, other: Any) -> Any:
        return self._unsupported("__rmatmul__")

    def __mul__(self, other: Any) -> Any:
        return self._unsupported("__mul__")

    def __rmul__(self, other: Any) -> Any:
        return self._unsupported("__rmul__")

    def __add__(self, other: Any) -> Any:
        return self._unsupported("__add__")

    def __radd__(self, other: Any) -> Any:
        return self._unsupported("__radd__")

    def __sub__(self, other: Any) -> Any:
        return self._unsupported("__sub__")

    def __rsub__(self, other: Any) -> Any:
        return self._unsupported("__rsub__")

    def __getitem__(self, item: Any) -> Any:
        return self._unsupported("__getitem__")
