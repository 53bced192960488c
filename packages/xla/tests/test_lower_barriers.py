"""XLA lowerings of optimization_barrier, dce_sink, stage, device_put (the primitive and jaxle_xla.device_put
staging it under tracing) and sharding constraints, against the NumPy reference and JAX 0.10.2."""

import importlib
import pathlib
import sys

import numpy as np
import pytest
from conftest import check_against_reference

import jaxle_core as jc
import jaxle_xla
from jaxle_core import lax

sys.path.insert(0, str(pathlib.Path(__file__).parents[2] / "core" / "tests" / "golden"))
GEN, GOLDEN = importlib.import_module("make_reductions_golden").load_suite("barriers")
X = np.array([0.5, -1.0, 2.0], np.float32)


@pytest.mark.parametrize("fun", [
    lambda x: lax.optimization_barrier((x * 2, x, 3)),
    lambda x: [lax.dce_sink(x), lax.dce_sink(x * 2, prevent_mlir_dce=True), lax.sin(x)][2],
    lambda x: lax.stage(x) + lax.stage(1.0),
    lambda x: jaxle_xla.device_put((x, 2.0)),
], ids=["barrier", "dce_sink", "stage", "device_put"])
def test_against_reference(fun):
    check_against_reference(fun, X)


def test_stablehlo_text():
    text = jc.jit(lambda x: [lax.dce_sink(x, prevent_mlir_dce=True), lax.optimization_barrier((x, x * 2))][1]
                  ).lower(X).as_text()
    # as JAX 0.10.2 writes them
    assert ("stablehlo.custom_call @dce_sink(%arg0) {backend_config = \"\", has_side_effect = true, "
            "mhlo.backend_config = {}, operand_layouts = [dense<0> : tensor<1xindex>], result_layouts = []} : "
            "(tensor<3xf32>) -> ()") in text
    assert "stablehlo.optimization_barrier %arg0, %1 : tensor<3xf32>, tensor<3xf32>" in text
    assert "dce_sink" not in jc.jit(lambda x: [lax.dce_sink(x), x][1]).lower(X).as_text()


def test_device_put_is_staged_inside_jit():
    device = jaxle_xla.devices()[0]
    closed = jc.make_jaxpr(lambda x: jaxle_xla.device_put(x, device, may_alias=False))(X)
    (eqn,) = closed.eqns
    assert eqn.primitive is lax.device_put_p
    assert eqn.params == {"devices": (device,), "srcs": (None,),
                          "copy_semantics": (lax.ArrayCopySemantics.ALWAYS_COPY,)}
    np.testing.assert_array_equal(np.asarray(jc.jit(lambda x: jaxle_xla.device_put(x) * 2)(X)), X * 2)
    grad = jc.grad(lambda x: lax.sin(jaxle_xla.device_put(x)))(np.float32(0.5))
    np.testing.assert_allclose(float(grad), np.cos(0.5), rtol=1e-6)


SHARDING_JAXPRS = {name: (fn, args) for name, fn, args in GEN.sharding_transforms(
    jc, lax, jaxle_xla.device_put(X).sharding)}


@pytest.mark.parametrize("name", sorted(SHARDING_JAXPRS))
def test_sharding_constraint_jaxprs_match_jax(name):
    fn, args = SHARDING_JAXPRS[name]
    assert str(jc.make_jaxpr(fn)(*args)) == GOLDEN["sharding_jaxprs"][name]


def test_sharding_constraint_is_the_identity_on_one_device():
    sharding = jaxle_xla.device_put(X).sharding
    check_against_reference(lambda x: lax.with_sharding_constraint((x, x * 2), sharding), X)
    grad = jc.jit(jc.grad(lambda x: lax.sin(lax.with_sharding_constraint(x, sharding))))(np.float32(0.5))
    np.testing.assert_allclose(float(grad), np.cos(0.5), rtol=1e-6)
