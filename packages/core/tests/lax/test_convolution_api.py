"""lax conv_transpose, conv_general_dilated_patches/_local and the convolution shape functions: jaxprs, values,
errors and shapes against JAX 0.10.2 goldens; values against NumPy loops; gradients against finite differences."""

import importlib

import numpy as np
import pytest

import jaxle_core
from jaxle_core import lax
from jaxle_core.config import enable_x64
from jaxle_core.test_util import check_grads

SHARED = importlib.import_module("make_reductions_golden")
GEN, GOLDEN = SHARED.load_suite("convolution_api")


@pytest.mark.parametrize("name", GEN.FUNCTIONS)
def test_signatures_match_jax(name):
    assert GEN.signature(jaxle_core, name) == GOLDEN["signatures"][name]


@pytest.mark.parametrize("name", sorted(GEN.CASES))
def test_matches_jax(name):
    SHARED.assert_matches(SHARED.run_case(jaxle_core, GEN.CASES[name]), GOLDEN["cases"][name])


@pytest.mark.parametrize("name", sorted(n for n in GEN.CASES if "error" in GOLDEN["cases"][n]))
def test_error_messages_match_jax(name):
    assert SHARED.run_case(jaxle_core, GEN.CASES[name]) == GOLDEN["cases"][name]


@pytest.mark.parametrize("name", sorted(GEN.TEXT_CASES))
def test_jaxpr_text_and_run_errors_match_jax(name):
    assert GEN.trace_text(jaxle_core, GEN.TEXT_CASES[name]) == GOLDEN["text"][name]


@pytest.mark.parametrize("name", sorted(GEN.SHAPE_CASES))
def test_shape_functions_match_jax(name):
    assert GEN.shape_result(jaxle_core, GEN.SHAPE_CASES[name]) == GOLDEN["shapes"][name]


# ---------------------------------------------------------------- NumPy references


