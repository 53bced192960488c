"""``jaxle.experimental``'s ``primal_tangent_dtype``, ``EArray`` and ``cur_qdd``, against what JAX 0.10.2 prints
and raises (the expected texts are JAX's output for the same calls)."""

import re

import numpy as np
import pytest

import jaxle
import jaxle.numpy as jnp
from jaxle.experimental import EArray, cur_qdd, primal_tangent_dtype


def test_primal_tangent_dtype_names_and_kind():
    dt = primal_tangent_dtype(np.dtype("int8"), np.dtype("float32"))
    assert str(dt) == repr(dt) == dt.name == "PrimalTangentDType{i8/f32}"
    assert (dt.primal_dtype, dt.tangent_dtype) == (np.int8, np.float32)
    assert jaxle.dtypes.issubdtype(dt, jaxle.dtypes.extended)
    assert dt.type.__name__ == "primal_tangent_dtype_scalar"
    assert dt == primal_tangent_dtype(np.int8, np.float32) and dt != primal_tangent_dtype(np.int8, np.float16)


def test_primal_tangent_dtype_jaxprs_and_tangents():
    q8 = primal_tangent_dtype(np.dtype("int8"), np.dtype("float32"), name="q8")
    assert str(jaxle.make_jaxpr(lambda x: x)(jaxle.ShapeDtypeStruct((3,), q8))) == "{ lambda ; a:q8[3]. let  in (a,) }"
    grad_jaxpr = jaxle.make_jaxpr(jaxle.grad(lambda x: 1.0, allow_int=True))(jaxle.ShapeDtypeStruct((), q8))
    assert str(grad_jaxpr) == "{ lambda ; a:q8[]. let  in (0.0:f32[],) }"


def test_earray_holds_its_physical_array():
    q8 = primal_tangent_dtype(np.dtype("int8"), np.dtype("float32"), name="q8")
    e = EArray(jaxle.core.ShapedArray((3,), q8), jnp.arange(3, dtype=jnp.int8))
    assert repr(e) == "EArray([0, 1, 2], dtype=int8)"
    assert (e.dtype, e.shape) == (q8, (3,))
    assert repr(q8.wrap(jnp.arange(2, dtype=jnp.int8))) == "EArray([0, 1], dtype=int8)"


@pytest.mark.parametrize(("make", "type_name"), [(lambda: jaxle.new_ref(jnp.ones(3)), "Ref"),
                                                (lambda: jnp.ones(3), "jaxlib._jax.ArrayImpl")], ids=["ref", "array"])
def test_cur_qdd_of_values_without_quasi_dynamic_data(make, type_name):
    with pytest.raises(AttributeError, match=f"^'{re.escape(type_name)}' object has no attribute 'cur_qdd'$"):  # JAX's
        cur_qdd(make())


def test_compute_on_runs_the_block_as_jax_does_on_cpu():
    from jaxle.experimental.compute_on import compute_on

    def doubled(v, compute_type="device_host"):
        with compute_on(compute_type):
            return v * 2

    x = np.arange(3.0, dtype=np.float32)
    for compute_type in ("device_host", "device", "tpu_sparsecore", "gpu_stream:1"):
        np.testing.assert_array_equal(np.asarray(jaxle.jit(doubled, static_argnums=1)(x, compute_type)), 2 * x)
    np.testing.assert_array_equal(np.asarray(doubled(x)), 2 * x)
    # JAX's jaxpr does not record the block
    assert str(jaxle.make_jaxpr(doubled)(x)) == "{ lambda ; a:f32[3]. let b:f32[3] = mul a 2.0:f32[] in (b,) }"
    with pytest.raises(ValueError, match=re.escape("Invalid compute type bogus. Current supported values are "
                                                   "`device_host`, `device`, `tpu_sparsecore`, and `gpu_stream:#`.")):
        doubled(x, "bogus")
