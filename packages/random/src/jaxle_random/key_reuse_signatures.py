"""Key-reuse signatures, as JAX 0.10.2's ``jax.experimental.key_reuse._core`` spells them.

A signature says what a primitive (or a jaxpr, or a function) does to the typed keys it is given: a ``Sink(i)``
consumes operand ``i`` (with a mask, an array of keys consumed in part), a ``Source(o)`` makes result ``o`` a
fresh key, a ``Forward(i, o)`` passes operand ``i`` on as result ``o`` (sharing its consumption). A
``KeyReuseSignature`` is a set of them; a ``DynamicKeyReuseSignature`` computes one from a staged equation.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import total_ordering
from typing import Any, NamedTuple

import numpy as np

from jaxle_core.errors import KeyReuseError
from jaxle_random.key_array import PRNGKeyArray

__all__ = ["DynamicKeyReuseSignature", "Forward", "KeyReuseSignature", "Sink", "Source",
           "dynamic_key_reuse_signature"]

FIRST_USE = "PRNG key first used at the above location was subsequently reused at the following location:"


def consumed(key: PRNGKeyArray) -> Any:
    """Which keys of the concrete ``key`` array were consumed (a bool, or a bool array)."""
    return getattr(key, "_consumed", False)


@total_ordering
class _Marker:
    """A sink or source: an index and a mask (True, False, or a read-only bool array that is neither all True nor
    all False); immutable, hashable, ordered by kind and index."""

    idx: int
    mask: bool | np.ndarray

    def __init__(self, idx: int, mask: bool | np.bool_ | np.ndarray = True):
        assert isinstance(idx, int)
        if isinstance(mask, np.ndarray):
            assert mask.dtype == np.dtype(bool)
            if not mask.any():  # an empty mask (a vmap over no keys) consumes nothing
                mask = False
            elif mask.all():
                mask = True
            else:
                mask = np.array(mask)
                mask.flags.writeable = False
        elif isinstance(mask, np.bool_):
            mask = bool(mask)
        else:
            assert isinstance(mask, bool)
        object.__setattr__(self, "idx", idx)
        object.__setattr__(self, "mask", mask)

    def __setattr__(self, name: str, value: Any) -> None:
        raise ValueError(f"{type(self).__name__} is immutable")

    def __eq__(self, other: object) -> Any:
        return (type(self) is type(other) and self.idx == other.idx
                and np.shape(self.mask) == np.shape(other.mask) and np.all(self.mask == other.mask))

    def __lt__(self, other: object) -> bool:
        if isinstance(other, Forward):
            return True
        if isinstance(other, _Marker):
            return (type(self).__name__, self.idx) < (type(other).__name__, other.idx)
        return NotImplemented

    def __hash__(self) -> int:
        if isinstance(self.mask, bool):
            return hash((type(self), self.idx, self.mask))
        return hash((type(self), self.idx, self.mask.shape, tuple(self.mask.ravel().tolist())))

    def __repr__(self) -> str:
        if self.mask is True:
            return f"{type(self).__name__}({self.idx})"
        return f"{type(self).__name__}({self.idx}, {self.mask})"


class Sink(_Marker):
    """Operand ``idx`` is consumed (where ``mask`` is True)."""


class Source(_Marker):
    """Result ``idx`` is a fresh key (where ``mask`` is True)."""


class Forward(NamedTuple):
    """Operand ``in_idx`` is passed on as result ``out_idx``."""

    in_idx: int
    out_idx: int

    def __repr__(self) -> str:
        return f"Forward({self.in_idx}, {self.out_idx})"


class KeyReuseSignature:
    """A set of ``Sink``, ``Source`` and ``Forward`` markers; equal signatures hold the same markers.

    Its markers are met in sorted order (sinks by index): JAX's are met in the order of its set, which varies from
    run to run (a key given twice to a primitive is reported at the index this order usually reports)."""

    def __init__(self, *args: Sink | Source | Forward):
        self._args = frozenset(args)
        self._sorted = tuple(sorted(self._args))

    def __repr__(self) -> str:
        return f"KeyReuseSignature{self._sorted}"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, KeyReuseSignature) and self._args == other._args

    def __hash__(self) -> int:
        return hash(self._args)

    @property
    def sinks(self) -> Iterator[Sink]:
        yield from (marker for marker in self._sorted if isinstance(marker, Sink))

    @property
    def sources(self) -> Iterator[Source]:
        yield from (marker for marker in self._sorted if isinstance(marker, Source))

    @property
    def forwards(self) -> Iterator[Forward]:
        yield from (marker for marker in self._sorted if isinstance(marker, Forward))

    def check_signature(self, *args: Any, funcname: str = "function", context: Any = None) -> None:
        """Raise ``KeyReuseError`` where an operand this signature consumes is a key array already consumed (caused
        by an error whose traceback shows where it was consumed first)."""
        for sink in self.sinks:
            key = args[sink.idx]
            if not isinstance(key, PRNGKeyArray) or not np.any(np.logical_and(consumed(key), sink.mask)):
                continue
            message = f"Previously-consumed key passed to {funcname} at index {sink.idx}"
            if context:
                message += " {context}"  # JAX 0.10.2 appends these characters as they are
            error = KeyReuseError(message)
            first_use = getattr(key, "_consumed_at", None)
            if first_use is not None:
                raise error from KeyReuseError(FIRST_USE).with_traceback(first_use)
            raise error

    def update_consumption(self, args_in: list[Any], args_out: list[Any], where: Any = None) -> None:
        """Mark the key arrays among ``args_in`` this signature consumes (consumed at traceback ``where``), and
        those among ``args_out``: fresh where sourced, as their operand where forwarded, consumed otherwise."""
        for sink in self.sinks:
            key = args_in[sink.idx]
            if isinstance(key, PRNGKeyArray):
                key._consumed = consumed(key) | sink.mask
                if np.any(sink.mask):
                    key._consumed_at = where
        for out in args_out:
            if isinstance(out, PRNGKeyArray):
                out._consumed = True
        for source in self.sources:
            if isinstance(args_out[source.idx], PRNGKeyArray):
                args_out[source.idx]._consumed = np.logical_not(source.mask)
        for forward in self.forwards:
            key, out = args_in[forward.in_idx], args_out[forward.out_idx]
            if isinstance(key, PRNGKeyArray) and isinstance(out, PRNGKeyArray):
                out._consumed = consumed(key)


class DynamicKeyReuseSignature(NamedTuple):
    """A rule computing the signature of a staged equation (a primitive whose effect depends on its parameters
    or on the jaxprs it carries)."""

    signature: Callable[[Any], KeyReuseSignature]


def dynamic_key_reuse_signature(rule: Callable[[Any], KeyReuseSignature]) -> DynamicKeyReuseSignature:
    """``rule`` (an equation -> its signature) as a registrable signature."""
    return DynamicKeyReuseSignature(rule)
