"""XLA lowerings of platform_dependent (only the compiled platform's branch is emitted) and composite
(stablehlo.composite with its decomposition), against the NumPy reference and JAX 0.10.2's StableHLO."""

import numpy as np
import pytest
from conftest import check_against_reference

import jaxle_core as jc
from jaxle_core import lax

X = np.array([0.5, -1.0, 2.0], np.float32)


def _scale(x, scale, label):
    return x * scale


@pytest.mark.parametrize("fun", [
    lambda x: lax.platform_dependent(x, cpu=lax.sin, default=lax.cos),
    lambda x: lax.platform_dependent(x, tpu=lax.sin, cuda=lax.exp, default=lax.cos),
    lambda x: lax.composite(lambda a, b: (a + b, a * b), "my.pair")(x, 2.0),
    lambda x: lax.composite(_scale, "my.scale", version=3)(x, scale=np.float32(1.5), label="s"),
], ids=["platform-cpu", "platform-default", "composite-pair", "composite-attributes"])
def test_against_reference(fun):
    check_against_reference(fun, X)


def test_platform_dependent_emits_the_cpu_branch_only():
    text = jc.jit(lambda x: lax.platform_dependent(x, cpu=lax.sin, default=lax.cos)).lower(X).as_text()
    assert "stablehlo.sine" in text and "stablehlo.cosine" not in text
    np.testing.assert_allclose(np.asarray(jc.jit(jc.grad(lambda y: lax.platform_dependent(
        y, cpu=lax.sin, default=lax.cos)))(np.float32(0.5))), np.cos(0.5), rtol=1e-6)


def test_platform_dependent_without_a_branch_for_cpu():
    with pytest.raises(NotImplementedError, match="platform_index.*not found for platform cpu"):
        jc.jit(lambda x: lax.platform_dependent(x, tpu=lax.sin))(X)


def test_composite_stablehlo_text():
    text = jc.jit(lambda x: lax.composite(_scale, "my.scale", version=2)(x, scale=np.float32(2.0), label="s")
                  ).lower(X).as_text()
    assert ('stablehlo.composite "my.scale" %arg0 {composite_attributes = {label = "s", scale = 2.000000e+00 : f32}, '
            'decomposition = @my.scale, version = 2 : i32} : (tensor<3xf32>) -> tensor<3xf32>') in text
    assert "func.func private @my.scale(%arg0: tensor<3xf32>) -> tensor<3xf32>" in text


@pytest.mark.parametrize("name", ["tanh", "my tanh"])
def test_composite_names_must_be_namespaced(name):
    with pytest.raises(ValueError, match="must be a valid namespaced op name"):
        jc.jit(lax.composite(lax.tanh, name))(X)
