"""NamedSharding's index arithmetic without a backend (devices are plain objects with an id), against slices
computed by hand with NumPy, and JAX's errors for layouts that do not fit."""

import numpy as np
import pytest

from jaxle_core.mesh import Mesh, PartitionSpec
from jaxle_core.sharding import DuplicateSpecError, IndivisibleError, NamedSharding, flat_jit_shardings

P = PartitionSpec


class FakeDevice:
    device_kind = platform = "cpu"

    def __init__(self, id):
        self.id = id

    def __repr__(self):
        return f"D{self.id}"


MESH = Mesh(np.array([FakeDevice(i) for i in range(8)]).reshape(2, 4), ("x", "y"))
X = np.arange(4 * 8 * 2).reshape(4, 8, 2)


def _blocks(spec):
    """Each device's block of X (mesh order), cut by hand: position (i, j) on the mesh holds the i-th block of the
    dimensions split by 'x' and the j-th of those split by 'y'; joined axes count major first."""
    blocks = []
    for i in range(2):
        for j in range(4):
            index = []
            for dim, entry in enumerate(spec):
                axes = entry if isinstance(entry, tuple) else (entry,) if entry else ()
                block, count = 0, 1
                for axis in axes:
                    size, position = (2, i) if axis == "x" else (4, j)
                    block, count = block * size + position, count * size
                step = X.shape[dim] // count
                index.append(slice(block * step, (block + 1) * step))
            blocks.append(X[tuple(index)])
    return blocks


@pytest.mark.parametrize("spec", [("x", "y"), ("y", "x"), (None, ("x", "y")), (None, ("y", "x")), ("x",), (),
                                  (None, None, "x")])
def test_devices_indices_map_cuts_the_blocks(spec):
    sharding = NamedSharding(MESH, P(*spec))
    indices = sharding.devices_indices_map(X.shape)
    assert list(indices) == list(MESH.devices.flat)
    for device, expected in zip(MESH.devices.flat, _blocks(spec)):
        np.testing.assert_array_equal(X[indices[device]], expected)
        assert sharding.shard_shape(X.shape) == expected.shape


def test_replica_ids_count_copies_of_each_block():
    assert NamedSharding(MESH, P("x")).replica_ids(X.shape) == [0, 1, 2, 3, 0, 1, 2, 3]
    assert NamedSharding(MESH, P("y")).replica_ids(X.shape) == [0, 0, 0, 0, 1, 1, 1, 1]
    assert NamedSharding(MESH, P()).replica_ids(X.shape) == list(range(8))
    assert NamedSharding(MESH, P("x", "y")).replica_ids(X.shape) == [0] * 8


def test_equality_ignores_trailing_whole_dimensions():
    assert NamedSharding(MESH, P("x", None)) == NamedSharding(MESH, P("x"))
    assert hash(NamedSharding(MESH, P("x", None))) == hash(NamedSharding(MESH, P("x")))
    assert NamedSharding(MESH, P("x")) != NamedSharding(MESH, P(None, "x"))
    assert NamedSharding(MESH, P("x")).is_equivalent_to(NamedSharding(MESH, P("x", None, None)), 3)
    assert not NamedSharding(MESH, P("x")).is_fully_replicated and NamedSharding(MESH, P()).is_fully_replicated


def test_layouts_that_do_not_fit():
    with pytest.raises(IndivisibleError, match=r"array axis 0 is partitioned 4 times, but the dimension size is 6"):
        NamedSharding(MESH, P("y")).shard_shape((6,))
    with pytest.raises(ValueError, match="is only valid for values of rank at least 2, but was applied to a value "
                                         "of rank 1"):
        NamedSharding(MESH, P("x", "y")).check_compatible_aval((8,))
    with pytest.raises(ValueError, match=r"Resource axis: z of P\('z',\) is not found in mesh: \('x', 'y'\)\."):
        NamedSharding(MESH, P("z"))
    with pytest.raises(DuplicateSpecError, match="has duplicate entries for `x`"):
        NamedSharding(MESH, P("x", ("y", "x")))
    with pytest.raises(TypeError, match="spec of NamedSharding must be an instance of"):
        NamedSharding(MESH, ("x",))


def test_jit_shardings_spread_over_the_arguments():
    from jaxle_core.avals import ShapedArray

    aval = ShapedArray((4,), np.dtype(np.float32))
    row = NamedSharding(MESH, P("x"))
    ins, outs = flat_jit_shardings((row, None), row, ((1, 2), 3), 0, [aval] * 3, 5, [aval])
    assert ins == (row, row, None) and outs == (row,)
    assert flat_jit_shardings(None, row, (1,), 1, [aval] * 2, 5, [aval])[0] == (None, None)
    with pytest.raises(ValueError, match="pjit does not support kwargs when in_shardings is specified."):
        flat_jit_shardings(row, None, (1,), 1, [aval] * 2, 5, [aval])
    with pytest.raises(ValueError, match="got a tuple or list of length 1 for an args tuple of length 2"):
        flat_jit_shardings((row,), None, (1, 2), 0, [aval] * 2, 1, [aval])
    with pytest.raises(RuntimeError, match="jit requires a non-empty mesh in context"):
        flat_jit_shardings(P("x"), None, (1,), 0, [aval], 1, [aval])
