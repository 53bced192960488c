"""Write random_bits_golden.json (lax rng_bit_generator, rng_uniform) with the named module:

    /work/jaxpeer/bin/python packages/core/tests/golden/make_random_bits_golden.py jax

Cases named ``x64-...`` are recorded with 64-bit types enabled (the tests run them so too).
"""

import importlib
import json
import sys

import numpy as np
from make_reductions_golden import HERE, record

_KEYS = {"small": np.array([1, 2, 3, 4], np.uint32),
         "large": np.array([0xDEADBEEF, 0x12345678, 0xFFFFFFFF, 0xFFFFFFFE], np.uint32),
         # the low counter word wraps within one draw (Philox carries into the high word)
         "wrap": np.array([1, 2, 0xFFFFFFFF, 0xFFFFFFFF], np.uint32)}
_ALGORITHMS = ["RNG_DEFAULT", "RNG_THREE_FRY", "RNG_PHILOX"]


def _bits(key, shape, dtype, algorithm):
    return lambda lax: (
        lambda k: lax.rng_bit_generator(k, shape, dtype=np.dtype(dtype), algorithm=getattr(lax.RandomAlgorithm,
                                                                                           algorithm)),
        (_KEYS[key],))


CASES = {}
for _algorithm in _ALGORITHMS:
    for _key in _KEYS:
        for _shape in [(), (5,), (2, 3), (3, 5), (3, 2, 2), (0,)]:
            CASES[f"{_algorithm}-{_key}-uint32-{_shape}"] = _bits(_key, _shape, "uint32", _algorithm)
    for _dtype in ["uint8", "uint16"]:
        for _shape in [(7,), (4, 3)]:
            CASES[f"{_algorithm}-small-{_dtype}-{_shape}"] = _bits("small", _shape, _dtype, _algorithm)
    for _shape in [(), (5,), (2, 3)]:
        CASES[f"x64-{_algorithm}-small-uint64-{_shape}"] = _bits("small", _shape, "uint64", _algorithm)
    CASES[f"x64-{_algorithm}-uint64-key"] = lambda lax, a=_algorithm: (
        lambda k: lax.rng_bit_generator(k, (5,), algorithm=getattr(lax.RandomAlgorithm, a)),
        (np.array([0x0000000200000001, 0xFFFFFFFFFFFFFFFE], np.uint64),))
CASES.update({
    "int-algorithm": lambda lax: (lambda k: lax.rng_bit_generator(k, (3,), algorithm=1), (_KEYS["small"],)),
    "scalar-shape": lambda lax: (lambda k: lax.rng_bit_generator(k, 4), (_KEYS["small"],)),
    "err-dtype-int32": _bits("small", (3,), "int32", "RNG_DEFAULT"),
    "err-dtype-float32": _bits("small", (3,), "float32", "RNG_DEFAULT"),
    "err-key-shape": lambda lax: (lambda k: lax.rng_bit_generator(k, (3,)), (np.arange(6, dtype=np.uint32),)),
    "err-key-dtype": lambda lax: (lambda k: lax.rng_bit_generator(k, (3,)), (np.arange(4, dtype=np.int32),)),
    # rng_uniform draws anew each time: the values checked are properties that always hold
    "rng_uniform-float32": lambda lax: (
        lambda a, b: [lax.ge(x := lax.rng_uniform(a, b, (2, 3)), a), lax.lt(x, b)], (np.float32(1), np.float32(2))),
    "rng_uniform-int32": lambda lax: (
        lambda a, b: [lax.ge(x := lax.rng_uniform(a, b, (4,)), a), lax.lt(x, b)], (np.int32(-3), np.int32(3))),
    "rng_uniform-literals": lambda lax: (lambda: lax.ge(lax.rng_uniform(0.0, 1.0, (3,)), 0.0), ()),
    "err-rng_uniform-dtypes": lambda lax: (lambda a, b: lax.rng_uniform(a, b, (3,)),
                                           (np.float32(0), np.int32(1))),
    "err-rng_uniform-shape": lambda lax: (lambda a, b: lax.rng_uniform(a, b, (3,)),
                                          (np.zeros(2, np.float32), np.float32(1))),
})


def vmap_case(module):
    """vmap over keys: the first key draws the whole batch and only it advances."""
    keys = np.arange(8, dtype=np.uint32).reshape(2, 4)
    new_keys, bits = module.vmap(lambda k: module.lax.rng_bit_generator(k, (3,)))(keys)
    return {"new_keys": np.asarray(new_keys).tolist(), "bits": np.asarray(bits).tolist()}


if __name__ == "__main__":
    jax = importlib.import_module(sys.argv[1])
    plain = {k: v for k, v in CASES.items() if not k.startswith("x64-")}
    golden = record(jax, plain)
    golden["vmap"] = vmap_case(jax)
    jax.config.update("jax_enable_x64", True)
    golden.update(record(jax, {k: v for k, v in CASES.items() if k.startswith("x64-")}))
    (HERE / "random_bits_golden.json").write_text(json.dumps(golden, indent=1, sort_keys=True) + "\n")
