"""The jaxpr text of while_loop / fori_loop and their jvp, grad, vmap and jit compositions equals JAX 0.10.2's."""

import json
import pathlib
import sys

import pytest

GOLDEN_DIR = pathlib.Path(__file__).parent.parent / "golden"
sys.path.insert(0, str(GOLDEN_DIR))
from make_while_golden import render  # noqa: E402

with open(GOLDEN_DIR / "while_golden.json") as f:
    GOLDEN = json.load(f)
OURS = render("jaxle_core")


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_jaxpr_text_matches_jax(name):
    assert OURS[name] == GOLDEN[name]
