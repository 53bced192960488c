"""Tests that need several devices: eight CPU devices, set before any backend starts.

This folder runs in its own pytest process (see noxfile.py), so the device count does not leak into the other
suites; each xdist worker imports this file before it collects a test. The golden generators under golden/ are
importable by name, and so is host_variants (packages/xla/tests/golden), which compares their outcomes with what JAX
gives on this kind of CPU.
"""

import pathlib
import sys

import jaxle

DEVICE_COUNT = 8
jaxle.config.update("jax_num_cpu_devices", DEVICE_COUNT)

HERE = pathlib.Path(__file__).parent
for golden_dir in (HERE / "golden", HERE.parent / "packages" / "xla" / "tests" / "golden"):
    if str(golden_dir) not in sys.path:
        sys.path.insert(0, str(golden_dir))
