"""A compiled function's ``input_shardings``/``output_shardings`` (and its runtime executable's type) are JAX
0.10.2's (golden/compiled_shardings_golden.json), on 8 CPU devices in a fresh interpreter."""

import json
import os
import pathlib
import subprocess
import sys

import pytest

GOLDEN_DIR = pathlib.Path(__file__).parent / "golden"
GOLDEN = json.loads((GOLDEN_DIR / "compiled_shardings_golden.json").read_text())


@pytest.fixture(scope="module")
def mine():
    run = subprocess.run([sys.executable, str(GOLDEN_DIR / "make_compiled_shardings_golden.py"), "jaxle"],
                         capture_output=True, text=True, env=dict(os.environ), timeout=300)
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout)


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_matches_jax(mine, name):
    assert mine[name] == GOLDEN[name]
