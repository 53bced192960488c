"""The sharding rules of indexing, scatter, dynamic slices, padding, sorting, joining, selection, convolution,
matrix and Fourier primitives on the reference backend: abstract arguments over an abstract mesh of Explicit axes
trace to the types and errors JAX 0.10.2 gives (checked against it by hand; the eight-device golden comparison is
multidevice-tests/test_sharding_rules_against_jax.py)."""

import numpy as np
import pytest

from jaxle_core import grad, lax
from jaxle_core.api import make_jaxpr
from jaxle_core.avals import ShapeDtypeStruct
from jaxle_core.mesh import AbstractMesh, AxisType, use_abstract_mesh
from jaxle_core.mesh import PartitionSpec as P
from jaxle_core.sharding import NamedSharding
from jaxle_core.sharding_types import ShardingTypeError

MESH = AbstractMesh((2, 4), ("x", "y"), axis_types=(AxisType.Explicit,) * 2)
ROWS = np.array([[1], [2]], np.int32)
GATHER_ROWS = lax.GatherDimensionNumbers(offset_dims=(1,), collapsed_slice_dims=(0,), start_index_map=(0,))
SCATTER_ROWS = lax.ScatterDimensionNumbers(update_window_dims=(1,), inserted_window_dims=(0,),
                                           scatter_dims_to_operand_dims=(0,))


def typed(shape, *spec):
    return ShapeDtypeStruct(shape, np.float32, sharding=NamedSharding(MESH, P(*spec)))


def result_types(f, *args) -> list[str]:
    return [str(v.aval) for v in make_jaxpr(f)(*args).jaxpr.outvars]


def test_gather_keeps_whole_windows_and_refuses_split_indexed_dimensions():
    def rows(a):
        return lax.gather(a, ROWS, GATHER_ROWS, (1, 4))

    assert result_types(rows, typed((8, 4), None, "y")) == ["float32[2,4@y]"]
    with pytest.raises(ShardingTypeError, match=r"Use `.at\[...\].get\(out_sharding=\)` .* Got "
                                                r"operand=ShapedArray\(float32\[8@x,4\]\), indices=ShapedArray"):
        make_jaxpr(rows)(typed((8, 4), "x"))


def test_scatter_needs_updates_laid_out_as_their_windows():
    def add_rows(a, u):
        return lax.scatter_add(a, ROWS, u, SCATTER_ROWS)

    assert result_types(add_rows, typed((8, 4), None, "y"), typed((2, 4), None, "y")) == ["float32[8,4@y]"]
    with pytest.raises(ShardingTypeError, match=r"updates=ShapedArray\(float32\[2,4\]\)"):
        make_jaxpr(add_rows)(typed((8, 4), None, "y"), typed((2, 4)))


def test_dynamic_slices_and_padding():
    assert result_types(lambda a: lax.dynamic_slice(a, (1, 0), (4, 4)), typed((8, 4), "x", "y")) == [
        "float32[4@x,4@y]"]
    with pytest.raises(ShardingTypeError, match=r"dynamic_slice on sharded dims where out dim \(2\) is not divisible "
                                                r"by mesh axes \(4\) with spec \(y\)"):
        make_jaxpr(lambda a: lax.dynamic_slice(a, (0, 1), (8, 2)))(typed((8, 4), None, "y"))
    with pytest.raises(ShardingTypeError, match=r"operand sharding float32\[8@x,4\]\(\{Explicit: \('x', 'y'\)\}\) "
                                                r"and update sharding float32\[2,4\]"):
        make_jaxpr(lambda a, u: lax.dynamic_update_slice(a, u, (0, 0)))(typed((8, 4), "x"), typed((2, 4)))
    assert result_types(lambda a: lax.pad(a, np.float32(0), ((1, 1, 0), (0, 0, 0))), typed((8, 4), "x")) == [
        "float32[10@x,4]"]
    with pytest.raises(ShardingTypeError, match=r"padding on sharded dims where out dim \(9\)"):
        make_jaxpr(lambda a: lax.pad(a, np.float32(0), ((1, 0, 0), (0, 0, 0))))(typed((8, 4), "x"))
    assert result_types(lambda a: lax.split(a, (2, 6), axis=0), typed((8, 4), "x")) == [
        "float32[2@x,4]", "float32[6@x,4]"]


def test_ordering_joining_and_selection():
    assert result_types(lambda a: lax.sort(a, dimension=1), typed((8, 4), "x")) == ["float32[8@x,4]"]
    with pytest.raises(ShardingTypeError, match="Arguments to sort must be unsharded over the sorting dimension"):
        make_jaxpr(lambda a: lax.sort(a, dimension=0))(typed((8, 4), "x"))
    with pytest.raises(ShardingTypeError, match=r"top_k values. Got input type=float32\[8,4@y\] and axis=1"):
        make_jaxpr(lambda a: lax.top_k(a, 2))(typed((8, 4), None, "y"))
    with pytest.raises(ShardingTypeError, match="All operands should have the same sharding"):
        make_jaxpr(lambda a, b: lax.concatenate([a, b], 1))(typed((8, 4), "x"), typed((8, 4)))
    with pytest.raises(ShardingTypeError, match=r"select cases must have the same shardings, got \[NamedSharding"):
        make_jaxpr(lambda a, b: lax.select_n(lax.gt(a, b), a, b))(typed((8, 4), "x"), typed((8, 4), None, "y"))
    assert result_types(lambda lo, a: lax.clamp(lo, a, np.float32(1)), typed((8, 4), "x"),
                        typed((8, 4), None, "y")) == ["float32[8,4@y]"]


