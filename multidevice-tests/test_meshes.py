"""Meshes over the eight CPU devices: their shapes, device grids and printed forms (as JAX 0.10.2 prints them)."""

import numpy as np
import pytest

import jaxle
from jaxle_core.mesh import AbstractMesh, AxisType, Mesh, get_abstract_mesh, get_mesh, set_mesh


def test_eight_cpu_devices():
    assert jaxle.device_count() == 8
    assert [d.id for d in jaxle.devices()] == list(range(8))


def test_mesh_over_devices():
    mesh = Mesh(np.array(jaxle.devices()).reshape(2, 4), ("x", "y"))
    assert mesh.shape == {"x": 2, "y": 4}
    assert mesh.size == 8 and mesh.devices.shape == (2, 4)
    np.testing.assert_array_equal(mesh.device_ids, np.arange(8).reshape(2, 4))
    assert mesh.local_devices == jaxle.devices()
    assert repr(mesh) == "Mesh(axis_sizes=(2, 4), axis_names=('x', 'y'), axis_types=(Auto, Auto))"
    assert repr(mesh.abstract_mesh) == ("AbstractMesh('x': 2, 'y': 4, axis_types=(Auto, Auto), device_kind=cpu, "
                                        "num_cores=None, platform=cpu)")
    assert mesh.abstract_mesh != AbstractMesh((2, 4), ("x", "y"))


def test_set_mesh_scopes_the_current_mesh():
    mesh = Mesh(jaxle.devices()[:4], "i", axis_types=(AxisType.Explicit,))
    with set_mesh(mesh):
        assert get_mesh() is mesh
        assert str(get_abstract_mesh()) == ("AbstractMesh('i': 4, axis_types=(Explicit,), device_kind=cpu, "
                                            "num_cores=None, platform=cpu)")
    assert get_abstract_mesh().empty


def test_mesh_rank_must_match_names():
    with pytest.raises(ValueError, match="devices.ndim == 1 and len"):
        Mesh(jaxle.devices(), ("x", "y"))
