"""What this folder's golden generators' cases share: how a case's outcome is recorded (its result described, or
the error it raised as its type's name and its message: whole, its first line, without JAX's note of the source
location, or with this folder's path left out of the source lines it names), and the meshes cases run over.

Imported by generators run under JAX as well, so it uses the standard library and NumPy alone.
"""

from __future__ import annotations

import pathlib
import re
from collections.abc import Callable
from typing import Any

import numpy as np

HERE = pathlib.Path(__file__).parent
MESH_KINDS = {"explicit": ("Explicit", "Explicit"), "auto": ("Auto", "Auto"), "mixed": ("Explicit", "Auto")}
"""The axis types of a two-axis mesh of each kind."""


def whole(message: str) -> str:
    """The message as it is."""
    return message


def first_line(message: str) -> str:
    """The message's first line."""
    return message.splitlines()[0]


def before_source(message: str) -> str:
    """The message without JAX's closing note of the source line it was raised for."""
    return message.split(" This error occurs at source")[0]


def in_golden(message: str) -> str:
    """The message with this folder's path written ``<golden>``: the same in every checkout."""
    return message.replace(str(HERE), "<golden>")


def _itself(value: Any) -> Any:
    return value


def failure(error: BaseException, message: Callable[[str], str] = whole) -> str:
    """``error`` recorded: its type's name and ``message`` of its text."""
    return f"{type(error).__name__}: {message(str(error))}"


def outcome(thunk: Callable[[], Any], describe: Callable[[Any], Any] = _itself, *,
            message: Callable[[str], str] = whole,
            errors: type[BaseException] | tuple[type[BaseException], ...] = Exception) -> Any:
    """``describe`` of what ``thunk()`` returns, or the ``failure`` it raises (one of ``errors``)."""
    try:
        result = thunk()
    except errors as error:  # the type and message are what is compared
        return failure(error, message)
    return describe(result)


def error_of(thunk: Callable[[], Any], message: Callable[[str], str] = whole, *, none: str = "no error") -> str:
    """The ``failure`` ``thunk()`` raises, or ``none`` where it raises nothing."""
    return outcome(thunk, lambda _: none, message=message)


def placed(array: Any) -> str:
    """An array's sharding, whether it is committed, and its values."""
    return f"{array.sharding} committed={array.committed} {np.asarray(array).tolist()}"


def typed_mesh(jax: Any, *kinds: str, shape: tuple[int, ...] = (2, 4), names: tuple[str, ...] = ("x", "y")) -> Any:
    """``jax.make_mesh`` of ``shape`` with axes ``names`` of the types ``kinds`` (one for all of them, or one each)."""
    types = tuple(getattr(jax.sharding.AxisType, kind) for kind in kinds)
    return jax.make_mesh(shape, names, axis_types=types * len(shape) if len(types) == 1 else types)


def unqualified_classes(text: str) -> str:
    """``text`` with the classes it names written without their module (JAX's are in ``jaxlib._jax`` or
    ``jax._src``)."""
    return re.sub(r"<class '[\w.]+\.(\w+)'>", r"<class '\1'>", text)
