"""Golden values of jax.random for jaxle_random's tests.

Run with JAX's venv: ``/work/jaxpeer/bin/python make_random_golden.py jax`` writes random_golden.json.
Each case is ``build(ns)`` returning an array (or raising); ``ns`` has ``random``, ``numpy``, ``jit``,
``vmap`` and ``enable_x64``. The tests replay the cases with ``namespace("jaxle")``.
"""

from __future__ import annotations

import contextlib
import importlib
import json
import pathlib
import sys
from types import SimpleNamespace

import numpy as np

GOLDEN = pathlib.Path(__file__).parent / "random_golden.json"
FLOATS = ("float16", "bfloat16", "float32")


def namespace(which: str) -> SimpleNamespace:
    """The modules a case uses, from JAX (``jax``) or from jaxle (``jaxle``)."""
    if which == "jax":
        jax = importlib.import_module(which)
        return SimpleNamespace(random=jax.random, numpy=jax.numpy, jit=jax.jit, vmap=jax.vmap,
                               enable_x64=jax.enable_x64)
    core = importlib.import_module("jaxle_core")
    return SimpleNamespace(random=importlib.import_module("jaxle_random"),
                           numpy=importlib.import_module("jaxle_numpy"), jit=core.jit, vmap=core.vmap,
                           enable_x64=core.config.enable_x64)


