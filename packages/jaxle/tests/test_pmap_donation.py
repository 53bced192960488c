"""``pmap(..., donate_argnums=)`` donates and reports as JAX 0.10.2's (golden/pmap_donation_golden.json): the
program donates whole positional arguments counted without the static ones, the lowered stage reports those numbers
as flat argument positions, static donated arguments are refused, unusable donations warn with each device's block;
on 8 CPU devices, in a fresh interpreter."""

import json
import os
import pathlib
import subprocess
import sys

import pytest

GOLDEN_DIR = pathlib.Path(__file__).parent / "golden"
GOLDEN = json.loads((GOLDEN_DIR / "pmap_donation_golden.json").read_text())


@pytest.fixture(scope="module")
def mine():
    run = subprocess.run([sys.executable, str(GOLDEN_DIR / "make_pmap_donation_golden.py"), "jaxle"],
                         capture_output=True, text=True, env=dict(os.environ), timeout=300)
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout)


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_matches_jax(mine, name):
    assert mine[name] == GOLDEN[name]
