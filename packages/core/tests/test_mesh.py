"""Meshes, abstract meshes and partition specs without a backend: devices are plain objects with an id.

The expected texts are JAX 0.10.2's reprs."""

import pickle
import warnings

import numpy as np
import pytest

from jaxle_core.mesh import (
    AbstractMesh,
    AxisType,
    Mesh,
    PartitionSpec,
    get_abstract_mesh,
    get_mesh,
    resource_mesh,
    set_mesh,
    use_abstract_mesh,
)

P = PartitionSpec


class FakeDevice:
    device_kind = platform = "cpu"

    def __init__(self, id):
        self.id = id


DEVICES = [FakeDevice(i) for i in range(8)]


def test_mesh_shape_and_reprs():
    mesh = Mesh(np.array(DEVICES).reshape(2, 4), ("x", "y"), axis_types=(AxisType.Explicit, AxisType.Auto))
    assert list(mesh.shape.items()) == [("x", 2), ("y", 4)]
    assert mesh.shape_tuple == (("x", 2), ("y", 4)) and mesh.size == 8 and mesh.axis_sizes == (2, 4)
    assert mesh.explicit_axes == ("x",) and mesh.auto_axes == ("y",) and not mesh.are_all_axes_auto
    np.testing.assert_array_equal(mesh.device_ids, np.arange(8).reshape(2, 4))
    assert repr(mesh) == "Mesh(axis_sizes=(2, 4), axis_names=('x', 'y'), axis_types=(Explicit, Auto))"
    assert str(mesh) == "Mesh('x': 2, 'y': 4, axis_types=(Explicit, Auto))"
    assert repr(mesh.abstract_mesh) == ("AbstractMesh('x': 2, 'y': 4, axis_types=(Explicit, Auto), device_kind=cpu, "
                                        "num_cores=None, platform=cpu)")
    assert str(Mesh(DEVICES[:4], "i")) == "Mesh('i': 4, axis_types=(Auto,))"
    updated = mesh.update(axis_types=(AxisType.Auto, AxisType.Auto))
    assert str(updated) == "Mesh('x': 2, 'y': 4, axis_types=(Auto, Auto))"


def test_mesh_equality_follows_devices_names_and_types():
    assert Mesh(DEVICES[:4], "i") == Mesh(np.array(DEVICES[:4]), ("i",))
    assert hash(Mesh(DEVICES[:4], "i")) == hash(Mesh(DEVICES[:4], "i"))
    assert Mesh(DEVICES[:4], "i") != Mesh(DEVICES[4:], "i")
    assert Mesh(DEVICES[:4], "i") != Mesh(DEVICES[:4], "j")
    assert Mesh(DEVICES[:4], "i") != Mesh(DEVICES[:4], "i", axis_types=(AxisType.Explicit,))


def test_mesh_errors():
    with pytest.raises(ValueError, match=r"devices.ndim == 1 and len\(axis_names\) == 2"):
        Mesh(DEVICES, ("x", "y"))
    with pytest.raises(ValueError, match="Number of axis names should match the number of axis_types"):
        Mesh(DEVICES, ("x",), axis_types=(AxisType.Auto, AxisType.Auto))


def test_abstract_mesh():
    mesh = AbstractMesh((2, 4), ("x", "y"))
    assert repr(mesh) == "AbstractMesh('x': 2, 'y': 4, axis_types=(Auto, Auto))"
    assert mesh == AbstractMesh((2, 4), ("x", "y"), AxisType.Auto) and mesh.size == 8
    assert repr(AbstractMesh((), ())) == "AbstractMesh((), axis_types=())"
    assert mesh.update_axis_types({"y": AxisType.Manual}).axis_types == (AxisType.Auto, AxisType.Manual)


def test_axis_type_prints_its_name():
    assert list(AxisType) == [AxisType.Auto, AxisType.Explicit, AxisType.Manual]
    assert repr(AxisType.Auto) == "Auto" and str(AxisType.Manual) == "AxisType.Manual"


@pytest.mark.parametrize("spec,text", [
    (P(), "P()"), (P("x"), "P('x',)"), (P("x", None), "P('x', None)"), (P(("x", "y")), "P(('x', 'y'),)"),
    (P(["x", "y"]), "P(('x', 'y'),)"), (P(P.UNCONSTRAINED), "P(UNCONSTRAINED,)"),
    (P("x", reduced={"y"}), "P('x', reduced={'y'})"), (P(unreduced={"y"}), "P(unreduced={'y'})"),
])
def test_partition_spec_repr(spec, text):
    assert repr(spec) == str(spec) == text


def test_partition_spec_behaves_as_a_sequence_but_is_not_a_tuple():
    spec = P("x", None)
    assert len(spec) == 2 and spec[0] == "x" and list(spec) == ["x", None] and spec[0:1] == ("x",)
    assert spec.count(None) == 1 and spec.index("x") == 0
    assert spec == P("x", None) and hash(spec) == hash(P("x", None))
    assert spec != ("x", None) and P("x") != P("x", None) and P() != P(None)
    assert P("x") + ("y",) == P("x", "y") and P("x") + P("y") == P("x", "y")
    assert spec.update(partitions=("y",)) == P("y")
    assert pickle.loads(pickle.dumps(P("x", unreduced={"y"}))) == P("x", unreduced={"y"})
    assert pickle.loads(pickle.dumps(P.UNCONSTRAINED)) is P.UNCONSTRAINED


def test_partition_spec_axes_cannot_repeat_in_unreduced():
    with pytest.raises(ValueError, match="partitions cannot overlap with unreduced axes"):
        P("x", unreduced={"x"})


def test_mesh_contexts():
    mesh = Mesh(DEVICES[:4], "i")
    assert get_abstract_mesh().empty and get_mesh().empty and resource_mesh() is None
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with mesh:
            assert resource_mesh() is mesh and get_abstract_mesh().empty
    assert caught[0].category is DeprecationWarning
    with set_mesh(mesh):
        assert get_mesh() is mesh and get_abstract_mesh() == mesh.abstract_mesh
        with use_abstract_mesh(AbstractMesh((4,), ("j",))):
            assert get_abstract_mesh().axis_names == ("j",)
        with pytest.raises(ValueError, match="use_abstract_mesh cannot change the size of the mesh"):
            with use_abstract_mesh(AbstractMesh((2,), ("j",))):
                pass
    assert get_mesh().empty
    with pytest.raises(ValueError, match="Expected mesh of type `jax.sharding.Mesh`"):
        set_mesh(AbstractMesh((2,), ("j",)))


def test_avals_report_replication_over_the_empty_abstract_mesh():
    from jaxle_core.avals import ShapedArray

    assert repr(ShapedArray((), np.float32).sharding) == "NamedSharding(mesh=AbstractMesh((), axis_types=()), spec=P())"
    assert repr(ShapedArray((2, 3), np.int32).sharding) == (
        "NamedSharding(mesh=AbstractMesh((), axis_types=()), spec=P(None, None))")
