"""``jax.experimental.layout`` is JAX 0.10.2's (golden/layout_golden.json): ``Format``/``Layout`` objects and errors,
``Array.format``, ``device_put`` onto a ``Format`` (values read back in their layout, and through programs compiled
for another), ``jit`` given ``Format``s, compiled functions' ``input_formats``/``output_formats``; on 8 CPU
devices, in a fresh interpreter."""

import json
import os
import pathlib
import subprocess
import sys

import pytest

GOLDEN_DIR = pathlib.Path(__file__).parent / "golden"
GOLDEN = json.loads((GOLDEN_DIR / "layout_golden.json").read_text())


@pytest.fixture(scope="module")
def mine():
    run = subprocess.run([sys.executable, str(GOLDEN_DIR / "make_layout_golden.py"), "jaxle"],
                         capture_output=True, text=True, env=dict(os.environ), timeout=300)
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout)


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_matches_jax(mine, name):
    assert mine[name] == GOLDEN[name]
