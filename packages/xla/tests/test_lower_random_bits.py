"""XLA lowerings of rng_bit_generator and rng_uniform: XLA's bits equal JAX 0.10.2's (goldens) and the NumPy
reference's; rng_uniform stays in its interval."""

import importlib
import pathlib
import sys

import numpy as np
import pytest
from conftest import check_against_reference

import jaxle_core as jc
from jaxle_core import lax
from jaxle_core.config import enable_x64

sys.path.insert(0, str(pathlib.Path(__file__).parents[2] / "core" / "tests" / "golden"))
SHARED = importlib.import_module("make_reductions_golden")
GEN, GOLDEN = SHARED.load_suite("random_bits")
# A sample of the golden cases (each compiles): every algorithm, dtype and layout rule, and the counter wrap.
BIT_CASES = [f"{prefix}{algorithm}-{case}" for algorithm in ["RNG_DEFAULT", "RNG_THREE_FRY", "RNG_PHILOX"]
             for prefix, case in [("", "small-uint32-(3, 5)"), ("", "small-uint32-(3, 2, 2)"), ("", "wrap-uint32-(5,)"),
                                  ("", "small-uint8-(4, 3)"), ("", "small-uint16-(7,)"),
                                  ("x64-", "small-uint64-(2, 3)"), ("x64-", "uint64-key")]]


@pytest.mark.parametrize("name", BIT_CASES)
def test_jitted_bits_match_jax(name):
    fun, args = GEN.CASES[name](lax)
    with enable_x64(name.startswith("x64-")):
        outs = jc.jit(fun)(*args)
        assert [SHARED._value(o) for o in outs] == GOLDEN[name]["values"]


@pytest.mark.parametrize("algorithm, dtype, shape", [
    (lax.RandomAlgorithm.RNG_DEFAULT, np.uint8, (3, 3)), (lax.RandomAlgorithm.RNG_THREE_FRY, np.uint16, (5, 3)),
    (lax.RandomAlgorithm.RNG_PHILOX, np.uint32, (2, 3, 3))])
def test_bits_match_reference(algorithm, dtype, shape):
    key = np.array([11, 0xFFFFFFF0, 0xFFFFFFFE, 0xFFFFFFFF], np.uint32)
    check_against_reference(lambda k: lax.rng_bit_generator(k, shape, dtype=dtype, algorithm=algorithm), key)


def test_vmapped_bits_match_jax():
    assert GEN.vmap_case(jc) == GOLDEN["vmap"]


def test_stablehlo_text():
    text = jc.jit(lambda k: lax.rng_bit_generator(k, (2, 3), dtype=np.uint8, algorithm=lax.RandomAlgorithm.RNG_PHILOX)
                  ).lower(np.zeros(4, np.uint32)).as_text()
    assert "stablehlo.rng_bit_generator %1, algorithm = PHILOX : (tensor<2xui64>) -> (tensor<2xui64>, " \
           "tensor<2x3xui8>)" in text


@pytest.mark.parametrize("dtype, low, high", [(np.float32, -1.5, 2.5), (np.int32, -3, 4), (np.float16, 0, 1)])
def test_rng_uniform_range(dtype, low, high):
    x = np.asarray(jc.jit(lambda a, b: lax.rng_uniform(a, b, (500,)))(dtype(low), dtype(high)))
    assert x.dtype == dtype and x.min() >= low and x.max() < high and len(np.unique(x)) > 1


def test_bad_key_is_reported_when_lowering():
    with pytest.raises(AssertionError, match="uint32\\[4\\] or uint64\\[2\\]"):
        jc.jit(lambda k: lax.rng_bit_generator(k, (3,)))(np.zeros(6, np.uint32))
