"""Write extend_random_golden.json: what ``jax.extend.random`` gives — keys of a user-defined PRNG implementation
(their data, printed dtypes, split/fold_in/bits/samplers through it, under jit and vmap), keys seeded with the
built-in implementations and the threefry_2x32 hash — replayed by test_extend_random.py.

    /work/jaxpeer/bin/python packages/jaxle/tests/golden/make_extend_random_golden.py jax
"""

import importlib
import json
import math
import pathlib
import sys

import numpy as np
from golden_writer import outcome


def user_impl(m):
    """A small counter-like PRNG on three uint32 words, written with ``m.numpy`` for one key."""
    jnp = m.numpy
    xr = importlib.import_module(m.__name__ + ".extend.random")

    def seed(s):
        s = jnp.asarray(s).astype(jnp.uint32)
        return jnp.stack([s, s ^ np.uint32(0x1234), s + np.uint32(7)])

    def split(key, shape):
        count = jnp.arange(math.prod(shape), dtype=jnp.uint32)
        return (key[None, :] * np.uint32(3) + count[:, None]).reshape(*shape, 3)

    def random_bits(key, bit_width, shape):
        count = jnp.arange(1, math.prod(shape) + 1, dtype=jnp.uint32)
        words = (key.sum() * np.uint32(2654435761) * count).reshape(shape)
        return words.astype({8: jnp.uint8, 16: jnp.uint16, 32: jnp.uint32, 64: jnp.uint64}[bit_width])

    def fold_in(key, data):
        return key ^ data

    return xr.define_prng_impl(key_shape=(3,), seed=seed, split=split, random_bits=random_bits, fold_in=fold_in,
                               name="mine", tag="mn")


def _keys(m, keys) -> dict:
    return {"dtype": str(keys.dtype), "shape": list(keys.shape), "data": np.asarray(m.random.key_data(keys)).tolist()}


def _array(x) -> dict:
    x = np.asarray(x)
    return {"dtype": str(x.dtype), "value": x.tolist()}


def _spec(m, impl) -> dict:
    """How a PRNGSpec (or the name ``key_impl`` gives) prints, and how it is accepted."""
    key = m.random.key(1, impl=impl)
    found = m.random.key_impl(key)
    return {"repr": repr(found), "str": str(found), "type": type(found).__name__, "equal": bool(found == impl),
            "same_hash": hash(found) == hash(impl), "key_dtype": str(m.random.key_dtype(found)),
            "key_again": str(m.random.key(2, impl=found).dtype),
            "wrapped": str(m.random.wrap_key_data(m.random.key_data(key), impl=found).dtype)}


def cases(m) -> dict:
    """Every recorded value with module ``m`` as ``jax``."""
    xr = importlib.import_module(m.__name__ + ".extend.random")
    impl = user_impl(m)
    key = m.random.key(11, impl=impl)
    keys = m.random.split(key, 2)
    count = np.arange(5, dtype=np.uint32)
    return {
        "key": _keys(m, key),
        "key_str": str(key),
        "split": _keys(m, m.random.split(key, (2, 2))),
        "fold_in": _keys(m, m.random.fold_in(key, 4)),
        "bits": _array(m.random.bits(key, (4,))),
        "bits_uint8": _array(m.random.bits(key, (3,), np.uint8)),
        "uniform": _array(m.random.uniform(key, (3,))),
        "randint": _array(m.random.randint(key, (4,), 0, 10)),
        "jit_bits": _array(m.jit(lambda k: m.random.bits(k, (3,)))(key)),
        "vmap_bits": _array(m.vmap(lambda k: m.random.bits(k, (2,)))(keys)),
        "vmap_split": _keys(m, m.vmap(lambda k: m.random.split(k, 3))(keys)),
        "raw_key": _array(m.random.PRNGKey(3, impl=impl)),
        "split_jaxpr": str(m.make_jaxpr(lambda k: m.random.split(k))(key)),
        "seed_with_threefry": _keys(m, xr.seed_with_impl(xr.threefry_prng_impl, 5)),
        "random_seed_rbg": _keys(m, xr.random_seed(np.array([1, 2], np.int32), impl=xr.rbg_prng_impl)),
        "random_seed_unsafe_rbg": _keys(m, xr.random_seed(np.int32(9), impl=xr.unsafe_rbg_prng_impl)),
        "builtin_tags": [str(xr.threefry_prng_impl), str(xr.rbg_prng_impl), str(xr.unsafe_rbg_prng_impl)],
        "threefry_2x32": _array(xr.threefry_2x32(np.array([0x12345678, 0x9ABCDEF0], np.uint32), count)),
        "threefry_2x32_2d": _array(xr.threefry_2x32((np.uint32(1), np.uint32(2)), count[:4].reshape(2, 2))),
        "threefry_2x32_jaxpr": str(m.make_jaxpr(xr.threefry_2x32)(np.array([1, 2], np.uint32), count)),
        "threefry_2x32_2d_jaxpr": str(m.make_jaxpr(xr.threefry_2x32)(np.array([1, 2], np.uint32),
                                                                       count[:4].reshape(2, 2))),
        "threefry2x32_p": [_array(x) for x in xr.threefry2x32_p.bind(np.uint32(1), np.uint32(2), count[:2],
                                                                     count[2:4])],
        "user_spec": {"type": type(impl).__name__, "repr": repr(impl), "str": str(impl),
                      "attributes": [n for n in dir(impl) if not n.startswith("__")], **_spec(m, impl)},
        "key_impl_threefry": _spec(m, "threefry2x32"),
        "key_impl_rbg": _spec(m, "rbg"),
        "key_impl_unsafe_rbg": _spec(m, "unsafe_rbg"),
        "key_impl_raw_key": repr(m.random.key_impl(m.random.PRNGKey(0))),
        "raw_key_of_spec": _array(m.random.PRNGKey(5, impl=impl)),
        "seed_with_spec": outcome(lambda: xr.seed_with_impl(impl, 3)),
        "random_seed_with_name": outcome(lambda: xr.random_seed(np.int32(3), impl="rbg")),
    }


if __name__ == "__main__":
    module = importlib.import_module(sys.argv[1])
    path = pathlib.Path(__file__).parent / "extend_random_golden.json"
    path.write_text(json.dumps(cases(module), indent=1) + "\n")
