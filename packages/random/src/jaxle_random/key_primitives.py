"""The primitives of typed keys, as JAX stages them: ``random_seed``, ``random_wrap``, ``random_unwrap``,
``random_bits``, ``random_split``, ``random_fold_in`` and ``random_clone``.

Each applies to an array of keys, key by key: their shapes lead the result's (``random_bits`` of keys
``key<fry>[4]`` with ``shape=(3,)`` is ``u32[4,3]``), which makes every batching rule a move of the batch
dimension to the front; ``random_fold_in`` broadcasts its keys and messages (as an elementwise primitive, and
batches as one), its implementation's function mapped over them with ``vmap``, as JAX's. What they compute is
the implementation's function on the physical key data (the physical rules of ``jaxle_core.extended``); keys have
no derivatives, so their tangents are ``float0`` zeros.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

import numpy as np

from jaxle_core import dtypes, lax, vmap
from jaxle_core.ad.rule_helpers import defzero
from jaxle_core.array import Array
from jaxle_core.avals import ShapedArray, get_aval
from jaxle_core.batching.rule_helpers import elementwise_batcher
from jaxle_core.batching.trace import batching_rules, insert_dim, move_dim
from jaxle_core.config import config
from jaxle_core.core import Primitive, evaluates_eagerly
from jaxle_core.extended import ExtendedArray, evaluated_on_data, physical_rules, wrap_physical
from jaxle_core.lax.standard import broadcast_shapes
from jaxle_core.sharding_types import register_rule
from jaxle_random.impls import PRNGImpl
from jaxle_random.key_array import is_key_dtype, key_type

__all__ = ["random_bits_p", "random_clone_p", "random_fold_in_p", "random_seed_p", "random_split_p",
           "random_unwrap_p", "random_wrap_p"]

random_seed_p = Primitive("random_seed")
random_wrap_p = Primitive("random_wrap")
random_unwrap_p = Primitive("random_unwrap")
random_bits_p = Primitive("random_bits")
random_split_p = Primitive("random_split")
random_fold_in_p = Primitive("random_fold_in")
random_clone_p = Primitive("random_clone")


def _impl_of(keys: ShapedArray, primitive: str) -> PRNGImpl:
    if not is_key_dtype(keys.dtype):
        raise TypeError(f"{primitive} expects an array of typed PRNG keys, got {keys.str_short()}")
    return keys.dtype._impl


_UINT32 = np.dtype(np.uint32)  # compared as a dtype: against the scalar type NumPy converts it on every call


def check_key_data(data: ShapedArray, impl: PRNGImpl) -> None:
    """JAX's TypeError for raw key data that is not ``uint32[..., *impl.key_shape]``."""
    if data.ndim < 1:
        raise TypeError(f"JAX encountered invalid PRNG key data: expected key_data.ndim >= 1; got ndim={data.ndim}")
    n = len(impl.key_shape)
    if data.shape[data.ndim - n:] != impl.key_shape:
        raise TypeError(f"JAX encountered invalid PRNG key data: expected key_data.shape to end with "
                        f"{impl.key_shape}; got shape={data.shape} for impl={impl.name}")
    if data.dtype != _UINT32:
        raise TypeError(f"JAX encountered invalid PRNG key data: expected key_data.dtype = uint32; "
                        f"got dtype={data.dtype}")


# ---------------------------------------------------------------- abstract evaluation


@random_seed_p.def_abstract_eval
def _seed_aval(seeds, *, impl):
    if not dtypes.issubdtype(seeds.dtype, np.integer):
        raise TypeError(f"PRNG key seed must be an integer; got {seeds.str_short()}")
    return ShapedArray(seeds.shape, key_type(impl))


@random_wrap_p.def_abstract_eval
def _wrap_aval(data, *, impl):
    check_key_data(data, impl)
    return ShapedArray(data.shape[:data.ndim - len(impl.key_shape)], key_type(impl))


