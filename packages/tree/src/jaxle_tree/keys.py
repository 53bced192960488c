"""Key entries that name a child inside its parent node, and ``keystr``.

Where jaxlib is importable (see ``accelerator``) the key classes are jaxlib's own, the ones JAX uses, so
that key paths from jaxlib's C++ flattening need no conversion; otherwise they are the pure-Python classes
below, which behave the same.
"""

from __future__ import annotations

from typing import Any

from . import accelerator

__all__ = ["DictKey", "FlattenedIndexKey", "GetAttrKey", "KeyEntry", "KeyPath", "SequenceKey", "keystr"]


class _KeyEntryBase:
    """Immutable, hashable key with a single field; subclasses set ``_field``."""

    __slots__ = ("_value",)
    _field = ""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        # one value, given by position or by the field's name (``DictKey(key='a')``), as JAX's key classes take it
        if len(args) + len(kwargs) != 1 or (kwargs and self._field not in kwargs):
            given = ", ".join([*map(repr, args), *(f"{k}={v!r}" for k, v in kwargs.items())])
            raise TypeError(f"{type(self).__name__}() takes one argument, {self._field}; got ({given})")
        object.__setattr__(self, "_value", args[0] if args else kwargs[self._field])

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"property of {type(self).__name__!r} object has no setter")

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and other._value == self._value

    def __hash__(self) -> int:
        return hash((type(self).__name__, self._value))

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self._field}={self._value!r})"

    def __reduce__(self):
        return (type(self), (self._value,))


class DictKey(_KeyEntryBase):
    """Key of a dict-like child: ``DictKey('a')`` prints as ``['a']``."""

    __slots__ = ()
    _field = "key"

    @property
    def key(self) -> Any:
        return self._value

    def __str__(self) -> str:
        return f"[{self._value!r}]"


class SequenceKey(_KeyEntryBase):
    """Position in a list or tuple: ``SequenceKey(1)`` prints as ``[1]``."""

    __slots__ = ()
    _field = "idx"

    @property
    def idx(self) -> int:
        return self._value

    def __str__(self) -> str:
        return f"[{self._value!r}]"


class GetAttrKey(_KeyEntryBase):
    """Attribute name of a child: ``GetAttrKey('x')`` prints as ``.x``."""

    __slots__ = ()
    _field = "name"

    @property
    def name(self) -> str:
        return self._value

    def __str__(self) -> str:
        return f".{self._value}"


class FlattenedIndexKey(_KeyEntryBase):
    """Position among the children of a node registered without keys."""

    __slots__ = ()
    _field = "key"

    @property
    def key(self) -> int:
        return self._value

    def __str__(self) -> str:
        return f"[<flat index {self._value}>]"


if accelerator.pytree is not None:
    DictKey = accelerator.pytree.DictKey
    SequenceKey = accelerator.pytree.SequenceKey
    GetAttrKey = accelerator.pytree.GetAttrKey
    FlattenedIndexKey = accelerator.pytree.FlattenedIndexKey

KeyEntry = Any
KeyPath = tuple

_VALUE_FIELDS = ((DictKey, "key"), (SequenceKey, "idx"), (GetAttrKey, "name"), (FlattenedIndexKey, "key"))


def _simple_str(entry: Any) -> str:
    for key_class, field in _VALUE_FIELDS:
        if isinstance(entry, key_class):
            return str(getattr(entry, field))
    return str(entry)


def keystr(keys: KeyPath, *, simple: bool = False, separator: str = "") -> str:
    """Render a key path: ``"[1]['k'].x"``; ``simple=True`` drops brackets (``"1/k/x"`` with separator ``"/"``)."""
    render = _simple_str if simple else str
    return separator.join(render(k) for k in keys)
