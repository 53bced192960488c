"""Write extend_sharding_golden.json: what ``jax.extend.sharding`` (GSPMDSharding over HLO shardings, the proto
helpers) and ``jax.interpreters.xla`` (``apply_primitive``, ``Backend``) give on one device, replayed by
test_extend_sharding.py.

    /work/jaxpeer/bin/python packages/jaxle/tests/golden/make_extend_sharding_golden.py jax
"""

import importlib
import json
import pathlib
import sys

import numpy as np


def _indices(index_map: dict) -> list:
    return [[[s.start, s.stop, s.step] for s in index] for index in index_map.values()]


def _canonicalized(xla, value) -> list:
    out = np.asarray(xla.canonicalize_dtype_handlers[type(value)](value))
    return [str(out.dtype), repr(out.tolist())]


def cases(m) -> dict:
    """Every recorded value with module ``m`` as ``jax``."""
    xs = importlib.import_module(m.__name__ + ".extend.sharding")
    xla = importlib.import_module(m.__name__ + ".interpreters.xla")
    backend = importlib.import_module(m.__name__ + ".extend.backend")
    xc = xs.xla_client
    devices = m.devices()[:1]
    replicated = xs.GSPMDSharding(devices, xc.HloSharding.replicate())
    tiled = xs.GSPMDSharding(devices, xc.HloSharding.iota_tile([1, 1]).to_proto())
    serialized = xs.get_serialized_proto_from_hlo_sharding(xc.HloSharding.iota_tile([2, 1]))
    return {
        "xla_client": xc.__name__,
        "replicated": [repr(replicated), replicated.is_fully_replicated, replicated.memory_kind,
                       replicated.num_devices, _indices(replicated.devices_indices_map((2, 3)))],
        "get_replicated_equal": [xs.GSPMDSharding.get_replicated(devices) == replicated,
                                 hash(xs.GSPMDSharding.get_replicated(devices)) == hash(replicated)],
        "pinned_host": repr(xs.GSPMDSharding.get_replicated(devices, memory_kind="pinned_host")),
        "from_op_sharding": [repr(tiled), tiled.is_fully_replicated, _indices(tiled.devices_indices_map((2, 3)))],
        "hlo_sharding": str(tiled._to_xla_hlo_sharding(2)),
        "serialized": list(serialized),
        "hlo_from_proto": str(xs.get_hlo_sharding_from_serialized_proto(serialized)),
        "op_from_proto": type(xs.get_op_sharding_from_serialized_proto(serialized)).__name__,
        "apply_add": float(xla.apply_primitive(m.lax.add_p, 1.0, 2.0)),
        "apply_reduce_sum": float(xla.apply_primitive(m.lax.reduce_sum_p, np.arange(4.0, dtype=np.float32),
                                                      axes=(0,), out_sharding=None)),
        "apply_jaxpr": str(m.make_jaxpr(lambda x: xla.apply_primitive(m.lax.sin_p, x, accuracy=None))(1.0)),
        "backend_type": isinstance(backend.get_backend(), xla.Backend),
        "canonicalized": [_canonicalized(xla, value) for value in (3, 1.5, 1j, True, np.arange(3.0), np.float64(2),
                                                                   np.int64(2), np.uint64(3), np.float16(1))],
    }


if __name__ == "__main__":
    module = importlib.import_module(sys.argv[1])
    path = pathlib.Path(__file__).parent / "extend_sharding_golden.json"
    path.write_text(json.dumps(cases(module), indent=1) + "\n")
