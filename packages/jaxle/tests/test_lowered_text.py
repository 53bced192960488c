"""``Lowered.as_text(dialect, debug_info=...)`` shows a jitted function's arguments as JAX 0.10.2's does
(golden/lowered_text_golden.json): located by name with ``debug_info``, HLO parameters named after them."""

import json
import pathlib
import re
import sys

import pytest

import jaxle as jax

sys.path.insert(0, str(pathlib.Path(__file__).parent / "golden"))

import make_lowered_text_golden  # noqa: E402 - found through the path set just above

GOLDEN = json.loads((pathlib.Path(__file__).parent / "golden" / "lowered_text_golden.json").read_text())
MINE = make_lowered_text_golden.record(jax)


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_matches_jax(name):
    assert MINE[name] == GOLDEN[name]


def test_debug_info_adds_locations_only():
    lowered = jax.jit(lambda a, b: a * b).lower(1.0, 2.0)
    located = lowered.as_text(debug_info=True)
    assert "loc(" not in lowered.as_text()
    assert 'tensor<f32> loc("a"), %arg1: tensor<f32> loc("b")' in located
    without = [re.sub(r" loc\([^()]*\)", "", line) for line in located.splitlines()
               if line and not line.startswith("#loc")]
    assert without == [line for line in lowered.as_text().splitlines() if line]
