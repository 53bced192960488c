"""Make jaxle_random's golden generators (packages/random/tests/golden) importable by name: the XLA tests here
replay their cases bit for bit."""

import pathlib
import sys

RANDOM_GOLDEN_DIR = pathlib.Path(__file__).parents[1] / "packages" / "random" / "tests" / "golden"
if str(RANDOM_GOLDEN_DIR) not in sys.path:
    sys.path.insert(0, str(RANDOM_GOLDEN_DIR))
