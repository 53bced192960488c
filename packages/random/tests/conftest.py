"""Make the golden generators under tests/golden importable by name from every test module."""

import pathlib
import sys

GOLDEN_DIR = pathlib.Path(__file__).parent / "golden"
if str(GOLDEN_DIR) not in sys.path:
    sys.path.insert(0, str(GOLDEN_DIR))
