"""``jax.interpreters.pxla.create_compile_options`` builds the compile options JAX 0.10.2's does
(golden/make_compile_options_golden.py), and a module lowered by ``jit`` compiles with them through the backend
and runs partitioned."""

import importlib
import json

import numpy as np
import pytest

import jaxle
import jaxle.extend.backend
from jaxle.extend.sharding import xla_client
from jaxle.interpreters import pxla
from jaxle.sharding import NamedSharding, PartitionSpec

GEN = importlib.import_module("make_compile_options_golden")
GOLDEN = json.loads((GEN.HERE / "compile_options_golden.json").read_text())


@pytest.fixture(scope="module")
def mine() -> dict:
    return GEN.record(jaxle)


@pytest.mark.parametrize("case", sorted(GOLDEN))
def test_matches_jax(mine, case):
    assert mine[case] == GOLDEN[case]


def test_a_lowered_module_compiles_and_runs_partitioned_with_them():
    devices = jaxle.devices()[:2]
    halves = NamedSharding(jaxle.make_mesh((2,), ("x",), devices=devices), PartitionSpec("x"))
    x = np.arange(8, dtype=np.float32)
    module = jaxle.jit(lambda a: a * 2 + 1, in_shardings=halves, out_shardings=halves).lower(x).compiler_ir()
    backend = jaxle.extend.backend.get_backend()
    options = pxla.create_compile_options(module, False, [False], [False], backend, np.array([devices]), {})
    loaded = backend.compile_and_load(str(module), xla_client.DeviceList(tuple(devices)), options)
    results = loaded.execute_sharded([jaxle.device_put(x, halves)])
    parts = results.disassemble_into_single_device_arrays()[0]
    assert [part.sharding.device_set for part in parts] == [{d} for d in devices]
    np.testing.assert_array_equal(np.concatenate([np.asarray(part) for part in parts]), x * 2 + 1)
