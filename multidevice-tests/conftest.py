"""Tests that need several devices: eight CPU devices, set before any backend starts.

This folder runs in its own pytest process (see noxfile.py), so the device count does not leak into the other
suites; each xdist worker imports this file before it collects a test. The golden generators under golden/ are
importable by name.
"""

import pathlib
import sys

import jaxle

DEVICE_COUNT = 8
jaxle.config.update("jax_num_cpu_devices", DEVICE_COUNT)

GOLDEN_DIR = pathlib.Path(__file__).parent / "golden"
if str(GOLDEN_DIR) not in sys.path:
    sys.path.insert(0, str(GOLDEN_DIR))
