"""The JAX programs of examples/jax_programs run unchanged with ``python -m jaxle.compat run`` and print what they
print on JAX 0.10.2 (golden/examples_golden.json, from make_examples_golden.py): the same lines, the same numbers."""

import json
import pathlib
import re
import subprocess
import sys

import numpy as np
import pytest

ROOT = pathlib.Path(__file__).parents[1]
PROGRAMS = ROOT / "examples" / "jax_programs"
GOLDEN = json.loads((pathlib.Path(__file__).parent / "golden" / "examples_golden.json").read_text())
_NUMBER = re.compile(r"-?\d+\.\d+")


def _text_and_numbers(lines: list[str]) -> tuple[list[str], list[float]]:
    return [_NUMBER.sub("#", line) for line in lines], [float(n) for line in lines for n in _NUMBER.findall(line)]


def test_every_program_has_golden_output():
    assert sorted(GOLDEN) == sorted(path.name for path in PROGRAMS.glob("*.py"))


@pytest.mark.parametrize("program", sorted(GOLDEN))
def test_program_prints_what_jax_prints(program):
    run = subprocess.run([sys.executable, "-m", "jaxle.compat", "run", str(PROGRAMS / program)], capture_output=True,
                         text=True, cwd=PROGRAMS, timeout=300)
    assert run.returncode == 0, run.stderr
    text, numbers = _text_and_numbers(run.stdout.splitlines())
    golden_text, golden_numbers = _text_and_numbers(GOLDEN[program])
    assert text == golden_text
    # Printed with six decimals; float32 training may differ from JAX's in the last printed digit.
    np.testing.assert_allclose(numbers, golden_numbers, rtol=1e-5, atol=2e-6)
