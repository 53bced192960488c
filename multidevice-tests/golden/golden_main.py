"""The command line of this folder's golden generators: ``python make_NAME_golden.py jax`` imports the module named
on it with eight CPU devices and writes what the generator records of it as the generator's golden JSON.

Only JAX's records are goldens: those of another implementation (``jaxle``) are printed instead, for a look at
what differs. Imported by generators run under JAX as well, so it uses the standard library alone.
"""

from __future__ import annotations

import importlib
import json
import pathlib
import sys
from collections.abc import Callable
from types import ModuleType
from typing import Any

DEVICE_COUNT = 8


def implementation(*submodules: str) -> ModuleType:
    """The module named on the command line, set to run on eight CPU devices (before its backend starts), with its
    ``submodules`` (such as ``"experimental"``) imported."""
    module = importlib.import_module(sys.argv[1])
    module.config.update("jax_num_cpu_devices", DEVICE_COUNT)
    for name in submodules:
        importlib.import_module(f"{module.__name__}.{name}")
    return module


def examples(named: dict[str, Callable[[Any], Any]]) -> Callable[[ModuleType], dict]:
    """A ``record`` for ``main``: the record of each of the ``named`` examples in the format of
    integration-tests/golden/seed_golden.py (which the generators using it put on the path)."""
    import seed_golden

    return lambda module: {name: seed_golden.run_example(module, example) for name, example in named.items()}


def main(record: Callable[[ModuleType], dict], path: pathlib.Path, *submodules: str, indent: int = 1) -> None:
    """Write ``record(module)`` of the module named on the command line (see ``implementation``) to ``path`` as
    JSON with sorted keys, or print it when the module is not JAX."""
    module = implementation(*submodules)
    records = record(module)
    if module.__name__ != "jax":
        print(json.dumps(records))
        return
    path.write_text(json.dumps(records, indent=indent, sort_keys=True) + "\n")
