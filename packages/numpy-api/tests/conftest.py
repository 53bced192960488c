"""Make the golden generators under tests/golden importable by name from every test module.

jaxle-numpy's tests run on core's NumPy reference backend (jaxle-numpy depends on core alone); the integration
tests run jnp on XLA.
"""

import pathlib
import sys

GOLDEN_DIR = pathlib.Path(__file__).parent / "golden"
if str(GOLDEN_DIR) not in sys.path:
    sys.path.insert(0, str(GOLDEN_DIR))
