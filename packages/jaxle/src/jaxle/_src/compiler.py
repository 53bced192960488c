"""Compatibility shim for ``jax._src.compiler`` (see ``jaxle._src``): ``backend_compile_and_load`` is jaxle's
compilation entry point, and assigning the attribute replaces it for every compilation."""

import sys
import types

from jaxle_xla import _jaxlib

__all__ = ["backend_compile_and_load"]  # noqa: F822 - a property of the module's class, below


class _CompilerModule(types.ModuleType):
    """This module, whose ``backend_compile_and_load`` reads and writes jaxle's compile function."""

    @property
    def backend_compile_and_load(self):
        return _jaxlib.compile

    @backend_compile_and_load.setter
    def backend_compile_and_load(self, compile_function) -> None:
        _jaxlib.compile = compile_function


sys.modules[__name__].__class__ = _CompilerModule
