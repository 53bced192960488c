"""Sharding in types on the reference backend: abstract arguments laid out over an abstract mesh of Explicit axes
(``ShapeDtypeStruct(..., sharding=...)``) trace to the types JAX 0.10.2 prints (checked by hand against it; the
eight-device golden comparison is multidevice-tests/test_sharding_types_against_jax.py)."""

import numpy as np
import pytest

from jaxle_core import jit, lax
from jaxle_core.api import make_jaxpr
from jaxle_core.avals import ShapeDtypeStruct
from jaxle_core.mesh import AbstractMesh, AxisType, use_abstract_mesh
from jaxle_core.mesh import PartitionSpec as P
from jaxle_core.sharding import NamedSharding
from jaxle_core.sharding_types import ShardingTypeError

MESH = AbstractMesh((2, 4), ("x", "y"), axis_types=(AxisType.Explicit,) * 2)


def typed(shape, *spec):
    return ShapeDtypeStruct(shape, np.float32, sharding=NamedSharding(MESH, P(*spec)))


def types(f, *args) -> list[str]:
    jaxpr = make_jaxpr(f)(*args).jaxpr
    return [str(v.aval) for v in jaxpr.invars] + [str(v.aval) for eqn in jaxpr.eqns for v in eqn.outvars]


def test_elementwise_operands_combine():
    assert types(lambda a, b: lax.add(a, b), typed((8, 4), "x"), typed((8, 4), None, "y")) == [
        "float32[8@x,4]", "float32[8,4@y]", "float32[8@x,4@y]"]


def test_elementwise_conflict_is_a_sharding_type_error():
    with pytest.raises(ShardingTypeError, match=r"add got incompatible shardings for broadcasting: \('x', None\), "
                                                r"\(\('x', 'y'\), None\)\."):
        make_jaxpr(lambda a, b: lax.add(a, b))(typed((8, 4), "x"), typed((8, 4), ("x", "y")))


def test_reductions_transposes_and_reshapes():
    assert types(lambda a: lax.reduce_sum(a, (1,)), typed((8, 4), "x", "y")) == ["float32[8@x,4@y]", "float32[8@x]"]
    assert types(lambda a: lax.transpose(a, (1, 0)), typed((8, 4), "x", "y"))[-1] == "float32[4@y,8@x]"
    assert types(lambda a: lax.reshape(a, (2, 4, 4)), typed((8, 4), "x"))[-1] == "float32[2@x,4,4]"
    with pytest.raises(ShardingTypeError, match="This reshape is not supported"):
        make_jaxpr(lambda a: lax.reshape(a, (32,)))(typed((8, 4), None, "y"))


def test_contraction_needs_out_sharding_when_both_sides_split_it():
    lhs, rhs = typed((8, 4), "x", "y"), typed((4, 8), "y", "x")
    numbers = (((1,), (0,)), ((), ()))
    with pytest.raises(ShardingTypeError, match=r"Got lhs_contracting_spec=\('y',\) and rhs_contracting_spec="):
        make_jaxpr(lambda a, b: lax.dot_general(a, b, numbers))(lhs, rhs)
    with use_abstract_mesh(MESH):
        out = types(lambda a, b: lax.dot_general(a, b, numbers, out_sharding=P(None, "y")), lhs, rhs)[-1]
    assert out == "float32[8,8@y]"


def test_values_are_unchanged():
    x = np.arange(32.0, dtype=np.float32).reshape(8, 4)
    np.testing.assert_allclose(np.asarray(jit(lambda a: lax.reduce_sum(lax.mul(a, a), (1,)))(x)), (x * x).sum(1))


def test_without_an_explicit_mesh_types_carry_no_layout():
    assert types(lambda a: lax.sin(a), ShapeDtypeStruct((8, 4), np.float32)) == ["float32[8,4]", "float32[8,4]"]
