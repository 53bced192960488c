"""``jax.nn.scaled_dot_general`` against JAX 0.10.2 (golden/scaled_dot_general_golden.json): the jaxprs of the
forward product and of its gradient, the quantized operands and scales handed to ``scaled_matmul`` (byte for byte),
the CPU compilation error; the block-scaled product itself on the reference backend."""

import json
import pathlib
import sys

import ml_dtypes
import numpy as np
import pytest

import jaxle as jax
from jaxle_core.backend import use_backend

sys.path.insert(0, str(pathlib.Path(__file__).parent / "golden"))

import make_scaled_dot_general_golden as gen  # noqa: E402 - found through the path set just above

GOLDEN = json.loads((pathlib.Path(__file__).parent / "golden" / "scaled_dot_general_golden.json").read_text())
QUANTIZED_TYPES = {"mxfp8": (ml_dtypes.float8_e4m3fn, ml_dtypes.float8_e8m0fnu),
                   "nvfp4": (ml_dtypes.float4_e2m1fn, ml_dtypes.float8_e4m3fn)}


def _case(name):
    grad = name.startswith("grad_")
    case = (gen.GRAD_CASES if grad else gen.CASES)[name.removeprefix("grad_")]
    product, args = gen.build(jax, *case)
    args = [jax.numpy.asarray(x) for x in args]
    if grad:
        return case, jax.grad(lambda lhs, rhs: product(lhs, rhs).sum(), argnums=(0, 1)), args
    return case, product, args


@pytest.mark.parametrize("name", sorted(n for n in GOLDEN if "jaxpr" in GOLDEN[n]))
def test_jaxpr_matches_jax(name):
    _, fn, args = _case(name)
    assert str(jax.make_jaxpr(fn)(*args)) == GOLDEN[name]["jaxpr"]


@pytest.mark.parametrize("name", sorted(n for n in GOLDEN if "scaled_matmul_inputs" in GOLDEN[n]))
def test_quantized_operands_match_jax_bytes(name):
    _, fn, args = _case(name)
    closed = jax.make_jaxpr(fn)(*args)
    assert gen.scaled_matmul_inputs(jax, closed, args) == GOLDEN[name]["scaled_matmul_inputs"]


@pytest.mark.parametrize("name", sorted(n for n in GOLDEN if "run_error" in GOLDEN[n]))
def test_cpu_compilation_error_is_jaxs(name):
    _, fn, args = _case(name)
    with pytest.raises(NotImplementedError) as info:
        fn(*args)
    assert str(info.value) == GOLDEN[name]["run_message"]


def test_without_configs_is_dot_general_bit_for_bit():
    _, fn, args = _case("none_batched")
    assert np.asarray(fn(*args)).view(np.uint8).tobytes().hex() == GOLDEN["none_batched"]["value"]


def _dequantized(hex_bytes, shape, dtype):
    return np.frombuffer(bytes.fromhex(hex_bytes), np.uint8).view(dtype).reshape(shape).astype(np.float64)


@pytest.mark.parametrize("name", ["mxfp8_batched", "mxfp8_general", "nvfp4_global_scale"])
def test_product_of_jaxs_quantized_operands(name):
    """On the reference backend the product is computed: it is that of JAX's quantized operands and scales."""
    (mode, scale, *_), fn, args = _case(name)
    closed = jax.make_jaxpr(fn)(*args)
    matmul = next(e for e in closed.jaxpr.eqns if e.primitive.name == "custom_vjp_call").params["call_jaxpr"]
    shapes = [v.aval.shape for v in next(e for e in matmul.jaxpr.eqns if e.primitive.name == "jit"
                                         and e.params["name"] == "_scaled_matmul").invars]
    data_type, scale_type = QUANTIZED_TYPES[mode]
    lhs, rhs, lhs_scales, rhs_scales = (
        _dequantized(h, s, t) for h, s, t in zip(GOLDEN[name]["scaled_matmul_inputs"][0], shapes,
                                                 (data_type, data_type, scale_type, scale_type)))
    expected = np.einsum("bmk,bnk->bmn", lhs * np.repeat(lhs_scales, lhs.shape[2] // lhs_scales.shape[2], axis=2),
                         rhs * np.repeat(rhs_scales, rhs.shape[2] // rhs_scales.shape[2], axis=2))
    if scale is not None:
        expected = expected * np.float64(scale[0]) ** 2
    with use_backend("reference"):
        out = np.asarray(jax.jit(fn)(*args))
    np.testing.assert_allclose(out, expected.reshape(out.shape), rtol=1e-5)  # float32 accumulation
    lhs_f, rhs_f = (np.asarray(a, np.float64) for a in args)
    exact = np.asarray(jax.lax.dot_general(lhs_f, rhs_f, gen.CASES[name][4]))
    # Close to the exact product, but for the rows of lhs's block of zeros: as in JAX, 0 / 2**-127 is 0 / 0 once
    # subnormals flush to zero, and those operands quantize to NaN.
    finite = np.isfinite(out)
    assert finite.mean() > 0.5
    np.testing.assert_allclose(out[finite], exact[finite], rtol=0.3, atol=0.3 * np.abs(exact).max())


def test_nvfp4_gradient_is_the_full_precision_one_within_range():
    """nvfp4's gradient multiplies the cotangent by the unquantized operands, zero where an operand exceeded the
    quantizable range (straight-through)."""
    lhs = np.linspace(-3, 3, 64, dtype=np.float32).reshape(1, 2, 32)
    rhs = np.linspace(-1, 2, 96, dtype=np.float32).reshape(1, 3, 32)
    lhs[0, 0, 0] = 5000.0  # beyond 6 * 448 with a global scale of 1
    configs = [jax.nn.get_scaled_dot_general_config("nvfp4")] * 3
    g = np.arange(6, dtype=np.float32).reshape(1, 2, 3)

    def f(a, b):
        return (jax.nn.scaled_dot_general(a, b, gen.BATCHED, configs=configs) * g).sum()

    with use_backend("reference"):
        lhs_grad, rhs_grad = jax.grad(f, argnums=(0, 1))(lhs, rhs)
    expected_lhs = np.einsum("bmn,bnk->bmk", g, rhs)
    expected_lhs[0, 0, 0] = 0.0
    np.testing.assert_allclose(np.asarray(lhs_grad), expected_lhs, rtol=1e-6)
    np.testing.assert_allclose(np.asarray(rhs_grad), np.einsum("bmn,bmk->bnk", g, lhs), rtol=1e-6)


def test_contracted_size_must_be_whole_blocks():
    # JAX fails with a bare AssertionError here; jaxle raises the same type, saying which sizes disagree.
    assert GOLDEN["mxfp8_k_error"]["error"] == "AssertionError"
    _, fn, args = _case("mxfp8_k_error")
    with pytest.raises(AssertionError, match="the contracted size 48 must be a multiple of the block size 32"):
        fn(*args)
