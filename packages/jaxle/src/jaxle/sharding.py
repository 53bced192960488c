"""``jax.sharding``: meshes of devices, partition specs, and the shardings that lay arrays out over them."""

from jaxle_core.avals import ManualAxisType
from jaxle_core.axis_type_scopes import auto_axes, explicit_axes
from jaxle_core.mesh import (
    AbstractDevice,
    AbstractMesh,
    AxisType,
    Mesh,
    PartitionSpec,
    get_abstract_mesh,
    get_mesh,
    set_mesh,
    use_abstract_mesh,
)
from jaxle_core.sharding import NamedSharding, Sharding
from jaxle_xla.sharding import SingleDeviceSharding, make_single_device_sharding, reshard

__all__ = ["AbstractDevice", "AbstractMesh", "AxisType", "ManualAxisType", "Mesh", "NamedSharding", "PartitionSpec",
           "Sharding", "SingleDeviceSharding", "auto_axes", "explicit_axes", "get_abstract_mesh", "get_mesh",
           "make_single_device_sharding", "reshard", "set_mesh", "use_abstract_mesh"]
