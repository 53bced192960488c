"""``jax_dump_ir_to``: every module compiled is also written to that directory, as
``jax_ir<NNNN>_<module name>_compile.mlir`` (numbered in order of compilation), when ``jax_dump_ir_modes``
lists ``stablehlo`` (its default)."""

from __future__ import annotations

import itertools
import os
import re

from jaxle_core.config import config

__all__ = ["dump_compiled"]

_MODULE_NAME = re.compile(r"module @([\w.$-]+)")
_numbers = itertools.count()


def dump_compiled(module_text: str) -> None:
    """Write ``module_text`` to the dump directory, if one is set and StableHLO dumps are asked for."""
    directory = config.read("jax_dump_ir_to")
    if not directory or "stablehlo" not in str(config.read("jax_dump_ir_modes")).split(","):
        return
    found = _MODULE_NAME.search(module_text)
    name = found.group(1) if found else "module"
    os.makedirs(directory, exist_ok=True)
    path = os.path.join(directory, f"jax_ir{next(_numbers):04d}_{name}_compile.mlir")
    with open(path, "w") as file:
        file.write(module_text)
