"""jax.extend.sharding and jax.interpreters.xla against JAX 0.10.2 (golden/extend_sharding_golden.json from
golden/make_extend_sharding_golden.py): GSPMDSharding over HLO and Op shardings, the proto helpers, apply_primitive
and Backend."""

import json
import pathlib
import sys

import pytest

import jaxle
from jaxle.extend import sharding as xs

sys.path.insert(0, str(pathlib.Path(__file__).parent / "golden"))

import make_extend_sharding_golden as golden  # noqa: E402 - found through the path set just above

GOLDEN = json.loads((pathlib.Path(__file__).parent / "golden" / "extend_sharding_golden.json").read_text())


@pytest.fixture(scope="module")
def values():
    return golden.cases(jaxle)


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_extend_sharding_golden(values, name):
    assert values[name] == GOLDEN[name]


def test_tiled_gspmd_sharding_indices_follow_the_tile_assignment():
    # tiles 2 x 1 over two device positions, the second tile first: a layout one device cannot hold, read from the
    # HLO sharding alone (analytic: rows 0-1 and 2-3 of a 4 x 3 array)
    devices = [object(), object()]
    sharding = xs.GSPMDSharding(devices, xs.xla_client.HloSharding.from_string("{devices=[2,1]1,0}"))
    assert not sharding.is_fully_replicated
    assert sharding.devices_indices_map((4, 3)) == {devices[1]: (slice(0, 2), slice(None)),
                                                    devices[0]: (slice(2, 4), slice(None))}
    assert sharding.shard_shape((4, 3)) == (2, 3)
