"""Write scipy_submodule_names.json: every public name (with each function's signature) of the named module's
``scipy.linalg``, ``signal``, ``optimize``, ``ndimage``, ``integrate``, ``interpolate``, ``fft``, ``cluster``,
``cluster.vq``, ``sparse`` and ``sparse.linalg``.

    /work/jaxpeer/bin/python packages/numpy-api/tests/golden/make_scipy_submodule_names.py jax
"""

import importlib
import json
import pathlib
import sys

from make_scipy_names import function_records

SUBMODULES = ("linalg", "signal", "optimize", "ndimage", "integrate", "interpolate", "fft", "cluster", "cluster.vq",
              "sparse", "sparse.linalg")

if __name__ == "__main__":
    names = {sub: function_records(importlib.import_module(f"{sys.argv[1]}.scipy.{sub}")) for sub in SUBMODULES}
    path = pathlib.Path(__file__).parent / "scipy_submodule_names.json"
    path.write_text(json.dumps(names, indent=1, sort_keys=True) + "\n")
    print(f"{sum(map(len, names.values()))} names -> {path}")
