"""Run programs written for JAX on jaxle, unmodified: ``install_as_jax()`` makes ``import jax`` import jaxle.

After ``install_as_jax()``, importing ``jax`` or any ``jax.<name>`` imports ``jaxle`` or ``jaxle.<name>`` (the same
module objects: ``jax.numpy is jaxle.numpy``), so a program or library written for JAX's public API runs on
jaxle. Names jaxle lacks fail as a missing module would (``ModuleNotFoundError: No module named 'jax.<name>'``).
The real ``jax`` is never imported: the aliases are found before any installed package, and installing them is
refused once a real ``jax`` module has been imported. The command line form runs a script or a module::

    python -m jaxle.compat run script.py [args...]
    python -m jaxle.compat run -m package.module [args...]
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import sys
from types import ModuleType
from typing import Any

__all__ = ["install_as_jax", "is_installed"]

_ALIAS = "jax"
_TARGET = "jaxle"


def _target_name(name: str) -> str | None:
    """The jaxle module that stands for module ``name`` (``jax.numpy`` -> ``jaxle.numpy``), None for other names."""
    if name == _ALIAS:
        return _TARGET
    if name.startswith(_ALIAS + "."):
        return _TARGET + name[len(_ALIAS):]
    return None


class _AliasLoader(importlib.abc.Loader):
    """Loads an alias as the jaxle module itself: nothing is executed, the module object is shared."""

    def __init__(self, module: ModuleType):
        self.module = module

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        return self.module

    def exec_module(self, module: ModuleType) -> None:
        """The jaxle module is already imported: nothing to run."""


class _JaxAliasFinder(importlib.abc.MetaPathFinder):
    """Answers every import of ``jax`` and ``jax.*`` with the jaxle module of the same path, before any other finder
    can find an installed jax."""

    def find_spec(self, fullname: str, path: Any = None, target: Any = None) -> importlib.machinery.ModuleSpec | None:
        target_name = _target_name(fullname)
        if target_name is None:
            return None
        try:
            module = importlib.import_module(target_name)
        except ModuleNotFoundError as err:
            if err.name != target_name:  # the jaxle module exists but failed to import something else: say so
                raise
            # No jaxle counterpart: the import fails (the parent alias's __path__ is jaxle's, so no other finder
            # can reach an installed jax's files either).
            return None
        return importlib.machinery.ModuleSpec(fullname, _AliasLoader(module), is_package=hasattr(module, "__path__"))


_finder = _JaxAliasFinder()


def is_installed() -> bool:
    """Whether ``import jax`` imports jaxle in this process."""
    return _finder in sys.meta_path


def install_as_jax() -> None:
    """Make ``import jax`` (and ``import jax.numpy``, ``from jax import lax``, ...) import jaxle's modules.

    Call it before anything imports ``jax``; it raises RuntimeError when the real ``jax`` is already imported.
    Calling it again does nothing.
    """
    real = [name for name, module in sys.modules.items()
            if _target_name(name) is not None and not _is_jaxle_module(module)]
    if real:
        names = ", ".join(sorted(real))
        raise RuntimeError(f"jaxle.compat.install_as_jax(): the real jax is already imported ({names} "
                           "in sys.modules); call install_as_jax() before anything imports jax, or use "
                           "`python -m jaxle.compat run script.py`.")
    if not is_installed():
        sys.meta_path.insert(0, _finder)
    importlib.import_module(_ALIAS)


def _is_jaxle_module(module: Any) -> bool:
    name = getattr(module, "__name__", "")
    return name == _TARGET or name.startswith(_TARGET + ".")
