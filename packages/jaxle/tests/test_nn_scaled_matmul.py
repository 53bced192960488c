"""``jax.nn.scaled_matmul`` and ``get_scaled_dot_general_config`` against JAX 0.10.2 (golden/scaled_matmul_golden.json):
jaxprs, shape errors, the CPU compilation error, and the configurations."""

import json
import pathlib
import sys

import pytest

import jaxle as jax

sys.path.insert(0, str(pathlib.Path(__file__).parent / "golden"))

import make_scaled_matmul_golden as gen  # noqa: E402 - found through the path set just above

GOLDEN = json.loads((pathlib.Path(__file__).parent / "golden" / "scaled_matmul_golden.json").read_text())


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_matches_jax(name):
    if name.startswith("matmul_"):
        actual = gen.matmul_record(jax, *gen.MATMUL_CASES[name.removeprefix("matmul_")])
    else:
        mode, scale = name.removeprefix("config_").split("_")
        global_scale = None if scale == "None" else jax.numpy.array(json.loads(scale), "float32")
        actual = gen.config_record(jax, mode, global_scale)
    assert actual == GOLDEN[name]