def test_convolution_keeps_batch_and_spatial_layouts():
    def conv(lhs, rhs, **kwargs):
        return lax.conv_general_dilated(lhs, rhs, (1, 1), "SAME", **kwargs)

    kernel = typed((4, 3, 3, 3))
    assert result_types(conv, typed((2, 3, 8, 8), "x", None, "y"), kernel) == ["float32[2@x,4,8@y,8]"]
    with pytest.raises(ShardingTypeError, match="Please specify the output sharding via `out_sharding`"):
        make_jaxpr(conv)(typed((2, 3, 8, 8), "x"), typed((4, 3, 3, 3), "y"))
    with use_abstract_mesh(MESH):
        given = result_types(lambda a, w: conv(a, w, out_sharding=P("x")), typed((2, 3, 8, 8), None, "y"), kernel)
    assert given == ["float32[2@x,4,8,8]"]


def test_matrix_and_fourier_primitives():
    batch = typed((2, 4, 4), "x")
    assert result_types(lambda a: lax.linalg.lu(a), batch) == ["float32[2@x,4,4]", "int32[2@x,4]", "int32[2@x,4]"]
    with pytest.raises(ShardingTypeError, match=r"Input 0 to svd must be unsharded on non-batch dimensions, but got "
                                                r"P\(None, 'y', None\)\."):
        make_jaxpr(lambda a: lax.linalg.svd(a, compute_uv=False))(typed((2, 4, 4), None, "y"))
    solve = lax.linalg.triangular_solve
    assert result_types(lambda a, b: solve(a, b, left_side=True, lower=True), typed((2, 4, 4), None, "y"),
                        typed((2, 4, 4))) == ["float32[2,4@y,4]"]
    with pytest.raises(ShardingTypeError, match=r"triangular solve input `b` must be unsharded on the contracting "
                                                r"axis, but got P\(None, None, 'y'\) with left_side=False"):
        make_jaxpr(lambda a, b: solve(a, b, left_side=False, lower=True))(typed((2, 4, 4)), typed((2, 4, 4), None,
                                                                                                  None, "y"))
    assert result_types(lambda a: lax.fft(a, "RFFT", (8,)), typed((2, 8), "x")) == ["complex64[2@x,5]"]
    with pytest.raises(ValueError, match=r"Sharding spec \('y',\) implies that array axis 1 is partitioned 4 times, "
                                         r"but does not evenly divide the dimension size 5"):
        make_jaxpr(lambda a: lax.fft(a, "RFFT", (8,)))(typed((2, 8), None, "y"))


def test_pooling_batched_solves_and_reshaping_primitives():
    def pool(a):
        return lax.reduce_window(a, np.float32(0), lax.add, (1, 2, 2), (1, 2, 2), "VALID")

    assert result_types(pool, typed((2, 8, 8), "x", "y")) == ["float32[2@x,4@y,4]"]
    with pytest.raises(ShardingTypeError, match=r"All inputs to householder_product must have the same batch "
                                                r"sharding, but got \[\('x',\), \(None,\)\]\."):
        make_jaxpr(lax.linalg.householder_product)(typed((2, 4, 4), "x"), typed((2, 4)))
    assert result_types(lambda a: lax.bitcast_convert_type(a, np.int16), typed((8, 4), "x")) == ["int16[8@x,4,2]"]
    with pytest.raises(ShardingTypeError, match="when the tiling is non-trivial"):
        make_jaxpr(lambda a: lax.tile(a, (2, 1)))(typed((8, 4), "x"))


def test_transposes_write_into_zeros_laid_out_as_the_operand():
    window = grad(lambda a: lax.reduce_sum(lax.dynamic_slice(a, (1, 0), (4, 4)), (0, 1)))
    rows = grad(lambda a: lax.reduce_sum(lax.gather(a, ROWS, GATHER_ROWS, (1, 4)), (0, 1)))
    with use_abstract_mesh(MESH):
        assert result_types(window, typed((8, 4), "x", "y")) == ["float32[8@x,4@y]"]
        assert result_types(rows, typed((8, 4), None, "y")) == ["float32[8,4@y]"]


def test_without_an_explicit_mesh_types_carry_no_layout():
    untyped = ShapeDtypeStruct((8, 4), np.float32)
    assert result_types(lambda a: lax.gather(a, ROWS, GATHER_ROWS, (1, 4)), untyped) == ["float32[2,4]"]
    assert result_types(lambda a: lax.sort(a, dimension=0), untyped) == ["float32[8,4]"]