@random_unwrap_p.def_abstract_eval
def _unwrap_aval(keys):
    impl = _impl_of(keys, "random_unwrap")
    return ShapedArray(keys.shape + impl.key_shape, np.dtype(np.uint32))


@random_bits_p.def_abstract_eval
def _bits_aval(keys, *, bit_width, shape):
    _impl_of(keys, "random_bits")
    return ShapedArray(keys.shape + tuple(shape), np.dtype(f"uint{bit_width}"))


@random_split_p.def_abstract_eval
def _split_aval(keys, *, shape):
    _impl_of(keys, "random_split")
    return ShapedArray(keys.shape + tuple(shape), keys.dtype)


@random_fold_in_p.def_abstract_eval
def _fold_in_aval(keys, msgs):
    _impl_of(keys, "random_fold_in")
    if msgs.dtype != np.uint32:
        raise TypeError(f"random_fold_in expects uint32 data, got {msgs.str_short()}")
    return ShapedArray(broadcast_shapes("random_fold_in", keys.shape, msgs.shape), keys.dtype)


@random_clone_p.def_abstract_eval
def _clone_aval(keys):
    return keys.strip_weak_type()  # typed keys, or raw key data as it is


random_clone_p.def_impl(lambda data: data)


# ---------------------------------------------------------------- physical rules: the implementation's functions


def _physical(primitive: Primitive):
    def register(rule):
        physical_rules[primitive] = lambda *args, avals_in, avals_out, **params: [rule(*args, avals_in, **params)]
        return rule

    return register


@_physical(random_seed_p)
def _seed_physical(seeds, avals_in, *, impl):
    return impl.seed(seeds)


@_physical(random_wrap_p)
def _wrap_physical(data, avals_in, *, impl):
    return data


@_physical(random_unwrap_p)
def _unwrap_physical(data, avals_in):
    return data


@_physical(random_clone_p)
def _clone_physical(data, avals_in):
    return data


@_physical(random_bits_p)
def _bits_physical(data, avals_in, *, bit_width, shape):
    return avals_in[0].dtype._impl.random_bits(data, bit_width, tuple(shape))


@_physical(random_split_p)
def _split_physical(data, avals_in, *, shape):
    return avals_in[0].dtype._impl.split(data, tuple(shape))


@_physical(random_fold_in_p)
def _fold_in_physical(data, msgs, avals_in):
    keys, msgs_aval = avals_in
    return _mapped_over_pairs(keys.dtype._impl.fold_in, keys.shape, msgs_aval.shape)(data, msgs)


def _mapped_over_pairs(fold_in: Callable[[Any, Any], Any], keys_shape: tuple[int, ...],
                       msgs_shape: tuple[int, ...]) -> Callable[[Any, Any], Any]:
    """``fold_in`` of one key and one message mapped with ``vmap`` over keys and messages of broadcasting shapes,
    as JAX maps it: over the dimensions of whichever is not a scalar (the other closed over), else dimension by
    dimension, a size-1 dimension squeezed and its operand left unmapped."""
    if not keys_shape and not msgs_shape:
        return fold_in
    if not keys_shape or not msgs_shape:
        def over_one(data: Any, msgs: Any) -> Any:
            if keys_shape:
                return _vmapped(lambda d: fold_in(d, msgs), len(keys_shape))(data)
            return _vmapped(lambda m: fold_in(data, m), len(msgs_shape))(msgs)

        return over_one
    for key_size, msg_size in reversed(list(zip(keys_shape, msgs_shape))):
        if key_size == msg_size:
            fold_in = vmap(fold_in)
        else:
            fold_in = _squeezed(fold_in, squeeze_keys=key_size == 1)
    return fold_in


def _vmapped(function: Callable[[Any], Any], times: int) -> Callable[[Any], Any]:
    for _ in range(times):
        function = vmap(function)
    return function