def _cases() -> dict:
    cases = {}

    def case(name, build, x64=False):
        cases[name] = (build, x64)

    for x64 in (False, True):
        tag = "_x64" if x64 else ""
        for seed in (0, 42, -1, 2 ** 31 - 1, 2 ** 40 + 5, -(2 ** 35)):
            case(f"PRNGKey_{seed}{tag}", lambda ns, s=seed: ns.random.PRNGKey(s), x64)
        case(f"PRNGKey_int8{tag}", lambda ns: ns.random.PRNGKey(np.int8(-3)), x64)
        case(f"split_default{tag}", lambda ns: ns.random.split(ns.random.PRNGKey(0)), x64)
        case(f"fold_in_big{tag}", lambda ns: ns.random.fold_in(ns.random.PRNGKey(3), 2 ** 33 + 9), x64)
        case(f"bits_default{tag}", lambda ns: ns.random.bits(ns.random.PRNGKey(5), (4,)), x64)
        case(f"uniform_default{tag}", lambda ns: ns.random.uniform(ns.random.PRNGKey(5), (5,)), x64)
        case(f"normal_default{tag}", lambda ns: ns.random.normal(ns.random.PRNGKey(5), (5,)), x64)
        case(f"randint_default{tag}", lambda ns: ns.random.randint(ns.random.PRNGKey(5), (6,), -3, 50), x64)
        case(f"bernoulli_default{tag}", lambda ns: ns.random.bernoulli(ns.random.PRNGKey(5), 0.4, (8,)), x64)
    case("split_num5", lambda ns: ns.random.split(ns.random.PRNGKey(7), 5))
    case("split_shape", lambda ns: ns.random.split(ns.random.PRNGKey(7), (2, 3)))
    case("split_zero", lambda ns: ns.random.split(ns.random.PRNGKey(7), 0))
    case("split_of_split", lambda ns: ns.random.split(ns.random.split(ns.random.PRNGKey(1))[1], 3))
    for data in (0, 7, 12345, 2 ** 31 - 1, -5):
        case(f"fold_in_{data}", lambda ns, d=data: ns.random.fold_in(ns.random.PRNGKey(0), d))
    for dtype in ("uint8", "uint16", "uint32"):
        case(f"bits_{dtype}", lambda ns, d=dtype: ns.random.bits(ns.random.PRNGKey(11), (3, 4), d))
    case("bits_uint64_x64", lambda ns: ns.random.bits(ns.random.PRNGKey(11), (3, 4), "uint64"), True)
    case("bits_scalar", lambda ns: ns.random.bits(ns.random.PRNGKey(2)))
    case("bits_empty", lambda ns: ns.random.bits(ns.random.PRNGKey(2), (0, 3)))
    for dtype in FLOATS:
        case(f"uniform_{dtype}", lambda ns, d=dtype: ns.random.uniform(ns.random.PRNGKey(3), (2, 5), d))
        case(f"uniform_range_{dtype}",
             lambda ns, d=dtype: ns.random.uniform(ns.random.PRNGKey(4), (7,), d, -2.5, 3.0))
        case(f"normal_{dtype}", lambda ns, d=dtype: ns.random.normal(ns.random.PRNGKey(3), (2, 5), d))
    case("uniform_float64_x64", lambda ns: ns.random.uniform(ns.random.PRNGKey(3), (2, 5), "float64"), True)
    case("uniform_range_float64_x64",
         lambda ns: ns.random.uniform(ns.random.PRNGKey(4), (7,), "float64", -2.5, 3.0), True)
    case("normal_float64_x64", lambda ns: ns.random.normal(ns.random.PRNGKey(3), (2, 5), "float64"), True)
    case("normal_complex64", lambda ns: ns.random.normal(ns.random.PRNGKey(3), (2, 3), "complex64"))
    case("normal_complex128_x64", lambda ns: ns.random.normal(ns.random.PRNGKey(3), (4,), "complex128"), True)
    case("randint_uint8_negative_min", lambda ns: ns.random.randint(ns.random.PRNGKey(6), (10,), -5, 300, "uint8"))
    case("uniform_array_bounds", lambda ns: ns.random.uniform(ns.random.PRNGKey(8), (2, 3), minval=np.array(
        [0.0, 1.0, 2.0], np.float32), maxval=np.array([[1.0], [5.0]], np.float32)))
    case("uniform_scalar", lambda ns: ns.random.uniform(ns.random.PRNGKey(8)))
    case("normal_scalar", lambda ns: ns.random.normal(ns.random.PRNGKey(8)))
    case("normal_big", lambda ns: ns.random.normal(ns.random.PRNGKey(9), (64,)))
    for dtype in ("int8", "uint8", "int16", "int32", "uint32"):
        case(f"randint_{dtype}", lambda ns, d=dtype: ns.random.randint(ns.random.PRNGKey(6), (10,), 0, 100, d))
    case("randint_int64_x64", lambda ns: ns.random.randint(ns.random.PRNGKey(6), (10,), -2 ** 40, 2 ** 40,
                                                            "int64"), True)
    case("randint_full_range", lambda ns: ns.random.randint(ns.random.PRNGKey(6), (10,), -2 ** 31, 2 ** 31 - 1))
    case("randint_beyond_int8", lambda ns: ns.random.randint(ns.random.PRNGKey(6), (10,), -1000, 1000, "int8"))
    case("randint_empty_range", lambda ns: ns.random.randint(ns.random.PRNGKey(6), (4,), 5, 5))
    case("randint_array_bounds", lambda ns: ns.random.randint(ns.random.PRNGKey(6), (2, 3), np.array([0, 10, 20]),
                                                               np.array([[5], [100]])))
    for p in (0.0, 0.25, 1.0):
        case(f"bernoulli_{p}", lambda ns, p=p: ns.random.bernoulli(ns.random.PRNGKey(10), p, (16,)))
    case("bernoulli_high", lambda ns: ns.random.bernoulli(ns.random.PRNGKey(10), 0.3, (16,), mode="high"))
    case("bernoulli_high_float16", lambda ns: ns.random.bernoulli(ns.random.PRNGKey(10), np.float16(0.3), (2, 4),
                                                                  "high"))
    case("PRNGKey_impl_named", lambda ns: ns.random.PRNGKey(5, impl="threefry2x32"))
    case("error_bernoulli_mode", lambda ns: ns.random.bernoulli(ns.random.PRNGKey(1), 0.5, (2,), mode="x"))
    case("error_uniform_out_sharding", lambda ns: ns.random.uniform(ns.random.PRNGKey(1), out_sharding=1))
    case("bernoulli_array_p", lambda ns: ns.random.bernoulli(ns.random.PRNGKey(10), np.linspace(0, 1, 6,
                                                                                              dtype=np.float32)))
    case("bernoulli_float16_p", lambda ns: ns.random.bernoulli(ns.random.PRNGKey(10), np.float16(0.5), (6,)))
    # transformations: jit, and vmapped keys (the same bits as a loop over the keys)
    case("jit_uniform", lambda ns: ns.jit(lambda k: ns.random.uniform(k, (4,)))(ns.random.PRNGKey(12)))
    case("jit_split_fold", lambda ns: ns.jit(lambda k, d: ns.random.fold_in(ns.random.split(k)[0], d))(
        ns.random.PRNGKey(12), 3))
    case("jit_PRNGKey", lambda ns: ns.jit(ns.random.PRNGKey)(np.int32(77)))
    case("vmap_normal", lambda ns: ns.vmap(lambda k: ns.random.normal(k, (3,)))(
        ns.random.split(ns.random.PRNGKey(13), 4)))
    case("vmap_split", lambda ns: ns.vmap(ns.random.split)(ns.random.split(ns.random.PRNGKey(13), 3)))
    case("vmap_fold_in", lambda ns: ns.vmap(ns.random.fold_in, (None, 0))(ns.random.PRNGKey(13),
                                                                           np.arange(4, dtype=np.int32)))
    case("vmap_PRNGKey", lambda ns: ns.vmap(ns.random.PRNGKey)(np.arange(3, dtype=np.int32)))
    case("vmap_randint", lambda ns: ns.vmap(lambda k: ns.random.randint(k, (3,), 0, 7))(
        ns.random.split(ns.random.PRNGKey(14), 2)))
    case("vmap_bernoulli_p", lambda ns: ns.vmap(lambda p: ns.random.bernoulli(ns.random.PRNGKey(14), p, (3,)))(
        np.array([0.1, 0.5, 0.9], np.float32)))
    # errors
    case("error_seed_float", lambda ns: ns.random.PRNGKey(1.5))
    case("error_uniform_int", lambda ns: ns.random.uniform(ns.random.PRNGKey(1), (2,), "int32"))
    case("error_normal_int", lambda ns: ns.random.normal(ns.random.PRNGKey(1), (2,), "int32"))
    case("error_bits_signed", lambda ns: ns.random.bits(ns.random.PRNGKey(1), (2,), "int32"))
    case("error_key_dtype", lambda ns: ns.random.normal(np.zeros(2, np.float32), (2,)))
    case("error_key_shape", lambda ns: ns.random.uniform(np.zeros(3, np.uint32), (2,)))
    return cases


