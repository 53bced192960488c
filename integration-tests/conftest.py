"""Make the golden generators importable by name from every test module here: the seed and README generators
(golden/), jaxle_random's (packages/random/tests/golden) and jaxle_numpy's (packages/numpy-api/tests/golden), whose
cases the XLA tests replay bit for bit, and
host_variants (packages/xla/tests/golden), which compares them with what JAX gives on this kind of CPU."""

import pathlib
import sys

HERE = pathlib.Path(__file__).parent
for golden_dir in (HERE / "golden", HERE.parent / "packages" / "random" / "tests" / "golden",
                   HERE.parent / "packages" / "numpy-api" / "tests" / "golden",
                   HERE.parent / "packages" / "xla" / "tests" / "golden"):
    if str(golden_dir) not in sys.path:
        sys.path.insert(0, str(golden_dir))