def _squeezed(fold_in: Callable[[Any, Any], Any], squeeze_keys: bool) -> Callable[[Any, Any], Any]:
    """``fold_in`` mapped over the leading dimension of one operand, the other's (of size 1) squeezed away."""

    def mapped(data: Any, msgs: Any) -> Any:
        if squeeze_keys:
            return vmap(fold_in, in_axes=(None, 0))(lax.squeeze(data, (0,)), msgs)
        return vmap(fold_in, in_axes=(0, None))(data, lax.squeeze(msgs, (0,)))

    return mapped


# ---------------------------------------------------------------- sharding in types: the keys' layout


def _as_the_keys(avals, specs, outs, mesh, params):
    """Each result laid out as the keys (or key data) along their shared leading dimensions, whole in the others
    (new keys, bits, a key's data)."""
    return [tuple(specs[0][:out.ndim]) + (None,) * (out.ndim - len(specs[0])) for out in outs]


for _p in (random_unwrap_p, random_wrap_p):
    register_rule(_p, _as_the_keys)
# as JAX's, new keys and bits of keys typed over no mesh are typed over the current one (an entry per dimension)
for _p in (random_split_p, random_bits_p):
    register_rule(_p, _as_the_keys, per_dimension=True)


# ---------------------------------------------------------------- batching: the batch dimension to the front
# (random_fold_in broadcasts its keys and messages as an elementwise primitive, and batches as one)


def _batch_in_front(primitive: Primitive):
    def rule(vals, dims, **params):
        size = next(get_aval(v).shape[d] for v, d in zip(vals, dims) if d is not None)
        lined = [insert_dim(v, size, 0) if d is None else move_dim(v, d, 0) for v, d in zip(vals, dims)]
        return primitive.bind(*lined, **params), 0

    batching_rules[primitive] = rule


for _p in (random_seed_p, random_unwrap_p, random_bits_p, random_split_p, random_clone_p, random_wrap_p):
    _batch_in_front(_p)
    defzero(_p)
batching_rules[random_fold_in_p] = elementwise_batcher(random_fold_in_p)
defzero(random_fold_in_p)
# as JAX's, the keys these make eagerly are the implementation's functions of key data, wrapped (a clone is applied
# to the keys themselves)
evaluated_on_data.update((random_seed_p, random_split_p, random_fold_in_p))


def random_seed(seeds: Any, impl: PRNGImpl) -> Any:
    """Keys of ``impl`` from integer seeds, each offset by ``jax_random_seed_offset`` when it is set."""
    offset = config.jax_random_seed_offset
    if offset:
        seeds = lax.add(seeds, np.asarray(offset, get_aval(seeds).dtype))
    return random_seed_p.bind(seeds, impl=impl)


def random_wrap(data: Any, impl: PRNGImpl) -> Any:
    if isinstance(data, Array) and evaluates_eagerly((data,)):
        # eagerly, wrapping is a new view of the same data: no computation to dispatch
        return wrap_physical(data, _wrap_aval(get_aval(data), impl=impl))
    return random_wrap_p.bind(data, impl=impl)


def random_unwrap(keys: Any) -> Any:
    if isinstance(keys, ExtendedArray) and evaluates_eagerly((keys,)):
        _unwrap_aval(keys.aval)
        return keys.physical
    return random_unwrap_p.bind(keys)


def random_bits(keys: Any, bit_width: int, shape: tuple[int, ...]) -> Any:
    return random_bits_p.bind(keys, bit_width=bit_width, shape=tuple(shape))


def random_split(keys: Any, shape: tuple[int, ...]) -> Any:
    return random_split_p.bind(keys, shape=tuple(shape))


def random_fold_in(keys: Any, msgs: Any) -> Any:
    return random_fold_in_p.bind(keys, msgs)


_clone_lowering_registered = False


def random_clone(keys: Any) -> Any:
    global _clone_lowering_registered
    if not _clone_lowering_registered and "jaxle_xla" in sys.modules:
        # raw key data is cloned as it is (typed keys go through the physical rule)
        from jaxle_xla.lowering.module import register_lowering

        register_lowering(random_clone_p)(lambda ctx, data: data)
        _clone_lowering_registered = True
    return random_clone_p.bind(keys)