CASES = _cases()


def encode(value) -> dict:
    """An array's dtype, shape and exact bytes."""
    value = np.asarray(value)
    return {"dtype": str(value.dtype), "shape": list(value.shape), "hex": value.tobytes().hex()}


def decode(record: dict) -> np.ndarray:
    """The array ``encode`` recorded."""
    return np.frombuffer(bytes.fromhex(record["hex"]), np.dtype(record["dtype"])).reshape(record["shape"])


def compare_errors(name: str, got: dict, expected: dict, check_message: bool = True) -> bool:
    """Whether either record is an exception; if so, both are asserted to be the same one (type, and message
    where ``check_message``)."""
    if "error" not in expected and "error" not in got:
        return False
    assert got.get("error") == expected.get("error"), (name, got)
    if check_message:
        assert got["message"] == expected["message"], name
    return True


def run_case_of(cases: dict, ns: SimpleNamespace, name: str) -> dict:
    """The encoded result of ``cases[name]`` (``(build, x64)``), or its exception type and message."""
    build, x64 = cases[name]
    with ns.enable_x64(True) if x64 else contextlib.nullcontext():
        try:
            return encode(build(ns))
        except Exception as error:  # noqa: BLE001 - the golden records which exception a case raises
            return {"error": type(error).__name__, "message": str(error)}


def write_golden(cases: dict, path: pathlib.Path, ns: SimpleNamespace) -> None:
    """Run every case with ``ns`` and write the records to ``path``."""
    path.write_text(json.dumps({name: run_case_of(cases, ns, name) for name in cases}, indent=0, sort_keys=True)
                    + "\n")


def run_case(ns: SimpleNamespace, name: str) -> dict:
    return run_case_of(CASES, ns, name)


if __name__ == "__main__":
    write_golden(CASES, GOLDEN, namespace(sys.argv[1]))