def _forward_pads(size: int, window: int, stride: int, padding: str) -> tuple[int, int]:
    """TensorFlow's 'SAME' (extra padding high) or 'VALID' padding of a forward strided convolution."""
    if padding == "VALID":
        return 0, 0
    total = max((-(-size // stride) - 1) * stride + window - size, 0)
    return total // 2, total - total // 2


def _input_gradient(ct, w, in_spatial, strides, padding):
    """The gradient with respect to its NCHW input of a forward NCHW/OIHW convolution, by scattering each output
    cotangent through the kernel window it was computed from."""
    n, _, out_h, out_w = ct.shape
    _, c, kh, kw = w.shape
    (lo_h, hi_h), (lo_w, hi_w) = (_forward_pads(s, k, st, padding) for s, k, st in zip(in_spatial, (kh, kw), strides))
    grad = np.zeros((n, c, in_spatial[0] + lo_h + hi_h, in_spatial[1] + lo_w + hi_w))
    for y in range(out_h):
        for x in range(out_w):
            for a in range(kh):
                for b in range(kw):
                    grad[:, :, y * strides[0] + a, x * strides[1] + b] += ct[:, :, y, x] @ w[:, :, a, b]
    return grad[:, :, lo_h:lo_h + in_spatial[0], lo_w:lo_w + in_spatial[1]]


@pytest.mark.parametrize("strides,padding", [((2, 2), "SAME"), ((2, 3), "VALID"), ((3, 1), "SAME"),
                                             ((1, 2), "VALID"), ((3, 2), "VALID")])
def test_conv_transpose_of_the_kernel_is_the_input_gradient(strides, padding):
    # transpose_kernel=True makes conv_transpose the gradient of the forward convolution it transposes.
    y = SHARED.rand((2, 3, 3, 4), "float32")
    w = SHARED.rand((3, 2, 2, 3), "float32", 1)  # the forward convolution's OIHW kernel
    got = np.asarray(lax.conv_transpose(y, w, strides, padding, dimension_numbers=("NCHW", "OIHW", "NCHW"),
                                        transpose_kernel=True))
    want = _input_gradient(y.astype(np.float64), w.astype(np.float64), got.shape[2:], strides, padding)
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5)


def test_conv_transpose_scatters_the_kernel():
    # Without transposing the kernel, each input element adds its features times the flipped window at its
    # stride-spaced position. Padding (k - 1, k - 1) of the dilated input gives all of that sum; (1, 1) crops
    # one element at each end.
    x = SHARED.rand((1, 4, 3), "float32")  # NHC
    w = SHARED.rand((3, 3, 2), "float32", 1)  # HIO
    full = np.zeros((1, 3 * 3 + 3, 2))
    for i in range(4):
        for t in range(3):
            full[0, i * 3 + 2 - t] += x[0, i] @ w[t]
    got = lax.conv_transpose(x, w, (3,), ((1, 1),))
    np.testing.assert_allclose(np.asarray(got), full[:, 1:-1], rtol=1e-5, atol=1e-6)


def _patches_loop(x, filter_shape, strides, pads, rhs_dilation):
    """NCHW patches: feature c * prod(filter_shape) + window position, by explicit loops."""
    n, c, h, w = x.shape
    padded = np.pad(x, ((0, 0), (0, 0), *pads))
    fh, fw = filter_shape
    span = [(f - 1) * d + 1 for f, d in zip(filter_shape, rhs_dilation)]
    out_h, out_w = [(size - s) // st + 1 for size, s, st in zip(padded.shape[2:], span, strides)]
    out = np.zeros((n, c * fh * fw, out_h, out_w), x.dtype)
    for y in range(out_h):
        for z in range(out_w):
            for a in range(fh):
                for b in range(fw):
                    pixel = padded[:, :, y * strides[0] + a * rhs_dilation[0], z * strides[1] + b * rhs_dilation[1]]
                    out[:, a * fw + b::fh * fw, y, z] = pixel
    return out


@pytest.mark.parametrize("filter_shape,strides,pads,rhs_dilation", [
    ((2, 3), (1, 1), ((0, 0), (0, 0)), (1, 1)),
    ((3, 2), (2, 1), ((1, 1), (0, 2)), (1, 2)),
])
def test_patches_match_numpy_loops(filter_shape, strides, pads, rhs_dilation):
    x = SHARED.rand((2, 3, 6, 5), "float32")
    got = lax.conv_general_dilated_patches(x, filter_shape, strides, pads, rhs_dilation=rhs_dilation)
    np.testing.assert_array_equal(np.asarray(got), _patches_loop(x, filter_shape, strides, pads, rhs_dilation))


def test_local_convolution_matches_numpy():
    # Every output position has its own weights: out[n, o, y, z] = sum_k patches[n, k, y, z] * w[o, k, y, z].
    x = SHARED.rand((2, 3, 5, 4), "float32")
    w = SHARED.rand((4, 3 * 2 * 2, 5, 3), "float32", 1)
    pads = ((1, 0), (0, 0))
    got = lax.conv_general_dilated_local(x, w, (1, 1), pads, (2, 2))
    patches = _patches_loop(x.astype(np.float64), (2, 2), (1, 1), pads, (1, 1))
    np.testing.assert_allclose(np.asarray(got), np.einsum("nkyz,okyz->noyz", patches, w), rtol=1e-5, atol=1e-5)


# ---------------------------------------------------------------- gradients


@pytest.mark.parametrize("fun,shapes", [
    (lambda x, w: lax.conv_transpose(x, w, (2, 1), "SAME", transpose_kernel=True), [(1, 3, 2, 2), (2, 2, 2, 2)]),
    (lambda x, w: lax.conv_transpose(x, w, (2,), ((1, 2),), rhs_dilation=(2,)), [(1, 3, 2), (2, 2, 3)]),
    (lambda x: lax.conv_general_dilated_patches(x, (2, 2), (1, 1), "SAME"), [(1, 2, 3, 3)]),
    (lambda x, w: lax.conv_general_dilated_local(x, w, (1,), "VALID", (2,)), [(2, 2, 4), (2, 4, 3)]),
])
def test_gradients_match_finite_differences(fun, shapes):
    with enable_x64():
        args = [SHARED.rand(shape, "float64", seed) for seed, shape in enumerate(shapes)]
        check_grads(fun, args, order=1, modes=("fwd", "rev"))


def test_vmap_and_jit_of_the_wrappers_match_a_loop():
    nhwc = ("NHWC", "HWIO", "NHWC")
    x = SHARED.rand((3, 1, 4, 3, 2), "float32")
    w = SHARED.rand((3, 2, 2, 3, 2), "float32", 1)
    local_w = SHARED.rand((3, 3, 2, 8, 2), "float32", 2)

    def f(a, b, c):
        return (lax.conv_transpose(a, b, (2, 1), "SAME", transpose_kernel=True),
                lax.conv_general_dilated_patches(a, (2, 2), (1, 1), "VALID", dimension_numbers=nhwc),
                lax.conv_general_dilated_local(a, c, (1, 1), "VALID", (2, 2), dimension_numbers=nhwc))

    batched = jaxle_core.vmap(jaxle_core.jit(f))(x, w, local_w)
    for i in range(3):
        for got, want in zip(batched, f(x[i], w[i], local_w[i]), strict=True):
            np.testing.assert_allclose(np.asarray(got)[i], np.asarray(want), rtol=1e-5, atol=1e-6)
