"""The ``jnp.ufunc`` class: an elementwise function with NumPy's ufunc methods (reduce, accumulate, outer, at,
reduceat).

A ufunc may be given fast implementations of its methods (``add.reduce`` is a sum, ``add.accumulate`` a cumulative
sum, ``add.at`` a scatter-add); the others run the elementwise function in a ``scan`` over the reduced axis, as
JAX's do. Each method is staged as a ``jit`` of the method's name.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import numpy as np

from jaxle_core import eval_shape, jit, lax, vmap
from jaxle_core.avals import get_aval
from jaxle_core.caches import LruCache
from jaxle_numpy import util
from jaxle_numpy.conditional import _where, broadcast_together
from jaxle_numpy.vectorize import vectorize

__all__ = ["ufunc"]

_AT_INPLACE = ("Because JAX arrays are immutable, jnp.ufunc.at() cannot operate inplace like\nnp.ufunc.at(). "
               "Instead, you can pass inplace=False and capture the result; e.g.\n"
               ">>> arr = jnp.add.at(arr, ind, val, inplace=False)\n")


def _shape(x: Any) -> tuple[int, ...]:
    return get_aval(x).shape


def _index_along(a: Any, i: Any) -> Any:
    """``a[i]`` along the first axis, staged as JAX stages it: jnp indexing, except that a 1-D array at a traced
    position is one ``lax.dynamic_slice`` (which compares a weakly typed position with zero before converting it,
    where jnp indexing of more dimensions converts it first)."""
    if get_aval(a).ndim == 1 and not isinstance(i, int):
        return lax.squeeze(lax.dynamic_slice(a, (i,), (1,)), (0,))
    return a[i]


def _expand(x: Any, axes: tuple[int, ...]) -> Any:
    """``x`` with size-1 dimensions inserted at ``axes`` of the result (``keepdims``), by a reshape as JAX's."""
    ndim = get_aval(x).ndim + len(axes)
    kept = [d for d in range(ndim) if d not in axes]
    shape = [1] * ndim
    for d, size in zip(kept, _shape(x)):
        shape[d] = size
    return lax.reshape(x, tuple(shape))


