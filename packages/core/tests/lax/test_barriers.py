"""optimization_barrier, dce_sink, stage and device_put: values, jaxprs and their jvp/grad/vmap jaxprs against
JAX 0.10.2 goldens."""

import importlib

import numpy as np
import pytest

import jaxle_core
from jaxle_core import lax
from jaxle_core.mesh import PartitionSpec
from jaxle_core.sharding import Sharding

SHARED = importlib.import_module("make_reductions_golden")
GEN, GOLDEN = SHARED.load_suite("barriers")
JAXPRS = dict((name, (fn, args)) for name, fn, args in GEN.transforms(jaxle_core, lax))


@pytest.mark.parametrize("name", sorted(GEN.CASES))
def test_matches_jax(name):
    SHARED.assert_matches(SHARED.run_case(jaxle_core, GEN.CASES[name]), GOLDEN["cases"][name])


@pytest.mark.parametrize("name", sorted(JAXPRS))
def test_transformed_jaxprs_match_jax(name):
    fn, args = JAXPRS[name]
    assert str(jaxle_core.make_jaxpr(fn)(*args)) == GOLDEN["jaxprs"][name]


def test_barrier_gradient_is_the_identity():
    x = np.array([0.5, -1.0, 2.0], np.float32)
    grad = jaxle_core.grad(lambda y: lax.reduce_sum(lax.sin(lax.optimization_barrier(y)), (0,)))(x)
    np.testing.assert_allclose(np.asarray(grad), np.cos(x), rtol=1e-6)


def test_dce_sink_survives_dead_code_elimination():
    from jaxle_core.jaxpr_util import dce_jaxpr

    closed = jaxle_core.make_jaxpr(lambda x: [lax.dce_sink(lax.sin(x)), x][1])(np.float32(1))
    kept, _ = dce_jaxpr(closed.jaxpr)
    assert [e.primitive.name for e in kept.eqns] == ["sin", "dce_sink"]


class OneDeviceSharding(Sharding):
    """A stand-in for a sharding over one device (jaxle_core has no devices of its own)."""

    device_set = frozenset({"the device"})

    def devices_indices_map(self, global_shape):
        return {"the device": (slice(None),) * len(global_shape)}


def test_sharding_constraint_errors():
    x = np.ones(3, np.float32)
    with pytest.raises(ValueError, match="got sharding None which is not allowed"):
        lax.with_sharding_constraint(x, None)
    with pytest.raises(TypeError, match="expected to be PartitionSpec instances or None, but got abc"):
        lax.with_sharding_constraint(x, "abc")
    with pytest.raises(ValueError, match="must be a tree prefix of the corresponding value"):
        lax.with_sharding_constraint(x, (OneDeviceSharding(), OneDeviceSharding()))
    with pytest.raises(RuntimeError, match="requires a non-empty mesh in context if you are passing `PartitionSpec`"):
        lax.with_sharding_constraint(x, PartitionSpec("x"))


def test_sharding_constraint_keeps_batch_dimensions_unconstrained():
    x = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    fun = jaxle_core.vmap(jaxle_core.vmap(lambda y: lax.with_sharding_constraint(y, OneDeviceSharding())), in_axes=1)
    (eqn, _) = jaxle_core.make_jaxpr(fun)(x).eqns
    assert eqn.params["unconstrained_dims"] == frozenset({0, 1})
    np.testing.assert_array_equal(np.asarray(fun(x)), x.transpose(1, 0, 2))
