"""Golden values of the demo (``python -m jaxle.demo``) from JAX 0.10.2, running the demo's own training code.

Run with JAX's venv (it needs scikit-learn for the digits): ``/work/jaxpeer/bin/python make_demo_golden.py jax``
writes ``packages/jaxle/src/jaxle/demo/jax_golden.json``. The file lives in the package, not here, because the
installed demo reads it to show that its numbers are JAX's.

The training modules take the ``jax`` module as a parameter and import nothing of jaxle's layers, so they are loaded
from the source tree under a stand-in ``jaxle`` package: importing the real one would need jaxle-xla, not JAX.
"""

from __future__ import annotations

import importlib
import json
import pathlib
import sys
import types

PACKAGE = pathlib.Path(__file__).parents[2] / "src" / "jaxle"


def demo_golden_module() -> types.ModuleType:
    """``jaxle.demo.golden`` imported without running ``jaxle/__init__.py``."""
    stand_in = types.ModuleType("jaxle")
    stand_in.__path__ = [str(PACKAGE)]
    sys.modules["jaxle"] = stand_in
    return importlib.import_module("jaxle.demo.golden")


def main() -> None:
    jax = importlib.import_module(sys.argv[1])
    golden = demo_golden_module()
    data = importlib.import_module("jaxle.demo.training").load_digits()
    values = golden.measure(jax, data)
    golden.GOLDEN_FILE.write_text(json.dumps(values, indent=1) + "\n")
    print(f"wrote {golden.GOLDEN_FILE}")


if __name__ == "__main__":
    main()
