"""Tests that need several devices: eight CPU devices, set before any backend starts.

This folder runs in its own pytest process (see noxfile.py), so the device count does not leak into the other
suites; each xdist worker imports this file before it collects a test. The golden generators under golden/ are
importable by name, and so is host_variants (packages/xla/tests/golden), which compares their outcomes with what JAX
gives on this kind of CPU. ``golden_cases_test`` makes the test most files here start with.
"""

import importlib
import json
import pathlib
import sys
from collections.abc import Callable
from types import ModuleType

import pytest

import jaxle

DEVICE_COUNT = 8
jaxle.config.update("jax_num_cpu_devices", DEVICE_COUNT)

HERE = pathlib.Path(__file__).parent
for golden_dir in (HERE / "golden", HERE.parent / "packages" / "xla" / "tests" / "golden"):
    if str(golden_dir) not in sys.path:
        sys.path.insert(0, str(golden_dir))


def golden_cases_test(generator: str) -> tuple[ModuleType, dict, Callable[[str], None]]:
    """The golden generator ``generator`` (``make_NAME_golden``) imported, its records of JAX (``NAME_golden.json``)
    and ``test_matches_jax``, parametrized over the generator's ``CASES``: each case run with jaxle records what it
    recorded with JAX. A test file assigns the three: ``GEN, GOLDEN, test_matches_jax = golden_cases_test(...)``."""
    gen = importlib.import_module(generator)
    golden = json.loads((gen.HERE / f"{generator.removeprefix('make_')}.json").read_text())

    @pytest.mark.parametrize("name", sorted(gen.CASES))
    def test_matches_jax(name: str) -> None:
        assert gen.CASES[name](jaxle) == golden[name]

    return gen, golden, test_matches_jax
