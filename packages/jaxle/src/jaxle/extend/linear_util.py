"""``jax.extend.linear_util``: functions with transformations stacked on them, for libraries that trace Python
functions themselves (``wrap_init``, ``transformation2``, ``transformation_with_aux2``).

A ``WrappedFun`` is a Python function plus a stack of transformations; ``call_wrapped`` runs the outermost
transformation, which calls the next one inward, down to the function itself. A transformation with an auxiliary
output writes it to a ``Store`` that is read (once the function has been called) through the thunk returned beside
the wrapped function. Both JAX styles of transformation are accepted: a plain function receiving the inner callable
(``transformation2``), and a generator that yields the inner call's arguments and receives its result
(``transformation``).
"""

from __future__ import annotations

import functools
import weakref
from collections.abc import Callable
from typing import Any

__all__ = ["StoreException", "WrappedFun", "cache", "merge_linear_aux", "transformation", "transformation2",
           "transformation_with_aux", "transformation_with_aux2", "wrap_init"]


class StoreException(Exception):
    """A store was read before being written, or written twice."""


_EMPTY = object()


class Store:
    """One value, written once by a transformation while the function runs and read after it ran."""

    __slots__ = ("_value",)

    def __init__(self):
        self._value = _EMPTY

    def store(self, value: Any) -> None:
        if self._value is not _EMPTY:
            raise StoreException("Store occupied")
        self._value = value

    def reset(self) -> None:
        self._value = _EMPTY

    @property
    def val(self) -> Any:
        if self._value is _EMPTY:
            raise StoreException("Store empty")
        return self._value

    def __bool__(self) -> bool:
        return self._value is not _EMPTY


class _Transform:
    """One layer of a WrappedFun: ``kind`` is "call" (a function of the inner callable) or "generator"."""

    __slots__ = ("gen", "static", "store", "kind")

    def __init__(self, gen: Callable, static: tuple, store: Store | None, kind: str):
        self.gen, self.static, self.store, self.kind = gen, static, store, kind

    def key(self) -> tuple:
        return (self.gen, self.static, self.store is not None, self.kind)


class WrappedFun:
    """``f`` with ``params`` (keyword arguments every call passes) and transformations, innermost first."""

    def __init__(self, f: Callable, transforms: tuple[_Transform, ...], params: tuple, debug_info: Any):
        self.f = f
        self.transforms = transforms
        self.params = params
        self.debug_info = debug_info

    @property
    def __name__(self) -> str:
        return getattr(self.f, "__name__", type(self.f).__name__)

    def wrap(self, transform: _Transform) -> WrappedFun:
        return WrappedFun(self.f, (*self.transforms, transform), self.params, self.debug_info)

    def with_unknown_names(self) -> WrappedFun:
        return self

    def call_wrapped(self, *args: Any, **kwargs: Any) -> Any:
        """Run the transformations (outermost first) and the function."""

        def call_from(level: int, *args: Any, **kwargs: Any) -> Any:
            if level < 0:
                return self.f(*args, **dict(self.params, **kwargs))
            layer = self.transforms[level]
            inner = functools.partial(call_from, level - 1)
            if layer.kind == "call":
                if layer.store is None:
                    return layer.gen(inner, *layer.static, *args, **kwargs)
                return layer.gen(inner, layer.store, *layer.static, *args, **kwargs)
            generator = layer.gen(*layer.static, *args, **kwargs)
            inner_args, inner_kwargs = next(generator)
            out = generator.send(inner(*inner_args, **inner_kwargs))
            if layer.store is not None:
                out, aux = out
                layer.store.store(aux)
            generator.close()
            return out

        for layer in self.transforms:
            if layer.store is not None:
                layer.store.reset()
        return call_from(len(self.transforms) - 1, *args, **kwargs)

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, WrappedFun) and self.f is other.f and self.params == other.params
                and [t.key() for t in self.transforms] == [t.key() for t in other.transforms])

    def __hash__(self) -> int:
        return hash((id(self.f), self.params, tuple(t.key() for t in self.transforms)))

    def __repr__(self) -> str:
        layers = ", ".join(getattr(t.gen, "__name__", "?") for t in self.transforms)
        return f"WrappedFun({self.__name__}; transforms: [{layers}])"


def wrap_init(f: Callable, params: dict | None = None, *, debug_info: Any = None) -> WrappedFun:
    """``f`` as a WrappedFun with no transformation; ``params`` are keyword arguments passed on every call."""
    return WrappedFun(f, (), tuple(sorted((params or {}).items())), debug_info)


def _aux_thunk(store: Store) -> Callable[[], Any]:
    return lambda: store.val


def transformation2(gen: Callable, fun: WrappedFun, *gen_static_args: Any) -> WrappedFun:
    """``fun`` transformed by ``gen(inner, *gen_static_args, *args, **kwargs)``."""
    return fun.wrap(_Transform(gen, gen_static_args, None, "call"))


def transformation_with_aux2(gen: Callable, fun: WrappedFun, *gen_static_args: Any,
                             use_eq_store: bool = False) -> tuple[WrappedFun, Callable[[], Any]]:
    """``fun`` transformed by ``gen(inner, store, *gen_static_args, *args, **kwargs)``, which writes an auxiliary
    output to ``store``; returns the wrapped function and a thunk reading that output after a call."""
    store = Store()
    return fun.wrap(_Transform(gen, gen_static_args, store, "call")), _aux_thunk(store)


def transformation(gen: Callable, fun: WrappedFun, *gen_static_args: Any) -> WrappedFun:
    """``fun`` transformed by the generator ``gen(*gen_static_args, *args, **kwargs)``, which yields the inner call's
    ``(args, kwargs)``, receives its result and yields the transformed result."""
    return fun.wrap(_Transform(gen, gen_static_args, None, "generator"))


def transformation_with_aux(gen: Callable, fun: WrappedFun, *gen_static_args: Any,
                            use_eq_store: bool = False) -> tuple[WrappedFun, Callable[[], Any]]:
    """As ``transformation``, the generator's final yield being ``(result, auxiliary output)``."""
    store = Store()
    return fun.wrap(_Transform(gen, gen_static_args, store, "generator")), _aux_thunk(store)


def merge_linear_aux(aux1: Callable[[], Any], aux2: Callable[[], Any]) -> tuple[bool, Any]:
    """Of two auxiliary-output thunks exactly one of which was written: ``(True, its value)`` for the first,
    ``(False, its value)`` for the second."""
    try:
        out1 = aux1()
    except StoreException:
        try:
            return False, aux2()
        except StoreException:
            raise StoreException("neither store was written") from None
    try:
        aux2()
    except StoreException:
        return True, out1
    raise StoreException("both stores were written")


def cache(call: Callable, *, explain: Callable | None = None) -> Callable:
    """Memoize ``call(fun: WrappedFun, *args)`` on the function (its identity and transformations) and ``args``;
    entries go when the function does."""
    caches: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()

    def cached(fun: WrappedFun, *args: Any) -> Any:
        per_function = caches.setdefault(fun.f, {})
        key = (fun.params, tuple(t.key() for t in fun.transforms), args)
        if key not in per_function:
            per_function[key] = call(fun, *args)
        return per_function[key]

    cached.cache_clear = caches.clear  # type: ignore[attr-defined]
    return cached