class ufunc:  # noqa: N801 - JAX's name
    """An elementwise function of ``nin`` arrays with NumPy's ufunc methods."""

    def __init__(self, func: Callable[..., Any], /, nin: int, nout: int, *, name: str | None = None,
                 nargs: int | None = None, identity: Any = None, call: Callable[..., Any] | None = None,
                 reduce: Callable[..., Any] | None = None, accumulate: Callable[..., Any] | None = None,
                 at: Callable[..., Any] | None = None, reduceat: Callable[..., Any] | None = None):
        self.__doc__ = func.__doc__
        self.__name__ = name or func.__name__
        self._props = dict(func=func, nin=int(nin), nout=int(nout), nargs=int(nargs or nin), identity=identity,
                           call=call, reduce=reduce, accumulate=accumulate, at=at, reduceat=reduceat)
        self._jitted = _shared_methods(self)

    # Each method's implementation and static argument names; jitted on first use (building all of them for every
    # ufunc made importing jaxle.numpy slower).
    _METHODS = {
        "reduce": ("_reduce_impl", ("axis", "dtype", "keepdims")),
        "accumulate": ("_accumulate_impl", ("axis", "dtype")),
        "outer": ("_outer_impl", ()),
        "at": ("_at_impl", ()),
        "reduceat": ("_reduceat_impl", ("axis", "dtype")),
        "_call_vectorized": ("_vectorized_impl", ()),
    }

    def _method(self, name: str) -> Any:
        """The jitted method ``name``, built on its first use."""
        if name not in self._jitted:
            impl, static_argnames = self._METHODS[name]
            self._jitted[name] = _jit_named(name, getattr(self, impl), static_argnames)
        return self._jitted[name]

    nin = property(lambda self: self._props["nin"])
    nout = property(lambda self: self._props["nout"])
    nargs = property(lambda self: self._props["nargs"])
    identity = property(lambda self: self._props["identity"])

    def __repr__(self) -> str:
        return f"<jnp.ufunc '{self.__name__}'>"

    def __eq__(self, other: Any) -> bool:
        return isinstance(other, ufunc) and self.__name__ == other.__name__ and self._props == other._props

    def __hash__(self) -> int:
        return hash((self.__name__, self._props["func"], self.nin, self.nout))

    def __call__(self, *args: Any, out: None = None, where: None = None) -> Any:
        if out is not None:
            raise NotImplementedError(f"out argument of {self}")
        if where is not None:
            raise NotImplementedError(f"where argument of {self}")
        call = self._props["call"]
        return call(*args) if call is not None else self._method("_call_vectorized")(*args)

    @property
    def plain_call(self) -> Callable[..., Any]:
        """What a call without ``out`` or ``where`` runs: operators call it directly, skipping this layer."""
        call = self._props["call"]
        return call if call is not None else self

    # ------------------------------------------------------------ elementwise call of a user's function

    def _vectorized_impl(self, *args: Any) -> Any:
        util.check_arraylike(self.__name__, *args)
        return vectorize(self._props["func"])(*args)  # as JAX: size-1 dimensions are left to vmap

    # ------------------------------------------------------------ reduce

    def _element_dtype(self, a: Any) -> np.dtype:
        """The dtype of this ufunc of two elements of ``a``: what its scanned methods convert elements to."""
        one = lax.full((), 1, get_aval(a).dtype)
        return eval_shape(self._props["func"], one, one).dtype

    def _check_binary(self, method: str) -> None:
        if self.nin != 2:
            raise ValueError(f"{method} only supported for binary ufuncs")
        if self.nout != 1:
            raise ValueError(f"{method} only supported for functions returning a single value")

    def reduce(self, a: Any, axis: int | None = 0, dtype: Any = None, out: None = None, keepdims: bool = False,
               initial: Any = None, where: Any = None) -> Any:
        """``a`` combined along ``axis`` with this (binary) ufunc; ``initial`` starts the combination and
        ``where`` masks elements out of it."""
        self._check_binary("reduce")
        if out is not None:
            raise NotImplementedError(f"out argument of {self.__name__}.reduce()")
        util.check_arraylike(f"{self.__name__}.reduce", a)
        if isinstance(axis, list):
            axis = tuple(axis)
        # the dtype is static as given: checked while tracing, so a 64-bit one warns on the first call alone
        return self._method("reduce")(a, axis=axis, dtype=dtype, keepdims=bool(keepdims), initial=initial,
                                       where=where)

    def _reduce_impl(self, a: Any, axis: Any, dtype: Any, keepdims: bool, initial: Any, where: Any) -> Any:
        if where is not None and initial is None and self.identity is None:
            raise ValueError(f"reduction operation {self.__name__!r} does not have an identity, so to use a where "
                             "mask one has to specify 'initial'.")
        fast = self._props["reduce"]
        if fast is not None:
            return fast(a, axis=axis, dtype=dtype, keepdims=keepdims, initial=initial, where=where)
        return self._reduce_via_scan(a, axis, dtype, keepdims, initial, where)

    def _reduce_via_scan(self, a: Any, axis: Any, dtype: Any, keepdims: bool, initial: Any, where: Any) -> Any:
        if initial is None:  # as JAX: a ufunc's identity starts the reduction (frompyfunc(f, 2, 1, identity=0))
            initial = self.identity
        ndim = get_aval(a).ndim
        # as JAX: the start and each element read are converted with ``astype`` to ``dtype``, by default the dtype
        # of the ufunc of two elements
        dtype = self._element_dtype(a) if dtype is None else _astype_dtype(dtype, conversions=2)
        if axis is None:
            if where is not None:
                where = lax.reshape(broadcast_together("reduce", where, a)[0], (get_aval(a).size,))
            a = lax.reshape(a, (get_aval(a).size,))
            axes, axis = tuple(range(ndim)), 0
        elif isinstance(axis, tuple):
            raise NotImplementedError("tuple of axes")
        else:
            axis = util.canonicalize_axis(axis, ndim)
            axes = (axis,)
            if where is not None:
                where = _move_to_front(broadcast_together("reduce", where, a)[0], axis)
            a = _move_to_front(a, axis)
        length = _shape(a)[0]
        if initial is None:
            if length == 0:
                raise ValueError(f"zero-size array to reduction operation {self.__name__} which has no identity")
            start, first = _as_dtype(_index_along(a, 0), dtype), 1
        else:
            start, first = lax.broadcast_in_dim(lax.convert_element_type(initial, dtype), _shape(a)[1:], ()), 0

        def body(i, acc):
            mask = None if where is None else _index_along(where, i)  # read before the element, as JAX does
            combined = self(acc, _as_dtype(_index_along(a, i), dtype))
            return combined if mask is None else _where(mask, combined, acc)

        result = lax.fori_loop(first, length, body, start)
        return _expand(result, axes if axis is not None else tuple(range(ndim))) if keepdims else result

    # ------------------------------------------------------------ accumulate

    def accumulate(self, a: Any, axis: int = 0, dtype: Any = None, out: None = None) -> Any:
        """The running combination of ``a`` along ``axis`` with this (binary) ufunc."""
        self._check_binary("accumulate")
        if out is not None:
            raise NotImplementedError(f"out argument of {self.__name__}.accumulate()")
        util.check_arraylike(f"{self.__name__}.accumulate", a)
        if isinstance(axis, (tuple, list)) or (axis is None and self._props["accumulate"] is None):
            raise ValueError("accumulate does not allow multiple axes")
        if axis is not None:
            axis = util.canonicalize_axis(axis, get_aval(a).ndim)
        return self._method("accumulate")(a, axis=axis, dtype=dtype)

    def _accumulate_impl(self, a: Any, axis: int, dtype: Any) -> Any:
        fast = self._props["accumulate"]
        if fast is not None:
            return fast(a, axis=axis, dtype=dtype)
        moved = _move_to_front(a, axis)
        # as JAX: each element is converted as it is read, not the whole operand first (with ``astype``: the first
        # element, then in the step the first, the carry and the element read), by default to the dtype of the ufunc
        # of two elements; the step's result is the promotion of the first element's and the ufunc's
        dtype = self._element_dtype(a) if dtype is None else _astype_dtype(dtype, conversions=4)

        def step(carry, _):
            i, acc = carry
            is_first = i == 0
            start = _as_dtype(moved[0], dtype)
            combined = _where(is_first, start, self(acc, _as_dtype(_index_along(moved, i), dtype)))
            return (i + 1, combined), combined

        _, out = lax.scan(step, (0, _as_dtype(moved[0], dtype)), None, length=_shape(moved)[0])
        return _move_from_front(out, axis)

    # ------------------------------------------------------------ outer

    def outer(self, A: Any, B: Any, /) -> Any:  # noqa: N803 - NumPy's names
        """This (binary) ufunc of every element of ``A`` with every element of ``B``: shape ``A.shape + B.shape``."""
        self._check_binary("outer")
        util.check_arraylike(f"{self.__name__}.outer", A, B)
        return self._method("outer")(A, B)

    def _outer_impl(self, A: Any, B: Any) -> Any:  # noqa: N803
        a_shape, b_shape = _shape(A), _shape(B)
        a_flat = A if len(a_shape) == 1 else lax.reshape(A, (int(np.prod(a_shape)),))
        b_flat = B if len(b_shape) == 1 else lax.reshape(B, (int(np.prod(b_shape)),))
        result = vmap(vmap(self, in_axes=(None, 0)), in_axes=(0, None))(a_flat, b_flat)
        return lax.reshape(result, a_shape + b_shape)

    # ------------------------------------------------------------ at

    def at(self, a: Any, indices: Any, b: Any = None, /, *, inplace: bool = True) -> Any:
        """``a`` with this ufunc applied at ``indices`` (with ``b`` as second operand of a binary ufunc); repeated
        indices apply it repeatedly. JAX arrays are immutable: pass ``inplace=False`` and use the result."""
        if inplace:
            raise NotImplementedError(_AT_INPLACE)
        return self._method("at")(a, indices, *(() if b is None else (b,)))

    def _at_impl(self, a: Any, indices: Any, *b: Any) -> Any:
        fast = self._props["at"]
        if fast is not None:
            return fast(a, indices, *b)
        if self.nin == 2 and not b:
            raise TypeError(f"{self.__name__}.at() missing 1 required positional argument: 'b'")
        indices = util.as_array(indices)
        count = _shape(indices)[0] if _shape(indices) else 1
        if b:
            values = lax.convert_element_type(b[0], get_aval(a).dtype)
            b = (broadcast_together("at", values, indices)[0],)

        def step(carry, _):
            i, out = carry
            position = _index_along(indices, i)
            updated = self(_index_along(out, position), *(_index_along(v, i) for v in b))
            out = out.at[position].set(updated)
            return (i + 1, out), None

        (_, out), _ = lax.scan(step, (0, a), None, length=count)
        return out

    # ------------------------------------------------------------ reduceat

    def reduceat(self, a: Any, indices: Any, axis: int = 0, dtype: Any = None, out: None = None) -> Any:
        """Reductions of ``a`` over the slices ``indices[i]:indices[i+1]`` along ``axis`` (the element at
        ``indices[i]`` alone where the next index is not larger)."""
        self._check_binary("reduceat")
        if out is not None:
            raise NotImplementedError(f"out argument of {self.__name__}.reduceat()")
        util.check_arraylike(f"{self.__name__}.reduceat", a, indices)
        return self._method("reduceat")(a, indices, axis=util.canonicalize_axis(axis, get_aval(a).ndim),
                                         dtype=dtype)

    def _reduceat_impl(self, a: Any, indices: Any, axis: int, dtype: Any) -> Any:
        # jnp.take and jnp.append build on the elementwise functions, so they are imported here (breaks the cycle)
        from jaxle_numpy.manipulation import append  # noqa: PLC0415
        from jaxle_numpy.selection import take  # noqa: PLC0415

        del dtype  # as JAX 0.10.2's: accepted, and the result keeps a's dtype
        length = _shape(a)[axis]
        out = take(a, indices, axis=axis)
        bounds = append(indices, length)
        ndim = get_aval(out).ndim
        bounds = lax.broadcast_in_dim(bounds, tuple(_shape(bounds)[0] if d == axis else 1 for d in range(ndim)),
                                      (axis,))
        starts = lax.slice_in_dim(bounds, 0, _shape(bounds)[axis] - 1, axis=axis)
        ends = lax.slice_in_dim(bounds, 1, _shape(bounds)[axis], axis=axis)

        def body(i, acc):
            inside = (i > starts) & (i < ends)
            return _where(inside, self(acc, take(a, lax.broadcast_in_dim(i, (1,), ()), axis=axis)), acc)

        return lax.fori_loop(0, length, body, out)


