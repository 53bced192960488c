"""Programs written with optax for JAX (examples/) run unchanged with ``python -m jaxle.compat run`` and print what
they print on JAX 0.10.2 (golden.json, from make_golden.py). Run where optax is installed: the ``clients`` session."""

import json
import pathlib
import re
import subprocess
import sys

import numpy as np
import pytest
from make_golden import EXAMPLES, PROGRAMS

GOLDEN = json.loads((pathlib.Path(__file__).parent / "golden.json").read_text())
DECIMAL = re.compile(r"-?\d+\.\d+")


def test_every_program_has_golden_output():
    assert sorted(GOLDEN) == sorted(PROGRAMS)


@pytest.mark.parametrize("program", PROGRAMS)
def test_program_prints_what_jax_prints(program):
    run = subprocess.run([sys.executable, "-m", "jaxle.compat", "run", program], capture_output=True, text=True,
                         cwd=EXAMPLES, timeout=300)
    assert run.returncode == 0, run.stderr
    lines, golden = run.stdout.splitlines(), GOLDEN[program]
    assert [DECIMAL.sub("#", line) for line in lines] == [DECIMAL.sub("#", line) for line in golden]
    numbers = [float(n) for line in lines for n in DECIMAL.findall(line)]
    golden_numbers = [float(n) for line in golden for n in DECIMAL.findall(line)]
    # printed with six decimals: float32 training may differ from JAX's in the last printed digit
    np.testing.assert_allclose(numbers, golden_numbers, rtol=1e-5, atol=2e-6)
