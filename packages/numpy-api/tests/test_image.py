"""``jax.image``: resize and scale_and_translate give JAX 0.10.2's values (golden/make_image_golden.py)."""

import make_image_golden
import numpy as np
import pytest
from jnp_golden import load

import jaxle_core
import jaxle_numpy.image as image

GOLDEN = load("image_golden.json")
CASES = make_image_golden.cases(image)


@pytest.mark.parametrize("name", sorted(CASES))
def test_matches_jax(name):
    expected = GOLDEN[name]
    try:
        out = CASES[name](jaxle_core)
    except Exception as error:  # noqa: BLE001 - compared with JAX's error
        assert {"error": type(error).__name__, "message": str(error).split("\n")[0]} == expected
        return
    assert "value" in expected, expected
    want = expected["value"]
    assert str(out.dtype) == want["dtype"] and list(out.shape) == want["shape"]
    tolerance = 2e-3 if want["dtype"] in ("float16", "bfloat16") else 2e-5
    np.testing.assert_allclose(np.asarray(out, np.float64), np.asarray(want["values"], np.float64), rtol=tolerance,
                               atol=tolerance)


def test_cubic_pytorch_without_antialiasing_is_refused():
    with pytest.raises(ValueError, match="CUBIC_PYTORCH only with antialias=True"):
        image.resize(np.ones((3, 3), np.float32), (5, 5), image.ResizeMethod.CUBIC_PYTORCH, antialias=False)


def test_resize_is_differentiable_and_jittable():
    x = np.arange(12, dtype=np.float32).reshape(3, 4)
    grad = jaxle_core.grad(lambda a: image.resize(a, (5, 6), "linear").sum())(x)
    # linear weights are normalised per output sample: every output distributes a total weight of 1
    assert grad.shape == (3, 4) and abs(float(grad.sum()) - 30.0) < 1e-4