# The jitted methods of each ufunc, by the ufunc: equal ufuncs (``frompyfunc`` of one function, made twice) share
# them, and so their traces, as JAX's methods take the ufunc as a static argument.
_SHARED_METHODS = LruCache()


def _shared_methods(u: ufunc) -> dict[str, Any]:
    try:
        methods = _SHARED_METHODS.lookup(u)
    except TypeError:  # a function that does not hash: the ufunc keeps its own
        return {}
    if methods is None:
        methods = _SHARED_METHODS[u] = {}
    return methods


def _jit_named(name: str, method: Callable[..., Any], static_argnames: tuple[str, ...] = ()) -> Any:
    """``method`` under ``jit`` with the name JAX's ufunc method has in jaxprs, and its parameters and qualified
    name (``ufunc.reduce``) in errors, as JAX's."""
    @functools.wraps(method)
    def staged(*args: Any, **kwargs: Any) -> Any:
        return method(*args, **kwargs)
    staged.__name__, staged.__qualname__ = name, f"ufunc.{name}"
    return jit(staged, static_argnames=static_argnames)


def _astype_dtype(dtype: Any, conversions: int) -> Any:
    """The ``dtype`` JAX's scanned methods convert elements to with ``astype``, ``conversions`` times while
    tracing: a 64-bit one with x64 off warns at each, as there."""
    for _ in range(conversions - 1):
        util.requested_dtype(dtype, "astype")
    return util.requested_dtype(dtype, "astype")


def _as_dtype(x: Any, dtype: np.dtype) -> Any:
    """``x.astype(dtype)`` of a strongly typed ``x``: nothing staged when it already has ``dtype``."""
    return x if get_aval(x).dtype == dtype else lax.convert_element_type(x, dtype)


def _move_to_front(a: Any, axis: int) -> Any:
    if axis == 0:
        return a
    ndim = get_aval(a).ndim
    return lax.transpose(a, (axis,) + tuple(d for d in range(ndim) if d != axis))


def _move_from_front(a: Any, axis: int) -> Any:
    if axis == 0:
        return a
    ndim = get_aval(a).ndim
    order = list(range(1, ndim))
    order.insert(axis, 0)
    return lax.transpose(a, tuple(order))


